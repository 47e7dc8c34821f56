package gaslands

import (
	"math/rand/v2"

	"pitwall/race"
)

// Candidates implements race.Searcher: the heuristic bot's order, then the
// same order on every template and side the kart's gear permits (its skid
// dice, shell and collisions kept; the forced move off a boost left to the
// default, as it depends on the template), then the heuristic's template
// with no skid dice, and with one to three dice shifting up or down; each
// that the kart may order now.
func (r Ruleset) Candidates(st race.State, seat int, inWindow bool, rng *rand.Rand) []string {
	s, ok := st.(*State)
	if !ok || seat < 0 || seat >= len(s.Karts) {
		return nil // no kart of that seat: nothing to order
	}
	heur := r.BotOrder(st, seat, inWindow, rng)
	out := []string{heur}
	o, err := Parse(heur, s.M)
	if err != nil {
		return out
	}
	k := s.Karts[seat]
	try := func(x Order) {
		if s.legal(seat, x) == nil {
			out = append(out, x.String())
		}
	}
	s.M.eachSide(s.M.Allowed(k.Gear), func(name string, tm Template, left bool) bool {
		x := o
		x.Template, x.Left, x.Side, x.Boost, x.BoostLeft = name, left, !tm.Straight(), "", false
		try(x)
		return true
	})
	x := o
	x.Skid, x.Shift, x.Push = 0, 0, false
	try(x)
	for dice := 1; dice <= min(3, k.Handling); dice++ {
		for _, shift := range []int{1, -1} {
			x.Skid, x.Shift = dice, shift
			try(x)
		}
	}
	return race.Distinct(out)
}

// The weights of Score, in mm of the way round.
const (
	scoreHazard   = 15  // each hazard token: six wipe the kart out
	scoreGear     = 20  // each gear: the ground its next moves cover
	scoreFinished = 1e7 // a finished kart, above any racing
)

// Score implements race.Searcher: how far round the race the kart has come
// (Distance), its gear, less its hazard tokens; a finished kart above all
// racing, the better place higher.
func (Ruleset) Score(st race.State, seat int) float64 {
	s := st.(*State)
	if seat < 0 || seat >= len(s.Karts) {
		return 0
	}
	k := s.Karts[seat]
	if k.Finished {
		return scoreFinished - float64(1e4*float64(k.Place))
	}
	return s.Distance(k) + float64(scoreGear*float64(k.Gear)) - float64(scoreHazard*float64(k.Hazards))
}

// SearchBudget is the search bot's budget (race.Budgeter): the heuristic
// bot plans every template at length, so a playout of a few activations
// costs much; fewer playouts, each two activations past the candidate's.
func (Ruleset) SearchBudget() (playouts, depth int) { return 24, 2 }

var _ race.Budgeter = Ruleset{}

var _ race.Searcher = Ruleset{}
