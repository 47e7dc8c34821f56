// Package nascar plays 'NASCAR 9', the forum grid race where every driver
// sends an order string each turn, such as A(2M)RM(R+1).
//
// This file holds the order grammar: reading an order string, checking it
// against the car's speed, heading, wildcards and upgrade, and tracing the
// squares it drives through. The rules reference is docs/rules/nascar.md.
package nascar

import (
	"fmt"
	"strconv"
	"strings"

	"pitwall/internal/words"
	"pitwall/race"
)

// Heading is one of the eight compass points, clockwise from North.
type Heading int

// The eight headings. A right turn adds one, a left turn takes one away.
const (
	N Heading = iota
	NE
	E
	SE
	S
	SW
	W
	NW
)

var headingNames = [...]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}

func (h Heading) String() string { return headingNames[h] }

// Step is the square one move in this heading goes to: x grows to the East, y to the North.
func (h Heading) Step() (dx, dy int) {
	return [...]int{0, 1, 1, 1, 0, -1, -1, -1}[h], [...]int{1, 1, 0, -1, -1, -1, 0, 1}[h]
}

// Turn is h turned by 45 degrees eighths times (positive: to the right).
func (h Heading) Turn(eighths int) Heading { return Heading(((int(h)+eighths)%8 + 8) % 8) }

// Steer is the heading a move letter drives its square in, from h: an L or R
// turns the car 45 degrees before its square, an M keeps the heading. Check,
// a turn's moves and the bot all move by it.
func (h Heading) Steer(letter byte) Heading {
	switch letter {
	case 'L':
		return h.Turn(-1)
	case 'R':
		return h.Turn(1)
	}
	return h
}

// ParseHeading reads N, NE, E, SE, S, SW, W or NW.
func ParseHeading(s string) (Heading, error) {
	for i, n := range headingNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Heading(i), nil
		}
	}
	return 0, fmt.Errorf("a heading is one of %s; got %q", strings.Join(headingNames[:], ", "), s)
}

// Upgrade is the one upgrade a car takes before the race.
type Upgrade int

// The upgrades of the text.
const (
	NoUpgrade   Upgrade = iota
	Turbo               // a second accelerate or brake without a wildcard
	Swaybars            // a second steer without a wildcard
	Performance         // 8 more wildcards at the start
)

var upgradeNames = [...]string{"none", "turbo", "swaybars", "performance"}

func (u Upgrade) String() string { return upgradeNames[u] }

// ParseUpgrade reads none, turbo, swaybars or performance.
func ParseUpgrade(s string) (Upgrade, error) {
	for i, n := range upgradeNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Upgrade(i), nil
		}
	}
	return 0, fmt.Errorf("an upgrade is one of %s; got %q", strings.Join(upgradeNames[:], ", "), s)
}

// Token is one letter of an order: A, B, S, M, L or R.
type Token struct {
	Letter byte
	Marked bool // written as (X+1): the driver marked it as a wildcard's
}

// Order is a parsed order string: the speed changes before the moves, the
// moves, and the speed changes after them.
type Order struct {
	Before []Token // S first if any, then A and B
	Moves  []Token // M, L and R: one square each
	After  []Token // A and B, for the next turn
	Text   string  // as written
}

// String is the order in canonical form, counts written out: A(2M)RM(R+1) reads AMMRM(R+1).
func (o Order) String() string {
	var b strings.Builder
	for _, part := range [][]Token{o.Before, o.Moves, o.After} {
		for _, t := range part {
			if t.Marked {
				fmt.Fprintf(&b, "(%c+1)", t.Letter)
			} else {
				b.WriteByte(t.Letter)
			}
		}
	}
	return b.String()
}

