package host

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// A seat's events join on one line: short clauses with "; " and the name
// dropped where the line began with it, whole sentences with a space and
// kept; a line starts with a capital.
func TestTellStory(t *testing.T) {
	seats := []race.Seat{{Seat: 0, Name: "Mario"}, {Seat: 1, Name: "Luigi"}}
	got := tellStory([]race.Event{
		{Seat: 0, Text: "Mario drives 3"}, {Seat: 0, Text: "Mario spins"},
		{Seat: 1, Text: "Luigi takes the turn."}, {Seat: 1, Text: "Luigi gains 1 hazard token."},
		{Seat: -1, Text: "The race is over."},
		{Seat: 1, Text: "the blue shell strikes the leader, Luigi"}, {Seat: 1, Text: "Luigi flips"},
	}, seats)
	want := []string{"Mario drives 3; spins", "Luigi takes the turn. Luigi gains 1 hazard token.", "The race is over.",
		"The blue shell strikes the leader, Luigi; Luigi flips"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The bonus window is told only in games that have a bonus: ludi's words in
// a ludi post, nothing in an rtd post.
func TestBonusWindowNote(t *testing.T) {
	for _, tc := range []struct {
		ruleset, track string
		entrants       []race.Entrant
		want           bool
	}{
		{"ludi", "circus-maximus", entrants(), true},
		{"rtd", "luigi-circuit", []race.Entrant{{Player: "A", Racers: []string{"Mario"}}, {Player: "B", Racers: []string{"Luigi"}}}, false},
	} {
		f := newFixture(t)
		s := dice.SeedFromInt(1)
		ctx := context.Background()
		if _, err := f.h.NewRace(ctx, tc.ruleset, "b1", race.Config{Track: tc.track}, tc.entrants, &s); err != nil {
			t.Fatal(err)
		}
		open, shut := f.now.Add(time.Hour), f.now.Add(2*time.Hour)
		if _, _, err := f.h.Schedule(ctx, "b1", race.Schedule{WindowOpen: &open, WindowClose: &shut}, Req{}); err != nil {
			t.Fatal(err)
		}
		p := f.load(t, "b1")
		post, err := Post(p.View(race.Host), 0, "markdown", "")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(post, "Bonus window: Mon 19:00 to 20:00 UTC. Orders sent in it may add 'bonus move'"); got != tc.want {
			t.Errorf("%s: the bonus window told: %v, want %v", tc.ruleset, got, tc.want)
		}
		if !tc.want && strings.Contains(post, "Bonus window") {
			t.Errorf("%s: a bonus window in a game without a bonus", tc.ruleset)
		}
	}
}
