package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pitwall/race"
)

// pitwall runs one command line in-process and returns status, stdout, stderr.
func pitwall(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// jsonOf runs a command with --json and decodes its one JSON document.
func jsonOf(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	code, out, errs := pitwall(t, append(args, "--json")...)
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%v: stdout is not JSON (%v): %q", args, err, out)
	}
	if dec.More() {
		t.Fatalf("%v: more than one JSON document on stdout", args)
	}
	return code, doc, errs
}

func TestRulesJSON(t *testing.T) {
	code, doc, _ := jsonOf(t, "rules")
	if code != 0 {
		t.Fatalf("status %d", code)
	}
	list := doc["rulesets"].([]any)
	found := false
	for _, r := range list {
		if r.(map[string]any)["id"] == "ludi" {
			found = true
		}
	}
	if !found {
		t.Fatalf("ludi is not listed: %v", doc)
	}
}

func TestOdds(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want map[string]float64
	}{
		{[]string{"odds", "ludi", "speed", "--level", "fast"}, map[string]float64{"4": 1. / 8, "5": 1. / 8, "6": 2. / 8, "7": 2. / 8, "8": 2. / 8}},
		{[]string{"odds", "ludi", "speed", "--level=low"}, map[string]float64{"2": 1. / 6, "3": 2. / 6, "4": 3. / 6}},
		{[]string{"odds", "ludi", "corner", "--lane", "1", "--level", "fast", "--skill", "0"}, map[string]float64{"slip": 1. / 8, "naufragia": 7. / 8}},
		{[]string{"odds", "ludi", "corner", "--lane", "1", "--level", "fast", "--skill", "2", "--control"}, map[string]float64{"none": 2. / 8, "slip": 4. / 8, "naufragia": 2. / 8}}, // faces 4,5,6,6,7,7,8,8 read as 4,4,5,5,6,6,7,7,
		{[]string{"odds", "ludi", "whip", "--endurance", "2"}, map[string]float64{"success_damage": 0.7 * 0.4, "success": 0.7 * 0.6, "damage": 0.3 * 0.4, "none": 0.3 * 0.6}},
		{[]string{"odds", "ludi", "lacerate", "--skill", "1", "--constitution", "0", "--watch"}, map[string]float64{"stun": 0.45, "none": 0.55}},
		{[]string{"odds", "ludi", "wall", "--skill", "0"}, map[string]float64{"damage": 0.35, "none": 0.65}},
		{[]string{"odds", "ludi", "crash", "--mode", "overtaking", "--skill", "1", "--size", "2", "--target", "chariot"}, map[string]float64{"hit": 0.5, "none": 0.5}},
		{[]string{"odds", "nascar", "oil-slick"}, map[string]float64{"left": 0.5, "right": 0.5}},
		{[]string{"odds", "party", "happening"}, map[string]float64{"thwomp": 1. / 3, "coin-shower": 1. / 3, "tailwind": 1. / 3}},
		{[]string{"odds", "party", "movement", "--mrdl", "d4", "--boost", "3"}, map[string]float64{"4": .25, "5": .25, "6": .25, "7": .25}},
		{[]string{"odds", "rtd", "course-event", "--needs", "5"}, map[string]float64{"comes": 1. / 3, "none": 2. / 3}},
		{[]string{"odds", "gaslands", "scatter"}, map[string]float64{"0": .125, "45": .125, "90": .125, "135": .125, "180": .125, "225": .125, "270": .125, "315": .125}},
	} {
		code, doc, errs := jsonOf(t, tc.args...)
		if code != 0 {
			t.Fatalf("%v: status %d: %s", tc.args, code, errs)
		}
		got := doc["outcomes"].(map[string]any)
		for k, v := range tc.want {
			if g, _ := got[k].(float64); math.Abs(g-v) > 1e-9 {
				t.Errorf("%v: %s = %v, want %v", tc.args, k, got[k], v)
			}
		}
		for k, v := range got {
			if _, ok := tc.want[k]; !ok && v.(float64) > 1e-12 {
				t.Errorf("%v: unexpected outcome %s = %v", tc.args, k, v)
			}
		}
		if doc["ruleset"] != tc.args[1] || doc["check"] != tc.args[2] {
			t.Errorf("%v: ruleset/check fields: %v", tc.args, doc)
		}
	}
}

