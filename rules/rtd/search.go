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

// Score implements race.Searcher: a kart's strength in the model of
// value.go (segments driven and Momentum, worth more as the finish nears;
// first place; an item in hand), a finished kart above every one racing,
// the earlier finish higher. The search itself goes by Value.
func (Ruleset) Score(st race.State, seat int) float64 {
	s := st.(*State)
	x := s.racer(seat)
	if x == nil {
		return 0
	}
	if x.Finished {
		return 1e6 - 1e3*float64(s.position(seat)) // the finishers lead the order, as they finished
	}
	return s.strength(x)
}

// SearchBudget is the search bot's budget (race.Budgeter): a turn's
// outcome is mostly its dice, and Value judges where the turn leaves the
// race, so each playout plays the candidate's turn alone, and many of
// them tell the candidates apart (a turn of two karts resolves in a few
// microseconds).
func (Ruleset) SearchBudget() (playouts, depth int) { return 1024, race.NoLookahead }

var (
	_ race.Searcher = Ruleset{}
	_ race.Budgeter = Ruleset{}
)
