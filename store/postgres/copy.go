package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"pitwall/store"
)

var _ store.Copier = (*Store)(nil)

// tokenValues is a link as the values of store.TokenColumns.
func tokenValues(t store.Token) []any {
	return []any{t.Hash, t.Race, t.Role, t.Seat, t.Created, t.Revoked, t.Racer}
}

// placeholders is $from, $from+1, ... n of them.
func placeholders(from, n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf("$%d", from+i)
	}
	return strings.Join(ps, ", ")
}

// ReadRace implements store.Copier: one read-only transaction on one
// snapshot.
func (s *Store) ReadRace(ctx context.Context, id string) (*store.RaceCopy, error) {
	c := &store.RaceCopy{}
	err := s.read(ctx, func(q querier) error {
		rd := reader{q}
		var err error
		if c.Race, err = rd.Race(ctx, id); err != nil {
			return err
		}
		if err := q.QueryRow(ctx, `SELECT config, entrants FROM races WHERE id = $1`, id).Scan(&c.Config, &c.Entrants); err != nil {
			return err
		}
		if c.Race.Log, err = rd.Log(ctx, id); err != nil {
			return err
		}
		rows, err := q.Query(ctx, `SELECT turn, hash, rolls, dice_state, state, story, at, rules FROM turns WHERE race_id = $1 ORDER BY turn`, id)
		if err != nil {
			return fmt.Errorf("reading the saved turns: %w", err)
		}
		var t store.SavedTurn
		var rolls string
		if _, err := pgx.ForEachRow(rows, []any{&t.Turn, &t.Hash, &rolls, &t.DiceState, &t.State, &t.Story, &t.At, &t.Rules}, func() error {
			t.At = t.At.UTC()
			c.Turns, c.Rolls = append(c.Turns, t), append(c.Rolls, rolls)
			t = store.SavedTurn{}
			return store.DecodeRolls(&c.Turns[len(c.Turns)-1], rolls)
		}); err != nil {
			return fmt.Errorf("reading the saved turns: %w", err)
		}
		var a store.Access
		switch err := q.QueryRow(ctx, `SELECT race_id, public, resolve_when, created, invite FROM access WHERE race_id = $1`, id).
			Scan(&a.Race, &a.Public, &a.ResolveWhen, &a.Created, &a.Invite); {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return fmt.Errorf("reading the access: %w", err)
		default:
			a.Created = a.Created.UTC()
			c.Access = &a
		}
		rows, err = q.Query(ctx, `SELECT `+store.TokenColumns+` FROM tokens WHERE race_id = $1 ORDER BY created, hash`, id)
		if err == nil {
			c.Tokens, err = pgx.AppendRows(c.Tokens, rows, scanToken)
		}
		if err != nil {
			return fmt.Errorf("reading the links: %w", err)
		}
		if c.Controls, err = controls(ctx, q, id, ""); err != nil {
			return fmt.Errorf("reading the controls: %w", err)
		}
		if c.Hooks, err = hooks(ctx, q, id, ""); err != nil {
			return fmt.Errorf("reading the webhooks: %w", err)
		}
		rows, err = q.Query(ctx, `SELECT `+store.DeliveryColumns+` FROM outbox WHERE race_id = $1 ORDER BY id`, id)
		if err == nil {
			c.Outbox, err = collectDeliveries(rows)
		}
		if err != nil {
			return fmt.Errorf("reading the outbox: %w", err)
		}
		// As the SQLite store gives them: nil for none.
		if len(c.Controls) == 0 {
			c.Controls = nil
		}
		if len(c.Hooks) == 0 {
			c.Hooks = nil
		}
		if len(c.Outbox) == 0 {
			c.Outbox = nil
		}
		return nil
	})
	if err != nil {
		return nil, store.CopyFailed(id, "reading it to copy", err)
	}
	return c, nil
}

// WriteRace implements store.Copier: one transaction. The race's row is
// inserted first, so a writer of the same race at once waits for this
// transaction on its primary key, and then finds it there.
func (s *Store) WriteRace(ctx context.Context, c *store.RaceCopy, before func(ctx context.Context) error) (store.Renumbered, error) {
	inTx := func(fn func(tx pgx.Tx) error) error { return pgx.BeginFunc(ctx, s.pool, fn) }
	return store.WriteCopy(ctx, c, before, inTx, writeOwn, func(t time.Time) any { return t }, writeRows)
}