// Parse reads an order string: the letters A, B, S, M, L and R; (2M) for two
// M (any count, for M, L or R); (R+1) for a letter the driver marks as using a
// wildcard; (A) for a plain letter. Spaces are ignored, case is not. Speed
// changes go at the beginning or the end, S only first. Parse checks the
// grammar only; Check holds the order against a car.
func Parse(text string) (Order, error) {
	o := Order{Text: text}
	var toks []Token
	s := strings.ToUpper(strings.Join(strings.Fields(text), ""))
	if s == "" {
		return o, race.NotUnderstood("empty_order", "no order given; an order is letters such as A(2M)RM(R+1): A accelerate, B brake, S slipstream, M move, L and R turn")
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case strings.IndexByte("ABSMLR", c) >= 0:
			toks = append(toks, Token{Letter: c})
			i++
		case c == '(':
			j := strings.IndexByte(s[i:], ')')
			if j < 0 {
				return o, race.NotUnderstood("unclosed_group", "%q: a '(' at position %d is never closed", text, i+1)
			}
			inner := s[i+1 : i+j]
			t, n, err := parseGroup(inner)
			if err != nil {
				return o, race.NotUnderstood("bad_group", "%q: (%s): %v", text, inner, err)
			}
			for k := 0; k < n; k++ {
				toks = append(toks, t)
			}
			i += j + 1
		default:
			return o, race.NotUnderstood("unknown_letter", "%q: %q at position %d is not an order letter; letters are A, B, S, M, L, R", text, c, i+1)
		}
	}
	// Split: speed changes first, moves, speed changes last.
	i := 0
	for i < len(toks) && isSpeed(toks[i].Letter) {
		if toks[i].Letter == 'S' && i > 0 {
			return o, race.NotUnderstood("slipstream_not_first", "%q: S (slipstream) comes first, before any A or B", text)
		}
		o.Before = append(o.Before, toks[i])
		i++
	}
	for i < len(toks) && !isSpeed(toks[i].Letter) {
		o.Moves = append(o.Moves, toks[i])
		i++
	}
	for ; i < len(toks); i++ {
		t := toks[i]
		if t.Letter == 'S' {
			return o, race.NotUnderstood("slipstream_not_first", "%q: S (slipstream) comes only at the beginning of an order", text)
		}
		if !isSpeed(t.Letter) {
			return o, race.NotUnderstood("speed_change_between_moves", "%q: A and B go at the beginning or the end of an order, not between moves", text)
		}
		o.After = append(o.After, t)
	}
	if len(o.Moves) == 0 && len(o.After) > 0 { // all speed changes: they act before the (empty) move
		o.Before, o.After = append(o.Before, o.After...), nil
	}
	return o, nil
}

func isSpeed(c byte) bool { return c == 'A' || c == 'B' || c == 'S' }

// parseGroup reads the inside of parentheses: "2M", "R+1", "A".
func parseGroup(inner string) (Token, int, error) {
	if strings.HasSuffix(inner, "+1") {
		l := strings.TrimSuffix(inner, "+1")
		if len(l) != 1 || strings.IndexByte("ABLR", l[0]) < 0 {
			return Token{}, 0, fmt.Errorf("a wildcard is marked on one of A, B, L or R, as (R+1)")
		}
		return Token{Letter: l[0], Marked: true}, 1, nil
	}
	if len(inner) == 1 && strings.IndexByte("ABSMLR", inner[0]) >= 0 {
		return Token{Letter: inner[0]}, 1, nil
	}
	if len(inner) < 2 {
		return Token{}, 0, fmt.Errorf("write a count and a letter, as (2M), or a wildcard, as (R+1)")
	}
	l := inner[len(inner)-1]
	n, err := strconv.Atoi(inner[:len(inner)-1])
	if err != nil || strings.IndexByte("MLR", l) < 0 {
		return Token{}, 0, fmt.Errorf("write a count and M, L or R, as (2M)")
	}
	if n < 1 || n > 99 {
		return Token{}, 0, fmt.Errorf("a count is 1 to 99; got %d", n)
	}
	return Token{Letter: l}, n, nil
}

// Car is what an order is checked against.
type Car struct {
	X, Y      int
	Heading   Heading
	Speed     int
	MaxSpeed  int
	Wildcards int
	Upgrade   Upgrade
	// CanSlipstream says the car starts directly behind another moving the
	// same way: the race knows, an order alone cannot.
	CanSlipstream bool
}

// Plan is what a checked order does.
type Plan struct {
	TurnSpeed int      // the speed the car moves at this turn: the number of squares
	EndSpeed  int      // the speed after the turn, end-of-order changes included
	Heading   Heading  // the heading after the last move
	Path      [][2]int // every square entered, in order
	Wildcards int      // wildcards the order uses
}

