package rtd

import (
	"math/rand/v2"

	"pitwall/race"
)

// Candidates implements race.Searcher: every action the choices allow now
// (each plain and, after the start, with the pull clause the race's
// options call for), the heuristic bot's among them.
func (r Ruleset) Candidates(st race.State, seat int, inWindow bool, rng *rand.Rand) []string {
	ch, err := r.Choices(st, seat)
	if err != nil {
		return nil // the seat may not order now
	}
	out := []string{r.BotOrder(st, seat, inWindow, rng)}
	for _, c := range ch.(Choices).Actions {
		if c.Allowed {
			out = append(out, c.Order)
		}
	}
	return race.Distinct(out)
}

// Score implements race.Searcher: segments driven (laps counted) first,
// then the place within them, Momentum (each point a square of the pass
// check) and an item in hand; a finished racer above every one racing,
// the earlier finish higher.
func (Ruleset) Score(st race.State, seat int) float64 {
	s := st.(*State)
	x := s.racer(seat)
	if x == nil {
		return 0
	}
	if x.Finished {
		for i, f := range s.Finish {
			if f == seat {
				return 1e6 - 1e3*float64(i)
			}
		}
		return 1e6 - 1e3*float64(len(s.Racers))
	}
	v := 100*float64(s.distance(x)) + 40*float64(len(s.Order)-s.position(seat)) + 15*float64(x.Momentum)
	if x.Hand != 0 {
		v += 5
	}
	return v
}

var _ race.Searcher = Ruleset{}
