package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/storetest"
)

// opener opens each name as a file of its own in one directory.
func opener(t *testing.T) storetest.Opener { return storetest.FileOpener(t, Open) }

func TestConformance(t *testing.T) { storetest.Run(t, opener(t)) }

func open(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

type applied struct {
	version int
	name    string
	at      string
}

func appliedMigrations(t *testing.T, db *sql.DB) []applied {
	t.Helper()
	rows, err := db.Query(`SELECT version, name, applied FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatalf("reading schema_migrations: %v", err)
	}
	defer rows.Close()
	var out []applied
	for rows.Next() {
		var a applied
		if err := rows.Scan(&a.version, &a.name, &a.at); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func embeddedNames(t *testing.T) []string { return storetest.MigrationNames(t, embeddedMigrations) }

func TestFreshDatabaseGetsEveryMigration(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "fresh.db"))
	names := embeddedNames(t)
	got := appliedMigrations(t, s.db)
	if len(got) != len(names) {
		t.Fatalf("%d migrations applied, want %d (%v)", len(got), len(names), names)
	}
	for i, a := range got {
		if a.version != i+1 || a.name != names[i] {
			t.Errorf("migration %d recorded as version %d %q, want version %d %q", i, a.version, a.name, i+1, names[i])
		}
	}
	for _, table := range []string{"races", "entries", "turns"} {
		var n int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("table %s is missing", table)
		}
	}
}

func TestReopenAppliesNothingTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "reopen.db")
	s := open(t, path)
	before := appliedMigrations(t, s.db)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Millisecond) // a re-applied migration would get a later timestamp
	s = open(t, path)
	after := appliedMigrations(t, s.db)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("reopening changed schema_migrations:\nbefore %v\n after %v", before, after)
	}
}

// A later release adds a migration: opening an old database applies only it.
func TestOpenAppliesOnlyMissingMigrations(t *testing.T) {
	v1 := fstest.MapFS{
		"0001_first.sql": {Data: []byte(`CREATE TABLE a (x INTEGER) STRICT;`)},
	}
	v2 := fstest.MapFS{
		"0001_first.sql":  v1["0001_first.sql"],
		"0002_second.sql": {Data: []byte(`CREATE TABLE b (y TEXT) STRICT; INSERT INTO a (x) VALUES (42);`)},
		"README":          {Data: []byte("not a migration")},
	}
	path := filepath.Join(t.TempDir(), "upgrade.db")
	s, err := openWith(path, v1)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(appliedMigrations(t, s.db)); got != 1 {
		t.Fatalf("%d migrations applied, want 1", got)
	}
	s.Close()
	// CREATE TABLE a would fail if 0001 ran again.
	for range 2 {
		s, err = openWith(path, v2)
		if err != nil {
			t.Fatalf("opening with a new migration: %v", err)
		}
		got := appliedMigrations(t, s.db)
		if len(got) != 2 || got[1].name != "0002_second.sql" {
			t.Fatalf("applied %v, want 0001 and 0002", got)
		}
		var n int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM a`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("0002 ran %d times", n)
		}
		s.Close()
	}
}

