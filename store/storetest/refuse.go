package storetest

import (
	"strings"
	"testing"
	"time"

	"pitwall/race"
	"pitwall/store"
)

// testRefusesWhatNotEveryStoreKeeps: a time finer than a microsecond, text
// with a NUL byte or bytes that are not UTF-8, and an overlong ID are
// refused by every store alike, with nothing stored, so that a race one
// store takes another takes too.
func testRefusesWhatNotEveryStoreKeeps(t *testing.T, h *harness) {
	s, _ := h.fresh(t)
	defer s.Close()
	fine := sampleRace("fine", 1)
	fine.Created = fine.Created.Add(time.Nanosecond)
	nul := sampleRace("nul\x00", 2)
	long := sampleRace(strings.Repeat("x", store.MaxID+1), 3)
	for what, r := range map[string]*race.Race{"a nanosecond creation": fine, "an ID with NUL": nul, "an overlong ID": long} {
		if err := s.Create(ctx(t), r); err == nil {
			t.Errorf("%s: created", what)
		}
	}
	if got := len(mustList(t, s)); got != 0 {
		t.Fatalf("refused races were stored: %d races", got)
	}
	r := sampleRace("kept", 4)
	mustCreate(t, s, r)
	bad := map[string]race.Entry{}
	e := orderEntry(1, 1, 0, "AM")
	e.At = e.At.Add(time.Nanosecond)
	bad["a nanosecond time"] = e
	e = orderEntry(1, 1, 0, "A\x00M")
	bad["text with NUL"] = e
	e = orderEntry(1, 1, 0, "A\xffM")
	bad["text not UTF-8"] = e
	bad["a key not UTF-8"] = keyed(orderEntry(1, 1, 0, "AM"), "k\xff")
	for what, e := range bad {
		if err := s.Append(ctx(t), r.ID, e, nil); err == nil {
			t.Errorf("appending an entry with %s: stored", what)
		}
	}
	turn := savedTurn(1)
	turn.At = turn.At.Add(time.Nanosecond)
	if err := s.Append(ctx(t), r.ID, resolveEntry(1, 1), turn); err == nil {
		t.Error("a saved turn with a nanosecond time: stored")
	}
	if got := mustLoad(t, s, r.ID).Log; len(got) != 0 {
		t.Errorf("refused entries were stored: %v", got)
	}
	if got := mustTurns(t, s, r.ID); len(got) != 0 {
		t.Errorf("a refused turn was stored: %v", got)
	}
}

func mustList(t *testing.T, s store.Store) []store.Summary {
	t.Helper()
	l, err := s.List(ctx(t), store.Page{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
