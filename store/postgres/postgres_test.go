package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/postgres/pgtest"
	"pitwall/store/storetest"
)

// schema is pgtest's: a schema of the test's own on the machine's server
// (the test skipped, or under CI failed, when it cannot be reached).
var schema = pgtest.Schema

func open(t testing.TB, u string) *Store {
	t.Helper()
	s, err := Open(context.Background(), u)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// opener opens each name in a schema of its own (prefix keeps two suites'
// names apart); a second open of a name reopens it.
func opener(t *testing.T, prefix string) storetest.Opener {
	return storetest.SchemaOpener(t, prefix, Open)
}

func TestConformance(t *testing.T) { storetest.Run(t, opener(t, "")) }

func appliedMigrations(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `SELECT version, name FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatalf("reading schema_migrations: %v", err)
	}
	var out []string
	for rows.Next() {
		var v int
		var name string
		if err := rows.Scan(&v, &name); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d %s", v, name))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func embeddedNames(t *testing.T) []string { return storetest.MigrationNames(t, embeddedMigrations) }

// A schema version means the same on both stores: each has one file per
// version, under the same name.
func TestMigrationsMatchSQLite(t *testing.T) {
	lite := storetest.MigrationNames(t, os.DirFS("../sqlite/migrations"))
	if pg := embeddedNames(t); !slices.Equal(pg, lite) {
		t.Errorf("PostgreSQL's migrations %v, SQLite's %v: a version must mean the same on both", pg, lite)
	}
}

func TestFreshSchemaGetsEveryMigrationOnce(t *testing.T) {
	u := schema(t, "fresh")
	s := open(t, u)
	names := embeddedNames(t)
	got := appliedMigrations(t, s)
	if len(got) != len(names) {
		t.Fatalf("applied %v, want %v", got, names)
	}
	for i, a := range got {
		if want := fmt.Sprintf("%d %s", i+1, names[i]); a != want {
			t.Errorf("migration %d recorded as %q, want %q", i, a, want)
		}
	}
	s.Close()
	// 0001 would fail at CREATE TABLE if it ran again.
	again := open(t, u)
	if after := appliedMigrations(t, again); !slices.Equal(after, got) {
		t.Errorf("reopening changed schema_migrations: %v, then %v", got, after)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	u := schema(t, "newer")
	s := open(t, u)
	newer := len(embeddedNames(t)) + 97
	if _, err := s.pool.Exec(context.Background(), `INSERT INTO schema_migrations VALUES ($1, 'future.sql', now())`, newer); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(context.Background(), u)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(newer)) || !strings.Contains(err.Error(), "newer pitwall") {
		t.Fatalf("Open of a newer schema: error = %v", err)
	}
}

func TestFailedMigrationChangesNothing(t *testing.T) {
	u := schema(t, "broken")
	bad := fstest.MapFS{
		"0001_first.sql":  {Data: []byte(`CREATE TABLE a (x integer);`)},
		"0002_broken.sql": {Data: []byte(`CREATE TABLE b (y text); THIS IS NOT SQL;`)},
	}
	_, err := openWith(context.Background(), u, bad)
	if err == nil || !strings.Contains(err.Error(), "0002_broken.sql") {
		t.Fatalf("Open with a broken migration: error = %v, want one naming 0002_broken.sql", err)
	}
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("a failed upgrade left %d tables behind", n)
	}
}

// Instances that start together on a new database must not both create the
// schema: the advisory lock makes them take turns.
func TestConcurrentFirstOpen(t *testing.T) {
	u := schema(t, "first_open")
	storetest.OpenTogether(t, 6, func() (store.Store, error) { return Open(context.Background(), u) })
	if got, want := len(appliedMigrations(t, open(t, u))), len(embeddedNames(t)); got != want {
		t.Errorf("%d migrations recorded, want %d", got, want)
	}
}

func newRace(id string) *race.Race {
	return &race.Race{ID: id, Ruleset: "ludi", Seed: dice.SeedFromInt(1), Created: time.Now().Truncate(time.Microsecond)}
}

// exec runs stmt on the store's database; the table's owner can do what a
// trigger does not stop.
func exec(s store.Store, stmt string) error {
	_, err := s.(*Store).pool.Exec(context.Background(), stmt)
	return err
}

// copyEntry stores the log's entries again, forged.
const copyEntry = `INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash)
	SELECT race_id, seq, kind, turn, seat, 'forged', in_window, at, key, hash FROM entries `

func TestDatabase(t *testing.T) {
	storetest.RunDatabase(t, opener(t, "db_"), storetest.Database{
		Exec:    exec,
		Unguard: `ALTER TABLE races DISABLE TRIGGER races_no_update`,
		Forgeries: []string{
			`UPDATE entries SET text = 'forged'`,
			`DELETE FROM entries`,
			`TRUNCATE entries`,
			copyEntry + `ON CONFLICT (race_id, seq) DO UPDATE SET text = 'forged'`,
			copyEntry + `ON CONFLICT (race_id, seq) DO UPDATE SET seq = 2`,
			`MERGE INTO entries e USING (VALUES ('r', 1)) v (id, seq) ON e.race_id = v.id AND e.seq = v.seq
				WHEN MATCHED THEN UPDATE SET text = 'forged'`,
			`MERGE INTO entries e USING (VALUES ('r', 1)) v (id, seq) ON e.race_id = v.id AND e.seq = v.seq
				WHEN MATCHED THEN DELETE`,
			`UPDATE turns SET hash = 'forged'`,
			`DELETE FROM turns`,
			`TRUNCATE turns`,
			`INSERT INTO turns (race_id, turn, hash, rolls, at) VALUES ('r', 1, 'forged', '[]', now())
				ON CONFLICT (race_id, turn) DO UPDATE SET hash = 'forged'`,
			`UPDATE races SET seed = 'forged'`,
			`UPDATE races SET entrants = '[]'`,
			`DELETE FROM races`,
			`TRUNCATE races CASCADE`,
			`INSERT INTO races (id, ruleset, config, entrants, seed, commitment, created) VALUES ('r', 'ludi', '{}', '[]', 'x', 'y', now())
				ON CONFLICT (id) DO UPDATE SET seed = 'forged'`,
		},
		// A plain insert of a stored row collides with a key; one that does
		// nothing on a conflict does nothing.
		Collisions: map[string]bool{
			copyEntry:                            true,
			copyEntry + `ON CONFLICT DO NOTHING`: false,
			`INSERT INTO turns (race_id, turn, hash, rolls, at) VALUES ('r', 1, 'forged', '[]', now())`: true,
		},
		LinkForgeries: []string{
			`UPDATE tokens SET revoked = NULL`,
			`UPDATE tokens SET role = 'host', seat = -1`,
			`UPDATE tokens SET seat = -1, racer = 'Someone' WHERE role = 'seat'`,
			`INSERT INTO tokens (hash, race_id, role, seat, created) SELECT hash, race_id, role, seat, created FROM tokens
				ON CONFLICT (hash) DO UPDATE SET revoked = NULL`,
			`MERGE INTO tokens k USING (VALUES ('` + strings.Repeat("ab", 32) + `')) v (h) ON k.hash = v.h WHEN MATCHED THEN DELETE`,
			`DELETE FROM tokens`,
			`TRUNCATE tokens`,
			`UPDATE access SET public = true`,
			`DELETE FROM access`,
			`TRUNCATE access`,
		},
	})
}

// PostgreSQL keeps microseconds: a finer time would come back changed, so
// the store refuses it rather than break the hash chain quietly.
func TestNanosecondsRefused(t *testing.T) {
	s := open(t, schema(t, "nanos"))
	ctx := context.Background()
	r := newRace("r")
	r.Created = r.Created.Add(time.Nanosecond)
	if err := s.Create(ctx, r); err == nil || !strings.Contains(err.Error(), "microsecond") {
		t.Errorf("Create with nanoseconds: error = %v", err)
	}
	if err := s.Create(ctx, newRace("r")); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Truncate(time.Microsecond)
	if err := s.Append(ctx, "r", race.Entry{Seq: 1, Kind: race.EntryOrder, Turn: 1, At: at.Add(999)}, nil); err == nil {
		t.Error("Append took an entry time with nanoseconds")
	}
	if err := s.Append(ctx, "r", race.Entry{Seq: 1, Kind: race.EntryResolve, Turn: 1, At: at},
		&store.SavedTurn{Turn: 1, At: at.Add(1)}); err == nil {
		t.Error("Append took a turn time with nanoseconds")
	}
	if got, err := s.Load(ctx, "r"); err != nil || len(got.Log) != 0 {
		t.Errorf("the log after refused appends: %+v, %v", got, err)
	}
}

// Two Stores on one database stand for two pitwall instances.
func TestTwoStoresOnOneDatabase(t *testing.T) {
	u := schema(t, "two_pools")
	storetest.TwoStores(t, open(t, u), open(t, u))
}

// The URL's password never shows in an error.
func TestOpenErrorsHideThePassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, u := range []string{
		"postgres://pitwall:s3cret@127.0.0.1:1/none?connect_timeout=1",
		"postgres://pitwall:s3cret@127.0.0.1:5432/x?sslmode=nonsense",
		"not a url s3cret",
	} {
		s, err := Open(ctx, u)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", u)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q): the error shows the password: %v", u, err)
		}
	}
}

// BenchmarkResumeAfterResends: see storetest.BenchResumeAfterResends.
func BenchmarkResumeAfterResends(b *testing.B) {
	s := open(b, schema(b, "bench_resume"))
	storetest.BenchResumeAfterResends(b, s, func(n int) error {
		if _, err := s.pool.Exec(b.Context(), `INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash)
			SELECT 'r', i, 'order', 2, i % 12, 'Accelerate', false, now(), '', 'x' FROM generate_series(2, $1::integer) i`, n+1); err != nil {
			return err
		}
		_, err := s.pool.Exec(b.Context(), `ANALYZE entries`)
		return err
	})
}

// BenchmarkAppend is one order appended (one statement, committed), and one
// resolve with its turn (a transaction of two).
func BenchmarkAppend(b *testing.B) {
	storetest.BenchAppend(b, func(b *testing.B, name string) store.Store { return open(b, schema(b, name)) })
}

// BenchmarkAppendAll: see storetest.BenchAppendAll (the CPU it reports is
// this process's, not the server's).
func BenchmarkAppendAll(b *testing.B) {
	storetest.BenchAppendAll(b, open(b, schema(b, "bench_append_all")))
}

// A batch whose transaction fails is tried append by append; an append
// already in the log, its seq and its hash (as a commit that broke off
// after the server committed leaves it), counts as stored, not as a
// conflict to be tried again (a retry would store an unkeyed write twice).
func TestBatchFallbackKnowsWhatItStored(t *testing.T) {
	s := open(t, schema(t, "fallback"))
	ctx := context.Background()
	for _, id := range []string{"a", "b"} {
		if err := s.Create(ctx, newRace(id)); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Now().UTC().Truncate(time.Microsecond)
	entry := func(seq int, hash string, at time.Time) race.Entry {
		return race.Entry{Seq: seq, Kind: race.EntryOrder, Turn: 1, Text: "go", At: at, Hash: strings.Repeat(hash, 64)}
	}
	mine := entry(1, "a", at)
	if err := s.Append(ctx, "a", mine, nil); err != nil {
		t.Fatal(err)
	}
	errs := s.AppendAll(ctx, []store.Pending{
		{Race: "a", Entry: mine},              // stored already, as by a commit cut off
		{Race: "b", Entry: entry(1, "b", at)}, // fine
		{Race: "b", Entry: entry(2, "c", time.Date(-10000, 1, 1, 0, 0, 0, 0, time.UTC))}, // a time PostgreSQL cannot keep: the transaction fails
		{Race: "a", Entry: entry(1, "d", at)},                                            // seq 1, but not the entry stored
	})
	if errs[0] != nil || errs[1] != nil || errs[2] == nil || !errors.Is(errs[3], store.ErrConflict) {
		t.Errorf("the appends one by one: %v; want the entry stored already taken, b's first stored, the far time refused, the other seq 1 a conflict", errs)
	}
	if got, err := s.Load(ctx, "b"); err != nil || len(got.Log) != 1 {
		t.Errorf("race b after the batch: %v, %v; want its first entry", got, err)
	}
}