func TestFailedMigrationChangesNothing(t *testing.T) {
	bad := fstest.MapFS{
		"0001_first.sql":  {Data: []byte(`CREATE TABLE a (x INTEGER) STRICT;`)},
		"0002_broken.sql": {Data: []byte(`CREATE TABLE b (y TEXT); THIS IS NOT SQL;`)},
	}
	path := filepath.Join(t.TempDir(), "broken.db")
	_, err := openWith(path, bad)
	if err == nil || !strings.Contains(err.Error(), "0002_broken.sql") {
		t.Fatalf("Open with a broken migration: error = %v, want one naming 0002_broken.sql", err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE name IN ('a', 'b', 'schema_migrations')`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("a failed upgrade left %d tables behind", n)
	}
}

// Open refuses a set of migrations that migrate.Load refuses (its tests
// hold it to every kind of bad set).
func TestBadMigrationSet(t *testing.T) {
	gap := fstest.MapFS{
		"0001_a.sql": {Data: []byte(`SELECT 1;`)},
		"0003_c.sql": {Data: []byte(`SELECT 1;`)},
	}
	if _, err := openWith(filepath.Join(t.TempDir(), "x.db"), gap); err == nil || !strings.Contains(err.Error(), "0003_c.sql") {
		t.Errorf("Open of migrations with a gap: error = %v", err)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "newer.db")
	s := open(t, path)
	known := len(embeddedNames(t))
	newer := known + 97
	if _, err := s.db.Exec(`INSERT INTO schema_migrations (version, name, applied) VALUES (?, 'future.sql', 'x')`, newer); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(path)
	if err == nil {
		t.Fatal("Open accepted a database with a newer schema")
	}
	for _, want := range []string{strconv.Itoa(newer), strconv.Itoa(known), path} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestPragmas(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "wal.db"))
	// Hold several connections at once so that the check is not of one lucky connection.
	ctx := context.Background()
	var conns []*sql.Conn
	for range 3 {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		for pragma, want := range map[string]string{
			"journal_mode": "wal",
			"synchronous":  "2", // FULL
			"foreign_keys": "1",
			"busy_timeout": strconv.Itoa(int(busyTimeout.Milliseconds())),
		} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("connection %d: PRAGMA %s = %q, want %q", i, pragma, got, want)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

func TestNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	text := strings.Repeat("These are my notes, not a database.\n", 200)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open accepted a text file")
	}
	if msg := err.Error(); !strings.Contains(msg, "not a SQLite database") || !strings.Contains(msg, path) {
		t.Errorf("error = %q, want one saying %s is not a SQLite database", msg, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != text {
		t.Error("Open changed the file")
	}
}

func TestBadPaths(t *testing.T) {
	for _, path := range []string{"", filepath.Join(t.TempDir(), "what?.db"), filepath.Join(t.TempDir(), "missing-dir", "x.db")} {
		if s, err := Open(path); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", path)
		}
	}
}

func TestMemory(t *testing.T) {
	s := open(t, Memory)
	ctx := context.Background()
	r := &race.Race{ID: "m", Ruleset: "ludi", Config: race.Config{Track: "t"}, Seed: dice.SeedFromInt(1), Created: time.Now().Truncate(time.Microsecond)}
	if err := s.Create(ctx, r); err != nil {
		t.Fatal(err)
	}
	for seq := 1; seq <= 3; seq++ {
		if err := s.Append(ctx, "m", race.Entry{Seq: seq, Kind: race.EntryOrder, Turn: 1, At: time.Now().Truncate(time.Microsecond)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Load(ctx, "m")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Log) != 3 {
		t.Errorf("the log has %d entries, want 3", len(got.Log))
	}
}

// exec runs stmt on the store's database, as someone holding the file can.
func exec(s store.Store, stmt string) error {
	_, err := s.(*Store).db.Exec(stmt)
	return err
}

func TestDatabase(t *testing.T) {
	storetest.RunDatabase(t, opener(t), storetest.Database{
		Exec:    exec,
		Unguard: `DROP TRIGGER races_no_update`,
		Forgeries: []string{
			`UPDATE entries SET text = 'forged'`,
			`DELETE FROM entries`,
			`UPDATE OR REPLACE entries SET seq = 2`,
			`INSERT OR REPLACE INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash) SELECT race_id, seq, kind, turn, seat, 'forged', in_window, at, key, hash FROM entries`,
			`REPLACE INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash) SELECT race_id, seq, kind, turn, seat, 'forged', in_window, at, key, hash FROM entries`,
			`INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash) SELECT race_id, seq, kind, turn, seat, 'forged', in_window, at, key, hash FROM entries WHERE true ON CONFLICT DO UPDATE SET text = 'forged'`,
			`UPDATE turns SET hash = 'forged'`,
			`DELETE FROM turns`,
			`INSERT OR REPLACE INTO turns (race_id, turn, hash, rolls, at) VALUES ('r', 1, 'forged', '[]', 'x')`,
			`UPDATE races SET seed = 'forged'`,
			`UPDATE races SET entrants = '[]'`,
			`DELETE FROM races`,
			`INSERT OR REPLACE INTO races (id, ruleset, config, entrants, seed, commitment, created) VALUES ('r', 'ludi', '{}', '[]', 'x', 'y', 'z')`,
		},
		LinkForgeries: []string{
			`UPDATE tokens SET revoked = NULL`,
			`UPDATE tokens SET role = 'host', seat = -1`,
			`UPDATE tokens SET seat = -1, racer = 'Someone' WHERE role = 'seat'`,
			`INSERT OR REPLACE INTO tokens (hash, race_id, role, seat, created) SELECT hash, race_id, role, seat, created FROM tokens`,
			`REPLACE INTO tokens (hash, race_id, role, seat, created) SELECT hash, race_id, role, seat, created FROM tokens`,
			`DELETE FROM tokens`,
			`UPDATE access SET public = 1`,
			`DELETE FROM access`,
			`INSERT OR REPLACE INTO access (race_id, public, resolve_when, created) VALUES ('r', 1, 'ready', 'x')`,
		},
	})
}

func TestTimeFormatSorts(t *testing.T) {
	a := time.Date(2025, 1, 1, 0, 0, 0, 100, time.UTC)
	b := time.Date(2025, 1, 1, 0, 0, 0, 99, time.UTC)
	c := time.Date(2025, 1, 1, 0, 0, 1, 0, time.FixedZone("X", -3600)) // later than a
	if !(formatTime(b) < formatTime(a) && formatTime(a) < formatTime(c)) {
		t.Errorf("times do not sort as text: %s %s %s", formatTime(b), formatTime(a), formatTime(c))
	}
	for _, tm := range []time.Time{a, b, c} {
		got, err := parseTime(formatTime(tm))
		if err != nil || !got.Equal(tm) {
			t.Errorf("%s came back as %s, %v", tm, got, err)
		}
	}
}

// Two Stores on one file stand for two pitwall processes: SQLite's locking
// (BEGIN IMMEDIATE and the busy timeout) must keep appends in order.
func TestTwoStoresOnOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	storetest.TwoStores(t, open(t, path), open(t, path))
}

// Processes that start together on a new file must not both create the schema.
func TestConcurrentFirstOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "race-to-create.db")
	storetest.OpenTogether(t, 6, func() (store.Store, error) { return Open(path) })
	s := open(t, path)
	if got, want := len(appliedMigrations(t, s.db)), len(embeddedNames(t)); got != want {
		t.Errorf("%d migrations recorded, want %d", got, want)
	}
}

// A database written before the log was chained (schema 1) opens with every
// entry linked into its race's chain and the race's schedule moved into the
// log, as an entry of the turn open; the guards then hold.
func TestUpgradeFromSchemaOne(t *testing.T) {
	v1, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	only1 := fstest.MapFS{}
	b, err := fs.ReadFile(v1, "0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	only1["0001_init.sql"] = &fstest.MapFile{Data: b}
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := openWith(path, only1)
	if err != nil {
		t.Fatal(err)
	}
	seed := dice.SeedFromInt(4)
	for _, stmt := range []string{
		`INSERT INTO races VALUES ('old', 'ludi', '{"track":"circus-maximus"}', '[{"player":"A","racers":["A"]}]', '` + seed.Hex() + `', '` + seed.Commitment() + `',
			'2026-01-01T10:00:00.000000000Z', '2099-01-03T10:00:00.000000000Z', '2099-01-02T10:00:00.000000000Z', '2099-01-02T11:00:00.000000000Z')`,
		`INSERT INTO entries VALUES ('old', 1, 'order', 1, 0, 'Accelerate', 0, '2026-01-01T11:00:00.000000000Z')`,
		`INSERT INTO entries VALUES ('old', 2, 'resolve', 1, -1, '', 0, '2026-01-01T12:00:00.000000000Z')`,
		`INSERT INTO turns VALUES ('old', 1, 'abc', '[]', x'00ff', '{"t":2}', '2026-01-01T12:00:00.000000000Z')`,
		`INSERT INTO entries VALUES ('old', 3, 'order', 2, 0, 'Whip', 1, '2026-01-02T10:30:00.000000000Z')`,
	} {
		if _, err := old.db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	old.Close()

	s := open(t, path)
	ctx := context.Background()
	r, err := s.Load(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	turns, err := s.Turns(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Log) != 4 || r.Log[3].Kind != race.EntrySchedule || r.Log[3].Turn != 2 || r.Rules != 0 || turns[0].Rules != 0 || turns[0].Story != nil {
		t.Fatalf("the upgraded race: %+v %+v", r, turns)
	}
	sch, err := race.ParseSchedule(r.Log[3].Text)
	if err != nil || sch.Deadline == nil || sch.Deadline.Year() != 2099 || !sch.InWindow(time.Date(2099, 1, 2, 10, 30, 0, 0, time.UTC)) {
		t.Fatalf("the schedule moved into the log: %+v %v", sch, err)
	}
	head := race.Genesis(r)
	for i, e := range r.Log {
		var rec *race.TurnRecord
		if e.Kind == race.EntryResolve {
			rec = &turns[0]
		}
		if head = race.ChainNext(head, e, rec, r.Seed); e.Hash != head {
			t.Fatalf("entry %d is not linked into the chain", i+1)
		}
	}
	if _, err := s.db.Exec(`UPDATE entries SET text = 'x'`); err == nil {
		t.Fatal("the upgraded log takes an UPDATE")
	}
	if got := len(appliedMigrations(t, s.db)); got != len(embeddedNames(t)) {
		t.Fatalf("%d migrations applied", got)
	}
}

// BenchmarkResumeAfterResends: see storetest.BenchResumeAfterResends.
func BenchmarkResumeAfterResends(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "resends.db"))
	storetest.BenchResumeAfterResends(b, s, func(n int) error {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }() // undoes nothing once committed
		for i := 2; i <= n+1; i++ {
			if _, err := tx.Exec(`INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash) VALUES ('r', ?, 'order', 2, ?, 'Accelerate', 0, ?, '', 'x')`,
				i, i%12, formatTime(time.Now())); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
}

// BenchmarkAppend: see storetest.BenchAppend (as PostgreSQL's BenchmarkAppend).
// Each run of a sub-benchmark (-count, and the first probing run) opens a
// database of its own.
func BenchmarkAppend(b *testing.B) {
	storetest.BenchAppend(b, func(b *testing.B, name string) store.Store { return open(b, filepath.Join(b.TempDir(), name+".db")) })
}

// BenchmarkAppendAll: see storetest.BenchAppendAll.
func BenchmarkAppendAll(b *testing.B) {
	storetest.BenchAppendAll(b, open(b, filepath.Join(b.TempDir(), "bench_append_all.db")))
}
