package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// 'orders options' as the contract gives it, for two games' choices as data
// (ludi, rtd), and the cases with none.
func TestOrdersOptions(t *testing.T) {
	db, must := ludiPair(t)
	doc := must("orders", "options", "l1", "livia drusilla")
	if doc["ok"] != true || doc["turn"] != 1.0 || doc["seat"] != 2.0 || doc["racer"] != "Livia Drusilla" || doc["orders"] != 1.0 {
		t.Fatalf("options: %v", doc)
	}
	first := doc["choices"].(map[string]any)["first"].([]any)
	ok := map[string]bool{}
	for _, c := range first {
		m := c.(map[string]any)
		ok[m["order"].(string)] = m["allowed"].(bool)
	}
	// at the start: Accelerate, Whip and Hold; no turn, no attack
	if !ok["Accelerate"] || ok["Left 1"] || ok["Crash Left"] {
		t.Fatalf("turn 1's choices: %v", ok)
	}
	must("orders", "submit", "l1", "2", "Accelerate")

	must("race", "new", "--rules", "rtd", "--track", "rainbow-road", "--id", "r1", "--seed", "3")
	must("race", "join", "r1", "--player", "Sam", "--racer", "Mario")
	must("race", "join", "r1", "--player", "Kit", "--racer", "Yoshi")
	doc = must("orders", "options", "r1", "1")
	actions, _ := doc["choices"].(map[string]any)["actions"].([]any)
	byOrder := map[string]map[string]any{}
	for _, a := range actions {
		m := a.(map[string]any)
		byOrder[m["order"].(string)] = m
	}
	// at the start: a rocket start (with its odds) or a safe one, nothing else
	rocket, aggressive := byOrder["rocket start"], byOrder["aggressive"]
	if doc["orders"] != 1.0 || rocket["allowed"] != true || rocket["odds"].(map[string]any)["nailed"] != 0.5 ||
		aggressive["allowed"] != false || aggressive["code"] != "rocket_start_only" {
		t.Fatalf("rtd options: %v", doc)
	}
	// For a person: each list of orders, allowed or not, with the likeliest odds.
	text := mustText(t, db, "orders", "options", "r1", "1")
	has(t, "options for a person", text, "actions:\n", "rocket start                 yes nailed 50%, failed 33%, fluffed 17%\n",
		"aggressive                   no: rocket_start_only (at the start", "(--json gives every field")
	for _, args := range [][]string{{"orders", "options", "l1", "3"}, {"orders", "options", "l1"}, {"orders", "options", "nope", "1"}} {
		if code, _, _ := jsonOf(t, append([]string{"--db", db}, args...)...); code != 2 {
			t.Errorf("%v: status %d, want 2", args, code)
		}
	}
}

// 'turn set' checks every part before it writes one: a refused command
// changes nothing.
func TestTurnSetAllOrNothing(t *testing.T) {
	db, must := ludiPair(t)
	entries := func() float64 { return must("race", "show", "l1")["entries"].(float64) }
	before := entries()
	for _, args := range [][]string{
		{"--orders", "2", "--deadline", "2000-01-01T00:00:00Z"},
		{"--orders", "2", "--setting", "fog=thick"},
		{"--orders", "9"},
		{"--orders", "2", "--key", strings.Repeat("k", 120)},
		{"--setting", "orders=2", "--setting", "orders=3", "--key", "kk"},
		{"--orders", "2", "--window-open", "2099-01-01T10:00:00Z", "--window-close", "2099-01-01T09:00:00Z"},
	} {
		code, _, errs := pitwall(t, append([]string{"--db", db, "turn", "set", "l1"}, args...)...)
		if code != 2 || errs == "" {
			t.Errorf("%v: status %d, %s", args, code, errs)
		}
		if n := entries(); n != before {
			t.Fatalf("%v was refused and stored %v entries", args, n-before)
		}
	}
	must("turn", "set", "l1", "--orders", "2", "--deadline", "2099-01-01T00:00:00Z")
	if entries() != before+2 {
		t.Fatal("a good turn set did not store its two parts")
	}
}

// A named pipe given as a file is refused at once, not waited on for ever.
func TestFilesThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "races.db")
	for _, args := range [][]string{
		{"verify", "--file", fifo},
		{"race", "new", "--rules", "ludi", "--entrants", fifo},
	} {
		code, _, errs := pitwall(t, append([]string{"--db", db}, args...)...)
		if code != 2 || !strings.Contains(errs, "is a named pipe") {
			t.Errorf("%v: status %d, %s", args, code, errs)
		}
	}
}

// ludiPair is a database with the ludi race l1 on the Circus Maximus (seed
// 3), with Marcus's and Livia's chariots entered, and a runner of commands on
// it that must succeed.
func ludiPair(t *testing.T) (string, func(args ...string) map[string]any) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "races.db")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "ludi", "--track", "circus-maximus", "--id", "l1", "--seed", "3")
	must("race", "join", "l1", "--player", "Marcus", "--auriga", "Marcus Aurelius", "--package", "military", "--extras", "skill,speed")
	must("race", "join", "l1", "--player", "Livia", "--auriga", "Livia Drusilla", "--package", "noble", "--extras", "endurance,size")
	return db, must
}
