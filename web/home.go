package web

import (
	_ "embed"
	"errors"
	"html/template"
	"net/http"

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
{{if .}}
<table>
<thead><tr><th>Race</th><th>Game</th><th>Track</th><th>Turns played</th></tr></thead>
<tbody>
{{range .}}<tr><td><code>{{.ID}}</code></td><td>{{.Ruleset}}</td><td>{{.Track}}</td><td>{{.Turns}}</td></tr>
{{end}}</tbody>
</table>
{{else}}
<p class="empty">No public race is served here yet.</p>
{{end}}
<p>The API is described at <a href="/openapi.json">/openapi.json</a>.</p>
</body>
</html>
`))

// publicRaces lists the races anyone may watch.
func (s *Server) publicRaces(r *http.Request) ([]store.Summary, error) {
	all, err := s.host.Store.List(r.Context())
	if err != nil {
		return nil, err
	}
	shown := []store.Summary{}
	for _, x := range all {
		a, err := s.access.Access(r.Context(), x.ID)
		switch {
		case errors.Is(err, store.ErrNotFound):
			// a race of the command line's, not served
		case err != nil:
			return nil, err // a list with races missing would say they are gone
		case a.Public:
			shown = append(shown, x)
		}
	}
	return shown, nil
}

// home lists the public races.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	shown, err := s.publicRaces(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := homePage.Execute(w, shown); err != nil {
		s.log.Error("home page", "err", err)
	}
}

// listRaces is GET /api/races: the public races, as the home page lists them.
func (s *Server) listRaces(w http.ResponseWriter, r *http.Request) {
	shown, err := s.publicRaces(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"races": shown})
}
