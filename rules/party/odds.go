package party

import (
	"fmt"
	"slices"
	"strconv"

	"pitwall/dice"
	"pitwall/race"
)

// orDefault is the list a roll uses: an MRDL left undefined rolls [d10].
func (m MRDL) orDefault() MRDL {
	if len(m) == 0 {
		return MRDL{{Sides: 10}}
	}
	return m
}

// Movement is one value a movement roll can take and its chance.
type Movement struct {
	Movement int     `json:"movement"`
	Chance   float64 `json:"chance"`
}

// movementOdds is the exact distribution of a movement roll: every face of
// every die of the list (the dice Resolve rolls), plus its integers and the
// player's boost, in increasing order of Movement. Slices, not maps, so that
// the sums are made in one order and the same state gives the same bits.
func (m MRDL) movementOdds(boost int) []Movement {
	lo, p := boost, []float64{1}
	for _, t := range m.orDefault() {
		if t.Sides == 0 {
			lo += t.Add
			continue
		}
		faces := dice.D(t.Sides).Faces
		next := make([]float64, len(p)+faces[len(faces)-1]-faces[0])
		for i, x := range p {
			for _, f := range faces {
				next[i+f-faces[0]] += x / float64(len(faces))
			}
		}
		lo += faces[0]
		p = next
	}
	// Plain dice have faces 1..N, so every sum between the least and the
	// most has a chance.
	out := make([]Movement, len(p))
	for i, x := range p {
		out[i] = Movement{Movement: lo + i, Chance: x}
	}
	return out
}

// Odds are the chances, exact over the dice, of how a move ends. Lands and
// Waits together sum to 1: a move either lands or stops at a fork its route
// does not answer, for the player to choose.
type Odds struct {
	Lands map[string]float64 `json:"lands"`           // by the id of the space landed on
	Types map[string]float64 `json:"types"`           // by the type of the space landed on
	Waits map[string]float64 `json:"waits,omitempty"` // by the id of the fork stopped at
	// Star is the chance of passing a star space on the way (a player with
	// the coins buys a star there).
	Star float64 `json:"passes_star"`
}

// moveOdds are the odds of a move from the space from, with Movement
// distributed as ms, answering the forks met with route. One walk with the
// most Movement does for every value: a smaller one takes the same spaces
// and lands where its last point of Movement is spent.
func (b *Board) moveOdds(from string, ms []Movement, route []string) Odds {
	o := Odds{Lands: map[string]float64{}, Types: map[string]float64{}}
	hi := 0
	for _, m := range ms {
		hi = max(hi, m.Movement)
	}
	type stop struct {
		at   string
		star bool // a star space passed before it
	}
	var stops []stop // stops[k-1]: where a Movement of k lands
	star := false
	w := b.walk(from, hi, route, func(id string) {
		sp := b.Space(id)
		star = star || sp.Type == Star
		if sp.Decrements() {
			stops = append(stops, stop{id, star})
		}
	})
	if w.err != nil {
		return o // a validated board cannot get here
	}
	for _, m := range ms {
		switch {
		case m.Movement <= 0: // no move: the player lands where they stand
			o.Lands[from] += m.Chance
			o.Types[string(b.Space(from).Type)] += m.Chance
		case m.Movement <= len(stops):
			st := stops[m.Movement-1]
			o.Lands[st.at] += m.Chance
			o.Types[string(b.Space(st.at).Type)] += m.Chance
			if st.star {
				o.Star += m.Chance
			}
		default: // Movement left at a fork the route does not answer
			if o.Waits == nil {
				o.Waits = map[string]float64{}
			}
			o.Waits[w.fork] += m.Chance
			if star {
				o.Star += m.Chance
			}
		}
	}
	return o
}

// routes lists the ways of answering the forks that a move of at most hi
// from the space from can meet: every prefix, depth first, each fork's ways
// in the board's order, at most limit of them (more says some were left
// out); and the forks met, each once, in the order first met.
func (b *Board) routes(from string, hi, limit int) (routes [][]string, forks []string, more bool) {
	var dfs func(prefix []string)
	dfs = func(prefix []string) {
		w := b.walk(from, hi, prefix, nil)
		if w.fork == "" || w.err != nil {
			return
		}
		if len(prefix) == maxRoute { // an order answers no more forks
			more = true
			return
		}
		if !slices.Contains(forks, w.fork) {
			forks = append(forks, w.fork)
		}
		for _, way := range b.Successors(w.fork) {
			if len(routes) == limit {
				more = true
				return
			}
			r := append(append([]string(nil), prefix...), way)
			routes = append(routes, r)
			dfs(r)
		}
	}
	dfs(nil)
	return routes, forks, more
}

// Checks implements race.Oddser.
func (Ruleset) Checks() []race.Check {
	return []race.Check{
		{Name: "movement", Help: "a movement roll: every die of the player's MRDL plus its integers and a happening's boost",
			Flags: []race.Flag{{Name: "mrdl", Values: "the dice list, such as d10 or '2d6 +1' (default d10)"},
				{Name: "boost", Values: "added by a tailwind, 0.." + strconv.Itoa(maxAdd) + " (default 0)"}},
			Outcomes: []string{"1", "2", "..."}},
		{Name: "happening", Help: "a Happening space's d6: 1-2 a Thwomp shakes coins loose, 3-4 a coin shower, 5-6 a tailwind for the next roll",
			Outcomes: []string{thwomp, coinShower, tailwind}},
		{Name: "chance", Help: "Chance Time's d6 (after a die picks the other player): 1-2 the lander gives coins, 3-4 takes them, 5 swap coins, 6 swap stars",
			Outcomes: []string{givesCoins, takesCoins, swapCoins, swapStars}},
	}
}

// Odds implements race.Oddser.
func (o Ruleset) Odds(check string, args map[string]string) (map[string]float64, error) {
	c, err := race.FindCheck("party", o.Checks(), check, args)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	switch c.Name {
	case "happening":
		for _, v := range happeningOn[1:] {
			out[v] += 1.0 / 6
		}
	case "chance":
		for _, v := range chanceOn[1:] {
			out[v] += 1.0 / 6
		}
	default:
		var m MRDL // undefined: the roll's own default, [d10]
		if text, ok := args["mrdl"]; ok {
			if m, err = ParseMRDL(text); err != nil {
				return nil, fmt.Errorf("--mrdl: %w", err)
			}
		}
		boost, err := race.IntFlag(args, "boost", 0, 0, maxAdd)
		if err != nil {
			return nil, err
		}
		for _, mv := range m.movementOdds(boost) {
			out[strconv.Itoa(mv.Movement)] += mv.Chance
		}
	}
	return out, nil
}
