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
	if r != nil && a.Race != r.ID {
		return fmt.Errorf("creating race %q: its access names race %q", r.ID, a.Race)
	}
	return s.create(ctx, r, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO access (race_id, public, resolve_when, created) VALUES ($1, $2, $3, $4)`,
			a.Race, a.Public, a.ResolveWhen, a.Created); err != nil {
			return fmt.Errorf("storing its access: %w", err)
		}
		return insertTokens(ctx, tx, ts)
	})
}

func insertTokens(ctx context.Context, tx pgx.Tx, ts []store.Token) error {
	for _, t := range ts {
		tag, err := tx.Exec(ctx, `INSERT INTO tokens (hash, race_id, role, seat, created, revoked) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
			t.Hash, t.Race, t.Role, t.Seat, t.Created, t.Revoked)
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
	err := s.pool.QueryRow(ctx, `SELECT public, resolve_when, created FROM access WHERE race_id = $1`, id).Scan(&a.Public, &a.ResolveWhen, &a.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, fmt.Errorf("the access of %w", notFound(id))
	}
	a.Created = a.Created.UTC()
	return a, err
}

// AddTokens implements store.AccessStore.
func (s *Store) AddTokens(ctx context.Context, ts []store.Token) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return insertTokens(ctx, tx, ts) })
}

// Token implements store.AccessStore.
func (s *Store) Token(ctx context.Context, hash string) (store.Token, error) {
	t := store.Token{Hash: hash}
	err := s.pool.QueryRow(ctx, `SELECT race_id, role, seat, created, revoked FROM tokens WHERE hash = $1`, hash).
		Scan(&t.Race, &t.Role, &t.Seat, &t.Created, &t.Revoked)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, fmt.Errorf("no such link: %w", store.ErrNotFound)
	}
	t.Created = t.Created.UTC()
	if t.Revoked != nil {
		r := t.Revoked.UTC()
		t.Revoked = &r
	}
	return t, err
}

// RevokeToken implements store.AccessStore.
func (s *Store) RevokeToken(ctx context.Context, id, hash string, at time.Time) error {
	// One statement: a second revocation matches nothing and keeps the first's time.
	if _, err := s.pool.Exec(ctx, `UPDATE tokens SET revoked = $1 WHERE hash = $2 AND race_id = $3 AND revoked IS NULL`, at, hash, id); err != nil {
		return err
	}
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM tokens WHERE hash = $1 AND race_id = $2`, hash, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("race %q has no such link: %w", id, store.ErrNotFound)
	}
	return nil
}