// Every game has odds: 'pitwall odds GAME' lists its checks, and each
// check's sample flags give a distribution.
func TestEveryGameHasOdds(t *testing.T) {
	for _, id := range race.IDs() {
		code, doc, errs := jsonOf(t, "odds", id)
		checks, _ := doc["checks"].([]any)
		if code != 0 || len(checks) == 0 {
			t.Errorf("odds %s: status %d, %d checks: %s", id, code, len(checks), errs)
		}
	}
	// The text list says so of a check that takes no flags.
	if code, out, errs := pitwall(t, "odds", "party"); code != 0 || !strings.Contains(out, "happening  (no flags)") || !strings.Contains(out, "movement   [--mrdl") {
		t.Errorf("odds party: status %d:\n%s%s", code, out, errs)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	for _, args := range [][]string{
		{"odds", "ludi", "speed", "--level", "sideways"},
		{"odds", "nosuchgame", "speed"},
		{"odds", "ludi", "nosuchcheck"},
		{"odds", "ludi", "corner", "--lane", "7", "--level", "fast", "--skill", "0"},
		{"odds", "ludi", "corner", "--lane", "1", "--level", "fast"},
		{"odds", "ludi", "wall", "--skill", "0", "--colour", "red"},
		{"odds", "ludi", "wall", "--skill", "0", "--skill", "1"},
		{"order", "check", "ludi", "fly"},
		{"order", "check", "chess", "e4"},
		{"order", "check", "party", "--board", "../../rules/party/boards/toad-town.yaml", "--at", "start", "--at", "p1", "--movement", "2"},
		{"tracks", "chess"},
		{"nosuchcommand"},
		{"rules", "--nosuchflag"},
		{"--db", db, "race", "show", "nope"},
		{"--db", db, "race", "new", "--rules", "chess"},
		{"--db", db, "race", "new", "--rules", "ludi", "--track", "circus-minimus"},
		{"--db", db, "race", "new", "--rules", "ludi", "--entrants", "/no/such/file.yaml"},
		{"--db", db, "race", "new", "--rules", "ludi", "--laps", "0"},
		{"--db", db, "race", "new", "--rules", "ludi", "--laps", "21"},
		{"--db", db, "render", "nope", "--format", "gif"},
		{"--db", db, "post", "nope", "--format", "html"},
	} {
		code, doc, errs := jsonOf(t, args...)
		if code != 2 {
			t.Errorf("%v: status %d, want 2 (stderr %q)", args, code, errs)
			continue
		}
		if doc["ok"] != false || doc["error"] == "" {
			t.Errorf("%v: JSON %v, want ok false and an error", args, doc)
		}
		if lines := strings.Count(strings.TrimSpace(errs), "\n"); lines != 0 || errs == "" || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: stderr is not one line: %q", args, errs)
		}
	}
	// Without --json nothing goes to standard output.
	code, out, errs := pitwall(t, "odds", "ludi", "speed", "--level", "sideways")
	if code != 2 || out != "" || !strings.Contains(errs, "low, fast, max") {
		t.Errorf("plain bad input: %d %q %q", code, out, errs)
	}
}

func TestOrderCheckLudi(t *testing.T) {
	code, doc, _ := jsonOf(t, "order", "check", "ludi", "a, l1 else brake")
	if code != 0 || doc["ok"] != true || doc["orders"] != "Accelerate, Left 1 else Brake" {
		t.Fatalf("%d %v", code, doc)
	}
}

// Without --json, order check says what the orders do in sentences: no Go
// values (map[...], [[0 1] ...]) and no field names.
func TestOrderCheckReads(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ludi", "a, l1 else brake, bonus move"}, "2. Left 1, or Brake if a chariot is in the way"},
		{[]string{"nascar", "--speed", "4", "--heading", "N", "A(2M)RM(R+1)"}, "from (0,0) to (0,1), (0,2), (1,3), (2,4), (3,4), ending heading E"},
		{[]string{"nascar", "--speed", "4", "--heading", "N", "--draft", "A(2M)"}, "next may come: M L R"},
		{[]string{"gaslands", "gentle left skid 2 shift up"}, "the gentle template, 2 skid dice"},
		{[]string{"party", "--board", "../../rules/party/boards/toad-town.yaml", "--at", "start", "--movement", "2"}, "lands on p2"},
	} {
		code, out, errs := pitwall(t, append([]string{"order", "check"}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) || strings.Contains(out, "map[") || strings.Contains(out, "[[") || strings.Contains(out, "wildcards_used") {
			t.Errorf("%v: %d\n%s%s", c.args, code, out, errs)
		}
	}
}

func TestHelpEverywhere(t *testing.T) {
	root := newRoot(&bytes.Buffer{}, &bytes.Buffer{})
	for _, c := range root.Commands() {
		paths := [][]string{{c.Name()}}
		for _, sub := range c.Commands() {
			paths = append(paths, []string{c.Name(), sub.Name()})
		}
		for _, p := range paths {
			if p[0] == "help" || p[0] == "completion" {
				continue
			}
			code, out, errs := pitwall(t, append(p, "--help")...)
			if code != 0 || !strings.Contains(out, "Usage") {
				t.Errorf("%v --help: status %d, out %q, err %q", p, code, out, errs)
			}
		}
	}
}

