package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"pitwall/store"
)

var _ store.HookStore = (*Store)(nil)

// AddHook implements store.HookStore (addKeyed).
func (s *Store) AddHook(ctx context.Context, h store.Hook) (store.Hook, error) {
	h, err := store.HookToAdd(h)
	if err != nil {
		return h, err
	}
	err = addKeyed(ctx, s, "webhook", h.Race, h.Key, hooks, func(stored store.Hook) error { return store.SameHook(&h, stored) },
		&h.ID, `INSERT INTO hooks (race_id, url, format, events, warn_before, secret, key, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		h.Race, h.URL, h.Format, strings.Join(h.Events, ","), int64(h.WarnBefore), h.Secret, h.Key, formatTime(h.Created))
	return h, err
}

// RemoveHook implements store.HookStore.
func (s *Store) RemoveHook(ctx context.Context, id string, hook int64, at time.Time) error {
	if err := store.CheckTime("the removal", at); err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE hooks SET removed = ? WHERE id = ? AND race_id = ? AND removed IS NULL`, formatTime(at), hook, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			var found bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM hooks WHERE id = ? AND race_id = ?)`, hook, id).Scan(&found); err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("race %q has no webhook %d: %w", id, hook, store.ErrNotFound)
			}
			return nil // removed already
		}
		_, err = tx.ExecContext(ctx, `UPDATE outbox SET outcome = 'removed', done = ?, held = NULL WHERE hook_id = ? AND outcome = ''`, formatTime(at), hook)
		return err
	})
}

// Hooks implements store.HookStore.
func (s *Store) Hooks(ctx context.Context, id string) ([]store.Hook, error) {
	return readList(ctx, s, func(tx *sql.Tx) ([]store.Hook, error) { return hooks(ctx, tx, id, "") })
}

// LiveHooks implements store.HookStore.
func (s *Store) LiveHooks(ctx context.Context) ([]store.Hook, error) {
	return readList(ctx, s, func(tx *sql.Tx) ([]store.Hook, error) {
		rows, err := tx.QueryContext(ctx, `SELECT `+store.HookColumns+` FROM hooks WHERE removed IS NULL ORDER BY id`)
		return collect(rows, err, scanHook)
	})
}

// hooks lists race id's hooks; with a key, only the one it names.
func hooks(ctx context.Context, tx *sql.Tx, id, key string) ([]store.Hook, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+store.HookColumns+` FROM hooks WHERE race_id = ? AND (? = '' OR key = ?) ORDER BY id`, id, key, key)
	return collect(rows, err, scanHook)
}

func scanHook(rows *sql.Rows) (store.Hook, error) {
	var h store.Hook
	var events, created string
	var removed sql.NullString
	var warn int64
	if err := rows.Scan(&h.ID, &h.Race, &h.URL, &h.Format, &events, &warn, &h.Secret, &h.Key, &created, &removed); err != nil {
		return h, err
	}
	h.Events, h.WarnBefore = strings.Split(events, ","), time.Duration(warn)
	var err error
	if h.Created, err = parseTime(created); err != nil {
		return h, err
	}
	h.Removed, err = parseNullTime(removed)
	return h, err
}

// Warn implements store.HookStore.
func (s *Store) Warn(ctx context.Context, d store.Delivery) (bool, error) {
	d.Kind = store.DeliverWarning
	if err := store.CheckDelivery(d); err != nil {
		return false, err
	}
	n, err := s.execWrite(ctx, fmt.Sprintf("queueing a warning for race %q", d.Race), `INSERT INTO outbox (hook_id, race_id, kind, turn, seq, deadline, created, due)
		SELECT id, race_id, 'warning', ?, 0, ?, ?, ? FROM hooks WHERE id = ? AND race_id = ? AND removed IS NULL
		ON CONFLICT DO NOTHING`, d.Turn, formatTime(*d.Deadline), formatTime(d.Created), formatTime(d.Due), d.Hook, d.Race)
	return n > 0, err
}

// execWrite runs one statement in a write transaction and says how many
// rows it changed; an error from the statement says what was being done
// (doing).
func (s *Store) execWrite(ctx context.Context, doing, query string, args ...any) (int64, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("%s: %w", doing, err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// Claim implements store.HookStore.
func (s *Store) Claim(ctx context.Context, claim string, now, until time.Time, n int) ([]store.Delivery, error) {
	if err := store.CheckClaim(claim, n); err != nil {
		return nil, err
	}
	at := formatTime(now)
	var any bool // most calls find nothing: a read does not queue behind the writers
	if err := s.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM outbox WHERE outcome = '' AND due <= ? AND (held IS NULL OR held <= ?))`, at, at).Scan(&any)
	}); err != nil || !any {
		return nil, err
	}
	var ds []store.Delivery
	err := s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `UPDATE outbox SET claim = ?, held = ?
			WHERE id IN (SELECT id FROM outbox o WHERE outcome = '' AND due <= ? AND (held IS NULL OR held <= ?)
			             AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.hook_id = o.hook_id AND e.outcome = '' AND e.id < o.id)
			             ORDER BY due, id LIMIT ?)
			RETURNING `+store.DeliveryColumns, claim, formatTime(until), at, at, n)
		ds, err = collect(rows, err, scanDelivery)
		return err
	})
	return ds, err
}

