package web

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pitwall/host"
	"pitwall/store/postgres"
	"pitwall/store/postgres/pgtest"
	"pitwall/store/sqlite"
	"pitwall/store/storetest"
)

// clock is a test's clock, moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// turnOf is the turn open in race id, as a spectator sees it.
func (s *service) turnOf(c created) float64 {
	s.t.Helper()
	status, v := s.call("GET", "/api/races/"+c.ID, c.Host, "")
	if status != 200 {
		s.t.Fatalf("GET race %s: %d %v", c.ID, status, v)
	}
	return v["turn"].(float64)
}

func TestSchedule(t *testing.T) {
	st, err := sqlite.Open(sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ck := newClock()
	s := serviceOn(t, &host.Host{Store: st, Clock: ck})
	c := s.create(twoCars)
	at := func(d time.Duration) string { return ck.Now().Add(d).Format(time.RFC3339) }
	path := "/api/races/" + c.ID + "/schedule"
	for _, tc := range []struct {
		what, token, body string
		status            int
		code, field       string
	}{
		{"no token", "", `{"turn": 1, "deadline": "` + at(time.Hour) + `"}`, 401, "no_token", "Authorization"},
		{"a racer's token", c.Seats[0], `{"turn": 1, "deadline": "` + at(time.Hour) + `"}`, 403, "forbidden", "Authorization"},
		{"no turn", c.Host, `{"deadline": "` + at(time.Hour) + `"}`, 422, "bad_input", "turn"},
		{"nothing to set", c.Host, `{"turn": 1}`, 422, "bad_input", "deadline"},
		{"not a time", c.Host, `{"turn": 1, "deadline": "tomorrow"}`, 400, "bad_json", ""},
		{"a time gone", c.Host, `{"turn": 1, "deadline": "` + at(-time.Minute) + `"}`, 422, "bad_input", ""},
		{"a turn to come", c.Host, `{"turn": 2, "deadline": "` + at(time.Hour) + `"}`, 422, "bad_input", ""},
		{"extend with no deadline", c.Host, `{"turn": 1, "extend": "1h"}`, 422, "bad_input", ""},
		{"extend by nonsense", c.Host, `{"turn": 1, "extend": "a while"}`, 422, "bad_input", "extend"},
		{"extend and a deadline", c.Host, `{"turn": 1, "extend": "1h", "deadline": "` + at(time.Hour) + `"}`, 422, "bad_input", "extend"},
		{"a half window", c.Host, `{"turn": 1, "window_open": "` + at(time.Hour) + `"}`, 422, "bad_input", ""},
		{"a long key", c.Host, `{"turn": 1, "deadline": "` + at(time.Hour) + `", "key": "` + strings.Repeat("k", host.MaxKey+1) + `"}`, 422, "bad_input", "key"},
	} {
		status, v := s.call("POST", path, tc.token, tc.body)
		if status != tc.status || v["code"] != tc.code || (tc.field != "" && v["field"] != tc.field) {
			t.Errorf("%s: %d %v; want %d, code %s, field %q", tc.what, status, v, tc.status, tc.code, tc.field)
		}
	}
	if _, v := s.call("GET", "/api/races/"+c.ID, c.Host, ""); v["entries"] != 0.0 {
		t.Fatalf("refused schedules stored entries: %v", v["entries"])
	}
	deadline := ck.Now().Add(2 * time.Hour)
	status, v := s.call("POST", path, c.Host, `{"turn": 1, "deadline": "`+deadline.Format(time.RFC3339)+`", "key": "d1"}`)
	if status != 200 || v["turn"] != 1.0 {
		t.Fatalf("a deadline: %d %v", status, v)
	}
	if status, v = s.call("POST", path, c.Host, `{"turn": 1, "extend": "30m", "key": "e1"}`); status != 200 {
		t.Fatalf("an extension: %d %v", status, v)
	}
	want := deadline.Add(30 * time.Minute)
	if got := v["schedule"].(map[string]any)["deadline"]; got != want.Format(time.RFC3339) {
		t.Errorf("extended deadline %v, want %v", got, want)
	}
	// A retry with the key extends nothing more.
	if status, v = s.call("POST", path, c.Host, `{"turn": 1, "extend": "30m", "key": "e1"}`); status != 200 || v["schedule"].(map[string]any)["deadline"] != want.Format(time.RFC3339) {
		t.Errorf("the extension retried: %d %v, want the deadline %v", status, v, want)
	}
	// Not before the deadline, and at it, once.
	ck.set(want.Add(-time.Second))
	if n := s.srv.ResolveDue(t.Context()); n != 0 || s.turnOf(c) != 1 {
		t.Errorf("a second before the deadline: %d resolved, turn %v", n, s.turnOf(c))
	}
	ck.set(want)
	if n := s.srv.ResolveDue(t.Context()); n != 1 || s.turnOf(c) != 2 {
		t.Errorf("at the deadline: %d resolved, turn %v", n, s.turnOf(c))
	}
	if n := s.srv.ResolveDue(t.Context()); n != 0 || s.turnOf(c) != 2 {
		t.Errorf("again at the deadline: %d resolved, turn %v", n, s.turnOf(c))
	}
	// The missed orders took the game's default, and the turn's record says so.
	p, err := s.srv.host.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tn := p.Turns[len(p.Turns)-1]; tn.Turn != 1 || len(tn.Defaulted) != 2 {
		t.Errorf("the turn resolved at its deadline: turn %d, defaulted %v", tn.Turn, tn.Defaulted)
	}
}

// raceWithDeadline makes a race through the API whose turn 1 falls due at t.
func (s *service) raceWithDeadline(t time.Time) created {
	s.t.Helper()
	c := s.create(twoCars)
	if status, v := s.call("POST", "/api/races/"+c.ID+"/schedule", c.Host, `{"turn": 1, "deadline": "`+t.Format(time.RFC3339Nano)+`"}`); status != 200 {
		s.t.Fatalf("a deadline: %d %v", status, v)
	}
	return c
}

// TestRestartResolvesWhatFellDue: deadlines that pass while no service
// runs are resolved when one starts, once each; those still to come wait.
func TestRestartResolvesWhatFellDue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "races.db")
	ck := newClock()
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s := serviceOn(t, &host.Host{Store: st, Clock: ck})
	soon, later := ck.Now().Add(time.Hour), ck.Now().Add(5*time.Hour)
	var due, waiting []created
	for i := range 6 {
		if i%3 == 2 {
			waiting = append(waiting, s.raceWithDeadline(later))
		} else {
			due = append(due, s.raceWithDeadline(soon))
		}
	}
	s.srv.Close()
	st.Close()
	// Down for two hours.
	ck.set(soon.Add(time.Hour))
	st2, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st2.Close() })
	s2 := serviceOn(t, &host.Host{Store: st2, Clock: ck})
	n, err := s2.srv.Rescan(t.Context())
	if err != nil || n != len(due) {
		t.Fatalf("the first pass after the restart resolved %d turns (%v); %d fell due", n, err, len(due))
	}
	for _, c := range due {
		if got := storetest.Resolves(t, st2, c.ID); fmt.Sprint(got) != "map[1:1]" {
			t.Errorf("race %s, due while down: resolves %v", c.ID, got)
		}
	}
	for _, c := range waiting {
		if got := s2.turnOf(c); got != 1 {
			t.Errorf("race %s, due later: turn %v", c.ID, got)
		}
	}
	// The rest fall due by the index the pass built.
	ck.set(later)
	if n := s2.srv.ResolveDue(t.Context()); n != len(waiting) {
		t.Errorf("at the later deadline %d resolved; want %d", n, len(waiting))
	}
}

