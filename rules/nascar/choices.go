package nascar

import (
	"strings"

	"pitwall/race"
)

// Choices is what a car may order this turn, as data (race.Chooser). An
// order string is a language more than a list, so Choices gives the car's
// numbers, every speed it can move at this turn with the cheapest way to
// reach it, and what each letter does; ParseOrder (or 'pitwall order check
// nascar') checks a draft against the same rules.
type Choices struct {
	Speed      int    `json:"speed"`     // at the start of the turn
	MaxSpeed   int    `json:"max_speed"` // never above it, this turn or after
	Heading    string `json:"heading"`
	Wildcards  int    `json:"wildcards"`
	Upgrade    string `json:"upgrade"`
	Slipstream bool   `json:"slipstream"` // S is open: the car starts right behind one going its way
	// Speeds lists every speed the car can move at this turn: the order
	// then holds exactly that many moves (M, L or R).
	Speeds []SpeedChoice `json:"speeds"`
	// Letters says what each letter of an order does.
	Letters map[string]string `json:"letters"`
	// MostOfAKind is the most accelerates, brakes, left or right turns in
	// one order; the second of a kind costs a wildcard (turbo: a second A
	// or B free; swaybars: a second L or R free).
	MostOfAKind int `json:"most_of_a_kind"`
}

// SpeedChoice is a speed this turn and the cheapest letters before the
// moves that reach it.
type SpeedChoice struct {
	Speed     int    `json:"speed"`
	Before    string `json:"before"` // such as "AA", "SB" or ""
	Wildcards int    `json:"wildcards"`
	// Odds is the exact chance of each outcome (Outcomes) of driving
	// straight on at this speed, with the letters Before: a turn letter
	// changes the path, and so the odds.
	Odds map[string]float64 `json:"odds"`
}

var letters = map[string]string{
	"M":     "move one square straight on",
	"L":     "turn 45 degrees left and move one square",
	"R":     "turn 45 degrees right and move one square",
	"A":     "speed +1: before the moves for this turn, after them for the next",
	"B":     "speed -1: before the moves for this turn, after them for the next",
	"S":     "slipstream: speed +1 this turn, free; first in the order, when open",
	"(X+1)": "marks a letter as the one a wildcard pays for",
	"(nX)":  "n of letter X: A(2M) is AMM",
}

// Choices implements race.Chooser.
func (Ruleset) Choices(st race.State, seat int) (any, error) {
	s, c, err := race.Seated("a nascar state", st, seat, (*State).orderer)
	if err != nil {
		return nil, err
	}
	car := s.carFor(c)
	out := Choices{Speed: c.Speed, MaxSpeed: c.MaxSpeed, Heading: c.Heading.String(), Wildcards: c.Wildcards,
		Upgrade: c.Upgrade.String(), Slipstream: car.CanSlipstream, Letters: letters, MostOfAKind: maxOfAKind}
	// Every way to change speed before the moves, checked by the rules' own
	// Check: the cheapest of each speed, the shortest on a tie. The letters
	// before the moves fix the speed, and the order holds that many moves.
	best := map[int]SpeedChoice{}
	for _, before := range []string{"", "A", "B", "AB", "AA", "BB", "S", "SA", "SB", "SAB", "SAA", "SBB"} {
		speed := c.Speed + strings.Count(before, "S") + strings.Count(before, "A") - strings.Count(before, "B")
		if speed < 0 || (before == "" && speed == 0) {
			continue // an empty order is no order: standing still is written AB
		}
		p, err := Check(straight(before, speed), car)
		if err != nil {
			continue
		}
		old, seen := best[speed]
		if !seen || p.Wildcards < old.Wildcards || (p.Wildcards == old.Wildcards && len(before) < len(old.Before)) {
			best[speed] = SpeedChoice{Speed: speed, Before: before, Wildcards: p.Wildcards}
		}
	}
	for speed := 0; speed <= c.MaxSpeed; speed++ {
		if x, ok := best[speed]; ok {
			x.Odds = s.orderOdds(seat, straight(x.Before, x.Speed))
			out.Speeds = append(out.Speeds, x)
		}
	}
	return out, nil
}

// straight is the order of the letters before, then speed moves straight on.
func straight(before string, speed int) Order {
	o := Order{Text: before + strings.Repeat("M", speed)}
	for i := range before {
		o.Before = append(o.Before, Token{Letter: before[i]})
	}
	for range speed {
		o.Moves = append(o.Moves, Token{Letter: 'M'})
	}
	return o
}
