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
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sync"
	"time"

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
	// Snapshot gives Load, Resume, Keyed, Keys, Last and Turns (s.snapshot).
	store.Snapshot
	pool      *pgxpool.Pool
	name      string // this store's application_name (listen.go)
	closeOnce sync.Once
}

var (
	_ store.Store   = (*Store)(nil)
	_ store.Batcher = (*Store)(nil)
)

// Open connects to the database at url (postgres://user@host:port/db?...)
// and brings its schema up to date, creating it if it is missing.
func Open(ctx context.Context, url string) (*Store, error) {
	return openWith(ctx, url, embeddedMigrations)
}

func openWith(ctx context.Context, url string, migrations fs.FS) (*Store, error) {
	fail := func(err error) error {
		return fmt.Errorf("opening the PostgreSQL store %s: %w", Redact(url), err)
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
	name := newName()
	cfg.ConnConfig.RuntimeParams["application_name"] = name
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fail(err)
	}
	s := &Store{pool: pool, name: name}
	s.Snapshot = s.snapshot
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

// Redact is the URL s without its password, for a message or a log.
func Redact(s string) string {
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

// snapshot is a store.Snapshot: fn reads in one read-only transaction.
func (s *Store) snapshot(ctx context.Context, fn func(rd store.Reader) error) error {
	return s.read(ctx, func(q querier) error { return fn(reader{q}) })
}

// reader is the store.Reader of a read transaction.
type reader struct{ q querier }

func (rd reader) Race(ctx context.Context, id string) (*race.Race, error) {
	var (
		r                           = &race.Race{ID: id}
		cfg, ents, seed, commitment string
	)
	err := rd.q.QueryRow(ctx, `SELECT ruleset, rules, config, entrants, seed, commitment, created
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

func (rd reader) Exists(ctx context.Context, id string) (bool, error) {
	return raceExists(ctx, rd.q, id)
}

func raceExists(ctx context.Context, q querier, id string) (bool, error) {
	var exists bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM races WHERE id = $1)`, id).Scan(&exists)
	return exists, err
}

func (rd reader) Log(ctx context.Context, id string) ([]race.Entry, error) {
	return scanEntries(rd.q.Query(ctx, `SELECT `+store.EntryColumns+` FROM entries WHERE race_id = $1 ORDER BY seq`, id))
}

// Tail leaves the replaced orders out in SQL. Every entry that is not an
// order stays, of whatever kind, so that one this build does not know
// fails the load as it fails a replay.
func (rd reader) Tail(ctx context.Context, id string, from, turnOf int) ([]race.Entry, error) {
	return scanEntries(rd.q.Query(ctx, `SELECT `+store.EntryColumns+`
		FROM entries WHERE race_id = $1 AND kind <> 'order' AND seq >= $2
		UNION ALL
		SELECT `+store.EntryColumns+`
		FROM entries WHERE race_id = $1 AND seq >= $2 AND seq IN
			(SELECT MAX(seq) FROM entries WHERE race_id = $1 AND kind = 'order' AND turn > $3 GROUP BY turn, seat
			 UNION SELECT MIN(seq) FROM entries WHERE race_id = $1 AND kind = 'order' AND turn > $3 GROUP BY turn)
		ORDER BY 1`, id, from, turnOf))
}

func (rd reader) Keyed(ctx context.Context, id, key string) (*race.Entry, error) {
	log, err := scanEntries(rd.q.Query(ctx, `SELECT `+store.EntryColumns+` FROM entries WHERE race_id = $1 AND key = $2`, id, key))
	if err != nil || len(log) == 0 {
		return nil, err
	}
	return &log[0], nil
}

func (rd reader) Keys(ctx context.Context, id string) ([]race.Entry, error) {
	return scanEntries(rd.q.Query(ctx, `SELECT `+store.EntryColumns+` FROM entries WHERE race_id = $1 AND key <> '' ORDER BY seq`, id))
}

func (rd reader) Last(ctx context.Context, id string) (int, error) {
	var last int
	err := rd.q.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0) FROM entries WHERE race_id = $1`, id).Scan(&last)
	return last, err
}

// scanEntries reads log entries from the rows of a query of store.EntryColumns.
func scanEntries(rows pgx.Rows, err error) ([]race.Entry, error) {
	if err == nil {
		var log []race.Entry // nil for none, as the other stores give
		log, err = pgx.AppendRows(log, rows, func(row pgx.CollectableRow) (race.Entry, error) {
			var e race.Entry
			err := row.Scan(&e.Seq, &e.Kind, &e.Turn, &e.Seat, &e.Text, &e.InWindow, &e.At, &e.Key, &e.Hash)
			e.At = e.At.UTC()
			return e, err
		})
		if err == nil {
			return log, nil
		}
	}
	return nil, fmt.Errorf("reading the log: %w", err)
}

func (rd reader) LastTurn(ctx context.Context, id string, n int) (int, bool, error) {
	sql := `SELECT turn FROM turns WHERE race_id = $1 ORDER BY turn DESC LIMIT 1`
	args := []any{id}
	if n >= 0 {
		sql, args = `SELECT turn FROM turns WHERE race_id = $1 AND turn = $2`, []any{id, n}
	}
	var turn int
	err := rd.q.QueryRow(ctx, sql, args...).Scan(&turn)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	return turn, err == nil, err
}

func (rd reader) ResolveSeq(ctx context.Context, id string, turn int) (int, error) {
	var seq int
	err := rd.q.QueryRow(ctx, `SELECT seq FROM entries WHERE race_id = $1 AND kind = 'resolve' AND turn = $2`, id, turn).Scan(&seq)
	return seq, err
}

func (rd reader) Turns(ctx context.Context, id string, from, to int) ([]store.SavedTurn, error) {
	rows, err := rd.q.Query(ctx, `SELECT turn, hash, rolls, dice_state, state, story, at, rules
		FROM turns WHERE race_id = $1 AND turn BETWEEN $2 AND $3 ORDER BY turn`, id, from, to)
	if err != nil {
		return nil, err
	}
	return pgx.AppendRows([]store.SavedTurn(nil), rows, func(row pgx.CollectableRow) (store.SavedTurn, error) {
		var (
			t     store.SavedTurn
			rolls string
		)
		if err := row.Scan(&t.Turn, &t.Hash, &rolls, &t.DiceState, &t.State, &t.Story, &t.At, &t.Rules); err != nil {
			return t, err
		}
		t.At = t.At.UTC()
		return t, store.DecodeRolls(&t, rolls)
	})
}

// List returns every race, newest first (ties by ID).
func (s *Store) List(ctx context.Context, p store.Page) ([]store.Summary, error) {
	var limit *int // NULL: no limit
	if p.Limit > 0 {
		limit = &p.Limit
	}
	rows, err := s.pool.Query(ctx, `SELECT r.id, r.ruleset, r.config, r.created, r.commitment,
		(SELECT COUNT(*) FROM entries e WHERE e.race_id = r.id),
		(SELECT COUNT(*) FROM turns t WHERE t.race_id = r.id)
		FROM races r
		WHERE $1 = '' OR r.created < $2 OR (r.created = $2 AND r.id > $1)
		ORDER BY r.created DESC, r.id LIMIT $3`, p.AfterID, p.AfterCreated, limit)
	if err != nil {
		return nil, fmt.Errorf("listing races: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Summary, error) { // [] for none
		var (
			sm  store.Summary
			cfg string
		)
		if err := row.Scan(&sm.ID, &sm.Ruleset, &cfg, &sm.Created, &sm.Commitment, &sm.Entries, &sm.Turns); err != nil {
			return sm, err
		}
		sm.Created = sm.Created.UTC()
		sm.Track, err = store.TrackOf(sm.ID, cfg)
		return sm, err
	})
	if err != nil {
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
	  AND ($11::text = '' OR $11 = (SELECT hash FROM entries WHERE race_id = $1 AND seq = $2 - 1))
	ON CONFLICT DO NOTHING`

// Append adds e to the race's log, with the turn it resolved if it is a
// resolve entry, in one transaction.
func (s *Store) Append(ctx context.Context, id string, e race.Entry, turn *store.SavedTurn) error {
	return s.append(ctx, id, e, turn, "")
}

// append is Append, chained on prev when it is not "" (store.Pending).
func (s *Store) append(ctx context.Context, id string, e race.Entry, turn *store.SavedTurn, prev string) error {
	rolls, err := store.EncodeAppend(id, e, turn)
	if err != nil {
		return err
	}
	args := []any{id, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, e.InWindow, e.At, e.Key, e.Hash, prev}
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
				return errTurnSaved // roll the entry back, and ask why below
			}
			stored = true
			return nil
		})
		if errors.Is(err, errTurnSaved) {
			err = nil
		}
	}
	if err == nil && !stored {
		err = s.whyNot(ctx, id, e, turn != nil, prev)
	}
	if err != nil {
		return fmt.Errorf("race %q: appending entry %d: %w", id, e.Seq, err)
	}
	return nil
}

