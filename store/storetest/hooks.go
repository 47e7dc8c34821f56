package storetest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pitwall/race"
	"pitwall/store"
)

// RunHooks runs the conformance suite of store.HookStore as subtests of t;
// open must give stores that implement it.
func RunHooks(t *testing.T, open Opener) {
	runCases(t, open, []testCase{
		{"AddHook", testAddHook},
		{"RefusesBadHooks", testRefusesBadHooks},
		{"ResolveQueuesTurn", testResolveQueuesTurn},
		{"BatchQueuesTurn", testBatchQueuesTurn},
		{"WarnOnce", testWarnOnce},
		{"ClaimAndSettle", testClaimAndSettle},
		{"ClaimInOrder", testClaimInOrder},
		{"RemoveDropsPending", testRemoveDropsPending},
		{"ClaimConcurrent", testClaimConcurrent},
		{"Prune", testPrune},
	})
}

// serving is a fresh HookStore that serves races ids (mustServe).
func serving(t *testing.T, h *harness, ids ...string) store.HookStore {
	t.Helper()
	s, _ := freshAs[store.HookStore](t, h)
	for _, id := range ids {
		mustServe(t, s, id)
	}
	return s
}

func sampleHook(id, url, key string, events ...string) store.Hook {
	if len(events) == 0 {
		events = store.Events
	}
	return store.Hook{Race: id, URL: url, Format: store.HookJSON, Events: events, WarnBefore: 12 * time.Hour,
		Secret: strings.Repeat("s3", 20), Key: key, Created: accessAt}
}

func mustHook(t *testing.T, s store.HookStore, h store.Hook) store.Hook {
	t.Helper()
	got, err := s.AddHook(ctx(t), h)
	if err != nil {
		t.Fatalf("AddHook(%+v): %v", h, err)
	}
	return got
}

func checkHook(t *testing.T, got, want store.Hook) {
	t.Helper()
	if !got.Same(want) || got.ID != want.ID || got.Secret != want.Secret || !got.Created.Equal(want.Created) ||
		got.Created.Location() != time.UTC || (got.Removed == nil) != (want.Removed == nil) ||
		(got.Removed != nil && !got.Removed.Equal(*want.Removed)) {
		t.Errorf("webhook: got %+v, want %+v", got, want)
	}
}

// testAddHook: hooks are kept in the order made, each with a rising ID and
// as given; a repeat of a key gives the stored hook back and stores
// nothing; a key given to another hook is refused as ErrExists; a race not
// stored has none.
func testAddHook(t *testing.T, h *harness) {
	s := serving(t, h, "hooked", "other")
	a := mustHook(t, s, sampleHook("hooked", "https://example.org/a", "k1"))
	b := sampleHook("hooked", "http://example.org:8080/b?x=1", "", store.EventWarning)
	b.Format, b.WarnBefore = store.HookDiscord, 90*time.Minute
	b = mustHook(t, s, b)
	c := mustHook(t, s, sampleHook("other", "https://example.org/c", "k1")) // the same key in another race
	if a.ID == 0 || b.ID <= a.ID || c.ID <= b.ID {
		t.Errorf("IDs %d, %d, %d: want rising from 1", a.ID, b.ID, c.ID)
	}
	again, err := s.AddHook(ctx(t), sampleHook("hooked", "https://example.org/a", "k1"))
	if err != nil || again.ID != a.ID {
		t.Errorf("a repeat of key k1: %+v, %v; want hook %d again", again, err, a.ID)
	}
	_, err = s.AddHook(ctx(t), sampleHook("hooked", "https://example.org/elsewhere", "k1"))
	checkErr(t, "key k1 for another webhook", err, store.ErrExists, "hooked")
	_, err = s.AddHook(ctx(t), sampleHook("nowhere", "https://example.org/a", ""))
	checkErr(t, "a webhook of a race not stored", err, store.ErrNotFound, "nowhere")
	got, err := s.Hooks(ctx(t), "hooked")
	if err != nil || len(got) != 2 {
		t.Fatalf("Hooks: %+v, %v; want 2", got, err)
	}
	checkHook(t, got[0], a)
	checkHook(t, got[1], b)
	if got, err := s.Hooks(ctx(t), "nowhere"); err != nil || len(got) != 0 {
		t.Errorf("the webhooks of a race not stored: %+v, %v", got, err)
	}
	at := accessAt.Add(time.Hour)
	if err := s.RemoveHook(ctx(t), "hooked", a.ID, at); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveHook(ctx(t), "hooked", a.ID, at.Add(time.Hour)); err != nil {
		t.Errorf("removing a webhook again: %v", err)
	}
	checkErr(t, "removing another race's webhook", s.RemoveHook(ctx(t), "hooked", c.ID, at), store.ErrNotFound, "hooked")
	got, _ = s.Hooks(ctx(t), "hooked")
	a.Removed = &at
	checkHook(t, got[0], a)
	checkHook(t, got[1], b)
}

