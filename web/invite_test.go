package web

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"pitwall/host"
	"pitwall/store"
)

// invited is a race by invite made through the API.
type invited struct {
	ID, Host, Spectator, Invite string
	Racers                      map[string]string // the links given at its making, by racer
}

func (s *service) createInvite(body string) invited {
	s.t.Helper()
	v := s.must(http.StatusCreated, "POST", "/api/races", "", body)
	c := invited{ID: v["id"].(string), Host: v["host_token"].(string), Racers: map[string]string{}}
	c.Invite, _ = v["invite_token"].(string)
	c.Spectator, _ = v["spectator_token"].(string)
	if c.Invite == "" || v["invite"] != true {
		s.t.Fatalf("a race by invite came without its invite: %v", v)
	}
	for _, x := range v["seats"].([]any) {
		m := x.(map[string]any)
		if m["seat"] != nil {
			s.t.Fatalf("a seat of a race by invite is numbered before its start: %v", m)
		}
		c.Racers[m["name"].(string)] = m["token"].(string)
	}
	return c
}

// joinAs joins race id with the invite: the racer's link.
func (s *service) joinAs(id, invite, body string) string {
	s.t.Helper()
	v := s.must(http.StatusCreated, "POST", "/api/races/"+id+"/join", invite, body)
	return v["link"].(map[string]any)["token"].(string)
}

// seatNamed is the seat (from 1) race id's host sees racer in.
func (s *service) seatNamed(id, host, racer string) float64 {
	s.t.Helper()
	v := s.must(200, "GET", "/api/races/"+id, host, "")
	for _, x := range v["seats"].([]any) {
		if m := x.(map[string]any); m["name"] == racer {
			return m["seat"].(float64)
		}
	}
	s.t.Fatalf("no seat of %s holds %s: %v", id, racer, v["seats"])
	return 0
}

