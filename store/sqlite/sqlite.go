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
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
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
	db   *sql.DB
	path string
	// writer is a one-slot semaphore held by every write transaction. SQLite
	// admits one writer at a time anyway; queueing here rather than in SQLite's
	// busy handler keeps waits fair, honours the context and cannot hit the
	// busy timeout, so "database is locked" never reaches a caller.
	writer    chan struct{}
	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*Store)(nil)

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
	ms, err := loadMigrations(migrations)
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
	}
	s := &Store{db: db, path: path, writer: make(chan struct{}, 1)}
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

var embeddedMigrations = mustSub(migrationFiles, "migrations")

func mustSub(f embed.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		// fs.Sub only fails for an invalid name, and dir is a constant.
		return f
	}
	return sub
}

type migration struct {
	version int
	name    string
	sql     string
}

var migrationName = regexp.MustCompile(`^(\d+)_[a-z0-9_]+\.sql$`)

// loadMigrations reads NNNN_name.sql files; their versions must run 1, 2, 3...
// with no gap, so that a version number always means the same schema.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	des, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading the schema migrations: %w", err)
	}
	var ms []migration
	for _, de := range des {
		m := migrationName.FindStringSubmatch(de.Name())
		if de.IsDir() || m == nil {
			continue
		}
		v, err := strconv.Atoi(m[1])
		if err != nil {
			return nil, fmt.Errorf("schema migration %s: bad version: %w", de.Name(), err)
		}
		b, err := fs.ReadFile(fsys, de.Name())
		if err != nil {
			return nil, fmt.Errorf("reading schema migration %s: %w", de.Name(), err)
		}
		ms = append(ms, migration{version: v, name: de.Name(), sql: string(b)})
	}
	// ReadDir sorts by name and the numbers are zero-padded, but check rather than trust.
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("schema migration %s has version %d, expected %d: versions must run from 1 with no gaps or repeats", m.name, m.version, i+1)
		}
	}
	if len(ms) == 0 {
		return nil, errors.New("no schema migrations found")
	}
	return ms, nil
}

// migrate applies the migrations the database lacks, all in one transaction:
// an upgrade that fails part way leaves the database as it was, and two
// processes opening the database at once do not both apply a migration.
func (s *Store) migrate(ctx context.Context, ms []migration) error {
	latest := ms[len(ms)-1].version
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version INTEGER NOT NULL PRIMARY KEY,
			name    TEXT    NOT NULL,
			applied TEXT    NOT NULL
		) STRICT`); err != nil {
			return fmt.Errorf("creating the schema_migrations table: %w", err)
		}
		var current int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
			return fmt.Errorf("reading the schema version: %w", err)
		}
		if current > latest {
			return fmt.Errorf("the database has schema version %d but this pitwall knows only up to version %d; use a newer pitwall", current, latest)
		}
		for _, m := range ms[current:] {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("applying schema migration %s: %w", m.name, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
				m.version, m.name, formatTime(time.Now())); err != nil {
				return fmt.Errorf("recording schema migration %s: %w", m.name, err)
			}
		}
		return nil
	})
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

func nullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return formatTime(*t)
}

// Create stores a new race's definition.
func (s *Store) Create(ctx context.Context, r *race.Race) error {
	if r == nil {
		return errors.New("creating a race: no race given")
	}
	if r.ID == "" {
		return errors.New("creating a race: the race has no ID")
	}
	if len(r.Log) != 0 {
		return fmt.Errorf("creating race %q: a new race's log must be empty, it has %d entries; append them after creating it", r.ID, len(r.Log))
	}
	cfg, err := json.Marshal(r.Config)
	if err != nil {
		return fmt.Errorf("creating race %q: encoding its configuration: %w", r.ID, err)
	}
	ents, err := json.Marshal(r.Entrants)
	if err != nil {
		return fmt.Errorf("creating race %q: encoding its entrants: %w", r.ID, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM races WHERE id = ?`, r.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("race %q: %w", r.ID, store.ErrExists)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO races
			(id, ruleset, config, entrants, seed, commitment, created, deadline, window_open, window_close)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.Ruleset, string(cfg), string(ents), r.Seed.Hex(), r.Seed.Commitment(),
			formatTime(r.Created), nullTime(r.Schedule.Deadline), nullTime(r.Schedule.WindowOpen), nullTime(r.Schedule.WindowClose))
		return err
	})
	if err != nil {
		if errors.Is(err, store.ErrExists) {
			return fmt.Errorf("creating %w", err)
		}
		return fmt.Errorf("creating race %q: %w", r.ID, err)
	}
	return nil
}

func notFound(id string) error { return fmt.Errorf("race %q: %w", id, store.ErrNotFound) }

