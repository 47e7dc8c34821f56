package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/host"
	"pitwall/race"
	"pitwall/rules/nascar"
	"pitwall/rules/nascar/nascartest"
	"pitwall/store/memstore"
)

// viewOutputs is everything a viewer can be shown of the race after turn n:
// the view as JSON (what 'race show', 'replay' and the service serve are made
// of), the post in Markdown and BBCode, and the picture as SVG.
func viewOutputs(t *testing.T, w *race.View, n int) map[string]string {
	t.Helper()
	out := map[string]string{}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	out["json"] = string(b)
	for _, f := range []string{"markdown", "bbcode"} {
		post, err := host.Post(w, n, f, "p.png")
		if err != nil {
			t.Fatal(err)
		}
		out[f] = post
	}
	svg, err := host.Render(w, n, "svg")
	if err != nil {
		t.Fatal(err)
	}
	out["svg"] = string(svg)
	return out
}

// secretRace is a bot race that this test plays, with what it must not see.
type secretRace struct {
	ruleset string
	cfg     race.Config
	secret  []string // strings no one but the host may see before the end (a secret option's value)
}

// No spectator's view and no other seat's, in JSON, Markdown, BBCode or SVG,
// holds a hidden thing, a pending order of another seat, the seed before the
// race is over, the dice state or a state hash that could test a guess at a
// hidden thing. Checked on bot races of every game, at every turn, with the
// turn's orders in.
func TestViewsHoldNoSecret(t *testing.T) {
	bags := nascartest.HostSandbags(t)
	races := []secretRace{{ruleset: "nascar", cfg: race.Config{Track: "oval", Options: map[string]string{"sandbags": bags}},
		secret: []string{bags}}}
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		g := rs.Game()
		cfg := race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}
		races = append(races, secretRace{ruleset: id, cfg: cfg})
	}
	var hiddenSeen, leaksCaught int
	for i, sr := range races {
		t.Run(fmt.Sprintf("%s-%d", sr.ruleset, i), func(t *testing.T) {
			ctx := context.Background()
			clock := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
			h := &host.Host{Store: memstore.New(), Clock: host.ClockFunc(func() time.Time { return clock })}
			seed := dice.SeedFromInt(uint64(40 + i))
			rs, _ := race.Lookup(sr.ruleset)
			r, err := h.NewRace(ctx, sr.ruleset, "secrets", sr.cfg, rs.Game().Demo.Entrants, &seed)
			if err != nil {
				t.Fatal(err)
			}
			red, _ := rs.(race.Redactor)
			pending := func(p *race.Played) error {
				turn := p.Resolved()
				// what the host's view holds and no other may: the seed, the
				// dice state, the state hashes
				secrets := append([]string{r.Seed.Hex()}, sr.secret...)
				if p.Seq > p.PublicSeq { // the log's head after this turn's orders
					secrets = append(secrets, p.Head)
				}
				for _, x := range p.Turns {
					secrets = append(secrets, x.Hash, hex.EncodeToString(x.DiceState), base64.StdEncoding.EncodeToString(x.DiceState))
				}
				// the same race with every pending order replaced: a view that
				// does not see an order must come out the same either way
				other := *p
				other.Pending = map[int]race.Order{}
				for seat := range p.Pending {
					other.Pending[seat] = rs.DefaultOrder(p.State, seat)
				}
				hostOut, otherHostOut := viewOutputs(t, p.View(race.Host), turn), viewOutputs(t, other.View(race.Host), turn)
				if hostOut["json"] != otherHostOut["json"] {
					leaksCaught++ // the host sees pending orders: the comparison can tell
				}
				var hidden []string
				if red != nil {
					hidden = hiddenThings(t, p.State)
					hiddenSeen += len(hidden)
					// the host's view holds them: the search below can find them
					inHost := sandbagsIn(jsonDoc(t, hostOut["json"]))
					for _, h := range hidden {
						if !inHost[h] {
							t.Fatalf("turn %d: the host's view lacks the sandbag %s", turn+1, h)
						}
					}
				}
				viewers := []race.Viewer{race.Spectator}
				for _, s := range p.State.Seats() {
					viewers = append(viewers, race.SeatViewer(s.Seat))
				}
				for _, v := range viewers {
					w := p.View(v)
					for seat := range w.Orders {
						if !v.Sees(seat) {
							t.Fatalf("turn %d: %s's view holds seat %d's orders", turn+1, v, seat+1)
						}
					}
					if seat, ok := v.Seat(); ok {
						if mine, in := p.Pending[seat]; in && w.Orders[seat] != mine.String() {
							t.Fatalf("turn %d: %s's view lacks its own orders %q", turn+1, v, mine)
						}
					}
					out := viewOutputs(t, w, turn)
					// a view of the race with other orders pending: the same
					// pending orders for what v sees, the defaults elsewhere
					mixed := *p
					mixed.Pending = map[int]race.Order{}
					for seat, o := range p.Pending {
						mixed.Pending[seat] = other.Pending[seat]
						if v.Sees(seat) {
							mixed.Pending[seat] = o
						}
					}
					same := viewOutputs(t, mixed.View(v), turn)
					for kind, text := range out {
						if same[kind] != text {
							t.Fatalf("turn %d: %s's %s changes with another seat's pending orders", turn+1, v, kind)
						}
						for _, sec := range secrets {
							if sec != "" && strings.Contains(text, sec) {
								t.Fatalf("turn %d: %s's %s holds a secret %.20q", turn+1, v, kind, sec)
							}
						}
					}
					if red != nil {
						got := sandbagsIn(jsonDoc(t, out["json"]))
						for _, h := range hidden {
							if got[h] {
								t.Fatalf("turn %d: %s's view holds the hidden sandbag %s", turn+1, v, h)
							}
						}
					}
				}
				return nil
			}
			rng := rand.New(rand.NewPCG(uint64(i), 3))
			p, err := playBots(ctx, h, r.ID, rng, &clock, botHooks{pending: pending})
			if err != nil {
				t.Fatal(err)
			}
			// once the race is over, its seed is everyone's
			if w := p.View(race.Spectator); w.Seed != r.Seed.Hex() {
				t.Fatalf("the race is over and the spectator's view has seed %q", w.Seed)
			}
		})
	}
	if hiddenSeen == 0 {
		t.Fatal("no race had a hidden sandbag: the test proves nothing about them")
	}
	if leaksCaught == 0 {
		t.Fatal("no host view changed with the pending orders: the comparison proves nothing")
	}
}

