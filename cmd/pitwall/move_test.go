package main

import (
	"path/filepath"
	"strings"
	"testing"

	"pitwall/store/postgres/pgtest"
)

// movedRaces is a SQLite database with a NASCAR race two turns in, its
// third turn's orders in, and a race still forming.
func movedRaces(t *testing.T) string {
	db, must := nascarPair(t)
	for _, order := range []string{"AM", "AMM"} {
		must("orders", "submit", "n1", "Intimidator", order)
		must("turn", "resolve", "n1")
	}
	must("orders", "submit", "n1", "Intimidator", "AMMM")
	must("race", "new", "--rules", "ludi", "--id", "forming", "--seed", "4")
	return db
}

// TestRaceMove moves every race from a SQLite file to another, and the
// moved races verify there, the same; a second move finds them there; a
// race of the same ID that is not the same is refused, and nothing of it
// written.
func TestRaceMove(t *testing.T) {
	src := movedRaces(t)
	dst := filepath.Join(t.TempDir(), "moved.db")
	must := mustJSON(t, src)
	rep := must("race", "move", "--all", "--to", dst)
	if rep["moved"].(float64) != 2 || rep["already_there"].(float64) != 0 || rep["turns"].(float64) != 2 {
		t.Fatalf("the move: %v", rep)
	}
	for _, id := range []string{"n1", "forming"} {
		want := must("race", "show", id)
		if got := mustJSON(t, dst)("race", "show", id); !strings.EqualFold(strings.TrimSpace(jsonText(t, got)), strings.TrimSpace(jsonText(t, want))) {
			t.Errorf("race %s shows otherwise in the destination:\n%s\nin the source:\n%s", id, jsonText(t, got), jsonText(t, want))
		}
	}
	if v := mustJSON(t, dst)("verify", "n1"); v["ok"] != true || v["chain_head"] != must("verify", "n1")["chain_head"] {
		t.Errorf("the moved race verifies %v", v)
	}
	text := mustText(t, src, "race", "move", "n1", "--to", dst)
	has(t, "a second move", text, "n1: there already", "0 races moved, 1 race there already")

	// Another race n1 in a third database: the move is refused there.
	other := filepath.Join(t.TempDir(), "other.db")
	mustJSON(t, other)("race", "new", "--rules", "nascar", "--id", "n1", "--seed", "9")
	code, _, errs := pitwall(t, "--db", src, "race", "move", "--all", "--to", other)
	if code != 2 || !strings.Contains(errs, `race "n1" is in the destination already and is not the same`) {
		t.Fatalf("a move onto another race n1: status %d, %s", code, errs)
	}
	if l := mustJSON(t, other)("race", "list"); len(l["races"].([]any)) != 1 {
		t.Errorf("after the refusal, the destination lists %v", l["races"])
	}
	if v := mustJSON(t, other)("verify", "n1"); v["entries"].(float64) != 0 {
		t.Errorf("after the refusal, its n1 has %v entries", v["entries"])
	}
}

func jsonText(t *testing.T, v map[string]any) string {
	t.Helper()
	var b strings.Builder
	if err := writeJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRaceMoveUsage: what the command refuses as bad input, and changes
// nothing for.
func TestRaceMoveUsage(t *testing.T) {
	src := movedRaces(t)
	dst := filepath.Join(t.TempDir(), "d.db")
	refused(t, "no --to", "--to names the database", "--db", src, "race", "move", "--all")
	refused(t, "no race", "name the races to move, or give --all", "--db", src, "race", "move", "--to", dst)
	refused(t, "races and --all", "not both", "--db", src, "race", "move", "n1", "--all", "--to", dst)
	refused(t, "one database", "name the same database", "--db", src, "race", "move", "--all", "--to", filepath.Dir(src)+"/./"+filepath.Base(src))
	refused(t, "a race not there", `race "nope"`, "--db", src, "race", "move", "nope", "--to", dst)
}

// TestRaceMoveToPostgresAndBack moves the races to PostgreSQL and from
// there to a new SQLite file: each copy verifies, with the source's chain
// head.
func TestRaceMoveToPostgresAndBack(t *testing.T) {
	pg := pgtest.Schema(t, "cli_move")
	src := movedRaces(t)
	back := filepath.Join(t.TempDir(), "back.db")
	if rep := mustJSON(t, src)("race", "move", "--all", "--to", pg); rep["moved"].(float64) != 2 {
		t.Fatalf("to PostgreSQL: %v", rep)
	}
	if rep := mustJSON(t, pg)("race", "move", "--all", "--to", back); rep["moved"].(float64) != 2 {
		t.Fatalf("back to SQLite: %v", rep)
	}
	head := mustJSON(t, src)("verify", "n1")["chain_head"]
	for _, db := range []string{pg, back} {
		if v := mustJSON(t, db)("verify", "n1"); v["ok"] != true || v["chain_head"] != head {
			t.Errorf("n1 in %s: %v", db, v)
		}
	}
	// The service's next turn goes on from the copy.
	mustJSON(t, back)("turn", "resolve", "n1")
}
