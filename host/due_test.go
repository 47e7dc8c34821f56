package host

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"pitwall/race"
	"pitwall/store"
)

func TestReadyAndDue(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	due := func(when string) string {
		t.Helper()
		p := f.load(t, "r1")
		ok, why := Due(p, when, f.now)
		if ok != (why != "") {
			t.Fatalf("Due(%s) = %v, %q", when, ok, why)
		}
		return why
	}
	check := func(what string, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %q, want %q", what, got, want)
		}
	}
	for _, when := range []string{store.ResolveAtDeadline, store.ResolveWhenReady, store.ResolveWhenAllIn} {
		check("a fresh race, "+when, due(when), "")
	}
	// Every seat but the last ready; the last one's mark taken back.
	for seat := range 4 {
		if turn, err := f.h.Ready(ctx, "r1", seat, true, Req{Turn: 1, Key: string(rune('a' + seat))}); err != nil || turn != 1 {
			t.Fatalf("seat %d ready: %d %v", seat, turn, err)
		}
	}
	if _, err := f.h.Ready(ctx, "r1", 3, false, Req{}); err != nil {
		t.Fatal(err)
	}
	check("three of four ready", due(store.ResolveWhenReady), "")
	if _, err := f.h.Ready(ctx, "r1", 3, true, Req{}); err != nil {
		t.Fatal(err)
	}
	p, _ := f.h.Load(ctx, "r1")
	if len(p.Ready) != 4 {
		t.Fatalf("ready after the marks: %v", p.Ready)
	}
	check("all ready, resolving when ready", due(store.ResolveWhenReady), "all_ready")
	check("all ready, resolving at the deadline", due(store.ResolveAtDeadline), "")
	check("all ready, no orders in, resolving when all are in", due(store.ResolveWhenAllIn), "")
	// A key names one request: the same mark again is that mark; from another seat, refused.
	n := logLen(t, f.h, "r1")
	if turn, err := f.h.Ready(ctx, "r1", 0, true, Req{Key: "a"}); err != nil || turn != 1 || logLen(t, f.h, "r1") != n {
		t.Errorf("a mark repeated with its key: %d %v, log %d -> %d", turn, err, n, logLen(t, f.h, "r1"))
	}
	if _, err := f.h.Ready(ctx, "r1", 1, true, Req{Key: "a"}); !IsBadInput(err) {
		t.Errorf("another seat's mark with the key: %v", err)
	}
	if _, err := f.h.Ready(ctx, "r1", 9, true, Req{}); !IsBadInput(err) || logLen(t, f.h, "r1") != n {
		t.Errorf("a mark from seat 10 of 4: %v", err)
	}
	if _, err := f.h.Ready(ctx, "r1", 0, true, Req{Turn: 2}); !IsBadInput(err) {
		t.Errorf("a mark for a turn to come: %v", err)
	}
	// Orders in from every seat.
	for seat := range 4 {
		if _, err := f.h.Submit(ctx, "r1", seat, "Accelerate", Req{}); err != nil {
			t.Fatal(err)
		}
	}
	check("all in, resolving when all are in", due(store.ResolveWhenAllIn), "all_in")
	// A deadline: not due before it, due at it, whatever the race resolves by.
	deadline := f.now.Add(time.Hour)
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{Deadline: &deadline}, Req{}); err != nil {
		t.Fatal(err)
	}
	check("before the deadline", due(store.ResolveAtDeadline), "")
	f.now = deadline
	check("at the deadline", due(store.ResolveAtDeadline), "deadline")
	check("at the deadline, all ready", due(store.ResolveWhenReady), "deadline")
	if _, err := f.h.Resolve(ctx, "r1", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	// Turn 2 starts with no marks, no orders and no deadline.
	for _, when := range []string{store.ResolveAtDeadline, store.ResolveWhenReady, store.ResolveWhenAllIn} {
		check("turn 2, "+when, due(when), "")
	}
	if p, _ := f.h.Load(ctx, "r1"); len(p.Ready) != 0 || p.Turn() != 2 {
		t.Errorf("turn %d opens with marks %v", p.Turn(), p.Ready)
	}
	if _, err := f.h.Ready(ctx, "r1", 0, true, Req{Turn: 1}); !errors.Is(err, ErrClosed) {
		t.Errorf("a mark for the turn resolved: %v", err)
	}
	// The marks are in the log, its chain and its replay.
	if rep, err := f.h.Verify(ctx, "r1", ""); err != nil || !rep.OK {
		t.Errorf("verifying a race with ready marks: %v %+v", err, rep)
	}
}

