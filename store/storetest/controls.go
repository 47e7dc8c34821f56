package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"pitwall/store"
)

// testTokens: a race's links are listed in the order they were made, the
// revoked ones with their revocation; a race not stored gives ErrNotFound.
func testTokens(t *testing.T, h *harness) {
	s, _ := freshAs[store.AccessStore](t, h)
	defer s.Close()
	r, _, ts := mustServe(t, s, "listed")
	later := store.Token{Hash: hashOf("later"), Race: r.ID, Role: store.RoleSpectator, Seat: -1, Created: accessAt.Add(time.Hour)}
	if err := s.AddTokens(ctx(t), r.ID, []store.Token{later}); err != nil {
		t.Fatal(err)
	}
	at := accessAt.Add(2 * time.Hour)
	if err := s.RevokeToken(ctx(t), r.ID, ts[2].Hash, at); err != nil {
		t.Fatal(err)
	}
	mustServe(t, s, "another") // its links are not listed with the first race's
	got, err := s.Tokens(ctx(t), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := append(ts, later)
	want[2].Revoked = &at
	if len(got) != len(want) {
		t.Fatalf("%d links listed, want %d: %+v", len(got), len(want), got)
	}
	byHash := map[string]store.Token{}
	for _, tk := range got {
		byHash[tk.Hash] = tk
	}
	for _, w := range want {
		checkToken(t, byHash[w.Hash], w)
	}
	if got[3].Hash != later.Hash {
		t.Errorf("the link made last is listed at %+v; want it last", got)
	}
	if _, err := s.Tokens(ctx(t), "nowhere"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the links of a race not stored: %v, want ErrNotFound", err)
	}
}

func control(race, kind string, seat int, value, key string) store.Control {
	return store.Control{Race: race, Kind: kind, Seat: seat, Value: value, Key: key, At: accessAt}
}

// testControls: controls are kept in the order stored, each with a rising
// Seq; a repeat of a key gives the stored control back and stores nothing;
// a key given to another control is refused as ErrExists; bad controls are
// refused with nothing stored; a race not stored has none to add.
func testControls(t *testing.T, h *harness) {
	s, name := freshAs[store.AccessStore](t, h)
	r, _, _ := mustServe(t, s, "controlled")
	mustServe(t, s, "other")
	adds := []store.Control{
		control(r.ID, store.ControlSeat, 1, store.ControlBot, "k1"),
		control(r.ID, store.ControlSchedule, -1, `{"every": "48h"}`, ""),
		control("other", store.ControlClock, -1, store.ControlPaused, "k1"), // the same key in another race
		control(r.ID, store.ControlClock, -1, store.ControlPaused, ""),
		control(r.ID, store.ControlSeat, 1, store.ControlPerson, "k2"),
		control(r.ID, store.ControlHost, -1, store.ControlBot, ""),
		control(r.ID, store.ControlSeat, 1, "bot:cruise", ""),           // a bot by name
		control(r.ID, store.ControlSeat, 0, store.ControlRemoved, "k3"), // a racer removed
	}
	var stored []store.Control
	for i, c := range adds {
		c.At = c.At.Add(time.Duration(i) * time.Minute)
		got, err := s.AddControl(ctx(t), c)
		if err != nil {
			t.Fatalf("adding %+v: %v", c, err)
		}
		if len(stored) > 0 && got.Seq <= stored[len(stored)-1].Seq {
			t.Errorf("control %d has Seq %d, after %d", i, got.Seq, stored[len(stored)-1].Seq)
		}
		c.Seq = got.Seq
		checkControl(t, fmt.Sprint("added ", i), got, c)
		stored = append(stored, got)
	}
	again, err := s.AddControl(ctx(t), control(r.ID, store.ControlSeat, 1, store.ControlBot, "k1"))
	if err != nil || again.Seq != stored[0].Seq {
		t.Errorf("a repeat of key k1: %+v, %v; want the stored control %+v", again, err, stored[0])
	}
	checkTime(t, "a repeat's time", again.At, stored[0].At)
	if _, err := s.AddControl(ctx(t), control(r.ID, store.ControlSeat, 2, store.ControlBot, "k1")); !errors.Is(err, store.ErrExists) {
		t.Errorf("key k1 given to another control: %v, want ErrExists", err)
	}
	removed := stored[len(stored)-1]
	if again, err := s.AddControl(ctx(t), control(r.ID, store.ControlSeat, 0, store.ControlRemoved, "k3")); err != nil || again.Seq != removed.Seq {
		t.Errorf("a removal repeated with its key: %+v, %v; want the stored one %+v", again, err, removed)
	}
	if _, err := s.AddControl(ctx(t), control(r.ID, store.ControlSeat, 0, store.ControlPerson, "k3")); !errors.Is(err, store.ErrExists) {
		t.Errorf("a removal's key given to a person: %v, want ErrExists", err)
	}
	bad := map[string]store.Control{
		"no race":              control("", store.ControlHost, -1, store.ControlBot, ""),
		"an unknown kind":      control(r.ID, "owner", -1, "x", ""),
		"a seat's without one": control(r.ID, store.ControlSeat, -1, store.ControlBot, ""),
		"a seat on a clock":    control(r.ID, store.ControlClock, 0, store.ControlPaused, ""),
		"a seat below -1":      control(r.ID, store.ControlHost, -2, store.ControlBot, ""),
		"an unknown value":     control(r.ID, store.ControlSeat, 0, "robot", ""),
		"a bot of no name":     control(r.ID, store.ControlSeat, 0, "bot:", ""),
		"a bot's name in caps": control(r.ID, store.ControlSeat, 0, "bot:Search", ""),
		"a bot's name of two":  control(r.ID, store.ControlSeat, 0, "bot:big search", ""),
		"a bot's long name":    control(r.ID, store.ControlSeat, 0, "bot:abcdefghijklmnopq", ""),
		"the host's by name":   control(r.ID, store.ControlHost, -1, "bot:cruise", ""),
		"a clock left on":      control(r.ID, store.ControlClock, -1, "on", ""),
		"the host removed":     control(r.ID, store.ControlHost, -1, store.ControlRemoved, ""),
		"a NUL in the value":   control(r.ID, store.ControlSchedule, -1, "{\x00}", ""),
		"a key not UTF-8":      control(r.ID, store.ControlHost, -1, store.ControlBot, "\xff"),
		"a nanosecond time":    {Race: r.ID, Kind: store.ControlHost, Seat: -1, Value: store.ControlBot, At: accessAt.Add(time.Nanosecond)},
	}
	for what, c := range bad {
		if got, err := s.AddControl(ctx(t), c); err == nil {
			t.Errorf("%s: stored as %+v", what, got)
		}
	}
	if _, err := s.AddControl(ctx(t), control("nowhere", store.ControlHost, -1, store.ControlBot, "")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a control of a race not stored: %v, want ErrNotFound", err)
	}
	s2 := reopenAccess(t, h, s, name)
	defer s2.Close()
	got, err := s2.Controls(ctx(t), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]store.Control{}, stored[:2]...), stored[3:]...)
	if len(got) != len(want) {
		t.Fatalf("after reopening, %d controls: %+v; want %d", len(got), got, len(want))
	}
	for i := range want {
		checkControl(t, fmt.Sprint("listed ", i), got[i], want[i])
	}
	if none, err := s2.Controls(ctx(t), "nowhere"); err != nil || len(none) != 0 {
		t.Errorf("the controls of a race not stored: %v, %v; want none", none, err)
	}
}

