package race

import (
	"strings"
	"testing"
	"time"

	"pitwall/dice"
)

// inPlace is dash whose setting changes the state in place (the same
// pointer comes back) and whose prompts leave seat 1 out once the bot is
// on; it counts the prompts asked of it.
type inPlace struct {
	dash
	asked *int
}

func (g inPlace) Set(s State, k, v string) (State, error) {
	s.(*dashState).Bot = v == "on"
	return s, nil
}

func (g inPlace) Prompts(s State) []Prompt {
	*g.asked++
	out := g.dash.Prompts(s)
	if s.(*dashState).Bot {
		out = out[:1]
	}
	return out
}

// Resolve moves the seats not prompted by a step of 1.
func (g inPlace) Resolve(s State, orders map[int]Order, d *dice.Roller, at time.Time) (State, []Event, error) {
	for i := range s.(*dashState).Pos {
		if orders[i] == nil {
			orders[i] = step(1)
		}
	}
	return g.dash.Resolve(s, orders, d, at)
}

func TestPromptsAskedOncePerState(t *testing.T) {
	asked := 0
	rs := inPlace{asked: &asked}
	p, err := Start(rs, newDash(t))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if n := len(p.Prompts()); n != 2 {
			t.Fatalf("%d prompts at the start; want 2", n)
		}
	}
	if _, err := p.Check(Submission{Seat: 1, Text: "2"}); err != nil {
		t.Fatal(err)
	}
	if asked != 1 {
		t.Fatalf("the ruleset was asked for the prompts of one state %d times; want once", asked)
	}
	c := p.Clone()
	if len(c.Prompts()) != 2 || asked != 1 {
		t.Fatalf("a clone asked again: %d", asked)
	}
	// A setting that changes the state in place is seen.
	if err := p.Apply(Entry{Seq: 1, Kind: EntrySet, Turn: 1, Seat: -1, Text: "bot=on"}); err != nil {
		t.Fatal(err)
	}
	if n := len(p.Prompts()); n != 1 || asked != 2 {
		t.Fatalf("after a setting changed the state in place: %d prompts, asked %d times; want 1 prompt, asked twice", n, asked)
	}
	if _, err := p.Check(Submission{Seat: 1, Text: "2"}); err == nil || !strings.Contains(err.Error(), " (seat 2) has nothing to order") {
		t.Fatalf("seat 1 is prompted no more: %v; want it refused, named as seat 2", err)
	}
	// A new state after a resolve is asked for its own prompts.
	if err := p.Apply(Entry{Seq: 2, Kind: EntryResolve, Turn: 1, Seat: -1, At: time.Unix(5, 0)}); err != nil {
		t.Fatal(err)
	}
	if pr := p.Prompts(); asked != 3 || len(pr) != 1 || pr[0].Turn != 2 {
		t.Fatalf("after the resolve: %+v, asked %d times; want turn 2's prompt, asked 3 times", pr, asked)
	}
	// A state put in place from outside is asked for too.
	p.State = &dashState{T: 7, Pos: []int{0, 0, 0}}
	if pr := p.Prompts(); len(pr) != 3 || pr[0].Turn != 7 || asked != 4 {
		t.Fatalf("after the state was replaced: %+v, asked %d times", pr, asked)
	}
}
