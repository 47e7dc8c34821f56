// Package web is pitwall's host service over HTTP: the JSON API that racers,
// hosts, pages and bots use, its live stream of events, and the home page.
//
// Everything it serves about a race goes through the viewer's projection
// (race.Played.View): a request's token decides who the viewer is (the host,
// one seat, or a spectator) and nothing else does. Tokens are long random
// values; only their SHA-256 is stored, and a token is found by its hash:
// the token itself is never compared with anything, so the time a lookup
// takes tells nothing about it.
package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"pitwall/host"
	"pitwall/race"
	"pitwall/store"
)

// maxBody is the largest request body read: a race's creation with twelve
// seats and their choices is a few KB.
const maxBody = 64 << 10

// Server serves races kept in an AccessStore.
type Server struct {
	host   *host.Host
	access store.AccessStore
	log    *slog.Logger
	events *broker
	// deadlines is the index of the open turns' deadlines (RunDeadlines).
	deadlines *deadlines
	hooks     *hookState
	finished  sync.Map // ids of the races found over: a rescan passes them by
	pictures  *lru.Cache[pictureKey, drawn]
	render    func(v *race.View, turn int, format string) ([]byte, error) // host.Render; a test counts its calls
	// begunRaces holds the ids of races by invite found started.
	begunRaces sync.Map
	hookCfg    HookConfig
	limits     Limits
	byAddress  *buckets
	byToken    *buckets
	mux        *http.ServeMux
	ready      atomic.Bool
	// done is closed when the server shuts down: open streams end.
	done     chan struct{}
	shutdown atomic.Bool
}

// New returns a server over h, whose store must be an AccessStore. It
// makes h keep the races it serves in memory (host.KeepLive), unless h
// does already.
func New(h *host.Host, log *slog.Logger) (*Server, error) {
	as, ok := h.Store.(store.AccessStore)
	if !ok {
		return nil, fmt.Errorf("the store %T cannot keep links, so it cannot serve races", h.Store)
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if !h.Live() {
		h.KeepLive(0, log)
	}
	var err error
	s := &Server{host: h, access: cacheAccess(as, accessTTL), log: log, events: newBroker(), deadlines: newDeadlines(), hooks: newHookState(), mux: http.NewServeMux(), done: make(chan struct{})}
	s.render = host.Render
	if s.pictures, err = lru.New[pictureKey, drawn](pictureCache); err != nil {
		return nil, err
	}
	s.ConfigureHooks(HookConfig{})
	s.SetLimits(DefaultLimits)
	s.routes()
	return s, nil
}

// Handler is the service's HTTP handler.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serve) }

// serve answers a request; a panic is the service's own failure, logged
// with its stack and answered as one (net/http would only drop the
// connection).
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler {
			panic(v) // net/http's own way to cut a response short
		}
		s.log.Error("request panicked", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
		writeError(w, http.StatusInternalServerError, &apiError{Msg: "the service failed to do that. Try again; if it goes on, tell the host", Code: "internal"})
	}()
	if s.limited(w, r) {
		return
	}
	s.mux.ServeHTTP(w, r)
}

// SetReady says whether /healthz answers 200.
func (s *Server) SetReady(ok bool) { s.ready.Store(ok) }

// Close ends the open streams (as a shutdown begins); requests in flight
// finish.
func (s *Server) Close() {
	if s.shutdown.CompareAndSwap(false, true) {
		close(s.done)
	}
}

