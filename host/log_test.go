package host

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/memstore"
	"pitwall/store/sqlite"
	"pitwall/store/storetest"
)

// onStores runs f as a subtest on each store the write path is held to,
// with a host on each of two Stores of it: SQLite (two Stores on one file
// stand for two processes) and memory.
func onStores(t *testing.T, f func(t *testing.T, a, b *Host)) {
	clock := ClockFunc(func() time.Time { return time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC) })
	for name, open := range map[string]func(t *testing.T) (*Host, *Host){
		"sqlite": func(t *testing.T) (*Host, *Host) {
			path := filepath.Join(t.TempDir(), "races.db")
			a, err := sqlite.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			b, err := sqlite.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close(); b.Close() })
			return &Host{Store: a, Clock: clock}, &Host{Store: b, Clock: clock}
		},
		"memory": func(*testing.T) (*Host, *Host) {
			d := memstore.NewData()
			return &Host{Store: memstore.Open(d), Clock: clock}, &Host{Store: memstore.Open(d), Clock: clock}
		},
	} {
		t.Run(name, func(t *testing.T) {
			a, b := open(t)
			f(t, a, b)
		})
	}
}

func newLudi(t *testing.T, h *Host, id string) {
	t.Helper()
	s := dice.SeedFromInt(3)
	if _, err := h.NewRace(context.Background(), "ludi", id, race.Config{Track: "circus-maximus"}, entrants(), &s); err != nil {
		t.Fatal(err)
	}
}

// at runs fn n times at once, on hosts a and b in turn, and waits.
func at(n int, a, b *Host, fn func(i int, h *Host)) {
	storetest.Together(n, func(i int) { fn(i, []*Host{a, b}[i%2]) })
}

// Eight resolves of one turn at once: the turn is played once and no other
// turn with it. Resolves that name no turn each keep the turn open when they
// began: none plays a turn twice, and each says which turn it was for.
func TestConcurrentResolvesPlayOneTurn(t *testing.T) {
	onStores(t, func(t *testing.T, a, b *Host) {
		ctx := context.Background()
		newLudi(t, a, "r")
		for round, q := range []Req{{Turn: 1}, {Turn: 2}, {Turn: 3}, {}} {
			var mu sync.Mutex
			played := 0
			at(8, a, b, func(i int, h *Host) {
				res, err := h.Resolve(ctx, "r", q)
				if err != nil {
					t.Errorf("round %d, resolve %d: %v", round, i, err)
					return
				}
				if q.Turn != 0 && res.Turn != q.Turn {
					t.Errorf("round %d: a resolve of turn %d; every one was for turn %d", round, res.Turn, q.Turn)
				}
				if res.Resolved {
					mu.Lock()
					played++
					mu.Unlock()
				}
			})
			if q.Turn != 0 && played != 1 {
				t.Fatalf("round %d: %d resolves played the turn, want 1", round, played)
			}
			for turn, n := range storetest.Resolves(t, a.Store, "r") {
				if n != 1 {
					t.Fatalf("round %d: turn %d resolved %d times", round, turn, n)
				}
			}
		}
		if rep, err := a.Verify(ctx, "r", ""); err != nil || !rep.OK {
			t.Fatalf("verify: %v %+v", err, rep)
		}
	})
}

// Eight joins at once: eight entrants.
func TestConcurrentJoins(t *testing.T) {
	onStores(t, func(t *testing.T, a, b *Host) {
		ctx := context.Background()
		if _, err := a.NewRace(ctx, "ludi", "j", race.Config{}, nil, nil); err != nil {
			t.Fatal(err)
		}
		at(8, a, b, func(i int, h *Host) {
			e := race.Entrant{Player: fmt.Sprint("P", i), Racers: []string{fmt.Sprint("Auriga ", i)},
				Options: map[string]string{"package": "noble", "extras": "skill,speed"}}
			if _, err := h.Join(ctx, "j", e, Req{}); err != nil {
				t.Errorf("join %d: %v", i, err)
			}
		})
		f, err := a.Forming(ctx, "j")
		if err != nil || len(f.Entrants) != 8 || f.Started {
			t.Fatalf("%+v entrants stored (%v), want 8", f, err)
		}
		p, err := a.Load(ctx, "j")
		if err != nil || len(p.State.Seats()) != 8 {
			t.Fatalf("the race sets up with %v seats: %v", p, err)
		}
	})
}

