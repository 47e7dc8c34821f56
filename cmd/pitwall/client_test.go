package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pitwall/host"
	"pitwall/store/sqlite"
	"pitwall/web"
)

// liveService serves a new SQLite database in this process, as 'pitwall
// serve' does; wrap, when not nil, stands between the service and its
// clients. It returns the service's URL and its database's path, which the
// local commands may read beside it.
func liveService(t *testing.T, wrap func(http.Handler) http.Handler) (string, string) {
	t.Helper()
	return liveServiceWith(t, wrap, nil)
}

// liveServiceWith is liveService with configure, when not nil, run on the
// service before it serves (as 'pitwall serve' sets its webhooks).
func liveServiceWith(t *testing.T, wrap func(http.Handler) http.Handler, configure func(*web.Server)) (string, string) {
	t.Helper()
	// The environment must not choose a service or a token for the commands run here.
	t.Setenv("PITWALL_SERVER", "")
	t.Setenv("PITWALL_TOKEN", "")
	db := filepath.Join(t.TempDir(), "served.db")
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(host.New(st), nil)
	if err != nil {
		t.Fatal(err)
	}
	if configure != nil {
		configure(srv)
	}
	srv.SetReady(true)
	h := srv.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); hs.Close(); st.Close() })
	return hs.URL, db
}

// servedRace is a race created over --server: its id and tokens.
type servedNascar struct {
	id, hostToken string
	seats         []string // the seats' tokens, seat 1 first: Red, Blue
}

