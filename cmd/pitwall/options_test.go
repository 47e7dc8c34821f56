package main

import (
	"path/filepath"
	"testing"
)

// 'orders options' as the contract gives it, for a game with choices as data
// (ludi), one with its prompt's list (rtd), and the cases with none.
func TestOrdersOptions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "races.db")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "ludi", "--track", "circus-maximus", "--id", "l1", "--seed", "3")
	must("race", "join", "l1", "--player", "Marcus", "--auriga", "Marcus Aurelius", "--package", "military", "--extras", "skill,speed")
	must("race", "join", "l1", "--player", "Livia", "--auriga", "Livia Drusilla", "--package", "noble", "--extras", "endurance,size")
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
	legal, _ := doc["choices"].(map[string]any)["legal"].([]any)
	if len(legal) == 0 || doc["orders"] != 1.0 {
		t.Fatalf("rtd options: %v", doc)
	}
	for _, args := range [][]string{{"orders", "options", "l1", "3"}, {"orders", "options", "l1"}, {"orders", "options", "nope", "1"}} {
		if code, _, _ := jsonOf(t, append([]string{"--db", db}, args...)...); code != 2 {
			t.Errorf("%v: status %d, want 2", args, code)
		}
	}
}
