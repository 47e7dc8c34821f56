package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"pitwall/host"
	"pitwall/race"
)

// twoTurns is a nascar race of two with turn 1 resolved and seat 1's
// orders in for turn 2.
func twoTurns(t *testing.T, s *service, body string) created {
	t.Helper()
	c := s.create(body)
	s.must(200, "POST", "/api/races/"+c.ID+"/orders", c.Seats[0], `{"turn": 1, "orders": "AM"}`)
	s.must(200, "POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
	s.must(200, "POST", "/api/races/"+c.ID+"/orders", c.Seats[0], `{"turn": 2, "orders": "AMM"}`)
	return c
}

// read makes a GET and returns its status, headers and body.
func (s *service) read(path, token string, header ...string) (int, http.Header, []byte) {
	s.t.Helper()
	req, err := http.NewRequest("GET", s.url+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

// viewAt is race id after turn n as v may see it, as the command line
// makes it for 'post' and 'render': the race as it stands for the last
// turn, as it was for an earlier one.
func (s *service) viewAt(id string, n int, v race.Viewer) *race.View {
	s.t.Helper()
	h := s.srv.host
	p, err := h.Load(s.t.Context(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	if n != p.Resolved() {
		if p, err = h.LoadAt(s.t.Context(), id, n); err != nil {
			s.t.Fatal(err)
		}
	}
	if err := h.WithBefore(s.t.Context(), p); err != nil {
		s.t.Fatal(err)
	}
	return p.View(v)
}

// The post is 'pitwall post --as VIEWER', for the request's viewer, in
// each format, with the picture the service serves.
func TestPostServed(t *testing.T) {
	s := newService(t)
	c := twoTurns(t, s, twoCars)
	for _, tc := range []struct {
		query, token, format, ctype string
		turn                        int
		viewer                      race.Viewer
	}{
		{"", "", "markdown", "text/markdown; charset=utf-8", 1, race.Spectator},
		{"?format=bbcode", "", "bbcode", "text/plain; charset=utf-8", 1, race.Spectator},
		{"?format=text&turn=1", c.Seats[1], "text", "text/plain; charset=utf-8", 1, race.SeatViewer(1)},
		{"?turn=0&format=markdown", c.Host, "markdown", "text/markdown; charset=utf-8", 0, race.Host},
		{"?turn=0&format=bbcode", c.Seats[0], "bbcode", "text/plain; charset=utf-8", 0, race.SeatViewer(0)},
	} {
		status, h, body := s.read("/api/races/"+c.ID+"/post"+tc.query, tc.token)
		if status != 200 || h.Get("Content-Type") != tc.ctype || h.Get("Cache-Control") != "no-store" {
			t.Fatalf("post%s: %d %v %s", tc.query, status, h, body)
		}
		want, err := host.Post(s.viewAt(c.ID, tc.turn, tc.viewer), tc.turn, tc.format, fmt.Sprintf("/api/races/%s/picture?turn=%d&format=png", c.ID, tc.turn))
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != want {
			t.Errorf("post%s as %s is not the command line's:\n%s\nwant:\n%s", tc.query, tc.viewer, body, want)
		}
	}
	_, _, text := s.read("/api/races/"+c.ID+"/post?format=text", "")
	for _, markup := range []string{"**", "[b]", "<details>", "|"} {
		if bytes.Contains(text, []byte(markup)) {
			t.Errorf("the post as text holds %q:\n%s", markup, text)
		}
	}
	if !bytes.Contains(text, []byte("Standings\n---------\n")) || !bytes.Contains(text, []byte("Red")) {
		t.Errorf("the post as text:\n%s", text)
	}
	// The picture the post shows is served, to anyone.
	_, _, md := s.read("/api/races/"+c.ID+"/post", "")
	m := regexp.MustCompile(`\]\((/api/races/[^)]+)\)`).FindSubmatch(md)
	if m == nil {
		t.Fatalf("the post shows no picture of the service's:\n%s", md)
	}
	if status, h, b := s.read(string(m[1]), ""); status != 200 || h.Get("Content-Type") != "image/png" || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("the post's picture %s: %d %v", m[1], status, h)
	}
	// A picture of the host's own choosing.
	_, _, bb := s.read("/api/races/"+c.ID+"/post?format=bbcode&picture=https://example.com/t1.png", "")
	if !bytes.Contains(bb, []byte("[img]https://example.com/t1.png[/img]")) {
		t.Errorf("the post with picture=...:\n%s", bb)
	}
}

// The picture is 'pitwall render --as VIEWER'; a turn named is cached for
// ever, the latest is revalidated.
func TestPictureServed(t *testing.T) {
	s := newService(t)
	c := twoTurns(t, s, twoCars)
	path := "/api/races/" + c.ID + "/picture"
	draws := 0
	s.srv.render = func(v *race.View, turn int, format string) ([]byte, error) {
		draws++
		return host.Render(v, turn, format)
	}
	status, h, png := s.read(path+"?turn=1", "")
	if status != 200 || h.Get("Content-Type") != "image/png" || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("the picture of turn 1: %d %v", status, h)
	}
	want, err := host.Render(s.viewAt(c.ID, 1, race.Spectator), 1, "png")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(png, want) {
		t.Error("the picture of turn 1 is not the command line's")
	}
	etag := h.Get("ETag")
	if h.Get("Cache-Control") != "public, max-age=31536000, immutable" || !strings.HasPrefix(etag, `"`) || h.Get("Vary") != "Authorization" {
		t.Errorf("a turn's picture, anonymous: %v", h)
	}
	if status, h, b := s.read(path+"?turn=1", "", "If-None-Match", etag); status != http.StatusNotModified || len(b) != 0 || h.Get("ETag") != etag {
		t.Errorf("the picture again with its ETag: %d %v, %d bytes", status, h, len(b))
	}
	if status, h, _ := s.read(path+"?turn=1", c.Seats[0]); status != 200 || h.Get("Cache-Control") != "private, max-age=31536000, immutable" {
		t.Errorf("a turn's picture with a token: %d %v", status, h)
	}
	// the latest: turn 1 still, but not for ever
	status, h, latest := s.read(path, "")
	if status != 200 || h.Get("Cache-Control") != "no-cache" || h.Get("ETag") != etag || !bytes.Equal(latest, png) {
		t.Errorf("the latest picture: %d %v", status, h)
	}
	status, h, svg := s.read(path+"?turn=0&format=svg", c.Host)
	if status != 200 || h.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(svg, []byte("<?xml")) ||
		!strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("the grid as SVG: %d %v", status, h)
	}
	if want, _ := host.Render(s.viewAt(c.ID, 0, race.Host), 0, "svg"); !bytes.Equal(svg, want) {
		t.Error("the grid as SVG is not the command line's")
	}
	// Each picture was drawn once: turn 1 for a spectator and for a seat,
	// the grid in SVG for the host; the rest came from those.
	if status, _, b := s.read(path+"?turn=1", c.Seats[0]); status != 200 || !bytes.Equal(b, png) {
		t.Errorf("turn 1 again for the seat: %d", status)
	}
	if draws != 3 {
		t.Errorf("the pictures were drawn %d times; want 3", draws)
	}
}

// The race after a turn is 'pitwall --json replay --as VIEWER'.
func TestReplayServed(t *testing.T) {
	s := newService(t)
	c := twoTurns(t, s, `{"ruleset": "nascar", "track": "oval", "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	sandbags := func(v map[string]any) int {
		l, _ := v["state"].(map[string]any)["sandbags"].([]any)
		return len(l)
	}
	hv := s.must(200, "GET", "/api/races/"+c.ID+"/replay?turn=1", c.Host, "")
	if hv["race"] != c.ID || hv["turn"] != 1.0 || hv["viewer"] != "host" || hv["hash"] == nil || sandbags(hv) == 0 {
		t.Errorf("the host's replay of turn 1: %v", hv)
	}
	if o := hv["orders"].(map[string]any); o["1"] != "AM" {
		t.Errorf("turn 1's orders, by seat from 1: %v", o)
	}
	for _, k := range []string{"standings", "events", "rolls", "state"} {
		if _, ok := hv[k]; !ok {
			t.Errorf("the replay has no %s: %v", k, hv)
		}
	}
	for _, tok := range []string{"", c.Seats[1]} {
		v := s.must(200, "GET", "/api/races/"+c.ID+"/replay", tok, "")
		if v["turn"] != 1.0 || v["hash"] != nil || sandbags(v) != 0 || strings.Contains(fmt.Sprint(v), "AMM") {
			t.Errorf("a replay as %q: %v", tok, v)
		}
	}
	if v := s.must(200, "GET", "/api/races/"+c.ID+"/replay?turn=0", c.Seats[0], ""); v["viewer"] != "seat 1" || v["events"] != nil || v["turn"] != 0.0 {
		t.Errorf("the replay of the start as seat 1: %v", v)
	}
}

// The export is the same for every viewer, the host's included; it
// verifies, without its seed until the race is over; POST /api/verify
// tells a tampered one.
func TestExportAndVerify(t *testing.T) {
	s, _ := clocked(t)
	c := twoTurns(t, s, twoCars)
	read := func(tok string) string {
		status, _, b := s.read("/api/races/"+c.ID+"/export", tok)
		if status != 200 {
			t.Fatalf("the export: %d %s", status, b)
		}
		return string(b)
	}
	x := read("")
	for _, tok := range []string{c.Host, c.Seats[0]} {
		if got := read(tok); got != x {
			t.Errorf("the export for another viewer differs:\n%s\n%s", got, x)
		}
	}
	var doc host.Export
	if err := json.Unmarshal([]byte(x), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Race.Seed != "" || doc.Over || len(doc.Turns) != 1 || doc.Turns[0].State != nil || doc.Turns[0].Seal == "" || strings.Contains(x, "AMM") {
		t.Errorf("a running race's export: %s", x)
	}
	v := s.must(200, "POST", "/api/verify?head="+strings.ToUpper(doc.ChainHead), "", x)
	if v["ok"] != true || v["replayed"] != false || v["race"] != c.ID || v["head_entry"] == nil {
		t.Errorf("verifying the export: %v", v)
	}
	tampered := strings.Replace(x, `"text":"AM"`, `"text":"AL"`, 1)
	if tampered == x {
		t.Fatal("the export has no order to tamper with")
	}
	if v := s.must(200, "POST", "/api/verify", "", tampered); v["ok"] != false || len(v["problems"].([]any)) == 0 {
		t.Errorf("verifying a tampered export: %v", v)
	}
	// To the end: then the seed is in, and the turns replay.
	for i := range c.Seats {
		s.must(200, "POST", "/api/races/"+c.ID+"/bot", c.Host, fmt.Sprintf(`{"seat": %d, "bot": true}`, i+1))
	}
	for turn := 2; ; turn++ {
		if turn > 200 {
			t.Fatal("the race is not over after 200 turns")
		}
		if _, v := s.call("GET", "/api/races/"+c.ID, "", ""); v["over"] == true {
			break
		}
		s.must(200, "POST", "/api/races/"+c.ID+"/resolve", c.Host, fmt.Sprintf(`{"turn": %d}`, turn))
		s.srv.settle(t.Context(), c.ID)
	}
	x = read("")
	if err := json.Unmarshal([]byte(x), &doc); err != nil || doc.Race.Seed == "" || !doc.Over {
		t.Fatalf("a finished race's export: %v %s", err, x)
	}
	if v := s.must(200, "POST", "/api/verify", "", x); v["ok"] != true || v["replayed"] != true || v["seed"] != doc.Race.Seed {
		t.Errorf("verifying the finished race's export: %v", v)
	}
}

// Every new read refuses what it cannot do with a 4xx that says what
// would be right; none is a 500.
func TestViewsBadInput(t *testing.T) {
	s := newService(t)
	c := twoTurns(t, s, twoCars)
	priv := s.create(`{"ruleset": "nascar", "public": false, "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	r := "/api/races/" + c.ID
	big := `{"format": "` + strings.Repeat("x", maxExport) + `"}`
	for _, tc := range []struct {
		what, method, path, ctype, body string
		status                          int
		code, field                     string
	}{
		{"a post of a turn to come", "GET", r + "/post?turn=2", "", "", 404, "no_such_turn", "turn"},
		{"a post of turn -1", "GET", r + "/post?turn=-1", "", "", 422, "bad_input", "turn"},
		{"a post of turn one", "GET", r + "/post?turn=one", "", "", 422, "bad_input", "turn"},
		{"a post as HTML", "GET", r + "/post?format=html", "", "", 422, "bad_input", "format"},
		{"a post with a misspelt parameter", "GET", r + "/post?fromat=text", "", "", 422, "bad_input", "fromat"},
		{"a post of two turns", "GET", r + "/post?turn=0&turn=1", "", "", 422, "bad_input", "turn"},
		{"a post with a long picture", "GET", r + "/post?picture=" + strings.Repeat("p", maxPicture+1), "", "", 422, "bad_input", "picture"},
		{"a bad query string", "GET", r + "/post?turn=%zz", "", "", 422, "bad_input", ""},
		{"a post of no race", "GET", "/api/races/nowhere/post", "", "", 404, "no_such_race", ""},
		{"a post of a private race", "GET", "/api/races/" + priv.ID + "/post?format=nonsense", "", "", 401, "no_token", ""},
		{"a picture of a turn to come", "GET", r + "/picture?turn=9", "", "", 404, "no_such_turn", "turn"},
		{"a picture as GIF", "GET", r + "/picture?format=gif", "", "", 422, "bad_input", "format"},
		{"a picture with a misspelt parameter", "GET", r + "/picture?trun=1", "", "", 422, "bad_input", "trun"},
		{"a picture of no race", "GET", "/api/races/nowhere/picture?turn=1", "", "", 404, "no_such_race", ""},
		{"a replay of a turn to come", "GET", r + "/replay?turn=2", "", "", 404, "no_such_turn", "turn"},
		{"a replay of turn 1.5", "GET", r + "/replay?turn=1.5", "", "", 422, "bad_input", "turn"},
		{"a replay as someone", "GET", r + "/replay?as=host", "", "", 422, "bad_input", "as"},
		{"an export of a turn", "GET", r + "/export?turn=1", "", "", 422, "bad_input", "turn"},
		{"an export of no race", "GET", "/api/races/nowhere/export", "", "", 404, "no_such_race", ""},
		{"a verify of nothing", "POST", "/api/verify", "", "", 400, "bad_json", ""},
		{"a verify of not JSON", "POST", "/api/verify", "application/json", "not json", 422, "not_an_export", ""},
		{"a verify of another JSON", "POST", "/api/verify", "application/json", `{"ruleset": "nascar"}`, 422, "not_an_export", ""},
		{"a verify of another format", "POST", "/api/verify", "application/json", `{"format": "pitwall-race-export/9"}`, 422, "not_an_export", ""},
		{"a verify of text", "POST", "/api/verify", "text/plain", `{}`, 400, "bad_json", ""},
		{"a verify too large", "POST", "/api/verify", "application/json", big, 400, "too_large", ""},
		{"a verify of a bad head", "POST", "/api/verify?head=abc", "application/json", `{}`, 422, "bad_input", "head"},
		{"a verify with a misspelt parameter", "POST", "/api/verify?haed=abc", "application/json", `{}`, 422, "bad_input", "haed"},
	} {
		req, _ := http.NewRequest(tc.method, s.url+tc.path, strings.NewReader(tc.body))
		if tc.ctype != "" {
			req.Header.Set("Content-Type", tc.ctype)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Errorf("%s: %d, not JSON: %.200s", tc.what, res.StatusCode, b)
			continue
		}
		if res.StatusCode != tc.status || v["code"] != tc.code || (tc.field != "" && v["field"] != tc.field) || v["error"] == "" {
			t.Errorf("%s: %d %v; want %d, code %s, field %q", tc.what, res.StatusCode, v, tc.status, tc.code, tc.field)
		}
	}
	// A hostile export is a report or a refusal, never the service's failure.
	_, _, good := s.read(r+"/export", "")
	for _, mangle := range []func(string) string{
		func(x string) string { return strings.Replace(x, `"turn":1`, `"turn":-7`, 1) },
		func(x string) string { return strings.Replace(x, `"seat":0`, `"seat":99`, 1) },
		func(x string) string { return strings.Replace(x, `"ruleset":"nascar"`, `"ruleset":"chess"`, 1) },
		func(x string) string { return strings.Replace(x, `"seal":"`, `"seal":"zz`, 1) },
		func(x string) string {
			return strings.Replace(x, `"log":[`, `"log":[{"seq":1,"kind":"order","seat":5,"text":"AM"},`, 1)
		},
		func(x string) string {
			return strings.Replace(x, `"turns":[`, `"turns":[{"turn":1,"state":{"x":1},"dice_state":"zz"},`, 1)
		},
	} {
		x := mangle(string(good))
		if x == string(good) {
			t.Fatalf("a mangle changed nothing in %s", good)
		}
		if status, v := s.call("POST", "/api/verify", "", x); status != 200 && status != 422 || status == 200 && v["ok"] != false {
			t.Errorf("verifying a mangled export: %d %v\n%s", status, v, x)
		}
	}
}

// The reads and verify are in the service's own description of itself.
func TestViewsDescribed(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(openapiDoc, &doc); err != nil {
		t.Fatal(err)
	}
	for path, method := range map[string]string{"/api/races/{id}/post": "get", "/api/races/{id}/picture": "get",
		"/api/races/{id}/replay": "get", "/api/races/{id}/export": "get", "/api/verify": "post"} {
		if _, ok := doc.Paths[path][method]; !ok {
			t.Errorf("openapi.json does not describe %s %s", method, path)
		}
	}
}