// Racers submitting while the host resolves: every order is stored for the
// turn its acknowledgement names, and a turn is played with exactly the
// orders acknowledged for it before its resolve.
func TestSubmitRacingResolve(t *testing.T) {
	onStores(t, func(t *testing.T, a, b *Host) {
		ctx := context.Background()
		newLudi(t, a, "r")
		type ack struct {
			turn, entry, seat int
		}
		var mu sync.Mutex
		var acks []ack
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				h := []*Host{a, b}[i%2]
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					p, err := h.Load(ctx, "r")
					if err != nil {
						t.Error(err)
						return
					}
					turn := p.Turn()
					text := p.Ruleset.(race.Botter).BotOrder(p.State, i, false, rand.New(rand.NewPCG(uint64(n), uint64(i))))
					got, err := h.Submit(ctx, "r", i, text, Req{Turn: turn})
					var oe *race.OrderError
					switch {
					case errors.Is(err, ErrClosed) || errors.Is(err, race.ErrOver):
						continue // refused, with the reason: the turn closed meanwhile
					case errors.As(err, &oe):
						continue // the chariot's state changed since the load (a flip, a crash)
					case err != nil:
						t.Errorf("seat %d: %v", i, err)
						return
					case got.Turn != turn:
						t.Errorf("seat %d: orders for turn %d acknowledged for turn %d", i, turn, got.Turn)
					}
					mu.Lock()
					acks = append(acks, ack{got.Turn, got.Entry, i})
					mu.Unlock()
				}
			}()
		}
		for turn := 1; turn <= 6; turn++ {
			time.Sleep(5 * time.Millisecond)
			if _, err := a.Resolve(ctx, "r", Req{Turn: turn}); err != nil {
				t.Fatal(err)
			}
		}
		close(stop)
		wg.Wait()
		r, err := a.Store.Load(ctx, "r")
		if err != nil {
			t.Fatal(err)
		}
		resolvedAt := map[int]int{}
		for _, e := range r.Log {
			if e.Kind == race.EntryResolve {
				resolvedAt[e.Turn] = e.Seq
			}
		}
		for _, k := range acks {
			e := r.Log[k.entry-1]
			if e.Kind != race.EntryOrder || e.Turn != k.turn || e.Seat != k.seat {
				t.Fatalf("acknowledged as entry %d for turn %d, seat %d; stored as %+v", k.entry, k.turn, k.seat, e)
			}
			if at, ok := resolvedAt[k.turn]; ok && at < k.entry {
				t.Fatalf("entry %d acknowledged for turn %d, stored after that turn's resolve (entry %d)", k.entry, k.turn, at)
			}
		}
		if len(acks) == 0 {
			t.Fatal("no order got in")
		}
		if rep, err := a.Verify(ctx, "r", ""); err != nil || !rep.OK {
			t.Fatalf("verify: %v %+v", err, rep)
		}
	})
}

