package host

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"pitwall/dice"
)

// played is a stored ludi race played to its end, with the chain head a
// post published after turn 5.
func played(t testing.TB) (*fixture, string) {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 5)
	for turn := 1; turn <= 5; turn++ {
		if _, err := f.h.Resolve(ctx, "r1", Req{Turn: turn}); err != nil {
			t.Fatal(err)
		}
	}
	p := f.load(t, "r1")
	head := p.Head
	playOut(t, f, "r1")
	if rep, err := f.h.Verify(ctx, "r1", head); err != nil || !rep.OK || rep.HeadEntry != 5 {
		t.Fatalf("the honest race: %v %+v", err, rep)
	}
	return f, head
}

func query(t *testing.T, path, q string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var s string
	if err := db.QueryRow(q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

// Every way of rewriting a stored race behind the host's back is caught by
// verify: the chain, the replay or the published head.
func TestVerifyCatchesTampering(t *testing.T) {
	other := dice.SeedFromInt(77)
	for _, tc := range []struct {
		name  string
		stmts []string
		want  string // a word of the problem reported
	}{
		{"an order edited", []string{`UPDATE entries SET text = 'Whip' WHERE race_id = 'r1' AND seq = (SELECT MIN(seq) FROM entries WHERE kind = 'order' AND turn = 7)`}, "sealed"},
		{"an entry deleted", []string{`DELETE FROM entries WHERE seq = (SELECT MIN(seq) FROM entries WHERE kind = 'order' AND turn = 7)`}, "skips"},
		{"entries reordered", []string{
			`CREATE TABLE two AS SELECT MIN(seq) AS a, MIN(seq) + 1 AS b FROM entries WHERE kind = 'order' AND turn = 7`,
			`UPDATE entries SET seq = 100000 WHERE seq = (SELECT a FROM two)`,
			`UPDATE entries SET seq = (SELECT a FROM two) WHERE seq = (SELECT b FROM two)`,
			`UPDATE entries SET seq = (SELECT b FROM two) WHERE seq = 100000`}, "sealed"},
		{"an entry inserted", []string{
			`CREATE TABLE one AS SELECT MIN(seq) AS a FROM entries WHERE kind = 'order' AND turn = 7`,
			`UPDATE entries SET seq = seq + 100000 WHERE seq > (SELECT a FROM one)`,
			`UPDATE entries SET seq = seq - 99999 WHERE seq > 100000`,
			`INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash) SELECT race_id, seq + 1, kind, turn, seat, text, in_window, at, 'x', hash FROM entries WHERE seq = (SELECT a FROM one)`}, "sealed"},
		{"the seed and commitment swapped", []string{`UPDATE races SET seed = '` + other.Hex() + `', commitment = '` + other.Commitment() + `'`}, "sealed"},
		{"the seed edited", []string{`UPDATE races SET seed = '` + other.Hex() + `'`}, "commitment"},
		{"an entrant edited", []string{`UPDATE races SET entrants = replace(entrants, 'military', 'noble')`}, "sealed"},
		{"the config edited", []string{`UPDATE races SET config = '{"track":"circus-maximus","laps":1}'`}, "sealed"},
		{"a snapshot edited", []string{`UPDATE turns SET state = replace(state, '"turn":4', '"turn":40') WHERE turn = 3`}, "snapshot"},
		{"a dice state edited", []string{`UPDATE turns SET dice_state = (SELECT dice_state FROM turns WHERE turn = 7) WHERE turn = 8`}, "dice stream"},
		{"a story edited", []string{`UPDATE turns SET story = replace(story, '"text":"', '"text":"So: ') WHERE turn = 9`}, "story"},
		{"a roll edited", []string{`UPDATE turns SET rolls = replace(rolls, '"result":', '"result":1') WHERE turn = 6`}, "roll"},
		{"a turn record deleted", []string{`DELETE FROM turns WHERE turn = 6`}, "no record"},
		{"the race's turns deleted from turn 5 on", []string{
			`DELETE FROM turns WHERE turn >= 5`,
			`DELETE FROM entries WHERE seq >= (SELECT seq FROM entries WHERE kind = 'resolve' AND turn = 5)`}, "published head"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, head := played(t)
			tamper(t, f.path, tc.stmts...)
			rep, err := f.h.Verify(context.Background(), "r1", head)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK || !strings.Contains(strings.Join(rep.Problems, "; "), tc.want) {
				t.Fatalf("verify did not say %q: %+v", tc.want, rep)
			}
		})
	}
}

// A host who holds the database rewrites the last turn: deletes it, sends
// another order and resolves again. The chain is whole again, so only a
// head published before the rewrite shows it.
func TestVerifyCatchesARewrittenTurn(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 5)
	for turn := 1; turn <= 3; turn++ {
		if _, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: turn}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.h.Resolve(ctx, "r1", Req{Turn: turn}); err != nil {
			t.Fatal(err)
		}
	}
	p := f.load(t, "r1")
	published := p.Head
	last := query(t, f.path, `SELECT MIN(seq) FROM entries WHERE kind = 'order' AND turn = 3`)
	tamper(t, f.path, `DELETE FROM turns WHERE turn = 3`, `DELETE FROM entries WHERE seq >= `+last)
	// The triggers are gone with the tampering; the host writes on as usual.
	if _, err := f.h.Submit(ctx, "r1", 0, "Whip", Req{Turn: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Resolve(ctx, "r1", Req{Turn: 3}); err != nil {
		t.Fatal(err)
	}
	rep, err := f.h.Verify(ctx, "r1", "")
	if err != nil || !rep.OK {
		t.Fatalf("without a published head the rewrite cannot be seen: %v %+v", err, rep)
	}
	rep, err = f.h.Verify(ctx, "r1", published)
	if err != nil || rep.OK || !strings.Contains(strings.Join(rep.Problems, ";"), "published head") {
		t.Fatalf("the head published before the rewrite: %v %+v", err, rep)
	}
}
