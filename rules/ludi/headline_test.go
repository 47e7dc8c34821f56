package ludi

import (
	"strings"
	"testing"

	"pitwall/race/racetest"
)

// In bot races, every naufragia, every crash that struck home (with the
// chariot it struck) and every lash that stunned is a moment; a crash that
// missed and a lash that did no harm are not.
func TestMoments(t *testing.T) {
	counts := map[string]int{}
	for seed := uint64(1); seed <= 6; seed++ {
		_, p := botRace(t, seed, 12)
		for _, tn := range p.Turns {
			s := tn.After.(*State)
			ms := Ruleset{}.Moments(tn.Before, tn.After, tn.Events)
			joined := "\n" + strings.Join(ms, "\n") + "\n"
			want := 0
			for _, e := range tn.Events {
				name := s.chariot(e.Seat).Name
				switch {
				case e.Kind == "naufragia":
					counts["naufragia"]++
					want++
					if !strings.Contains(joined, "\nnaufragia: "+name+" overturns\n") {
						t.Errorf("seed %d turn %d: %s's naufragia not among %q", seed, tn.Turn, name, ms)
					}
				case e.Kind == "crash" && strings.Contains(e.Text, " crashes into the "):
					counts["crash"]++
					want++
					// "A crashes into the horses of D alongside, ..."
					rest := e.Text[strings.Index(e.Text, " of ")+4:]
					found := false
					for _, m := range ms {
						found = found || strings.HasPrefix(m, name+" crashes into ") && strings.HasPrefix(rest, strings.TrimPrefix(m, name+" crashes into "))
					}
					if !found {
						t.Errorf("seed %d turn %d: %q not among %q", seed, tn.Turn, e.Text, ms)
					}
				case e.Kind == "crash":
					counts["missed"]++
				case e.Kind == "lacerate" && strings.Contains(e.Text, "is stunned for"):
					counts["stun"]++
					want++
					if !strings.Contains(joined, "\n"+name+"'s whip stuns ") {
						t.Errorf("seed %d turn %d: %q not among %q", seed, tn.Turn, e.Text, ms)
					}
				case e.Kind == "lacerate":
					counts["no harm"]++
				}
			}
			if len(ms) != want {
				t.Errorf("seed %d turn %d: %d moments, want %d: %q", seed, tn.Turn, len(ms), want, ms)
			}
		}
	}
	t.Logf("%v", counts)
	racetest.Met(t, "", counts, "naufragia", "crash", "missed", "stun", "no harm")
}
