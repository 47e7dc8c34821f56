package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pitwall/host"
	"pitwall/race"
	_ "pitwall/rules/ludi"
	_ "pitwall/rules/nascar"
	"pitwall/store"
	"pitwall/store/sqlite"
)

// service is a test service on a private in-memory database.
type service struct {
	t   *testing.T
	url string
	srv *Server
}

func newService(t *testing.T) *service {
	t.Helper()
	st, err := sqlite.Open(sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return serviceOn(t, host.New(st))
}

// serviceOn is a test service of h.
func serviceOn(t *testing.T, h *host.Host) *service {
	t.Helper()
	srv, err := New(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.SetReady(true)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); hs.Close() })
	return &service{t: t, url: hs.URL, srv: srv}
}

// do makes a request: a JSON body when one is given, and the token as the
// bearer when one is given.
func (s *service) do(method, path, token, body string) *http.Response {
	s.t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	return res
}

// call makes a request and returns its status and decoded JSON body.
func (s *service) call(method, path, token, body string) (int, map[string]any) {
	s.t.Helper()
	res := s.do(method, path, token, body)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		s.t.Fatalf("%s %s: status %d, body not JSON: %q", method, path, res.StatusCode, b)
	}
	return res.StatusCode, v
}

// created is a race made through the API.
type created struct {
	ID, Host, Spectator string
	Seats               []string // tokens, by seat from 0
}

func (s *service) create(body string) created {
	s.t.Helper()
	status, v := s.call("POST", "/api/races", "", body)
	if status != http.StatusCreated {
		s.t.Fatalf("creating a race: status %d: %v", status, v)
	}
	c := created{ID: v["id"].(string), Host: v["host_token"].(string)}
	var req struct{ Ruleset, Track string }
	_ = json.Unmarshal([]byte(body), &req)
	if rs, err := race.Lookup(req.Ruleset); err == nil && req.Track == "" && v["track"] != rs.Game().Tracks[0].ID || req.Track != "" && v["track"] != req.Track {
		s.t.Fatalf("the race was made on track %v; want the one given (%q) or the game's first", v["track"], req.Track)
	}
	if tok, ok := v["spectator_token"].(string); ok {
		c.Spectator = tok
	}
	for i, x := range v["seats"].([]any) {
		m := x.(map[string]any)
		if int(m["seat"].(float64)) != i+1 {
			s.t.Fatalf("seat %d is numbered %v", i+1, m["seat"])
		}
		c.Seats = append(c.Seats, m["token"].(string))
	}
	return c
}

const twoCars = `{"ruleset": "nascar", "seats": [{"name": "Red", "upgrade": "turbo"}, {"name": "Blue"}]}`

