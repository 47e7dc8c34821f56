// Package storetest is the conformance suite that every store.Store must
// pass, so that the embedded SQLite store and a PostgreSQL store behave the
// same.
//
// An implementation's test calls Run with a function that opens a store by
// name (FileOpener and SchemaOpener make one from a store's Open):
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, storetest.FileOpener(t, sqlite.Open))
//	}
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
)

// Opener opens the store called name. The suite gives each subtest its own
// name: a short identifier of lower-case letters, digits and '_' (usable as a
// file name, a PostgreSQL schema or database name), unique within one Run.
// The first call with a name must give an empty store; a later call with the
// same name, after the suite has closed the earlier store, must give back
// everything stored under it, as a restarted process would see it. An
// implementation that shares a server between test runs may add a prefix of
// its own to name.
//
// The suite closes every store it opens. Open failures should call t.Fatal.
type Opener func(t *testing.T, name string) store.Store

// Run runs the conformance suite as subtests of t.
//
// It holds implementations to the contract in store.Store's comments: times
// come back equal to the microsecond and in UTC; a saved turn's Rolls,
// DiceState and State come back byte for byte (State is a hashed snapshot, so
// a store must not re-encode it, as PostgreSQL's jsonb would); a turn is
// stored only with a resolve entry of the same turn number, in one
// transaction; errors wrap store.ErrNotFound, ErrExists and ErrConflict so
// that errors.Is finds them, and name the race.
func Run(t *testing.T, open Opener) {
	runCases(t, open, []testCase{
		{"RoundTrip", testRoundTrip},
		{"RoundTripMinimal", testRoundTripMinimal},
		{"CreateDuplicate", testCreateDuplicate},
		{"CreateRefusesLog", testCreateRefusesLog},
		{"CreateRefusesEmptyID", testCreateRefusesEmptyID},
		{"UnknownRace", testUnknownRace},
		{"EmptyLog", testEmptyLog},
		{"AppendInOrder", testAppendInOrder},
		{"AppendWrongSeq", testAppendWrongSeq},
		{"AppendIsolatedPerRace", testAppendIsolatedPerRace},
		{"ResolveWithTurn", testResolveWithTurn},
		{"FailedAppendStoresNoTurn", testFailedAppendStoresNoTurn},
		{"DuplicateTurnStoresNoEntry", testDuplicateTurnStoresNoEntry},
		{"TurnMustMatchEntry", testTurnMustMatchEntry},
		{"SecondResolveOfATurn", testSecondResolve},
		{"List", testList},
		{"Keys", testKeys},
		{"KeysAndLast", testKeysAndLast},
		{"AppendAll", testAppendAll},
		{"AppendAllTurnSavedTwice", testAppendAllTurnSavedTwice},
		{"AppendAllChained", testAppendAllChained},
		{"AppendAllConcurrent", testAppendAllConcurrent},
		{"Resume", testResume},
		{"ConcurrentResolvesOneTurn", testConcurrentResolves},
		{"ConcurrentSameKey", testConcurrentSameKey},
		{"ConcurrentAppendsSameSeq", testConcurrentSameSeq},
		{"ConcurrentAppendsWithRetry", testConcurrentWithRetry},
		{"Reopen", testReopen},
		{"RefusesWhatNotEveryStoreKeeps", testRefusesWhatNotEveryStoreKeeps},
	})
}

// testCase is one case of a suite, run as a subtest.
type testCase struct {
	name string
	fn   func(t *testing.T, h *harness)
}

// runCases runs cases as subtests of t, on stores open gives.
func runCases(t *testing.T, open Opener, cases []testCase) {
	h := &harness{open: open}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, h) })
	}
}

type harness struct {
	open Opener
	mu   sync.Mutex
	n    int
}

// fresh opens a new, empty store under a name of its own.
func (h *harness) fresh(t *testing.T) (store.Store, string) {
	t.Helper()
	h.mu.Lock()
	h.n++
	name := fmt.Sprintf("storetest_%02d_%s", h.n, strings.ToLower(lastPart(t.Name())))
	h.mu.Unlock()
	return h.reopen(t, name), name
}

// freshAs is h.fresh as T, an interface every store the suite runs on
// must implement.
func freshAs[T any](t *testing.T, h *harness) (T, string) {
	t.Helper()
	s, name := h.fresh(t)
	x, ok := s.(T)
	if !ok {
		t.Fatalf("%T does not implement %v", s, reflect.TypeFor[T]())
	}
	return x, name
}

// reopen opens the store called name and closes it when the test ends.
func (h *harness) reopen(t *testing.T, name string) store.Store {
	t.Helper()
	s := h.open(t, name)
	if s == nil {
		t.Fatalf("the opener returned no store for %q", name)
	}
	t.Cleanup(func() { _ = s.Close() }) // a second Close, after an explicit one, may report an error
	return s
}

