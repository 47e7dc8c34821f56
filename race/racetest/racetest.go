// Package racetest plays whole races with bots for the games' tests: the
// loop every ruleset's replay and bot tests share, so that each game's test
// says only what is its own (entrants, tracks, how its bot is called).
package racetest

import (
	"encoding/json"
	"fmt"
	"iter"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
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
	// InWindow says the bonus window was open when seat's orders came in:
	// it is logged with them, and the ruleset's bot is told (a Bot of the
	// test's own is not). nil: the window is never open.
	InWindow func(s race.State, seat int) bool
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
	b := race.BotRace{Miss: o.Miss, MaxTurns: o.MaxTurns,
		// The test's own settings, and none of the game's host bot.
		Before: func(s race.State, _ *rand.Rand) []string {
			if o.Before == nil {
				return nil
			}
			return o.Before(s)
		}}
	if o.InWindow != nil {
		b.InWindow = func(s race.State, seat int, _ *rand.Rand) bool { return o.InWindow(s, seat) }
	}
	if o.Bot != nil {
		b.Bot = func(s race.State, seat int, _ bool, rng *rand.Rand) string { return o.Bot(s, seat, rng) }
	}
	if err := b.Play(rs, race.LogTable{P: p}, rng); err != nil {
		t.Fatalf("%s: %v", r.ID, err)
	}
	return p
}

// BotRace plays a race of rs from seed on cfg with es, with bots in every
// seat drawing from the stream (seed, stream): the race each game's tests
// play, as Play does.
func BotRace(t testing.TB, rs race.Ruleset, seed, stream uint64, cfg race.Config, es []race.Entrant, o Options) (*race.Race, *race.Played) {
	t.Helper()
	r := &race.Race{ID: fmt.Sprint("seed-", seed), Ruleset: rs.Game().ID, Config: cfg, Entrants: es,
		Seed: dice.SeedFromInt(seed), Created: time.Unix(0, 0)}
	return r, Play(t, rs, r, rand.New(rand.NewPCG(seed, stream)), o)
}

// StateAt is p's state after turn n (0: the start); a turn p cannot give
// fails t.
func StateAt(t testing.TB, p *race.Played, n int) race.State {
	t.Helper()
	s, err := p.StateAt(n)
	if err != nil {
		t.Fatalf("the state after turn %d: %v", n, err)
	}
	return s
}

// Sampled yields turns of p from its start (turn 0), every step turns, each
// with the state after it, passing over a state in which the race is over:
// the states a test of what the prompted seats may order samples. A turn p
// cannot give fails t.
func Sampled(t testing.TB, p *race.Played, step int) iter.Seq2[int, race.State] {
	return func(yield func(int, race.State) bool) {
		for n := 0; n <= p.Resolved(); n += step {
			if s := StateAt(t, p, n); !s.Over() && !yield(n, s) {
				return
			}
		}
	}
}

// Met fails t for each of kinds that seen never counted: a test over a
// sample of races whose sample never met a case checks nothing of it. what
// says what each kind is of ("refusal with", "outcome"; "" for none), for
// the failure.
func Met(t testing.TB, what string, seen map[string]int, kinds ...string) {
	t.Helper()
	for _, k := range kinds {
		if seen[k] == 0 {
			t.Errorf("the sample has no %s: it checks nothing of it (it has %v)", strings.TrimSpace(what+" "+k), seen)
		}
	}
}

// FirstTurnWith is the first turn of p with an event of kind, or 0 if no
// turn has one.
func FirstTurnWith(p *race.Played, kind string) int {
	for i, tn := range p.Turns {
		for _, e := range tn.Events {
			if e.Kind == kind {
				return i + 1
			}
		}
	}
	return 0
}

