package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"pitwall/race"
	_ "pitwall/rules/gaslands"
	_ "pitwall/rules/ludi"
	"pitwall/rules/nascar"
	"pitwall/rules/nascar/nascartest"
	_ "pitwall/rules/party"
	_ "pitwall/rules/rtd"
)

// The leak test plays bot races of every game through the service and, at
// every turn with the turn's orders in, reads everything the service shows
// of a race as a spectator (anonymous on a public race, a spectator's link
// on a private one) and as a racer: the race, the post in every format,
// the picture, the race after the turn, the export and the stream. None
// may hold another seat's pending orders, a hidden thing (nascar's
// sandbags not yet hit, a host's own sandbags), the seed before the race is
// over, or what would give them away (the dice state, a state's hash, the
// log's head past its public part).
//
// An order is a few letters ("AM") that a post shows anyway (the last
// turn's orders, the menu of what may be ordered), so pending orders are
// not looked for as text: the others' pending orders are replaced, and
// every read must come out byte for byte the same.

// leakGames are the games the test plays: every game pitwall has.
var leakGames = []string{"ludi", "nascar", "rtd", "gaslands", "party"}

// leakTurns bounds the turns read in each race, to keep the test quick.
// One race is then played on to its end, to see the seed revealed and the
// pictures stay as they were.
const leakTurns = 10

// leakRace is a race the test plays.
type leakRace struct {
	name     string
	game     string
	body     string   // POST /api/races
	private  bool     // watched through a spectator's link
	secret   []string // texts no one but the host may see before the end
	toTheEnd bool
}

// leakRaces is a race of every game with its demo's entrants, and a nascar
// race with sandbags of the host's own (a secret option).
func leakRaces(t *testing.T) []leakRace {
	var out []leakRace
	for i, id := range leakGames {
		rs, err := race.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		g := rs.Game()
		if _, ok := rs.(race.Botter); !ok {
			t.Fatalf("%s has no bot: the test cannot play it", id)
		}
		private := i%2 == 1
		out = append(out, leakRace{name: id, game: id, private: private, body: raceBody(t, id, g.Tracks[0].ID, g.Demo.Laps, nil, g.Demo.Entrants, !private)})
	}
	for _, id := range race.IDs() {
		if !slices.Contains(leakGames, id) {
			t.Fatalf("the game %s is not played by the leak test", id)
		}
	}
	rs, _ := race.Lookup("nascar")
	opt := nascartest.HostSandbags(t)
	out = append(out, leakRace{name: "nascar-own-sandbags", game: "nascar", secret: []string{opt}, toTheEnd: true,
		body: raceBody(t, "nascar", "oval", 1, map[string]string{"sandbags": opt}, rs.Game().Demo.Entrants[:2], true)})
	return out
}

