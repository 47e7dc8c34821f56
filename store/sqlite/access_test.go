package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/storetest"
)

func TestAccessConformance(t *testing.T) {
	dir := t.TempDir()
	storetest.RunAccess(t, func(t *testing.T, name string) store.Store {
		s, err := Open(filepath.Join(dir, name+".db"))
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return s
	})
}

// TestLinksAreKept: a revoked link cannot be brought back, by an update, a
// replace, or a delete and a fresh insert; a race's access never changes.
func TestLinksAreKept(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "links.db"))
	ctx := context.Background()
	at := time.Now().Truncate(time.Microsecond)
	r := &race.Race{ID: "r", Ruleset: "ludi", Seed: dice.SeedFromInt(1), Created: at}
	hash := strings.Repeat("ab", 32)
	tok := store.Token{Hash: hash, Race: "r", Role: store.RoleSeat, Seat: 0, Created: at}
	if err := s.CreateWithAccess(ctx, r, store.Access{Race: "r", ResolveWhen: store.ResolveAtDeadline, Created: at}, []store.Token{tok}); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx, "r", hash, at); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`UPDATE tokens SET revoked = NULL`,
		`UPDATE tokens SET role = 'host', seat = -1`,
		`INSERT OR REPLACE INTO tokens (hash, race_id, role, seat, created) SELECT hash, race_id, role, seat, created FROM tokens`,
		`REPLACE INTO tokens (hash, race_id, role, seat, created) SELECT hash, race_id, role, seat, created FROM tokens`,
		`DELETE FROM tokens`,
		`UPDATE access SET public = 1`,
		`DELETE FROM access`,
		`INSERT OR REPLACE INTO access (race_id, public, resolve_when, created) VALUES ('r', 1, 'ready', 'x')`,
	} {
		if _, err := s.db.Exec(stmt); err == nil || !strings.Contains(err.Error(), "only ever changes by being revoked") && !strings.Contains(err.Error(), "access never changes") {
			t.Errorf("%s: error = %v, want a refusal", stmt, err)
		}
	}
	got, err := s.Token(ctx, hash)
	if err != nil || got.Revoked == nil || got.Role != store.RoleSeat {
		t.Errorf("the revoked link after the attempts: %+v, %v", got, err)
	}
	if a, err := s.Access(ctx, "r"); err != nil || a.Public || a.ResolveWhen != store.ResolveAtDeadline {
		t.Errorf("the access after the attempts: %+v, %v", a, err)
	}
}
