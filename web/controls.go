package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"pitwall/bot"
	"pitwall/host"
	"pitwall/race"
	"pitwall/store"
)

// The host's controls: who plays a seat, who makes the host's settings, a
// repeating schedule, a pause, and the race's links.

// hostOnly opens a host's write to the request's race, or answers the
// refusal and returns false; what names the write ("a pause").
func (s *Server) hostOnly(w http.ResponseWriter, r *http.Request, what, forbidden string) (string, bool) {
	id := r.PathValue("id")
	if _, err := s.writer(r, id, store.RoleHost, what+" needs the host's token (Authorization: Bearer TOKEN)", forbidden); err != nil {
		s.fail(w, r, err)
		return id, false
	}
	return id, true
}

// hostBody is hostOnly for a write with a body, read into b.
func (s *Server) hostBody(w http.ResponseWriter, r *http.Request, what, forbidden string, b any) (string, bool) {
	id, ok := s.hostOnly(w, r, what, forbidden)
	if ok {
		if err := decode(w, r, b); err != nil {
			s.fail(w, r, err)
			return id, false
		}
	}
	return id, ok
}

// control stores c for race id (its time now) and looks after the race
// with it at once; it answers a refusal and returns false.
func (s *Server) control(w http.ResponseWriter, r *http.Request, c store.Control) (store.Control, bool) {
	if err := checkKey(c.Key); err != nil {
		s.fail(w, r, err)
		return c, false
	}
	c.At = s.host.Now()
	got, err := s.access.AddControl(r.Context(), c)
	if errors.Is(err, store.ErrExists) {
		err = &apiError{Msg: err.Error(), Field: "key", Code: "key_reused"}
	}
	if err != nil {
		s.fail(w, r, err)
		return got, false
	}
	s.events.wake(c.Race, true)
	s.settle(r.Context(), c.Race)
	return got, true
}

// botBody is POST /api/races/{id}/bot: hand a seat (or the host's
// settings) to a bot, or give it back.
type botBody struct {
	Seat *int   `json:"seat"` // from 1
	Host bool   `json:"host"`
	Bot  *bool  `json:"bot"`
	Name string `json:"name"` // which bot plays a seat (package bot); "": the heuristic one
	Key  string `json:"key"`
}

func (s *Server) setBot(w http.ResponseWriter, r *http.Request) {
	var b botBody
	id, ok := s.hostBody(w, r, "handing a seat to the bot", "only the race's host hands seats to the bot", &b)
	if !ok {
		return
	}
	p, ok := s.started(w, r, id, "handing a seat to the bot")
	if !ok {
		return
	}
	if b.Name != "" && (b.Host || b.Bot == nil || !*b.Bot) {
		s.fail(w, r, &apiError{Msg: "a bot's name goes with a seat handed to it: {\"seat\": N, \"bot\": true, \"name\": ...}", Field: "name", Code: "bad_input"})
		return
	}
	c := store.Control{Race: id, Kind: store.ControlSeat, Seat: -1, Key: b.Key}
	switch {
	case b.Bot == nil:
		s.fail(w, r, &apiError{Msg: "say who plays: \"bot\": true (the game's bot) or false (whoever holds the seat's link)", Field: "bot", Code: "bad_input"})
		return
	case b.Host && b.Seat != nil:
		s.fail(w, r, &apiError{Msg: "name a seat or the host's settings, not both", Field: "seat", Code: "bad_input"})
		return
	case b.Host:
		if _, ok := p.Ruleset.(race.HostBotter); !ok {
			s.fail(w, r, &apiError{Msg: fmt.Sprintf("%s asks the host for nothing as it goes; there are no host's settings for the bot to make", p.Ruleset.Game().Name), Field: "host", Code: "bad_input"})
			return
		}
		c.Kind = store.ControlHost
	case b.Seat == nil:
		s.fail(w, r, &apiError{Msg: "name the seat: \"seat\": N, from 1 (or \"host\": true for the host's settings)", Field: "seat", Code: "bad_input"})
		return
	default:
		seat, err := seatArg(p, b.Seat)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		c.Seat = seat
	}
	c.Value = store.ControlPerson
	if *b.Bot {
		// Only a seat handed to a bot names one (the host's settings are
		// the game's host bot; a seat given back names none). No name is
		// the heuristic bot, which a game need not have: bot.New's own
		// default would fall back to cruise and hand the seat to a bot
		// the service cannot run.
		if !b.Host {
			if _, err := bot.New(p.Ruleset, cmp.Or(b.Name, bot.Heuristic), bot.Options{}); err != nil {
				code := "bad_input"
				if b.Name == "" {
					code = "no_bot"
				}
				s.fail(w, r, &apiError{Msg: err.Error(), Field: "name", Code: code})
				return
			}
		}
		c.Value = store.BotControl(b.Name)
	}
	got, ok := s.control(w, r, c)
	if !ok {
		return
	}
	name, isBot := store.BotOf(got.Value)
	out := map[string]any{"ok": true, "race": id, "bot": isBot}
	if got.Kind == store.ControlSeat {
		out["seat"] = got.Seat + 1
		if isBot {
			out["name"] = name
		}
	} else {
		out["host"] = true
	}
	writeJSON(w, http.StatusOK, out)
}

