// Package postgres is the store for a community that outgrows one machine:
// several pitwall processes share one PostgreSQL database (pgx, no cgo).
//
// The database alone keeps appends in order: an entry is inserted only if
// its seq is the log's length + 1, and the primary key (race, seq) lets one
// of two writers of the same seq in, whatever process they run in; the other
// gets store.ErrConflict. Nothing is read first and written after.
package postgres

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"pitwall/race"
	"pitwall/store"
	"pitwall/store/migrate"
)

// Store is a store.Store on one PostgreSQL database (and schema: the URL may
// name one with search_path).
type Store struct {
	pool      *pgxpool.Pool
	closeOnce sync.Once
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (postgres://user@host:port/db?...)
// and brings its schema up to date, creating it if it is missing.
func Open(ctx context.Context, url string) (*Store, error) {
	return openWith(ctx, url, embeddedMigrations)
}

func openWith(ctx context.Context, url string, migrations fs.FS) (*Store, error) {
	fail := func(err error) error {
		return fmt.Errorf("opening the PostgreSQL store %s: %w", redact(url), err)
	}
	ms, err := migrate.Load(migrations)
	if err != nil {
		return nil, fail(err)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's parse errors quote the URL, password and all.
		return nil, fail(errors.New("the URL is not a PostgreSQL connection string (postgres://user@host:port/database)"))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fail(err)
	}
	s := &Store{pool: pool}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fail(err)
	}
	if err := s.migrate(ctx, ms); err != nil {
		pool.Close()
		return nil, fail(err)
	}
	return s, nil
}

// redact leaves the password out of a URL shown in an error.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return "(the URL given)"
	}
	return u.Redacted()
}

// Close closes the pool; calling it again does nothing.
func (s *Store) Close() error {
	s.closeOnce.Do(s.pool.Close)
	return nil
}

// querier is what a pool and a transaction have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// read runs fn in a read-only transaction that sees one snapshot.
func (s *Store) read(ctx context.Context, fn func(q querier) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error { return fn(tx) })
}

// Migrations.

//go:embed migrations/*.sql
var migrationFiles embed.FS

var embeddedMigrations = migrate.Sub(migrationFiles, "migrations")

// migrator is the PostgreSQL side of a migration run.
type migrator struct{ tx pgx.Tx }

// Prepare takes a lock for the schema first: PostgreSQL lets two
// transactions create one table at once (one then fails) and both read
// version 0, so openers of one schema take turns, and each sees the versions
// the one before it committed. The lock goes with the transaction.
func (m migrator) Prepare(ctx context.Context) error {
	if _, err := m.tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('pitwall schema_migrations ' || COALESCE(current_schema(), '')))`); err != nil {
		return fmt.Errorf("waiting for other openers: %w", err)
	}
	_, err := m.tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer     NOT NULL PRIMARY KEY,
		name    text        NOT NULL,
		applied timestamptz NOT NULL
	)`)
	return err
}