func lastPart(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// A fixed zone that is not UTC, to check that times come back normalised.
var paris = time.FixedZone("CET", 3600)

// base is a time with every microsecond digit set, to catch truncation.
// Stores keep times to the microsecond (PostgreSQL's precision).
var base = time.Date(2025, 3, 14, 15, 9, 26, 535897000, paris)

func sampleRace(id string, n uint64) *race.Race {
	return &race.Race{
		ID:      id,
		Ruleset: "ludi",
		Rules:   3,
		Config: race.Config{
			Track:   "circus-maximus",
			Laps:    7,
			Options: map[string]string{"weather": "dry", "bonus_window": "2h"},
		},
		Entrants: []race.Entrant{
			{Player: "alice@example.org", Racers: []string{"Scorpus", "Diocles"}, Options: map[string]string{"package": "veteran", "extra": "speed,nerve"}},
			{Player: "bob@example.org", Racers: []string{"Crescens"}},
			{Player: "Zoë «quoted» \"name\"", Racers: []string{"Ünïcödé ☃"}, Options: map[string]string{"": "empty key"}},
		},
		Seed:    dice.SeedFromInt(n),
		Created: base,
	}
}

func ctx(t *testing.T) context.Context { return t.Context() }

func mustCreate(t *testing.T, s store.Store, r *race.Race) {
	t.Helper()
	if err := s.Create(ctx(t), r); err != nil {
		t.Fatalf("Create(%q): %v", r.ID, err)
	}
}

func mustLoad(t *testing.T, s store.Store, id string) *race.Race {
	t.Helper()
	r, err := s.Load(ctx(t), id)
	if err != nil {
		t.Fatalf("Load(%q): %v", id, err)
	}
	if r == nil {
		t.Fatalf("Load(%q) returned no race and no error", id)
	}
	return r
}

func mustTurns(t *testing.T, s store.Store, id string) []store.SavedTurn {
	t.Helper()
	ts, err := s.Turns(ctx(t), id)
	if err != nil {
		t.Fatalf("Turns(%q): %v", id, err)
	}
	return ts
}

// Resolves counts the resolve entries of each turn of race id in s: a
// turn resolved once is 1, whoever tried.
func Resolves(t testing.TB, s store.Store, id string) map[int]int {
	t.Helper()
	r, err := s.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	n := map[int]int{}
	for _, e := range r.Log {
		if e.Kind == race.EntryResolve {
			n[e.Turn]++
		}
	}
	return n
}

func mustAppend(t *testing.T, s store.Store, id string, e race.Entry, turn *store.SavedTurn) {
	t.Helper()
	if err := s.Append(ctx(t), id, e, turn); err != nil {
		t.Fatalf("Append(%q, seq %d): %v", id, e.Seq, err)
	}
}

func orderEntry(seq, turn, seat int, text string) race.Entry {
	return race.Entry{Seq: seq, Kind: race.EntryOrder, Turn: turn, Seat: seat, Text: text,
		InWindow: seat%2 == 0, At: base.Add(time.Duration(seq)*time.Minute + time.Duration(seq)*time.Microsecond),
		Hash: fmt.Sprintf("%064x", seq*104729+turn)}
}

func resolveEntry(seq, turn int) race.Entry {
	return race.Entry{Seq: seq, Kind: race.EntryResolve, Turn: turn, Seat: -1,
		At: base.Add(time.Duration(seq)*time.Minute + 7*time.Microsecond), Hash: fmt.Sprintf("%064x", seq*7+turn)}
}

func savedTurn(turn int) *store.SavedTurn {
	state := fmt.Sprintf(`{"turn":%d,"cars":[{"seat":0,"pos":%d},{"seat":1,"pos":%d}],"note":"  spaced  "}`, turn+1, turn*3, turn*2)
	return &store.SavedTurn{
		Turn: turn,
		Hash: fmt.Sprintf("%064x", turn*7919),
		Rolls: []dice.Roll{
			{Seat: 0, Reason: "start", Die: "d20", Face: 13, Result: 14},
			{Seat: -1, Reason: "weather", Die: "gear4", Face: turn % 4, Result: 7 + turn},
		},
		// Not valid UTF-8 and with a NUL, so a store that keeps it as text fails.
		DiceState: []byte{0x00, 0xff, 0xfe, byte(turn), 0x80, 0x00, 'c', 'h', 'a'},
		State:     []byte(state),
		Story:     []byte(fmt.Sprintf(`{"orders":{"0":"M%d"},"events":[{"seat":0,"kind":"move","text":"moves  %d"}]}`, turn, turn)),
		At:        base.Add(time.Duration(turn)*time.Hour + 999999*time.Microsecond),
		Rules:     turn % 3,
	}
}

// checkTime reports a time that differs from want or is not in UTC.
func checkTime(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s = %s, want %s", what, got.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
	}
	if got.Location() != time.UTC {
		t.Errorf("%s is in %s, want UTC", what, got.Location())
	}
}

