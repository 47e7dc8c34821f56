package ludi

import (
	"math/rand/v2"
	"strings"

	"pitwall/race"
)

// Candidates implements race.Searcher: each order the choices allow first
// (in a turn of two or three orders, followed by the heuristic bot's later
// orders, or by itself again, each 'else Brake'); in the bonus window each
// with the bonus move. The heuristic bot's own orders come first.
func (r Ruleset) Candidates(st race.State, seat int, inWindow bool, rng *rand.Rand) []string {
	heur := r.BotOrder(st, seat, inWindow, rng)
	out := []string{heur}
	ch, err := r.Choices(st, seat)
	if err != nil || heur == "" {
		return race.Distinct(out) // none, when the bot sends nothing
	}
	c := ch.(Choices)
	// The heuristic's later orders, its bonus left off: a tail any first
	// order may take.
	parts := strings.Split(heur, ", ")
	var bonus string
	if last := parts[len(parts)-1]; strings.HasPrefix(last, "bonus") {
		bonus, parts = ", "+last, parts[:len(parts)-1]
	}
	if inWindow && bonus == "" {
		bonus = ", bonus move"
	}
	tail := ""
	if len(parts) > 1 {
		tail = ", " + strings.Join(parts[1:], ", ")
	}
	for _, f := range c.First {
		if !f.Allowed {
			continue
		}
		out = append(out, f.Order+tail+bonus)
		if c.Orders > 1 {
			out = append(out, repeatText(f.Order, c.Orders)+bonus)
		}
	}
	return race.Distinct(out)
}

// The weights of Score, in spaces of lane 1.
const (
	scoreDamage    = 4  // each point of damage to a side (the third flips it)
	scoreFlipped   = 40 // a wreck hanging on: out of the running for the turns it hangs
	scoreEndurance = 2  // each Endurance point spent or horse hurt
	scoreLevel     = 2  // each speed level: ground the next turns will gain
	scoreFinished  = 1e6
)

// Score implements race.Searcher: the spaces run (laps counted, in lane 1's
// spaces), less what damage, a flip and spent horses cost, more for the
// speed held; a finished chariot above all racing, the earlier higher, and
// one out of the race below them all.
func (Ruleset) Score(st race.State, seat int) float64 {
	s := st.(*State)
	c := s.chariot(seat)
	if c == nil {
		return 0
	}
	for i, f := range s.Finish {
		if f == seat {
			return scoreFinished - 1e3*float64(i)
		}
	}
	if !c.Active() {
		return -scoreFinished
	}
	t := s.track
	perSeg := float64(t.LapLength(1)) / float64(len(t.Segments))
	v := (float64(c.Lap*len(t.Segments)) + t.Progress(c.Pos)) * perSeg
	v -= scoreDamage * float64(c.DamageL+c.DamageR)
	v -= scoreEndurance * float64(c.EnduranceLost())
	v += scoreLevel * float64(c.Level)
	if c.Flipped {
		v -= scoreFlipped
	}
	return v
}

var _ race.Searcher = Ruleset{}