func TestClientKeys(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	first, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Key: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Key: "k1"})
	if err != nil || !again.Repeat || again.Entry != first.Entry || again.Turn != 1 || again.Orders != first.Orders || again.Racer != "Marcus Aurelius" {
		t.Fatalf("a repeat: %+v, %v; first %+v", again, err, first)
	}
	if n := logLen(t, f.h, "r1"); n != 1 {
		t.Fatalf("a repeated key stored %d entries", n)
	}
	if _, err := f.h.Submit(ctx, "r1", 1, "Accelerate", Req{Key: "k1"}); !IsBadInput(err) || !strings.Contains(err.Error(), "another request") {
		t.Fatalf("a key reused for another seat: %v", err)
	}
	res, err := f.h.Resolve(ctx, "r1", Req{Key: "go"})
	if err != nil || !res.Resolved {
		t.Fatal(res, err)
	}
	res, err = f.h.Resolve(ctx, "r1", Req{Key: "go"})
	if err != nil || res.Resolved || res.Turn != 1 {
		t.Fatalf("a repeated resolve: %+v %v", res, err)
	}
	// The key names the first request, whatever turn is open now.
	again, err = f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Key: "k1"})
	if err != nil || again.Turn != 1 || !again.Repeat {
		t.Fatalf("a repeat after the turn closed: %+v %v", again, err)
	}
	if n := logLen(t, f.h, "r1"); n != 2 {
		t.Fatalf("the log has %d entries, want the order and one resolve", n)
	}
}

func TestTurnAddressing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	if _, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 2}); !IsBadInput(err) || !strings.Contains(err.Error(), "not open yet") {
		t.Fatalf("an order for a turn to come: %v", err)
	}
	if _, err := f.h.Resolve(ctx, "r1", Req{Turn: 2}); !IsBadInput(err) {
		t.Fatalf("a resolve of a turn to come: %v", err)
	}
	if res, err := f.h.Resolve(ctx, "r1", Req{Turn: 1}); err != nil || !res.Resolved {
		t.Fatal(res, err)
	}
	before := logLen(t, f.h, "r1")
	_, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1})
	if !errors.Is(err, ErrClosed) || !IsBadInput(err) || !strings.Contains(err.Error(), "turn 2 is open") {
		t.Fatalf("an order for a closed turn: %v", err)
	}
	if _, err := f.h.Set(ctx, "r1", "orders", "2", Req{Turn: 1}); !errors.Is(err, ErrClosed) {
		t.Fatalf("a setting for a closed turn: %v", err)
	}
	res, err := f.h.Resolve(ctx, "r1", Req{Turn: 1})
	if err != nil || res.Resolved || res.Turn != 1 {
		t.Fatalf("resolving a resolved turn: %+v %v", res, err)
	}
	if logLen(t, f.h, "r1") != before {
		t.Fatal("refused and repeated writes changed the log")
	}
}

func TestScheduleBelongsToItsTurn(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	d1 := f.now.Add(48 * time.Hour)
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{Deadline: &d1}, Req{}); err != nil {
		t.Fatal(err)
	}
	past := f.now.Add(-time.Minute)
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{Deadline: &past}, Req{}); !IsBadInput(err) || !strings.Contains(err.Error(), "has passed") {
		t.Fatalf("a deadline past: %v", err)
	}
	p, _ := f.h.Load(ctx, "r1")
	if p.Schedule.Deadline == nil || !p.Schedule.Deadline.Equal(d1) {
		t.Fatalf("turn 1's deadline: %+v", p.Schedule)
	}
	if _, err := f.h.Resolve(ctx, "r1", Req{}); err != nil {
		t.Fatal(err)
	}
	p, _ = f.h.Load(ctx, "r1")
	if !p.Schedule.Empty() {
		t.Fatalf("turn 2 shows turn 1's schedule: %+v", p.Schedule)
	}
	post, err := Post(p.View(race.Host), 1, "markdown", "")
	if err != nil || strings.Contains(post, "Nov 2026, 18:00") && strings.Contains(post, "Deadline: Wed") {
		t.Fatalf("the post of turn 1 shows turn 1's deadline for turn 2: %v\n%s", err, post)
	}
	// Microseconds are kept, in UTC, whatever zone the time was given in.
	d2 := time.Date(2026, 11, 27, 20, 0, 0, 123456789, time.FixedZone("CET", 3600))
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{Deadline: &d2}, Req{Turn: 2}); err != nil {
		t.Fatal(err)
	}
	p, _ = f.h.Load(ctx, "r1")
	if got := *p.Schedule.Deadline; !got.Equal(d2.Truncate(time.Microsecond)) || got.Location() != time.UTC {
		t.Fatalf("the deadline came back as %s", got)
	}
}

