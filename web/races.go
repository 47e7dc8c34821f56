package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"pitwall/host"
	"pitwall/race"
	"pitwall/store"
)

// NewRace is the body of POST /api/races.
type NewRace struct {
	Ruleset     string            `json:"ruleset"`
	Track       string            `json:"track"`
	Laps        int               `json:"laps"`
	Options     map[string]string `json:"options"`
	Seats       []map[string]any  `json:"seats"`
	ResolveWhen string            `json:"resolve_when"`
	// Public says anyone may watch without a link; the default is true.
	Public *bool `json:"public"`
	// Invite says the race takes its racers by invite until its host
	// starts it: it is made with an invite link, and seats may be few or none.
	Invite bool `json:"invite"`
}

// CreatedRace is the answer to POST /api/races: the race's links' tokens,
// shown this once.
type CreatedRace struct {
	ID             string        `json:"id"`
	Ruleset        string        `json:"ruleset"`
	Track          string        `json:"track"` // the one given, or the game's first
	HostToken      string        `json:"host_token"`
	SpectatorToken string        `json:"spectator_token,omitempty"` // a private race's
	InviteToken    string        `json:"invite_token,omitempty"`    // a race by invite's
	Invite         bool          `json:"invite,omitempty"`
	Commitment     string        `json:"commitment"`
	ResolveWhen    string        `json:"resolve_when"`
	Public         bool          `json:"public"`
	Seats          []CreatedSeat `json:"seats"`
}

// CreatedSeat is a seat's link in the answer to POST /api/races. A race by
// invite's seats are numbered at its start: its links name their racers.
type CreatedSeat struct {
	Seat  int    `json:"seat,omitempty"` // from 1
	Name  string `json:"name"`
	Token string `json:"token"`
}

// SeatsOf are the seats of a new race (NewRace.Seats) of entrants es: a
// seat a racer, each with its player and its entrant's choices.
func SeatsOf(es []race.Entrant) []map[string]any {
	var seats []map[string]any
	for _, e := range es {
		for _, name := range e.Racers {
			seat := map[string]any{"name": name, "player": e.Player}
			for k, v := range e.Options {
				seat[k] = v
			}
			seats = append(seats, seat)
		}
	}
	return seats
}

// entrants reads the seats of a new race: each a racer's name, the player
// (the name when not given; seats with one player make one entrant, as a
// ludi player holds two aurigae) and the game's entrant choices. A racer's
// name is one seat's. A race by invite may have none yet (invite).
func entrants(g *race.Game, seats []map[string]any, invite bool) ([]race.Entrant, error) {
	if len(seats) == 0 && !invite {
		return nil, &apiError{Msg: "a race needs its seats: [{\"name\": \"...\"}, ...] (or \"invite\": true to take its racers by invite)", Field: "seats", Code: "bad_input"}
	}
	var out []race.Entrant
	var first []int // the seat each entrant was first named at, for the errors
	var names []string
	for i, s := range seats {
		field := fmt.Sprintf("seats[%d]", i)
		e, err := readEntrant(g, field, s)
		if err != nil {
			return nil, err
		}
		name := e.Racers[0]
		if slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) }) {
			return nil, &apiError{Msg: fmt.Sprintf("%s: another seat's racer is called %q; each racer has a name of its own", field, name), Field: field + ".name", Code: "bad_input"}
		}
		names = append(names, name)
		j := slices.IndexFunc(out, func(x race.Entrant) bool { return x.Player == e.Player })
		if j < 0 {
			out, first = append(out, race.Entrant{Player: e.Player, Options: map[string]string{}}), append(first, i)
			j = len(out) - 1
		}
		out[j].Racers = append(out[j].Racers, name)
		for k, v := range e.Options {
			if w, ok := out[j].Options[k]; ok && w != v {
				return nil, &apiError{Msg: fmt.Sprintf("%s: %s chose %s=%s for another racer; a player's choices are one", field, e.Player, k, w), Field: field + "." + k, Code: "bad_input"}
			}
			out[j].Options[k] = v
		}
	}
	for i, e := range out {
		if len(e.Options) == 0 {
			out[i].Options = nil // as an entrant with no choices is stored
		}
		if err := g.CheckEntrant(out[i]); err != nil {
			return nil, &apiError{Msg: err.Error(), Field: fmt.Sprintf("seats[%d]", first[i]), Code: "bad_input"}
		}
	}
	return out, nil
}

