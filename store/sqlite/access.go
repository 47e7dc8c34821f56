package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"pitwall/race"
	"pitwall/store"
)

var _ store.AccessStore = (*Store)(nil)

// CreateWithAccess implements store.AccessStore.
func (s *Store) CreateWithAccess(ctx context.Context, r *race.Race, a store.Access, ts []store.Token) error {
	if r != nil && a.Race != r.ID {
		return fmt.Errorf("creating race %q: its access names race %q", r.ID, a.Race)
	}
	return s.create(ctx, r, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO access (race_id, public, resolve_when, created) VALUES (?, ?, ?, ?)`,
			a.Race, a.Public, a.ResolveWhen, formatTime(a.Created)); err != nil {
			return fmt.Errorf("storing its access: %w", err)
		}
		return insertTokens(ctx, tx, ts)
	})
}

func insertTokens(ctx context.Context, tx *sql.Tx, ts []store.Token) error {
	for _, t := range ts {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tokens WHERE hash = ?`, t.Hash).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("a link of race %q: %w", t.Race, store.ErrExists)
		}
		var revoked any
		if t.Revoked != nil {
			revoked = formatTime(*t.Revoked)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, race_id, role, seat, created, revoked) VALUES (?, ?, ?, ?, ?, ?)`,
			t.Hash, t.Race, t.Role, t.Seat, formatTime(t.Created), revoked); err != nil {
			return fmt.Errorf("storing a link of race %q: %w", t.Race, err)
		}
	}
	return nil
}

// Access implements store.AccessStore.
func (s *Store) Access(ctx context.Context, id string) (store.Access, error) {
	a := store.Access{Race: id}
	err := s.read(ctx, func(tx *sql.Tx) error {
		var created string
		err := tx.QueryRowContext(ctx, `SELECT public, resolve_when, created FROM access WHERE race_id = ?`, id).Scan(&a.Public, &a.ResolveWhen, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("the access of %w", notFound(id))
		}
		if err != nil {
			return err
		}
		a.Created, err = parseTime(created)
		return err
	})
	return a, err
}

// AddTokens implements store.AccessStore.
func (s *Store) AddTokens(ctx context.Context, ts []store.Token) error {
	return s.write(ctx, func(tx *sql.Tx) error { return insertTokens(ctx, tx, ts) })
}

// Token implements store.AccessStore.
func (s *Store) Token(ctx context.Context, hash string) (store.Token, error) {
	t := store.Token{Hash: hash}
	err := s.read(ctx, func(tx *sql.Tx) error {
		var created string
		var revoked sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT race_id, role, seat, created, revoked FROM tokens WHERE hash = ?`, hash).
			Scan(&t.Race, &t.Role, &t.Seat, &created, &revoked)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no such link: %w", store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if t.Created, err = parseTime(created); err != nil {
			return err
		}
		t.Revoked, err = parseNullTime(revoked)
		return err
	})
	return t, err
}

// RevokeToken implements store.AccessStore.
func (s *Store) RevokeToken(ctx context.Context, id, hash string, at time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		// One statement: a second revocation matches nothing and keeps the first's time.
		if _, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked = ? WHERE hash = ? AND race_id = ? AND revoked IS NULL`,
			formatTime(at), hash, id); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tokens WHERE hash = ? AND race_id = ?`, hash, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("race %q has no such link: %w", id, store.ErrNotFound)
		}
		return nil
	})
}
