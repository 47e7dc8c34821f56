package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"pitwall/host"
	"pitwall/race"
	"pitwall/store"
)

// Races that take their racers by invite. The host creates the race with
// an invite link (and maybe some seats); whoever holds the link joins with
// a racer of their own and is given that racer's link; the host starts the
// race (a start entry in its log), and joins end. Until then the seats are
// not known (the setup may draw the grid by lot), so a racer's link made
// before the start names its racer, and opens the seat that racer holds
// once the race has started.

// begun says whether race id (of access a) has started for the service: a
// race not by invite was set up when it was made; one by invite when its
// log says so. A start is remembered: a race never stops being started.
func (s *Server) begun(ctx context.Context, id string, a store.Access) (bool, error) {
	if !a.Invite {
		return true, nil
	}
	if _, ok := s.begunRaces.Load(id); ok {
		return true, nil
	}
	p, err := s.host.Forming(ctx, id)
	if err != nil {
		return false, err
	}
	if p.Started {
		s.begunRaces.Store(id, true)
	}
	return p.Started, nil
}

// isBegun says whether race id has started for the service; false also
// when that cannot be read now (what it guards is done at the start, or
// by a later rescan).
func (s *Server) isBegun(ctx context.Context, id string) bool {
	_, ok, err := s.accessOf(ctx, id)
	return err == nil && ok
}

// accessOf is race id's access, and whether it has started for the
// service (begun).
func (s *Server) accessOf(ctx context.Context, id string) (store.Access, bool, error) {
	a, err := s.access.Access(ctx, id)
	if err != nil {
		return a, false, err
	}
	ok, err := s.begun(ctx, id, a)
	return a, ok, err
}

// notStarted is the refusal of what a race does only once it has started.
func notStarted(id, what string) error {
	return &apiError{Msg: fmt.Sprintf("race %q has not started: %s waits for its host to start it (POST /api/races/%s/start) once the racers are in", id, what, id), Code: "not_started"}
}

// started loads race id for what needs it started (what names it), or
// answers the refusal and returns false.
func (s *Server) started(w http.ResponseWriter, r *http.Request, id, what string) (*race.Played, bool) {
	_, ok, err := s.accessOf(r.Context(), id)
	if err == nil && !ok {
		err = notStarted(id, what)
	}
	if err != nil {
		s.fail(w, r, err)
		return nil, false
	}
	return s.load(w, r, id)
}

// racerSeat is the seat racer holds in race id, which has started.
func (s *Server) racerSeat(ctx context.Context, id, racer string) (int, error) {
	p, err := s.host.Load(ctx, id)
	if err != nil {
		return 0, err
	}
	for _, x := range p.State.Seats() {
		if x.Name == racer {
			return x.Seat, nil
		}
	}
	return 0, &apiError{Msg: fmt.Sprintf("the racer %q of this link is not in race %q (withdrawn before the start); ask the host for a link", racer, id), Field: "Authorization", Code: "revoked"}
}

// formingRace is a race by invite before its start, as every viewer sees
// it: who has entered, with their choices (all of them public).
type formingRace struct {
	ID          string         `json:"id"`
	Ruleset     string         `json:"ruleset"`
	Rules       int            `json:"rules"`
	Track       string         `json:"track"`
	Started     bool           `json:"started"`
	Invite      bool           `json:"invite"`
	Public      bool           `json:"public"`
	ResolveWhen string         `json:"resolve_when"`
	Commitment  string         `json:"commitment"`
	Entrants    []race.Entrant `json:"entrants"`
	Schedule    race.Schedule  `json:"schedule"`
	ChainHead   string         `json:"chain_head"`
	Entries     int            `json:"entries"`
	Viewer      string         `json:"viewer"`
	MyRacer     string         `json:"my_racer,omitempty"` // a racer's own link: the racer it names
	Paused      bool           `json:"paused"`
	Repeat      *repeat        `json:"repeat"`
}

