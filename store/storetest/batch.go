package storetest

import (
	"errors"
	"fmt"
	"testing"

	"pitwall/race"
	"pitwall/store"
)

// Keys lists a race's keyed entries, in order, and Last its last seq; both
// refuse a race that does not exist.
func testKeysAndLast(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	const id = "keys-and-last"
	mustCreate(t, s, sampleRace(id, 1))
	mustCreate(t, s, sampleRace("other", 2))
	mustAppend(t, s, "other", keyed(orderEntry(1, 1, 0, "elsewhere"), "k-other"), nil)
	check := func(wantLast int, wantKeys []race.Entry) {
		t.Helper()
		last, err := s.Last(ctx(t), id)
		if err != nil || last != wantLast {
			t.Errorf("Last = %d, %v; want %d", last, err, wantLast)
		}
		keys, err := s.Keys(ctx(t), id)
		if err != nil {
			t.Fatalf("Keys: %v", err)
		}
		checkLog(t, keys, wantKeys)
	}
	check(0, nil)
	log := []race.Entry{
		keyed(orderEntry(1, 1, 0, "go"), "k-1"),
		orderEntry(2, 1, 1, "no key"),
		keyed(resolveEntry(3, 1), "k-resolve"),
		keyed(orderEntry(4, 2, 1, "later"), "k-2"),
	}
	var want []race.Entry
	for i, e := range log {
		var turn *store.SavedTurn
		if e.Kind == race.EntryResolve {
			turn = savedTurn(e.Turn)
		}
		mustAppend(t, s, id, e, turn)
		if e.Key != "" {
			want = append(want, e)
		}
		check(i+1, want)
	}
	_, err := s.Keys(ctx(t), "no-such-race")
	checkErr(t, "Keys", err, store.ErrNotFound, "no-such-race")
	_, err = s.Last(ctx(t), "no-such-race")
	checkErr(t, "Last", err, store.ErrNotFound, "no-such-race")
}

// batcher is the store as a Batcher; the test is skipped for a store that
// is not one.
func batcher(t *testing.T, h *harness) (store.Store, store.Batcher) {
	t.Helper()
	s, _ := h.fresh(t)
	b, ok := s.(store.Batcher)
	if !ok {
		t.Skipf("%T does not batch appends", s)
	}
	return s, b
}

// One batch over three races: each append is judged as Append judges it,
// a refused one stores nothing (nor an append of its race after it), and
// the rest are stored.
func testAppendAll(t *testing.T, h *harness) {
	s, b := batcher(t, h)
	mustCreate(t, s, sampleRace("a", 1))
	mustCreate(t, s, sampleRace("b", 2))
	mustCreate(t, s, sampleRace("c", 3))
	mustAppend(t, s, "a", keyed(orderEntry(1, 1, 0, "first"), "k-a1"), nil)
	mustAppend(t, s, "c", resolveEntry(1, 1), savedTurn(1))
	nul := orderEntry(2, 1, 1, "nul\x00")
	batch := []store.Pending{
		{Race: "a", Entry: orderEntry(2, 1, 1, "second")},
		{Race: "b", Entry: orderEntry(1, 1, 0, "b first")},
		{Race: "a", Entry: keyed(orderEntry(3, 1, 0, "again"), "k-a1")}, // a key stored already
		{Race: "a", Entry: orderEntry(3, 1, 2, "third")},
		{Race: "b", Entry: orderEntry(3, 1, 1, "gap")},                          // not next
		{Race: "b", Entry: orderEntry(2, 1, 1, "b second")},                     // next, after the refused one
		{Race: "nowhere", Entry: orderEntry(1, 1, 0, "lost")},                   // no such race
		{Race: "a", Entry: resolveEntry(4, 1), Turn: savedTurn(1)},              // a resolve with its turn
		{Race: "c", Entry: orderEntry(2, 2, 0, "c order")},                      //
		{Race: "c", Entry: nul},                                                 // what no store keeps
		{Race: "c", Entry: keyed(orderEntry(3, 2, 1, "c keyed"), "k-a1")},       // another race's key is free
		{Race: "c", Entry: orderEntry(4, 2, 2, "after a refused append ahead")}, // fine: the refused one had seq 2 too
	}
	want := []error{nil, nil, store.ErrDuplicateKey, nil, store.ErrConflict, nil, store.ErrNotFound, nil, nil, errAny, nil, nil}
	errs := b.AppendAll(ctx(t), batch)
	if len(errs) != len(batch) {
		t.Fatalf("AppendAll gave %d errors for %d appends", len(errs), len(batch))
	}
	for i, err := range errs {
		what := fmt.Sprintf("append %d (race %s, seq %d)", i, batch[i].Race, batch[i].Entry.Seq)
		switch {
		case want[i] == nil && err != nil:
			t.Errorf("%s: %v; want it stored", what, err)
		case want[i] == errAny && err == nil:
			t.Errorf("%s: stored; want it refused", what)
		case want[i] != nil && want[i] != errAny:
			checkErr(t, what, err, want[i], batch[i].Race)
		}
	}
	checkStored(t, s, "a", []race.Entry{keyed(orderEntry(1, 1, 0, "first"), "k-a1"), batch[0].Entry, batch[3].Entry, batch[7].Entry}, savedTurn(1))
	checkStored(t, s, "b", []race.Entry{batch[1].Entry, batch[5].Entry})
	checkStored(t, s, "c", []race.Entry{resolveEntry(1, 1), batch[8].Entry, batch[10].Entry, batch[11].Entry}, savedTurn(1))
	if errs := b.AppendAll(ctx(t), nil); len(errs) != 0 {
		t.Errorf("an empty batch gave %d errors", len(errs))
	}
}

