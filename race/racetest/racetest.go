// Package racetest plays whole races with bots for the games' tests: the
// loop every ruleset's replay and bot tests share, so that each game's test
// says only what is its own (entrants, tracks, how its bot is called).
package racetest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"pitwall/race"
)

// Options shape a bot race.
type Options struct {
	// Miss: one prompt in Miss is left without orders, so the game's default
	// order is played too (0: every prompt is answered).
	Miss int
	// MaxTurns fails the test when the race is not over after so many turns.
	MaxTurns int
	// Bot writes a seat's orders; nil calls the ruleset's race.Botter.
	Bot func(s race.State, seat int, rng *rand.Rand) string
	// Before gives the host's settings (KEY=VALUE) to log before a turn's orders.
	Before func(s race.State) []string
}

// Play plays r from its setup to its end, as a host would, logging every
// entry in r.Log, and returns the race as played. The bots draw from rng in
// a fixed order: for each prompt, whether it is missed, then its orders.
func Play(t testing.TB, rs race.Ruleset, r *race.Race, rng *rand.Rand, o Options) *race.Played {
	t.Helper()
	p, err := race.Start(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	bot := o.Bot
	if bot == nil {
		b, ok := rs.(race.Botter)
		if !ok {
			t.Fatalf("%s has no bot", rs.ID())
		}
		bot = func(s race.State, seat int, rng *rand.Rand) string { return b.BotOrder(s, seat, false, rng) }
	}
	add := func(e race.Entry) {
		t.Helper()
		e.Seq, e.Turn = len(r.Log)+1, p.State.Turn()
		if err := p.Apply(e); err != nil {
			t.Fatalf("%s turn %d: %s %q: %v", r.ID, e.Turn, e.Kind, e.Text, err)
		}
		r.Log = append(r.Log, e)
	}
	for !p.State.Over() {
		if o.MaxTurns > 0 && p.State.Turn() > o.MaxTurns {
			t.Fatalf("%s: the race is not over after %d turns", r.ID, o.MaxTurns)
		}
		if o.Before != nil {
			for _, kv := range o.Before(p.State) {
				add(race.Entry{Kind: race.EntrySet, Seat: -1, Text: kv})
			}
		}
		for _, pr := range rs.Prompts(p.State) {
			if o.Miss > 0 && rng.IntN(o.Miss) == 0 {
				continue // a racer who sends nothing
			}
			add(race.Entry{Kind: race.EntryOrder, Seat: pr.Seat, Text: bot(p.State, pr.Seat, rng)})
		}
		add(race.Entry{Kind: race.EntryResolve, Seat: -1})
	}
	return p
}

// SameReplay replays r from its log and fails t unless it gives the same
// turns as live: every state hash and every roll.
func SameReplay(t testing.TB, rs race.Ruleset, r *race.Race, live *race.Played) {
	t.Helper()
	again, err := race.Replay(rs, r)
	if err != nil {
		t.Fatalf("%s: %v", r.ID, err)
	}
	if len(again.Turns) != len(live.Turns) {
		t.Fatalf("%s: %d turns played, %d replayed", r.ID, len(live.Turns), len(again.Turns))
	}
	for i := range live.Turns {
		a, b := live.Turns[i], again.Turns[i]
		if a.Hash != b.Hash || len(a.Rolls) != len(b.Rolls) {
			t.Fatalf("%s turn %d: the replay differs", r.ID, i+1)
		}
		for j := range a.Rolls {
			if a.Rolls[j] != b.Rolls[j] {
				t.Fatalf("%s turn %d roll %d: %v played, %v replayed", r.ID, i+1, j+1, a.Rolls[j], b.Rolls[j])
			}
		}
	}
}

// Entrants are n entrants named P0, P1... with one racer each, named by
// prefix and number, and the options options(i) gives (nil: none).
func Entrants(n int, prefix string, options func(i int) map[string]string) []race.Entrant {
	var es []race.Entrant
	for i := 0; i < n; i++ {
		e := race.Entrant{Player: fmt.Sprint("P", i), Racers: []string{fmt.Sprint(prefix, i)}}
		if options != nil {
			e.Options = options(i)
		}
		es = append(es, e)
	}
	return es
}
