package main

import (
	"strings"
	"testing"

	"pitwall/store/postgres/pgtest"
)

// TestARaceOnPostgres hosts a race with --db set to a PostgreSQL URL: the
// same commands, the same answers, kept in the server.
func TestARaceOnPostgres(t *testing.T) {
	db := pgtest.Schema(t, "cli_race")
	must := mustJSON(t, db)
	must("race", "new", "--rules", "nascar", "--track", "oval", "--id", "pg1", "--seed", "3")
	must("race", "join", "pg1", "--player", "Dale", "--racer", "Intimidator", "--upgrade", "turbo")
	must("race", "join", "pg1", "--player", "Jeff", "--racer", "Rainbow Warrior")
	must("orders", "submit", "pg1", "Intimidator", "AM")
	refused(t, "two squares at speed 1", "must move 1 square", "--db", db, "orders", "submit", "pg1", "Rainbow Warrior", "AMM")
	if res := must("turn", "resolve", "pg1"); res["turn"].(float64) != 1 {
		t.Fatalf("resolve: %v", res)
	}
	if v := must("verify", "pg1"); v["ok"] != true || v["turns"].(float64) != 1 {
		t.Fatalf("verify: %v", v)
	}
	if list := must("race", "list"); len(list["races"].([]any)) != 1 {
		t.Fatalf("list: %v", list)
	}
	has(t, "the post", mustText(t, db, "post", "pg1", "--format", "bbcode"), "Intimidator: AM, speed 1")
}

// A PostgreSQL URL's password never shows in an error.
func TestPostgresPasswordNotShown(t *testing.T) {
	code, _, errs := pitwall(t, "--db", "postgres://postgres:hunter2secret@127.0.0.1:1/test?connect_timeout=2", "race", "list")
	if code == 0 || strings.Contains(errs, "hunter2secret") || !strings.Contains(errs, "postgres://postgres:xxxxx@127.0.0.1:1/test") {
		t.Fatalf("status %d, said: %s", code, errs)
	}
}
