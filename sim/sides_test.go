package sim

import (
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/rules/party"
)

// With two bots, race i seats side (seat+i)%2: each side sits in every
// seat as often, so a game whose seats differ favours neither bot.
func TestSidesChangeSeats(t *testing.T) {
	p, err := newPlan(Spec{Ruleset: "party", Races: 4, Bot: "heuristic", Versus: "cruise", Seats: 4, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	type seated struct {
		seat int
		bot  string
	}
	races := map[seated]int{}
	for i := range 4 {
		r, err := p.play(i)
		if err != nil {
			t.Fatal(err)
		}
		for seat, name := range r.bots {
			races[seated{seat, name}]++
		}
	}
	for seat := range 4 {
		for _, name := range []string{"heuristic", "cruise"} {
			if n := races[seated{seat, name}]; n != 2 {
				t.Errorf("seat %d had the %s bot in %d of 4 races; want 2", seat, name, n)
			}
		}
	}
	c, err := newPlan(Spec{Ruleset: "party", Races: 1, Bot: "heuristic", Versus: "heuristic", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.labels[0] == c.labels[1] {
		t.Errorf("a control run's sides are both %q", c.labels[0])
	}
}

// panicky is party with a Resolve that panics: a bug in a game.
type panicky struct{ party.Ruleset }

func (panicky) Resolve(race.State, map[int]race.Order, *dice.Roller, time.Time) (race.State, []race.Event, error) {
	panic("a bug in the game")
}

// A panic in the game's code on a worker is that race's error, not a
// crash of the whole run.
func TestAPanicInARaceIsItsError(t *testing.T) {
	p, err := newPlan(Spec{Ruleset: "party", Races: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	p.rs = panicky{}
	if _, err := p.playSafely(0); err == nil || !strings.Contains(err.Error(), "race 0 failed inside the game") || !strings.Contains(err.Error(), "a bug in the game") {
		t.Errorf("a panicking game: %v", err)
	}
}
