package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"pitwall/host"
	"pitwall/race"
)

// What the command line shows of a race, served: the turn post, the
// picture, the race after a turn and its export, each made from the
// request's viewer's projection (race.View) as --as makes it; and the
// verification of an export, which needs no race here at all.

// maxExport is the largest export POST /api/verify reads: a finished
// twelve-chariot ludi race's is under 1 MiB, so this is room for races
// ten times as long, and a bound on the work an anonymous caller can ask
// for (host.MaxExport, for files, is larger).
const maxExport = 8 << 20

// maxPicture is the longest picture address a post takes.
const maxPicture = 2048

// query reads a read's query string: only the parameters it takes, each
// at most once, so a misspelt one is refused rather than ignored.
func query(r *http.Request, takes ...string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, &apiError{Msg: "the query string cannot be read: " + err.Error(), Code: "bad_input"}
	}
	for k, vs := range q {
		switch {
		case !slices.Contains(takes, k):
			known := "none"
			if len(takes) > 0 {
				known = strings.Join(takes, ", ")
			}
			return nil, &apiError{Msg: fmt.Sprintf("unknown parameter %q: this request takes %s", k, known), Field: k, Code: "bad_input"}
		case len(vs) > 1:
			return nil, &apiError{Msg: fmt.Sprintf("%s is given %d times; give it once", k, len(vs)), Field: k, Code: "bad_input"}
		}
	}
	return q, nil
}

// oneOf reads parameter name of q: one of allowed, the first when it is
// not given.
func oneOf(q url.Values, name string, allowed ...string) (string, error) {
	if !q.Has(name) {
		return allowed[0], nil
	}
	v := q.Get(name)
	if !slices.Contains(allowed, v) {
		return "", &apiError{Msg: fmt.Sprintf("%s is one of %s; not %q", name, strings.Join(allowed, ", "), v), Field: name, Code: "bad_input"}
	}
	return v, nil
}

// reader opens a read of the request's race: its viewer and query, or
// false once the refusal is answered. The viewer comes first: a caller who
// may not see the race learns nothing of it from its parameters.
func (s *Server) reader(w http.ResponseWriter, r *http.Request, takes ...string) (race.Viewer, url.Values, bool) {
	id := r.PathValue("id")
	v, _, a, err := s.viewerOf(r, id)
	if err == nil {
		// A race by invite is set up at its start: there is no turn to show before.
		var begun bool
		if begun, err = s.begun(r.Context(), id, a); err == nil && !begun {
			err = notStarted(id, "what it shows of its turns")
		}
	}
	var q url.Values
	if err == nil {
		q, err = query(r, takes...)
	}
	if err != nil {
		s.fail(w, r, err)
		return v, nil, false
	}
	return v, q, true
}

// atTurn is the request's race after the turn its query names (default:
// the last resolved; 0 is the start), holding that turn as it was
// resolved: the race as it stands for the last turn, as it was then for an
// earlier one (as the command line's --turn). given says whether the query
// named the turn. It returns false once a refusal is answered.
func (s *Server) atTurn(w http.ResponseWriter, r *http.Request, q url.Values) (p *race.Played, n int, given, ok bool) {
	id := r.PathValue("id")
	if p, ok = s.load(w, r, id); !ok {
		return nil, 0, false, false
	}
	last := p.Resolved()
	if !q.Has("turn") {
		return p, last, false, true
	}
	n, err := strconv.Atoi(q.Get("turn"))
	if err != nil || n < 0 {
		s.fail(w, r, &apiError{Msg: fmt.Sprintf("turn is a turn's number: 0 (the start) to %d (the last resolved); not %q", last, q.Get("turn")), Field: "turn", Code: "bad_input"})
		return nil, 0, true, false
	}
	if n > last {
		why := fmt.Sprintf("turn %d is open", last+1)
		if p.State.Over() {
			why = "the race is over"
		}
		writeError(w, http.StatusNotFound, &apiError{Msg: fmt.Sprintf("turn %d of race %q has not been resolved: %s; turns 0 (the start) to %d have", n, id, why, last), Field: "turn", Code: "no_such_turn"})
		return nil, 0, true, false
	}
	if n < last {
		lp, err := s.host.LoadAt(r.Context(), id, n)
		if err != nil {
			s.fail(w, r, err)
			return nil, 0, true, false
		}
		p = lp
	}
	return p, n, true, true
}

// pictureURL is where the service serves race id's picture after turn n.
func pictureURL(id string, n int) string {
	return fmt.Sprintf("/api/races/%s/picture?turn=%d&format=png", url.PathEscape(id), n)
}

