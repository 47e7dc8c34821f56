package web

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestStreamsHearOtherInstances: two instances on one PostgreSQL database;
// a stream open on one tells of the writes made on the other as they are
// made (not at its own next write), and the race it serves is read again
// at once.
func TestStreamsHearOtherInstances(t *testing.T) {
	insts := instances(t, "web_listen", nil)
	for _, s := range insts {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); s.srv.RunListen(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
	}
	a, b := insts[0], insts[1]
	c := a.create(twoCars)
	b.must(200, "GET", "/api/races/"+c.ID, "", "") // b keeps the race in memory from here
	// A bound for the test, should no event come: not a measure of speed.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", b.url+"/api/races/"+c.ID+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close() // the stream listens from here (its headers are sent once it has subscribed)
	a.must(200, "POST", "/api/races/"+c.ID+"/orders", c.Seats[0], `{"turn": 1, "orders": "AM"}`)
	a.must(200, "POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
	got := readEvents(t, res.Body, 2)
	want := []event{{"1", "orders_in", `{"seat":1,"turn":1}`}, {"2", "turn", `{"turn":1}`}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("b's stream told %v; want %v", got, want)
	}
	// b heard of the resolve before its stream told it: what it serves is
	// the race as it stands, not the race as it kept it a moment ago.
	if turn, _, _ := b.seatsOf(c); turn != 2 {
		t.Errorf("b serves turn %v after a's resolve; want 2", turn)
	}
	b.must(200, "POST", "/api/races/"+c.ID+"/orders", c.Seats[1], `{"turn": 2, "orders": "AM"}`)
}
