package rtd

import (
	"strings"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
)

func botRace(t testing.TB, seed uint64, n int, course string) (*race.Race, *race.Played) {
	t.Helper()
	karts := []map[string]string{nil, {"perk": "item-bonus", "debuff": "slow"}, {"perk": "ramming-speed", "debuff": "low-loot"},
		{"perk": "high-acceleration", "debuff": "featherweight"}}
	es := racetest.Entrants(n, "Racer ", func(i int) map[string]string { return karts[i%4] })
	return racetest.BotRace(t, Ruleset{}, seed, 5, race.Config{Track: course}, es, racetest.Options{Miss: 10, MaxTurns: 300})
}

func TestBotRacesEnd(t *testing.T) {
	for _, c := range []string{"luigi-circuit", "rainbow-road", "brickwork-bay"} {
		_, p := botRace(t, 1, 8, c)
		s := p.State.(*State)
		if len(s.Finish) != 8 {
			t.Fatalf("%s: %d of 8 finished", c, len(s.Finish))
		}
		st := (Ruleset{}).Standings(s)
		for i, x := range st {
			if x.Seat != s.Finish[i] || x.Place != i+1 {
				t.Fatalf("%s: standing %d is seat %d, finish order says %d", c, i+1, x.Seat, s.Finish[i])
			}
		}
		t.Logf("%s: %d turns", c, len(p.Turns))
	}
}

func TestReplayThousandRaces(t *testing.T) {
	courses := []string{"luigi-circuit", "rainbow-road", "brickwork-bay"}
	for range racetest.Replays(t, Ruleset{}, 50, func(seed uint64) (*race.Race, *race.Played) {
		return botRace(t, seed, 2+int(seed%11), courses[seed%3])
	}) {
		// Replays' own checks are all this test asks of a race.
	}
}

// Bots finish races under every value of every race option, and such a race
// replays the same: the options are in the state from the setup on.
func TestBotRacesWithOptions(t *testing.T) {
	karts := []map[string]string{nil, {"perk": "item-bonus", "debuff": "slow"}, {"perk": "ramming-speed", "debuff": "low-loot"},
		{"perk": "high-acceleration", "debuff": "featherweight"}}
	es := racetest.Entrants(6, "Racer ", func(i int) map[string]string { return karts[i%4] })
	for _, f := range optionFields {
		for i, v := range f.Values {
			cfg := race.Config{Track: "luigi-circuit", Options: map[string]string{f.Name: v}}
			r, p := racetest.BotRace(t, Ruleset{}, uint64(3+i), 5, cfg, es, racetest.Options{Miss: 10, MaxTurns: 300})
			s := p.State.(*State)
			if len(s.Finish) != 6 {
				t.Fatalf("%s=%s: %d of 6 finished in %d turns", f.Name, v, len(s.Finish), len(p.Turns))
			}
			racetest.SameReplay(t, Ruleset{}, r, p)
			tries, stays := 0, 0
			for _, turn := range p.Turns {
				for _, e := range turn.Events {
					switch {
					case e.Kind == "pull ahead" && strings.Contains(e.Text, "stays with the pack"):
						stays++
					case e.Kind == "pull ahead":
						tries++
					}
				}
			}
			if tries == 0 || stays > 0 { // the bots pull ahead whenever they may, by order where it takes one
				t.Errorf("%s=%s: %d tries to pull ahead, %d racers stayed with the pack", f.Name, v, tries, stays)
			}
			t.Logf("%s=%s: %d turns, %d tries to pull ahead", f.Name, v, len(p.Turns), tries)
		}
	}
}