// insertResolve stores a resolve entry and its turn in one statement: the
// turn only where the entry went in, and a turn saved already fails the
// statement (and the transaction it is in).
const insertResolve = `WITH e AS (` + insertEntry + ` RETURNING 1)
	INSERT INTO turns (race_id, turn, hash, rolls, dice_state, state, story, at, rules)
	SELECT $1::text, $12::integer, $13::text, $14::text, $15::bytea, $16::bytea, $17::bytea, $18::timestamptz, $19::integer FROM e`

// AppendAll implements store.Batcher: the appends go to the server in one
// round trip and one transaction. A refused append stores nothing and the
// others go on; should the transaction fail (a turn saved twice), each
// append is tried again on its own, so that one stays refused and no other.
func (s *Store) AppendAll(ctx context.Context, batch []store.Pending) []error {
	errs := make([]error, len(batch))
	var b pgx.Batch
	var sent []int // the batch's appends that went into b
	for i, p := range batch {
		e, turn := p.Entry, p.Turn
		rolls, err := store.EncodeAppend(p.Race, e, turn)
		if err != nil {
			errs[i] = err
			continue
		}
		args := []any{p.Race, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, e.InWindow, e.At, e.Key, e.Hash, p.Prev}
		if turn == nil {
			b.Queue(insertEntry, args...)
		} else {
			b.Queue(insertResolve, append(args, turn.Turn, turn.Hash, rolls, turn.DiceState, turn.State, turn.Story, turn.At, turn.Rules)...)
		}
		sent = append(sent, i)
	}
	if len(sent) == 0 {
		return errs
	}
	stored := make([]bool, len(batch))
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		res := tx.SendBatch(ctx, &b)
		for _, i := range sent {
			tag, err := res.Exec()
			if err != nil {
				_ = res.Close() // the error that matters is the statement's
				return err
			}
			stored[i] = tag.RowsAffected() == 1
		}
		return res.Close()
	})
	if err != nil {
		// The batch failed, or its commit's outcome is not known (the
		// connection broke as it committed): each append is tried on its
		// own, and one the failed commit did store counts as stored, not as
		// a conflict to be tried again. Its own time: ctx may have run out.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fallbackTime)
		defer cancel()
		for _, i := range sent {
			p := batch[i]
			if errs[i] = s.storedAlready(fctx, p.Race, p.Entry); errors.Is(errs[i], errNotStored) {
				errs[i] = s.append(fctx, p.Race, p.Entry, p.Turn, p.Prev)
			}
		}
		return errs
	}
	for _, i := range sent {
		if p := batch[i]; !stored[i] {
			errs[i] = fmt.Errorf("race %q: appending entry %d: %w", p.Race, p.Entry.Seq, s.whyNot(ctx, p.Race, p.Entry, p.Turn != nil, p.Prev))
		}
	}
	return errs
}