func TestCreateSubmitResolve(t *testing.T) {
	s := newService(t)
	c := s.create(twoCars)
	if len(c.Seats) != 2 || c.Spectator != "" {
		t.Fatalf("a public race of two: %+v", c)
	}
	status, v := s.call("GET", "/api/races/"+c.ID, "", "")
	if status != 200 || v["turn"] != 1.0 || v["over"] != false || v["viewer"] != "spectator" {
		t.Fatalf("a spectator's view: %d %v", status, v)
	}
	if _, ok := v["my_orders"]; ok {
		t.Errorf("a spectator's view has my_orders: %v", v)
	}
	order := `{"turn": 1, "orders": "AM", "key": "red-1"}`
	status, v = s.call("POST", "/api/races/"+c.ID+"/orders", c.Seats[0], order)
	if status != 200 || v["ok"] != true || v["turn"] != 1.0 || v["seat"] != 1.0 || v["racer"] != "Red" || v["orders"] != "AM" || v["repeat"] != false {
		t.Fatalf("an order: %d %v", status, v)
	}
	status, v = s.call("POST", "/api/races/"+c.ID+"/orders", c.Seats[0], order)
	if status != 200 || v["repeat"] != true || v["orders"] != "AM" {
		t.Fatalf("the order again with its key: %d %v", status, v)
	}
	// what each viewer sees of the order in
	for _, tc := range []struct {
		who, token string
		mine       any
	}{{"Red", c.Seats[0], "AM"}, {"Blue", c.Seats[1], ""}, {"the host", c.Host, nil}, {"a spectator", "", nil}} {
		_, v := s.call("GET", "/api/races/"+c.ID, tc.token, "")
		if got, ok := v["my_orders"]; tc.mine == nil && ok || tc.mine != nil && got != tc.mine {
			t.Errorf("%s's view: my_orders %v, want %v", tc.who, got, tc.mine)
		}
		seats := v["seats"].([]any)
		if in := seats[0].(map[string]any)["orders_in"]; in != true {
			t.Errorf("%s's view: Red's orders_in %v, want true", tc.who, in)
		}
		if in := seats[1].(map[string]any)["orders_in"]; in != false {
			t.Errorf("%s's view: Blue's orders_in %v, want false", tc.who, in)
		}
	}
	status, v = s.call("POST", "/api/races/"+c.ID+"/orders", c.Seats[1], `{"turn": 1, "orders": "XYZ"}`)
	if status != 422 || v["field"] != "orders" || v["code"] != "unknown_letter" || !strings.Contains(v["error"].(string), "'X'") {
		t.Errorf("an order the rules refuse: %d %v", status, v)
	}
	status, v = s.call("POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 2}`)
	if status != 422 {
		t.Errorf("resolving a turn not open: %d %v", status, v)
	}
	status, v = s.call("POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
	if status != 200 || v["resolved"] != true || v["turn"] != 1.0 {
		t.Fatalf("resolving turn 1: %d %v", status, v)
	}
	status, v = s.call("POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
	if status != 200 || v["resolved"] != false || v["turn"] != 1.0 {
		t.Errorf("resolving turn 1 again: %d %v", status, v)
	}
	status, v = s.call("POST", "/api/races/"+c.ID+"/orders", c.Seats[1], `{"turn": 1, "orders": "M"}`)
	if status != 409 || v["code"] != "turn_closed" || v["field"] != "turn" || !strings.Contains(v["error"].(string), "turn 2 is open") {
		t.Errorf("an order for a closed turn: %d %v", status, v)
	}
	if _, v = s.call("GET", "/api/races/"+c.ID, "", ""); v["turn"] != 2.0 || v["turns_resolved"] != 1.0 {
		t.Errorf("after the resolve: %v", v)
	}
}

func TestBadInput(t *testing.T) {
	s := newService(t)
	c := s.create(twoCars)
	big := `{"ruleset": "nascar", "track": "` + strings.Repeat("x", maxBody) + `"}`
	for _, tc := range []struct {
		what, method, path, token, body string
		status                          int
		code, field                     string
	}{
		{"an unknown field", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": [{"name": "A"}], "colour": "red"}`, 400, "bad_json", "colour"},
		{"a wrong type", "POST", "/api/races", "", `{"ruleset": 7}`, 400, "bad_json", "ruleset"},
		{"two documents", "POST", "/api/races", "", `{"ruleset": "nascar"} {}`, 400, "bad_json", ""},
		{"no body", "POST", "/api/races", "", ``, 400, "bad_json", ""},
		{"too large", "POST", "/api/races", "", big, 400, "too_large", ""},
		{"an unknown game", "POST", "/api/races", "", `{"ruleset": "chess", "seats": [{"name": "A"}]}`, 422, "bad_input", "ruleset"},
		{"no seats", "POST", "/api/races", "", `{"ruleset": "nascar"}`, 422, "bad_input", "seats"},
		{"a seat without a name", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": [{"upgrade": "turbo"}]}`, 422, "bad_input", "seats[0].name"},
		{"an unknown choice", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": [{"name": "A", "engine": "v8"}]}`, 422, "bad_input", "seats[0].engine"},
		{"a bad choice", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": [{"name": "A", "upgrade": "wings"}, {"name": "B"}]}`, 422, "bad_input", "seats[0]"},
		{"too few seats", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": [{"name": "A"}]}`, 422, "bad_input", "seats"},
		{"an unknown track", "POST", "/api/races", "", `{"ruleset": "nascar", "track": "moon", "seats": [{"name": "A"}, {"name": "B"}]}`, 422, "bad_input", ""},
		{"negative laps", "POST", "/api/races", "", `{"ruleset": "nascar", "laps": -1, "seats": [{"name": "A"}, {"name": "B"}]}`, 422, "bad_input", ""},
		{"an unknown option", "POST", "/api/races", "", `{"ruleset": "nascar", "options": {"gravity": "low"}, "seats": [{"name": "A"}, {"name": "B"}]}`, 422, "bad_input", ""},
		{"a seat that is not an object", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": ["A", "B"]}`, 400, "bad_json", "seats"},
		{"a nested choice", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": [{"name": "A", "upgrade": {"x": 1}}, {"name": "B"}]}`, 422, "bad_input", "seats[0].upgrade"},
		{"a bad resolve_when", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": [{"name": "A"}], "resolve_when": "soon"}`, 422, "bad_input", "resolve_when"},
		{"no turn", "POST", "/api/races/" + c.ID + "/orders", c.Seats[0], `{"orders": "M"}`, 422, "bad_input", "turn"},
		{"turn 0", "POST", "/api/races/" + c.ID + "/orders", c.Seats[0], `{"turn": 0, "orders": "M"}`, 422, "bad_input", "turn"},
		{"no orders", "POST", "/api/races/" + c.ID + "/orders", c.Seats[0], `{"turn": 1}`, 422, "bad_input", "orders"},
		{"a long key", "POST", "/api/races/" + c.ID + "/orders", c.Seats[0], `{"turn": 1, "orders": "M", "key": "` + strings.Repeat("k", 201) + `"}`, 422, "bad_input", "key"},
		{"a key of the service's", "POST", "/api/races/" + c.ID + "/orders", c.Seats[0], `{"turn": 1, "orders": "M", "key": "pitwall-bot-t1-1"}`, 422, "bad_input", "key"},
		{"a player's second car with a choice", "POST", "/api/races", "", `{"ruleset": "nascar", "seats": [{"name": "A", "player": "P"}, {"name": "B", "player": "P", "upgrade": "turbo"}, {"name": "C"}]}`, 422, "bad_input", "seats[0]"},
		{"a key one longer than kept", "POST", "/api/races/" + c.ID + "/ready", c.Seats[0], `{"turn": 1, "ready": true, "key": "` + strings.Repeat("k", host.MaxKey+1) + `"}`, 422, "bad_input", "key"},
		{"orders in a resolve", "POST", "/api/races/" + c.ID + "/resolve", c.Host, `{"turn": 1, "orders": "M"}`, 422, "bad_input", "orders"},
		{"a ready mark in a resolve", "POST", "/api/races/" + c.ID + "/resolve", c.Host, `{"turn": 1, "ready": true}`, 422, "bad_input", "ready"},
		{"a ready mark in an order", "POST", "/api/races/" + c.ID + "/orders", c.Seats[0], `{"turn": 1, "orders": "M", "ready": true}`, 422, "bad_input", "ready"},
		{"no ready mark", "POST", "/api/races/" + c.ID + "/ready", c.Seats[0], `{"turn": 1}`, 422, "bad_input", "ready"},
		{"orders in a ready mark", "POST", "/api/races/" + c.ID + "/ready", c.Seats[0], `{"turn": 1, "ready": true, "orders": "M"}`, 422, "bad_input", "orders"},
		{"a ready mark not a bool", "POST", "/api/races/" + c.ID + "/ready", c.Seats[0], `{"turn": 1, "ready": "yes"}`, 400, "bad_json", "ready"},
		{"a ready mark for a turn to come", "POST", "/api/races/" + c.ID + "/ready", c.Seats[0], `{"turn": 2, "ready": true}`, 422, "bad_input", ""},
		{"no such race", "GET", "/api/races/nowhere", "", ``, 404, "no_such_race", ""},
		{"no such endpoint", "GET", "/api/nothing", "", ``, 404, "no_such_endpoint", ""},
	} {
		status, v := s.call(tc.method, tc.path, tc.token, tc.body)
		if status != tc.status || v["code"] != tc.code || (tc.field != "" && v["field"] != tc.field) || v["error"] == "" {
			t.Errorf("%s: %d %v; want %d, code %s, field %q", tc.what, status, v, tc.status, tc.code, tc.field)
		}
	}
	req, _ := http.NewRequest("GET", s.url+"/api/races/"+c.ID, nil)
	req.Header.Set("Authorization", "Basic abc")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Errorf("a Basic Authorization header: %d, want 401", res.StatusCode)
	}
	// Nothing refused was stored: the race's log is as created.
	if _, v := s.call("GET", "/api/races/"+c.ID, c.Host, ""); v["entries"] != 0.0 {
		t.Errorf("refused requests stored entries: %v", v["entries"])
	}
}

// A player's choices may come with any of the player's seats.
func TestPlayerOfTwoSeats(t *testing.T) {
	s := newService(t)
	status, v := s.call("POST", "/api/races", "", `{"ruleset": "ludi", "seats": [{"name": "Marcus Aurelius", "player": "Marcus"},
		{"name": "Marcus Minor", "player": "Marcus", "package": "trader", "extras": "skill,speed"},
		{"name": "Livia Drusilla", "package": "noble", "extras": "endurance,size"}]}`)
	if status != 201 || len(v["seats"].([]any)) != 3 {
		t.Fatalf("%d %v", status, v)
	}
}

// A panic in a handler is answered as the service's own failure, a 500 in
// JSON, and logged; the service goes on.
func TestPanicAnswered(t *testing.T) {
	s := newService(t)
	s.srv.mux.HandleFunc("GET /panic", func(http.ResponseWriter, *http.Request) { panic("a bug") })
	if status, v := s.call("GET", "/panic", "", ""); status != 500 || v["code"] != "internal" {
		t.Errorf("a panic: %d %v", status, v)
	}
	if status, _ := s.call("GET", "/healthz", "", ""); status != 200 {
		t.Errorf("after a panic, healthz: %d", status)
	}
}

// TestAuthorisation tries every endpoint as every kind of caller.
func TestAuthorisation(t *testing.T) {
	s := newService(t)
	pub := s.create(twoCars)
	priv := s.create(`{"ruleset": "nascar", "public": false, "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	if priv.Spectator == "" {
		t.Fatal("a private race came without a spectator link")
	}
	other := s.create(twoCars)
	revoked := priv.Seats[1]
	if err := s.srv.access.RevokeToken(t.Context(), priv.ID, hashToken(revoked), s.srv.host.Now()); err != nil {
		t.Fatal(err)
	}
	// An invite of a race made with its seats: it opens nothing, and its
	// join finds the race started.
	invite := "an invite link of a race not by invite"
	inv := store.Token{Hash: hashToken(invite), Race: priv.ID, Role: store.RoleInvite, Seat: -1, Created: s.srv.host.Now()}
	if err := s.srv.access.AddTokens(t.Context(), priv.ID, []store.Token{inv}); err != nil {
		t.Fatal(err)
	}
	callers := []struct{ name, token string }{
		{"anonymous", ""}, {"spectator", priv.Spectator}, {"other race's seat", other.Seats[0]},
		{"racer", priv.Seats[0]}, {"host", priv.Host}, {"revoked", revoked}, {"unknown", "not-a-token"}, {"invite", invite},
	}
	// want[endpoint][caller] for the private race
	want := map[string][]int{
		"GET race":      {401, 200, 403, 200, 200, 401, 401, 403},
		"POST orders":   {401, 403, 403, 200, 403, 401, 401, 403},
		"POST ready":    {401, 403, 403, 200, 403, 401, 401, 403},
		"POST schedule": {401, 403, 403, 403, 200, 401, 401, 403},
		"POST resolve":  {401, 403, 403, 403, 200, 401, 401, 403},
		"GET events":    {401, 200, 403, 200, 200, 401, 401, 403},
		"POST bot":      {401, 403, 403, 403, 200, 401, 401, 403},
		"POST pause":    {401, 403, 403, 403, 200, 401, 401, 403},
		"POST resume":   {401, 403, 403, 403, 200, 401, 401, 403},
		"POST repeat":   {401, 403, 403, 403, 200, 401, 401, 403},
		"GET links":     {401, 403, 403, 403, 200, 401, 401, 403},
		"POST links":    {401, 403, 403, 403, 201, 401, 401, 403},
		"POST revoke":   {401, 403, 403, 403, 200, 401, 401, 403},
		"POST remove":   {401, 403, 403, 403, 200, 401, 401, 403},
		"POST start":    {401, 403, 403, 403, 200, 401, 401, 403},
		"POST join":     {401, 403, 403, 403, 403, 401, 401, 409}, // started when made
		"POST withdraw": {401, 403, 403, 409, 403, 401, 401, 403}, // started: the host removes
		"GET post":      {401, 200, 403, 200, 200, 401, 401, 403},
		"GET picture":   {401, 200, 403, 200, 200, 401, 401, 403},
		"GET replay":    {401, 200, 403, 200, 200, 401, 401, 403},
		"GET export":    {401, 200, 403, 200, 200, 401, 401, 403},
		"POST verify":   {200, 200, 200, 200, 200, 200, 200, 200}, // reads no token
	}
	extra := store.Token{Hash: hashToken("an extra spectator link"), Race: priv.ID, Role: store.RoleSpectator, Seat: -1, Created: s.srv.host.Now()}
	if err := s.srv.access.AddTokens(t.Context(), priv.ID, []store.Token{extra}); err != nil {
		t.Fatal(err)
	}
	for _, ep := range []string{"GET race", "POST orders", "POST ready", "POST schedule", "POST resolve", "GET events",
		"POST bot", "POST pause", "POST resume", "POST repeat", "GET links", "POST links", "POST revoke", "POST remove",
		"POST start", "POST join", "POST withdraw", "GET post", "GET picture", "GET replay", "GET export", "POST verify"} {
		for i, cl := range callers {
			status := s.status(ep, priv.ID, cl.token)
			if status != want[ep][i] {
				t.Errorf("%s of a private race as %s: %d, want %d", ep, cl.name, status, want[ep][i])
			}
		}
	}
	// A public race: anyone watches; writes still need their token.
	for ep, want := range map[string]int{"GET race": 200, "GET events": 200, "POST orders": 401, "POST ready": 401, "POST schedule": 401, "POST resolve": 401,
		"GET post": 200, "GET picture": 200, "GET replay": 200, "GET export": 200, "POST verify": 200} {
		if got := s.status(ep, pub.ID, ""); got != want {
			t.Errorf("%s of a public race, anonymous: %d, want %d", ep, got, want)
		}
	}
}

// status makes one endpoint's request (a valid one, when allowed) and
// returns its status.
func (s *service) status(ep, id, token string) int {
	s.t.Helper()
	var method, path, body string
	switch ep {
	case "GET race":
		method, path = "GET", "/api/races/"+id
	case "POST orders":
		method, path, body = "POST", "/api/races/"+id+"/orders", `{"turn": 1, "orders": "AM"}`
	case "POST ready":
		method, path, body = "POST", "/api/races/"+id+"/ready", `{"turn": 1, "ready": true}`
	case "POST schedule":
		method, path, body = "POST", "/api/races/"+id+"/schedule", `{"turn": 1, "deadline": "`+time.Now().Add(time.Hour).Format(time.RFC3339)+`"}`
	case "POST resolve":
		method, path, body = "POST", "/api/races/"+id+"/resolve", `{"turn": 1}`
	case "GET events":
		method, path = "GET", "/api/races/"+id+"/events"
	case "POST bot":
		method, path, body = "POST", "/api/races/"+id+"/bot", `{"seat": 2, "bot": true}`
	case "POST pause", "POST resume":
		method, path, body = "POST", "/api/races/"+id+"/"+strings.TrimPrefix(ep, "POST "), `{}`
	case "POST repeat":
		method, path, body = "POST", "/api/races/"+id+"/repeat", `{"every": "48h"}`
	case "GET links":
		method, path = "GET", "/api/races/"+id+"/links"
	case "POST remove":
		method, path, body = "POST", "/api/races/"+id+"/remove", `{"seat": 2}`
	case "POST join":
		method, path, body = "POST", "/api/races/"+id+"/join", `{"name": "Newcomer"}`
	case "POST withdraw", "POST start":
		method, path, body = "POST", "/api/races/"+id+"/"+strings.TrimPrefix(ep, "POST "), `{}`
	case "POST links":
		method, path, body = "POST", "/api/races/"+id+"/links", `{"role": "spectator"}`
	case "POST revoke":
		method, path = "POST", "/api/races/"+id+"/links/"+hashToken("an extra spectator link")[:12]+"/revoke"
	case "GET post", "GET picture", "GET replay", "GET export":
		method, path = "GET", "/api/races/"+id+"/"+strings.TrimPrefix(ep, "GET ")
	case "POST verify":
		x, err := s.srv.host.Export(s.t.Context(), id)
		if err != nil {
			s.t.Fatal(err)
		}
		b, _ := json.Marshal(x)
		method, path, body = "POST", "/api/verify", string(b)
	}
	res := s.do(method, path, token, body)
	res.Body.Close() // a stream ends here
	return res.StatusCode
}

// event is one server-sent event.
type event struct{ id, name, data string }

// readEvents reads n events from a stream.
func readEvents(t *testing.T, r io.Reader, n int) []event {
	t.Helper()
	var out []event
	var e event
	sc := bufio.NewScanner(r)
	for len(out) < n && sc.Scan() { // not one line more: the next may be a heartbeat away
		line := sc.Text()
		switch {
		case line == "":
			if e.name != "" {
				out = append(out, e)
			}
			e = event{}
		case strings.HasPrefix(line, "id: "):
			e.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			e.name = line[7:]
		case strings.HasPrefix(line, "data: "):
			e.data = line[6:]
		}
	}
	return out
}

func TestStream(t *testing.T) {
	s := newService(t)
	c := s.create(twoCars)
	req, _ := http.NewRequest("GET", s.url+"/api/races/"+c.ID+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		s.call("POST", "/api/races/"+c.ID+"/orders", c.Seats[0], `{"turn": 1, "orders": "AM"}`)
		s.call("POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
		s.call("POST", "/api/races/"+c.ID+"/ready", c.Seats[1], `{"turn": 2, "ready": true}`)
	})
	got := readEvents(t, res.Body, 3)
	wg.Wait()
	want := []event{{"1", "orders_in", `{"seat":1,"turn":1}`}, {"2", "turn", `{"turn":1}`}, {"3", "ready", `{"ready":true,"seat":2,"turn":2}`}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the stream: %v, want %v", got, want)
	}
	for _, e := range got {
		if strings.Contains(e.data, "AM") {
			t.Errorf("the stream told the orders: %v", e)
		}
	}
	// Resuming after event 1 gives event 2 again, from the log.
	req, _ = http.NewRequest("GET", s.url+"/api/races/"+c.ID+"/events", nil)
	req.Header.Set("Last-Event-ID", "1")
	res2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res2.Body.Close()
	if got := readEvents(t, res2.Body, 2); fmt.Sprint(got) != fmt.Sprint(want[1:]) {
		t.Errorf("resumed after 1: %v, want %v", got, want[1:])
	}
	req.Header.Set("Last-Event-ID", "yesterday")
	res3, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res3.Body.Close()
	if res3.StatusCode != 422 {
		t.Errorf("a bad Last-Event-ID: %d", res3.StatusCode)
	}
}

// TestResolveWhen: a race resolves its turn early as it chose, and only then.
func TestResolveWhen(t *testing.T) {
	s := newService(t)
	races := map[string]created{}
	for _, when := range []string{"deadline", "ready", "all_in"} {
		races[when] = s.create(`{"ruleset": "nascar", "resolve_when": "` + when + `", "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	}
	turn := func(c created) (float64, []any) {
		_, v := s.call("GET", "/api/races/"+c.ID, "", "")
		return v["turn"].(float64), v["seats"].([]any)
	}
	step := func(c created, seat int, path, body string) {
		t.Helper()
		if status, v := s.call("POST", "/api/races/"+c.ID+path, c.Seats[seat], body); status != 200 {
			t.Fatalf("%s: %d %v", path, status, v)
		}
	}
	for when, c := range races {
		// Both orders in, one seat ready (and one mark taken back).
		step(c, 0, "/orders", `{"turn": 1, "orders": "AM"}`)
		step(c, 1, "/ready", `{"turn": 1, "ready": true}`)
		step(c, 1, "/ready", `{"turn": 1, "ready": false}`)
		step(c, 0, "/ready", `{"turn": 1, "ready": true}`)
		step(c, 1, "/orders", `{"turn": 1, "orders": "AM"}`)
		n, seats := turn(c)
		wantTurn := map[string]float64{"deadline": 1, "ready": 1, "all_in": 2}[when]
		if n != wantTurn {
			t.Errorf("resolve_when %s, both orders in and one seat ready: turn %v, want %v", when, n, wantTurn)
		}
		if n == 1 {
			for i, want := range []bool{true, false} {
				if got := seats[i].(map[string]any)["ready"]; got != want {
					t.Errorf("resolve_when %s: seat %d ready %v, want %v", when, i+1, got, want)
				}
			}
		}
	}
	for when, c := range races {
		if n, _ := turn(c); n == 2 {
			continue
		}
		step(c, 1, "/ready", `{"turn": 1, "ready": true}`)
		n, seats := turn(c)
		wantTurn := map[string]float64{"deadline": 1, "ready": 2}[when]
		if n != wantTurn {
			t.Errorf("resolve_when %s, every seat ready: turn %v, want %v", when, n, wantTurn)
		}
		if n == 2 { // the new turn's marks start afresh
			for i, x := range seats {
				if m := x.(map[string]any); m["ready"] != false || m["orders_in"] != false {
					t.Errorf("resolve_when %s, turn 2: seat %d %v", when, i+1, m)
				}
			}
		}
	}
	// A mark for the turn just resolved by everyone's marks is too late.
	if status, v := s.call("POST", "/api/races/"+races["ready"].ID+"/ready", races["ready"].Seats[0], `{"turn": 1, "ready": false}`); status != 409 || v["code"] != "turn_closed" {
		t.Errorf("a mark for a closed turn: %d %v", status, v)
	}
}

// TestConcurrentResolves: many hosts' calls for one turn resolve it once.
func TestConcurrentResolves(t *testing.T) {
	s := newService(t)
	c := s.create(twoCars)
	const n = 8
	var mu sync.Mutex
	resolved := 0
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			status, v := s.call("POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
			if status != 200 {
				t.Errorf("a resolve: %d %v", status, v)
			}
			if v["resolved"] == true {
				mu.Lock()
				resolved++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if resolved != 1 {
		t.Errorf("%d calls resolved turn 1 %d times; want once", n, resolved)
	}
}

// TestRacePages: GET /api/races gives the public races newest first, a
// page at a time: every public race once, whatever the page's size and
// however many private races lie between, and the home page links the next.
func TestRacePages(t *testing.T) {
	s := newService(t)
	var public []string // newest first
	for i := range 7 {
		c := s.create(twoCars)
		public = append([]string{c.ID}, public...)
		for range i % 3 { // private races between the public ones
			s.create(`{"ruleset": "nascar", "public": false, "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
		}
	}
	for _, limit := range []int{1, 2, 3, 7, 8, 200} {
		var walked []string
		path := fmt.Sprintf("/api/races?limit=%d", limit)
		for pages := 0; path != ""; pages++ {
			if pages > len(public) {
				t.Fatalf("limit %d: more pages than races", limit)
			}
			v := s.must(200, "GET", path, "", "")
			races := v["races"].([]any)
			if len(races) > limit {
				t.Fatalf("%s gave %d races", path, len(races))
			}
			for _, x := range races {
				walked = append(walked, x.(map[string]any)["id"].(string))
			}
			path = ""
			if next, _ := v["next"].(string); next != "" {
				path = fmt.Sprintf("/api/races?limit=%d&after=%s", limit, next)
			}
		}
		if !slices.Equal(walked, public) {
			t.Errorf("limit %d walked %v; want %v", limit, walked, public)
		}
	}
	for _, q := range []string{"limit=0", "limit=201", "limit=ten", "after=***", "after=bm90IGEgY3Vyc29y"} {
		if status, v := s.call("GET", "/api/races?"+q, "", ""); status != 400 && status != 422 || v["field"] == nil {
			t.Errorf("GET /api/races?%s: %d %v; want a 4xx naming its field", q, status, v)
		}
	}
	res, err := http.Get(s.url + "/?limit=2")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !bytes.Contains(b, []byte(public[0])) || bytes.Contains(b, []byte(public[2])) || !bytes.Contains(b, []byte(`Older races`)) {
		t.Errorf("the home page of two races:\n%s", b)
	}
}

func TestHomeAndHealth(t *testing.T) {
	s := newService(t)
	pub := s.create(twoCars)
	priv := s.create(`{"ruleset": "nascar", "public": false, "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	res, err := http.Get(s.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !bytes.Contains(b, []byte(pub.ID)) || bytes.Contains(b, []byte(priv.ID)) || !bytes.Contains(b, []byte(`name="viewport"`)) {
		t.Errorf("the home page lists the public race only, for phones too:\n%s", b)
	}
	races := s.must(200, "GET", "/api/races", "", "")["races"].([]any)
	if len(races) != 1 || races[0].(map[string]any)["id"] != pub.ID {
		t.Errorf("GET /api/races: %v; want the public race only", races)
	}
	if status, _ := s.call("GET", "/healthz", "", ""); status != 200 {
		t.Errorf("healthz: %d", status)
	}
	s.srv.SetReady(false)
	if status, _ := s.call("GET", "/healthz", "", ""); status != 503 {
		t.Errorf("healthz while not ready: %d", status)
	}
	res, err = http.Get(s.url + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil || doc["openapi"] != "3.1.0" {
		t.Errorf("openapi.json: %v %v", err, doc["openapi"])
	}
	res.Body.Close()
}

// TestBrokenBody: a body that cannot be read (a chunk that is not one) is
// the client's mistake, a 400, on every endpoint with a body.
func TestBrokenBody(t *testing.T) {
	s := newService(t)
	c := s.create(twoCars)
	for _, path := range []string{"/api/verify", "/api/races/" + c.ID + "/orders"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: pitwall\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n", path, c.Seats[0])
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		conn.Close()
		if res.StatusCode != 400 || !strings.Contains(string(b), "bad_json") {
			t.Errorf("%s with a broken chunk: %d %s; want 400 bad_json", path, res.StatusCode, b)
		}
	}
}
