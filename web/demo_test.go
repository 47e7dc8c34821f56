package web

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pitwall/race"
	_ "pitwall/rules/gaslands"
	_ "pitwall/rules/ludi"
	_ "pitwall/rules/party"
	_ "pitwall/rules/rtd"
)

// TestDemoRacesRunToTheEnd starts the demo on an empty store and moves the
// clock on a turn's pace at a time: every game's race, bots in every seat,
// plays to its end by its deadlines alone; a game on a calendar (party's
// weeks) goes on turn after turn, and ends only when its weeks have passed. Along the way, no spectator's
// answer holds a seat's pending orders, anyone's own orders, or the seed
// before the end.
func TestDemoRacesRunToTheEnd(t *testing.T) {
	s, ck := clocked(t)
	const pace = 30 * time.Second
	ids, err := s.srv.Demo(t.Context(), pace)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != len(race.IDs()) {
		t.Fatalf("demo races %v; want one of each of %v", ids, race.IDs())
	}
	if again, err := s.srv.Demo(t.Context(), pace); err != nil || len(again) != 0 {
		t.Fatalf("a second demo on a store with races: %v %v; want none", again, err)
	}
	over, calendar := map[string]int{}, map[string]bool{}
	for _, id := range ids {
		p, err := s.srv.host.Load(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		calendar[id] = p.Ruleset.Game().Calendar
	}
	ends := len(ids)
	for _, on := range calendar {
		if on {
			ends--
		}
	}
	turns := 0
	for ; len(over) < ends && turns < 400; turns++ {
		for _, id := range ids {
			if _, done := over[id]; done {
				continue
			}
			p, err := s.srv.host.Load(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			seed := hex.EncodeToString(p.Race.Seed[:])
			status, v := s.call("GET", "/api/races/"+id, "", "")
			if status != 200 {
				t.Fatalf("%s: %d %v", id, status, v)
			}
			if v["over"] == true {
				over[id] = p.Resolved()
				continue
			}
			// The prompts name the orders a seat may give, so they are
			// not searched for the orders given.
			delete(v, "prompts")
			body := jsonString(v)
			if strings.Contains(body, seed) || v["my_orders"] != nil {
				t.Fatalf("%s turn %v: a spectator sees the seed or someone's orders: %s", id, v["turn"], body)
			}
			for seat, o := range p.Pending {
				if text := o.String(); len(text) >= 6 && strings.Contains(body, text) {
					t.Fatalf("%s turn %v: a spectator sees seat %d's pending orders %q", id, v["turn"], seat+1, text)
				}
			}
			if len(p.Pending) == 0 && len(p.Ruleset.Prompts(p.State)) > 0 {
				t.Fatalf("%s turn %v: the bots' orders are not in", id, v["turn"])
			}
		}
		ck.set(ck.Now().Add(pace))
		s.srv.ResolveDue(t.Context())
	}
	if len(over) < ends {
		t.Fatalf("after 400 turns' time, only %v are over", over)
	}
	for id, on := range calendar {
		p, err := s.srv.host.Load(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if on && p.Resolved() != turns {
			t.Errorf("%s, on its calendar: %d turns resolved in %d turns' time", id, p.Resolved(), turns)
		}
	}
	t.Logf("turns to the end: %v", over)
}

// jsonString is v as JSON.
func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
