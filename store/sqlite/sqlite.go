// Package sqlite is the embedded store: one SQLite file (modernc.org/sqlite,
// no cgo) in WAL mode, with synchronous=FULL so that a committed append
// survives a power cut.
//
// Writes in one process are serialised by the Store itself and run in
// BEGIN IMMEDIATE transactions, so concurrent appends either succeed in order
// or return store.ErrConflict, and "database is locked" does not reach the
// caller; writers in other processes wait for up to the busy timeout.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"pitwall/race"
	"pitwall/store"
	"pitwall/store/migrate"
)

// Memory is the path of a private in-memory database, for tests: it lives as
// long as the Store and cannot be reopened.
const Memory = ":memory:"

// busyTimeout is how long a writer waits for another process's transaction.
const busyTimeout = 5 * time.Second

// timeFormat is RFC 3339 in UTC with all nine fractional digits: fixed width,
// so the text sorts in time order, and exact to the nanosecond.
const timeFormat = "2006-01-02T15:04:05.000000000Z07:00"

// Store is a store.Store on one SQLite database.
type Store struct {
	// Snapshot gives Load, Resume, Keyed, Keys, Last and Turns (s.snapshot).
	store.Snapshot
	db   *sql.DB
	path string
	// writer is a one-slot semaphore held by every write transaction. SQLite
	// admits one writer at a time anyway; queueing here rather than in SQLite's
	// busy handler keeps waits fair, honours the context and cannot hit the
	// busy timeout, so "database is locked" never reaches a caller.
	writer    chan struct{}
	closeOnce sync.Once
	closeErr  error
	// The append's statements, prepared at the first append (a store
	// opened on part of the schema, in tests, never appends): parsing them
	// again for every entry cost more than running them.
	prepared                       sync.Mutex
	check, insertEntry, insertTurn *sql.Stmt
}

var (
	_ store.Store   = (*Store)(nil)
	_ store.Batcher = (*Store)(nil)
)

// Open opens (creating it if needed) the database at path and brings its
// schema up to date. path is a file name, or Memory.
func Open(path string) (*Store, error) {
	return openWith(path, embeddedMigrations)
}

func openWith(path string, migrations fs.FS) (*Store, error) {
	if path == "" {
		return nil, errors.New("opening the SQLite store: no path given")
	}
	// The driver reads everything after the first '?' as its parameters.
	if strings.Contains(path, "?") {
		return nil, fmt.Errorf("opening the SQLite store %s: the path may not contain '?'", path)
	}
	ms, err := migrate.Load(migrations)
	if err != nil {
		return nil, fmt.Errorf("opening the SQLite store %s: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	if path != Memory {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	// Write transactions take the write lock when they begin, not at their
	// first write: a deferred transaction that reads and then writes can fail
	// at once with SQLITE_BUSY in WAL mode, whatever the busy timeout.
	// Read-only transactions still begin deferred (the driver skips _txlock).
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening the SQLite store %s: %w", path, err)
	}
	if path == Memory {
		// Every connection to :memory: is a database of its own: keep exactly one.
		db.SetMaxOpenConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	} else {
		// SQLite runs in this process: more connections than cores add no
		// speed, and every new one parses the schema again, so a few are
		// kept open and the rest of the readers wait for one.
		n := 2*runtime.GOMAXPROCS(0) + 2
		db.SetMaxOpenConns(n)
		db.SetMaxIdleConns(n)
	}
	s := &Store{db: db, path: path, writer: make(chan struct{}, 1)}
	s.Snapshot = s.snapshot
	ctx := context.Background()
	ready := func() error {
		if err := db.PingContext(ctx); err != nil {
			return err
		}
		return s.migrate(ctx, ms)
	}
	// Processes creating the same database at once: SQLite refuses the switch
	// to WAL (or the first migration) with SQLITE_BUSY without waiting, where
	// waiting could deadlock. Try again, for as long as a writer would wait.
	deadline := time.Now().Add(busyTimeout)
	err = ready()
	for wait := 5 * time.Millisecond; err != nil && isBusy(err) && time.Now().Before(deadline); wait = min(2*wait, 200*time.Millisecond) {
		time.Sleep(wait)
		err = ready()
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("opening the SQLite store %s: %w", path, explain(err))
	}
	return s, nil
}

func (s *Store) prepare(ctx context.Context) error {
	s.prepared.Lock()
	defer s.prepared.Unlock()
	if s.insertTurn != nil {
		return nil
	}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.check, `SELECT EXISTS (SELECT 1 FROM races WHERE id = ?1),
			COALESCE((SELECT MAX(seq) FROM entries WHERE race_id = ?1), 0),
			COALESCE((SELECT seq FROM entries WHERE race_id = ?1 AND key = ?2 AND key <> ''), 0),
			EXISTS (SELECT 1 FROM entries WHERE race_id = ?1 AND kind = 'resolve' AND turn = ?3),
			?4 AND EXISTS (SELECT 1 FROM turns WHERE race_id = ?1 AND turn = ?3),
			COALESCE((SELECT hash FROM entries WHERE race_id = ?1 AND seq = ?5 - 1), '')`},
		// Stored only as the entry after the log's last, of a race stored;
		// a key or a resolved turn stored already makes the append-only
		// trigger abort the statement (not the transaction). Either way
		// nothing is stored, and check says why.
		{&s.insertEntry, `INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash)
			SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
			WHERE EXISTS (SELECT 1 FROM races WHERE id = ?1)
			  AND ?2 = (SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE race_id = ?1)
			  AND (?11 = '' OR ?11 = (SELECT hash FROM entries WHERE race_id = ?1 AND seq = ?2 - 1))`},
		{&s.insertTurn, `INSERT INTO turns (race_id, turn, hash, rolls, dice_state, state, story, at, rules)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`},
	} {
		var err error
		if *p.stmt, err = s.db.PrepareContext(ctx, p.sql); err != nil {
			return fmt.Errorf("preparing the append: %w", err)
		}
	}
	return nil
}