// writeOwn writes what store.WriteCopy leaves to the store: the race, its
// log, turns, access and links.
func writeOwn(ctx context.Context, tx pgx.Tx, c *store.RaceCopy) error {
	r := c.Race
	tag, err := tx.Exec(ctx, `INSERT INTO races (`+store.CopyColumns["races"]+`) VALUES (`+placeholders(1, 8)+`) ON CONFLICT DO NOTHING`,
		r.ID, r.Ruleset, r.Rules, c.Config, c.Entrants, r.Seed.Hex(), r.Seed.Commitment(), r.Created)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("race %q: %w", r.ID, store.ErrExists)
	}
	var b pgx.Batch
	for _, e := range r.Log {
		b.Queue(`INSERT INTO entries (`+store.CopyColumns["entries"]+`) VALUES (`+placeholders(1, 10)+`)`,
			r.ID, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, e.InWindow, e.At, e.Key, e.Hash)
	}
	for i, t := range c.Turns {
		b.Queue(`INSERT INTO turns (`+store.CopyColumns["turns"]+`) VALUES (`+placeholders(1, 9)+`)`,
			r.ID, t.Turn, t.Hash, c.Rolls[i], t.DiceState, t.State, t.Story, t.At, t.Rules)
	}
	if a := c.Access; a != nil {
		b.Queue(`INSERT INTO access (`+store.CopyColumns["access"]+`) VALUES ($1, $2, $3, $4, $5)`, a.Race, a.Public, a.ResolveWhen, a.Created, a.Invite)
	}
	for _, t := range c.Tokens {
		v := tokenValues(t)
		b.Queue(`INSERT INTO tokens (`+store.TokenColumns+`) VALUES (`+placeholders(1, len(v))+`)`, v...)
	}
	if err := tx.SendBatch(ctx, &b).Close(); err != nil {
		return explainCopy(err)
	}
	return nil
}

// explainCopy names a link whose hash the destination holds already.
func explainCopy(err error) error {
	if strings.Contains(err.Error(), "tokens_pkey") {
		return fmt.Errorf("a link of the race has the hash of a link of another race in the destination; nothing was written (%w)", err)
	}
	return err
}

// writeRows stores rows of table (store.WriteCounted): with the ids they
// have, when the table has none of them, and the table's counter moved past
// them; else every one numbered anew, in order, and the new ids are given
// back, old to new.
func writeRows(ctx context.Context, tx pgx.Tx, table string, rows []store.CountedRow) (map[int64]int64, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var taken bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+table+` WHERE id = ANY($1))`, ids).Scan(&taken); err != nil {
		return nil, err
	}
	cols := store.CopyColumns[table]
	var renumbered map[int64]int64
	for _, row := range rows {
		v := row.Values
		stmt := `INSERT INTO ` + table + ` (` + strings.TrimPrefix(cols, "id, ") + `) VALUES (` + placeholders(1, len(v)) + `) RETURNING id`
		if !taken {
			v = append([]any{row.ID}, v...)
			stmt = `INSERT INTO ` + table + ` (` + cols + `) OVERRIDING SYSTEM VALUE VALUES (` + placeholders(1, len(v)) + `) RETURNING id`
		}
		var got int64
		if err := tx.QueryRow(ctx, stmt, v...).Scan(&got); err != nil {
			return nil, fmt.Errorf("storing %s %d: %w", table, row.ID, err)
		}
		if taken {
			if renumbered == nil {
				renumbered = map[int64]int64{}
			}
			renumbered[row.ID] = got
		}
	}
	if !taken {
		// The ids were given here, not by the table's counter: move it past
		// them, or it would give one of them again. (setval is not undone by
		// a rollback: a counter moved on for nothing skips some ids.)
		if _, err := tx.Exec(ctx, `SELECT setval(seq, top) FROM
			(SELECT pg_get_serial_sequence($1, 'id')::regclass AS seq, (SELECT MAX(id) FROM `+table+`) AS top) x
			WHERE top > COALESCE(pg_sequence_last_value(seq), 0)`, table); err != nil {
			return nil, fmt.Errorf("moving the ids of %s on: %w", table, err)
		}
	}
	return renumbered, nil
}