// TestAHostsRace walks through a race as a host runs it from a terminal.
func TestAHostsRace(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "races.db")
	entrants := writeFile(t, dir, "entrants.yaml", `entrants:
  - player: Marcus
    package: military
    extras: [skill, speed]
    aurigae: [Marcus Aurelius]
  - player: Livia
    package: noble
    extras: [endurance, size]
    aurigae: [Livia Drusilla]
`)
	must := mustJSON(t, db)
	doc := must("race", "new", "--rules", "ludi", "--track", "circus-maximus", "--id", "ludi-test", "--entrants", entrants, "--seed", "4")
	if len(doc["commitment"].(string)) != 64 {
		t.Fatalf("no commitment: %v", doc)
	}
	must("race", "join", "ludi-test", "--player", "Gaius", "--auriga", "Gaius Iulius", "--auriga", "Gaius Minor", "--package", "trader", "--extras", "skill,speed")
	refused(t, "a bad package", "unknown package", "--db", db, "race", "join", "ludi-test", "--player", "Titus", "--package", "senate", "--extras", "skill,speed")
	ack := must("orders", "submit", "ludi-test", "1", "Accelerate")
	if ack["racer"] != "Marcus Aurelius" || ack["seat"].(float64) != 1 || ack["turn"].(float64) != 1 {
		t.Fatalf("the acknowledgement names the racer, the seat as posts number it and the turn: %v", ack)
	}
	must("orders", "submit", "ludi-test", "Livia Drusilla", "whip")
	refused(t, "Left 1 at the start", "not allowed at the race start", "--db", db, "orders", "submit", "ludi-test", "3", "Left 1")
	show := must("race", "show", "ludi-test")
	if len(show["orders_in"].([]any)) != 2 || len(show["waiting_for"].([]any)) != 2 {
		t.Fatalf("show: %v", show)
	}
	if strings.Contains(mustText(t, db, "race", "show", "ludi-test"), "Whip") {
		t.Fatal("race show reveals orders before the turn is resolved")
	}
	res := must("turn", "resolve", "ludi-test")
	if res["turn"].(float64) != 1 || len(res["defaulted"].([]any)) != 2 {
		t.Fatalf("resolve: %v", res)
	}
	must("turn", "set", "ludi-test", "--orders", "2", "--deadline", "2099-11-25T18:00:00Z")
	refused(t, "one order on a two-order turn", "takes 2 orders and 1 contingency order; 1 order given", "--db", db, "orders", "submit", "ludi-test", "1", "Accelerate")
	must("orders", "submit", "ludi-test", "1", "Accelerate, Control else Brake")
	must("turn", "resolve", "ludi-test")
	if strings.Contains(mustText(t, db, "post", "ludi-test", "--format", "markdown"), "2099") {
		t.Fatal("turn 2's deadline is shown for turn 3")
	}
	must("turn", "set", "ludi-test", "--deadline", "2099-11-27T18:00:00Z")
	rp := must("replay", "ludi-test", "--turn", "1")
	if rp["turn"].(float64) != 1 || rp["hash"] == "" {
		t.Fatalf("replay: %v", rp)
	}
	v := must("verify", "ludi-test")
	if v["ok"] != true || v["turns"].(float64) != 2 {
		t.Fatalf("verify: %v", v)
	}
	png := filepath.Join(dir, "t2.png")
	must("render", "ludi-test", "--format", "png", "--out", png)
	if b, _ := os.ReadFile(png); !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatal("render wrote no PNG")
	}
	post := mustText(t, db, "post", "ludi-test", "--format", "markdown", "--turn", "2")
	has(t, "the post", post, "turn 2", "Marcus Aurelius", "Every roll", "Turn 3: your orders", "Deadline: Fri 27 Nov 2099, 18:00 UTC")
	list := must("race", "list")
	if len(list["races"].([]any)) != 1 {
		t.Fatalf("list: %v", list)
	}
}

// race list lines its columns up, whatever the length of an id or a track.
func TestRaceListColumns(t *testing.T) {
	db := filepath.Join(t.TempDir(), "list.db")
	for _, args := range [][]string{
		{"--rules", "ludi", "--track", "circus-maximus", "--id", "ides-of-march-classic-long-name"},
		{"--rules", "nascar", "--track", "oval", "--id", "n1"},
	} {
		if code, _, errs := pitwall(t, append([]string{"--db", db, "race", "new"}, args...)...); code != 0 {
			t.Fatal(errs)
		}
	}
	out := mustText(t, db, "race", "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "RACE") {
		t.Fatalf("a header and two races:\n%s", out)
	}
	for _, col := range []string{"GAME", "TRACK", "CREATED"} {
		at := strings.Index(lines[0], col)
		for _, l := range lines[1:] {
			if at <= 0 || len(l) <= at || l[at-1] != ' ' || l[at] == ' ' {
				t.Errorf("column %s does not start at %d in:\n%s", col, at, out)
			}
		}
	}
}

