package ludi

import (
	"pitwall/race"
)

// Choices is what an auriga may order this turn, as data (race.Chooser).
type Choices struct {
	// Orders is how many orders this turn takes: one, or two or three with
	// a contingency on each after the first.
	Orders int `json:"orders"`
	// First lists every order the racer could name, each with whether it
	// may be the first order now, and if not why (with its code).
	First []Choice `json:"first"`
	// Later are the orders allowed as the second and third: judged when
	// they are played, as they depend on where the chariot will be.
	Later []string `json:"later,omitempty"`
	// Contingencies are the orders a later order may fall back on
	// ('Whip else Brake').
	Contingencies []string `json:"contingencies,omitempty"`
	// Bonus are the bonuses orders sent in the host's bonus window may add
	// (', bonus move'); refused outside the window.
	Bonus []string `json:"bonus"`
	Note  string   `json:"note,omitempty"`
}

// Choice is one order and whether it may be given now.
type Choice struct {
	race.OrderChoice
	// Level is the speed level the chariot moves at under this order, and
	// Odds the exact chance of each outcome of that move (Outcomes), both
	// for an allowed order only; see orderOdds for what is assumed.
	Level string             `json:"level,omitempty"`
	Odds  map[string]float64 `json:"odds,omitempty"`
}

// Choices implements race.Chooser.
func (Ruleset) Choices(st race.State, seat int) (any, error) {
	s, c, err := race.Seated("a ludi state", st, seat, (*State).orderer)
	if err != nil {
		return nil, err
	}
	allowed, why := s.allowed(c)
	out := Choices{Orders: s.Orders, Bonus: []string{"bonus move", "bonus initiative"}}
	if why != "now" {
		out.Note = "orders " + why
	}
	for k := Left1; k <= RollAway; k++ {
		ch := Choice{OrderChoice: race.Judge(k.String(), wordsFor(k), s.firstOrder(c, k))}
		if ch.Allowed {
			l, odds := s.orderOdds(seat, k)
			ch.Level, ch.Odds = l.String(), odds
		}
		out.First = append(out.First, ch)
	}
	if s.Orders > 1 {
		for _, k := range allowed {
			out.Later = append(out.Later, k.String())
		}
		for _, k := range contingencies {
			out.Contingencies = append(out.Contingencies, k.String())
		}
	}
	return out, nil
}

// wordsFor lists what a racer may write for k, shortest first.
func wordsFor(k Kind) []string {
	var out []string
	for w, x := range aliases {
		if x == k {
			out = append(out, w)
		}
	}
	return race.ShortestFirst(out)
}