// readEntrant reads one seat, s, of field ("seats[2]"; "" for a join's
// body): an entrant with one racer. Its choices are checked by the game
// with the entrant's others (entrants) or as they are (a join).
func readEntrant(g *race.Game, field string, s map[string]any) (race.Entrant, error) {
	in := func(k string) string {
		if field == "" {
			return k
		}
		return field + "." + k
	}
	text := map[string]string{}
	for k, v := range s {
		switch v := v.(type) {
		case string:
			text[k] = v
		case float64:
			text[k] = strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			text[k] = strconv.FormatBool(v)
		default:
			return race.Entrant{}, &apiError{Msg: fmt.Sprintf("%s must be a string, a number or true/false", in(k)), Field: in(k), Code: "bad_input"}
		}
	}
	name := text["name"]
	if name == "" {
		what := field + " has no name: every seat names its racer"
		if field == "" {
			what = "a join names its racer: \"name\": \"...\""
		}
		return race.Entrant{}, &apiError{Msg: what, Field: in("name"), Code: "bad_input"}
	}
	player := text["player"]
	if player == "" {
		player = name
	}
	delete(text, "name")
	delete(text, "player")
	for k := range text {
		if _, ok := race.FieldNamed(g.Entrant, k); !ok {
			var names []string
			for _, f := range g.Entrant {
				names = append(names, f.Name)
			}
			return race.Entrant{}, &apiError{Msg: fmt.Sprintf("%s has no entrant choice %q; its choices are name, player and %v", g.ID, k, names), Field: in(k), Code: "bad_input"}
		}
	}
	e := race.Entrant{Player: player, Racers: []string{name}, Options: text}
	if len(text) == 0 {
		e.Options = nil // as an entrant with no choices is stored
	}
	if err := race.CheckEntrant(e); err != nil {
		return e, &apiError{Msg: err.Error(), Field: in("name"), Code: "bad_input"}
	}
	if field == "" { // a join: the entrant as it will be
		if err := g.CheckEntrant(e); err != nil {
			return e, &apiError{Msg: err.Error(), Code: "bad_input"}
		}
	}
	return e, nil
}

func (s *Server) createRace(w http.ResponseWriter, r *http.Request) {
	var req NewRace
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	rs, err := race.Lookup(req.Ruleset)
	if err != nil {
		s.fail(w, r, &apiError{Msg: err.Error(), Field: "ruleset", Code: "bad_input"})
		return
	}
	switch req.ResolveWhen {
	case "":
		req.ResolveWhen = store.ResolveAtDeadline
	case store.ResolveAtDeadline, store.ResolveWhenReady, store.ResolveWhenAllIn:
	default:
		s.fail(w, r, &apiError{Msg: fmt.Sprintf("resolve_when is one of deadline, ready, all_in; not %q", req.ResolveWhen), Field: "resolve_when", Code: "bad_input"})
		return
	}
	g := rs.Game()
	es, err := entrants(g, req.Seats, req.Invite)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	cfg := race.Config{Track: req.Track, Laps: req.Laps, Options: req.Options}
	out, err := s.makeRace(r.Context(), req.Ruleset, cfg, es, store.Access{Public: req.Public == nil || *req.Public, ResolveWhen: req.ResolveWhen, Invite: req.Invite})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, out)
}