// post is GET /api/races/{id}/post: the turn summary post, as 'pitwall
// post --as VIEWER' writes it.
func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	v, q, ok := s.reader(w, r, "turn", "format", "picture")
	if !ok {
		return
	}
	format, err := oneOf(q, "format", "markdown", "bbcode", "text")
	if err == nil && len(q.Get("picture")) > maxPicture {
		err = &apiError{Msg: fmt.Sprintf("picture is an address of at most %d characters; got %d", maxPicture, len(q.Get("picture"))), Field: "picture", Code: "bad_input"}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, n, _, ok := s.atTurn(w, r, q)
	if !ok {
		return
	}
	// The headline compares the turn with the state before it.
	if err := s.host.WithBefore(r.Context(), p); err != nil {
		s.fail(w, r, err)
		return
	}
	picture := pictureURL(p.Race.ID, n)
	if q.Has("picture") {
		picture = q.Get("picture")
	}
	text, err := host.Post(p.View(v), n, format, picture)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ct := "text/plain; charset=utf-8"
	if format == "markdown" {
		ct = "text/markdown; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	// The last turn's post tells of the open turn (its deadline), which
	// changes; an earlier one's tells the chain's head, which moves on.
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = io.WriteString(w, text)
}

// picture is GET /api/races/{id}/picture: the track after a turn, as
// 'pitwall render --as VIEWER' draws it.
//
// A turn once resolved is drawn from its record, which never changes, and
// no game draws a hidden thing (they are kept out of a viewer's state, and
// the drawing never reads them), so a turn's picture is the same for every
// viewer and for ever: with the turn named it is cached as immutable
// (webhooks put its address into chat embeds). Without a turn it is the
// latest, which moves on: it is revalidated by its ETag.
// pictureCache is how many pictures the service keeps drawn (a PNG of a
// twelve-chariot ludi race is about 100 KB).
const pictureCache = 256

// pictureKey names a picture kept drawn: a race's, after a turn, in a
// format, for a viewer.
type pictureKey struct {
	race, format string
	turn         int
	viewer       race.Viewer
}

// drawn is a picture kept drawn, with its ETag.
type drawn struct {
	b    []byte
	etag string
}

func (s *Server) picture(w http.ResponseWriter, r *http.Request) {
	v, q, ok := s.reader(w, r, "turn", "format")
	if !ok {
		return
	}
	format, err := oneOf(q, "format", "png", "svg")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// A turn once resolved is drawn the same for ever, so a picture asked
	// for again (a chat's embed, every reader of a forum page) is not
	// drawn again.
	id := r.PathValue("id")
	key := pictureKey{race: id, format: format, viewer: v}
	given := q.Has("turn")
	pic, ok := drawn{}, false
	if n, err := strconv.Atoi(q.Get("turn")); given && err == nil {
		key.turn = n
		pic, ok = s.pictures.Get(key)
	}
	if !ok {
		p, n, _, ok := s.atTurn(w, r, q)
		if !ok {
			return
		}
		key.turn = n
		if pic, ok = s.pictures.Get(key); !ok {
			b, err := s.render(p.View(v), n, format)
			if err != nil {
				s.fail(w, r, err)
				return
			}
			sum := sha256.Sum256(b)
			pic = drawn{b: b, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
			s.pictures.Add(key, pic)
		}
	}
	n, b := key.turn, pic.b
	h := w.Header()
	h.Set("ETag", pic.etag)
	h.Set("Vary", "Authorization")
	switch {
	case !given:
		h.Set("Cache-Control", "no-cache")
	case r.Header.Get("Authorization") != "":
		// A link's picture stays in its holder's cache: a shared cache
		// keeps nothing a token opened.
		h.Set("Cache-Control", "private, max-age=31536000, immutable")
	default:
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	name := fmt.Sprintf("%s-turn%02d.%s", id, n, format)
	if format == "svg" {
		h.Set("Content-Type", "image/svg+xml")
		// Opened by itself, an SVG is a page of this service's: it may
		// run nothing and load nothing.
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	} else {
		h.Set("Content-Type", "image/png")
	}
	h.Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name))
	// ServeContent answers If-None-Match (304), HEAD and ranges.
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}

// replay is GET /api/races/{id}/replay: the race after a turn, as
// 'pitwall --json replay RACE --turn N --as VIEWER' prints it.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	v, q, ok := s.reader(w, r, "turn")
	if !ok {
		return
	}
	p, n, _, ok := s.atTurn(w, r, q)
	if !ok {
		return
	}
	out, err := host.Replay(p.View(v), n)
	if err != nil {
		s.fail(w, r, err) // atTurn has checked the turn: the service's own failure
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// export is GET /api/races/{id}/export: the race as anyone may check it
// without this service (host.Export, as 'pitwall race export' writes it).
// It is the same for every viewer, the host's included: the orders of the
// open turn, the state of each turn and the secret options are left out
// (sealed) until the race is over, and so is the seed.
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	if _, _, ok := s.reader(w, r); !ok {
		return
	}
	x, err := s.host.Export(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, x)
}

// verify is POST /api/verify: an export checked as 'pitwall verify --file'
// checks it. It reads no token and no race of this service's: anyone may
// check any export. A race that fails is still a 200: the report says so.
func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "head")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	head := strings.ToLower(q.Get("head"))
	if q.Has("head") {
		if b, err := hex.DecodeString(head); err != nil || len(b) != sha256.Size {
			s.fail(w, r, &apiError{Msg: fmt.Sprintf("head is a chain head as posts print it: 64 hex digits; not %q", q.Get("head")), Field: "head", Code: "bad_input"})
			return
		}
	}
	b, err := readBody(w, r, maxExport, "the export")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	x, err := host.ReadExport(bytes.NewReader(b))
	if err != nil {
		s.fail(w, r, &apiError{Msg: err.Error() + " (the body must be a race's export, as GET /api/races/{id}/export gives it)", Code: "not_an_export"})
		return
	}
	writeJSON(w, http.StatusOK, host.VerifyExport(x, head))
}