func TestReadyMarksReplay(t *testing.T) {
	rs, err := race.Lookup("ludi")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	r := f.race(t, 1)
	p, err := race.Start(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		seat int
		text string
	}{{9, "yes"}, {0, "maybe"}, {0, ""}, {-1, "yes"}} {
		if err := p.CheckReady(tc.seat, tc.text); err == nil {
			t.Errorf("a mark %q from seat %d was taken", tc.text, tc.seat)
		}
		if err := p.Apply(race.Entry{Seq: 1, Kind: race.EntryReady, Turn: 1, Seat: tc.seat, Text: tc.text}); err == nil {
			t.Errorf("a log entry marking %q from seat %d was applied", tc.text, tc.seat)
		}
	}
	if len(p.Ready) != 0 {
		t.Errorf("refused marks left %v", p.Ready)
	}
}

func TestExtend(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	if _, _, err := f.h.Extend(ctx, "r1", time.Hour, Req{}); !IsBadInput(err) {
		t.Errorf("extending no deadline: %v", err)
	}
	d := f.now.Add(time.Hour)
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{Deadline: &d}, Req{}); err != nil {
		t.Fatal(err)
	}
	for _, by := range []time.Duration{0, -time.Minute} {
		if _, _, err := f.h.Extend(ctx, "r1", by, Req{}); !IsBadInput(err) {
			t.Errorf("extending by %s: %v", by, err)
		}
	}
	n := logLen(t, f.h, "r1")
	turn, s, err := f.h.Extend(ctx, "r1", 90*time.Minute, Req{Key: "x"})
	if err != nil || turn != 1 || s.Deadline == nil || !s.Deadline.Equal(d.Add(90*time.Minute)) || logLen(t, f.h, "r1") != n+1 {
		t.Fatalf("extending by 90m: turn %d, %+v, %v", turn, s, err)
	}
	if _, s, err := f.h.Extend(ctx, "r1", 90*time.Minute, Req{Key: "x"}); err != nil || !s.Deadline.Equal(d.Add(90*time.Minute)) || logLen(t, f.h, "r1") != n+1 {
		t.Errorf("the extension repeated with its key extended again: %+v %v", s, err)
	}
	// An extension that still ends in the past is refused.
	f.now = d.Add(3 * time.Hour)
	if _, _, err := f.h.Extend(ctx, "r1", time.Hour, Req{}); !IsBadInput(err) || !strings.Contains(err.Error(), "has passed") {
		t.Errorf("an extension ending before now: %v", err)
	}
	// A time no schedule entry can hold is refused as such.
	last := time.Date(9999, 12, 31, 23, 0, 0, 0, time.UTC)
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{Deadline: &last}, Req{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.h.Extend(ctx, "r1", 2*time.Hour, Req{}); !IsBadInput(err) || !strings.Contains(err.Error(), "after the year 9999") {
		t.Errorf("extending past the year 9999: %v", err)
	}
}

// TestDueWithout: a removed seat is not waited for: the turn resolves when
// every other seat is ready or in, and a turn that waits only for removed
// seats resolves at its deadline alone.
func TestDueWithout(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	for seat := range 3 {
		if _, err := f.h.Submit(ctx, "r1", seat, "Accelerate", Req{}); err != nil {
			t.Fatal(err)
		}
	}
	p := f.load(t, "r1")
	if ok, _ := Due(p, store.ResolveWhenAllIn, f.now); ok {
		t.Fatal("three of four in: due")
	}
	if ok, why := DueWithout(p, store.ResolveWhenAllIn, f.now, map[int]bool{3: true}); !ok || why != "all_in" {
		t.Errorf("three of four in, the fourth removed: %v %q, want all_in", ok, why)
	}
	if ok, _ := DueWithout(p, store.ResolveWhenAllIn, f.now, map[int]bool{2: true}); ok {
		t.Error("another seat removed: due without the fourth's orders")
	}
	all := map[int]bool{0: true, 1: true, 2: true, 3: true}
	if ok, _ := DueWithout(p, store.ResolveWhenReady, f.now, all); ok {
		t.Error("every seat removed: due before any deadline")
	}
}