// mustJSON runs commands on the database db with --json, failing t unless they succeed.
func mustJSON(t *testing.T, db string) func(args ...string) map[string]any {
	return func(args ...string) map[string]any {
		t.Helper()
		code, doc, errs := jsonOf(t, append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("%v: status %d: %s", args, code, errs)
		}
		return doc
	}
}

// refused runs pitwall with args and stops t unless it refuses them as bad
// input: status 2, saying says on stderr. what names the case.
func refused(t *testing.T, what, says string, args ...string) {
	t.Helper()
	if code, _, errs := pitwall(t, args...); code != 2 || !strings.Contains(errs, says) {
		t.Fatalf("%s: %d %s", what, code, errs)
	}
}

// has fails t for each of wants that text lacks; what names the text.
func has(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

// playOut plays race id on until its show says it is over, a turn at a
// time: send, if any, sends the turn's orders, then the turn is resolved.
// A race not over after most turns here fails t, saying what.
func playOut(t *testing.T, must func(args ...string) map[string]any, id string, most int, what string, send func()) {
	t.Helper()
	for n := 0; must("race", "show", id)["over"] != true; n++ {
		if n == most {
			t.Fatal(what)
		}
		if send != nil {
			send()
		}
		must("turn", "resolve", id)
	}
}

func mustText(t *testing.T, db string, args ...string) string {
	t.Helper()
	code, out, errs := pitwall(t, append([]string{"--db", db}, args...)...)
	if code != 0 {
		t.Fatalf("%v: status %d: %s", args, code, errs)
	}
	return out
}

// nascarPair is a database with the NASCAR race n1 on the oval (seed 3),
// with Dale's Intimidator (turbo) and Jeff's Rainbow Warrior entered, and a
// runner of commands on it that must succeed.
func nascarPair(t *testing.T) (string, func(args ...string) map[string]any) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "races.db")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "nascar", "--track", "oval", "--id", "n1", "--seed", "3")
	must("race", "join", "n1", "--player", "Dale", "--racer", "Intimidator", "--upgrade", "turbo")
	must("race", "join", "n1", "--player", "Jeff", "--racer", "Rainbow Warrior")
	return db, must
}

// writeFile writes src to the file name in dir, for a command to read, and
// gives its path.
func writeFile(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo plays a whole race")
	}
	dir := t.TempDir()
	code, doc, errs := jsonOf(t, "demo", "--out", dir, "--seed", "1")
	if code != 0 {
		t.Fatalf("demo: %d %s", code, errs)
	}
	races := doc["races"].([]any)
	if len(races) == 0 || races[0].(map[string]any)["verified"] != true {
		t.Fatalf("demo: %v", doc)
	}
	for _, f := range []string{"ludi-demo-turn00.md", "ludi-demo-turn00.bbcode", "ludi-demo-turn01.png", "ludi-demo-turn01.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("the demo did not write %s", f)
		}
	}
}

func TestOrderCheckNascar(t *testing.T) {
	code, doc, errs := jsonOf(t, "order", "check", "nascar", "--speed", "4", "--heading", "N", "A(2M)RM(R+1)")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	path, _ := json.Marshal(doc["path"])
	if doc["ok"] != true || doc["speed"] != 5.0 || doc["heading"] != "E" || doc["wildcards_used"] != 1.0 || string(path) != "[[0,1],[0,2],[1,3],[2,4],[3,4]]" {
		t.Fatalf("the text's example: %v", doc)
	}
	code, doc, _ = jsonOf(t, "order", "check", "nascar", "--speed", "4", "--heading", "N", "--draft", "A(2M)")
	if next, _ := json.Marshal(doc["next"]); code != 0 || doc["complete"] != false || string(next) != `["M","L","R"]` || doc["code"] != "wrong_move_count" {
		t.Fatalf("a draft two moves short: %d %v", code, doc)
	}
	code, doc, _ = jsonOf(t, "order", "check", "nascar", "--speed", "4", "--heading", "N", "--slipstream", "SMMMMM")
	if code != 0 || doc["speed"] != 5.0 {
		t.Fatalf("a slipstream when the car is in one: %d %v", code, doc)
	}
	code, doc, _ = jsonOf(t, "order", "check", "nascar", "--speed=4", "--heading=e", "--upgrade", "turbo", "--wildcards", "0", "AA(6M)")
	if code != 0 || doc["wildcards_used"] != 0.0 || doc["speed"] != 6.0 {
		t.Fatalf("turbo's free second accelerate: %d %v", code, doc)
	}
	for _, args := range [][]string{
		{"order", "check", "nascar", "--speed", "4", "--heading", "N", "A(A+1)(A+1)MMMMMMM"},
		{"order", "check", "nascar", "--heading", "N", "MMMM"},
		{"order", "check", "nascar", "--speed", "4", "--heading", "up", "MMMM"},
		{"order", "check", "nascar", "--speed", "four", "--heading", "N", "MMMM"},
		{"order", "check", "nascar", "--speed", "4", "--heading", "N", "--upgrade", "nitro", "MMMM"},
		{"order", "check", "nascar", "--speed", "4", "--heading", "N", "--colour", "red", "MMMM"},
		{"order", "check", "nascar", "--speed", "14", "--heading", "N", "(14M)"},
		{"order", "check", "nascar", "--speed", "4", "--heading", "N", "--max-speed", "100000", "--draft", "A"}, // a bound, so a draft is checked in good time
		{"order", "check", "nascar", "--speed", "4", "--heading", "N"},
		{"order", "check", "nascar", "--speed", "4", "--heading", "N", "MMM"},
	} {
		code, doc, errs := jsonOf(t, args...)
		if code != 2 || doc["ok"] != false || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: status %d, %v, stderr %q", args, code, doc, errs)
		}
	}
}