// Load returns the race with its whole log, in order.
func (s *Store) Load(ctx context.Context, id string) (*race.Race, error) {
	var r *race.Race
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		if r, err = loadRace(ctx, tx, id); err != nil {
			return err
		}
		r.Log, err = loadLog(ctx, tx, id)
		return err
	})
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("loading %w", err)
		}
		return nil, fmt.Errorf("loading race %q: %w", id, err)
	}
	return r, nil
}

func loadRace(ctx context.Context, tx *sql.Tx, id string) (*race.Race, error) {
	var (
		r                                    = &race.Race{ID: id}
		cfg, ents, seed, commitment, created string
		deadline, winOpen, winClose          sql.NullString
	)
	err := tx.QueryRowContext(ctx, `SELECT ruleset, config, entrants, seed, commitment, created,
		deadline, window_open, window_close
		FROM races WHERE id = ?`, id).Scan(&r.Ruleset, &cfg, &ents, &seed, &commitment, &created,
		&deadline, &winOpen, &winClose)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(cfg), &r.Config); err != nil {
		return nil, fmt.Errorf("decoding the configuration: %w", err)
	}
	if err := json.Unmarshal([]byte(ents), &r.Entrants); err != nil {
		return nil, fmt.Errorf("decoding the entrants: %w", err)
	}
	if r.Seed, err = dice.ParseSeed(seed); err != nil {
		return nil, fmt.Errorf("reading the seed: %w", err)
	}
	// The commitment was published when the race began: a seed that does not
	// match it would make every audit of the race fail, so say so here.
	if r.Seed.Commitment() != commitment {
		return nil, fmt.Errorf("the stored seed does not match the race's commitment %s; the database has been altered", commitment)
	}
	if r.Created, err = parseTime(created); err != nil {
		return nil, fmt.Errorf("reading the creation time: %w", err)
	}
	if r.Schedule.Deadline, err = parseNullTime(deadline); err != nil {
		return nil, fmt.Errorf("reading the deadline: %w", err)
	}
	if r.Schedule.WindowOpen, err = parseNullTime(winOpen); err != nil {
		return nil, fmt.Errorf("reading the bonus window: %w", err)
	}
	if r.Schedule.WindowClose, err = parseNullTime(winClose); err != nil {
		return nil, fmt.Errorf("reading the bonus window: %w", err)
	}
	return r, nil
}