func (m migrator) Version(ctx context.Context) (int, error) {
	var v int
	err := m.tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

// Apply runs a whole file: with no arguments pgx sends it as one simple
// query, which may hold many statements.
func (m migrator) Apply(ctx context.Context, mg migrate.Migration) error {
	_, err := m.tx.Exec(ctx, mg.SQL)
	return err
}

func (m migrator) Record(ctx context.Context, mg migrate.Migration) error {
	_, err := m.tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, now())`, mg.Version, mg.Name)
	return err
}

// migrate applies the migrations the database lacks, all in one transaction:
// an upgrade that fails part way leaves the database as it was.
func (s *Store) migrate(ctx context.Context, ms []migrate.Migration) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return migrate.Run(ctx, migrator{tx}, ms) })
}

// Races.

// Create stores a new race's definition.
func (s *Store) Create(ctx context.Context, r *race.Race) error { return s.create(ctx, r, nil) }

// create stores a new race's definition, and whatever also writes in the
// same transaction.
func (s *Store) create(ctx context.Context, r *race.Race, also func(tx pgx.Tx) error) error {
	cfg, ents, err := store.EncodeNew(r)
	if err != nil {
		return err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO races (id, ruleset, rules, config, entrants, seed, commitment, created)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
			r.ID, r.Ruleset, r.Rules, string(cfg), string(ents), r.Seed.Hex(), r.Seed.Commitment(), r.Created)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ErrExists
		}
		if also != nil {
			return also(tx)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("creating race %q: %w", r.ID, err)
	}
	return nil
}

func notFound(id string) error { return fmt.Errorf("race %q: %w", id, store.ErrNotFound) }

// Load returns the race with its whole log, in order.
func (s *Store) Load(ctx context.Context, id string) (*race.Race, error) {
	var r *race.Race
	err := s.read(ctx, func(q querier) error {
		var err error
		if r, err = loadRace(ctx, q, id); err != nil {
			return err
		}
		r.Log, err = loadLog(ctx, q, id, 1)
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

func loadRace(ctx context.Context, q querier, id string) (*race.Race, error) {
	var (
		r                           = &race.Race{ID: id}
		cfg, ents, seed, commitment string
	)
	err := q.QueryRow(ctx, `SELECT ruleset, rules, config, entrants, seed, commitment, created
		FROM races WHERE id = $1`, id).Scan(&r.Ruleset, &r.Rules, &cfg, &ents, &seed, &commitment, &r.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, err
	}
	r.Created = r.Created.UTC()
	return r, store.DecodeRace(r, cfg, ents, seed, commitment)
}

const entryColumns = `seq, kind, turn, seat, text, in_window, at, key, hash`

// loadLog reads the log from entry from on.
func loadLog(ctx context.Context, q querier, id string, from int) ([]race.Entry, error) {
	rows, err := q.Query(ctx, `SELECT `+entryColumns+` FROM entries WHERE race_id = $1 AND seq >= $2 ORDER BY seq`, id, from)
	if err != nil {
		return nil, fmt.Errorf("reading the log: %w", err)
	}
	log, err := scanEntries(rows)
	if err != nil {
		return nil, err
	}
	return log, store.CheckGapless(log, from)
}

// scanEntries reads log entries from rows of entryColumns, and closes them.
func scanEntries(rows pgx.Rows) ([]race.Entry, error) {
	defer rows.Close()
	var log []race.Entry
	for rows.Next() {
		var e race.Entry
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Turn, &e.Seat, &e.Text, &e.InWindow, &e.At, &e.Key, &e.Hash); err != nil {
			return nil, fmt.Errorf("reading the log: %w", err)
		}
		e.At = e.At.UTC()
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
	rows, err := s.pool.Query(ctx, `SELECT r.id, r.ruleset, r.config, r.created, r.commitment,
		(SELECT COUNT(*) FROM entries e WHERE e.race_id = r.id),
		(SELECT COUNT(*) FROM turns t WHERE t.race_id = r.id)
		FROM races r ORDER BY r.created DESC, r.id`)
	if err != nil {
		return nil, fmt.Errorf("listing races: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			sm  store.Summary
			cfg string
		)
		if err := rows.Scan(&sm.ID, &sm.Ruleset, &cfg, &sm.Created, &sm.Commitment, &sm.Entries, &sm.Turns); err != nil {
			return nil, fmt.Errorf("listing races: %w", err)
		}
		if sm.Track, err = store.TrackOf(sm.ID, cfg); err != nil {
			return nil, fmt.Errorf("listing races: %w", err)
		}
		sm.Created = sm.Created.UTC()
		out = append(out, sm)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing races: %w", err)
	}
	return out, nil
}

// insertEntry stores an entry only if its race exists and its seq comes
// right after the race's last entry. Of two writers of one seq, the primary
// key lets the first to commit in; the other waits for it and then inserts
// nothing, as it does for a key or a turn's resolve stored already: no
// error aborts the transaction, and why nothing was stored is asked after.
const insertEntry = `INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash)
	SELECT $1::text, $2::integer, $3::text, $4::integer, $5::integer, $6::text, $7::boolean, $8::timestamptz, $9::text, $10::text
	WHERE EXISTS (SELECT 1 FROM races WHERE id = $1)
	  AND $2 = (SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE race_id = $1)
	ON CONFLICT DO NOTHING`

// Append adds e to the race's log, with the turn it resolved if it is a
// resolve entry, in one transaction.
func (s *Store) Append(ctx context.Context, id string, e race.Entry, turn *store.SavedTurn) error {
	rolls, err := store.EncodeAppend(id, e, turn)
	if err != nil {
		return err
	}
	args := []any{id, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, e.InWindow, e.At, e.Key, e.Hash}
	var stored bool
	if turn == nil {
		// One statement is a transaction of its own: one round trip.
		var tag pgconn.CommandTag
		tag, err = s.pool.Exec(ctx, insertEntry, args...)
		stored = err == nil && tag.RowsAffected() == 1
	} else {
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			tag, err := tx.Exec(ctx, insertEntry, args...)
			if err != nil || tag.RowsAffected() == 0 {
				return err // nothing stored: roll back, and ask why below
			}
			tag, err = tx.Exec(ctx, `INSERT INTO turns (race_id, turn, hash, rolls, dice_state, state, story, at, rules)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
				id, turn.Turn, turn.Hash, rolls, turn.DiceState, turn.State, turn.Story, turn.At, turn.Rules)
			if err != nil {
				return fmt.Errorf("saving turn %d: %w", turn.Turn, err)
			}
			if tag.RowsAffected() == 0 {
				return fmt.Errorf("entry %d: turn %d is already saved; a turn is resolved once: %w", e.Seq, turn.Turn, store.ErrConflict)
			}
			stored = true
			return nil
		})
	}
	if err == nil && !stored {
		err = s.whyNot(ctx, id, e)
	}
	if err != nil {
		return fmt.Errorf("race %q: appending entry %d: %w", id, e.Seq, err)
	}
	return nil
}