func checkRace(t *testing.T, got, want *race.Race) {
	t.Helper()
	if got.ID != want.ID {
		t.Errorf("ID = %q, want %q", got.ID, want.ID)
	}
	if got.Ruleset != want.Ruleset || got.Rules != want.Rules {
		t.Errorf("Ruleset = %q version %d, want %q version %d", got.Ruleset, got.Rules, want.Ruleset, want.Rules)
	}
	if !reflect.DeepEqual(got.Config, want.Config) {
		t.Errorf("Config = %#v, want %#v", got.Config, want.Config)
	}
	if !reflect.DeepEqual(got.Entrants, want.Entrants) {
		t.Errorf("Entrants = %#v, want %#v", got.Entrants, want.Entrants)
	}
	if got.Seed != want.Seed {
		t.Errorf("Seed = %s, want %s", got.Seed.Hex(), want.Seed.Hex())
	}
	checkTime(t, "Created", got.Created, want.Created)
	checkLog(t, got.Log, want.Log)
}

func checkLog(t *testing.T, got, want []race.Entry) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("the log has %d entries, want %d:\n got %+v\nwant %+v", len(got), len(want), got, want)
		return
	}
	for i := range want {
		g, w := got[i], want[i]
		gAt, wAt := g.At, w.At
		g.At, w.At = time.Time{}, time.Time{}
		if g != w {
			t.Errorf("log[%d] = %+v, want %+v", i, g, w)
		}
		checkTime(t, fmt.Sprintf("log[%d].At", i), gAt, wAt)
	}
}

// checkStored checks the race's whole log and its saved turns.
func checkStored(t *testing.T, s store.Store, id string, log []race.Entry, turns ...*store.SavedTurn) {
	t.Helper()
	checkLog(t, mustLoad(t, s, id).Log, log)
	checkTurns(t, mustTurns(t, s, id), turns)
}

func checkTurns(t *testing.T, got []store.SavedTurn, want []*store.SavedTurn) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("Turns gave %d turns, want %d", len(got), len(want))
		return
	}
	for i, w := range want {
		g := got[i]
		if g.Turn != w.Turn || g.Hash != w.Hash {
			t.Errorf("turn[%d] is turn %d hash %s, want turn %d hash %s", i, g.Turn, g.Hash, w.Turn, w.Hash)
		}
		if !reflect.DeepEqual(g.Rolls, w.Rolls) {
			t.Errorf("turn %d: Rolls = %+v, want %+v", w.Turn, g.Rolls, w.Rolls)
		}
		if !bytes.Equal(g.DiceState, w.DiceState) {
			t.Errorf("turn %d: DiceState = %x, want %x", w.Turn, g.DiceState, w.DiceState)
		}
		if !bytes.Equal(g.State, w.State) || !bytes.Equal(g.Story, w.Story) {
			t.Errorf("turn %d: State = %s, Story = %s, want %s and %s (byte for byte)", w.Turn, g.State, g.Story, w.State, w.Story)
		}
		if g.Rules != w.Rules {
			t.Errorf("turn %d: Rules = %d, want %d", w.Turn, g.Rules, w.Rules)
		}
		checkTime(t, fmt.Sprintf("turn %d At", w.Turn), g.At, w.At)
	}
}

// checkErr reports an error that is not target or does not name the race.
func checkErr(t *testing.T, what string, err, target error, id string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error = %v, want one that wraps %q", what, err, target)
		return
	}
	if !strings.Contains(err.Error(), id) {
		t.Errorf("%s: error %q does not name the race %q", what, err, id)
	}
}

func testRoundTrip(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	want := sampleRace("round-trip", 1)
	mustCreate(t, s, want)
	got := mustLoad(t, s, want.ID)
	checkRace(t, got, want)
	if got.Commitment() != want.Seed.Commitment() {
		t.Errorf("Commitment = %s, want %s", got.Commitment(), want.Seed.Commitment())
	}
}

func testRoundTripMinimal(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	// No schedule, no options, no racers: nothing must turn into something.
	want := &race.Race{
		ID:       "minimal",
		Ruleset:  "nascar",
		Config:   race.Config{Track: "oval"},
		Entrants: []race.Entrant{{Player: "solo"}},
		Seed:     dice.SeedFromInt(2),
		Created:  time.Date(2024, 12, 31, 23, 59, 59, 1000, time.UTC), // the finest time a store keeps
	}
	mustCreate(t, s, want)
	checkRace(t, mustLoad(t, s, want.ID), want)
}

func testCreateDuplicate(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	first := sampleRace("dup", 1)
	mustCreate(t, s, first)
	second := sampleRace("dup", 2)
	second.Ruleset = "other"
	checkErr(t, "creating a race with a taken ID", s.Create(ctx(t), second), store.ErrExists, "dup")
	// The first race is untouched.
	checkRace(t, mustLoad(t, s, "dup"), first)
}

func testCreateRefusesLog(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	r := sampleRace("with-log", 1)
	r.Log = []race.Entry{orderEntry(1, 1, 0, "go")}
	if err := s.Create(ctx(t), r); err == nil {
		t.Fatal("Create accepted a race with a non-empty log")
	}
	_, err := s.Load(ctx(t), r.ID)
	checkErr(t, "loading a race whose Create failed", err, store.ErrNotFound, r.ID)
}

func testCreateRefusesEmptyID(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	if err := s.Create(ctx(t), sampleRace("", 1)); err == nil {
		t.Fatal("Create accepted a race with no ID")
	}
}