// An append that names the entry it was chained on (Prev) is stored only
// on that entry: a writer that queued two entries, the first of which lost
// its place to another writer's, must not have its second stored on top of
// the other's (the log's hash chain would break there).
func testAppendAllChained(t *testing.T, h *harness) {
	s, b := batcher(t, h)
	for i, id := range []string{"a", "b", "c", "d"} {
		mustCreate(t, s, sampleRace(id, uint64(i+1)))
	}
	a1, a2 := orderEntry(1, 1, 0, "a1"), orderEntry(2, 1, 1, "a2")
	mustAppend(t, s, "a", a1, nil)
	mustAppend(t, s, "a", a2, nil)
	c1 := orderEntry(1, 1, 0, "c1")
	mustAppend(t, s, "c", c1, nil)
	d1, other := orderEntry(1, 1, 0, "d1"), orderEntry(2, 1, 1, "another writer's")
	mustAppend(t, s, "d", d1, nil)
	mustAppend(t, s, "d", other, nil)
	a3 := orderEntry(3, 1, 2, "a3 on a2")
	b1, b2 := orderEntry(1, 1, 0, "b1"), orderEntry(2, 1, 1, "b2 on nothing stored")
	mine := orderEntry(2, 1, 2, "d2 that lost its place")
	mine.Hash = fmt.Sprintf("%064x", 0xd2) // orderEntry's hash is the seq's and the turn's: as other's
	batch := []store.Pending{
		{Race: "a", Entry: a3, Prev: a2.Hash},                                  // chained on the entry before it
		{Race: "a", Entry: orderEntry(4, 1, 3, "on a stranger"), Prev: "f00d"}, // not on the entry before it
		{Race: "a", Entry: orderEntry(4, 1, 0, "a4 on a3"), Prev: a3.Hash},     // on the one stored in this batch
		{Race: "b", Entry: b1},                                                         // a first entry names none
		{Race: "b", Entry: b2, Prev: "f00d"},                                           //
		{Race: "b", Entry: orderEntry(3, 1, 2, "b3 on b2"), Prev: b2.Hash},             // behind a refused one: not next
		{Race: "c", Entry: resolveEntry(2, 1), Turn: savedTurn(1), Prev: "f00d"},       // a resolve: nor its turn
		{Race: "c", Entry: resolveEntry(2, 1), Turn: savedTurn(1), Prev: c1.Hash},      //
		{Race: "d", Entry: mine, Prev: d1.Hash},                                        // another writer's has seq 2
		{Race: "d", Entry: orderEntry(3, 1, 0, "d3 on the lost one"), Prev: mine.Hash}, // seq 3 is next, but not on it
	}
	want := []error{nil, store.ErrConflict, nil, nil, store.ErrConflict, store.ErrConflict, store.ErrConflict, nil, store.ErrConflict, store.ErrConflict}
	errs := b.AppendAll(ctx(t), batch)
	for i, err := range errs {
		what := fmt.Sprintf("append %d (race %s, seq %d)", i, batch[i].Race, batch[i].Entry.Seq)
		if want[i] == nil && err != nil {
			t.Errorf("%s: %v; want it stored", what, err)
		} else if want[i] != nil {
			checkErr(t, what, err, want[i], batch[i].Race)
		}
	}
	checkStored(t, s, "a", []race.Entry{a1, a2, a3, batch[2].Entry})
	checkStored(t, s, "b", []race.Entry{b1})
	checkStored(t, s, "c", []race.Entry{c1, resolveEntry(2, 1)}, savedTurn(1))
	checkStored(t, s, "d", []race.Entry{d1, other})
}