// testRefusesBadHooks: a hook CheckHook refuses is not stored.
func testRefusesBadHooks(t *testing.T, h *harness) {
	s := serving(t, h, "r")
	for name, change := range map[string]func(*store.Hook){
		"no race":       func(h *store.Hook) { h.Race = "" },
		"ftp":           func(h *store.Hook) { h.URL = "ftp://example.org/x" },
		"relative":      func(h *store.Hook) { h.URL = "/x" },
		"no host":       func(h *store.Hook) { h.URL = "https:///x" },
		"password":      func(h *store.Hook) { h.URL = "https://u:p@example.org/" },
		"long":          func(h *store.Hook) { h.URL = "https://example.org/" + strings.Repeat("x", store.MaxHookURL) },
		"format":        func(h *store.Hook) { h.Format = "xml" },
		"no events":     func(h *store.Hook) { h.Events = nil },
		"unknown event": func(h *store.Hook) { h.Events = []string{"lap"} },
		"event twice":   func(h *store.Hook) { h.Events = []string{store.EventTurn, store.EventTurn} },
		"negative warn": func(h *store.Hook) { h.WarnBefore = -time.Second },
		"short secret":  func(h *store.Hook) { h.Secret = "abc" },
		"NUL key":       func(h *store.Hook) { h.Key = "k\x00" },
		"fine time":     func(h *store.Hook) { h.Created = h.Created.Add(time.Nanosecond) },
	} {
		bad := sampleHook("r", "https://example.org/", "")
		change(&bad)
		if _, err := s.AddHook(ctx(t), bad); err == nil {
			t.Errorf("%s: a webhook %+v was taken", name, bad)
		}
	}
	if got, _ := s.Hooks(ctx(t), "r"); len(got) != 0 {
		t.Errorf("refused webhooks were stored: %+v", got)
	}
}

// deliveries lists race id's deliveries, oldest first.
func deliveries(t *testing.T, s store.HookStore, id string) []store.Delivery {
	t.Helper()
	ds, err := s.Deliveries(ctx(t), id, 1000)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(ds)
	return ds
}