func jsonDoc(t *testing.T, s string) any {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// hiddenThings are a nascar state's sandbags not yet hit, as "[x,y]".
func hiddenThings(t *testing.T, s race.State) []string {
	st, ok := s.(*nascar.State)
	if !ok {
		t.Fatalf("a redacting game the test does not know: %T", s)
	}
	return nascartest.Hidden(st)
}

var sandbagsIn = nascartest.SandbagsIn

// --as on the four commands that show a race: the host sees the hidden
// sandbags, a spectator and a seat do not; a seat sees its own orders and
// no one else's; a viewer that is not one is bad input.
func TestAsViewer(t *testing.T) {
	db, must := nascarPair(t)
	must("orders", "submit", "n1", "Intimidator", "AM")
	must("turn", "resolve", "n1")
	must("orders", "submit", "n1", "Intimidator", "R")
	must("orders", "submit", "n1", "2", "AM")

	replay := func(as string) map[string]any { return must("replay", "n1", "--as", as) }
	bags := func(doc map[string]any) int {
		st, _ := doc["state"].(map[string]any)
		l, _ := st["sandbags"].([]any)
		return len(l)
	}
	if n := bags(replay("host")); n == 0 {
		t.Fatal("the host's replay shows no sandbag; the oval has some")
	}
	for _, as := range []string{"spectator", "Intimidator", "2"} {
		doc := replay(as)
		if n := bags(doc); n != 0 {
			t.Errorf("--as %s: the replay shows %d hidden sandbags", as, n)
		}
		if _, ok := doc["hash"]; ok {
			t.Errorf("--as %s: the replay shows the state hash", as)
		}
	}

	show := func(as string) map[string]any { return must("race", "show", "n1", "--as", as) }
	if got := show("Intimidator")["my_orders"]; got != "R" {
		t.Errorf("--as Intimidator: my_orders %v, want R", got)
	}
	if got := show("rainbow warrior")["my_orders"]; got != "AM" {
		t.Errorf("--as 'rainbow warrior': my_orders %v, want AM", got)
	}
	for _, as := range []string{"host", "spectator"} {
		doc := show(as)
		if _, ok := doc["my_orders"]; ok {
			t.Errorf("--as %s: race show has my_orders", as)
		}
		seats := doc["seats"].([]any)
		for _, s := range seats {
			if s.(map[string]any)["orders_in"] != true {
				t.Errorf("--as %s: seat %v shows no orders in", as, s)
			}
		}
	}
	if text := mustText(t, db, "race", "show", "n1", "--as", "1"); !strings.Contains(text, "your orders: R\n") || strings.Contains(text, "AM") {
		t.Errorf("--as 1, as text:\n%s", text)
	}
	for _, as := range []string{"spectator", "1"} {
		post := mustText(t, db, "post", "n1", "--as", as)
		if strings.Contains(post, ": R") || strings.Contains(post, "Rainbow Warrior | AM") {
			t.Errorf("--as %s: the post holds a pending order:\n%s", as, post)
		}
		must("render", "n1", "--format", "svg", "--out", filepath.Join(t.TempDir(), "n.svg"), "--as", as)
	}
	for _, args := range [][]string{
		{"race", "show", "n1", "--as", "marshal"},
		{"replay", "n1", "--as", "3"},
		{"post", "n1", "--as", ""},
		{"render", "n1", "--as", "0"},
	} {
		code, _, errs := pitwall(t, append([]string{"--db", db}, args...)...)
		if code != 2 || !strings.Contains(errs, "--as is host, spectator or a seat") {
			t.Errorf("%v: status %d, %s", args, code, errs)
		}
	}
}

// A refused command's JSON names what went wrong by a stable code.
func TestErrorCodesInJSON(t *testing.T) {
	db := filepath.Join(t.TempDir(), "races.db")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "nascar", "--track", "oval", "--id", "n1", "--seed", "3")
	must("race", "join", "n1", "--player", "Dale", "--racer", "Intimidator")
	code, doc, _ := jsonOf(t, "--db", db, "orders", "submit", "n1", "1", "AM")
	if code != 2 || doc["code"] != "race_forming" {
		t.Fatalf("an order to a forming race: %d %v", code, doc)
	}
	must("race", "join", "n1", "--player", "Jeff", "--racer", "Rainbow Warrior")
	for _, c := range []struct {
		args       []string
		want, kind string
	}{
		{[]string{"orders", "submit", "n1", "1", "QQ"}, "unknown_letter", race.CodeNotUnderstood},
		{[]string{"orders", "submit", "n1", "1", "AMM"}, "wrong_move_count", race.CodeNotAllowed},
		{[]string{"race", "show", "nope"}, "no_such_race", ""},
		{[]string{"race", "show", "n1", "--as", "nobody"}, "bad_input", ""},
		{[]string{"race", "show"}, "bad_input", ""},
	} {
		code, doc, _ := jsonOf(t, append([]string{"--db", db}, c.args...)...)
		if kind, _ := doc["kind"].(string); code != 2 || doc["ok"] != false || doc["code"] != c.want || kind != c.kind {
			t.Errorf("%v: status %d, %v; want code %s, kind %q", c.args, code, doc, c.want, c.kind)
		}
	}
	must("orders", "submit", "n1", "1", "AM")
	must("turn", "resolve", "n1", "--turn", "1")
	code, doc, _ = jsonOf(t, "--db", db, "orders", "submit", "n1", "1", "AM", "--turn", "1")
	if code != 2 || doc["code"] != "turn_closed" {
		t.Fatalf("an order for a closed turn: %d %v", code, doc)
	}
}