// TestInviteJoinStart: racers join by invite until the host starts the
// race; a repeated join is one join and gives no second link; a name is
// one racer's; a racer withdraws with its own link before the start; the
// start is refused with too few entrants and done once; joins after it are
// refused; and every link made before the start (at the race's making or
// a join) opens the seat of its racer, wherever the start put it.
func TestInviteJoinStart(t *testing.T) {
	s := newService(t)
	c := s.createInvite(`{"ruleset": "nascar", "invite": true, "public": false, "resolve_when": "all_in", "seats": [{"name": "Red", "upgrade": "turbo"}]}`)
	path := "/api/races/" + c.ID
	v := s.must(200, "GET", path, c.Host, "")
	if v["started"] != false || len(v["entrants"].([]any)) != 1 || v["viewer"] != "host" {
		t.Fatalf("a race by invite before its start, as its host sees it: %v", v)
	}
	if v := s.must(200, "GET", path, c.Spectator, ""); v["started"] != false || v["viewer"] != "spectator" {
		t.Errorf("as a spectator sees it: %v", v)
	}
	if status, v := s.call("POST", path+"/start", c.Host, `{}`); status != 422 || v["code"] != "race_forming" {
		t.Errorf("a start with one car: %d %v, want 422 race_forming", status, v)
	}
	// Joins: Green joins and withdraws, which moves Gold up a seat.
	green := s.joinAs(c.ID, c.Invite, `{"name": "Green", "player": "Gus", "key": "j-green"}`)
	blue := s.joinAs(c.ID, c.Invite, `{"name": "Blue", "upgrade": "swaybars", "key": "j-blue"}`)
	if v := s.must(200, "POST", path+"/join", c.Invite, `{"name": "Blue", "upgrade": "swaybars", "key": "j-blue"}`); v["repeat"] != true || v["link"] != nil {
		t.Errorf("a join repeated with its key: %v; want a repeat and no second link", v)
	}
	if status, v := s.call("POST", path+"/join", c.Invite, `{"name": "blue", "player": "Bea"}`); status != 409 || v["code"] != "name_taken" {
		t.Errorf("a racer's name taken: %d %v, want 409 name_taken", status, v)
	}
	if status, v := s.call("POST", path+"/join", c.Invite, `{"name": "Pink", "wings": "yes"}`); status != 422 || v["field"] != "wings" {
		t.Errorf("a choice the game has not: %d %v, want 422 on wings", status, v)
	}
	if v := s.must(200, "GET", path, blue, ""); v["viewer"] != "racer" || v["my_racer"] != "Blue" || len(v["entrants"].([]any)) != 3 {
		t.Errorf("a racer's own view before the start: %v", v)
	}
	if status, v := s.call("POST", path+"/orders", blue, `{"turn": 1, "orders": "AM"}`); status != 409 || v["code"] != "not_started" {
		t.Errorf("orders before the start: %d %v, want 409 not_started", status, v)
	}
	if status, v := s.call("POST", path+"/resolve", c.Host, `{"turn": 1}`); status != 409 || v["code"] != "not_started" {
		t.Errorf("a resolve before the start: %d %v, want 409 not_started", status, v)
	}
	if status, _ := s.call("GET", path+"/picture", blue, ""); status != 409 {
		t.Errorf("a picture before the start: %d, want 409", status)
	}
	if v := s.must(200, "POST", path+"/withdraw", green, `{"key": "w-green"}`); v["withdrawn"] != true || len(v["revoked"].([]any)) != 1 {
		t.Errorf("Green withdraws: %v", v)
	}
	if status, v := s.call("GET", path, green, ""); status != 401 || v["code"] != "revoked" {
		t.Errorf("a withdrawn racer's link: %d %v, want 401 revoked", status, v)
	}
	// A withdrawal cut short after it was logged leaves its link open: the
	// name waits until a retry revokes it.
	teal := s.joinAs(c.ID, c.Invite, `{"name": "Teal"}`)
	if _, err := s.srv.host.Withdraw(t.Context(), c.ID, "Teal", host.Req{}); err != nil {
		t.Fatal(err)
	}
	if status, v := s.call("POST", path+"/join", c.Invite, `{"name": "Teal"}`); status != 409 || v["code"] != "name_taken" {
		t.Errorf("a name whose withdrawn racer's link is open: %d %v, want 409 name_taken", status, v)
	}
	if v := s.must(200, "POST", path+"/withdraw", teal, `{}`); v["withdrawn"] != false || len(v["revoked"].([]any)) != 1 {
		t.Errorf("the withdrawal retried: %v; want the link revoked and nothing more withdrawn", v)
	}
	gold := s.joinAs(c.ID, c.Invite, `{"name": "Gold"}`)
	green2 := s.joinAs(c.ID, c.Invite, `{"name": "Green", "player": "Gwen"}`) // the name is free again
	// The host makes another link for Red before the start: by racer.
	if status, v := s.call("POST", path+"/links", c.Host, `{"role": "seat", "seat": 1}`); status != 422 || v["field"] != "racer" {
		t.Errorf("a seat's link by number before the start: %d %v", status, v)
	}
	red := s.must(201, "POST", path+"/links", c.Host, `{"role": "seat", "racer": "Red", "replace": true}`)
	if len(red["revoked"].([]any)) != 1 {
		t.Errorf("Red's link replaced before the start revoked %v", red["revoked"])
	}
	racers := map[string]string{"Red": red["link"].(map[string]any)["token"].(string), "Blue": blue, "Gold": gold, "Green": green2}
	if status, _ := s.call("GET", path, c.Racers["Red"], ""); status != 401 {
		t.Errorf("Red's replaced link: %d, want 401", status)
	}
	// The start, once.
	log := func() int { return int(s.must(200, "GET", path, c.Host, "")["entries"].(float64)) }
	n := log()
	v = s.must(200, "POST", path+"/start", c.Host, `{"key": "s1"}`)
	if v["now"] != true || len(v["seats"].([]any)) != 4 {
		t.Fatalf("the start: %v", v)
	}
	for _, body := range []string{`{"key": "s1"}`, `{}`} {
		if v := s.must(200, "POST", path+"/start", c.Host, body); v["now"] != false {
			t.Errorf("a start again (%s): %v", body, v)
		}
	}
	if got := log(); got != n+1 {
		t.Errorf("the starts logged %d entries, want 1", got-n)
	}
	if status, v := s.call("POST", path+"/join", c.Invite, `{"name": "Late"}`); status != 409 || v["code"] != "race_started" {
		t.Errorf("a join after the start: %d %v, want 409 race_started", status, v)
	}
	if status, v := s.call("POST", path+"/withdraw", blue, `{}`); status != 409 || v["code"] != "race_started" {
		t.Errorf("a withdrawal after the start: %d %v, want 409 race_started", status, v)
	}
	// Each racer's link opens its racer's seat: Gold joined fourth and races in seat 3.
	if got := s.seatNamed(c.ID, c.Host, "Gold"); got != 3 {
		t.Errorf("Gold is in seat %v, want 3 (Green's withdrawal moved it up)", got)
	}
	for name, tok := range racers {
		want := s.seatNamed(c.ID, c.Host, name)
		if v := s.must(200, "GET", path, tok, ""); v["viewer"] != fmt.Sprintf("seat %d", int(want)) || v["started"] != true {
			t.Errorf("%s's link after the start: viewer %v, want seat %v", name, v["viewer"], want)
		}
		if v := s.must(200, "POST", path+"/orders", tok, `{"turn": 1, "orders": "AM", "key": "o-`+name+`"}`); v["seat"] != want || v["racer"] != name {
			t.Errorf("%s's orders went to %v (%v), want seat %v", name, v["seat"], v["racer"], want)
		}
	}
	if turn, _, _ := s.seatsOf(created{ID: c.ID, Host: c.Host}); turn != 2 {
		t.Errorf("every racer in, resolving when all are in: turn %v open, want 2", turn)
	}
	links := s.must(200, "GET", path+"/links", c.Host, "")["links"].([]any)
	roles := map[string]int{}
	for _, l := range links {
		m := l.(map[string]any)
		roles[m["role"].(string)]++
		if m["role"] == store.RoleSeat && m["racer"] == nil {
			t.Errorf("a racer's link made before the start names no racer: %v", m)
		}
	}
	if roles[store.RoleInvite] != 1 || roles[store.RoleSeat] != 7 {
		t.Errorf("the links by role: %v; want an invite and seven racers' (three revoked)", roles)
	}
}