// testResolveQueuesTurn: storing a turn's resolve queues it for every hook
// of its race not removed, due at once; an order queues nothing, nor does a
// resolve the store refuses.
func testResolveQueuesTurn(t *testing.T, h *harness) {
	s := serving(t, h, "r", "quiet")
	a := mustHook(t, s, sampleHook("r", "https://example.org/a", ""))
	b := mustHook(t, s, sampleHook("r", "https://example.org/b", "", store.EventFinished))
	gone := mustHook(t, s, sampleHook("r", "https://example.org/gone", ""))
	if err := s.RemoveHook(ctx(t), "r", gone.ID, accessAt); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "r", orderEntry(1, 1, 0, "go"), nil)
	if ds := deliveries(t, s, "r"); len(ds) != 0 {
		t.Fatalf("an order queued %+v", ds)
	}
	res := resolveEntry(2, 1)
	mustAppend(t, s, "r", res, savedTurn(1))
	mustAppend(t, s, "quiet", resolveEntry(1, 1), savedTurn(1))
	if err := s.Append(ctx(t), "r", resolveEntry(3, 1), savedTurn(1)); err == nil {
		t.Fatal("turn 1 was resolved twice")
	}
	ds := deliveries(t, s, "r")
	if len(ds) != 2 {
		t.Fatalf("the resolve queued %+v; want one delivery for each of the two webhooks", ds)
	}
	for i, hk := range []store.Hook{a, b} {
		d := ds[i]
		if d.Hook != hk.ID || d.Race != "r" || d.Kind != store.DeliverTurn || d.Turn != 1 || d.Seq != 2 ||
			d.Deadline != nil || d.Outcome != "" || d.Done != nil || d.Attempts != 0 || !d.Due.Equal(res.At) || !d.Created.Equal(res.At) {
			t.Errorf("delivery %d: %+v; want turn 1 (entry 2) for webhook %d, due at %s", i, d, hk.ID, res.At)
		}
	}
	if ds := deliveries(t, s, "quiet"); len(ds) != 0 {
		t.Errorf("a race without webhooks queued %+v", ds)
	}
}

// testBatchQueuesTurn: a resolve stored in a batch queues as one stored
// alone does, and a refused one queues nothing.
func testBatchQueuesTurn(t *testing.T, h *harness) {
	s, _ := freshAs[store.HookStore](t, h)
	b, ok := s.(store.Batcher)
	if !ok {
		t.Skipf("%T does not batch appends", s)
	}
	mustServe(t, s, "r")
	hk := mustHook(t, s, sampleHook("r", "https://example.org/a", ""))
	errs := b.AppendAll(ctx(t), []store.Pending{
		{Race: "r", Entry: orderEntry(1, 1, 0, "go")},
		{Race: "r", Entry: resolveEntry(2, 1), Turn: savedTurn(1)},
		{Race: "r", Entry: resolveEntry(3, 1), Turn: savedTurn(1)}, // turn 1 again
		{Race: "r", Entry: resolveEntry(3, 2), Turn: savedTurn(2)},
	})
	if errs[0] != nil || errs[1] != nil || errs[2] == nil || errs[3] != nil {
		t.Fatalf("AppendAll: %v; want the second resolve of turn 1 refused", errs)
	}
	ds := deliveries(t, s, "r")
	if len(ds) != 2 || ds[0].Turn != 1 || ds[0].Seq != 2 || ds[1].Turn != 2 || ds[1].Seq != 3 || ds[0].Hook != hk.ID {
		t.Errorf("the batch queued %+v; want turns 1 and 2 (entries 2 and 3)", ds)
	}
}

func warning(hook int64, id string, turn int, deadline time.Time) store.Delivery {
	return store.Delivery{Hook: hook, Race: id, Turn: turn, Deadline: &deadline, Created: accessAt, Due: accessAt}
}