// TestStartAndNames: a start fixes the entrants (a join after it is
// refused as ErrStarted) and a repeat starts nothing; too few entrants is
// refused with the game's reason; a racer's name is one entrant's.
func TestStartAndNames(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.h.NewRace(ctx, "ludi", "inv", race.Config{}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Start(ctx, "inv", Req{Key: "s0"}); !errors.Is(err, ErrForming) || !IsBadInput(err) {
		t.Fatalf("starting a race with nobody in it: %v, want ErrForming", err)
	}
	es := entrants()
	for _, e := range es[:2] {
		if _, repeat, err := f.h.Enter(ctx, "inv", e, Req{Key: "join " + e.Player}); err != nil || repeat {
			t.Fatalf("%s joins: %v, repeat %v", e.Player, err, repeat)
		}
	}
	if got, repeat, err := f.h.Enter(ctx, "inv", es[0], Req{Key: "join " + es[0].Player}); err != nil || !repeat || len(got) != 2 {
		t.Errorf("a join repeated with its key: %d entrants, repeat %v, %v", len(got), repeat, err)
	}
	taken := race.Entrant{Player: "Someone", Racers: []string{"livia minor"}, Options: es[0].Options}
	if _, err := f.h.Join(ctx, "inv", taken, Req{}); !errors.Is(err, ErrNameTaken) {
		t.Errorf("a racer's name taken (in another letter case): %v, want ErrNameTaken", err)
	}
	again := race.Entrant{Player: strings.ToUpper(es[0].Player), Racers: []string{"Nova"}, Options: es[0].Options}
	if _, err := f.h.Join(ctx, "inv", again, Req{}); !errors.Is(err, ErrNameTaken) {
		t.Errorf("a player's name taken (in another letter case): %v, want ErrNameTaken", err)
	}
	twice := race.Entrant{Player: "Twins", Racers: []string{"Castor", "castor"}, Options: es[1].Options}
	if _, err := f.h.Join(ctx, "inv", twice, Req{}); !errors.Is(err, ErrNameTaken) {
		t.Errorf("one entrant's two racers of one name: %v, want ErrNameTaken", err)
	}
	// Livia keeps her racers' names when she changes her choices.
	fixed := es[1]
	fixed.Options = es[0].Options
	if _, err := f.h.Fix(ctx, "inv", fixed, Req{}); err != nil {
		t.Errorf("a fix keeping the entrant's names: %v", err)
	}
	n := logLen(t, f.h, "inv")
	if started, err := f.h.Start(ctx, "inv", Req{Key: "s1"}); err != nil || !started {
		t.Fatalf("the start: %v %v", started, err)
	}
	if logLen(t, f.h, "inv") != n+1 {
		t.Errorf("a start logged %d entries, want 1", logLen(t, f.h, "inv")-n)
	}
	for _, key := range []string{"s1", "", "s2"} {
		if started, err := f.h.Start(ctx, "inv", Req{Key: key}); err != nil || started {
			t.Errorf("a start again (key %q): %v %v, want nothing done", key, started, err)
		}
	}
	if logLen(t, f.h, "inv") != n+1 {
		t.Errorf("starts repeated logged %d entries more", logLen(t, f.h, "inv")-n-1)
	}
	if _, err := f.h.Join(ctx, "inv", es[2], Req{}); !errors.Is(err, ErrStarted) {
		t.Errorf("a join after the start: %v, want ErrStarted", err)
	}
	p, err := f.h.Forming(ctx, "inv")
	if err != nil || !p.Started || len(p.State.Seats()) != 3 {
		t.Fatalf("the race's log after its start: %v", err)
	}
	if rep, err := f.h.Verify(ctx, "inv", ""); err != nil || !rep.OK {
		t.Errorf("verifying a race with a start entry: %v %+v", err, rep)
	}
}