func testUnknownRace(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	mustCreate(t, s, sampleRace("known", 1))
	const id = "no-such-race"
	_, err := s.Load(ctx(t), id)
	checkErr(t, "Load", err, store.ErrNotFound, id)
	_, err = s.Turns(ctx(t), id)
	checkErr(t, "Turns", err, store.ErrNotFound, id)
	err = s.Append(ctx(t), id, orderEntry(1, 1, 0, "go"), nil)
	checkErr(t, "Append", err, store.ErrNotFound, id)
	err = s.Append(ctx(t), id, resolveEntry(1, 1), savedTurn(1))
	checkErr(t, "Append with a turn", err, store.ErrNotFound, id)
	_, _, err = s.Resume(ctx(t), id, -1)
	checkErr(t, "Resume", err, store.ErrNotFound, id)
	_, err = s.Keyed(ctx(t), id, "k")
	checkErr(t, "Keyed", err, store.ErrNotFound, id)
	// None of that created the race.
	_, err = s.Load(ctx(t), id)
	checkErr(t, "Load after the failed calls", err, store.ErrNotFound, id)
}

func testEmptyLog(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	mustCreate(t, s, sampleRace("empty", 1))
	if r := mustLoad(t, s, "empty"); len(r.Log) != 0 {
		t.Errorf("a new race's log has %d entries: %+v", len(r.Log), r.Log)
	}
	if ts := mustTurns(t, s, "empty"); len(ts) != 0 {
		t.Errorf("a new race has %d saved turns", len(ts))
	}
}

func testAppendInOrder(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	mustCreate(t, s, sampleRace("in-order", 1))
	want := []race.Entry{
		orderEntry(1, 1, 0, "M3 B"),
		orderEntry(2, 1, 1, "multi\nline orders, with 'quotes' and \"more\""),
		{Seq: 3, Kind: race.EntrySet, Turn: 1, Seat: -1, Text: "orders=2", At: base.Add(time.Hour)},
		orderEntry(4, 1, 0, "M4"), // a later order for the same seat is appended, not replaced
		resolveEntry(5, 1),        // a resolve entry may come without a saved turn
		orderEntry(6, 2, 2, ""),
	}
	for i, e := range want {
		mustAppend(t, s, "in-order", e, nil)
		checkLog(t, mustLoad(t, s, "in-order").Log, want[:i+1])
	}
	if ts := mustTurns(t, s, "in-order"); len(ts) != 0 {
		t.Errorf("appends without turns saved %d turns", len(ts))
	}
}

func testAppendWrongSeq(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "wrong-seq"
	mustCreate(t, s, sampleRace(id, 1))
	for _, seq := range []int{0, 2, -1} {
		checkErr(t, fmt.Sprintf("appending seq %d to an empty log", seq),
			s.Append(ctx(t), id, orderEntry(seq, 1, 0, "bad"), nil), store.ErrConflict, id)
	}
	want := []race.Entry{orderEntry(1, 1, 0, "a"), orderEntry(2, 1, 1, "b")}
	for _, e := range want {
		mustAppend(t, s, id, e, nil)
	}
	for _, seq := range []int{1, 2, 4, 100} { // repeats and gaps
		checkErr(t, fmt.Sprintf("appending seq %d after 2", seq),
			s.Append(ctx(t), id, orderEntry(seq, 1, 0, "bad"), nil), store.ErrConflict, id)
	}
	checkLog(t, mustLoad(t, s, id).Log, want)
	// The log still takes the right next entry.
	want = append(want, orderEntry(3, 1, 0, "c"))
	mustAppend(t, s, id, want[2], nil)
	checkLog(t, mustLoad(t, s, id).Log, want)
}

func testAppendIsolatedPerRace(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	mustCreate(t, s, sampleRace("a", 1))
	mustCreate(t, s, sampleRace("b", 2))
	// Each race numbers its own log from 1.
	mustAppend(t, s, "a", orderEntry(1, 1, 0, "a1"), nil)
	mustAppend(t, s, "a", orderEntry(2, 1, 0, "a2"), nil)
	mustAppend(t, s, "b", orderEntry(1, 1, 0, "b1"), nil)
	mustAppend(t, s, "a", resolveEntry(3, 1), savedTurn(1))
	mustAppend(t, s, "b", resolveEntry(2, 1), savedTurn(1))
	checkLog(t, mustLoad(t, s, "a").Log, []race.Entry{orderEntry(1, 1, 0, "a1"), orderEntry(2, 1, 0, "a2"), resolveEntry(3, 1)})
	checkLog(t, mustLoad(t, s, "b").Log, []race.Entry{orderEntry(1, 1, 0, "b1"), resolveEntry(2, 1)})
	checkTurns(t, mustTurns(t, s, "a"), []*store.SavedTurn{savedTurn(1)})
	checkTurns(t, mustTurns(t, s, "b"), []*store.SavedTurn{savedTurn(1)})
}

