package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// The contract's turns, keys, seats and heads, as a host types them.
func TestTurnsKeysAndHeads(t *testing.T) {
	db := filepath.Join(t.TempDir(), "races.db")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "nascar", "--id", "n", "--seed", "2")
	set := must("turn", "set", "n", "--deadline", "2099-01-01T00:00:00Z")
	if set["turn"].(float64) != 1 {
		t.Fatalf("a schedule while the race forms is turn 1's: %v", set)
	}
	must("race", "join", "n", "--player", "Dale", "--racer", "Intimidator", "--upgrade", "turbo", "--key", "j1")
	must("race", "join", "n", "--player", "Dale", "--racer", "Intimidator", "--upgrade", "turbo", "--key", "j1") // a retry
	must("race", "join", "n", "--player", "Jeff", "--racer", "Rainbow Warrior")
	must("race", "join", "n", "--player", "Bob", "--racer", "Bobcat")
	must("race", "fix", "n", "--player", "bob", "--racer", "Lynx", "--upgrade", "swaybars")
	if left := must("race", "withdraw", "n", "BOB"); left["entrants"].(float64) != 2 {
		t.Fatalf("withdraw: %v", left)
	}
	ack := must("orders", "submit", "n", "2", "AM", "--turn", "1", "--key", "o1")
	if ack["racer"] != "Rainbow Warrior" || ack["seat"].(float64) != 2 || ack["turn"].(float64) != 1 || ack["orders"] == "" {
		t.Fatalf("the acknowledgement: %v", ack)
	}
	again := must("orders", "submit", "n", "2", "AM", "--turn", "1", "--key", "o1")
	if again["repeat"] != true || again["entry"] != ack["entry"] || again["turn"] != ack["turn"] {
		t.Fatalf("a repeated key: %v, first %v", again, ack)
	}
	code, doc, errs := jsonOf(t, "--db", db, "race", "join", "n", "--player", "Late", "--racer", "Late")
	if code != 2 || doc["ok"] != false || !strings.Contains(errs, "has started") {
		t.Fatalf("a join after the start: %d %v %s", code, doc, errs)
	}
	code, _, errs = jsonOf(t, "--db", db, "turn", "resolve", "n", "--turn", "2")
	if code != 2 || !strings.Contains(errs, "not open yet") {
		t.Fatalf("resolving a turn to come: %d %s", code, errs)
	}
	show := must("race", "show", "n")
	head := show["chain_head"].(string)
	if len(head) != 64 || show["entries"].(float64) != 7 {
		t.Fatalf("race show: %v", show)
	}
	res := must("turn", "resolve", "n", "--turn", "1")
	if res["resolved"] != true || res["turn"].(float64) != 1 {
		t.Fatalf("resolve: %v", res)
	}
	res = must("turn", "resolve", "n", "--turn", "1")
	if res["resolved"] != false || res["turn"].(float64) != 1 || res["ok"] != true {
		t.Fatalf("resolving a resolved turn: %v", res)
	}
	code, doc, errs = jsonOf(t, "--db", db, "orders", "submit", "n", "Intimidator", "AM", "--turn", "1")
	if code != 2 || doc["ok"] != false || !strings.Contains(errs, "turn 2 is open") {
		t.Fatalf("an order for a closed turn: %d %v %s", code, doc, errs)
	}
	for _, seat := range []string{"0", "3", "Nobody"} {
		if code, _, errs := pitwall(t, "--db", db, "orders", "submit", "n", seat, "AM"); code != 2 || !strings.Contains(errs, "Intimidator") {
			t.Errorf("seat %q: %d %s", seat, code, errs)
		}
	}
	if v := must("verify", "n", "--head", head); v["ok"] != true || v["head_entry"].(float64) != 7 {
		t.Fatalf("verify with a head: %v", v)
	}
	refused(t, "a malformed head", "64 hex digits", "--db", db, "verify", "n", "--head", "abc")
	// An export verifies without the database: the chain now, the turns once the seed is out.
	file := filepath.Join(t.TempDir(), "n.json")
	if x := must("race", "export", "n", "--out", file); x["entries"].(float64) != 8 || x["over"] != false {
		t.Fatalf("export: %v", x)
	}
	if v := must("verify", "--file", file, "--head", head); v["ok"] != true || v["replayed"] != false {
		t.Fatalf("verify --file: %v", v)
	}
	refused(t, "verify --file of a database", "not a pitwall race export", "verify", "--file", db)
	if code, _, _ := pitwall(t, "--db", db, "verify", "n", "--file", file); code != 2 {
		t.Fatal("a race and a file at once")
	}
	// A rewrite of the log: verify fails with status 1, not 2.
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.Exec(`DROP TRIGGER entries_no_update; UPDATE entries SET text = 'AMM' WHERE kind = 'order'`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	code, doc, _ = jsonOf(t, "--db", db, "verify", "n", "--head", head)
	if code != 1 || doc["ok"] != false || len(doc["problems"].([]any)) == 0 {
		t.Fatalf("a rewritten race: %d %v", code, doc)
	}
	must("race", "export", "n", "--out", file)
	if code, doc, _ := jsonOf(t, "verify", "--file", file, "--head", head); code != 1 || doc["ok"] != false {
		t.Fatalf("the export of a rewritten race: %d %v", code, doc)
	}
}
