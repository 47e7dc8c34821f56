package host

import (
	"reflect"
	"testing"

	"pitwall/race"
)

// A seat's events join on one line: short clauses with "; " and the name
// dropped, whole sentences with a space and kept.
func TestTellStory(t *testing.T) {
	seats := []race.Seat{{Seat: 0, Name: "Mario"}, {Seat: 1, Name: "Luigi"}}
	got := tellStory([]race.Event{
		{Seat: 0, Text: "Mario drives 3"}, {Seat: 0, Text: "Mario spins"},
		{Seat: 1, Text: "Luigi takes the turn."}, {Seat: 1, Text: "Luigi gains 1 hazard token."},
		{Seat: -1, Text: "The race is over."},
	}, seats)
	want := []string{"Mario drives 3; spins", "Luigi takes the turn. Luigi gains 1 hazard token.", "The race is over."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
