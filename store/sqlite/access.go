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
		if exists, err := raceExists(ctx, tx, id); err != nil {
			return err
		} else if !exists {
			return fmt.Errorf("adding links: %w", notFound(id))
		}
		return insertTokens(ctx, tx, ts)
	})
}

// Token implements store.AccessStore.
func (s *Store) Token(ctx context.Context, hash string) (store.Token, error) {
	var ts []store.Token
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+store.TokenColumns+` FROM tokens WHERE hash = ?`, hash)
		ts, err = collect(rows, err, scanToken)
		return err
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
	var ts []store.Token
	err := s.read(ctx, func(tx *sql.Tx) error {
		if exists, err := raceExists(ctx, tx, id); err != nil {
			return err
		} else if !exists {
			return fmt.Errorf("listing links: %w", notFound(id))
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+store.TokenColumns+` FROM tokens WHERE race_id = ? ORDER BY created, hash`, id)
		ts, err = collect(rows, err, scanToken)
		return err
	})
	return ts, err
}

// AddControl implements store.AccessStore. The key is looked for first, in
// the write transaction that holds SQLite's one write lock.
func (s *Store) AddControl(ctx context.Context, c store.Control) (store.Control, error) {
	if err := store.CheckControl(c); err != nil {
		return c, err
	}
	c.At = c.At.UTC() // as it is read back
	err := s.write(ctx, func(tx *sql.Tx) error {
		if exists, err := raceExists(ctx, tx, c.Race); err != nil {
			return err
		} else if !exists {
			return fmt.Errorf("adding a control: %w", notFound(c.Race))
		}
		if c.Key != "" {
			cs, err := controls(ctx, tx, c.Race, c.Key)
			if err != nil {
				return err
			}
			if len(cs) > 0 {
				return store.SameControl(&c, cs[0])
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO controls (race_id, kind, seat, value, key, at) VALUES (?, ?, ?, ?, ?, ?)`,
			c.Race, c.Kind, c.Seat, c.Value, c.Key, formatTime(c.At))
		if err != nil {
			return fmt.Errorf("storing a control of race %q: %w", c.Race, err)
		}
		c.Seq, err = res.LastInsertId()
		return err
	})
	return c, err
}

// Controls implements store.AccessStore.
func (s *Store) Controls(ctx context.Context, id string) ([]store.Control, error) {
	var cs []store.Control
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		cs, err = controls(ctx, tx, id, "")
		return err
	})
	return cs, err
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