func TestNamesAreChecked(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.h.NewRace(ctx, "ludi", "n", race.Config{}, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Mar\x00cus", "\xff\xfe", strings.Repeat("a", 100*1024), "", "  ", " Marcus", "Tab\there", "\u202eevil"} {
		e := race.Entrant{Player: name, Racers: []string{"Ok"}, Options: map[string]string{"package": "noble", "extras": "skill,speed"}}
		if _, err := f.h.Join(ctx, "n", e, Req{}); !IsBadInput(err) {
			t.Errorf("player %.20q: %v", name, err)
		}
		e.Player, e.Racers = "Ok", []string{name}
		if _, err := f.h.Join(ctx, "n", e, Req{}); !IsBadInput(err) {
			t.Errorf("racer %.20q: %v", name, err)
		}
	}
	if n := logLen(t, f.h, "n"); n != 0 {
		t.Fatalf("refused joins stored %d entries", n)
	}
	e := race.Entrant{Player: "Zoë «Ünïcödé»", Racers: []string{strings.Repeat("é", race.MaxName)}, Options: map[string]string{"package": "noble", "extras": "skill,speed"}}
	if _, err := f.h.Join(ctx, "n", e, Req{}); err != nil {
		t.Fatalf("a printable name of %d characters: %v", race.MaxName, err)
	}
	if _, err := f.h.Fix(ctx, "n", race.Entrant{Player: "zoë «ünïcödé»", Racers: []string{"Other"}, Options: map[string]string{"package": "military", "extras": "skill,speed"}}, Req{}); err != nil {
		t.Fatal(err)
	}
	if es, err := f.h.Withdraw(ctx, "n", "ZOË «ÜNÏCÖDÉ»", Req{}); err != nil || len(es) != 0 {
		t.Fatalf("withdraw: %v %v", es, err)
	}
	if _, err := f.h.Withdraw(ctx, "n", "nobody", Req{}); !IsBadInput(err) {
		t.Fatalf("withdrawing nobody: %v", err)
	}
}

func TestErrorCodes(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("disk on fire"), ""},
		{race.Invalidf("what"), race.CodeNotUnderstood},
		{fmt.Errorf("seat 2: %w", race.Illegalf("not now")), race.CodeNotAllowed},
		{bad(&kindOf{"turn 1 has closed", ErrClosed}), "turn_closed"},
		{bad(&kindOf{"forming", ErrForming}), "race_forming"},
		{fmt.Errorf("x: %w", race.ErrOver), "race_over"},
		{bad(fmt.Errorf("r: %w", store.ErrNotFound)), "no_such_race"},
		{fmt.Errorf("r: %w", store.ErrExists), "race_exists"},
		{badf("--turn is 1 or more"), "bad_input"},
	} {
		if got := Code(c.err); got != c.want {
			t.Errorf("%v: code %q, want %q", c.err, got, c.want)
		}
	}
}

// failing is a store whose reads fail: its errors are not the user's.
type failing struct{ store.Store }

func (failing) Load(context.Context, string) (*race.Race, error) {
	return nil, errors.New("disk I/O error")
}
func (failing) Resume(context.Context, string, int) (*race.Race, *store.SavedTurn, error) {
	return nil, nil, errors.New("disk I/O error")
}
func (failing) Keyed(context.Context, string, string) (*race.Entry, error) {
	return nil, errors.New("disk I/O error")
}