// fallbackTime bounds the appends tried one by one after a batch failed.
const fallbackTime = 30 * time.Second

var errNotStored = errors.New("not stored")

// storedAlready says (nil) whether e itself, its seq and its chain hash,
// is in race id's log; errNotStored if not.
func (s *Store) storedAlready(ctx context.Context, id string, e race.Entry) error {
	var there bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM entries WHERE race_id = $1 AND seq = $2 AND hash = $3)`, id, e.Seq, e.Hash).Scan(&there); err != nil {
		return err
	}
	if !there {
		return errNotStored
	}
	return nil
}

// errTurnSaved rolls back an entry whose turn was saved already.
var errTurnSaved = errors.New("the turn is saved already")

// whyNot says why insertEntry, or the insert of the turn saved with it
// (withTurn), stored nothing; prev is what e was chained on, if known.
func (s *Store) whyNot(ctx context.Context, id string, e race.Entry, withTurn bool, prev string) error {
	var st store.AppendState
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM races WHERE id = $1),
		COALESCE((SELECT MAX(seq) FROM entries WHERE race_id = $1), 0),
		COALESCE((SELECT seq FROM entries WHERE race_id = $1 AND key = $2 AND key <> ''), 0),
		EXISTS (SELECT 1 FROM entries WHERE race_id = $1 AND kind = 'resolve' AND turn = $3),
		$4::boolean AND EXISTS (SELECT 1 FROM turns WHERE race_id = $1 AND turn = $3),
		COALESCE((SELECT hash FROM entries WHERE race_id = $1 AND seq = $5::integer - 1), '')`,
		id, e.Key, e.Turn, withTurn, e.Seq).Scan(&st.Exists, &st.Last, &st.KeySeq, &st.Resolved, &st.Saved, &st.Prev)
	if err != nil {
		return err
	}
	if err := st.Refusal(e, prev); err != nil {
		return err
	}
	// Entry e.Seq-1 was stored after insertEntry looked: e was not next then.
	return fmt.Errorf("entry %d did not follow the last entry when it was appended: %w", e.Seq, store.ErrConflict)
}