// The limits of a turn: never more than two of a speed change or of a turn
// to one side, upgrades or wildcards included.
const maxOfAKind = 2

// Check holds an order against a car: the speed limits, the move count, the
// wildcards, the slipstream. It returns what the order does, or why not.
func Check(o Order, c Car) (Plan, error) {
	count := func(ts []Token, l byte) int {
		n := 0
		for _, t := range ts {
			if t.Letter == l {
				n++
			}
		}
		return n
	}
	nA := count(o.Before, 'A') + count(o.After, 'A')
	nB := count(o.Before, 'B') + count(o.After, 'B')
	nS := count(o.Before, 'S')
	nL, nR := count(o.Moves, 'L'), count(o.Moves, 'R')
	switch {
	case nS > 1:
		return Plan{}, race.NotAllowed("one_slipstream", "one S (slipstream) a turn; the order has %d", nS)
	case nA > maxOfAKind:
		return Plan{}, race.NotAllowed("too_many_of_a_kind", "at most 2 accelerates a turn, wildcards and upgrades included; the order has %d", nA)
	case nB > maxOfAKind:
		return Plan{}, race.NotAllowed("too_many_of_a_kind", "at most 2 brakes a turn, wildcards and upgrades included; the order has %d", nB)
	case nL > maxOfAKind:
		return Plan{}, race.NotAllowed("too_many_of_a_kind", "at most 2 left turns a turn, wildcards and upgrades included; the order has %d", nL)
	case nR > maxOfAKind:
		return Plan{}, race.NotAllowed("too_many_of_a_kind", "at most 2 right turns a turn, wildcards and upgrades included; the order has %d", nR)
	case nS == 1 && !c.CanSlipstream:
		return Plan{}, race.NotAllowed("no_slipstream", "S (slipstream) needs the car to start directly behind another moving the same way, or to have been put behind in a crash last turn; it does neither")
	}
	// A second accelerate or brake costs a wildcard (accelerate and brake
	// together do not); turning twice to one side costs one, and two rights
	// with two lefts cost only one (the text's clarification).
	speedWC := 0
	if nA == maxOfAKind {
		speedWC++
	}
	if nB == maxOfAKind {
		speedWC++
	}
	steerWC := 0
	if nL == maxOfAKind || nR == maxOfAKind {
		steerWC = 1
	}
	if c.Upgrade == Turbo && speedWC > 0 {
		speedWC--
	}
	if c.Upgrade == Swaybars && steerWC > 0 {
		steerWC--
	}
	wc := speedWC + steerWC
	if wc > c.Wildcards {
		return Plan{}, race.NotAllowed("not_enough_wildcards", "the order needs %s; the car has %d", words.Count(wc, "wildcard"), c.Wildcards)
	}
	turn := c.Speed + nS + count(o.Before, 'A') - count(o.Before, 'B')
	if turn < 0 {
		return Plan{}, race.NotAllowed("speed_below_zero", "braking %d from speed %d goes below 0", count(o.Before, 'B'), c.Speed)
	}
	if turn > c.MaxSpeed {
		return Plan{}, race.NotAllowed("above_max_speed", "speed %d this turn is above the car's max speed %d", turn, c.MaxSpeed)
	}
	if len(o.Moves) != turn {
		return Plan{}, race.NotAllowed("wrong_move_count", "at speed %d the order must move %s (M, L or R); it moves %d", turn, words.Count(turn, "square"), len(o.Moves))
	}
	end := turn + count(o.After, 'A') - count(o.After, 'B')
	if end < 0 {
		return Plan{}, race.NotAllowed("speed_below_zero", "braking at the end of the order goes below speed 0")
	}
	if end > c.MaxSpeed {
		return Plan{}, race.NotAllowed("above_max_speed", "speed %d after the turn is above the car's max speed %d", end, c.MaxSpeed)
	}
	p := Plan{TurnSpeed: turn, EndSpeed: end, Heading: c.Heading, Wildcards: wc}
	x, y := c.X, c.Y
	for _, t := range o.Moves {
		p.Heading = p.Heading.Steer(t.Letter)
		dx, dy := p.Heading.Step()
		x, y = x+dx, y+dy
		p.Path = append(p.Path, [2]int{x, y})
	}
	return p, nil
}