// TestANascarRace runs a short NASCAR race from the command line.
func TestANascarRace(t *testing.T) {
	db, must := nascarPair(t)
	refused(t, "a bad upgrade", "upgrade is one of none, turbo, swaybars, performance", "--db", db, "race", "join", "n1", "--player", "Kyle", "--upgrade", "nitro")
	must("orders", "submit", "n1", "Intimidator", "AM")
	refused(t, "two squares at speed 1", "must move 1 square", "--db", db, "orders", "submit", "n1", "Rainbow Warrior", "AMM")
	res := must("turn", "resolve", "n1")
	if res["turn"].(float64) != 1 {
		t.Fatalf("resolve: %v", res)
	}
	if v := must("verify", "n1"); v["ok"] != true {
		t.Fatalf("verify: %v", v)
	}
	post := mustText(t, db, "post", "n1", "--format", "bbcode")
	if !strings.Contains(post, "Intimidator: AM, speed 1") {
		t.Fatalf("the post lacks the order: %s", post)
	}
	png := filepath.Join(t.TempDir(), "n.png")
	must("render", "n1", "--format", "png", "--out", png)
}

func TestOddsRTD(t *testing.T) {
	code, doc, errs := jsonOf(t, "odds", "rtd", "racing-check", "--modifier", "0")
	if code != 0 || doc["ruleset"] != "rtd" {
		t.Fatalf("%d %v %s", code, doc, errs)
	}
	got := doc["outcomes"].(map[string]any)
	for k, v := range map[string]float64{"fail-1": 1. / 6, "fail": 2. / 6, "success": 2. / 6, "success+1": 1. / 6} {
		if g, _ := got[k].(float64); math.Abs(g-v) > 1e-9 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	code, doc, _ = jsonOf(t, "odds", "rtd", "item", "--position", "2", "--behind", "--perk", "item-bonus")
	got = doc["outcomes"].(map[string]any)
	blooper, _ := got["blooper"].(float64)
	if code != 0 || math.Abs(blooper-1./6) > 1e-9 || got["green-shell"] != nil || got["banana"] != nil {
		t.Fatalf("second, behind, item bonus (d6+3: 4-9, blooper to blue shell): %v", doc)
	}
	// The global --db before the command is not taken for a flag of the check.
	code, doc, _ = jsonOf(t, "--db", filepath.Join(t.TempDir(), "x.db"), "odds", "rtd", "attack", "--item", "red-shell")
	if hit, _ := doc["outcomes"].(map[string]any)["hit"].(float64); code != 0 || math.Abs(hit-26./36) > 1e-9 {
		t.Fatalf("a red shell's attack: %v", doc)
	}
	for _, args := range [][]string{
		{"odds", "rtd", "attack", "--item", "star"},
		{"odds", "rtd", "racing-check"},
		{"odds", "rtd", "racing-check", "--modifier", "two"},
		{"odds", "rtd", "item", "--position", "0"},
		{"odds", "rtd", "item", "--position", "1", "--perk", "nitro"},
		{"odds", "rtd", "drift"},
	} {
		if code, doc, _ := jsonOf(t, args...); code != 2 || doc["ok"] != false {
			t.Errorf("%v: %d %v", args, code, doc)
		}
	}
}

// A host runs an rtd race from the command line: karts, the start, a refused
// order, aggressive driving to the flag, the post and the picture.
func TestAnRTDRace(t *testing.T) {
	db := filepath.Join(t.TempDir(), "races.db")
	must := mustJSON(t, db)
	refused(t, "an rtd race option", "--laps", "--db", db, "race", "new", "--rules", "rtd", "--id", "k0", "--option", "laps=1")
	must("race", "new", "--rules", "rtd", "--track", "rainbow-road", "--id", "k1", "--seed", "9", "--laps", "1")
	must("race", "join", "k1", "--player", "Sam", "--racer", "Mario")
	must("race", "join", "k1", "--player", "Kit", "--racer", "Yoshi", "--perk", "item-bonus", "--debuff", "slow")
	refused(t, "a bad perk", "item-bonus", "--db", db, "race", "join", "k1", "--player", "Jo", "--perk", "nitro", "--debuff", "slow")
	must("race", "join", "k1", "--player", "Jo", "--racer", "Bowser", "--perk", "ramming-speed", "--debuff", "featherweight")
	refused(t, "driving before the start", "rocket start", "--db", db, "orders", "submit", "k1", "Mario", "aggressive")
	must("orders", "submit", "k1", "Mario", "rocket start")
	must("turn", "resolve", "k1")
	playOut(t, must, "k1", 58, "an aggressive race of one lap not over after 60 turns", func() {
		for _, r := range []string{"Mario", "Yoshi", "Bowser"} {
			if code, _, _ := pitwall(t, "--db", db, "orders", "submit", "k1", r, "aggressive"); code != 0 && code != 2 {
				t.Fatalf("submit: status %d", code)
			}
		}
	})
	if v := must("verify", "k1"); v["ok"] != true {
		t.Fatalf("verify: %v", v)
	}
	has(t, "the start's post", mustText(t, db, "post", "k1", "--turn", "1"), "rocket start", "Every roll of turn 1", "Rainbow Road")
	if !strings.Contains(mustText(t, db, "post", "k1"), "Records of this race") {
		t.Error("the last post has no records")
	}
	png := filepath.Join(t.TempDir(), "k.png")
	must("render", "k1", "--format", "png", "--out", png)
	recs := must("records", "rtd")["records"].([]any)
	if len(recs) != 2 || recs[0].(map[string]any)["kind"] != "fastest lap" || recs[1].(map[string]any)["kind"] != "fastest completion, 1 laps" {
		t.Fatalf("records: %v", recs)
	}
}

// gaslands' skid dice come before the rest of the game: the contract's sample.
func TestOddsGaslands(t *testing.T) {
	code, doc, errs := jsonOf(t, "odds", "gaslands", "skid", "--dice", "1")
	if code != 0 || doc["ruleset"] != "gaslands" {
		t.Fatalf("%d %v %s", code, doc, errs)
	}
	got := doc["outcomes"].(map[string]any)
	for k, v := range map[string]float64{"shift": 0.5, "hazard": 1. / 6, "slide": 1. / 6, "spin": 1. / 6} {
		if g, _ := got[k].(float64); math.Abs(g-v) > 1e-9 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	for _, args := range [][]string{{"odds", "gaslands", "skid", "--dice", "7"}, {"odds", "gaslands", "smash"}} {
		if code, doc, _ := jsonOf(t, args...); code != 2 || doc["ok"] != false {
			t.Errorf("%v: %d %v", args, code, doc)
		}
	}
}

func TestAGaslandsRace(t *testing.T) {
	db := filepath.Join(t.TempDir(), "races.db")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "gaslands", "--track", "bowser-castle", "--id", "g1", "--seed", "3", "--laps", "1")
	refused(t, "a bad vehicle", "heavy-truck", "--db", db, "race", "join", "g1", "--player", "Jo", "--racer", "Wario", "--option", "vehicle=tank")
	must("race", "join", "g1", "--player", "Sam", "--racer", "Mario", "--option", "vehicle=buggy")
	must("race", "join", "g1", "--player", "Kit", "--racer", "Bowser", "--option", "vehicle=heavy-truck")
	refused(t, "out of turn", "racers who do: Mario (seat 1)", "--db", db, "orders", "submit", "g1", "Bowser", "medium")
	refused(t, "a template without a side", "needs a side", "--db", db, "orders", "submit", "g1", "Mario", "gentle")
	must("orders", "submit", "g1", "Mario", "gentle left skid 2 shift up")
	must("turn", "resolve", "g1")
	// No orders: each kart takes the default, the most road without a hazard.
	playOut(t, must, "g1", 200, "a one-lap race of two karts not over after 200 activations", nil)
	if v := must("verify", "g1"); v["ok"] != true {
		t.Fatalf("verify: %v", v)
	}
	has(t, "the first activation's post", mustText(t, db, "post", "g1", "--turn", "1"), "Mario (gear 1, 0 hazards) takes the gentle left.", "Skid dice:", "Bowser's Castle")
	must("render", "g1", "--format", "png", "--out", filepath.Join(t.TempDir(), "g.png"))
	check := must("order", "check", "gaslands", "turn right skid 3 push spin left 45")
	if check["order"] != "turn right skid 3 push spin left 45" || check["skid_dice"] != float64(3) {
		t.Errorf("order check: %v", check)
	}
}

// A party game's host settings through turn set: the calendar and the week's minigame results.
func TestPartySettings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "races.db")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "party", "--id", "p1", "--option", "start=2026-11-02", "--option", "tz=Europe/Paris")
	must("race", "join", "p1", "--player", "Sam", "--racer", "Mario")
	must("race", "join", "p1", "--player", "Kit", "--racer", "Luigi")
	refused(t, "minigame results before the phase", "Minigame Phase", "--db", db, "turn", "set", "p1", "--setting", "minigame=Mario=5,Luigi=2")
	must("turn", "set", "p1", "--setting", "clock=2026-11-06T12:00:00Z") // Friday of week 1
	refused(t, "results that leave Luigi out", "missing: Luigi", "--db", db, "turn", "set", "p1", "--setting", "minigame=Mario=5")
	must("turn", "set", "p1", "--setting", "minigame=Mario=1,Luigi=1")
	must("turn", "set", "p1", "--setting", "minigame=Mario=5,Luigi=2") // a correction
	show := must("race", "show", "p1")
	st := show["standings"].([]any)
	if d := st[0].(map[string]any)["detail"].(string); !strings.Contains(d, "15 coins") {
		t.Errorf("Mario's 10 coins and 5 from the corrected minigame: %q", d)
	}
	refused(t, "choose with no fork", "fork", "--db", db, "orders", "submit", "p1", "Mario", "choose p9")
}