// TestInviteMatrix: who may do what in a race by invite before its start.
// The invite opens the join and nothing else; a racer's link made before
// the start reads the race, withdraws, and may not order yet.
func TestInviteMatrix(t *testing.T) {
	s := newService(t)
	c := s.createInvite(`{"ruleset": "nascar", "invite": true, "public": false, "seats": [{"name": "Red"}, {"name": "Blue"}, {"name": "Gold"}]}`)
	other := s.createInvite(`{"ruleset": "nascar", "invite": true, "seats": [{"name": "Red"}]}`)
	revoked := c.Racers["Blue"]
	if err := s.srv.access.RevokeToken(t.Context(), c.ID, hashToken(revoked), s.srv.host.Now()); err != nil {
		t.Fatal(err)
	}
	callers := []struct{ name, token string }{
		{"anonymous", ""}, {"spectator", c.Spectator}, {"other race's racer", other.Racers["Red"]},
		{"racer", c.Racers["Red"]}, {"host", c.Host}, {"revoked", revoked}, {"invite", c.Invite},
	}
	want := map[string][]int{
		"GET race":      {401, 200, 403, 200, 200, 401, 403},
		"POST orders":   {401, 403, 403, 409, 403, 401, 403},
		"POST resolve":  {401, 403, 403, 403, 409, 401, 403},
		"POST bot":      {401, 403, 403, 403, 409, 401, 403},
		"POST remove":   {401, 403, 403, 403, 409, 401, 403},
		"GET post":      {401, 409, 403, 409, 409, 401, 403},
		"GET links":     {401, 403, 403, 403, 200, 401, 403},
		"POST join":     {401, 403, 403, 403, 403, 401, 201},
		"POST withdraw": {401, 403, 403, 200, 403, 401, 403},
		"POST start":    {401, 403, 403, 401, 200, 401, 403}, // the racer withdrew: its link is revoked
	}
	for _, ep := range []string{"GET race", "POST orders", "POST resolve", "POST bot", "POST remove", "GET post", "GET links", "POST join", "POST withdraw", "POST start"} {
		// In order: Red withdraws, the newcomer joins, and the host starts
		// the race with Blue, Gold and the newcomer.
		for i, cl := range callers {
			if got := s.status(ep, c.ID, cl.token); got != want[ep][i] {
				t.Errorf("%s of a race by invite before its start, as %s: %d, want %d", ep, cl.name, got, want[ep][i])
			}
		}
	}
}