func (s *Server) routes() {
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /{$}", s.home)
	s.mux.HandleFunc("GET /openapi.json", s.openapi)
	s.mux.HandleFunc("POST /api/races", s.createRace)
	s.mux.HandleFunc("GET /api/races", s.listRaces)
	s.mux.HandleFunc("GET /api/races/{id}", s.showRace)
	s.mux.HandleFunc("POST /api/races/{id}/orders", s.submitOrders)
	s.mux.HandleFunc("POST /api/races/{id}/ready", s.markReady)
	s.mux.HandleFunc("POST /api/races/{id}/resolve", s.resolveTurn)
	s.mux.HandleFunc("POST /api/races/{id}/schedule", s.setSchedule)
	s.mux.HandleFunc("GET /api/races/{id}/events", s.stream)
	s.mux.HandleFunc("POST /api/races/{id}/bot", s.setBot)
	s.mux.HandleFunc("POST /api/races/{id}/pause", s.pause)
	s.mux.HandleFunc("POST /api/races/{id}/resume", s.resume)
	s.mux.HandleFunc("POST /api/races/{id}/repeat", s.setRepeat)
	s.mux.HandleFunc("GET /api/races/{id}/links", s.listLinks)
	s.mux.HandleFunc("POST /api/races/{id}/links", s.newLink)
	s.mux.HandleFunc("POST /api/races/{id}/links/{link}/revoke", s.revokeLink)
	s.mux.HandleFunc("POST /api/races/{id}/remove", s.removeSeat)
	s.mux.HandleFunc("POST /api/races/{id}/join", s.join)
	s.mux.HandleFunc("POST /api/races/{id}/withdraw", s.withdraw)
	s.mux.HandleFunc("POST /api/races/{id}/start", s.start)
	s.mux.HandleFunc("POST /api/races/{id}/hooks", s.addHook)
	s.mux.HandleFunc("GET /api/races/{id}/hooks", s.listHooks)
	s.mux.HandleFunc("POST /api/races/{id}/hooks/{hook}/remove", s.removeHook)
	// What the command line shows of a race, and verify (views.go).
	s.mux.HandleFunc("GET /api/races/{id}/post", s.post)
	s.mux.HandleFunc("GET /api/races/{id}/picture", s.picture)
	s.mux.HandleFunc("GET /api/races/{id}/replay", s.replay)
	s.mux.HandleFunc("GET /api/races/{id}/export", s.export)
	s.mux.HandleFunc("POST /api/verify", s.verify)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, &apiError{Msg: fmt.Sprintf("no such endpoint: %s %s (the API is described at /openapi.json)", r.Method, r.URL.Path), Code: "no_such_endpoint"})
	})
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		writeError(w, http.StatusServiceUnavailable, &apiError{Msg: "starting up", Code: "not_ready"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

// apiError is an error a client can act on: what was wrong, the field of the
// request it was in, and a stable code.
type apiError struct {
	Msg   string `json:"error"`
	Field string `json:"field,omitempty"`
	Code  string `json:"code"`
}

func (e *apiError) Error() string { return e.Msg }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client may have gone; nothing to do about it
}

func writeError(w http.ResponseWriter, status int, e *apiError) {
	writeJSON(w, status, e)
}

// fail answers err: a client's mistake as a 4xx saying what was wrong, the
// service's own failure as a 500 that says no more than that (the log has it).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	var oe *race.OrderError
	switch {
	case errors.As(err, &ae):
		status := http.StatusUnprocessableEntity
		switch ae.Code {
		case "no_token", "bad_token", "revoked":
			status = http.StatusUnauthorized
		case "forbidden":
			status = http.StatusForbidden
		case "bad_json", "too_large":
			status = http.StatusBadRequest
		case "no_such_race", "no_such_link", "no_such_hook":
			status = http.StatusNotFound
		case "key_reused", "last_host_link", "not_started", "race_started", "name_taken":
			status = http.StatusConflict
		}
		writeError(w, status, ae)
	case errors.Is(err, host.ErrClosed):
		writeError(w, http.StatusConflict, &apiError{Msg: err.Error(), Field: "turn", Code: "turn_closed"})
	case errors.Is(err, race.ErrOver):
		writeError(w, http.StatusConflict, &apiError{Msg: err.Error(), Code: "race_over"})
	case errors.Is(err, host.ErrStarted):
		writeError(w, http.StatusConflict, &apiError{Msg: err.Error(), Code: "race_started"})
	case errors.Is(err, host.ErrNameTaken):
		writeError(w, http.StatusConflict, &apiError{Msg: err.Error(), Field: "name", Code: "name_taken"})
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, &apiError{Msg: err.Error(), Code: "no_such_race"})
	case errors.As(err, &oe):
		writeError(w, http.StatusUnprocessableEntity, &apiError{Msg: err.Error(), Field: "orders", Code: oe.ErrCode()})
	case host.IsBadInput(err):
		writeError(w, http.StatusUnprocessableEntity, &apiError{Msg: err.Error(), Code: host.Code(err)})
	case errors.Is(err, context.Canceled):
		// the client went away; there is no one to answer
	default:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, &apiError{Msg: "the service failed to do that; nothing was stored. Try again; if it goes on, tell the host", Code: "internal"})
	}
}

// bodyTime bounds how long a request's body may take to arrive: a client
// that sends it a byte at a time holds nothing for long.
const bodyTime = 30 * time.Second

// readBody reads a JSON request's body, at most limit bytes; what names it
// in the messages ("the body", "the export").
func readBody(w http.ResponseWriter, r *http.Request, limit int64, what string) ([]byte, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return nil, &apiError{Msg: fmt.Sprintf("%s must be JSON (Content-Type: application/json), not %s", what, ct), Code: "bad_json"}
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyTime)) // a test's recorder has none to set
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &mb):
		return nil, &apiError{Msg: fmt.Sprintf("%s is larger than %d bytes", what, limit), Code: "too_large"}
	case err != nil:
		return nil, &apiError{Msg: fmt.Sprintf("%s could not be read (%v); send it again, whole, within %s", what, err, bodyTime), Code: "bad_json"}
	case len(bytes.TrimSpace(b)) == 0:
		return nil, &apiError{Msg: what + " is empty; it must be a JSON object", Code: "bad_json"}
	}
	return b, nil
}