// isBusy says whether err is SQLite's "database is locked".
func isBusy(err error) bool {
	var se *msqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// explain turns SQLite's terse result codes into what a host can act on.
func explain(err error) error {
	var se *msqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB:
			return fmt.Errorf("the file is not a SQLite database (%w)", err)
		case sqlite3.SQLITE_CORRUPT:
			return fmt.Errorf("the database file is damaged (%w)", err)
		case sqlite3.SQLITE_CANTOPEN:
			return fmt.Errorf("cannot open the file; check the path and its directory's permissions (%w)", err)
		}
	}
	return err
}

// Close closes the database; calling it again does nothing.
func (s *Store) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.db.Close() })
	return s.closeErr
}

// Path is the path the store was opened at.
func (s *Store) Path() string { return s.path }

// write runs fn in a write transaction and commits it: when write returns
// nil, the change is on disk.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writer }()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("beginning a write: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback() // the error that matters is fn's
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing: %w", err)
	}
	return nil
}

// read runs fn in a read-only transaction, so that it sees one snapshot.
func (s *Store) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("beginning a read: %w", err)
	}
	defer func() { _ = tx.Rollback() }() // nothing to keep; the read is done
	return fn(tx)
}

// Migrations.

//go:embed migrations/*.sql
var migrationFiles embed.FS

var embeddedMigrations = migrate.Sub(migrationFiles, "migrations")

// migrator is the SQLite side of a migration run, in the write transaction
// that Open's migrate holds: SQLite admits one writer, so a second process
// opening the database waits for it and then finds the versions recorded.
type migrator struct{ tx *sql.Tx }

func (m migrator) Prepare(ctx context.Context) error {
	_, err := m.tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER NOT NULL PRIMARY KEY,
		name    TEXT    NOT NULL,
		applied TEXT    NOT NULL
	) STRICT`)
	return err
}

func (m migrator) Version(ctx context.Context) (int, error) {
	var v int
	err := m.tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

func (m migrator) Apply(ctx context.Context, mg migrate.Migration) error {
	if _, err := m.tx.ExecContext(ctx, mg.SQL); err != nil {
		return err
	}
	if hook := afterMigration[mg.Name]; hook != nil {
		return hook(ctx, m.tx)
	}
	return nil
}

func (m migrator) Record(ctx context.Context, mg migrate.Migration) error {
	_, err := m.tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
		mg.Version, mg.Name, formatTime(time.Now()))
	return err
}

// migrate applies the migrations the database lacks, all in one transaction:
// an upgrade that fails part way leaves the database as it was, and two
// processes opening the database at once do not both apply a migration.
func (s *Store) migrate(ctx context.Context, ms []migrate.Migration) error {
	return s.write(ctx, func(tx *sql.Tx) error { return migrate.Run(ctx, migrator{tx}, ms) })
}

// Races.

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("bad time %q in the database: %w", s, err)
	}
	return t.UTC(), nil
}

func parseNullTime(s sql.NullString) (*time.Time, error) {
	if !s.Valid {
		return nil, nil
	}
	t, err := parseTime(s.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// Create stores a new race's definition.
func (s *Store) Create(ctx context.Context, r *race.Race) error { return s.create(ctx, r, nil) }

// create stores a new race's definition, and whatever also writes in the
// same transaction.
func (s *Store) create(ctx context.Context, r *race.Race, also func(tx *sql.Tx) error) error {
	cfg, ents, err := store.EncodeNew(r)
	if err != nil {
		return err
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := createTx(ctx, tx, r, cfg, ents); err != nil {
			return err
		}
		if also != nil {
			return also(tx)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, store.ErrExists) {
			return fmt.Errorf("creating %w", err)
		}
		return fmt.Errorf("creating race %q: %w", r.ID, err)
	}
	return nil
}

func createTx(ctx context.Context, tx *sql.Tx, r *race.Race, cfg, ents []byte) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM races WHERE id = ?`, r.ID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("race %q: %w", r.ID, store.ErrExists)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO races
		(id, ruleset, rules, config, entrants, seed, commitment, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.Ruleset, r.Rules, string(cfg), string(ents), r.Seed.Hex(), r.Seed.Commitment(), formatTime(r.Created))
	return err
}