// TestDeadlinesExactlyOnce: two instances on one PostgreSQL database, many
// races due at once; both look at once, and each turn is resolved once.
// instances are two services on one PostgreSQL schema, on the clock ck
// (nil: the real one).
func instances(t *testing.T, schema string, ck *clock) []*service {
	t.Helper()
	u := pgtest.Schema(t, schema)
	var insts []*service
	for range 2 {
		st, err := postgres.Open(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		h := host.New(st)
		if ck != nil {
			h.Clock = ck
		}
		insts = append(insts, serviceOn(t, h))
	}
	return insts
}

func TestDeadlinesExactlyOnce(t *testing.T) {
	ck := newClock()
	insts := instances(t, "web_deadlines", ck)
	due := ck.Now().Add(time.Hour)
	var races []created
	for i := range 24 {
		races = append(races, insts[i%2].raceWithDeadline(due))
	}
	// Each instance learns of the other's races by its scan.
	for _, s := range insts {
		if n, err := s.srv.Rescan(t.Context()); err != nil || n != 0 {
			t.Fatalf("a scan before the deadline: %d %v", n, err)
		}
	}
	ck.set(due)
	var total atomic.Int64
	var wg sync.WaitGroup
	for _, s := range insts {
		for range 2 { // two passes at once on each instance, too
			wg.Go(func() { total.Add(int64(s.srv.ResolveDue(t.Context()))) })
		}
	}
	wg.Wait()
	if total.Load() != int64(len(races)) {
		t.Errorf("the passes resolved %d turns in all; %d races fell due", total.Load(), len(races))
	}
	for _, c := range races {
		if got := storetest.Resolves(t, insts[0].srv.host.Store, c.ID); fmt.Sprint(got) != "map[1:1]" {
			t.Errorf("race %s: resolves %v, want turn 1 once", c.ID, got)
		}
	}
}

// TestRunDeadlines: the loop a service runs resolves a turn at its deadline
// on the real clock.
func TestRunDeadlines(t *testing.T) {
	s := newService(t)
	c := s.raceWithDeadline(time.Now().Add(300 * time.Millisecond))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); s.srv.RunDeadlines(ctx, time.Hour) }()
	defer func() { cancel(); <-done }()
	// Waits for the resolve (a stream would tell; polling keeps the test short).
	for i := 0; s.turnOf(c) != 2; i++ {
		if i == 300 {
			t.Fatalf("turn 1 was not resolved 30 s after its deadline")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A deadline set while the loop waits an hour wakes it.
	c2 := s.raceWithDeadline(time.Now().Add(200 * time.Millisecond))
	for i := 0; s.turnOf(c2) != 2; i++ {
		if i == 300 {
			t.Fatalf("a deadline set while the loop waited was not met 30 s after it")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
