package web

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"pitwall/host"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/sqlite"
)

// clocked is a test service on an in-memory database whose clock the test
// moves.
func clocked(t *testing.T) (*service, *clock) {
	t.Helper()
	st, err := sqlite.Open(sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ck := newClock()
	return serviceOn(t, &host.Host{Store: st, Clock: ck}), ck
}

// must makes a request that must be answered with status want, and returns
// the answer.
func (s *service) must(want int, method, path, token, body string) map[string]any {
	s.t.Helper()
	status, v := s.call(method, path, token, body)
	if status != want {
		s.t.Fatalf("%s %s %s: %d %v; want %d", method, path, body, status, v, want)
	}
	return v
}

// seatsOf is race c's seats as its host sees them.
func (s *service) seatsOf(c created) (float64, []map[string]any, map[string]any) {
	s.t.Helper()
	v := s.must(200, "GET", "/api/races/"+c.ID, c.Host, "")
	var seats []map[string]any
	for _, x := range v["seats"].([]any) {
		seats = append(seats, x.(map[string]any))
	}
	return v["turn"].(float64), seats, v
}

// TestBotSeat: a seat handed to the bot has its orders in as soon as each
// turn opens, once, the same orders on a second instance; given back, it
// waits for its racer again.
func TestBotSeat(t *testing.T) {
	s := newService(t)
	c := s.create(`{"ruleset": "nascar", "resolve_when": "all_in", "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	path := "/api/races/" + c.ID
	v := s.must(200, "POST", path+"/bot", c.Host, `{"seat": 2, "bot": true, "key": "b1"}`)
	if v["seat"] != 2.0 || v["bot"] != true {
		t.Fatalf("the answer: %v", v)
	}
	turn, seats, _ := s.seatsOf(c)
	if turn != 1 || seats[1]["bot"] != true || seats[1]["orders_in"] != true || seats[0]["orders_in"] != false || seats[0]["bot"] != nil {
		t.Fatalf("turn %v, seats %v: want the bot's orders in for seat 2 only", turn, seats)
	}
	if s.srv.settle(t.Context(), c.ID) {
		t.Fatal("looking after the race again resolved a turn with seat 1's orders missing")
	}
	s.must(200, "POST", path+"/orders", c.Seats[0], `{"turn": 1, "orders": "AM"}`)
	turn, seats, _ = s.seatsOf(c)
	if turn != 2 || seats[1]["orders_in"] != true || seats[0]["orders_in"] != false {
		t.Fatalf("after seat 1's orders: turn %v, seats %v; want turn 2 open with the bot's orders in", turn, seats)
	}
	whole, err := s.srv.host.Store.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	bots := 0
	for _, e := range whole.Log {
		if e.Seat == 1 && e.Kind == "order" {
			bots++
		}
	}
	if bots != 2 {
		t.Errorf("%d orders of the bot's in the log; want one a turn, 2", bots)
	}
	// A second instance (its own host and memory, on the same store)
	// looking after the race logs nothing more: the bot's orders are in.
	// (That every instance draws the same orders: TestBotRand.)
	other := serviceOn(t, host.New(s.srv.host.Store))
	other.srv.settle(t.Context(), c.ID)
	if again, _ := s.srv.host.Store.Load(t.Context(), c.ID); len(again.Log) != len(whole.Log) {
		t.Errorf("a second instance looking after the race logged %d more entries", len(again.Log)-len(whole.Log))
	}
	// The host resolves turn 2 (seat 1's orders missing): the bot plays
	// turn 3 at once.
	s.must(200, "POST", path+"/resolve", c.Host, `{"turn": 2}`)
	if turn, seats, _ = s.seatsOf(c); turn != 3 || seats[1]["orders_in"] != true {
		t.Fatalf("after the host resolved turn 2: turn %v, seats %v; want turn 3 open with the bot's orders in", turn, seats)
	}
	s.must(200, "POST", path+"/bot", c.Host, `{"seat": 2, "bot": false}`)
	s.must(200, "POST", path+"/orders", c.Seats[0], `{"turn": 3, "orders": "M"}`)
	turn, seats, _ = s.seatsOf(c)
	if turn != 4 || seats[1]["bot"] != nil || seats[1]["orders_in"] != false {
		t.Fatalf("after the seat was given back: turn %v, seats %v; want turn 4 waiting for seat 2", turn, seats)
	}
	// A key given again to another control is refused.
	if status, v := s.call("POST", path+"/bot", c.Host, `{"seat": 1, "bot": true, "key": "b1"}`); status != 409 || v["code"] != "key_reused" {
		t.Errorf("a key reused: %d %v", status, v)
	}
}

// TestNamedBots: the host hands a seat to a bot by name; the cruise bot
// sends nothing, so no turn waits for it (all in, or all ready), and the
// race shows which bot plays each seat.
func TestNamedBots(t *testing.T) {
	for _, when := range []string{"all_in", "ready"} {
		t.Run(when, func(t *testing.T) {
			s := newService(t)
			c := s.create(`{"ruleset": "nascar", "resolve_when": "` + when + `", "seats": [{"name": "Red"}, {"name": "Blue"}, {"name": "Gold"}]}`)
			path := "/api/races/" + c.ID
			v := s.must(200, "POST", path+"/bot", c.Host, `{"seat": 2, "bot": true, "name": "cruise"}`)
			if v["seat"] != 2.0 || v["bot"] != true || v["name"] != "cruise" {
				t.Fatalf("the answer: %v", v)
			}
			if v = s.must(200, "POST", path+"/bot", c.Host, `{"seat": 3, "bot": true, "name": "heuristic"}`); v["name"] != "heuristic" {
				t.Fatalf("the answer for the heuristic bot: %v", v)
			}
			turn, seats, whole := s.seatsOf(c)
			if turn != 1 || seats[1]["bot_name"] != "cruise" || seats[1]["orders_in"] != false || seats[2]["bot_name"] != "heuristic" || seats[2]["orders_in"] != true || seats[0]["bot_name"] != nil {
				t.Fatalf("seats %v: want seat 2 the cruise bot's with no orders, seat 3 the heuristic bot's with its orders in", seats)
			}
			if waiting := fmt.Sprint(whole["waiting_for"]); strings.Contains(waiting, "Blue") || !strings.Contains(waiting, "Red") {
				t.Errorf("waiting for %s; want Red and not the cruise bot's Blue", waiting)
			}
			s.must(200, "POST", path+"/orders", c.Seats[0], `{"turn": 1, "orders": "AM"}`)
			if when == "ready" {
				s.must(200, "POST", path+"/ready", c.Seats[0], `{"turn": 1, "ready": true}`)
			}
			if turn, _, _ = s.seatsOf(c); turn != 2 {
				t.Fatalf("turn %v once Red's orders were in; want 2: the cruise bot is not waited for", turn)
			}
			// Given back, Blue is waited for again.
			s.must(200, "POST", path+"/bot", c.Host, `{"seat": 2, "bot": false}`)
			s.must(200, "POST", path+"/orders", c.Seats[0], `{"turn": 2, "orders": "M"}`)
			if when == "ready" {
				s.must(200, "POST", path+"/ready", c.Seats[0], `{"turn": 2, "ready": true}`)
			}
			if turn, seats, _ = s.seatsOf(c); turn != 2 || seats[1]["bot"] != nil || seats[1]["bot_name"] != nil {
				t.Fatalf("turn %v, seats %v after Blue was given back; want turn 2 waiting for Blue", turn, seats)
			}
		})
	}
}

func TestControlsBadInput(t *testing.T) {
	s := newService(t)
	c := s.create(twoCars)
	path := "/api/races/" + c.ID
	for _, tc := range []struct {
		what, path, body string
		status           int
		field            string
	}{
		{"no bot field", "/bot", `{"seat": 1}`, 422, "bot"},
		{"no seat", "/bot", `{"bot": true}`, 422, "seat"},
		{"seat 0", "/bot", `{"seat": 0, "bot": true}`, 422, "seat"},
		{"seat 3 of 2", "/bot", `{"seat": 3, "bot": true}`, 422, "seat"},
		{"a seat and the host", "/bot", `{"seat": 1, "host": true, "bot": true}`, 422, "seat"},
		{"the host's settings in a game without", "/bot", `{"host": true, "bot": true}`, 422, "host"},
		{"bot as a string", "/bot", `{"seat": 1, "bot": "yes"}`, 400, "bot"},
		{"a bot no game has", "/bot", `{"seat": 1, "bot": true, "name": "oracle"}`, 422, "name"},
		{"a bot's name for a seat given back", "/bot", `{"seat": 1, "bot": false, "name": "cruise"}`, 422, "name"},
		{"a bot's name for the host's settings", "/bot", `{"host": true, "bot": true, "name": "cruise"}`, 422, "name"},
		{"a long key", "/bot", `{"seat": 1, "bot": true, "key": "` + strings.Repeat("x", 200) + `"}`, 422, "key"},
		{"a key of the service's", "/pause", `{"key": "` + serviceKeys + `p"}`, 422, "key"},
		{"every missing", "/repeat", `{}`, 422, "repeat.every"},
		{"every too short", "/repeat", `{"every": "1s"}`, 422, "repeat.every"},
		{"every not a length", "/repeat", `{"every": "two days"}`, 422, "repeat.every"},
		{"every too long", "/repeat", `{"every": "3000h"}`, 422, "repeat.every"},
		{"at not a time", "/repeat", `{"every": "48h", "at": "8pm"}`, 422, "repeat.at"},
		{"at with hours", "/repeat", `{"every": "36h", "at": "20:00"}`, 422, "repeat.every"},
		{"an unknown zone", "/repeat", `{"every": "48h", "at": "20:00", "zone": "Mars/Olympus"}`, 422, "repeat.zone"},
		{"the local zone", "/repeat", `{"every": "48h", "at": "20:00", "zone": "Local"}`, 422, "repeat.zone"},
		{"a zone without at", "/repeat", `{"every": "48h", "zone": "Europe/Berlin"}`, 422, "repeat.zone"},
		{"stop with every", "/repeat", `{"stop": true, "every": "48h"}`, 422, "stop"},
		{"a link of no role", "/links", `{"role": "owner"}`, 422, "role"},
		{"a seat's link without a seat", "/links", `{"role": "seat"}`, 422, "seat"},
		{"a seat's link for seat 5", "/links", `{"role": "seat", "seat": 5}`, 422, "seat"},
		{"a spectator's link with a seat", "/links", `{"role": "spectator", "seat": 1}`, 422, "seat"},
		{"pause with a body not JSON", "/pause", `pause`, 400, ""},
		{"pause with an unknown field", "/pause", `{"turn": 1}`, 400, "turn"},
	} {
		status, v := s.call("POST", path+tc.path, c.Host, tc.body)
		if msg, _ := v["error"].(string); status != tc.status || v["field"] != nil && v["field"] != tc.field || v["field"] == nil && tc.field != "" || msg == "" {
			t.Errorf("%s: %d %v; want %d with field %q", tc.what, status, v, tc.status, tc.field)
		}
	}
	if status, v := s.call("POST", path+"/links/0123456789ab/revoke", c.Host, ""); status != 404 || v["code"] != "no_such_link" {
		t.Errorf("revoking an unknown link: %d %v", status, v)
	}
	// Nothing refused was stored.
	if cs, err := s.srv.access.Controls(t.Context(), c.ID); err != nil || len(cs) != 0 {
		t.Errorf("controls after refusals: %v %v", cs, err)
	}
	links := s.must(200, "GET", path+"/links", c.Host, "")["links"].([]any)
	if len(links) != 3 {
		t.Errorf("links after refusals: %v; want the host's and two seats'", links)
	}
}

// TestRepeatAndPause: a repeating schedule gives each new turn its
// deadline; a pause holds the race past it, and a resume moves it on by
// the pause's length, once, however often it is sent.
func TestRepeatAndPause(t *testing.T) {
	s, ck := clocked(t)
	c := s.create(twoCars)
	path := "/api/races/" + c.ID
	v := s.must(200, "POST", path+"/repeat", c.Host, `{"every": "48h", "at": "20:00", "zone": "Europe/Berlin", "key": "r"}`)
	if rp := v["repeat"].(map[string]any); rp["every"] != "48h" || rp["at"] != "20:00" || rp["zone"] != "Europe/Berlin" {
		t.Fatalf("the answer: %v", v)
	}
	// Tuesday 24 November 2026, 18:00 UTC (19:00 in Berlin): two days on, at 20:00 Berlin time.
	want := time.Date(2026, 11, 26, 19, 0, 0, 0, time.UTC)
	_, _, shown := s.seatsOf(c)
	if dl := deadlineOf(t, shown); !dl.Equal(want) || shown["repeat"] == nil || shown["paused"] != false {
		t.Fatalf("turn 1's deadline %v, want %v: %v", dl, want, shown)
	}
	s.must(200, "POST", path+"/pause", c.Host, `{"key": "p1"}`)
	ck.set(want.Add(time.Hour))
	if n := s.srv.ResolveDue(t.Context()); n != 0 {
		t.Fatalf("a paused race resolved %d turns at its deadline", n)
	}
	if n, _ := s.srv.Rescan(t.Context()); n != 0 {
		t.Fatalf("a paused race resolved %d turns on a rescan", n)
	}
	_, _, shown = s.seatsOf(c)
	if shown["turn"] != 1.0 || shown["paused"] != true {
		t.Fatalf("paused past its deadline: %v", shown)
	}
	// Resumed 49 hours after the pause (paused at 18:00 on the 24th).
	ck.set(time.Date(2026, 11, 26, 19, 0, 0, 0, time.UTC))
	for range 3 {
		s.must(200, "POST", path+"/resume", c.Host, `{"key": "go"}`)
	}
	_, _, shown = s.seatsOf(c)
	if dl := deadlineOf(t, shown); !dl.Equal(want.Add(49*time.Hour)) || shown["paused"] != false {
		t.Fatalf("after a pause of 49 hours resumed three times, the deadline is %v; want %v", dl, want.Add(49*time.Hour))
	}
	ck.set(want.Add(49 * time.Hour))
	if n := s.srv.ResolveDue(t.Context()); n != 1 {
		t.Fatalf("at the moved deadline %d turns resolved, want 1", n)
	}
	// Turn 2 opens on Saturday 28 November at 20:00 UTC (21:00 in Berlin):
	// its deadline is Monday at 20:00 in Berlin.
	_, _, shown = s.seatsOf(c)
	if dl := deadlineOf(t, shown); shown["turn"] != 2.0 || !dl.Equal(time.Date(2026, 11, 30, 19, 0, 0, 0, time.UTC)) {
		t.Fatalf("turn 2: %v, deadline %v", shown["turn"], dl)
	}
	s.must(200, "POST", path+"/repeat", c.Host, `{"stop": true}`)
	s.must(200, "POST", path+"/resolve", c.Host, `{"turn": 2}`)
	if _, _, shown = s.seatsOf(c); shown["repeat"] != nil || shown["schedule"].(map[string]any)["deadline"] != nil {
		t.Fatalf("after the repeat stopped, turn 3: %v", shown)
	}
}

func deadlineOf(t *testing.T, shown map[string]any) time.Time {
	t.Helper()
	s, _ := shown["schedule"].(map[string]any)["deadline"].(string)
	dl, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("no deadline: %v", shown)
	}
	return dl
}

func TestRepeatNext(t *testing.T) {
	for _, tc := range []struct {
		every, at, zone string
		from, want      string
	}{
		{"48h", "", "", "2026-11-24T18:00:00Z", "2026-11-26T18:00:00Z"},
		{"90m", "", "", "2026-11-24T18:00:00.5Z", "2026-11-24T19:30:00Z"},
		{"24h", "20:00", "", "2026-11-24T21:00:00Z", "2026-11-25T20:00:00Z"},
		{"24h", "20:00", "", "2026-11-24T19:59:00Z", "2026-11-25T20:00:00Z"},
		{"48h", "20:00", "Europe/Berlin", "2026-11-24T23:30:00Z", "2026-11-27T19:00:00Z"}, // already the 25th in Berlin
		// Across the change to summer time: 20:00 in Berlin is 18:00 UTC after it.
		{"48h", "20:00", "Europe/Berlin", "2027-03-27T12:00:00Z", "2027-03-29T18:00:00Z"},
		{"168h", "09:30", "America/New_York", "2026-11-24T03:00:00Z", "2026-11-30T14:30:00Z"},
	} {
		rp := repeat{Every: tc.every, At: tc.at, Zone: tc.zone}
		if err := rp.check(); err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		from, _ := time.Parse(time.RFC3339Nano, tc.from)
		if got := rp.next(from).Format(time.RFC3339); got != tc.want {
			t.Errorf("every %s at %q in %q from %s: %s, want %s", tc.every, tc.at, tc.zone, tc.from, got, tc.want)
		}
	}
}

// TestLinks: the host lists the race's links, gives a seat to a new racer
// (the old link stops working), makes a spectator's link, and revokes a
// link, but not the last host link.
func TestLinks(t *testing.T) {
	s := newService(t)
	c := s.create(`{"ruleset": "nascar", "public": false, "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	path := "/api/races/" + c.ID
	links := s.must(200, "GET", path+"/links", c.Host, "")["links"].([]any)
	if len(links) != 4 {
		t.Fatalf("a private race's links: %v; want the host's, two seats' and a spectator's", links)
	}
	for _, l := range links {
		if m := l.(map[string]any); m["token"] != nil || len(m["link"].(string)) != 12 {
			t.Errorf("a listed link shows %v", m)
		}
	}
	v := s.must(201, "POST", path+"/links", c.Host, `{"role": "seat", "seat": 1, "replace": true}`)
	fresh := v["link"].(map[string]any)["token"].(string)
	if len(v["revoked"].([]any)) != 1 {
		t.Fatalf("replacing seat 1's racer revoked %v", v["revoked"])
	}
	if status, _ := s.call("POST", path+"/orders", c.Seats[0], `{"turn": 1, "orders": "AM"}`); status != http.StatusUnauthorized {
		t.Errorf("the replaced racer's link: %d, want 401", status)
	}
	if v := s.must(200, "POST", path+"/orders", fresh, `{"turn": 1, "orders": "AM"}`); v["seat"] != 1.0 {
		t.Errorf("the new racer's orders: %v", v)
	}
	hostLink := hashToken(c.Host)[:12]
	if status, v := s.call("POST", path+"/links/"+hostLink+"/revoke", c.Host, ""); status != 409 || v["code"] != "last_host_link" {
		t.Errorf("revoking the last host link: %d %v", status, v)
	}
	newHost := s.must(201, "POST", path+"/links", c.Host, `{"role": "host"}`)["link"].(map[string]any)["token"].(string)
	for range 2 { // revoking twice is revoking once
		if v := s.must(200, "POST", path+"/links/"+hostLink+"/revoke", newHost, ""); v["link"].(map[string]any)["revoked"] == nil {
			t.Errorf("the revoked link: %v", v)
		}
	}
	if status, _ := s.call("GET", path, c.Host, ""); status != http.StatusUnauthorized {
		t.Errorf("the revoked host link still opens the race: %d", status)
	}
	spec := s.must(201, "POST", path+"/links", newHost, `{"role": "spectator"}`)["link"].(map[string]any)["token"].(string)
	if v := s.must(200, "GET", path, spec, ""); v["viewer"] != "spectator" || v["my_orders"] != nil {
		t.Errorf("a new spectator's view: %v", v)
	}
	ts, err := s.srv.access.Tokens(t.Context(), c.ID)
	if err != nil || len(ts) != 7 {
		t.Errorf("links stored: %d %v; want 7", len(ts), err)
	}
	revoked := 0
	for _, tk := range ts {
		if tk.Revoked != nil {
			revoked++
		}
		if tk.Role == store.RoleHost && tk.Revoked == nil && tk.Hash != hashToken(newHost) {
			t.Errorf("a host link left open: %+v", tk)
		}
	}
	if revoked != 2 {
		t.Errorf("%d links revoked, want 2", revoked)
	}
}

// The bot's generator is the race's, the turn's and the seat's: the same
// on every instance, another for another seat or seed.
func TestBotRand(t *testing.T) {
	s := newService(t)
	c := s.create(twoCars)
	p, err := s.srv.host.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	draw := func(seat int) [4]uint64 {
		r := s.srv.botRand(p, seat)
		return [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
	}
	first, again := draw(0), draw(0)
	if first != again {
		t.Error("two draws for one seat differ")
	}
	if draw(0) == draw(1) || draw(-1) == draw(0) {
		t.Error("two seats draw the same")
	}
	q := *p
	seed := q.Race.Seed
	seed[0] ^= 1
	q.Race = &race.Race{ID: p.Race.ID, Seed: seed}
	if s.srv.botRand(&q, 0).Uint64() == draw(0)[0] {
		t.Error("another seed draws the same")
	}
}

// A link revoked while its stream is open: the stream ends at the race's
// next event, before telling of it.
func TestRevokedStreamEnds(t *testing.T) {
	s := newService(t)
	c := s.create(`{"ruleset": "nascar", "public": false, "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	path := "/api/races/" + c.ID
	res := s.do("GET", path+"/events", c.Spectator, "")
	defer res.Body.Close()
	s.must(200, "POST", path+"/orders", c.Seats[0], `{"turn": 1, "orders": "AM"}`)
	if evs := readEvents(t, res.Body, 1); len(evs) != 1 || evs[0].name != "orders_in" {
		t.Fatalf("before the revocation: %v", evs)
	}
	s.must(200, "POST", path+"/links/"+hashToken(c.Spectator)[:12]+"/revoke", c.Host, "")
	s.must(200, "POST", path+"/orders", c.Seats[1], `{"turn": 1, "orders": "AM"}`)
	done := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(res.Body); done <- b }()
	select {
	case rest := <-done:
		if strings.Contains(string(rest), "event:") {
			t.Errorf("the revoked link's stream told of more: %q", rest)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the revoked link's stream is still open 10 s after the race's next event")
	}
}

// TestResumeRefusedChangesNothing: a resume whose key is refused moves no
// deadline and leaves the race paused; a deadline that had passed before
// the pause is due as the race resumes (it was refused as "passed" before,
// on every retry, so the race could not be resumed).
func TestResumeRefusedChangesNothing(t *testing.T) {
	s, ck := clocked(t)
	dl := ck.Now().Add(time.Hour)
	c := s.raceWithDeadline(dl)
	path := "/api/races/" + c.ID
	s.must(200, "POST", path+"/pause", c.Host, `{"key": "p1"}`)
	ck.set(ck.Now().Add(30 * time.Minute))
	s.must(422, "POST", path+"/resume", c.Host, `{"key": "`+serviceKeys+`x"}`)
	s.must(409, "POST", path+"/resume", c.Host, `{"key": "p1"}`) // the pause's own key
	_, _, shown := s.seatsOf(c)
	if got := deadlineOf(t, shown); !got.Equal(dl) || shown["paused"] != true {
		t.Fatalf("after two refused resumes: deadline %v (want %v), paused %v", got, dl, shown["paused"])
	}
	s.must(200, "POST", path+"/resume", c.Host, `{"key": "go"}`)
	if _, _, shown = s.seatsOf(c); !deadlineOf(t, shown).Equal(dl.Add(30 * time.Minute)) {
		t.Fatalf("resumed after 30 minutes: deadline %v; want %v", deadlineOf(t, shown), dl.Add(30*time.Minute))
	}
	// Its deadline passes unseen (no resolve ran), then a pause and a resume.
	ck.set(dl.Add(2 * time.Hour))
	s.must(200, "POST", path+"/pause", c.Host, `{"key": "p2"}`)
	ck.set(dl.Add(3 * time.Hour))
	s.must(200, "POST", path+"/resume", c.Host, `{"key": "go2"}`)
	if turn, _, _ := s.seatsOf(c); turn != 2 {
		t.Errorf("the turn that fell due before the pause: turn %v open after the resume; want it resolved, turn 2", turn)
	}
}

// TestBotSeatOnTwoClocks: two instances whose clocks judge the bonus window
// otherwise draw different orders for a ludi bot; the one that comes
// second finds the seat played and goes on (it failed on the key, which
// held the other's text, and so looked after nothing more that pass).
func TestBotSeatOnTwoClocks(t *testing.T) {
	a, ck := clocked(t)
	late := &clock{t: ck.Now().Add(2 * time.Hour)} // past the window, before the deadline
	b := serviceOn(t, &host.Host{Store: a.srv.host.Store, Clock: late})
	rs, _ := race.Lookup("ludi")
	c := a.create(raceBody(t, "ludi", rs.Game().Tracks[0].ID, 1, nil, rs.Game().Demo.Entrants[:2], true))
	now := ck.Now()
	a.must(200, "POST", "/api/races/"+c.ID+"/schedule", c.Host, fmt.Sprintf(`{"turn": 1, "deadline": %q, "window_open": %q, "window_close": %q}`,
		now.Add(3*time.Hour).Format(time.RFC3339), now.Add(-time.Hour).Format(time.RFC3339), now.Add(time.Hour).Format(time.RFC3339)))
	stale, err := b.srv.host.Load(t.Context(), c.ID) // b keeps the race as it stands now
	if err != nil {
		t.Fatal(err)
	}
	a.must(200, "POST", "/api/races/"+c.ID+"/bot", c.Host, `{"seat": 1, "bot": true}`) // a's bot plays, in the window
	acc, err := b.srv.access.Access(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := b.srv.access.Controls(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	st, err := fold(cs)
	if err != nil {
		t.Fatal(err)
	}
	br := stale.Ruleset.(race.Botter)
	mine := br.BotOrder(stale.State, 0, false, b.srv.botRand(stale, 0))
	if theirs := br.BotOrder(stale.State, 0, true, a.srv.botRand(stale, 0)); theirs == mine {
		t.Fatalf("the two clocks draw the same orders (%q): the test shows nothing", mine)
	}
	if _, err := b.srv.tend(t.Context(), stale, acc, st); err != nil {
		t.Errorf("the second instance's bot: %v; want the seat taken as played", err)
	}
}
