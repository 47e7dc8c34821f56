package web

import (
	"fmt"
	"testing"
)

// TestRescanPassesFinishedRaces: a race over is read once more by a
// rescan, then never again, so it leaves memory for good once idle; a race
// running is read by every rescan.
func TestRescanPassesFinishedRaces(t *testing.T) {
	s := newService(t)
	done := s.create(`{"ruleset": "nascar", "laps": 1, "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	running := s.create(twoCars)
	path := "/api/races/" + done.ID
	s.must(200, "POST", path+"/bot", done.Host, `{"seat": 1, "bot": true}`)
	s.must(200, "POST", path+"/bot", done.Host, `{"seat": 2, "bot": true}`)
	for i := 0; ; i++ {
		turn, _, v := s.seatsOf(done)
		if v["over"] == true {
			break
		}
		if i > 300 {
			t.Fatal("the race does not end")
		}
		s.must(200, "POST", path+"/resolve", done.Host, fmt.Sprintf(`{"turn": %d}`, int(turn)))
	}
	if _, err := s.srv.Rescan(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := s.srv.host.Evict(0); n != 2 || s.srv.host.Kept() != 0 {
		t.Fatalf("dropped %d races, %d kept; want both dropped", n, s.srv.host.Kept())
	}
	if _, err := s.srv.Rescan(t.Context()); err != nil {
		t.Fatal(err)
	}
	if s.srv.host.Kept() != 1 {
		t.Errorf("%d races in memory after a rescan; want only the running one read again", s.srv.host.Kept())
	}
	s.must(200, "GET", "/api/races/"+running.ID, running.Host, "")
	if v := s.must(200, "GET", path, "", ""); v["over"] != true {
		t.Errorf("the race over, read again: %v", v["over"])
	}
}
