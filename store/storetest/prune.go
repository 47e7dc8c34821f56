package storetest

import (
	"slices"
	"testing"
	"time"

	"pitwall/store"
)

// idsOf is the deliveries' ids, in their order.
func idsOf(ds []store.Delivery) []int64 {
	ids := make([]int64, len(ds))
	for i, d := range ds {
		ids[i] = d.ID
	}
	return ids
}

// testPrune: Prune deletes the deliveries done before the time given,
// oldest done first and at most n a call, never one still to be sent, and
// never one of a race's keep latest (what a list of keep shows stays as it
// was). The times are the test's own: nothing waits.
func testPrune(t *testing.T, h *harness) {
	s := serving(t, h, "r", "old")
	a := mustHook(t, s, sampleHook("r", "https://example.org/a", ""))
	b := mustHook(t, s, sampleHook("r", "https://example.org/b", ""))
	c := mustHook(t, s, sampleHook("old", "https://example.org/c", ""))
	day := 24 * time.Hour
	now := accessAt.Add(400 * day)
	warn := func(hk store.Hook, turn int) {
		t.Helper()
		if _, err := s.Warn(ctx(t), warning(hk.ID, hk.Race, turn, accessAt.Add(time.Duration(turn)*day))); err != nil {
			t.Fatal(err)
		}
	}
	// Race r: a's turns 1, 2, then b's turn 3 (left pending), then a's 4 and 5.
	warn(a, 1)
	warn(a, 2)
	warn(b, 3)
	warn(a, 4)
	warn(a, 5)
	warn(c, 1)
	// settle claims hk's next delivery and settles it as done at the time
	// given; each claim comes after the holds of the one before.
	at := now
	settle := func(hk store.Hook, outcome string, done time.Time) {
		t.Helper()
		at = at.Add(time.Hour)
		ds, err := s.Claim(ctx(t), "pruner", at, at.Add(time.Minute), 10)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(ds, func(d store.Delivery) bool { return d.Hook == hk.ID })
		if i < 0 {
			t.Fatalf("nothing of hook %d to claim in %+v", hk.ID, ds)
		}
		d := ds[i]
		d.Outcome, d.Done = outcome, &done
		if held, err := s.Settle(ctx(t), d); !held || err != nil {
			t.Fatalf("settling %+v: %v, %v", d, held, err)
		}
	}
	settle(a, store.Delivered, now.Add(-40*day))
	settle(a, store.GaveUp, now.Add(-35*day))
	settle(a, store.Skipped, now.Add(-31*day))
	settle(a, store.Delivered, now.Add(-day))
	settle(c, store.Dropped, now.Add(-60*day))
	all := deliveries(t, s, "r")
	if len(all) != 5 || all[2].Hook != b.ID || all[2].Outcome != "" {
		t.Fatalf("race r's deliveries: %+v; want a's two, b's pending one, a's two", all)
	}
	ids := idsOf(all)
	shown, err := s.Deliveries(ctx(t), "r", 2)
	if err != nil {
		t.Fatal(err)
	}
	cutoff := now.Add(-30 * day)
	prune := func(n int) int {
		t.Helper()
		got, err := s.Prune(ctx(t), cutoff, 2, n)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	// Done before the cutoff: r's first, second and fourth (a's turn 4,
	// kept as one of r's two latest), and old's only one (kept too).
	if got := prune(1); got != 1 {
		t.Fatalf("a prune of at most 1 deleted %d", got)
	}
	if got := idsOf(deliveries(t, s, "r")); !slices.Equal(got, ids[1:]) {
		t.Fatalf("after a prune of 1: %v; want %v (the oldest done gone)", got, ids[1:])
	}
	if got := prune(100); got != 1 {
		t.Fatalf("the second prune deleted %d; want 1 (the second done before the cutoff)", got)
	}
	if got := prune(100); got != 0 {
		t.Errorf("a third prune deleted %d; want 0", got)
	}
	if got := idsOf(deliveries(t, s, "r")); !slices.Equal(got, ids[2:]) {
		t.Errorf("race r keeps %v; want %v (the pending one and the two latest)", got, ids[2:])
	}
	if got := deliveries(t, s, "old"); len(got) != 1 {
		t.Errorf("race old keeps %+v; want its one delivery, one of its latest", got)
	}
	after, err := s.Deliveries(ctx(t), "r", 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(idsOf(after), idsOf(shown)) {
		t.Errorf("the two latest were %v, and are %v after the prune", idsOf(shown), idsOf(after))
	}
	// With nothing kept, old's delivery goes too, but never r's pending one.
	if got, err := s.Prune(ctx(t), now, 0, 100); got != 3 || err != nil {
		t.Errorf("a prune of everything done: %d, %v; want 3", got, err)
	}
	if got := deliveries(t, s, "r"); len(got) != 1 || got[0].ID != ids[2] || got[0].Outcome != "" {
		t.Errorf("after a prune of everything done, race r keeps %+v; want its pending delivery", got)
	}
	if _, err := s.Prune(ctx(t), now, 0, 0); err == nil {
		t.Error("a prune of at most 0 deliveries was taken")
	}
}