// A host's own templates and chart for a gaslands race, from a file.
func TestGaslandsManeuversFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "races.db")
	src := "templates:\n  - {name: short, length: 60}\n  - {name: long, length: 200}\n  - {name: curve, radius: 100, degrees: 60}\nslide: 30\nchart:\n  short: T T X X X X\n  long: X P P T T T\n  curve: P P H H X X\n"
	file := writeFile(t, dir, "m.yaml", src)
	refused(t, "--maneuvers on rtd", "for gaslands races", "--db", db, "race", "new", "--rules", "rtd", "--id", "x", "--maneuvers", file)
	mustText(t, db, "race", "new", "--rules", "gaslands", "--id", "g", "--maneuvers", file)
	for _, j := range [][]string{{"Sam", "Mario", "bike"}, {"Kit", "Bowser", "heavy-truck"}} {
		mustText(t, db, "race", "join", "g", "--player", j[0], "--racer", j[1], "--vehicle", j[2])
	}
	refused(t, "a template the race does not have", "templates: short, long, curve", "--db", db, "orders", "submit", "g", "Mario", "medium")
	mustText(t, db, "orders", "submit", "g", "Mario", "curve left")
}

// A party game on the host's own board, from a file.
func TestPartyOwnBoard(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "races.db")
	src := "id: tiny\nname: Tiny Loop\nstart: s0\nspaces:\n  - {id: s0, next: [s1]}\n  - {id: s1, next: [s2, s3], type: blue}\n  - {id: s2, type: red}\n  - {id: s3, type: star, decrementing: false}\n"
	file := writeFile(t, dir, "b.yaml", src)
	mustText(t, db, "race", "new", "--rules", "party", "--id", "p", "--board", file)
	for _, j := range [][]string{{"Sam", "Mario"}, {"Kit", "Luigi"}} {
		mustText(t, db, "race", "join", "p", "--player", j[0], "--racer", j[1])
	}
	out := mustText(t, db, "race", "show", "p")
	if !strings.Contains(out, "party on tiny") {
		t.Errorf("race show: %s", out)
	}
	if post := mustText(t, db, "post", "p"); !strings.Contains(post, "p at Tiny Loop: the start") {
		t.Errorf("the post names the board by its name:\n%s", post)
	}
	png := filepath.Join(dir, "p.png")
	mustText(t, db, "render", "p", "--format", "png", "--out", png)
	bad := writeFile(t, dir, "bad.yaml", "id: bad\nstart: s0\nspaces:\n  - {id: s0, next: [s9]}\n")
	refused(t, "a bad board", "s9", "--db", db, "race", "new", "--rules", "party", "--id", "q", "--board", bad)
}