func testResolveWithTurn(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "resolve"
	mustCreate(t, s, sampleRace(id, 1))
	var log []race.Entry
	var turns []*store.SavedTurn
	seq := 0
	for turn := 1; turn <= 3; turn++ {
		seq++
		log = append(log, orderEntry(seq, turn, 0, "go"))
		mustAppend(t, s, id, log[len(log)-1], nil)
		seq++
		log = append(log, resolveEntry(seq, turn))
		st := savedTurn(turn)
		if turn == 2 {
			st.Rolls = []dice.Roll{} // a turn with no dice
		}
		turns = append(turns, st)
		mustAppend(t, s, id, log[len(log)-1], st)
		checkTurns(t, mustTurns(t, s, id), turns)
	}
	checkLog(t, mustLoad(t, s, id).Log, log)
}

func testFailedAppendStoresNoTurn(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "failed-resolve"
	mustCreate(t, s, sampleRace(id, 1))
	log := []race.Entry{orderEntry(1, 1, 0, "go")}
	mustAppend(t, s, id, log[0], nil)
	for _, seq := range []int{1, 3} {
		checkErr(t, fmt.Sprintf("appending a resolve with seq %d after 1", seq),
			s.Append(ctx(t), id, resolveEntry(seq, 1), savedTurn(1)), store.ErrConflict, id)
	}
	checkStored(t, s, id, log)
	// The turn can still be saved with the right entry.
	log = append(log, resolveEntry(2, 1))
	mustAppend(t, s, id, log[1], savedTurn(1))
	checkStored(t, s, id, log, savedTurn(1))
}

// A resolve whose entry is fine but whose turn cannot be saved (the turn is
// saved already) must leave no entry behind: the two are one transaction.
func testDuplicateTurnStoresNoEntry(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "dup-turn"
	mustCreate(t, s, sampleRace(id, 1))
	log := []race.Entry{resolveEntry(1, 1)}
	mustAppend(t, s, id, log[0], savedTurn(1))
	other := savedTurn(1)
	other.Hash = strings.Repeat("e", 64)
	err := s.Append(ctx(t), id, resolveEntry(2, 1), other)
	if err == nil {
		t.Fatal("Append saved turn 1 twice")
	}
	checkStored(t, s, id, log, savedTurn(1))
}

func testTurnMustMatchEntry(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "mismatch"
	mustCreate(t, s, sampleRace(id, 1))
	if err := s.Append(ctx(t), id, orderEntry(1, 1, 0, "go"), savedTurn(1)); err == nil {
		t.Error("Append saved a turn with an order entry")
	}
	if err := s.Append(ctx(t), id, resolveEntry(1, 1), savedTurn(2)); err == nil {
		t.Error("Append saved turn 2 with the entry resolving turn 1")
	}
	checkStored(t, s, id, nil)
}