// testWarnOnce: a deadline is warned of once a hook; a new deadline for
// the turn is warned of again; a removed hook or another race's gets none.
func testWarnOnce(t *testing.T, h *harness) {
	s := serving(t, h, "r", "other")
	a := mustHook(t, s, sampleHook("r", "https://example.org/a", ""))
	b := mustHook(t, s, sampleHook("r", "https://example.org/b", ""))
	o := mustHook(t, s, sampleHook("other", "https://example.org/o", ""))
	dl := accessAt.Add(12 * time.Hour)
	for i, c := range []struct {
		d    store.Delivery
		want bool
	}{
		{warning(a.ID, "r", 1, dl), true},
		{warning(a.ID, "r", 1, dl), false},
		{warning(b.ID, "r", 1, dl), true},
		{warning(a.ID, "r", 1, dl.Add(time.Hour)), true}, // extended
		{warning(a.ID, "r", 2, dl), true},
		{warning(o.ID, "r", 1, dl), false}, // not this race's
	} {
		queued, err := s.Warn(ctx(t), c.d)
		if err != nil || queued != c.want {
			t.Errorf("warning %d (%+v): %v, %v; want %v", i, c.d, queued, err, c.want)
		}
	}
	if err := s.RemoveHook(ctx(t), "r", b.ID, accessAt); err != nil {
		t.Fatal(err)
	}
	if queued, err := s.Warn(ctx(t), warning(b.ID, "r", 3, dl)); queued || err != nil {
		t.Errorf("a removed webhook was warned: %v, %v", queued, err)
	}
	noDeadline := warning(a.ID, "r", 5, dl)
	noDeadline.Deadline = nil
	if _, err := s.Warn(ctx(t), noDeadline); err == nil {
		t.Error("a warning of no deadline was taken")
	}
	fine := warning(a.ID, "r", 5, dl)
	fine.Created = fine.Created.Add(time.Nanosecond)
	if _, err := s.Warn(ctx(t), fine); err == nil || !strings.Contains(err.Error(), "finer than a microsecond") {
		t.Errorf("a warning made finer than a microsecond: %v; want it refused (a copy would refuse it later)", err)
	}
	ds := deliveries(t, s, "r")
	if len(ds) != 4 { // b's among them, dropped with it
		t.Fatalf("%d deliveries: %+v", len(ds), ds)
	}
	if d := ds[0]; d.Kind != store.DeliverWarning || d.Deadline == nil || !d.Deadline.Equal(dl) || d.Seq != 0 || d.Turn != 1 {
		t.Errorf("the first warning as stored: %+v", d)
	}
	if ds[1].Outcome != store.Dropped || ds[0].Outcome != "" {
		t.Errorf("after b's removal: a %q, b %q; want a pending, b %q", ds[0].Outcome, ds[1].Outcome, store.Dropped)
	}
}

