package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"pitwall/store"
)

var _ store.Copier = (*Store)(nil)

// tokenValues is a link as the values of store.TokenColumns.
func tokenValues(t store.Token) []any {
	return []any{t.Hash, t.Race, t.Role, t.Seat, formatTime(t.Created), nullTime(t.Revoked), t.Racer}
}

// nullTime is NULL for nil, and the time as stored otherwise.
func nullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return formatTime(*t)
}

// placeholders is n of SQLite's '?', comma-separated.
func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

// ReadRace implements store.Copier: one read transaction.
func (s *Store) ReadRace(ctx context.Context, id string) (*store.RaceCopy, error) {
	c := &store.RaceCopy{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		rd := reader{tx}
		var err error
		if c.Race, err = rd.Race(ctx, id); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT config, entrants FROM races WHERE id = ?`, id).Scan(&c.Config, &c.Entrants); err != nil {
			return err
		}
		if c.Race.Log, err = rd.Log(ctx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT turn, hash, rolls, dice_state, state, story, at, rules
			FROM turns WHERE race_id = ? ORDER BY turn`, id)
		if err := each(rows, err, func(rows *sql.Rows) error {
			t, rolls, err := scanTurn(rows)
			c.Turns, c.Rolls = append(c.Turns, t), append(c.Rolls, rolls)
			return err
		}); err != nil {
			return fmt.Errorf("reading the saved turns: %w", err)
		}
		var a store.Access
		var created string
		switch err := tx.QueryRowContext(ctx, `SELECT race_id, public, resolve_when, created, invite FROM access WHERE race_id = ?`, id).
			Scan(&a.Race, &a.Public, &a.ResolveWhen, &created, &a.Invite); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return fmt.Errorf("reading the access: %w", err)
		default:
			if a.Created, err = parseTime(created); err != nil {
				return err
			}
			c.Access = &a
		}
		rows, err = tx.QueryContext(ctx, `SELECT `+store.TokenColumns+` FROM tokens WHERE race_id = ? ORDER BY created, hash`, id)
		if c.Tokens, err = collect(rows, err, scanToken); err != nil {
			return fmt.Errorf("reading the links: %w", err)
		}
		if c.Controls, err = controls(ctx, tx, id, ""); err != nil {
			return fmt.Errorf("reading the controls: %w", err)
		}
		if c.Hooks, err = hooks(ctx, tx, id, ""); err != nil {
			return fmt.Errorf("reading the webhooks: %w", err)
		}
		rows, err = tx.QueryContext(ctx, `SELECT `+store.DeliveryColumns+` FROM outbox WHERE race_id = ? ORDER BY id`, id)
		if c.Outbox, err = collect(rows, err, scanDelivery); err != nil {
			return fmt.Errorf("reading the outbox: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, store.CopyFailed(id, "reading it to copy", err)
	}
	return c, nil
}

// each calls fn on every row of a query, and closes the rows.
func each(rows *sql.Rows, err error, fn func(rows *sql.Rows) error) error {
	_, err = collect(rows, err, func(rows *sql.Rows) (struct{}, error) { return struct{}{}, fn(rows) })
	return err
}

// WriteRace implements store.Copier: one write transaction, holding
// SQLite's one write lock, so what it reads of the destination (the race,
// the links, the ids) stays true until it commits.
func (s *Store) WriteRace(ctx context.Context, c *store.RaceCopy, before func(ctx context.Context) error) (store.Renumbered, error) {
	inTx := func(fn func(tx *sql.Tx) error) error { return s.write(ctx, fn) }
	return store.WriteCopy(ctx, c, before, inTx, writeOwn, func(t time.Time) any { return formatTime(t) }, writeRows)
}

// writeOwn writes what store.WriteCopy leaves to the store: the race, its
// log, turns, access and links.
func writeOwn(ctx context.Context, tx *sql.Tx, c *store.RaceCopy) error {
	r := c.Race
	if err := createTx(ctx, tx, r, []byte(c.Config), []byte(c.Entrants)); err != nil {
		return err
	}
	entry, err := tx.PrepareContext(ctx, `INSERT INTO entries (`+store.CopyColumns["entries"]+`) VALUES (`+placeholders(10)+`)`)
	if err != nil {
		return err
	}
	defer entry.Close()
	for _, e := range r.Log {
		if _, err := entry.ExecContext(ctx, r.ID, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, e.InWindow, formatTime(e.At), e.Key, e.Hash); err != nil {
			return fmt.Errorf("storing entry %d: %w", e.Seq, err)
		}
	}
	for i, t := range c.Turns {
		if _, err := tx.ExecContext(ctx, `INSERT INTO turns (`+store.CopyColumns["turns"]+`) VALUES (`+placeholders(9)+`)`,
			r.ID, t.Turn, t.Hash, c.Rolls[i], t.DiceState, nullText(t.State), nullText(t.Story), formatTime(t.At), t.Rules); err != nil {
			return fmt.Errorf("saving turn %d: %w", t.Turn, err)
		}
	}
	if a := c.Access; a != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO access (`+store.CopyColumns["access"]+`) VALUES (?, ?, ?, ?, ?)`,
			a.Race, a.Public, a.ResolveWhen, formatTime(a.Created), a.Invite); err != nil {
			return fmt.Errorf("storing its access: %w", err)
		}
	}
	for _, t := range c.Tokens {
		var other string
		switch err := tx.QueryRowContext(ctx, `SELECT race_id FROM tokens WHERE hash = ?`, t.Hash).Scan(&other); {
		case err == nil:
			return fmt.Errorf("a link of the race has the hash of a link of race %q in the destination; nothing was written", other)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		v := tokenValues(t)
		if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (`+store.TokenColumns+`) VALUES (`+placeholders(len(v))+`)`, v...); err != nil {
			return fmt.Errorf("storing a link: %w", err)
		}
	}
	return nil
}

// writeRows stores rows of table (store.WriteCounted): with the ids they
// have, when the table has none of them; else every one numbered anew, in
// order, and the new ids are given back, old to new.
func writeRows(ctx context.Context, tx *sql.Tx, table string, rows []store.CountedRow) (map[int64]int64, error) {
	keep := true
	for _, row := range rows {
		var taken bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+table+` WHERE id = ?)`, row.ID).Scan(&taken); err != nil {
			return nil, err
		}
		keep = keep && !taken
	}
	var renumbered map[int64]int64
	for _, row := range rows {
		var id any // NULL: SQLite gives the next
		if keep {
			id = row.ID
		}
		v := append([]any{id}, row.Values...)
		var got int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO `+table+` (`+store.CopyColumns[table]+`) VALUES (`+placeholders(len(v))+`) RETURNING id`, v...).Scan(&got); err != nil {
			return nil, fmt.Errorf("storing %s %d: %w", table, row.ID, err)
		}
		if !keep {
			if renumbered == nil {
				renumbered = map[int64]int64{}
			}
			renumbered[row.ID] = got
		}
	}
	return renumbered, nil
}
