package web

import (
	"encoding/json"
	"testing"
	"time"

	"pitwall/race"
)

// The stream writes its events' data by hand; each must be the JSON object
// encoding/json would write, keys sorted.
func TestStreamEventData(t *testing.T) {
	for _, c := range []struct {
		e    race.Entry
		name string
		want map[string]any
	}{
		{race.Entry{Kind: race.EntryResolve, Turn: 12, Seat: -1}, "turn", map[string]any{"turn": 12}},
		{race.Entry{Kind: race.EntryOrder, Turn: 3, Seat: 9}, "orders_in", map[string]any{"turn": 3, "seat": 10}},
		{race.Entry{Kind: race.EntryReady, Turn: 140, Seat: 0, Text: "yes"}, "ready", map[string]any{"turn": 140, "seat": 1, "ready": true}},
		{race.Entry{Kind: race.EntryReady, Turn: 2, Seat: 4, Text: "no"}, "ready", map[string]any{"turn": 2, "seat": 5, "ready": false}},
		{race.Entry{Kind: race.EntrySchedule, Turn: 7, Seat: -1}, "schedule", map[string]any{"turn": 7}},
		{race.Entry{Kind: race.EntryStart, Turn: 1, Seat: -1}, "start", map[string]any{"turn": 1}},
	} {
		name, data, ok := streamEvent(c.e)
		want, _ := json.Marshal(c.want)
		if !ok || name != c.name || string(data) != string(want) {
			t.Errorf("%s entry: %q %s %v; want %q %s", c.e.Kind, name, data, ok, c.name, want)
		}
		ev := appendEvent([]byte("x"), race.Entry{Kind: c.e.Kind, Turn: c.e.Turn, Seat: c.e.Seat, Text: c.e.Text, Seq: 31})
		if w := "xid: 31\nevent: " + c.name + "\ndata: " + string(want) + "\n\n"; string(ev) != w {
			t.Errorf("%s entry as an event: %q; want %q", c.e.Kind, ev, w)
		}
	}
	for _, k := range []string{race.EntryJoin, race.EntrySet, race.EntryWithdraw, race.EntryFix} {
		if name, _, ok := streamEvent(race.Entry{Kind: k}); ok {
			t.Errorf("a %s entry tells the stream %q; it tells nothing", k, name)
		}
		if ev := appendEvent([]byte("x"), race.Entry{Kind: k}); string(ev) != "x" {
			t.Errorf("a %s entry appended %q", k, ev)
		}
	}
}

// An urgent wake reaches every stream of the race before wake returns; the
// wakes of a burst of orders reach each stream once, linger later; another
// race's streams hear nothing.
func TestBrokerLingers(t *testing.T) {
	b := newBroker()
	a1, done1 := b.subscribe("a")
	defer done1()
	a2, done2 := b.subscribe("a")
	defer done2()
	other, done3 := b.subscribe("b")
	defer done3()
	woken := func(ch chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	b.wake("a", true)
	if !woken(a1) || !woken(a2) || woken(other) {
		t.Fatal("an urgent wake did not reach race a's streams at once, or reached race b's")
	}
	for range 10 {
		b.wake("a", false)
	}
	if woken(a1) || woken(a2) {
		t.Fatal("an order's wake reached a stream at once; it waits for the burst")
	}
	b.mu.Lock()
	lingering := b.lingering["a"]
	b.mu.Unlock()
	if !lingering {
		t.Fatal("ten wakes of a burst set no wake for later")
	}
	for _, ch := range []chan struct{}{a1, a2} {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal("a burst's wake never reached a stream")
		}
	}
	b.mu.Lock()
	lingering = b.lingering["a"]
	b.mu.Unlock()
	if lingering || woken(a1) || woken(other) {
		t.Fatal("a burst woke a stream twice, or race b's, or stayed lingering")
	}
	// A race with no stream sets nothing up.
	b.wake("nobody", false)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lingering["nobody"] {
		t.Fatal("a race no one streams lingers")
	}
}