// testClaimAndSettle: Claim takes what is due and not held, oldest first,
// up to n; a claimed delivery is not taken again until its hold passes; a
// settle by a claim that no longer holds it changes nothing; a settled one
// is never taken again; a retry is taken again once due.
func testClaimAndSettle(t *testing.T, h *harness) {
	s := serving(t, h, "r")
	var hooks []store.Hook
	for turn := 1; turn <= 3; turn++ {
		hk := mustHook(t, s, sampleHook("r", fmt.Sprintf("https://example.org/%d", turn), ""))
		hooks = append(hooks, hk)
		if _, err := s.Warn(ctx(t), store.Delivery{Hook: hk.ID, Race: "r", Turn: turn, Deadline: ptr(accessAt.Add(48 * time.Hour)),
			Created: accessAt, Due: accessAt.Add(time.Duration(turn) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	now := accessAt.Add(2 * time.Minute)
	claim := func(name string, now time.Time, n int) []store.Delivery {
		t.Helper()
		ds, err := s.Claim(ctx(t), name, now, now.Add(time.Minute), n)
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	if got := claim("x", now, 1); !slices.Equal(turnsOf(got), []int{1}) || got[0].Claim != "x" || got[0].Hook != hooks[0].ID {
		t.Fatalf("the first claim took %+v; want turn 1's, claimed by x", got)
	}
	if got := claim("y", now, 10); !slices.Equal(turnsOf(got), []int{2}) {
		t.Fatalf("the second claim took turns %v; want [2] (1 held, 3 not due)", turnsOf(got))
	}
	later := now.Add(2 * time.Minute) // x's and y's holds have passed; 3 is due
	got := claim("z", later, 10)
	if !slices.Equal(turnsOf(got), []int{1, 2, 3}) {
		t.Fatalf("after the holds passed: turns %v, want [1 2 3]", turnsOf(got))
	}
	stale := got[0]
	stale.Claim = "x"
	stale.Outcome, stale.Done = store.Delivered, &later
	if held, err := s.Settle(ctx(t), stale); held || err != nil {
		t.Errorf("x settled a delivery z holds: %v, %v", held, err)
	}
	done := got[0]
	done.Outcome, done.Done, done.Attempts = store.Delivered, &later, 1
	if held, err := s.Settle(ctx(t), done); !held || err != nil {
		t.Fatalf("settling: %v, %v", held, err)
	}
	retry := got[1]
	retry.Attempts, retry.Error, retry.Due = 1, "502 Bad Gateway", later.Add(time.Hour)
	if held, err := s.Settle(ctx(t), retry); !held || err != nil {
		t.Fatalf("a retry: %v, %v", held, err)
	}
	if held, err := s.Settle(ctx(t), done); held || err != nil {
		t.Errorf("settling again: %v, %v; want nothing changed", held, err)
	}
	bad := got[2]
	bad.Outcome = store.Delivered // with no time done
	if _, err := s.Settle(ctx(t), bad); err == nil {
		t.Error("an outcome without its time was taken")
	}
	if got := claim("w", later.Add(30*time.Second), 10); len(got) != 0 {
		t.Errorf("before the retry is due and while z holds turn 3: %v", turnsOf(got))
	}
	got = claim("w", later.Add(time.Hour), 10)
	if !slices.Equal(turnsOf(got), []int{2, 3}) || got[0].Attempts != 1 || got[0].Error != "502 Bad Gateway" {
		t.Errorf("once the retry is due: %+v; want turns 2 (attempt 1, its error) and 3", got)
	}
	ds := deliveries(t, s, "r")
	if ds[0].Outcome != store.Delivered || ds[0].Done == nil || !ds[0].Done.Equal(later) || ds[0].Attempts != 1 {
		t.Errorf("turn 1 as stored: %+v", ds[0])
	}
	if _, err := s.Claim(ctx(t), "", now, now, 1); err == nil {
		t.Error("a claim without a name was taken")
	}
}

func turnsOf(ds []store.Delivery) []int {
	var ts []int
	for _, d := range ds {
		ts = append(ts, d.Turn)
	}
	return ts
}

// testClaimInOrder: a hook's deliveries are taken one at a time in the
// order queued: the next only once the one before is settled for good, so
// a retry holds back what follows it (and only its own hook's).
func testClaimInOrder(t *testing.T, h *harness) {
	s := serving(t, h, "r")
	a := mustHook(t, s, sampleHook("r", "https://example.org/a", ""))
	b := mustHook(t, s, sampleHook("r", "https://example.org/b", ""))
	for turn := 1; turn <= 3; turn++ {
		mustAppend(t, s, "r", resolveEntry(turn, turn), savedTurn(turn))
	}
	now := accessAt.Add(time.Hour)
	claim := func() []store.Delivery {
		t.Helper()
		ds, err := s.Claim(ctx(t), "c", now, now, 10) // held until now: passed at once
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	got := claim()
	if len(got) != 2 || got[0].Turn != 1 || got[1].Turn != 1 || got[0].Hook == got[1].Hook {
		t.Fatalf("the first claim: %+v; want turn 1 of each hook, and nothing after it", got)
	}
	for _, d := range got {
		if d.Hook == a.ID {
			d.Outcome, d.Done = store.Delivered, &now
		} else {
			d.Attempts, d.Due = 1, now.Add(time.Hour) // b's fails: tried again in an hour
		}
		if _, err := s.Settle(ctx(t), d); err != nil {
			t.Fatal(err)
		}
	}
	got = claim()
	if len(got) != 1 || got[0].Hook != a.ID || got[0].Turn != 2 {
		t.Fatalf("after a's turn 1 was delivered and b's put off: %+v; want a's turn 2 alone", got)
	}
	now = now.Add(time.Hour)
	got = claim()
	if !slices.Equal(turnsOf(got), []int{1, 2}) || got[0].Hook != b.ID || got[1].Hook != a.ID {
		t.Errorf("an hour on: %+v; want b's turn 1 (due first), a's turn 2 again (its hold passed)", got)
	}
}

func ptr[T any](v T) *T { return &v }

// testRemoveDropsPending: removing a hook drops its pending deliveries and
// leaves the settled ones and other hooks' as they were.
func testRemoveDropsPending(t *testing.T, h *harness) {
	s := serving(t, h, "r")
	a := mustHook(t, s, sampleHook("r", "https://example.org/a", ""))
	b := mustHook(t, s, sampleHook("r", "https://example.org/b", ""))
	mustAppend(t, s, "r", resolveEntry(1, 1), savedTurn(1))
	got, err := s.Claim(ctx(t), "c", accessAt.Add(time.Hour), accessAt.Add(2*time.Hour), 1)
	if err != nil || len(got) != 1 || got[0].Hook != a.ID {
		t.Fatalf("Claim: %+v, %v; want a's turn 1 (due with b's, queued first)", got, err)
	}
	d := got[0]
	d.Outcome, d.Done = store.Delivered, ptr(accessAt.Add(time.Hour))
	if _, err := s.Settle(ctx(t), d); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "r", resolveEntry(2, 2), savedTurn(2))
	at := accessAt.Add(3 * time.Hour)
	if err := s.RemoveHook(ctx(t), "r", a.ID, at); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "r", resolveEntry(3, 3), savedTurn(3))
	outcomes := map[string]string{}
	for _, d := range deliveries(t, s, "r") {
		outcomes[fmt.Sprintf("%d/%d", map[int64]int{a.ID: 1, b.ID: 2}[d.Hook], d.Turn)] = d.Outcome
	}
	want := map[string]string{"1/1": store.Delivered, "2/1": "", "1/2": store.Dropped, "2/2": "", "2/3": ""}
	if fmt.Sprint(outcomes) != fmt.Sprint(want) {
		t.Errorf("outcomes by webhook/turn: %v; want %v", outcomes, want)
	}
}

// testClaimConcurrent: claimers at once never take one delivery twice, and
// each hook's are settled in the order they were queued.
func testClaimConcurrent(t *testing.T, h *harness) {
	s := serving(t, h, "r")
	const hooks, turns = 5, 8
	for i := range hooks {
		mustHook(t, s, sampleHook("r", fmt.Sprintf("https://example.org/%d", i), ""))
	}
	for turn := 1; turn <= turns; turn++ {
		mustAppend(t, s, "r", race.Entry{Seq: turn, Kind: race.EntryResolve, Turn: turn, Seat: -1, At: accessAt, Hash: fmt.Sprintf("%064x", turn)}, savedTurn(turn))
	}
	var mu sync.Mutex
	taken := map[int64]string{}
	told := map[int64][]int{} // by hook: the turns settled, in order
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	// fail never blocks: a store that hands one delivery out many times
	// fills errs, and a blocked sender holding mu would hang every worker.
	fail := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}
	stop := time.Now().Add(20 * time.Second) // a bound, should the store never hand some out
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("w%d", w)
			for time.Now().Before(stop) {
				mu.Lock()
				all := len(taken) == hooks*turns
				mu.Unlock()
				if all {
					return
				}
				// Held for an hour: a hold never passes in this test.
				ds, err := s.Claim(ctx(t), name, accessAt.Add(time.Minute), accessAt.Add(time.Hour), 3)
				if err != nil {
					fail(err)
					return
				}
				for _, d := range ds {
					mu.Lock()
					if other, ok := taken[d.ID]; ok {
						fail(fmt.Errorf("delivery %d taken by %s and %s", d.ID, other, name))
					}
					taken[d.ID] = name
					told[d.Hook] = append(told[d.Hook], d.Turn)
					mu.Unlock()
					d.Outcome, d.Done = store.Delivered, ptr(accessAt.Add(time.Minute))
					if held, err := s.Settle(ctx(t), d); err != nil || !held {
						fail(fmt.Errorf("settling delivery %d: %v, %v", d.ID, held, err))
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(taken) != hooks*turns {
		t.Errorf("%d deliveries taken; want %d", len(taken), hooks*turns)
	}
	for hook, ts := range told {
		if !slices.IsSorted(ts) || len(ts) != turns {
			t.Errorf("hook %d was told turns %v; want 1 to %d in order", hook, ts, turns)
		}
	}
}