func notFound(id string) error { return fmt.Errorf("race %q: %w", id, store.ErrNotFound) }

// snapshot is a store.Snapshot: fn reads in one read-only transaction.
func (s *Store) snapshot(ctx context.Context, fn func(rd store.Reader) error) error {
	return s.read(ctx, func(tx *sql.Tx) error { return fn(reader{tx}) })
}

// reader is the store.Reader of a read transaction.
type reader struct{ tx *sql.Tx }

func (rd reader) Race(ctx context.Context, id string) (*race.Race, error) {
	var (
		r                                    = &race.Race{ID: id}
		cfg, ents, seed, commitment, created string
	)
	err := rd.tx.QueryRowContext(ctx, `SELECT ruleset, rules, config, entrants, seed, commitment, created
		FROM races WHERE id = ?`, id).Scan(&r.Ruleset, &r.Rules, &cfg, &ents, &seed, &commitment, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, err
	}
	if err := store.DecodeRace(r, cfg, ents, seed, commitment); err != nil {
		return nil, err
	}
	if r.Created, err = parseTime(created); err != nil {
		return nil, fmt.Errorf("reading the creation time: %w", err)
	}
	return r, nil
}

func (rd reader) Exists(ctx context.Context, id string) (bool, error) {
	return raceExists(ctx, rd.tx, id)
}

func raceExists(ctx context.Context, tx *sql.Tx, id string) (bool, error) {
	var exists bool
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM races WHERE id = ?)`, id).Scan(&exists)
	return exists, err
}

func (rd reader) Log(ctx context.Context, id string) ([]race.Entry, error) {
	return scanEntries(rd.tx.QueryContext(ctx, `SELECT seq, kind, turn, seat, text, in_window, at, key, hash
		FROM entries WHERE race_id = ? ORDER BY seq`, id))
}

// Tail leaves the replaced orders out in SQL. Every entry that is not an
// order stays, of whatever kind, so that one this build does not know
// fails the load as it fails a replay.
func (rd reader) Tail(ctx context.Context, id string, from, turnOf int) ([]race.Entry, error) {
	return scanEntries(rd.tx.QueryContext(ctx, tailQuery, id, from, turnOf))
}

// tailQuery is Tail's: ?1 the race, ?2 the first entry, ?3 the turn whose
// orders and earlier ones are left out. The entries that are not orders are
// read by entries_others, named: without statistics SQLite's planner reads
// the race's every entry from ?2 on by the primary key instead, resent
// orders and all (TestTailReadsNoResentOrder).
const tailQuery = `SELECT seq, kind, turn, seat, text, in_window, at, key, hash
	FROM entries INDEXED BY entries_others WHERE race_id = ?1 AND kind <> 'order' AND seq >= ?2
	UNION ALL
	SELECT seq, kind, turn, seat, text, in_window, at, key, hash
	FROM entries WHERE race_id = ?1 AND seq >= ?2 AND seq IN
		(SELECT MAX(seq) FROM entries WHERE race_id = ?1 AND kind = 'order' AND turn > ?3 GROUP BY turn, seat
		 UNION SELECT MIN(seq) FROM entries WHERE race_id = ?1 AND kind = 'order' AND turn > ?3 GROUP BY turn)
	ORDER BY 1`

func (rd reader) Keyed(ctx context.Context, id, key string) (*race.Entry, error) {
	log, err := scanEntries(rd.tx.QueryContext(ctx, `SELECT seq, kind, turn, seat, text, in_window, at, key, hash
		FROM entries WHERE race_id = ? AND key = ?`, id, key))
	if err != nil || len(log) == 0 {
		return nil, err
	}
	return &log[0], nil
}

func (rd reader) Keys(ctx context.Context, id string) ([]race.Entry, error) {
	return scanEntries(rd.tx.QueryContext(ctx, `SELECT seq, kind, turn, seat, text, in_window, at, key, hash
		FROM entries WHERE race_id = ? AND key <> '' ORDER BY seq`, id))
}

func (rd reader) Last(ctx context.Context, id string) (int, error) {
	var last int
	err := rd.tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM entries WHERE race_id = ?`, id).Scan(&last)
	return last, err
}

