package rtd

import (
	"strings"
	"testing"

	"pitwall/race/racetest"
)

// In bot races, every blue shell strike, item hit, blast, ram that
// struck, wipe-out, pull ahead and nailed or fluffed rocket start is told
// among the moments, and a ram that bounced off or a pull ahead that
// failed is not.
func TestMoments(t *testing.T) {
	counts := map[string]int{}
	for _, course := range []string{"luigi-circuit", "rainbow-road", "brickwork-bay"} {
		for seed := uint64(1); seed <= 3; seed++ {
			_, p := botRace(t, seed, 8, course)
			for _, tn := range p.Turns {
				s := tn.After.(*State)
				ms := Ruleset{}.Moments(tn.Before, tn.After, tn.Events)
				joined := strings.Join(ms, "\n")
				has := func(what string, e string) {
					counts[what]++
					if !strings.Contains(joined, e) {
						t.Errorf("%s seed %d turn %d: %q not among %q", course, seed, tn.Turn, e, ms)
					}
				}
				// hasBoth: one moment tells of name and of what befell it
				// (the moment may tell others with it: "A and B nail ...").
				hasBoth := func(what, name, befell string) {
					counts[what]++
					for _, m := range ms {
						if strings.Contains(m, name) && strings.Contains(m, befell) {
							return
						}
					}
					t.Errorf("%s seed %d turn %d: no moment tells %q of %s: %q", course, seed, tn.Turn, befell, name, ms)
				}
				rams := 0
				for i, e := range tn.Events {
					name := ""
					if x := s.racer(e.Seat); x != nil {
						name = x.Name
					}
					switch {
					case e.Kind == "blue shell" && strings.Contains(e.Text, "strikes the leader"):
						has("blue shell", "the blue shell strikes "+name)
						if i+1 < len(tn.Events) && tn.Events[i+1].Kind == "hit" && tn.Events[i+1].Seat == e.Seat {
							// What the strike did is one moment with it.
							has("blue shell hit", "the blue shell strikes "+name+", who ")
						}
					case e.Kind == "hit":
						// what befell it: the event's words after the name, up to a colon
						befell, _, _ := strings.Cut(strings.TrimPrefix(e.Text, name), ":")
						hasBoth("hit", name, strings.TrimSpace(befell))
					case e.Kind == "blast" && strings.Contains(e.Text, "caught in the blast"):
						hasBoth("blast", name, " in the blast")
						if !strings.Contains(joined, " out in the blast") {
							t.Errorf("%s seed %d turn %d: %s's blast not among %q", course, seed, tn.Turn, name, ms)
						}
					case e.Kind == "ram" && (strings.Contains(e.Text, "bounces off") || strings.Contains(e.Text, "cannot touch")):
						counts["ram missed"]++
					case e.Kind == "ram":
						rams++
						has("ram", name+" rams ")
					case e.Kind == "fall back" && strings.Contains(e.Text, "wipes out"):
						has("wipe-out", name+" wipes out and falls back")
					case e.Kind == "pull ahead" && strings.Contains(e.Text, "and cannot"):
						counts["pull ahead missed"]++
					case e.Kind == "pull ahead" && !strings.Contains(e.Text, "is caught"):
						has("pull ahead", name+" pulls ahead")
					case e.Kind == "start" && strings.Contains(e.Text, "nails the rocket start"):
						hasBoth("rocket start", name, " the rocket start")
					}
				}
				if got := strings.Count(joined, " rams "); got != rams {
					t.Errorf("%s seed %d turn %d: %d rams told, %d struck: %q", course, seed, tn.Turn, got, rams, ms)
				}
			}
		}
	}
	t.Logf("%v", counts)
	racetest.Met(t, "", counts, "blue shell", "blue shell hit", "hit", "blast", "ram", "ram missed", "wipe-out", "pull ahead", "pull ahead missed", "rocket start")
}