// makeRace creates a race served with access acc (its race and time are
// filled in here) and its links, and returns the answer to its creation:
// the links' tokens, which are shown this once.
func (s *Server) makeRace(ctx context.Context, ruleset string, cfg race.Config, es []race.Entrant, acc store.Access) (*CreatedRace, error) {
	p, err := s.host.Prepare(ruleset, "", cfg, es, nil)
	if err != nil {
		return nil, err
	}
	g := p.Ruleset.Game()
	if !p.Started && !acc.Invite {
		return nil, &apiError{Msg: fmt.Sprintf("%s needs more seats to start than the %d given (or \"invite\": true, to take more racers by invite)", g.Name, len(es)), Field: "seats", Code: "bad_input"}
	}
	rc, now := p.Race, s.host.Now()
	var toks []store.Token
	// link makes a secret link of the race: the token, shown once, and what is stored of it.
	link := func(role string, seat int, racer string) string {
		tok := newToken()
		toks = append(toks, store.Token{Hash: hashToken(tok), Race: rc.ID, Role: role, Seat: seat, Racer: racer, Created: now})
		return tok
	}
	acc.Race, acc.Created = rc.ID, now
	out := &CreatedRace{ID: rc.ID, Ruleset: rc.Ruleset, Track: rc.Config.Track, HostToken: link(store.RoleHost, -1, ""), Commitment: rc.Commitment(), ResolveWhen: acc.ResolveWhen, Public: acc.Public}
	out.Seats = []CreatedSeat{}
	if acc.Invite {
		// Its setup (and its grid) is drawn at the start, with whoever
		// has joined by then: these links name their racers.
		out.Invite, out.InviteToken = true, link(store.RoleInvite, -1, "")
		for _, e := range es {
			for _, name := range e.Racers {
				out.Seats = append(out.Seats, CreatedSeat{Name: name, Token: link(store.RoleSeat, -1, name)})
			}
		}
	} else {
		for _, x := range p.State.Seats() {
			out.Seats = append(out.Seats, CreatedSeat{Seat: x.Seat + 1, Name: x.Name, Token: link(store.RoleSeat, x.Seat, "")})
		}
	}
	if !acc.Public { // a private race is watched through a link of its own
		out.SpectatorToken = link(store.RoleSpectator, -1, "")
	}
	if err := s.access.CreateWithAccess(ctx, rc, acc, toks); err != nil {
		return nil, err
	}
	s.log.Info("race created", "race", rc.ID, "ruleset", rc.Ruleset, "seats", len(out.Seats))
	return out, nil
}

// load is race id as it stands, or false once the failure is answered.
func (s *Server) load(w http.ResponseWriter, r *http.Request, id string) (*race.Played, bool) {
	p, err := s.host.Load(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return nil, false
	}
	return p, true
}

func (s *Server) showRace(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	v, tok, a, err := s.viewerOf(r, id)
	var begun bool
	if err == nil {
		begun, err = s.begun(r.Context(), id, a)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !begun {
		s.showForming(w, r, id, a, tok)
		return
	}
	p, ok := s.load(w, r, id)
	if !ok {
		return
	}
	st, err := s.standingOf(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	sh := host.Show(p.View(v))
	var gone []string // removed racers and cruise bots: not waited for
	unwaited := st.unwaited()
	for i := range sh.Seats {
		seat := sh.Seats[i].Seat - 1
		sh.Seats[i].Bot, sh.Seats[i].BotName, sh.Seats[i].Removed = st.bots[seat] != "", st.bots[seat], st.removed[seat]
		if unwaited[seat] {
			gone = append(gone, sh.Seats[i].Name)
		}
	}
	if len(gone) > 0 {
		sh.WaitingFor = slices.DeleteFunc(slices.Clone(sh.WaitingFor), func(n string) bool { return slices.Contains(gone, n) })
	}
	writeJSON(w, http.StatusOK, servedRace{Shown: sh, Started: true, Invite: a.Invite, Paused: st.paused != nil, Repeat: st.repeat, HostBot: st.hostBot})
}

// servedRace is a race as the service shows it: the viewer's projection,
// and what the host has handed to the service (which anyone may know).
type servedRace struct {
	host.Shown
	Started bool    `json:"started"`
	Invite  bool    `json:"invite"`
	Paused  bool    `json:"paused"`
	Repeat  *repeat `json:"repeat"`
	HostBot bool    `json:"host_bot"`
}

// turnBody is a write that names its turn: an order, a ready mark or a resolve.
type turnBody struct {
	Turn   *int   `json:"turn"`
	Orders string `json:"orders"`
	Ready  *bool  `json:"ready"`
	Key    string `json:"key"`
}

// readTurn reads the body of a write of kind race.EntryOrder, EntryReady or EntryResolve.
func readTurn(w http.ResponseWriter, r *http.Request, kind string) (turnBody, error) {
	var b turnBody
	if err := decode(w, r, &b); err != nil {
		return b, err
	}
	if b.Turn == nil || *b.Turn < 1 {
		return b, &apiError{Msg: "name the turn the write is for: \"turn\": N, from 1 (GET the race for the turn open now)", Field: "turn", Code: "bad_input"}
	}
	if err := checkKey(b.Key); err != nil {
		return b, err
	}
	switch {
	case kind != race.EntryOrder && b.Orders != "":
		return b, &apiError{Msg: fmt.Sprintf("a %s carries no orders (send them to /orders)", kind), Field: "orders", Code: "bad_input"}
	case kind != race.EntryReady && b.Ready != nil:
		return b, &apiError{Msg: fmt.Sprintf("a %s carries no ready mark (send it to /ready)", kind), Field: "ready", Code: "bad_input"}
	case kind == race.EntryReady && b.Ready == nil:
		return b, &apiError{Msg: "say whether the seat is ready: \"ready\": true (or false to take it back)", Field: "ready", Code: "bad_input"}
	}
	return b, nil
}

// seatWrite opens a racer's write of kind (race.EntryOrder or EntryReady)
// to the request's race: the seat its token opens and the body, or false
// once the refusal has been answered. what names the write for the refusals.
func (s *Server) seatWrite(w http.ResponseWriter, r *http.Request, kind, what string) (id string, seat int, b turnBody, ok bool) {
	id = r.PathValue("id")
	v, err := s.writer(r, id, store.RoleSeat, what+" needs the seat's token (Authorization: Bearer TOKEN from the seat's link)", "only a racer sends "+what+", with the seat's own link")
	if _, racer := v.Seat(); err == nil && !racer {
		err = notStarted(id, what) // a racer's link before the start opens no seat yet
	}
	if err == nil {
		b, err = readTurn(w, r, kind)
	}
	if err != nil {
		s.fail(w, r, err)
		return id, 0, b, false
	}
	seat, _ = v.Seat()
	return id, seat, b, true
}

func (s *Server) submitOrders(w http.ResponseWriter, r *http.Request) {
	id, seat, b, ok := s.seatWrite(w, r, race.EntryOrder, "an order")
	if !ok {
		return
	}
	if b.Orders == "" {
		s.fail(w, r, &apiError{Msg: "no orders given: \"orders\": \"...\"", Field: "orders", Code: "bad_input"})
		return
	}
	ack, err := s.host.Submit(r.Context(), id, seat, b.Orders, host.Req{Turn: *b.Turn, Key: b.Key})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !ack.Repeat {
		s.events.wake(id, false)
		s.settle(r.Context(), id)
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "turn": ack.Turn, "seat": seat + 1, "racer": ack.Racer, "orders": ack.Orders, "repeat": ack.Repeat})
}

func (s *Server) markReady(w http.ResponseWriter, r *http.Request) {
	id, seat, b, ok := s.seatWrite(w, r, race.EntryReady, "a ready mark")
	if !ok {
		return
	}
	turn, err := s.host.Ready(r.Context(), id, seat, *b.Ready, host.Req{Turn: *b.Turn, Key: b.Key})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.events.wake(id, false)
	s.settle(r.Context(), id)
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "turn": turn, "seat": seat + 1, "ready": *b.Ready})
}