// newServedNascar creates a two-seat NASCAR race over --server.
func newServedNascar(t *testing.T, url string) servedNascar {
	t.Helper()
	entrants := filepath.Join(t.TempDir(), "entrants.yaml")
	if err := os.WriteFile(entrants, []byte("entrants:\n  - player: Dale\n    racer: Red\n    upgrade: turbo\n  - player: Jeff\n    racer: Blue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, doc, errs := jsonOf(t, "--server", url, "race", "new", "--rules", "nascar", "--entrants", entrants)
	if code != 0 {
		t.Fatalf("race new over --server: %d %s", code, errs)
	}
	r := servedNascar{id: doc["id"].(string), hostToken: doc["host_token"].(string)}
	for _, s := range doc["seats"].([]any) {
		r.seats = append(r.seats, s.(map[string]any)["token"].(string))
	}
	if len(r.seats) != 2 || r.hostToken == "" || doc["track"] != "oval" || doc["entrants"] != 2.0 || doc["public"] != true {
		t.Fatalf("race new over --server answered %v", doc)
	}
	return r
}

// get reads an API answer's body, failing t unless it is a 200.
func get(t *testing.T, url string) []byte {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v %s", url, res.StatusCode, err, b)
	}
	return b
}

// A race played over --server: created with its tokens printed once,
// orders from a seat's token (and not for another seat), a resolve by the
// host, a spectator's show without a token, and post and picture the very
// bytes the API serves; each printed as the local command prints it.
func TestServerRace(t *testing.T) {
	url, db := liveService(t, nil)
	r := newServedNascar(t, url)
	remote := func(token string, args ...string) (int, string, string) {
		t.Helper()
		return pitwall(t, append([]string{"--server", url, "--token", token}, args...)...)
	}
	local := func(args ...string) string {
		t.Helper()
		code, out, errs := pitwall(t, append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("%v: %d %s", args, code, errs)
		}
		return out
	}

	// The text form prints every token, and says they are shown once.
	code, out, errs := pitwall(t, "--server", url, "race", "new", "--rules", "nascar", "--entrants", writeTemp(t, "entrants:\n  - player: A\n  - player: B\n"))
	if code != 0 {
		t.Fatalf("race new: %d %s", code, errs)
	}
	has(t, "race new's text", out, "created race nascar-", "(nascar on oval) with 2 entrants", "dice commitment (publish it): sha256 ", "shown this once", "\n  host ", "\n  seat 1 A ", "\n  seat 2 B ")

	code, out, errs = remote(r.seats[0], "orders", "submit", r.id, "Red", "AM")
	if code != 0 || out != "accepted for turn 1 from Red (seat 1): AM\n" {
		t.Fatalf("Red's orders with Red's token: %d %q %s", code, out, errs)
	}
	// Red's token may not order for Blue, named either way; nothing is stored.
	for _, seat := range []string{"Blue", "2"} {
		code, _, errs = remote(r.seats[0], "orders", "submit", r.id, seat, "AM")
		if code != 2 || !strings.Contains(errs, "SEAT "+seat+" is seat 2 (Blue), but the token is seat 1's (Red)") {
			t.Fatalf("Blue's orders with Red's token: %d %s", code, errs)
		}
	}
	_, shown, _ := jsonOf(t, "--db", db, "race", "show", r.id)
	if in := shown["orders_in"].([]any); len(in) != 1 || in[0] != "Red" {
		t.Fatalf("orders in after a refused order for Blue: %v", in)
	}
	// A seat does not resolve; the host does.
	if code, _, errs = remote(r.seats[1], "turn", "resolve", r.id); code != 2 || !strings.Contains(errs, "only the race's host resolves a turn") {
		t.Fatalf("resolve with a seat's token: %d %s", code, errs)
	}
	code, res, errs := jsonOf(t, "--server", url, "--token", r.hostToken, "turn", "resolve", r.id)
	if code != 0 || res["resolved"] != true || res["turn"] != 1.0 {
		t.Fatalf("resolve as host: %d %v %s", code, res, errs)
	}
	_, rep, _ := jsonOf(t, "--db", db, "replay", r.id, "--turn", "1")
	for _, k := range []string{"hash", "events", "orders", "standings"} {
		if !jsonEqual(res[k], rep[k]) {
			t.Errorf("the resolve's %s over --server is %v; the race here says %v", k, res[k], rep[k])
		}
	}

	// A spectator of a public race needs no token, and sees what the race
	// here shows a spectator, in the same words.
	code, out, errs = remote("", "race", "show", r.id)
	if want := local("race", "show", r.id, "--as", "spectator"); code != 0 || out != want {
		t.Fatalf("show as a spectator over --server: %d %s\n%s\nhere:\n%s", code, errs, out, want)
	}
	if code, doc, _ := jsonOf(t, "--server", url, "race", "show", r.id); code != 0 || doc["viewer"] != "spectator" || doc["turns_resolved"] != 1.0 {
		t.Fatalf("show --json as a spectator: %d %v", code, doc)
	}
	// Red's view has Red's own orders, as the race here shows seat 1's.
	code, out, _ = remote(r.seats[0], "race", "show", r.id, "--as", "Red")
	if want := local("race", "show", r.id, "--as", "1"); code != 0 || out != want {
		t.Fatalf("show as Red over --server:\n%s\nhere:\n%s", out, want)
	}
	code, out, _ = remote(r.seats[0], "replay", r.id, "--turn", "1")
	if want := local("replay", r.id, "--turn", "1", "--as", "Red"); code != 0 || out != want {
		t.Fatalf("replay as Red over --server:\n%s\nhere:\n%s", out, want)
	}

	// post and render: the API's bytes.
	code, out, errs = remote("", "post", r.id, "--format", "bbcode")
	if api := get(t, url+"/api/races/"+r.id+"/post?turn=1&format=bbcode"); code != 0 || out != string(api) {
		t.Fatalf("post over --server: %d %s\n%s\nthe API:\n%s", code, errs, out, api)
	}
	pic := filepath.Join(t.TempDir(), "turn1.png")
	code, out, errs = remote(r.hostToken, "render", r.id, "--format", "png", "--out", pic)
	if code != 0 || out != "wrote "+pic+" (turn 1)\n" {
		t.Fatalf("render over --server: %d %q %s", code, out, errs)
	}
	if b, _ := os.ReadFile(pic); !bytes.Equal(b, get(t, url+"/api/races/"+r.id+"/picture?turn=1&format=png")) {
		t.Fatalf("the picture render wrote over --server (%d bytes) is not the API's", len(b))
	}

	// An export fetched from the service is the file the race here writes
	// (but for the moment it was made), and verifies.
	x := filepath.Join(t.TempDir(), "served.json")
	if code, _, errs = remote("", "race", "export", r.id, "--out", x); code != 0 {
		t.Fatalf("export over --server: %d %s", code, errs)
	}
	y := filepath.Join(t.TempDir(), "here.json")
	local("race", "export", r.id, "--out", y)
	if a, b := withoutLine(t, x, `"exported"`), withoutLine(t, y, `"exported"`); a != b {
		t.Fatalf("the export over --server differs from the one here:\n%s\nhere:\n%s", a, b)
	}
	if code, out, errs = remote("", "verify", r.id); code != 0 || !strings.Contains(out, r.id+": 2 entries chain to head ") {
		t.Fatalf("verify over --server: %d %s %s", code, out, errs)
	}

	// The host sets the open turn's deadline; a seat may not.
	code, out, errs = remote(r.hostToken, "turn", "set", r.id, "--deadline", "2099-01-01T00:00:00Z")
	if want := "turn 2 of " + r.id + ": 1 order each; deadline 2099-01-01 00:00 UTC;\n"; code != 0 || out != want {
		t.Fatalf("turn set over --server: %d %q %s; want %q", code, out, errs, want)
	}
	has(t, "the race here after turn set over --server", local("race", "show", r.id), "deadline: 2099-01-01 00:00 UTC")
	if code, _, errs = remote(r.seats[0], "turn", "set", r.id, "--deadline", "2099-01-02T00:00:00Z"); code != 2 || !strings.Contains(errs, "only the race's host sets its deadlines") {
		t.Fatalf("turn set with a seat's token: %d %s", code, errs)
	}

	// The token decides the viewer: an --as that is not its viewer is refused.
	if code, _, errs = remote(r.seats[0], "race", "show", r.id, "--as", "host"); code != 2 || !strings.Contains(errs, "the token decides the viewer, and the token is seat 1's (Red)") {
		t.Fatalf("--as host with Red's token: %d %s", code, errs)
	}
	if code, _, errs = remote("", "post", r.id, "--as", "Blue"); code != 2 || !strings.Contains(errs, "so you are a spectator") {
		t.Fatalf("--as Blue without a token: %d %s", code, errs)
	}
	// A turn resolved is closed: the service's 409 is a refusal, its code kept.
	code, doc, errs := jsonOf(t, "--server", url, "--token", r.seats[1], "orders", "submit", r.id, "Blue", "AM", "--turn", "1")
	if code != 2 || doc["code"] != "turn_closed" || doc["field"] != "turn" || !strings.Contains(errs, "pitwall: ") {
		t.Fatalf("orders for a turn resolved: %d %v %s", code, doc, errs)
	}
}

// A token the service does not know is a 401: exit status 2, the
// service's reason and code, and never the token.
func TestServerBadToken(t *testing.T) {
	url, _ := liveService(t, nil)
	r := newServedNascar(t, url)
	const secret = "not-a-token-of-this-race-0123456789"
	code, doc, errs := jsonOf(t, "--server", url, "--token", secret, "race", "show", r.id)
	if code != 2 || doc["code"] != "bad_token" || !strings.Contains(errs, "pitwall: that token opens no race here") || !strings.Contains(errs, "--token") {
		t.Fatalf("a bad token: %d %v %s", code, doc, errs)
	}
	if strings.Contains(errs, secret) || strings.Contains(doc["error"].(string), secret) {
		t.Fatalf("the token is printed: %s", errs)
	}
	// Another race's token is a 403, also a refusal.
	other := newServedNascar(t, url)
	if code, _, errs := pitwall(t, "--server", url, "--token", other.hostToken, "turn", "resolve", r.id); code != 2 || !strings.Contains(errs, "that token is for another race") {
		t.Fatalf("another race's token: %d %s", code, errs)
	}
}

// A service that cannot be reached is exit status 1, said with its address
// and without the token; so is a service that fails (a 5xx), while a
// message that holds the token has it taken out.
func TestServerUnreachable(t *testing.T) {
	t.Setenv("PITWALL_SERVER", "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now
	const secret = "s3cret-token-that-must-not-show"
	for _, args := range [][]string{{"race", "show", "r1"}, {"orders", "submit", "r1", "1", "AM", "--turn", "1"}} {
		code, out, errs := pitwall(t, append([]string{"--server", url, "--token", secret}, args...)...)
		if code != 1 || !strings.Contains(errs, "pitwall: cannot reach the service at "+url+": ") || strings.Contains(errs+out, secret) {
			t.Fatalf("%v at an address no one serves: %d %s", args, code, errs)
		}
	}

	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/races/echo":
			w.WriteHeader(http.StatusBadRequest) // a service that repeats what it was sent
			_, _ = io.WriteString(w, `{"error": "the header was `+r.Header.Get("Authorization")+`", "code": "bad_token"}`)
		case "/api/races/moved":
			http.Redirect(w, r, "https://races.example.org"+r.URL.Path, http.StatusMovedPermanently)
		case "/api/races/html":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
		default:
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, `{"error": "the service failed to do that", "code": "internal"}`)
		}
	}))
	defer failing.Close()
	code, doc, errs := jsonOf(t, "--server", failing.URL, "--token", secret, "race", "show", "r1")
	if code != 1 || doc["code"] != "internal" || !strings.Contains(errs, "pitwall: the service at "+failing.URL+" failed: the service failed to do that") {
		t.Fatalf("a 500: %d %v %s", code, doc, errs)
	}
	code, out, errs := pitwall(t, "--server", failing.URL, "--token", secret, "race", "show", "html")
	if code != 1 || out != "" || !strings.Contains(errs, "answered 502 Bad Gateway, not pitwall's JSON") {
		t.Fatalf("a proxy's 502: %d %s", code, errs)
	}
	code, _, errs = pitwall(t, "--server", failing.URL, "--token", secret, "orders", "submit", "moved", "1", "AM", "--turn", "1")
	if code != 2 || !strings.Contains(errs, "redirects to https://races.example.org: give that address as --server") {
		t.Fatalf("a redirect: %d %s", code, errs)
	}
	code, out, errs = pitwall(t, "--server", failing.URL, "--token", secret, "race", "show", "echo")
	if code != 2 || strings.Contains(errs+out, secret) || !strings.Contains(errs, "the header was Bearer [token]") {
		t.Fatalf("an answer that holds the token: %d %s", code, errs)
	}
}

