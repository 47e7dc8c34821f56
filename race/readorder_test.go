package race

import (
	"errors"
	"strconv"
	"testing"
)

// ReadOrder refuses at the first question that fails: the seat, then the
// text, then the order against the race; an order it refuses is nil.
func TestReadOrder(t *testing.T) {
	orderer := func(seat int) (int, error) {
		if seat != 0 {
			return 0, NotAllowed("no_such_seat", "no seat %d", seat)
		}
		return seat, nil
	}
	parse := func(text string) (step, error) {
		n, err := strconv.Atoi(text)
		if err != nil {
			return 0, NotUnderstood("no_step", "%q is no step", text)
		}
		return step(n), nil
	}
	judge := func(seat int, o step) (step, error) {
		if o > 3 {
			return o, NotAllowed("too_far", "at most 3")
		}
		return o * 2, nil // the order as the race plays it
	}
	for _, c := range []struct {
		seat       int
		text, code string
		want       Order
	}{
		{0, "2", "", step(4)},
		{1, "x", "no_such_seat", nil}, // the seat before the text
		{0, "x", "no_step", nil},
		{0, "5", "too_far", nil},
	} {
		o, err := ReadOrder(Submission{Seat: c.seat, Text: c.text}, orderer, parse, judge)
		var oe *OrderError
		switch {
		case c.code == "" && (err != nil || o != c.want):
			t.Errorf("seat %d %q: %v, %v; want %v", c.seat, c.text, o, err, c.want)
		case c.code != "" && (o != nil || !errors.As(err, &oe) || oe.Code != c.code):
			t.Errorf("seat %d %q: %v, %v; want nil and %s", c.seat, c.text, o, err, c.code)
		}
	}
}

// Seated finds the racer of a game's own state, and refuses a state of
// another game, or none, by the game's name.
func TestSeated(t *testing.T) {
	orderer := func(s *dashState, seat int) (int, error) {
		if seat < 0 || seat >= len(s.Pos) {
			return 0, NotAllowed("no_such_seat", "no seat %d", seat)
		}
		return s.Pos[seat], nil
	}
	s, pos, err := Seated("a dash state", &dashState{Pos: []int{4, 7}}, 1, orderer)
	if err != nil || s == nil || pos != 7 {
		t.Fatalf("seat 1: %v, %d, %v; want its position 7", s, pos, err)
	}
	if _, _, err := Seated("a dash state", &dashState{Pos: []int{4}}, 2, orderer); err == nil || err.Error() != "no seat 2" {
		t.Errorf("no such seat: %v", err)
	}
	var none *dashState
	for _, st := range []State{none, otherState{}, nil} {
		if _, _, err := Seated("a dash state", st, 0, orderer); err == nil || err.Error() != "not a dash state" {
			t.Errorf("%T: %v; want not a dash state", st, err)
		}
	}
}

type otherState struct{}

func (otherState) Turn() int     { return 1 }
func (otherState) Over() bool    { return false }
func (otherState) Seats() []Seat { return nil }
