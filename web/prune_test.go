package web

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pitwall/store"
)

// TestPruneOutbox: the hook loop's cleanup deletes the deliveries done
// more than 30 days ago, save each race's 50 latest (its host sees the same
// list as before), once an hour at the most. The clock is the test's.
func TestPruneOutbox(t *testing.T) {
	s, ck := hooked(t)
	c := s.create(twoCars)
	rc := newReceiver(t)
	id, _ := s.addHook(c, `{"url": "`+rc.url+`"}`)
	hs, err := s.srv.hookStore()
	if err != nil {
		t.Fatal(err)
	}
	start := ck.Now()
	// warn queues n warnings of deadlines of the race's (each its own
	// delivery), and sends them.
	warn := func(from, n int) {
		t.Helper()
		for i := from; i < from+n; i++ {
			dl := start.Add(time.Duration(i) * time.Hour)
			if _, err := hs.Warn(t.Context(), store.Delivery{Hook: int64(id), Race: c.ID, Turn: 1, Deadline: &dl, Created: ck.Now(), Due: ck.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		if got := s.deliverDue(); got != n {
			t.Fatalf("sent %d deliveries; want %d", got, n)
		}
	}
	shown := func() []string {
		var ids []string
		for _, d := range s.deliveriesOf(c) {
			if d["outcome"] == "" {
				t.Fatalf("a delivery is still to be sent: %v", d)
			}
			ids = append(ids, fmt.Sprint(d["id"]))
		}
		return ids
	}
	warn(0, 60)
	before := shown()
	if len(before) != deliveriesShown {
		t.Fatalf("the host sees %d deliveries; want the %d latest", len(before), deliveriesShown)
	}
	prune := func() int {
		t.Helper()
		n, err := s.srv.PruneOutbox(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	ck.set(start.Add(29 * 24 * time.Hour))
	if n := prune(); n != 0 {
		t.Fatalf("29 days on, the cleanup deleted %d; want none", n)
	}
	ck.set(start.Add(31 * 24 * time.Hour))
	if n := prune(); n != 10 {
		t.Fatalf("31 days on, the cleanup deleted %d; want the 10 past the %d latest", n, deliveriesShown)
	}
	if after := shown(); !slices.Equal(after, before) {
		t.Errorf("the host saw %v, and sees %v after the cleanup", before, after)
	}
	all, err := hs.Deliveries(t.Context(), c.ID, 1000)
	if err != nil || len(all) != deliveriesShown {
		t.Fatalf("the outbox keeps %d of the race's deliveries (%v); want %d", len(all), err, deliveriesShown)
	}
	// 20 more, sent now: 20 of the month-old 50 are no longer among the
	// latest, but no cleanup comes until an hour after the last.
	warn(100, 20)
	ck.set(ck.Now().Add(59 * time.Minute))
	if n := prune(); n != 0 {
		t.Errorf("a second cleanup within the hour deleted %d", n)
	}
	ck.set(ck.Now().Add(time.Minute))
	if n := prune(); n != 20 {
		t.Errorf("an hour on, the cleanup deleted %d; want 20", n)
	}
}