func testList(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	if l, err := s.List(ctx(t), store.Page{}); err != nil || len(l) != 0 {
		t.Fatalf("List of an empty store = %+v, %v; want nothing", l, err)
	}
	// Created out of time order, so that insertion order is not enough.
	old, mid, recent := sampleRace("old", 1), sampleRace("mid", 2), sampleRace("recent", 3)
	old.Created = base.Add(-48 * time.Hour)
	mid.Created = base.Add(time.Microsecond) // one microsecond after base: precision matters
	mid.Config.Track = "monza"
	mid.Ruleset = "formula-d"
	recent.Created = base.Add(2 * time.Microsecond)
	twin := sampleRace("mid-twin", 4) // created with mid: the id orders them
	twin.Created = mid.Created
	for _, r := range []*race.Race{mid, old, twin, recent} {
		mustCreate(t, s, r)
	}
	mustAppend(t, s, "mid", orderEntry(1, 1, 0, "x"), nil)
	mustAppend(t, s, "mid", resolveEntry(2, 1), savedTurn(1))
	mustAppend(t, s, "mid", orderEntry(3, 2, 0, "y"), nil)
	mustAppend(t, s, "mid", resolveEntry(4, 2), savedTurn(2))
	mustAppend(t, s, "mid", orderEntry(5, 3, 1, "z"), nil)
	mustAppend(t, s, "old", orderEntry(1, 1, 0, "x"), nil)

	got, err := s.List(ctx(t), store.Page{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	want := []store.Summary{
		{ID: "recent", Ruleset: "ludi", Track: "circus-maximus", Created: recent.Created, Commitment: recent.Seed.Commitment()},
		{ID: "mid", Ruleset: "formula-d", Track: "monza", Created: mid.Created, Entries: 5, Turns: 2, Commitment: mid.Seed.Commitment()},
		{ID: "mid-twin", Ruleset: "ludi", Track: "circus-maximus", Created: twin.Created, Commitment: twin.Seed.Commitment()},
		{ID: "old", Ruleset: "ludi", Track: "circus-maximus", Created: old.Created, Entries: 1, Commitment: old.Seed.Commitment()},
	}
	checkList(t, got, want)

	// Pages of every size walk the same list, each race once.
	for limit := 1; limit <= len(want)+1; limit++ {
		var walked []store.Summary
		p := store.Page{Limit: limit}
		for range len(want) + 2 {
			page, err := s.List(ctx(t), p)
			if err != nil {
				t.Fatalf("List(%+v): %v", p, err)
			}
			if len(page) > limit {
				t.Fatalf("List(%+v) gave %d races", p, len(page))
			}
			if len(page) == 0 {
				break
			}
			walked = append(walked, page...)
			p = store.After(page[len(page)-1], limit)
		}
		checkList(t, walked, want)
	}
	// After mid (whose twin was created at the same microsecond), with no limit.
	after, err := s.List(ctx(t), store.After(want[1], 0))
	if err != nil {
		t.Fatal(err)
	}
	checkList(t, after, want[2:])
	// After a race not stored: the list's place is by time and id alone.
	after, err = s.List(ctx(t), store.Page{AfterCreated: base, AfterID: "zzz", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	checkList(t, after, want[3:])
}

func checkList(t *testing.T, got, want []store.Summary) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("List gave %d races, want %d: %+v", len(got), len(want), got)
		return
	}
	for i, w := range want {
		g := got[i]
		checkTime(t, fmt.Sprintf("List[%d].Created", i), g.Created, w.Created)
		g.Created, w.Created = time.Time{}, time.Time{}
		if g != w {
			t.Errorf("List[%d] = %+v, want %+v", i, g, w)
		}
	}
}

const writers = 8

// Together runs fn(0) to fn(n-1) at once, each on its own goroutine, all
// released at the same moment, and waits for them.
func Together(n int, fn func(w int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			fn(w)
		}()
	}
	close(start)
	wg.Wait()
}

// appendRetrying appends what next makes of the race as loaded, loading it
// again and retrying on ErrConflict, as the host does; next says false when
// there is nothing to append any more.
func appendRetrying(c context.Context, s store.Store, id string, next func(r *race.Race) (race.Entry, *store.SavedTurn, bool)) error {
	for {
		r, err := s.Load(c, id)
		if err != nil {
			return err
		}
		e, rec, ok := next(r)
		if !ok {
			return nil
		}
		if err := s.Append(c, id, e, rec); !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
}

// Every round, eight writers append the same seq at the same moment: exactly
// one must win and the others must get ErrConflict.
func testConcurrentSameSeq(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id, rounds = "same-seq", 25
	mustCreate(t, s, sampleRace(id, 1))
	c := ctx(t)
	winners := make([]int, rounds+1) // by seq: the writer that won it
	for seq := 1; seq <= rounds; seq++ {
		var errs [writers]error
		Together(writers, func(w int) {
			errs[w] = s.Append(c, id, orderEntry(seq, 1, w, fmt.Sprintf("writer %d", w)), nil)
		})
		won := 0
		for w, err := range errs {
			switch {
			case err == nil:
				won++
				winners[seq] = w
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("seq %d, writer %d: %v; want nil or ErrConflict", seq, w, err)
			}
		}
		if won != 1 {
			t.Fatalf("seq %d: %d writers won, want exactly 1", seq, won)
		}
	}
	log := mustLoad(t, s, id).Log
	if len(log) != rounds {
		t.Fatalf("the log has %d entries, want %d", len(log), rounds)
	}
	for i, e := range log {
		if e.Seq != i+1 {
			t.Errorf("log[%d].Seq = %d, want %d", i, e.Seq, i+1)
		}
		if want := fmt.Sprintf("writer %d", winners[i+1]); e.Text != want || e.Seat != winners[i+1] {
			t.Errorf("entry %d is %q from seat %d, but the winner was %q", e.Seq, e.Text, e.Seat, want)
		}
	}
}

// Eight writers each append their own entries, reloading and retrying on
// ErrConflict, as the commands do: every entry lands once, with no gaps.
func testConcurrentWithRetry(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id, each = "retry", 6
	mustCreate(t, s, sampleRace(id, 1))
	c := ctx(t)
	Together(writers, func(w int) {
		for i := range each {
			err := appendRetrying(c, s, id, func(r *race.Race) (race.Entry, *store.SavedTurn, bool) {
				return orderEntry(len(r.Log)+1, 1, w, fmt.Sprintf("%d/%d", w, i)), nil, true
			})
			if err != nil {
				t.Errorf("writer %d: %v", w, err)
				return
			}
		}
	})
	log := mustLoad(t, s, id).Log
	if len(log) != writers*each {
		t.Fatalf("the log has %d entries, want %d", len(log), writers*each)
	}
	seen := map[string]bool{}
	next := make([]int, writers) // each writer's entries must be in its own order
	for i, e := range log {
		if e.Seq != i+1 {
			t.Errorf("log[%d].Seq = %d, want %d", i, e.Seq, i+1)
		}
		if seen[e.Text] {
			t.Errorf("entry %q is in the log twice", e.Text)
		}
		seen[e.Text] = true
		if want := fmt.Sprintf("%d/%d", e.Seat, next[e.Seat]); e.Text != want {
			t.Errorf("entry %d is %q, want %q", e.Seq, e.Text, want)
		}
		next[e.Seat]++
	}
}

func testReopen(t *testing.T, h *harness) {
	s, name := h.fresh(t)
	want := sampleRace("durable", 1)
	mustCreate(t, s, want)
	other := sampleRace("other", 2)
	other.Created = base.Add(time.Hour)
	mustCreate(t, s, other)
	want.Log = []race.Entry{orderEntry(1, 1, 0, "go"), resolveEntry(2, 1), orderEntry(3, 2, 1, "again")}
	turns := []*store.SavedTurn{savedTurn(1)}
	mustAppend(t, s, want.ID, want.Log[0], nil)
	mustAppend(t, s, want.ID, want.Log[1], turns[0])
	mustAppend(t, s, want.ID, want.Log[2], nil)
	list, err := s.List(ctx(t), store.Page{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(list) != 2 {
		t.Fatalf("List gave %d races before closing, want 2: %+v", len(list), list)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	s = h.reopen(t, name)
	checkRace(t, mustLoad(t, s, want.ID), want)
	checkRace(t, mustLoad(t, s, other.ID), other)
	checkTurns(t, mustTurns(t, s, want.ID), turns)
	again, err := s.List(ctx(t), store.Page{})
	if err != nil {
		t.Fatalf("List after reopening: %v", err)
	}
	checkList(t, again, list)
	// The log carries on where it stopped, and the seq check still holds.
	checkErr(t, "appending seq 3 after reopening", s.Append(ctx(t), want.ID, orderEntry(3, 2, 0, "late"), nil), store.ErrConflict, want.ID)
	want.Log = append(want.Log, resolveEntry(4, 2))
	turns = append(turns, savedTurn(2))
	mustAppend(t, s, want.ID, want.Log[3], turns[1])
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	s = h.reopen(t, name)
	checkRace(t, mustLoad(t, s, want.ID), want)
	checkTurns(t, mustTurns(t, s, want.ID), turns)
}

func keyed(e race.Entry, key string) race.Entry {
	e.Key = key
	return e
}

// A client key names one entry of a race: a second append with it stores
// nothing and says so; Keyed finds the entry. Another race may use the key.
func testKeys(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "keys"
	mustCreate(t, s, sampleRace(id, 1))
	mustCreate(t, s, sampleRace("other", 2))
	log := []race.Entry{keyed(orderEntry(1, 1, 0, "go"), "k-1"), orderEntry(2, 1, 1, "no key")}
	mustAppend(t, s, id, log[0], nil)
	mustAppend(t, s, id, log[1], nil)
	checkErr(t, "appending a repeated key", s.Append(ctx(t), id, keyed(orderEntry(3, 1, 0, "again"), "k-1"), nil), store.ErrDuplicateKey, id)
	checkErr(t, "a repeated key with a stale seq", s.Append(ctx(t), id, keyed(orderEntry(2, 1, 0, "again"), "k-1"), nil), store.ErrDuplicateKey, id)
	checkErr(t, "a repeated key on a resolve", s.Append(ctx(t), id, keyed(resolveEntry(3, 1), "k-1"), savedTurn(1)), store.ErrDuplicateKey, id)
	checkStored(t, s, id, log)
	got, err := s.Keyed(ctx(t), id, "k-1")
	if err != nil || got == nil {
		t.Fatalf("Keyed(k-1) = %v, %v", got, err)
	}
	checkLog(t, []race.Entry{*got}, log[:1])
	for _, k := range []string{"k-2", ""} {
		if got, err := s.Keyed(ctx(t), id, k); err != nil || got != nil {
			t.Errorf("Keyed(%q) = %+v, %v; want nothing", k, got, err)
		}
	}
	mustAppend(t, s, "other", keyed(orderEntry(1, 1, 0, "go"), "k-1"), nil)
}

// Resume gives a turn's record and the log from its resolve entry on.
func testResume(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "resume"
	want := sampleRace(id, 1)
	mustCreate(t, s, want)
	r, rec, err := s.Resume(ctx(t), id, -1)
	if err != nil || rec != nil || len(r.Log) != 0 {
		t.Fatalf("Resume of a new race = %+v, %+v, %v; want the race, no record, no log", r, rec, err)
	}
	log := []race.Entry{orderEntry(1, 1, 0, "a"), resolveEntry(2, 1), orderEntry(3, 2, 0, "b"), orderEntry(4, 2, 1, "c"), resolveEntry(5, 2), orderEntry(6, 3, 0, "d")}
	turns := map[int]*store.SavedTurn{2: savedTurn(1), 5: savedTurn(2)}
	for i, e := range log {
		mustAppend(t, s, id, e, turns[e.Seq])
		if i == 0 {
			r, rec, err := s.Resume(ctx(t), id, -1)
			if err != nil || rec != nil {
				t.Fatalf("Resume before a resolve: %v, %+v", err, rec)
			}
			checkLog(t, r.Log, log[:1])
		}
	}
	for _, tc := range []struct {
		n, turn int
		log     []race.Entry
	}{{-1, 2, log[4:]}, {2, 2, log[4:]}, {1, 1, log[1:]}} {
		r, rec, err := s.Resume(ctx(t), id, tc.n)
		if err != nil {
			t.Fatalf("Resume(%d): %v", tc.n, err)
		}
		want.Log = tc.log
		checkRace(t, r, want)
		checkTurns(t, []store.SavedTurn{*rec}, []*store.SavedTurn{savedTurn(tc.turn)})
	}
	_, _, err = s.Resume(ctx(t), id, 3)
	checkErr(t, "Resume of a turn not resolved", err, store.ErrNotFound, id)
	// Turn 0 is the start: no record, the whole log.
	if r, rec, err := s.Resume(ctx(t), id, 0); err != nil || rec != nil || len(r.Log) != len(log) {
		t.Fatalf("Resume(0) = %d entries, %+v, %v; want the whole log and no record", len(r.Log), rec, err)
	}

	// Orders resent for a seat: a store may leave out the ones replaced.
	more := []race.Entry{orderEntry(7, 3, 0, "e"), orderEntry(8, 3, 1, "f"), orderEntry(9, 3, 0, "g"), resolveEntry(10, 3), orderEntry(11, 4, 1, "h")}
	for _, e := range more {
		mustAppend(t, s, id, e, nil)
	}
	log = append(log, more...)
	r, _, err = s.Resume(ctx(t), id, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Of turn 3's orders 6, 7 and 9 from seat 0, 7 may be left out; not 6,
	// the turn's first: the public part of the log ends before it.
	if len(r.Log) != len(log[4:]) && len(r.Log) != len(log[4:])-1 {
		t.Fatalf("Resume after resent orders gave %d entries: %+v", len(r.Log), r.Log)
	}
	if !slices.ContainsFunc(r.Log, func(e race.Entry) bool { return e.Seq == 6 }) {
		t.Fatalf("Resume left out turn 3's first order: %+v", r.Log)
	}
	checkLog(t, lastOrders(r.Log), lastOrders(log[4:]))
}

// lastOrders leaves out the orders that a later order of the same seat for
// the same turn replaced.
func lastOrders(log []race.Entry) []race.Entry {
	type key struct{ turn, seat int }
	last := map[key]int{}
	for _, e := range log {
		if e.Kind == race.EntryOrder {
			last[key{e.Turn, e.Seat}] = e.Seq
		}
	}
	var out []race.Entry
	for _, e := range log {
		if e.Kind != race.EntryOrder || last[key{e.Turn, e.Seat}] == e.Seq {
			out = append(out, e)
		}
	}
	return out
}

// A turn is resolved once: a second resolve entry for it, with its record or
// without (the first had none), is a conflict, and stores nothing.
func testSecondResolve(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "twice"
	mustCreate(t, s, sampleRace(id, 1))
	mustAppend(t, s, id, resolveEntry(1, 1), nil)
	for _, rec := range []*store.SavedTurn{nil, savedTurn(1)} {
		err := s.Append(ctx(t), id, resolveEntry(2, 1), rec)
		checkErr(t, "a second resolve of turn 1", err, store.ErrConflict, id)
	}
	if log := mustLoad(t, s, id).Log; len(log) != 1 {
		t.Fatalf("the log is %+v; want the first resolve alone", log)
	}
	mustAppend(t, s, id, resolveEntry(2, 2), nil) // the next turn's is another matter
}

// Eight writers resolve turn 1 at once, each reloading and retrying on a
// conflict until turn 1 is resolved by someone: exactly one resolve entry
// and one saved turn.
func testConcurrentResolves(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "resolves"
	mustCreate(t, s, sampleRace(id, 1))
	mustAppend(t, s, id, orderEntry(1, 1, 0, "go"), nil)
	c := ctx(t)
	Together(writers, func(w int) {
		err := appendRetrying(c, s, id, func(r *race.Race) (race.Entry, *store.SavedTurn, bool) {
			for _, e := range r.Log {
				if e.Kind == race.EntryResolve && e.Turn == 1 {
					return race.Entry{}, nil, false // resolved by another writer: nothing to do
				}
			}
			e := resolveEntry(len(r.Log)+1, 1)
			e.Text = fmt.Sprint("writer ", w)
			return e, savedTurn(1), true
		})
		if err != nil {
			t.Errorf("writer %d: %v", w, err)
		}
	})
	log := mustLoad(t, s, id).Log
	if len(log) != 2 || log[1].Kind != race.EntryResolve {
		t.Fatalf("the log is %+v; want the order and one resolve", log)
	}
	checkTurns(t, mustTurns(t, s, id), []*store.SavedTurn{savedTurn(1)})
}

// Eight writers send one request with one key, each retrying on a conflict
// as the host does: one entry is stored, and the others are told it exists.
func testConcurrentSameKey(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "same-key"
	mustCreate(t, s, sampleRace(id, 1))
	c := ctx(t)
	stored := make(chan int, writers)
	Together(writers, func(w int) {
		err := appendRetrying(c, s, id, func(r *race.Race) (race.Entry, *store.SavedTurn, bool) {
			return keyed(orderEntry(len(r.Log)+1, 1, w, "go"), "once"), nil, true
		})
		switch {
		case err == nil:
			stored <- w
		case !errors.Is(err, store.ErrDuplicateKey):
			t.Errorf("writer %d: %v", w, err)
		}
	})
	close(stored)
	if n := len(stored); n != 1 {
		t.Fatalf("%d writers stored the keyed entry, want 1", n)
	}
	if log := mustLoad(t, s, id).Log; len(log) != 1 || log[0].Key != "once" {
		t.Fatalf("the log is %+v; want one entry with the key", log)
	}
}