// errAny stands for any error in a test's table of wanted errors.
var errAny = errors.New("any error")

// A turn that is saved already, in a batch: that append is refused and
// stores nothing, whatever the store does about the transaction it was in,
// and the others are stored.
func testAppendAllTurnSavedTwice(t *testing.T, h *harness) {
	s, b := batcher(t, h)
	mustCreate(t, s, sampleRace("a", 1))
	mustCreate(t, s, sampleRace("b", 2))
	mustAppend(t, s, "a", resolveEntry(1, 1), savedTurn(1))
	batch := []store.Pending{
		{Race: "b", Entry: orderEntry(1, 1, 0, "b first")},
		{Race: "a", Entry: resolveEntry(2, 1), Turn: savedTurn(1)},
		{Race: "b", Entry: resolveEntry(2, 1), Turn: savedTurn(1)},
		{Race: "b", Entry: resolveEntry(3, 1), Turn: savedTurn(1)},
	}
	errs := b.AppendAll(ctx(t), batch)
	if errs[0] != nil || errs[2] != nil {
		t.Errorf("appends 0 and 2: %v, %v; want both stored", errs[0], errs[2])
	}
	checkErr(t, "a second resolve of race a's turn 1", errs[1], store.ErrConflict, "a")
	checkErr(t, "a second resolve of race b's turn 1", errs[3], store.ErrConflict, "b")
	checkStored(t, s, "a", []race.Entry{resolveEntry(1, 1)}, savedTurn(1))
	checkStored(t, s, "b", []race.Entry{batch[0].Entry, batch[2].Entry}, savedTurn(1))
}

// Eight writers batch appends to one race at once, each of them the next
// entry as it last saw the log, and retry what conflicts: every entry
// lands once, with no gap, and a conflict is the only refusal.
func testAppendAllConcurrent(t *testing.T, h *harness) {
	s, b := batcher(t, h)
	const id, each = "batched", 6
	mustCreate(t, s, sampleRace(id, 1))
	c := ctx(t)
	Together(writers, func(w int) {
		for n := 0; n < each; n++ {
			key := fmt.Sprintf("w%d-%d", w, n)
			for try := 0; ; try++ {
				if try == 1000 { // bounded: a store that always refuses fails here
					t.Errorf("writer %d: entry %s still refused after %d tries", w, key, try)
					return
				}
				last, err := s.Last(c, id)
				if err != nil {
					t.Error(err)
					return
				}
				errs := b.AppendAll(c, []store.Pending{{Race: id, Entry: keyed(orderEntry(last+1, 1, w, key), key)}})
				if errs[0] == nil {
					break
				}
				if !errors.Is(errs[0], store.ErrConflict) {
					t.Errorf("writer %d: %v; want nil or ErrConflict", w, errs[0])
					return
				}
			}
		}
	})
	log := mustLoad(t, s, id).Log
	if len(log) != writers*each {
		t.Fatalf("the log has %d entries, want %d", len(log), writers*each)
	}
	seen := map[string]bool{}
	for i, e := range log {
		if e.Seq != i+1 || seen[e.Key] || e.Text != e.Key {
			t.Errorf("entry %d: seq %d, key %q, text %q (seen before: %v)", i, e.Seq, e.Key, e.Text, seen[e.Key])
		}
		seen[e.Key] = true
	}
}