// keyBody is a write that carries nothing but its key.
type keyBody struct {
	Key string `json:"key"`
}

func (s *Server) pause(w http.ResponseWriter, r *http.Request) {
	var b keyBody
	id, ok := s.hostBody(w, r, "a pause", "only the race's host pauses it", &b)
	if !ok {
		return
	}
	if _, ok := s.control(w, r, store.Control{Race: id, Kind: store.ControlClock, Seat: -1, Value: store.ControlPaused, Key: b.Key}); ok {
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "paused": true})
	}
}

// resume starts a paused race's clock again and moves the open turn's
// deadline on by as long as the race was paused. The extension's key names
// the pause it ends, so a resume retried (or raced by another) moves the
// deadline once; it is stored before the resume, so a resume cut short is
// finished by its retry.
func (s *Server) resume(w http.ResponseWriter, r *http.Request) {
	var b keyBody
	id, ok := s.hostBody(w, r, "a resume", "only the race's host resumes it", &b)
	if !ok {
		return
	}
	// The key is judged before the deadline moves: a resume refused
	// changes nothing.
	resume := store.Control{Race: id, Kind: store.ControlClock, Seat: -1, Value: store.ControlRunning, Key: b.Key}
	cs, err := s.access.Controls(r.Context(), id)
	if err == nil {
		err = checkKey(b.Key)
	}
	for _, c := range cs {
		if err == nil && b.Key != "" && c.Key == b.Key {
			if err = store.SameControl(&resume, c); err != nil {
				err = &apiError{Msg: err.Error(), Field: "key", Code: "key_reused"}
			}
		}
	}
	var st standing
	if err == nil {
		st, err = fold(cs)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := map[string]any{"ok": true, "race": id, "paused": false}
	// A race by invite not started yet has no deadline to move.
	if pause := st.paused; pause != nil && s.isBegun(r.Context(), id) {
		p, ok := s.load(w, r, id)
		if !ok {
			return
		}
		// Whole seconds, and at least one: Extend takes a time to come.
		d := max(s.host.Now().Sub(pause.At).Round(time.Second), time.Second)
		// A deadline that had passed before the pause stays passed: the
		// turn is due as the clock starts again.
		if p.Started && !p.State.Over() && p.Schedule.Deadline != nil && p.Schedule.Deadline.Add(d).After(s.host.Now()) {
			turn, sch, err := s.host.Extend(r.Context(), id, d, host.Req{Turn: p.Turn(), Key: fmt.Sprintf("%sresume-%d", serviceKeys, pause.Seq)})
			if err != nil {
				s.fail(w, r, err)
				return
			}
			out["turn"], out["schedule"] = turn, sch
		}
	}
	if _, ok := s.control(w, r, resume); ok {
		writeJSON(w, http.StatusOK, out)
	}
}

// standingOf reads what race id's controls add up to.
func (s *Server) standingOf(ctx context.Context, id string) (standing, error) {
	cs, err := s.access.Controls(ctx, id)
	if err != nil {
		return standing{}, err
	}
	return fold(cs)
}

// removeBody is POST /api/races/{id}/remove: a racer leaves the race.
type removeBody struct {
	Seat *int   `json:"seat"` // from 1
	Key  string `json:"key"`
}

// removeSeat takes a racer out of a race that has started: from now on
// the game's default for missing orders plays the seat (as for any racer
// who sends none), the race waits for it no more, and its links open
// nothing. It is a control, so that the last word on the seat stands: a
// new racer's link or the bot gives the seat back. The links are revoked
// after the control is stored: a removal cut short is finished by its
// retry (with its key, one control).
func (s *Server) removeSeat(w http.ResponseWriter, r *http.Request) {
	var b removeBody
	id, ok := s.hostBody(w, r, "removing a racer", "only the race's host removes a racer", &b)
	if !ok {
		return
	}
	p, ok := s.started(w, r, id, "removing a racer")
	if !ok {
		return
	}
	if p.State.Over() {
		s.fail(w, r, race.ErrOver)
		return
	}
	seat, err := seatArg(p, b.Seat)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	got, ok := s.control(w, r, store.Control{Race: id, Kind: store.ControlSeat, Seat: seat, Value: store.ControlRemoved, Key: b.Key})
	if !ok {
		return
	}
	// Only the links made by the removal's time: a removal retried after
	// the seat was given to a new racer leaves the new racer's link open.
	revoked, err := s.revokeSeat(r.Context(), id, seat, race.NameOf(p.State.Seats(), seat), "", got.At)
	var st standing
	if err == nil {
		st, err = s.standingOf(r.Context(), id)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("racer removed", "race", id, "seat", seat+1, "revoked", len(revoked))
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "seat": seat + 1, "removed": st.removed[seat], "revoked": revoked})
}