// A write whose connection fails is sent once more with the same key, so
// the service stores it once: here the first order is stored and its
// answer lost, and the second is answered as the repeat it is.
func TestServerRetriesWriteOnce(t *testing.T) {
	var mu sync.Mutex
	var bodies []map[string]any // of the orders sent: every other one's answer is lost
	loseCreate := false         // the next race's creation's answer is lost
	url, db := liveService(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			var body map[string]any
			_ = json.Unmarshal(b, &body)
			lose := false
			mu.Lock()
			switch {
			case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/orders"):
				bodies = append(bodies, body)
				lose = len(bodies)%2 == 1
			case r.Method == http.MethodPost && r.URL.Path == "/api/races":
				lose, loseCreate = loseCreate, false
			}
			mu.Unlock()
			if !lose {
				next.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(httptest.NewRecorder(), r) // stored...
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			conn.Close() // ...and its answer lost
		})
	})
	sent := func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return append([]map[string]any(nil), bodies...)
	}
	r := newServedNascar(t, url)
	entries := func() float64 {
		_, doc, _ := jsonOf(t, "--db", db, "race", "show", r.id)
		return doc["entries"].(float64)
	}
	before := entries()
	code, doc, errs := jsonOf(t, "--server", url, "--token", r.seats[0], "orders", "submit", r.id, "Red", "AM")
	if code != 0 || doc["repeat"] != true || doc["orders"] != "AM" {
		t.Fatalf("an order whose first answer was lost: %d %v %s", code, doc, errs)
	}
	if b := sent(); len(b) != 2 || b[0]["key"] != b[1]["key"] || !strings.HasPrefix(b[0]["key"].(string), "cli-") {
		t.Fatalf("the order was sent as %v; want it twice, with one key of the command's own", b)
	}
	if after := entries(); after != before+1 {
		t.Fatalf("the race's log went from %v to %v entries; the order is stored once", before, after)
	}
	// A race's creation takes no key, so it is not sent again: the race is
	// made once, and the user told it may have been.
	mu.Lock()
	loseCreate = true
	mu.Unlock()
	code, _, errs = pitwall(t, "--server", url, "race", "new", "--rules", "nascar", "--entrants", writeTemp(t, "entrants:\n  - player: A\n  - player: B\n"))
	if code != 1 || !strings.Contains(errs, "cannot reach the service at "+url+": ") || !strings.Contains(errs, "if the service did get the request, it has done it") {
		t.Fatalf("a race's creation whose answer was lost: %d %s", code, errs)
	}
	if _, doc, _ = jsonOf(t, "--db", db, "race", "list"); len(doc["races"].([]any)) != 2 {
		t.Fatalf("after a creation whose answer was lost, the races are %v; want the first and one more", doc["races"])
	}
	// A key of the user's own is the one sent, both times.
	code, out, errs := pitwall(t, "--server", url, "--token", r.seats[0], "orders", "submit", r.id, "Red", "AM", "--key", "red-t1-b")
	if b := sent(); code != 0 || len(b) != 4 || b[2]["key"] != "red-t1-b" || b[3]["key"] != "red-t1-b" || out != `already stored with key "red-t1-b": accepted for turn 1 from Red (seat 1): AM`+"\n" {
		t.Fatalf("an order with --key whose first answer was lost: %d %q %s %v", code, out, errs, b)
	}
}