// Settle implements store.HookStore.
func (s *Store) Settle(ctx context.Context, d store.Delivery) (bool, error) {
	if err := store.CheckDelivery(d); err != nil {
		return false, err
	}
	var done sql.NullString
	if d.Done != nil {
		done = sql.NullString{String: formatTime(*d.Done), Valid: true}
	}
	n, err := s.execWrite(ctx, fmt.Sprintf("settling delivery %d", d.ID), `UPDATE outbox SET outcome = ?, done = ?, due = ?, attempts = ?, error = ?, held = NULL
		WHERE id = ? AND claim = ? AND outcome = ''`, d.Outcome, done, formatTime(d.Due), d.Attempts, d.Error, d.ID, d.Claim)
	return n > 0, err
}

// Deliveries implements store.HookStore.
func (s *Store) Deliveries(ctx context.Context, id string, n int) ([]store.Delivery, error) {
	return readList(ctx, s, func(tx *sql.Tx) ([]store.Delivery, error) {
		rows, err := tx.QueryContext(ctx, `SELECT `+store.DeliveryColumns+` FROM outbox WHERE race_id = ? ORDER BY id DESC LIMIT ?`, id, n)
		return collect(rows, err, scanDelivery)
	})
}

func scanDelivery(rows *sql.Rows) (store.Delivery, error) {
	var d store.Delivery
	var deadline, done sql.NullString
	var created, due string
	if err := rows.Scan(&d.ID, &d.Hook, &d.Race, &d.Kind, &d.Turn, &d.Seq, &deadline, &created, &due, &d.Attempts, &d.Claim, &d.Outcome, &done, &d.Error); err != nil {
		return d, err
	}
	var err error
	if d.Deadline, err = parseNullTime(deadline); err != nil {
		return d, err
	}
	if d.Done, err = parseNullTime(done); err != nil {
		return d, err
	}
	if d.Created, err = parseTime(created); err != nil {
		return d, err
	}
	d.Due, err = parseTime(due)
	return d, err
}

// Prune implements store.HookStore. A delivery may go when its id is the
// race's (keep+1)-th latest or older (by id, as Deliveries orders them):
// that id is one look in the index a row, where counting the newer ones
// read the race's outbox a row.
func (s *Store) Prune(ctx context.Context, before time.Time, keep, n int) (int, error) {
	if err := store.CheckPrune(keep, n); err != nil {
		return 0, err
	}
	deleted, err := s.execWrite(ctx, "pruning the outbox", `DELETE FROM outbox WHERE id IN (
		SELECT o.id FROM outbox o WHERE o.outcome <> '' AND o.done < ?
		AND o.id <= (SELECT l.id FROM outbox l WHERE l.race_id = o.race_id ORDER BY l.id DESC LIMIT 1 OFFSET ?)
		ORDER BY o.done, o.id LIMIT ?)`, formatTime(before), keep, n)
	return int(deleted), err
}
