package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"pitwall/race"
	"pitwall/store"
)

var _ store.AccessStore = (*Store)(nil)

// CreateWithAccess implements store.AccessStore.
func (s *Store) CreateWithAccess(ctx context.Context, r *race.Race, a store.Access, ts []store.Token) error {
	if err := store.CheckNewAccess(r, a, ts); err != nil {
		return err
	}
	return s.create(ctx, r, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO access (race_id, public, resolve_when, invite, created) VALUES ($1, $2, $3, $4, $5)`,
			a.Race, a.Public, a.ResolveWhen, a.Invite, a.Created); err != nil {
			return fmt.Errorf("storing its access: %w", err)
		}
		return insertTokens(ctx, tx, ts)
	})
}

// insertTokens stores links; the primary key refuses a hash stored already.
func insertTokens(ctx context.Context, tx pgx.Tx, ts []store.Token) error {
	for _, t := range ts {
		tag, err := tx.Exec(ctx, `INSERT INTO tokens (hash, race_id, role, seat, racer, created) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (hash) DO NOTHING`,
			t.Hash, t.Race, t.Role, t.Seat, t.Racer, t.Created)
		if err != nil {
			return fmt.Errorf("storing a link of race %q: %w", t.Race, err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("a link of race %q: %w", t.Race, store.ErrExists)
		}
	}
	return nil
}

// Access implements store.AccessStore.
func (s *Store) Access(ctx context.Context, id string) (store.Access, error) {
	a := store.Access{Race: id}
	err := s.pool.QueryRow(ctx, `SELECT public, resolve_when, invite, created FROM access WHERE race_id = $1`, id).Scan(&a.Public, &a.ResolveWhen, &a.Invite, &a.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, fmt.Errorf("the access of %w", notFound(id))
	}
	a.Created = a.Created.UTC()
	return a, err
}

// AddTokens implements store.AccessStore.
func (s *Store) AddTokens(ctx context.Context, id string, ts []store.Token) error {
	if err := store.CheckAccess(id, nil, ts); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := requireRace(ctx, tx, id, "adding links"); err != nil {
			return err
		}
		return insertTokens(ctx, tx, ts)
	})
}

// Token implements store.AccessStore.
func (s *Store) Token(ctx context.Context, hash string) (store.Token, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+store.TokenColumns+` FROM tokens WHERE hash = $1`, hash)
	if err != nil {
		return store.Token{Hash: hash}, err
	}
	t, err := pgx.CollectOneRow(rows, scanToken)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Token{Hash: hash}, fmt.Errorf("no such link: %w", store.ErrNotFound)
	}
	return t, err
}

// RevokeToken implements store.AccessStore: one statement that revokes the
// link if it is not revoked yet (a second revocation keeps the first's
// time) and says whether the race has it at all.
func (s *Store) RevokeToken(ctx context.Context, id, hash string, at time.Time) error {
	if err := store.CheckTime("the revocation", at); err != nil {
		return err
	}
	var known bool
	err := s.pool.QueryRow(ctx, `WITH known AS (SELECT 1 FROM tokens WHERE hash = $2 AND race_id = $3),
		revoked AS (UPDATE tokens SET revoked = $1 WHERE hash = $2 AND race_id = $3 AND revoked IS NULL)
		SELECT EXISTS (SELECT 1 FROM known)`, at, hash, id).Scan(&known)
	if err != nil {
		return err
	}
	if !known {
		return fmt.Errorf("race %q has no such link: %w", id, store.ErrNotFound)
	}
	return nil
}

// scanToken reads a link from a row of store.TokenColumns.
func scanToken(row pgx.CollectableRow) (store.Token, error) {
	var t store.Token
	err := row.Scan(&t.Hash, &t.Race, &t.Role, &t.Seat, &t.Created, &t.Revoked, &t.Racer)
	t.Created, t.Revoked = t.Created.UTC(), utc(t.Revoked)
	return t, err
}

// Tokens implements store.AccessStore.
func (s *Store) Tokens(ctx context.Context, id string) ([]store.Token, error) {
	var ts []store.Token
	err := s.read(ctx, func(q querier) error {
		if err := requireRace(ctx, q, id, "listing links"); err != nil {
			return err
		}
		rows, err := q.Query(ctx, `SELECT `+store.TokenColumns+` FROM tokens WHERE race_id = $1 ORDER BY created, hash`, id)
		if err != nil {
			return err
		}
		ts, err = pgx.CollectRows(rows, scanToken)
		return err
	})
	return ts, err
}

// AddControl implements store.AccessStore (addKeyed).
func (s *Store) AddControl(ctx context.Context, c store.Control) (store.Control, error) {
	c, err := store.ControlToAdd(c)
	if err != nil {
		return c, err
	}
	err = addKeyed(ctx, s, "control", c.Race, c.Key, controls, func(stored store.Control) error { return store.SameControl(&c, stored) },
		&c.Seq, `INSERT INTO controls (race_id, kind, seat, value, key, at) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (race_id, key) WHERE key <> '' DO NOTHING RETURNING id`, c.Race, c.Kind, c.Seat, c.Value, c.Key, c.At)
	return c, err
}

// addKeyed stores a keyed row (what: a control, a webhook) of race id with
// the statement insert, which gives *seq its id. Two writers racing with
// one key are put in order by the unique index: the loser's ON CONFLICT
// waits for the winner to commit and stores nothing, and a new statement
// then finds the winner's row under key (with list), which same answers
// with.
func addKeyed[T any](ctx context.Context, s *Store, what, id, key string, list func(context.Context, querier, string, string) ([]T, error),
	same func(stored T) error, seq *int64, insert string, args ...any) error {
	if err := requireRace(ctx, s.pool, id, "adding a "+what); err != nil {
		return err
	}
	err := s.pool.QueryRow(ctx, insert, args...).Scan(seq)
	if !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	xs, err := list(ctx, s.pool, id, key)
	if err != nil {
		return err
	}
	if len(xs) == 0 {
		return fmt.Errorf("race %q: the %s keyed %q was neither stored nor found", id, what, key)
	}
	return same(xs[0])
}

// requireRace is nil when race id is stored, and otherwise an error saying
// what was being done (doing) that wraps store.ErrNotFound.
func requireRace(ctx context.Context, q querier, id, doing string) error {
	if exists, err := raceExists(ctx, q, id); err != nil || exists {
		return err
	}
	return fmt.Errorf("%s: %w", doing, notFound(id))
}

// Controls implements store.AccessStore.
func (s *Store) Controls(ctx context.Context, id string) ([]store.Control, error) {
	return controls(ctx, s.pool, id, "")
}

// controls lists race id's controls; with a key, only the one it names.
func controls(ctx context.Context, q querier, id, key string) ([]store.Control, error) {
	rows, err := q.Query(ctx, `SELECT id, kind, seat, value, key, at FROM controls WHERE race_id = $1 AND ($2 = '' OR key = $2) ORDER BY id`, id, key)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Control, error) {
		c := store.Control{Race: id}
		err := row.Scan(&c.Seq, &c.Kind, &c.Seat, &c.Value, &c.Key, &c.At)
		c.At = c.At.UTC()
		return c, err
	})
}