// With --server, only the commands the service serves take it; facts of
// the rules ignore it; and flags that cannot go together are refused
// before anything is asked.
func TestServerRefusals(t *testing.T) {
	url, db := liveService(t, nil)
	refused(t, "race fix over --server", "race fix does not take --server; the commands that talk to a running service are orders submit, post, race bot, race export, race hook, race hooks, race join, race link, race links, race list, race new, race pause, race remove, race repeat, race resume, race revoke, race show, race start, race unhook, race withdraw, render, replay, turn extend, turn resolve, turn set, verify", "--server", url, "race", "fix", "r1", "--player", "X")
	refused(t, "orders options over --server", "orders options does not take --server", "--server", url, "orders", "options", "r1", "1")
	refused(t, "serve with --server", "serve runs here, on --db; it does not take --server", "--server", url, "serve")
	refused(t, "--server and --db", "give --server or --db, not both", "--server", url, "--db", db, "race", "list")
	refused(t, "--token without --server", "--token goes with --server", "--db", db, "--token", "x", "race", "list")
	refused(t, "--server without a scheme", "--server is the service's address", "--server", "localhost:8080", "race", "list")
	for _, server := range []string{"http://u:s3cret@h:99999x/", "http://h/?token=s3cret", "https://u:s3cret@h/#x"} {
		if code, out, errs := pitwall(t, "--server", server, "--token", "s3cret", "race", "list"); code != 2 || strings.Contains(out+errs, "s3cret") {
			t.Errorf("--server %s: exit %d, %s", server, code, errs)
		}
	}
	refused(t, "--id over --server", "the service picks the race's id", "--server", url, "race", "new", "--rules", "nascar", "--id", "x", "--entrants", writeTemp(t, "entrants:\n  - player: A\n  - player: B\n"))
	refused(t, "race new over --server without entrants", "give the race's entrants with --entrants FILE", "--server", url, "race", "new", "--rules", "nascar")
	refused(t, "--private without --server", "--private and --resolve-when are the service's", "--db", db, "race", "new", "--rules", "nascar", "--private")
	refused(t, "turn set --orders over --server", "does not serve --orders or --setting", "--server", url, "turn", "set", "r1", "--orders", "2")
	if code, _, errs := pitwall(t, "--server", url, "rules"); code != 0 {
		t.Fatalf("rules with --server: %d %s", code, errs)
	}
	// $PITWALL_SERVER is --server's default: a command that does not take
	// it says where it came from, and serve runs as ever.
	t.Setenv("PITWALL_SERVER", url)
	refused(t, "race fix with $PITWALL_SERVER", "race fix does not take --server (it is set by $PITWALL_SERVER", "race", "fix", "r1", "--player", "X")
	if code, out, errs := pitwall(t, "race", "list"); code != 0 || !strings.Contains(out, "no public race is served at "+url) {
		t.Fatalf("race list with $PITWALL_SERVER: %d %q %s", code, out, errs)
	}
	if code, _, errs := pitwall(t, "--server", "", "--db", db, "race", "list"); code != 0 {
		t.Fatalf("--server '' over $PITWALL_SERVER: %d %s", code, errs)
	}
}