// whyNot says why insertEntry stored nothing, in the SQLite store's order:
// a missing race, a stored key, a seq that is not next, a turn resolved.
func (s *Store) whyNot(ctx context.Context, id string, e race.Entry) error {
	var (
		exists, resolved bool
		last, keySeq     int
	)
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM races WHERE id = $1),
		COALESCE((SELECT MAX(seq) FROM entries WHERE race_id = $1), 0),
		COALESCE((SELECT seq FROM entries WHERE race_id = $1 AND key = $2 AND key <> ''), 0),
		EXISTS (SELECT 1 FROM entries WHERE race_id = $1 AND kind = 'resolve' AND turn = $3)`,
		id, e.Key, e.Turn).Scan(&exists, &last, &keySeq, &resolved)
	switch {
	case err != nil:
		return err
	case !exists:
		return store.ErrNotFound
	case keySeq != 0:
		return fmt.Errorf("key %q is entry %d's: %w", e.Key, keySeq, store.ErrDuplicateKey)
	case e.Seq != last+1:
		return fmt.Errorf("entry %d does not follow the last entry, %d: %w", e.Seq, last, store.ErrConflict)
	case e.Kind == race.EntryResolve && resolved:
		return fmt.Errorf("entry %d: turn %d is resolved already; a turn is resolved once: %w", e.Seq, e.Turn, store.ErrConflict)
	}
	// Entry e.Seq-1 was stored after insertEntry looked: e was not next then.
	return fmt.Errorf("entry %d did not follow the last entry when it was appended: %w", e.Seq, store.ErrConflict)
}

// Resume returns the race with the record of turn n (the last when n < 0)
// and the log from that turn's resolve entry on.
func (s *Store) Resume(ctx context.Context, id string, n int) (*race.Race, *store.SavedTurn, error) {
	var r *race.Race
	var rec *store.SavedTurn
	err := s.read(ctx, func(q querier) error {
		var err error
		if r, err = loadRace(ctx, q, id); err != nil {
			return err
		}
		sql := `SELECT turn FROM turns WHERE race_id = $1 ORDER BY turn DESC LIMIT 1`
		args := []any{id}
		if n >= 0 {
			sql, args = `SELECT turn FROM turns WHERE race_id = $1 AND turn = $2`, []any{id, n}
		}
		var turn int
		switch err := q.QueryRow(ctx, sql, args...).Scan(&turn); {
		case errors.Is(err, pgx.ErrNoRows) && n <= 0:
			r.Log, err = loadLog(ctx, q, id, 1)
			return err
		case errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("turn %d has not been resolved: %w", n, store.ErrNotFound)
		case err != nil:
			return err
		}
		ts, err := loadTurns(ctx, q, id, turn, turn)
		if err != nil {
			return err
		}
		rec = &ts[0]
		var seq int
		if err := q.QueryRow(ctx, `SELECT seq FROM entries WHERE race_id = $1 AND kind = 'resolve' AND turn = $2`, id, turn).Scan(&seq); err != nil {
			return fmt.Errorf("finding the resolve entry of turn %d: %w", turn, err)
		}
		r.Log, err = loadTail(ctx, q, id, seq, turn)
		return err
	})
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil, fmt.Errorf("race %q: %w", id, err)
		}
		return nil, nil, fmt.Errorf("loading race %q: %w", id, err)
	}
	return r, rec, nil
}

// loadTail reads the log from entry from on, leaving out the orders that a
// later order of the same seat for the same turn replaced: a racer who
// resends orders a thousand times costs a load nothing. Each turn's first
// order stays: the log's public part ends before it. Every entry that is
// not an order stays, of whatever kind, so that one this build does not
// know fails the load as it fails a replay.
func loadTail(ctx context.Context, q querier, id string, from, turnOf int) ([]race.Entry, error) {
	rows, err := q.Query(ctx, `SELECT `+entryColumns+`
		FROM entries WHERE race_id = $1 AND kind <> 'order' AND seq >= $2
		UNION ALL
		SELECT `+entryColumns+`
		FROM entries WHERE race_id = $1 AND seq >= $2 AND seq IN
			(SELECT MAX(seq) FROM entries WHERE race_id = $1 AND kind = 'order' AND turn > $3 GROUP BY turn, seat
			 UNION SELECT MIN(seq) FROM entries WHERE race_id = $1 AND kind = 'order' AND turn > $3 GROUP BY turn)
		ORDER BY 1`, id, from, turnOf)
	if err != nil {
		return nil, fmt.Errorf("reading the log: %w", err)
	}
	log, err := scanEntries(rows)
	if err != nil {
		return nil, err
	}
	if len(log) == 0 || log[0].Seq != from {
		return nil, fmt.Errorf("the log has no entry %d", from)
	}
	return log, nil
}

// Keyed returns the entry stored with key, or nil.
func (s *Store) Keyed(ctx context.Context, id, key string) (*race.Entry, error) {
	var out *race.Entry
	err := s.read(ctx, func(q querier) error {
		if _, err := loadRace(ctx, q, id); err != nil {
			return err
		}
		if key == "" {
			return nil
		}
		rows, err := q.Query(ctx, `SELECT `+entryColumns+` FROM entries WHERE race_id = $1 AND key = $2`, id, key)
		if err != nil {
			return err
		}
		log, err := scanEntries(rows)
		if len(log) > 0 {
			out = &log[0]
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("race %q: finding key %q: %w", id, key, err)
	}
	return out, nil
}

// Turns returns the saved turns, in order.
func (s *Store) Turns(ctx context.Context, id string) ([]store.SavedTurn, error) {
	var out []store.SavedTurn
	err := s.read(ctx, func(q querier) error {
		var exists bool
		if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM races WHERE id = $1)`, id).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return store.ErrNotFound
		}
		var err error
		out, err = loadTurns(ctx, q, id, 0, math.MaxInt32)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("race %q: reading the saved turns: %w", id, err)
	}
	return out, nil
}

// loadTurns reads the saved turns from..to.
func loadTurns(ctx context.Context, q querier, id string, from, to int) ([]store.SavedTurn, error) {
	rows, err := q.Query(ctx, `SELECT turn, hash, rolls, dice_state, state, story, at, rules
		FROM turns WHERE race_id = $1 AND turn BETWEEN $2 AND $3 ORDER BY turn`, id, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.SavedTurn
	for rows.Next() {
		var (
			t     store.SavedTurn
			rolls string
		)
		if err := rows.Scan(&t.Turn, &t.Hash, &rolls, &t.DiceState, &t.State, &t.Story, &t.At, &t.Rules); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(rolls), &t.Rolls); err != nil {
			return nil, fmt.Errorf("turn %d: decoding the rolls: %w", t.Turn, err)
		}
		t.At = t.At.UTC()
		out = append(out, t)
	}
	return out, rows.Err()
}