// A store that fails is not bad input (exit 1, no code); an unknown race is.
func TestStoreFailureIsNotBadInput(t *testing.T) {
	ctx := context.Background()
	h := &Host{Store: failing{memstore.New()}, Clock: SystemClock}
	for name, err := range map[string]error{
		"load":   func() error { _, err := h.Load(ctx, "r"); return err }(),
		"past":   func() error { _, err := h.LoadAt(ctx, "r", 0); return err }(),
		"form":   func() error { _, err := h.Forming(ctx, "r"); return err }(),
		"export": func() error { _, err := h.Export(ctx, "r"); return err }(),
		"key":    func() error { _, err := h.Submit(ctx, "r", 0, "x", Req{Key: "k"}); return err }(),
	} {
		if err == nil || IsBadInput(err) || Code(err) != "" {
			t.Errorf("%s: %v is bad input (code %q)", name, err, Code(err))
		}
	}
	h = &Host{Store: memstore.New(), Clock: SystemClock}
	if _, err := h.Load(ctx, "nope"); !IsBadInput(err) || Code(err) != "no_such_race" {
		t.Errorf("an unknown race: %v (code %q)", err, Code(err))
	}
}

// A finished race refuses a resolve and an order alike: race_over.
func TestOverRaceCode(t *testing.T) {
	f, _ := played(t)
	ctx := context.Background()
	_, err := f.h.Resolve(ctx, "r1", Req{})
	_, err2 := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{})
	for _, e := range []error{err, err2} {
		if Code(e) != "race_over" || strings.Count(e.Error(), "over") != 1 {
			t.Errorf("%v: code %q", e, Code(e))
		}
	}
}

// A key names one request: sent again with other text it is refused, and
// nothing more is stored.
func TestKeyWithOtherText(t *testing.T) {
	ctx := context.Background()
	h := &Host{Store: memstore.New(), Clock: SystemClock}
	if _, err := h.NewRace(ctx, "ludi", "j", race.Config{}, nil, nil); err != nil {
		t.Fatal(err)
	}
	join := func(player string) error {
		e := race.Entrant{Player: player, Racers: []string{player}, Options: map[string]string{"package": "noble", "extras": "skill,speed"}}
		_, err := h.Join(ctx, "j", e, Req{Key: "k"})
		return err
	}
	if err := join("Dale"); err != nil {
		t.Fatal(err)
	}
	if err := join("Dale"); err != nil {
		t.Fatalf("the same join again: %v", err)
	}
	if err := join("Kit"); !IsBadInput(err) || !strings.Contains(err.Error(), "another request") {
		t.Fatalf("another join with the key: %v", err)
	}
	if p, err := h.Forming(ctx, "j"); err != nil || len(p.Entrants) != 1 {
		t.Fatalf("%v entrants stored: %v", p, err)
	}
}

// TestTextEveryStoreKeeps: a key or a text with a NUL byte or bytes that are
// not UTF-8 is the client's mistake, refused before any store sees it (one
// store would keep it, another refuse it with an error of its own).
func TestTextEveryStoreKeeps(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	for what, q := range map[string]struct{ text, key string }{
		"a key with NUL":   {"Accelerate", "k\x00"},
		"a key not UTF-8":  {"Accelerate", "k\xff"},
		"orders with NUL":  {"Accelerate\x00", "a"},
		"orders not UTF-8": {"Accelerate\xff", "b"},
	} {
		_, err := f.h.Submit(ctx, "r1", 0, q.text, Req{Key: q.key})
		if !IsBadInput(err) || Code(err) != "bad_input" {
			t.Errorf("%s: %v (code %q); want bad input", what, err, Code(err))
		}
	}
	if _, err := f.h.Resolve(ctx, "r1", Req{Key: "\xfe"}); !IsBadInput(err) {
		t.Errorf("a resolve with a key not UTF-8: %v; want bad input", err)
	}
	if n := logLen(t, f.h, "r1"); n != 0 {
		t.Errorf("refused writes stored %d entries", n)
	}
}