func (s *Server) resolveTurn(w http.ResponseWriter, r *http.Request) {
	id, ok := s.hostOnly(w, r, "a resolve", "only the race's host resolves a turn")
	if !ok {
		return
	}
	b, err := readTurn(w, r, race.EntryResolve)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// A resolve would start a race by invite: its host starts it.
	if _, ok := s.started(w, r, id, "a resolve"); !ok {
		return
	}
	res, err := s.host.Resolve(r.Context(), id, host.Req{Turn: *b.Turn, Key: b.Key})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if res.Resolved {
		s.events.wake(id, true)
		// The new turn's bots play and its repeating deadline is set now,
		// not at the next write or rescan.
		s.settle(r.Context(), id)
	} else if res.Race != nil {
		s.deadlines.note(res.Race)
	}
	out := map[string]any{"ok": true, "race": id, "resolved": res.Resolved, "turn": res.Turn}
	if res.Race != nil && res.Race.Started {
		out["over"] = res.Race.State.Over()
	}
	writeJSON(w, http.StatusOK, out)
}

// serviceKeys starts the keys of the service's own writes (a bot's orders,
// a repeat's deadline): a client's key may not, or it could take a bot's
// key first and keep the bot from ordering.
const serviceKeys = "pitwall-"

// checkKey refuses a client key longer than the host keeps, or one of the
// service's own.
func checkKey(key string) error {
	if len(key) > host.MaxKey {
		return &apiError{Msg: fmt.Sprintf("a key is at most %d characters; got %d", host.MaxKey, len(key)), Field: "key", Code: "bad_input"}
	}
	if strings.HasPrefix(key, serviceKeys) {
		return &apiError{Msg: fmt.Sprintf("keys that start %q are the service's own; choose another", serviceKeys), Field: "key", Code: "bad_input"}
	}
	return nil
}
