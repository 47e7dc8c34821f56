package web

import (
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"pitwall/store"
)

//go:embed static/openapi.json
var openapiDoc []byte

func (s *Server) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(openapiDoc)
}

var homePage = template.Must(template.New("home").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pitwall: races</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 46rem; padding: 1rem; color: #221d33; background: #f4f1e8; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #d8d2c4; }
th { font-weight: 600; }
.empty { color: #6b6478; }
code { font-size: .9em; }
</style>
</head>
<body>
<h1>pitwall: races served here</h1>
{{if .Races}}
<table>
<thead><tr><th>Race</th><th>Game</th><th>Track</th><th>Turns played</th><th>Latest</th></tr></thead>
<tbody>
{{range .Races}}<tr><td><code>{{.ID}}</code></td><td>{{.Ruleset}}</td><td>{{.Track}}</td><td>{{.Turns}}</td><td><a href="/api/races/{{.ID}}/picture?format=svg">picture</a> · <a href="/api/races/{{.ID}}/post?format=markdown">post</a></td></tr>
{{end}}</tbody>
</table>
{{if .Next}}<p><a href="/?after={{.Next}}">Older races</a></p>{{end}}
{{else}}
<p class="empty">No public race is served here yet.</p>
{{end}}
<p>The API is described at <a href="/openapi.json">/openapi.json</a>.</p>
</body>
</html>
`))

// A page of the public race list: at most listLimit races (the default),
// or as many as ?limit= asks, up to maxListLimit.
const (
	listLimit    = 50
	maxListLimit = 200
)

// racePage is one page of the public races, and the cursor of the next
// page ("" on the last).
type racePage struct {
	Races []store.Summary `json:"races"`
	Next  string          `json:"next,omitempty"`
}

// publicRaces reads the page of public races that the request's ?after=
// and ?limit= ask for. Races are read from the store a page at a time, so a
// service of tens of thousands of races reads a few pages, not all.
func (s *Server) publicRaces(r *http.Request) (racePage, error) {
	q := r.URL.Query()
	limit := listLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxListLimit {
			return racePage{}, &apiError{Msg: fmt.Sprintf("limit is a number of races from 1 to %d; not %q", maxListLimit, v), Field: "limit", Code: "bad_input"}
		}
		limit = n
	}
	p := store.Page{Limit: 2 * limit}
	if v := q.Get("after"); v != "" {
		created, id, err := readCursor(v)
		if err != nil {
			return racePage{}, &apiError{Msg: "after is the next field of the page before; " + err.Error(), Field: "after", Code: "bad_input"}
		}
		p.AfterCreated, p.AfterID = created, id
	}
	out := racePage{Races: []store.Summary{}}
	for {
		batch, err := s.host.Store.List(r.Context(), p)
		if err != nil {
			return racePage{}, err
		}
		for _, x := range batch {
			a, err := s.access.Access(r.Context(), x.ID)
			switch {
			case errors.Is(err, store.ErrNotFound):
				continue // a race of the command line's, not served
			case err != nil:
				return racePage{}, err // a list with races missing would say they are gone
			case !a.Public:
				continue
			}
			if len(out.Races) == limit { // one more public race: there is a next page
				out.Next = cursor(out.Races[limit-1])
				return out, nil
			}
			out.Races = append(out.Races, x)
		}
		if len(batch) < p.Limit {
			return out, nil
		}
		p = store.After(batch[len(batch)-1], p.Limit)
	}
}

// cursor names a race's place in the list for ?after=: its creation time
// and id, which no later race changes.
func cursor(x store.Summary) string {
	return base64.RawURLEncoding.EncodeToString([]byte(x.Created.UTC().Format(time.RFC3339Nano) + " " + x.ID))
}

func readCursor(v string) (time.Time, string, error) {
	b, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		return time.Time{}, "", errors.New("this one is not base64")
	}
	at, id, ok := strings.Cut(string(b), " ")
	created, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil || id == "" {
		return time.Time{}, "", errors.New("this one does not name a race's place")
	}
	return created, id, nil
}

// home lists the public races.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	page, err := s.publicRaces(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := homePage.Execute(w, page); err != nil {
		s.log.Error("home page", "err", err)
	}
}

// listRaces is GET /api/races: the public races, newest first, a page at a
// time, as the home page lists them.
func (s *Server) listRaces(w http.ResponseWriter, r *http.Request) {
	page, err := s.publicRaces(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}