// Replays plays a race for each seed from 1 to 1,000 (to short under
// -short) with play, checks that it replays from its log the same
// (SameReplay) and, one race in ten, that each of its states, stored and
// read back, plays on as it did live (SameDecode), and yields it, for the
// game's own checks: every game's whole-race test.
func Replays(t testing.TB, rs race.Ruleset, short int, play func(seed uint64) (*race.Race, *race.Played)) iter.Seq2[uint64, *race.Played] {
	n := 1000
	if testing.Short() {
		n = short
	}
	return func(yield func(uint64, *race.Played) bool) {
		for seed := uint64(1); seed <= uint64(n); seed++ {
			r, live := play(seed)
			SameReplay(t, rs, r, live)
			if seed%10 == 1 {
				SameDecode(t, rs, live)
			}
			if !yield(seed, live) {
				return
			}
		}
	}
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

// SameDecode checks that every state of a played race survives the round
// trip through its stored form: the start and each turn's state, marshalled
// to JSON and read back by rs.DecodeState, hash as the state did, give the
// same prompts and standings, and resume the race as a load does
// (race.Resume, from that turn's record and the log after it: settings,
// orders with their window and time, the resolve with its time) to the
// same next turn: the same orders, rolls and hash.
func SameDecode(t testing.TB, rs race.Ruleset, p *race.Played) {
	t.Helper()
	r := p.Race
	// The dice stream as setup left it: turn 1 draws on from there.
	roller := dice.New(r.Seed)
	if _, err := rs.Setup(r.Config, r.Entrants, roller); err != nil {
		t.Fatalf("%s: setting up again: %v", r.ID, err)
	}
	// Where each turn's entries begin: after the resolve before it.
	starts := []int{0}
	for i, e := range r.Log {
		if e.Kind == race.EntryResolve {
			starts = append(starts, i+1)
		}
	}
	if len(starts)-1 != len(p.Turns) {
		t.Fatalf("%s: %d resolves logged, %d turns played", r.ID, len(starts)-1, len(p.Turns))
	}
	for k := 0; k <= len(p.Turns); k++ {
		where := fmt.Sprintf("%s: the state after turn %d", r.ID, k)
		s, stream := p.Start, roller.State()
		if k > 0 {
			s, stream = p.Turns[k-1].After, p.Turns[k-1].DiceState
		} else {
			where = r.ID + ": the start state"
		}
		decodeSame(t, rs, s, where)
		if k == len(p.Turns) {
			break
		}
		// The record a store keeps of turn k (of the start, for k = 0),
		// and the log from its resolve entry through turn k+1's.
		snap, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		hash, _ := race.Hash(s)
		rec := &race.TurnRecord{Turn: k, Hash: hash, State: snap, DiceState: stream, Rules: rs.Game().Version}
		resolveK := race.Entry{Seq: starts[k], Kind: race.EntryResolve, Turn: k, Seat: -1}
		if k > 0 {
			resolveK = r.Log[starts[k]-1]
		}
		tail := race.Race(*r)
		tail.Log = append([]race.Entry{resolveK}, r.Log[starts[k]:starts[k+1]]...)
		resumed, err := race.Resume(rs, &tail, rec)
		if err != nil {
			t.Fatalf("%s, decoded: resuming: %v", where, err)
		}
		want := p.Turns[k]
		got, ok := resumed.TurnAt(want.Turn)
		if !ok {
			t.Fatalf("%s, decoded: turn %d was not played", where, want.Turn)
		}
		if fmt.Sprint(got.Orders) != fmt.Sprint(want.Orders) {
			t.Fatalf("%s, decoded: turn %d takes the orders %v; played %v", where, want.Turn, got.Orders, want.Orders)
		}
		if len(got.Rolls) != len(want.Rolls) {
			t.Fatalf("%s, decoded: turn %d rolls %d dice; played %d", where, want.Turn, len(got.Rolls), len(want.Rolls))
		}
		for j := range want.Rolls {
			if got.Rolls[j] != want.Rolls[j] {
				t.Fatalf("%s, decoded: turn %d roll %d is %v; played %v", where, want.Turn, j+1, got.Rolls[j], want.Rolls[j])
			}
		}
		if got.Hash != want.Hash {
			t.Fatalf("%s, decoded: turn %d ends in another state:\n%s", where, want.Turn, diff(got.After, want.After))
		}
	}
}

// decodeSame marshals s, decodes it and fails t unless the decoded state
// hashes as s does and gives the same prompts and standings.
func decodeSame(t testing.TB, rs race.Ruleset, s race.State, where string) race.State {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	d, err := rs.DecodeState(b)
	if err != nil {
		t.Fatalf("%s does not decode: %v", where, err)
	}
	h1, _ := race.Hash(s)
	h2, _ := race.Hash(d)
	if h1 != h2 {
		t.Fatalf("%s: decoded, it hashes differently: %s", where, diff(d, s))
	}
	if a, b := mustJSON(t, rs.Prompts(d)), mustJSON(t, rs.Prompts(s)); a != b {
		t.Fatalf("%s: decoded, it prompts %s; %s before", where, a, b)
	}
	if a, b := mustJSON(t, rs.Standings(d)), mustJSON(t, rs.Standings(s)); a != b {
		t.Fatalf("%s: decoded, its standings are %s; %s before", where, a, b)
	}
	return d
}

// diff shows the first difference between two states' JSON, with some context.
func diff(got, want race.State) string {
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-120)
	cut := func(s []byte) string { return string(s[from:min(len(s), i+120)]) }
	return fmt.Sprintf("at byte %d\n got: ...%s...\nwant: ...%s...", i, cut(a), cut(b))
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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