// revokeSeat revokes the links that open seat of race id (named by its
// seat, or by its racer's name, made before the start), but keep and those
// made after upTo (when it is not zero), and returns the links revoked.
func (s *Server) revokeSeat(ctx context.Context, id string, seat int, name, keep string, upTo time.Time) ([]string, error) {
	ts, err := s.access.Tokens(ctx, id)
	if err != nil {
		return nil, err
	}
	revoked := []string{}
	at := s.host.Now()
	for _, t := range ts {
		opens := t.Role == store.RoleSeat && (seat >= 0 && t.Seat == seat || t.Racer != "" && t.Racer == name)
		if opens && t.Hash != keep && t.Revoked == nil && (upTo.IsZero() || !t.Created.After(upTo)) {
			if err := s.access.RevokeToken(ctx, id, t.Hash, at); err != nil {
				return nil, err
			}
			revoked = append(revoked, linkID(t))
		}
	}
	return revoked, nil
}

// repeatBody is POST /api/races/{id}/repeat.
type repeatBody struct {
	repeat
	Stop bool   `json:"stop"`
	Key  string `json:"key"`
}

func (s *Server) setRepeat(w http.ResponseWriter, r *http.Request) {
	var b repeatBody
	id, ok := s.hostBody(w, r, "a repeating schedule", "only the race's host sets its deadlines", &b)
	if !ok {
		return
	}
	c := store.Control{Race: id, Kind: store.ControlSchedule, Seat: -1, Key: b.Key}
	if b.Stop {
		if b.Every != "" || b.At != "" || b.Zone != "" {
			s.fail(w, r, &apiError{Msg: "stop takes no every, at or zone", Field: "stop", Code: "bad_input"})
			return
		}
	} else {
		if err := b.check(); err != nil {
			s.fail(w, r, err)
			return
		}
		c.Value = b.repeat.String()
	}
	if _, ok := s.control(w, r, c); !ok {
		return
	}
	// What is stored says what c says (a key repeated with another
	// schedule is refused), so the answer is the request's.
	out := map[string]any{"ok": true, "race": id, "repeat": nil}
	if !b.Stop {
		out["repeat"] = b.repeat
	}
	writeJSON(w, http.StatusOK, out)
}