// --out never writes over what is not a regular file: a FIFO stays a FIFO,
// a link stays a link, and the command says so with status 2.
func TestOutRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "races.db")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "party", "--id", "p", "--seed", "1")
	for _, j := range [][]string{{"Sam", "Mario"}, {"Kit", "Luigi"}} {
		must("race", "join", "p", "--player", j[0], "--racer", j[1])
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	code, out, errs := pitwall(t, "--db", db, "post", "p", "--out", fifo)
	if code != 2 || out != "" || !strings.Contains(errs, "--out "+fifo+" is a named pipe") || !strings.Contains(errs, "give a regular file's path") {
		t.Fatalf("post --out FIFO: %d %q %q", code, out, errs)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO is no longer one: %v %v", st, err)
	}
	target := writeFile(t, dir, "keep.png", "keep")
	link := filepath.Join(dir, "link.png")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	refused(t, "render --out LINK", "is a symbolic link", "--db", db, "render", "p", "--out", link)
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("the link's target was written: %q", b)
	}
	// and a regular file is written, as before
	post := filepath.Join(dir, "post.md")
	mustText(t, db, "post", "p", "--out", post)
	if b, _ := os.ReadFile(post); len(b) == 0 {
		t.Fatal("no post written")
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), "tmp") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// A second demo into a folder replaces the first one's files, all of them;
// a folder that holds anything else is refused and left as it was.
func TestDemoReplacesAnEarlierDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo plays whole races")
	}
	dir := filepath.Join(t.TempDir(), "demo")
	names := func() []string {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range ents {
			n = append(n, e.Name())
		}
		return n
	}
	if code, _, errs := pitwall(t, "demo", "--out", dir, "--rules", "party", "--seed", "1"); code != 0 {
		t.Fatalf("the first demo: %d %s", code, errs)
	}
	code, doc, errs := jsonOf(t, "demo", "--out", dir, "--rules", "rtd", "--seed", "2")
	if code != 0 {
		t.Fatalf("the second demo: %d %s", code, errs)
	}
	files := doc["races"].([]any)[0].(map[string]any)["files"].(float64)
	second := names()
	for _, n := range second {
		if !strings.HasPrefix(n, "rtd-demo-turn") && n != "pitwall-demo.db" {
			t.Errorf("after the second demo the folder holds %s", n)
		}
	}
	if len(second) != int(files)+1 {
		t.Errorf("the folder holds %d files, want the second demo's %v and its database", len(second), files)
	}
	if code, _, errs := pitwall(t, "--db", filepath.Join(dir, "pitwall-demo.db"), "race", "show", "rtd-demo"); code != 0 {
		t.Errorf("the demo's database: %d %s", code, errs)
	}
	// someone's own file in the folder: refused, and nothing changes
	writeFile(t, dir, "notes.txt", "mine")
	refused(t, "a folder with notes.txt", "notes.txt", "demo", "--out", dir, "--rules", "party")
	if got := names(); len(got) != len(second)+1 {
		t.Errorf("the refused demo changed the folder: %d names, want %d", len(got), len(second)+1)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "mine" {
		t.Errorf("notes.txt: %q", b)
	}
}