// raceBody is the body of POST /api/races for a race of these entrants.
func raceBody(t *testing.T, game, track string, laps int, options map[string]string, es []race.Entrant, public bool) string {
	b, err := json.Marshal(NewRace{Ruleset: game, Track: track, Laps: laps, Options: options, Seats: SeatsOf(es), Public: &public})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNothingLeaks(t *testing.T) {
	for _, lr := range leakRaces(t) {
		t.Run(lr.name, func(t *testing.T) {
			t.Parallel()
			playLeakRace(t, lr)
		})
	}
}

// reads is everything one viewer was shown at one moment, by what it is.
type reads map[string]string

// leakPlay is a race being played by the leak test.
type leakPlay struct {
	t     *testing.T
	s     *service
	c     created
	lr    leakRace
	clock *clock
	// streamed is the id of the last event each viewer has read.
	streamed map[string]int
	// secrets are what no one but the host may see until the race is
	// over: the seed, and each turn's state hash and dice state.
	secrets []string
}

// viewer is who reads: a name for the messages and its token ("" for anonymous).
type viewer struct{ name, token string }

func playLeakRace(t *testing.T, lr leakRace) {
	ctx := context.Background()
	s, ck := clocked(t)
	s.srv.SetLimits(Limits{}) // every read of every turn, as fast as it goes: not what the limits are for
	c := s.create(lr.body)
	lp := &leakPlay{t: t, s: s, c: c, lr: lr, clock: ck, streamed: map[string]int{}}
	p, err := s.srv.host.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	lp.secrets = append(lp.secrets, p.Race.Seed.Hex())
	lp.secrets = append(lp.secrets, lr.secret...)
	spectator := viewer{"anonymous", ""}
	if lr.private {
		spectator = viewer{"a spectator's link", c.Spectator}
		// and no one else may read it at all
		for _, path := range readPaths(c.ID) {
			if status, _, _ := lp.get(path, ""); status != http.StatusUnauthorized {
				t.Fatalf("a private race's %s, anonymous: %d", path, status)
			}
		}
	}
	// The game's bot plays every seat, and the host's settings where the
	// game asks for them, as the host hands them to the service.
	for i := range c.Seats {
		s.must(200, "POST", "/api/races/"+c.ID+"/bot", c.Host, fmt.Sprintf(`{"seat": %d, "bot": true}`, i+1))
	}
	if _, ok := p.Ruleset.(race.HostBotter); ok {
		s.must(200, "POST", "/api/races/"+c.ID+"/bot", c.Host, `{"host": true, "bot": true}`)
	}
	var hiddenSeen, changed, compared int
	pictures := map[int]string{} // the spectator's picture of each turn, as it was when the turn was the last
	for turn := 1; ; turn++ {
		p, err := s.srv.host.Load(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if p.State.Over() || (!lr.toTheEnd && turn > leakTurns) {
			break
		}
		if p.Turn() != turn {
			t.Fatalf("turn %d is open, want %d", p.Turn(), turn)
		}
		if turn > leakTurns {
			if turn > 200 {
				t.Fatal("the race is not over after 200 turns")
			}
			lp.resolve(turn)
			continue
		}
		for _, x := range p.Turns {
			lp.secrets = append(lp.secrets, x.Hash, hex.EncodeToString(x.DiceState), base64.StdEncoding.EncodeToString(x.DiceState))
		}
		secrets := lp.secrets
		if p.Seq > p.PublicSeq { // the log's head after this turn's orders
			secrets = append(slices.Clip(secrets), p.Head)
		}
		hidden := hiddenThings(t, p.Ruleset, p.State)
		if len(hidden) > 0 {
			// the host's reads hold them: the search below can find them
			_, _, rp := lp.get("/api/races/"+c.ID+"/replay", c.Host)
			got := sandbagsIn(t, rp)
			for _, h := range hidden {
				if !got[h] {
					t.Fatalf("turn %d: the host's replay lacks the sandbag %s", turn, h)
				}
			}
			hiddenSeen += len(hidden)
		}
		if len(p.Pending) == 0 {
			t.Fatalf("turn %d: the bots sent no orders", turn)
		}
		// A racer who reads: each seat in turn, but not the only one with
		// orders in (whose view may change with them).
		k := turn % len(c.Seats)
		if _, only := p.Pending[k]; only && len(p.Pending) == 1 {
			k = (k + 1) % len(c.Seats)
		}
		viewers := []viewer{spectator, {fmt.Sprintf("seat %d", k+1), c.Seats[k]}}
		before := map[string]reads{}
		for _, v := range viewers {
			before[v.name] = lp.readAll(v, turn, secrets, hidden)
		}
		pictures[turn-1] = before[spectator.name]["picture"]
		if mine, in := p.Pending[k]; in {
			var shown map[string]any
			_ = json.Unmarshal([]byte(before[viewers[1].name]["race"]), &shown)
			if shown["my_orders"] != mine.String() {
				t.Fatalf("turn %d: seat %d's view has my_orders %v, want its own %q", turn, k+1, shown["my_orders"], mine)
			}
		}
		// The others' orders replaced: no read of the spectator's or of
		// seat k's may change.
		n := lp.replaceOrders(p, k)
		changed += n
		for _, v := range viewers {
			if n == 0 {
				break
			}
			after := lp.readAll(v, turn, secrets, hidden)
			for what, text := range before[v.name] {
				compared++
				if after[what] != text {
					t.Fatalf("turn %d: %s's %s changed when other seats' pending orders did:\nbefore: %.600s\nafter:  %.600s", turn, v.name, what, text, after[what])
				}
			}
		}
		lp.resolve(turn)
	}
	if changed == 0 || compared == 0 {
		t.Fatal("no pending order was ever replaced: the comparison proves nothing")
	}
	if lr.game == "nascar" && hiddenSeen == 0 {
		t.Fatal("the race had no hidden sandbag: the test proves nothing about them")
	}
	// What a spectator was given checks out as the race it is.
	_, _, x := lp.get("/api/races/"+c.ID+"/export", spectator.token)
	if v := s.must(200, "POST", "/api/verify", "", x); v["ok"] != true || v["replayed"] != lr.toTheEnd {
		t.Fatalf("the spectator's export does not verify: %v", v)
	}
	if !lr.toTheEnd {
		return
	}
	// Over: the seed is everyone's, and every turn's picture is as the
	// spectator's was while the race ran, for every viewer: it is served
	// as immutable, and a picture of the host's that differed would show
	// a hidden thing.
	p, err = s.srv.host.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !p.State.Over() {
		t.Fatal("the race played to its end is not over")
	}
	seed := p.Race.Seed.Hex()
	for _, path := range []string{"/api/races/" + c.ID, "/api/races/" + c.ID + "/export", "/api/races/" + c.ID + "/post"} {
		if _, _, body := lp.get(path, spectator.token); !strings.Contains(body, seed) {
			t.Errorf("the race is over and %s's %s does not tell the seed", spectator.name, path)
		}
	}
	for n, want := range pictures {
		for _, v := range []viewer{spectator, {"the host", c.Host}, {"seat 1", c.Seats[0]}} {
			if _, _, got := lp.get(fmt.Sprintf("/api/races/%s/picture?turn=%d&format=svg", c.ID, n), v.token); got != want {
				t.Errorf("the picture of turn %d for %s, once the race is over, is not the spectator's while it ran", n, v.name)
			}
		}
	}
}

// readPaths are the reads of race id that the test makes, by what they are.
func readPaths(id string) map[string]string {
	base := "/api/races/" + id
	return map[string]string{
		"race":          base,
		"post markdown": base + "/post",
		"post bbcode":   base + "/post?format=bbcode",
		"post text":     base + "/post?format=text",
		"picture":       base + "/picture?format=svg",
		"replay":        base + "/replay",
		"export":        base + "/export",
		"stream":        base + "/events",
	}
}

func (lp *leakPlay) get(path, token string) (int, http.Header, string) {
	lp.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", lp.s.url+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		lp.t.Fatal(err)
	}
	defer res.Body.Close()
	if strings.HasSuffix(path, "/events") && res.StatusCode == http.StatusOK {
		return res.StatusCode, res.Header, "" // a stream does not end
	}
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

// readAll reads everything viewer v may read of the race now, checks it
// for secrets, and returns it (the stream apart: it only grows).
func (lp *leakPlay) readAll(v viewer, turn int, secrets, hidden []string) reads {
	t := lp.t
	t.Helper()
	out := reads{}
	for what, path := range readPaths(lp.c.ID) {
		if what == "stream" {
			continue
		}
		status, _, body := lp.get(path, v.token)
		if status != http.StatusOK {
			t.Fatalf("turn %d: %s's %s: %d %s", turn, v.name, path, status, body)
		}
		if what == "export" {
			// How many entries the log holds, secret ones included, grows
			// with every order sent, as the stream tells everyone; what
			// they are does not show.
			var x map[string]any
			if err := json.Unmarshal([]byte(body), &x); err != nil {
				t.Fatal(err)
			}
			delete(x, "log_entries")
			b, _ := json.Marshal(x)
			body = string(b)
		}
		out[what] = body
	}
	out["stream"] = lp.stream(v, turn)
	for what, text := range out {
		for _, sec := range secrets {
			if sec != "" && strings.Contains(text, sec) {
				t.Fatalf("turn %d: %s's %s holds a secret %.24q", turn, v.name, what, sec)
			}
		}
		if len(hidden) > 0 && (what == "race" || what == "replay" || what == "export") {
			got := sandbagsIn(t, text)
			for _, h := range hidden {
				if got[h] {
					t.Fatalf("turn %d: %s's %s holds the hidden sandbag %s", turn, v.name, what, h)
				}
			}
		}
	}
	delete(out, "stream")
	return out
}

// stream reads the events v has not read yet, as a client coming back
// with Last-Event-ID does, and checks that they tell nothing but numbers
// and marks: which seat, which turn, ready or not; never what was ordered.
func (lp *leakPlay) stream(v viewer, turn int) string {
	t := lp.t
	t.Helper()
	last := lp.streamed[v.name] // 0 at first: from the log's start
	log, err := lp.s.srv.host.Since(context.Background(), lp.c.ID, last)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, e := range log {
		if _, _, ok := streamEvent(e); ok {
			want++
		}
	}
	if want == 0 {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", lp.s.url+"/api/races/"+lp.c.ID+"/events", nil)
	req.Header.Set("Last-Event-ID", fmt.Sprint(last))
	if v.token != "" {
		req.Header.Set("Authorization", "Bearer "+v.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("turn %d: %s's stream: %d", turn, v.name, res.StatusCode)
	}
	events := readEvents(t, res.Body, want)
	if len(events) != want {
		t.Fatalf("turn %d: %s's stream gave %d events, want %d", turn, v.name, len(events), want)
	}
	var all strings.Builder
	for _, e := range events {
		var data map[string]any
		if err := json.Unmarshal([]byte(e.data), &data); err != nil {
			t.Fatalf("turn %d: %s's event %v: %v", turn, v.name, e, err)
		}
		for k, x := range data {
			switch x.(type) {
			case float64, bool:
			default:
				t.Fatalf("turn %d: %s's event %s tells %s = %v: an event tells numbers and marks only", turn, v.name, e.name, k, x)
			}
		}
		fmt.Fprintf(&all, "%s %s %s\n", e.id, e.name, e.data)
		fmt.Sscan(e.id, &last)
	}
	lp.streamed[v.name] = last
	return all.String()
}

// replaceOrders sends, for every seat but keep with orders in, other
// orders that the game takes, and returns how many seats' orders changed.
func (lp *leakPlay) replaceOrders(p *race.Played, keep int) int {
	t := lp.t
	t.Helper()
	br := p.Ruleset.(race.Botter)
	n := 0
	for seat, o := range p.Pending {
		if seat == keep {
			continue
		}
		mine := o.String()
		// Other bot orders first: the default would slow the race down.
		var tries []string
		rng := rand.New(rand.NewPCG(uint64(p.Turn()), uint64(seat)))
		for range 6 {
			tries = append(tries, br.BotOrder(p.State, seat, false, rng))
		}
		tries = append(tries, p.Ruleset.DefaultOrder(p.State, seat).String())
		for _, other := range tries {
			if other == mine || other == "" {
				continue
			}
			body, _ := json.Marshal(map[string]any{"turn": p.Turn(), "orders": other})
			status, v := lp.s.call("POST", "/api/races/"+lp.c.ID+"/orders", lp.c.Seats[seat], string(body))
			if status == http.StatusOK && v["orders"] != mine {
				n++
				break
			}
		}
	}
	return n
}

// resolve resolves turn as the host, moves the clock on, and lets the
// service play its part of the next turn (the bots' orders), as its
// deadline loop would.
func (lp *leakPlay) resolve(turn int) {
	lp.t.Helper()
	v := lp.s.must(200, "POST", "/api/races/"+lp.c.ID+"/resolve", lp.c.Host, fmt.Sprintf(`{"turn": %d}`, turn))
	if v["resolved"] != true {
		lp.t.Fatalf("turn %d was not resolved: %v", turn, v)
	}
	lp.clock.set(lp.clock.Now().Add(10 * time.Hour))
	lp.s.srv.settle(context.Background(), lp.c.ID)
}

// hiddenThings are a state's hidden things: a nascar state's sandbags not
// yet hit, as "[x,y]"; no other game hides anything.
func hiddenThings(t *testing.T, rs race.Ruleset, s race.State) []string {
	st, ok := s.(*nascar.State)
	if !ok {
		if _, red := rs.(race.Redactor); red {
			t.Fatalf("a game with hidden things that the test does not know: %s", rs.Game().ID)
		}
		return nil
	}
	return nascartest.Hidden(st)
}

// sandbagsIn collects every point listed under a "sandbags" key anywhere
// in a JSON document, as "[x,y]".
func sandbagsIn(t *testing.T, doc string) map[string]bool {
	var v any
	if err := json.NewDecoder(bytes.NewReader([]byte(doc))).Decode(&v); err != nil {
		t.Fatalf("not JSON: %v: %.200s", err, doc)
	}
	return nascartest.SandbagsIn(v)
}