// linkID is how the host names a link: the first 12 hex digits of its
// token's hash (which tell nothing of the token).
func linkID(t store.Token) string { return t.Hash[:12] }

type shownLink struct {
	Link    string     `json:"link"`
	Role    string     `json:"role"`
	Seat    *int       `json:"seat,omitempty"`  // from 1
	Racer   string     `json:"racer,omitempty"` // a racer's link made before the start
	Created time.Time  `json:"created"`
	Revoked *time.Time `json:"revoked,omitempty"`
	Token   string     `json:"token,omitempty"` // only when it is made
}

func showLink(t store.Token) shownLink {
	l := shownLink{Link: linkID(t), Role: t.Role, Racer: t.Racer, Created: t.Created, Revoked: t.Revoked}
	if t.Role == store.RoleSeat && t.Seat >= 0 {
		seat := t.Seat + 1
		l.Seat = &seat
	}
	return l
}

func (s *Server) listLinks(w http.ResponseWriter, r *http.Request) {
	id, ok := s.hostOnly(w, r, "the list of links", "only the race's host sees its links")
	if !ok {
		return
	}
	ts, err := s.access.Tokens(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	links := []shownLink{}
	for _, t := range ts {
		links = append(links, showLink(t))
	}
	writeJSON(w, http.StatusOK, map[string]any{"race": id, "links": links})
}

// linkBody is POST /api/races/{id}/links: a new link for a seat (a new
// racer; with replace, the seat's other links are revoked), a spectator, a
// host or an invite. Before a race by invite starts, a racer's link names
// its racer, not its seat.
type linkBody struct {
	Role    string `json:"role"`
	Seat    *int   `json:"seat"`
	Racer   string `json:"racer"`
	Replace bool   `json:"replace"`
}

// seatArg is the seat (from 0) a request names from 1, or the refusal
// saying which seats the race has.
func seatArg(p *race.Played, n *int) (int, error) {
	if n == nil || *n < 1 || race.NameOf(p.State.Seats(), *n-1) == "" {
		got := "none"
		if n != nil {
			got = fmt.Sprint(*n)
		}
		return 0, &apiError{Msg: fmt.Sprintf("name a seat of the race: \"seat\": N, one of 1 to %d; not %s", len(p.State.Seats()), got), Field: "seat", Code: "bad_input"}
	}
	return *n - 1, nil
}

func (s *Server) newLink(w http.ResponseWriter, r *http.Request) {
	var b linkBody
	id, ok := s.hostBody(w, r, "a new link", "only the race's host makes links", &b)
	if !ok {
		return
	}
	a, begun, err := s.accessOf(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	t := store.Token{Race: id, Role: b.Role, Seat: -1, Created: s.host.Now()}
	name := "" // the seat's racer
	switch {
	case b.Role == store.RoleSeat && begun:
		p, ok := s.load(w, r, id)
		if !ok {
			return
		}
		if b.Racer != "" {
			s.fail(w, r, &apiError{Msg: "the race has started: a seat's link names its seat (\"seat\": N), not its racer", Field: "racer", Code: "bad_input"})
			return
		}
		if t.Seat, err = seatArg(p, b.Seat); err != nil {
			s.fail(w, r, err)
			return
		}
		name = race.NameOf(p.State.Seats(), t.Seat)
	case b.Role == store.RoleSeat:
		f, err := s.host.Forming(r.Context(), id)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		var racers []string
		for _, e := range f.Entrants {
			racers = append(racers, e.Racers...)
		}
		if b.Seat != nil || !slices.Contains(racers, b.Racer) {
			s.fail(w, r, &apiError{Msg: fmt.Sprintf("race %q has not started, so its seats are not known yet: name the racer, \"racer\": one of %q; not %q", id, racers, b.Racer), Field: "racer", Code: "bad_input"})
			return
		}
		t.Racer, name = b.Racer, b.Racer
	case b.Role == store.RoleSpectator, b.Role == store.RoleHost, b.Role == store.RoleInvite:
		if b.Seat != nil || b.Racer != "" || b.Replace {
			s.fail(w, r, &apiError{Msg: fmt.Sprintf("a %s's link names no seat or racer and replaces nothing (revoke a link by itself)", b.Role), Field: "seat", Code: "bad_input"})
			return
		}
		if b.Role == store.RoleInvite && (!a.Invite || begun) {
			s.fail(w, r, &apiError{Msg: fmt.Sprintf("race %q takes no racers by invite (it has started, or was made with its seats)", id), Field: "role", Code: "race_started"})
			return
		}
	default:
		s.fail(w, r, &apiError{Msg: fmt.Sprintf("role is seat, spectator, host or invite; not %q", b.Role), Field: "role", Code: "bad_input"})
		return
	}
	tok := newToken()
	t.Hash = hashToken(tok)
	if err := s.access.AddTokens(r.Context(), id, []store.Token{t}); err != nil {
		s.fail(w, r, err)
		return
	}
	revoked := []string{}
	if b.Replace && t.Role == store.RoleSeat {
		// After the new link is stored: a replace cut short leaves the seat
		// with two links, never with none.
		if revoked, err = s.revokeSeat(r.Context(), id, t.Seat, name, t.Hash, time.Time{}); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	out := map[string]any{"ok": true, "race": id, "revoked": revoked}
	if t.Role == store.RoleSeat && t.Seat >= 0 {
		// A removed seat given a new racer is a person's again.
		st, err := s.standingOf(r.Context(), id)
		if err == nil && st.removed[t.Seat] {
			_, err = s.access.AddControl(r.Context(), store.Control{Race: id, Kind: store.ControlSeat, Seat: t.Seat, Value: store.ControlPerson, At: t.Created})
			if err == nil {
				out["removed"] = false
				s.events.wake(id, true)
			}
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
	}
	l := showLink(t)
	l.Token = tok
	out["link"] = l
	s.log.Info("link made", "race", id, "role", t.Role, "seat", t.Seat+1, "revoked", len(revoked))
	writeJSON(w, http.StatusCreated, out)
}

func (s *Server) revokeLink(w http.ResponseWriter, r *http.Request) {
	// A revocation needs no body and no key: revoking twice is revoking once.
	id, ok := s.hostOnly(w, r, "revoking a link", "only the race's host revokes links")
	if !ok {
		return
	}
	want := strings.ToLower(r.PathValue("link"))
	ts, err := s.access.Tokens(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var found *store.Token
	hosts := 0
	for i, t := range ts {
		if linkID(t) == want {
			found = &ts[i]
		}
		if t.Role == store.RoleHost && t.Revoked == nil {
			hosts++
		}
	}
	switch {
	case found == nil:
		s.fail(w, r, &apiError{Msg: fmt.Sprintf("race %q has no link %q (GET /api/races/%s/links lists them)", id, want, id), Field: "link", Code: "no_such_link"})
		return
	case found.Role == store.RoleHost && found.Revoked == nil && hosts == 1:
		s.fail(w, r, &apiError{Msg: "that is the race's last host link: make another host link first, or the race has no host", Field: "link", Code: "last_host_link"})
		return
	}
	if err := s.access.RevokeToken(r.Context(), id, found.Hash, s.host.Now()); err != nil {
		s.fail(w, r, err)
		return
	}
	t, err := s.access.Token(r.Context(), found.Hash)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("link revoked", "race", id, "role", t.Role, "seat", t.Seat+1)
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "link": showLink(t)})
}