// An entrants file that would cost the YAML parser gigabytes is refused as
// bad input, naming the line; so is one that never ends.
func TestEntrantsFileLimits(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "races.db")
	deep := writeFile(t, dir, "entrants.yaml", "entrants: "+strings.Repeat("[", 80_000)+strings.Repeat("]", 80_000)+"\n")
	refused(t, "nested brackets", "entrants.yaml: line 1: nesting deeper than 32 levels", "--db", db, "race", "new", "--rules", "ludi", "--entrants", deep)
	if _, err := os.Stat("/dev/zero"); err == nil {
		refused(t, "/dev/zero", "is a character device", "--db", db, "race", "new", "--rules", "ludi", "--entrants", "/dev/zero")
	}
}

// $PITWALL_DB names the database when --db does not, and --help never
// prints it (a postgres:// URL may hold a password).
func TestDatabaseFromEnvironment(t *testing.T) {
	db := filepath.Join(t.TempDir(), "env-s3cret.db")
	t.Setenv("PITWALL_DB", db)
	if code, _, errs := pitwall(t, "race", "new", "--rules", "nascar", "--track", "oval", "--id", "from-env"); code != 0 {
		t.Fatal(errs)
	}
	if out := mustText(t, db, "race", "list"); !strings.Contains(out, "from-env") {
		t.Fatalf("the race made on $PITWALL_DB is not in it:\n%s", out)
	}
	other := filepath.Join(t.TempDir(), "other.db")
	if code, _, errs := pitwall(t, "--db", other, "race", "new", "--rules", "nascar", "--track", "oval", "--id", "from-flag"); code != 0 {
		t.Fatal(errs)
	}
	if out := mustText(t, db, "race", "list"); strings.Contains(out, "from-flag") {
		t.Fatalf("--db did not win over $PITWALL_DB:\n%s", out)
	}
	for _, args := range [][]string{{"--help"}, {"race", "list", "--help"}} {
		if _, out, errs := pitwall(t, args...); strings.Contains(out+errs, "s3cret") {
			t.Errorf("%v prints $PITWALL_DB:\n%s", args, out)
		}
	}
}