// testControlsOneKey: writers racing to add one keyed control store it
// once, and each is answered with that one.
func testControlsOneKey(t *testing.T, h *harness) {
	s, _ := freshAs[store.AccessStore](t, h)
	defer s.Close()
	r, _, _ := mustServe(t, s, "raced")
	const writers = 8
	seqs := make([]int64, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			c := control(r.ID, store.ControlSeat, 0, store.ControlBot, "once")
			got, err := s.AddControl(ctx(t), c)
			if err != nil {
				t.Errorf("writer %d: %v", i, err)
			}
			seqs[i] = got.Seq
		})
	}
	wg.Wait()
	cs, err := s.Controls(ctx(t), r.ID)
	if err != nil || len(cs) != 1 {
		t.Fatalf("after %d writers of one key: %+v, %v; want one control", writers, cs, err)
	}
	for i, seq := range seqs {
		if seq != cs[0].Seq {
			t.Errorf("writer %d was answered with Seq %d; the stored one is %d", i, seq, cs[0].Seq)
		}
	}
}

func checkControl(t *testing.T, what string, got, want store.Control) {
	t.Helper()
	if got.Race != want.Race || got.Seq != want.Seq || got.Kind != want.Kind || got.Seat != want.Seat || got.Value != want.Value || got.Key != want.Key {
		t.Errorf("%s: got %+v, want %+v", what, got, want)
	}
	checkTime(t, what+"'s time", got.At, want.At)
}