// showForming answers GET /api/races/{id} for a race by invite before its start.
func (s *Server) showForming(w http.ResponseWriter, r *http.Request, id string, a store.Access, tok *store.Token) {
	p, err := s.host.Forming(r.Context(), id)
	if err == nil && p.Started { // started meanwhile: the race as it stands
		s.begunRaces.Store(id, true)
		s.showRace(w, r)
		return
	}
	var st standing
	if err == nil {
		st, err = s.standingOf(r.Context(), id)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := formingRace{ID: id, Ruleset: p.Race.Ruleset, Rules: p.Race.Rules, Track: p.Race.Config.Track, Invite: true, Public: a.Public,
		ResolveWhen: a.ResolveWhen, Commitment: p.Race.Commitment(), Entrants: p.Entrants, Schedule: p.Schedule, ChainHead: p.Head,
		Entries: p.Seq, Viewer: race.Spectator.String(), Paused: st.paused != nil, Repeat: st.repeat}
	if out.Entrants == nil {
		out.Entrants = []race.Entrant{}
	}
	if tok != nil {
		switch tok.Role {
		case store.RoleHost:
			out.Viewer = race.Host.String()
		case store.RoleSeat:
			out.Viewer, out.MyRacer = "racer", tok.Racer
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// join is POST /api/races/{id}/join: whoever holds the race's invite link
// enters a racer of their own, and is given that racer's link, shown this
// once. The join is logged first and the link stored after it, so a join
// cut short leaves a racer without a link (its retry with the key makes
// one), never a link to a racer not in the race.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	a, err := s.access.Access(r.Context(), id)
	if err != nil {
		s.fail(w, r, noRace(id, err))
		return
	}
	tok, err := s.token(r, id)
	if err == nil {
		err = linkOf(tok, store.RoleInvite, "a join needs the race's invite link (Authorization: Bearer TOKEN from the invite)",
			"only the race's invite link joins it")
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var body map[string]any
	if err := decode(w, r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	key, ok := body["key"].(string)
	if _, given := body["key"]; given && !ok {
		s.fail(w, r, &apiError{Msg: "key must be a string", Field: "key", Code: "bad_json"})
		return
	}
	delete(body, "key")
	if err := checkKey(key); err != nil {
		s.fail(w, r, err)
		return
	}
	f, err := s.host.Forming(r.Context(), id)
	if err == nil && (f.Started || !a.Invite) {
		err = &apiError{Msg: fmt.Sprintf("race %q has started: it takes no more racers", id), Code: "race_started"}
	}
	var e race.Entrant
	if err == nil {
		e, err = readEntrant(f.Ruleset.Game(), "", body)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	name := e.Racers[0]
	ts, err := s.access.Tokens(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	linked := false // the racer has a link open
	for _, t := range ts {
		if t.Role == store.RoleSeat && t.Revoked == nil && strings.EqualFold(t.Racer, name) {
			linked = true
		}
	}
	entered := false // the racer is in the race: Enter finds the join repeated, or refuses the name
	for _, x := range f.Entrants {
		entered = entered || slices.ContainsFunc(x.Racers, func(n string) bool { return strings.EqualFold(n, name) })
	}
	if linked && !entered {
		// A racer withdrawn whose link was not revoked yet (a withdrawal
		// cut short): the name waits for the revocation, or the old link
		// would open the new racer's seat.
		s.fail(w, r, &apiError{Msg: fmt.Sprintf("a racer called %q has a link of this race still open; choose another name", name), Field: "name", Code: "name_taken"})
		return
	}
	es, repeat, err := s.host.Enter(r.Context(), id, e, host.Req{Key: key})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if repeat && linked {
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "name": name, "player": e.Player, "repeat": true,
			"message": "this join was made before, with this key, and its link was given then; a lost link is replaced by the host"})
		return
	}
	t := store.Token{Hash: "", Race: id, Role: store.RoleSeat, Seat: -1, Racer: name, Created: s.host.Now()}
	raw := newToken()
	t.Hash = hashToken(raw)
	if err := s.access.AddTokens(r.Context(), id, []store.Token{t}); err != nil {
		s.fail(w, r, err)
		return
	}
	link := showLink(t)
	link.Token = raw
	s.log.Info("racer joined", "race", id, "entrants", len(es))
	writeJSON(w, http.StatusCreated, map[string]any{"ok": true, "race": id, "name": name, "player": e.Player, "entrants": len(es), "repeat": repeat, "link": link})
}

// withdraw is POST /api/races/{id}/withdraw: a racer leaves a race by
// invite before its start, with its own link; the entrant's links are
// revoked after the withdrawal is logged.
func (s *Server) withdraw(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	_, tok, a, err := s.viewerOf(r, id)
	if err == nil {
		err = linkOf(tok, store.RoleSeat, "a withdrawal needs the racer's own link (Authorization: Bearer TOKEN)",
			"only a racer withdraws, with its own link")
	}
	var b keyBody
	if err == nil {
		err = decode(w, r, &b)
	}
	if err == nil {
		err = checkKey(b.Key)
	}
	var f *race.Played
	if err == nil {
		f, err = s.host.Forming(r.Context(), id)
	}
	if err == nil && (f.Started || !a.Invite || tok.Racer == "") {
		err = &apiError{Msg: fmt.Sprintf("race %q has started: a racer leaves it only by its host (POST /api/races/%s/remove)", id, id), Code: "race_started"}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// A racer withdrawn before (a retry cut short) has only its links
	// left to revoke.
	racers, player := []string{tok.Racer}, ""
	for _, e := range f.Entrants {
		if slices.Contains(e.Racers, tok.Racer) {
			racers, player = e.Racers, e.Player
		}
	}
	if player != "" {
		if _, err := s.host.Withdraw(r.Context(), id, player, host.Req{Key: b.Key}); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	revoked := []string{}
	for _, x := range racers {
		got, err := s.revokeSeat(r.Context(), id, -1, x, "", time.Time{})
		if err != nil {
			s.fail(w, r, err)
			return
		}
		revoked = append(revoked, got...)
	}
	s.log.Info("racer withdrawn", "race", id, "revoked", len(revoked))
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "withdrawn": player != "", "player": player, "racers": racers, "revoked": revoked})
}

// start is POST /api/races/{id}/start: the host starts a race by invite.
// The race is set up (its grid drawn) and takes no more entrants; a start
// sent again changes nothing. A race not by invite started when it was made.
func (s *Server) start(w http.ResponseWriter, r *http.Request) {
	var b keyBody
	id, ok := s.hostBody(w, r, "a start", "only the race's host starts it", &b)
	if !ok {
		return
	}
	if err := checkKey(b.Key); err != nil {
		s.fail(w, r, err)
		return
	}
	a, err := s.access.Access(r.Context(), id)
	now := false
	if err == nil && a.Invite {
		now, err = s.host.Start(r.Context(), id, host.Req{Key: b.Key})
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.begunRaces.Store(id, true)
	if now {
		s.log.Info("race started", "race", id)
		s.events.wake(id, true)
		s.settle(r.Context(), id)
	}
	p, ok := s.load(w, r, id)
	if !ok {
		return
	}
	seats := []map[string]any{}
	for _, x := range p.State.Seats() {
		seats = append(seats, map[string]any{"seat": x.Seat + 1, "name": x.Name, "player": x.Player})
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "started": true, "now": now, "seats": seats})
}