// decode reads a JSON body into v: at most maxBody bytes, one document, no
// field v does not have.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	b, err := readBody(w, r, maxBody, "the body")
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return &apiError{Msg: fmt.Sprintf("%s must be a %s, not a JSON %s", te.Field, te.Type, te.Value), Field: te.Field, Code: "bad_json"}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &apiError{Msg: fmt.Sprintf("unknown field %q", f), Field: f, Code: "bad_json"}
		}
		return &apiError{Msg: "the body is not valid JSON: " + err.Error(), Code: "bad_json"}
	}
	if dec.More() {
		return &apiError{Msg: "the body holds more than one JSON document", Code: "bad_json"}
	}
	return nil
}

// newToken is a fresh secret: 256 random bits, URL-safe. crypto/rand.Read
// never fails (it crashes the program rather than return weak bytes).
func newToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func hashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// viewer is who a request speaks for in race id: the host, a seat, or a
// spectator (no token, for a public race, or a spectator's link).
func (s *Server) viewer(r *http.Request, id string) (race.Viewer, *store.Token, error) {
	v, tok, _, err := s.viewerOf(r, id)
	return v, tok, err
}

// noRace is err, said as the client's mistake when race id is not served.
func noRace(id string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return &apiError{Msg: fmt.Sprintf("no race %q is served here", id), Code: "no_such_race"}
	}
	return err
}

// viewerOf is viewer with the race's access. An invite opens no view. A
// racer's link made before the start (it names its racer) is the seat its
// racer holds once the race has started, and a spectator before.
func (s *Server) viewerOf(r *http.Request, id string) (race.Viewer, *store.Token, store.Access, error) {
	a, err := s.access.Access(r.Context(), id)
	if err != nil {
		return race.Viewer{}, nil, a, noRace(id, err)
	}
	tok, err := s.token(r, id)
	if err != nil {
		return race.Viewer{}, nil, a, err
	}
	if tok == nil {
		if !a.Public {
			return race.Viewer{}, nil, a, &apiError{Msg: fmt.Sprintf("race %q is private: send its spectator link's token or your own (Authorization: Bearer TOKEN)", id), Code: "no_token"}
		}
		return race.Spectator, nil, a, nil
	}
	switch tok.Role {
	case store.RoleHost:
		return race.Host, tok, a, nil
	case store.RoleInvite:
		return race.Viewer{}, tok, a, &apiError{Msg: fmt.Sprintf("an invite link opens only the race's join (POST /api/races/%s/join); once in, use the racer's link the join gave", id), Field: "Authorization", Code: "forbidden"}
	case store.RoleSeat:
		if tok.Racer == "" {
			return race.SeatViewer(tok.Seat), tok, a, nil
		}
		begun, err := s.begun(r.Context(), id, a)
		if err != nil || !begun {
			return race.Spectator, tok, a, err
		}
		seat, err := s.racerSeat(r.Context(), id, tok.Racer)
		return race.SeatViewer(seat), tok, a, err
	}
	return race.Spectator, tok, a, nil
}

// writer is who a write to race id speaks for, refused unless its link is
// of the role the write needs: without a token, noToken says which one to
// send; with another's, forbidden says who may.
func (s *Server) writer(r *http.Request, id, role, noToken, forbidden string) (race.Viewer, error) {
	v, tok, err := s.viewer(r, id)
	if err == nil {
		err = linkOf(tok, role, noToken, forbidden)
	}
	return v, err
}

// linkOf refuses tok unless it is a link of role: without one, noToken says
// which to send; with another's, forbidden says who may.
func linkOf(tok *store.Token, role, noToken, forbidden string) error {
	switch {
	case tok == nil:
		return &apiError{Msg: noToken, Field: "Authorization", Code: "no_token"}
	case tok.Role != role:
		return &apiError{Msg: fmt.Sprintf("%s; this is the %s's link", forbidden, tok.Role), Field: "Authorization", Code: "forbidden"}
	}
	return nil
}

// token is the link a request's bearer token opens, nil for none; a token
// of another race is refused as forbidden.
func (s *Server) token(r *http.Request, id string) (*store.Token, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, nil
	}
	raw, ok := strings.CutPrefix(h, "Bearer ")
	raw = strings.TrimSpace(raw)
	if !ok || raw == "" {
		return nil, &apiError{Msg: "the Authorization header must be 'Bearer TOKEN'", Field: "Authorization", Code: "bad_token"}
	}
	hash := hashToken(raw)
	t, err := s.access.Token(r.Context(), hash)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &apiError{Msg: "that token opens no race here: check the link you were given", Field: "Authorization", Code: "bad_token"}
	}
	if err != nil {
		return nil, err
	}
	if t.Revoked != nil {
		return nil, &apiError{Msg: "that link was revoked by the race's host; ask the host for a new one", Field: "Authorization", Code: "revoked"}
	}
	if t.Race != id {
		return nil, &apiError{Msg: fmt.Sprintf("that token is for another race, not %q", id), Field: "Authorization", Code: "forbidden"}
	}
	return &t, nil
}