// collect reads every row of a query with scan, and closes the rows (as
// pgx.AppendRows does for the PostgreSQL store); nil for none.
func collect[T any](rows *sql.Rows, err error, scan func(rows *sql.Rows) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanEntries reads log entries from the rows of a query of seq, kind,
// turn, seat, text, in_window, at, key, hash.
func scanEntries(rows *sql.Rows, err error) ([]race.Entry, error) {
	log, err := collect(rows, err, func(rows *sql.Rows) (race.Entry, error) {
		var (
			e  race.Entry
			at string
		)
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Turn, &e.Seat, &e.Text, &e.InWindow, &at, &e.Key, &e.Hash); err != nil {
			return e, err
		}
		var err error
		if e.At, err = parseTime(at); err != nil {
			return e, fmt.Errorf("entry %d: %w", e.Seq, err)
		}
		return e, nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the log: %w", err)
	}
	return log, nil
}

func (rd reader) LastTurn(ctx context.Context, id string, n int) (int, bool, error) {
	q := `SELECT turn FROM turns WHERE race_id = ? ORDER BY turn DESC LIMIT 1`
	args := []any{id}
	if n >= 0 {
		q, args = `SELECT turn FROM turns WHERE race_id = ? AND turn = ?`, []any{id, n}
	}
	var turn int
	err := rd.tx.QueryRowContext(ctx, q, args...).Scan(&turn)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return turn, err == nil, err
}

func (rd reader) ResolveSeq(ctx context.Context, id string, turn int) (int, error) {
	var seq int
	err := rd.tx.QueryRowContext(ctx, `SELECT seq FROM entries WHERE race_id = ? AND kind = 'resolve' AND turn = ?`, id, turn).Scan(&seq)
	return seq, err
}

func (rd reader) Turns(ctx context.Context, id string, from, to int) ([]store.SavedTurn, error) {
	rows, err := rd.tx.QueryContext(ctx, `SELECT turn, hash, rolls, dice_state, state, story, at, rules
		FROM turns WHERE race_id = ? AND turn BETWEEN ? AND ? ORDER BY turn`, id, from, to)
	return collect(rows, err, func(rows *sql.Rows) (store.SavedTurn, error) {
		t, _, err := scanTurn(rows)
		return t, err
	})
}

// scanTurn reads a turn record from a row of turn, hash, rolls,
// dice_state, state, story, at, rules; its rolls decoded, and as stored.
func scanTurn(rows *sql.Rows) (store.SavedTurn, string, error) {
	var (
		t            store.SavedTurn
		rolls, at    string
		state, story sql.NullString
	)
	if err := rows.Scan(&t.Turn, &t.Hash, &rolls, &t.DiceState, &state, &story, &at, &t.Rules); err != nil {
		return t, rolls, err
	}
	if err := store.DecodeRolls(&t, rolls); err != nil {
		return t, rolls, err
	}
	if state.Valid {
		t.State = []byte(state.String)
	}
	if story.Valid {
		t.Story = []byte(story.String)
	}
	var err error
	if t.At, err = parseTime(at); err != nil {
		return t, rolls, fmt.Errorf("turn %d: %w", t.Turn, err)
	}
	return t, rolls, nil
}

// List returns every race, newest first (ties by ID).
func (s *Store) List(ctx context.Context, p store.Page) ([]store.Summary, error) {
	out := []store.Summary{}
	limit := -1 // SQLite's "no limit"
	if p.Limit > 0 {
		limit = p.Limit
	}
	after := formatTime(p.AfterCreated) // fixed width: the text sorts as the time
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT r.id, r.ruleset, r.config, r.created, r.commitment,
			(SELECT COUNT(*) FROM entries e WHERE e.race_id = r.id),
			(SELECT COUNT(*) FROM turns t WHERE t.race_id = r.id)
			FROM races r
			WHERE ?1 = '' OR r.created < ?2 OR (r.created = ?2 AND r.id > ?1)
			ORDER BY r.created DESC, r.id LIMIT ?3`, p.AfterID, after, limit)
		l, err := collect(rows, err, func(rows *sql.Rows) (store.Summary, error) {
			var (
				sm           store.Summary
				cfg, created string
			)
			if err := rows.Scan(&sm.ID, &sm.Ruleset, &cfg, &created, &sm.Commitment, &sm.Entries, &sm.Turns); err != nil {
				return sm, err
			}
			var err error
			if sm.Created, err = parseTime(created); err != nil {
				return sm, fmt.Errorf("race %q: reading the creation time: %w", sm.ID, err)
			}
			sm.Track, err = store.TrackOf(sm.ID, cfg)
			return sm, err
		})
		out = append(out, l...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing races: %w", err)
	}
	return out, nil
}

// Append adds e to the race's log, with the turn it resolved if it is a
// resolve entry, in one transaction. The write transaction holds SQLite's
// one write lock, so what is read of the log first stays true until the
// entry is stored.
func (s *Store) Append(ctx context.Context, id string, e race.Entry, turn *store.SavedTurn) error {
	rolls, err := store.EncodeAppend(id, e, turn)
	if err == nil {
		err = s.prepare(ctx)
	}
	if err == nil {
		err = s.write(ctx, func(tx *sql.Tx) error { return s.appendTx(ctx, tx, id, e, turn, rolls, "") })
	}
	if err != nil {
		return fmt.Errorf("race %q: appending entry %d: %w", id, e.Seq, err)
	}
	return nil
}

// AppendAll implements store.Batcher: every append in one write
// transaction, each judged as Append judges it; a refused one stores
// nothing and the others go on.
func (s *Store) AppendAll(ctx context.Context, batch []store.Pending) []error {
	bad := make([]error, len(batch)) // what cannot be stored, as it is
	rolls := make([]string, len(batch))
	for i, b := range batch {
		rolls[i], bad[i] = store.EncodeAppend(b.Race, b.Entry, b.Turn)
	}
	errs := make([]error, len(batch))
	err := s.prepare(ctx)
	if err == nil {
		err = s.write(ctx, func(tx *sql.Tx) error {
			for i, b := range batch {
				if bad[i] != nil {
					continue
				}
				err := s.appendTx(ctx, tx, b.Race, b.Entry, b.Turn, rolls[i], b.Prev)
				var refused *refusal
				if errors.As(err, &refused) {
					errs[i] = refused.err
					continue
				}
				if err != nil {
					return err // the transaction is in doubt: nothing of it is kept
				}
			}
			return nil
		})
	}
	for i, b := range batch {
		if err != nil {
			errs[i] = err
		}
		if errs[i] != nil {
			errs[i] = fmt.Errorf("race %q: appending entry %d: %w", b.Race, b.Entry.Seq, errs[i])
		}
		if bad[i] != nil {
			errs[i] = bad[i]
		}
	}
	return errs
}

// refusal is an append that the log refuses before anything is written.
type refusal struct{ err error }

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// appendTx appends e in tx, after reading what the log holds: the write
// transaction holds SQLite's one write lock, so what is read stays true
// until the entry is stored. A refusal stores nothing. prev, when not "",
// is the hash of the entry e was chained on (store.Pending).
// The caller prepares the statements first (outside tx: an in-memory
// database has the one connection that tx holds).
func (s *Store) appendTx(ctx context.Context, tx *sql.Tx, id string, e race.Entry, turn *store.SavedTurn, rolls, prev string) error {
	res, err := tx.StmtContext(ctx, s.insertEntry).ExecContext(ctx,
		id, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, e.InWindow, formatTime(e.At), e.Key, e.Hash, prev)
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err != nil || n == 0 {
		var st store.AppendState
		if err := tx.StmtContext(ctx, s.check).QueryRowContext(ctx, id, e.Key, e.Turn, turn != nil, e.Seq).
			Scan(&st.Exists, &st.Last, &st.KeySeq, &st.Resolved, &st.Saved, &st.Prev); err != nil {
			return err
		}
		if why := st.Refusal(e, prev); why != nil {
			return &refusal{why}
		}
		if err == nil {
			err = errors.New("for no reason the log shows")
		}
		return fmt.Errorf("storing entry %d: %w", e.Seq, err)
	}
	if turn == nil {
		return nil
	}
	if _, err := tx.StmtContext(ctx, s.insertTurn).ExecContext(ctx,
		id, turn.Turn, turn.Hash, rolls, turn.DiceState, nullText(turn.State), nullText(turn.Story), formatTime(turn.At), turn.Rules); err != nil {
		return fmt.Errorf("saving turn %d: %w", turn.Turn, err)
	}
	return nil
}

// nullText is NULL for nil, and text otherwise (the columns are TEXT).
func nullText(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}
