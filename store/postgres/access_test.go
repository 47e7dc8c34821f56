package postgres

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/storetest"
)

func TestAccessConformance(t *testing.T) { storetest.RunAccess(t, opener(t, "access_")) }

// TestLinksAreKept: a revoked link cannot be brought back, by an update, an
// upsert, or a delete and a fresh insert; a race's access never changes.
func TestLinksAreKept(t *testing.T) {
	s := open(t, schema(t, "links"))
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
	refusals := []string{"only ever changes by being revoked", "access never changes"}
	for _, stmt := range []string{
		`UPDATE tokens SET revoked = NULL`,
		`UPDATE tokens SET role = 'host', seat = -1`,
		`INSERT INTO tokens (hash, race_id, role, seat, created) SELECT hash, race_id, role, seat, created FROM tokens
			ON CONFLICT (hash) DO UPDATE SET revoked = NULL`,
		`MERGE INTO tokens k USING (VALUES ('` + hash + `')) v (h) ON k.hash = v.h WHEN MATCHED THEN DELETE`,
		`DELETE FROM tokens`,
		`TRUNCATE tokens`,
		`UPDATE access SET public = true`,
		`DELETE FROM access`,
		`TRUNCATE access`,
	} {
		_, err := s.pool.Exec(ctx, stmt)
		if err == nil || !slices.ContainsFunc(refusals, func(r string) bool { return strings.Contains(err.Error(), r) }) {
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
