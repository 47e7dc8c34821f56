package party

import (
	"math/rand/v2"
	"time"

	"pitwall/race"
)

// maxCandidates bounds the orders the search bot tries at once: a roll
// with routes through many forks lists dozens.
const maxCandidates = 12

// Candidates implements race.Searcher: the orders the choices allow now
// (a roll and its routes through the forks ahead, or each way on from the
// fork waited at), the heuristic bot's first; past maxCandidates, a sample
// drawn with rng.
func (r Ruleset) Candidates(st race.State, seat int, inWindow bool, rng *rand.Rand) []string {
	ch, err := r.Choices(st, seat)
	if err != nil {
		return nil // the seat may not order now
	}
	out := []string{r.BotOrder(st, seat, inWindow, rng)}
	var allowed []string
	for _, c := range ch.(Choices).Orders {
		if c.Allowed && c.Note == "" {
			allowed = append(allowed, c.Order)
		}
	}
	rng.Shuffle(len(allowed), func(i, j int) { allowed[i], allowed[j] = allowed[j], allowed[i] })
	return race.Distinct(append(out, allowed[:min(len(allowed), maxCandidates)]...))
}

// Score implements race.Searcher: stars, then coins, as the standings go;
// before the end a star counts as two stars' price (it costs one, and
// coins buy nothing else that lasts), after it above any coins.
func (Ruleset) Score(st race.State, seat int) float64 {
	s := st.(*State)
	p := s.player(seat)
	if p == nil {
		return 0
	}
	star := 2.0 * starPrice
	if s.Over() {
		star = 1e4
	}
	return star*float64(p.Stars) + float64(p.Coins)
}

// Clock is the latest time the game has seen (race.Clocked): the search
// bot's playouts go on through the calendar from there.
func (Ruleset) Clock(st race.State) time.Time { return st.(*State).Clock }

var _ race.Clocked = Ruleset{}

var _ race.Searcher = Ruleset{}
