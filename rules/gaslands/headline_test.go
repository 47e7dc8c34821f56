package gaslands

import (
	"strings"
	"testing"

	"pitwall/race/racetest"
)

// In bot races, every wipe-out, spin that turns the kart, collision of two
// karts and shell thrown is among the activation's moments; a spin of less
// than a degree is not.
func TestMoments(t *testing.T) {
	counts := map[string]int{}
	for _, track := range []string{"luigi-raceway", "bowser-castle"} {
		for seed := uint64(1); seed <= 3; seed++ {
			_, p := botRace(t, seed, 6, track)
			for _, tn := range p.Turns {
				s := tn.After.(*State)
				ms := Ruleset{}.Moments(tn.Before, tn.After, tn.Events)
				joined := strings.Join(ms, "\n")
				spins := 0
				for _, e := range tn.Events {
					name := ""
					if i := s.seatIndex(e.Seat); e.Seat >= 0 && i >= 0 {
						name = s.Karts[i].Name
					}
					has := func(what, want string) {
						counts[what]++
						if !strings.Contains(joined, want) {
							t.Errorf("%s seed %d activation %d: %q not among %q", track, seed, tn.Turn, want, ms)
						}
					}
					switch {
					case e.Kind == "wipeout":
						has("wipeout", name+" wipes out")
					case e.Kind == "spin" && strings.Contains(e.Text, "less than a degree"):
						counts["no turn"]++
					case e.Kind == "spin":
						spins++
						has("spin", name+" spins")
					case e.Kind == "collision" && name != "" && strings.Count(e.Text, "Kart") == 2:
						has("collision", name+" and ")
					case e.Kind == "attack" && strings.Contains(e.Text, " throws "):
						has("attack", e.Text[:strings.Index(e.Text, " (")])
					}
				}
				if got := strings.Count(joined, " spins"); got != spins {
					t.Errorf("%s seed %d activation %d: %d spins told, %d turned: %q", track, seed, tn.Turn, got, spins, ms)
				}
			}
		}
	}
	t.Logf("%v", counts)
	racetest.Met(t, "", counts, "wipeout", "spin", "collision", "attack")
}