// TestRemoveSeat: a removed racer is not waited for (a race that resolves
// when all are in resolves without it), its links open nothing, its
// orders are refused; a removal repeated with its key is one control; a
// new racer's link gives the seat back to a person, waited for again.
func TestRemoveSeat(t *testing.T) {
	s := newService(t)
	c := s.create(`{"ruleset": "nascar", "resolve_when": "all_in", "seats": [{"name": "Red"}, {"name": "Blue"}, {"name": "Gold"}]}`)
	path := "/api/races/" + c.ID
	extra := s.must(201, "POST", path+"/links", c.Host, `{"role": "seat", "seat": 3}`)["link"].(map[string]any)["token"].(string)
	if status, v := s.call("POST", path+"/remove", c.Host, `{"seat": 4, "key": "r1"}`); status != 422 || v["field"] != "seat" {
		t.Errorf("removing seat 4 of 3: %d %v", status, v)
	}
	v := s.must(200, "POST", path+"/remove", c.Host, `{"seat": 3, "key": "r1"}`)
	if v["seat"] != 3.0 || v["removed"] != true || len(v["revoked"].([]any)) != 2 {
		t.Fatalf("removing seat 3: %v; want its two links revoked", v)
	}
	if v := s.must(200, "POST", path+"/remove", c.Host, `{"seat": 3, "key": "r1"}`); v["removed"] != true {
		t.Errorf("the removal repeated: %v", v)
	}
	if status, v := s.call("POST", path+"/remove", c.Host, `{"seat": 2, "key": "r1"}`); status != 409 || v["code"] != "key_reused" {
		t.Errorf("the removal's key given to another seat: %d %v", status, v)
	}
	cs, err := s.srv.access.Controls(t.Context(), c.ID)
	if err != nil || len(cs) != 1 || cs[0].Value != store.ControlRemoved || cs[0].Seat != 2 {
		t.Fatalf("controls after a removal sent twice: %+v %v; want one", cs, err)
	}
	for _, tok := range []string{c.Seats[2], extra} {
		if status, v := s.call("POST", path+"/orders", tok, `{"turn": 1, "orders": "AM"}`); status != 401 || v["code"] != "revoked" {
			t.Errorf("orders from a removed racer's link: %d %v, want 401 revoked", status, v)
		}
	}
	_, seats, shown := s.seatsOf(c)
	if seats[2]["removed"] != true || seats[0]["removed"] != nil {
		t.Errorf("the seats after the removal: %v", seats)
	}
	if w := shown["waiting_for"].([]any); slices.Contains(w, any("Gold")) || len(w) != 3-1 {
		t.Errorf("waiting for %v; not for the removed Gold", w)
	}
	for i := range 2 {
		s.must(200, "POST", path+"/orders", c.Seats[i], `{"turn": 1, "orders": "AM"}`)
	}
	if turn, _, _ := s.seatsOf(c); turn != 2 {
		t.Fatalf("every racer left in, all_in: turn %v open, want 2", turn)
	}
	// A new racer for the seat: a person's again, waited for again.
	v = s.must(201, "POST", path+"/links", c.Host, `{"role": "seat", "seat": 3, "replace": true}`)
	fresh := v["link"].(map[string]any)["token"].(string)
	if v["removed"] != false {
		t.Errorf("a new racer's link for a removed seat: %v", v)
	}
	if _, seats, _ := s.seatsOf(c); seats[2]["removed"] != nil {
		t.Errorf("the seat given back is still removed: %v", seats[2])
	}
	for i := range 2 {
		s.must(200, "POST", path+"/orders", c.Seats[i], `{"turn": 2, "orders": "M"}`)
	}
	if turn, _, _ := s.seatsOf(c); turn != 2 {
		t.Errorf("the seat given back is not waited for: turn %v open", turn)
	}
	if v := s.must(200, "POST", path+"/orders", fresh, `{"turn": 2, "orders": "AM"}`); v["seat"] != 3.0 {
		t.Errorf("the new racer's orders: %v", v)
	}
	if turn, _, _ := s.seatsOf(c); turn != 3 {
		t.Errorf("all in again: turn %v open, want 3", turn)
	}
	// The first removal retried with its key: the seat stays the new
	// racer's, whose link stays open.
	if v := s.must(200, "POST", path+"/remove", c.Host, `{"seat": 3, "key": "r1"}`); v["removed"] != false || len(v["revoked"].([]any)) != 0 {
		t.Errorf("the first removal retried after the seat was given back: %v", v)
	}
	if v := s.must(200, "POST", path+"/orders", fresh, `{"turn": 3, "orders": "M"}`); v["seat"] != 3.0 {
		t.Errorf("the new racer's orders after the old removal was retried: %v", v)
	}
}

// The clock of a race by invite before its start: a deadline set then is
// not in the index (nothing resolves or warns before the start), a pause
// and a resume work, and the start puts turn 1's deadline in the index.
func TestInviteClockBeforeTheStart(t *testing.T) {
	s := newService(t)
	c := s.createInvite(`{"ruleset": "nascar", "invite": true, "seats": [{"name": "Red"}]}`)
	path := "/api/races/" + c.ID
	deadline := s.srv.host.Now().Add(72 * time.Hour).UTC().Truncate(time.Second)
	s.must(200, "POST", path+"/schedule", c.Host, fmt.Sprintf(`{"turn": 1, "deadline": %q, "key": "d1"}`, deadline.Format(time.RFC3339)))
	if at, ok := s.srv.deadlines.of(c.ID); ok {
		t.Errorf("a race not started has its deadline %v in the index", at)
	}
	s.must(200, "POST", path+"/pause", c.Host, `{"key": "p1"}`)
	if v := s.must(200, "POST", path+"/resume", c.Host, `{"key": "r1"}`); v["paused"] != false {
		t.Errorf("a resume before the start: %v", v)
	}
	s.joinAs(c.ID, c.Invite, `{"name": "Blue"}`)
	s.must(200, "POST", path+"/start", c.Host, `{"key": "s1"}`)
	if at, ok := s.srv.deadlines.of(c.ID); !ok || !at.Equal(deadline) {
		t.Errorf("after the start, the index holds %v %v; want turn 1's deadline %v", at, ok, deadline)
	}
}