func loadLog(ctx context.Context, tx *sql.Tx, id string) ([]race.Entry, error) {
	rows, err := tx.QueryContext(ctx, `SELECT seq, kind, turn, seat, text, in_window, at
		FROM entries WHERE race_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("reading the log: %w", err)
	}
	defer rows.Close()
	var log []race.Entry
	for rows.Next() {
		var (
			e  race.Entry
			at string
		)
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Turn, &e.Seat, &e.Text, &e.InWindow, &at); err != nil {
			return nil, fmt.Errorf("reading the log: %w", err)
		}
		if e.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("reading log entry %d: %w", e.Seq, err)
		}
		// The seq check in Append keeps the log gapless; a gap here means the
		// file was edited behind the store's back, and replay would be wrong.
		if e.Seq != len(log)+1 {
			return nil, fmt.Errorf("the log skips from entry %d to %d", len(log), e.Seq)
		}
		log = append(log, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the log: %w", err)
	}
	return log, nil
}

// List returns every race, newest first (ties by ID).
func (s *Store) List(ctx context.Context) ([]store.Summary, error) {
	out := []store.Summary{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT r.id, r.ruleset, r.config, r.created, r.commitment,
			(SELECT COUNT(*) FROM entries e WHERE e.race_id = r.id),
			(SELECT COUNT(*) FROM turns t WHERE t.race_id = r.id)
			FROM races r ORDER BY r.created DESC, r.id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				sm           store.Summary
				cfg, created string
				c            race.Config
			)
			if err := rows.Scan(&sm.ID, &sm.Ruleset, &cfg, &created, &sm.Commitment, &sm.Entries, &sm.Turns); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(cfg), &c); err != nil {
				return fmt.Errorf("race %q: decoding the configuration: %w", sm.ID, err)
			}
			sm.Track = c.Track
			if sm.Created, err = parseTime(created); err != nil {
				return fmt.Errorf("race %q: reading the creation time: %w", sm.ID, err)
			}
			out = append(out, sm)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("listing races: %w", err)
	}
	return out, nil
}

// Append adds e to the race's log, with the turn it resolved if it is a
// resolve entry, in one transaction.
func (s *Store) Append(ctx context.Context, id string, e race.Entry, turn *store.SavedTurn) error {
	var rolls string
	if turn != nil {
		if e.Kind != race.EntryResolve {
			return fmt.Errorf("race %q: appending entry %d: a saved turn goes with a %q entry, not %q", id, e.Seq, race.EntryResolve, e.Kind)
		}
		if turn.Turn != e.Turn {
			return fmt.Errorf("race %q: appending entry %d: it resolves turn %d but the saved turn is turn %d", id, e.Seq, e.Turn, turn.Turn)
		}
		if turn.State != nil && !json.Valid(turn.State) {
			return fmt.Errorf("race %q: saving turn %d: the state snapshot is not valid JSON", id, turn.Turn)
		}
		b, err := json.Marshal(turn.Rolls)
		if err != nil {
			return fmt.Errorf("race %q: saving turn %d: encoding the rolls: %w", id, turn.Turn, err)
		}
		rolls = string(b)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM races WHERE id = ?)`, id).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return store.ErrNotFound
		}
		var last int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM entries WHERE race_id = ?`, id).Scan(&last); err != nil {
			return err
		}
		if e.Seq != last+1 {
			return fmt.Errorf("entry %d does not follow the last entry, %d: %w", e.Seq, last, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			id, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, e.InWindow, formatTime(e.At)); err != nil {
			return fmt.Errorf("storing entry %d: %w", e.Seq, err)
		}
		if turn == nil {
			return nil
		}
		var saved bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM turns WHERE race_id = ? AND turn = ?)`, id, turn.Turn).Scan(&saved); err != nil {
			return err
		}
		if saved {
			return fmt.Errorf("entry %d: turn %d is already saved; a turn is resolved once", e.Seq, turn.Turn)
		}
		var state any // NULL for no snapshot; text otherwise, as the column is TEXT
		if turn.State != nil {
			state = string(turn.State)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO turns (race_id, turn, hash, rolls, dice_state, state, at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, turn.Turn, turn.Hash, rolls, turn.DiceState, state, formatTime(turn.At)); err != nil {
			return fmt.Errorf("saving turn %d: %w", turn.Turn, err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("race %q: appending entry %d: %w", id, e.Seq, err)
	}
	return nil
}

// Turns returns the saved turns, in order.
func (s *Store) Turns(ctx context.Context, id string) ([]store.SavedTurn, error) {
	var out []store.SavedTurn
	err := s.read(ctx, func(tx *sql.Tx) error {
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM races WHERE id = ?)`, id).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return store.ErrNotFound
		}
		rows, err := tx.QueryContext(ctx, `SELECT turn, hash, rolls, dice_state, state, at
			FROM turns WHERE race_id = ? ORDER BY turn`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				t         store.SavedTurn
				rolls, at string
				state     sql.NullString
			)
			if err := rows.Scan(&t.Turn, &t.Hash, &rolls, &t.DiceState, &state, &at); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(rolls), &t.Rolls); err != nil {
				return fmt.Errorf("turn %d: decoding the rolls: %w", t.Turn, err)
			}
			if state.Valid {
				t.State = []byte(state.String)
			}
			if t.At, err = parseTime(at); err != nil {
				return fmt.Errorf("turn %d: %w", t.Turn, err)
			}
			out = append(out, t)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("race %q: reading the saved turns: %w", id, err)
	}
	return out, nil
}

// SetSchedule records the next turn's deadline and bonus window; nil fields
// clear them.
func (s *Store) SetSchedule(ctx context.Context, id string, sch race.Schedule) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE races SET deadline = ?, window_open = ?, window_close = ? WHERE id = ?`,
			nullTime(sch.Deadline), nullTime(sch.WindowOpen), nullTime(sch.WindowClose), id)
		if err != nil {
			return err
		}
		return oneRow(res)
	})
	if err != nil {
		return fmt.Errorf("race %q: setting the schedule: %w", id, err)
	}
	return nil
}

// SetEntrants replaces the entrants of a race that has not started. Once the
// log has an entry the entrants are fixed, since replay depends on them: that
// is checked in the same transaction as the change, and reported as
// store.ErrConflict (the caller's view of the race is out of date).
func (s *Store) SetEntrants(ctx context.Context, id string, entrants []race.Entrant) error {
	ents, err := json.Marshal(entrants)
	if err != nil {
		return fmt.Errorf("race %q: encoding the entrants: %w", id, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM entries WHERE race_id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("the race has started (its log has %d entries), so its entrants are fixed: %w", n, store.ErrConflict)
		}
		res, err := tx.ExecContext(ctx, `UPDATE races SET entrants = ? WHERE id = ?`, string(ents), id)
		if err != nil {
			return err
		}
		return oneRow(res)
	})
	if err != nil {
		return fmt.Errorf("race %q: setting the entrants: %w", id, err)
	}
	return nil
}

// oneRow turns an update that matched no race into store.ErrNotFound.
func oneRow(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}
