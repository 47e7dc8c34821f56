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
	if err := store.CheckNewAccess(r, a, ts); err != nil {
		return err
	}
	return s.create(ctx, r, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO access (race_id, public, resolve_when, invite, created) VALUES (?, ?, ?, ?, ?)`,
			a.Race, a.Public, a.ResolveWhen, a.Invite, formatTime(a.Created)); err != nil {
			return fmt.Errorf("storing its access: %w", err)
		}
		return insertTokens(ctx, tx, ts)
	})
}

// insertTokens stores links. A hash stored already is looked for first:
// the tokens_no_replace trigger refuses such an insert before an ON
// CONFLICT clause could, and the write transaction holds SQLite's one write
// lock, so nothing comes between the look and the insert.
func insertTokens(ctx context.Context, tx *sql.Tx, ts []store.Token) error {
	for _, t := range ts {
		var stored bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM tokens WHERE hash = ?)`, t.Hash).Scan(&stored); err != nil {
			return err
		}
		if stored {
			return fmt.Errorf("a link of race %q: %w", t.Race, store.ErrExists)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, race_id, role, seat, racer, created) VALUES (?, ?, ?, ?, ?, ?)`,
			t.Hash, t.Race, t.Role, t.Seat, t.Racer, formatTime(t.Created)); err != nil {
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
		err := tx.QueryRowContext(ctx, `SELECT public, resolve_when, invite, created FROM access WHERE race_id = ?`, id).Scan(&a.Public, &a.ResolveWhen, &a.Invite, &created)
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
func (s *Store) AddTokens(ctx context.Context, id string, ts []store.Token) error {
	if err := store.CheckAccess(id, nil, ts); err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := requireRace(ctx, tx, id, "adding links"); err != nil {
			return err
		}
		return insertTokens(ctx, tx, ts)
	})
}

// Token implements store.AccessStore.
func (s *Store) Token(ctx context.Context, hash string) (store.Token, error) {
	ts, err := readList(ctx, s, func(tx *sql.Tx) ([]store.Token, error) {
		rows, err := tx.QueryContext(ctx, `SELECT `+store.TokenColumns+` FROM tokens WHERE hash = ?`, hash)
		return collect(rows, err, scanToken)
	})
	switch {
	case err != nil:
		return store.Token{Hash: hash}, err
	case len(ts) == 0:
		return store.Token{Hash: hash}, fmt.Errorf("no such link: %w", store.ErrNotFound)
	}
	return ts[0], nil
}

// RevokeToken implements store.AccessStore: one transaction that revokes
// the link if it is not revoked yet (a second revocation keeps the first's
// time) and says whether the race has it at all.
func (s *Store) RevokeToken(ctx context.Context, id, hash string, at time.Time) error {
	if err := store.CheckTime("the revocation", at); err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
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

// scanToken reads a link from a row of store.TokenColumns.
func scanToken(rows *sql.Rows) (store.Token, error) {
	var t store.Token
	var created string
	var revoked sql.NullString
	if err := rows.Scan(&t.Hash, &t.Race, &t.Role, &t.Seat, &created, &revoked, &t.Racer); err != nil {
		return t, err
	}
	var err error
	if t.Created, err = parseTime(created); err != nil {
		return t, err
	}
	t.Revoked, err = parseNullTime(revoked)
	return t, err
}

// Tokens implements store.AccessStore.
func (s *Store) Tokens(ctx context.Context, id string) ([]store.Token, error) {
	return readList(ctx, s, func(tx *sql.Tx) ([]store.Token, error) {
		if err := requireRace(ctx, tx, id, "listing links"); err != nil {
			return nil, err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+store.TokenColumns+` FROM tokens WHERE race_id = ? ORDER BY created, hash`, id)
		return collect(rows, err, scanToken)
	})
}

// AddControl implements store.AccessStore (addKeyed).
func (s *Store) AddControl(ctx context.Context, c store.Control) (store.Control, error) {
	c, err := store.ControlToAdd(c)
	if err != nil {
		return c, err
	}
	err = addKeyed(ctx, s, "control", c.Race, c.Key, controls, func(stored store.Control) error { return store.SameControl(&c, stored) },
		&c.Seq, `INSERT INTO controls (race_id, kind, seat, value, key, at) VALUES (?, ?, ?, ?, ?, ?)`, c.Race, c.Kind, c.Seat, c.Value, c.Key, formatTime(c.At))
	return c, err
}

// addKeyed stores a keyed row (what: a control, a webhook) of race id in one
// write transaction, which holds SQLite's one write lock, so nothing comes
// between the look for its key and the insert: a row stored already under
// key (found with list) is answered by same; else the statement insert
// stores it, and *seq is given its id.
func addKeyed[T any](ctx context.Context, s *Store, what, id, key string, list func(context.Context, *sql.Tx, string, string) ([]T, error),
	same func(stored T) error, seq *int64, insert string, args ...any) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := requireRace(ctx, tx, id, "adding a "+what); err != nil {
			return err
		}
		if key != "" {
			xs, err := list(ctx, tx, id, key)
			if err != nil {
				return err
			}
			if len(xs) > 0 {
				return same(xs[0])
			}
		}
		res, err := tx.ExecContext(ctx, insert, args...)
		if err != nil {
			return fmt.Errorf("storing a %s of race %q: %w", what, id, err)
		}
		*seq, err = res.LastInsertId()
		return err
	})
}

// readList is what list gives in one read transaction.
func readList[T any](ctx context.Context, s *Store, list func(tx *sql.Tx) ([]T, error)) ([]T, error) {
	var xs []T
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		xs, err = list(tx)
		return err
	})
	return xs, err
}

// requireRace is nil when race id is stored, and otherwise an error saying
// what was being done (doing) that wraps store.ErrNotFound.
func requireRace(ctx context.Context, tx *sql.Tx, id, doing string) error {
	if exists, err := raceExists(ctx, tx, id); err != nil || exists {
		return err
	}
	return fmt.Errorf("%s: %w", doing, notFound(id))
}

// Controls implements store.AccessStore.
func (s *Store) Controls(ctx context.Context, id string) ([]store.Control, error) {
	return readList(ctx, s, func(tx *sql.Tx) ([]store.Control, error) { return controls(ctx, tx, id, "") })
}

// controls lists race id's controls; with a key, only the one it names.
func controls(ctx context.Context, tx *sql.Tx, id, key string) ([]store.Control, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, kind, seat, value, key, at FROM controls WHERE race_id = ? AND (? = '' OR key = ?) ORDER BY id`, id, key, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cs []store.Control
	for rows.Next() {
		c := store.Control{Race: id}
		var at string
		if err := rows.Scan(&c.Seq, &c.Kind, &c.Seat, &c.Value, &c.Key, &at); err != nil {
			return nil, err
		}
		if c.At, err = parseTime(at); err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, rows.Err()
}