// A private race, created over --server, answers a spectator's token too,
// and is not listed.
func TestServerPrivateRace(t *testing.T) {
	url, _ := liveService(t, nil)
	code, doc, errs := jsonOf(t, "--server", url, "race", "new", "--rules", "nascar", "--private", "--resolve-when", "all_in", "--entrants", writeTemp(t, "entrants:\n  - player: A\n  - player: B\n"))
	if code != 0 || doc["public"] != false || doc["resolve_when"] != "all_in" || doc["spectator_token"] == nil {
		t.Fatalf("a private race: %d %v %s", code, doc, errs)
	}
	id := doc["id"].(string)
	if code, _, errs := pitwall(t, "--server", url, "race", "show", id); code != 2 || !strings.Contains(errs, "is private") {
		t.Fatalf("a private race without a token: %d %s", code, errs)
	}
	if code, doc, _ := jsonOf(t, "--server", url, "--token", doc["spectator_token"].(string), "race", "show", id); code != 0 || doc["viewer"] != "spectator" {
		t.Fatalf("a private race with its spectator token: %d %v", code, doc)
	}
	if code, doc, _ := jsonOf(t, "--server", url, "race", "list"); code != 0 || len(doc["races"].([]any)) != 0 {
		t.Fatalf("the public races: %d %v", code, doc)
	}
	// race list reads every page of the public races.
	defer func(n int) { listPage = n }(listPage)
	listPage = 2
	var public []string
	for range 5 {
		_, doc, errs := jsonOf(t, "--server", url, "race", "new", "--rules", "nascar", "--entrants", writeTemp(t, "entrants:\n  - player: A\n  - player: B\n"))
		id, ok := doc["id"].(string)
		if !ok {
			t.Fatalf("a public race: %v %s", doc, errs)
		}
		public = append(public, id)
	}
	code, out, _ := pitwall(t, "--server", url, "race", "list")
	for _, id := range public {
		if code != 0 || !strings.Contains(out, id) {
			t.Fatalf("race list over --server, two races a page: %d\n%s\nwant all five public races", code, out)
		}
	}
	// $PITWALL_TOKEN is --token's default, and --help does not print it.
	t.Setenv("PITWALL_SERVER", url)
	t.Setenv("PITWALL_TOKEN", doc["spectator_token"].(string))
	if code, out, errs := pitwall(t, "race", "show", id); code != 0 || !strings.HasPrefix(out, id+": nascar on oval, turn 1 to play") {
		t.Fatalf("a private race with its spectator token in $PITWALL_TOKEN: %d %s %s", code, out, errs)
	}
	if _, out, _ := pitwall(t, "--help"); strings.Contains(out, doc["spectator_token"].(string)) {
		t.Fatalf("--help prints $PITWALL_TOKEN:\n%s", out)
	}
}

// writeTemp writes text to a new file and returns its path.
func writeTemp(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "file.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// withoutLine is a file's text without the lines that hold drop.
func withoutLine(t *testing.T, path, drop string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, drop) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
