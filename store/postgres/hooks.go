package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

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
		&h.ID, `INSERT INTO hooks (race_id, url, format, events, warn_before, secret, key, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (race_id, key) WHERE key <> '' DO NOTHING RETURNING id`,
		h.Race, h.URL, h.Format, strings.Join(h.Events, ","), int64(h.WarnBefore), h.Secret, h.Key, h.Created)
	return h, err
}

// RemoveHook implements store.HookStore.
func (s *Store) RemoveHook(ctx context.Context, id string, hook int64, at time.Time) error {
	if err := store.CheckTime("the removal", at); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE hooks SET removed = $1 WHERE id = $2 AND race_id = $3 AND removed IS NULL`, at, hook, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			var found bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM hooks WHERE id = $1 AND race_id = $2)`, hook, id).Scan(&found); err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("race %q has no webhook %d: %w", id, hook, store.ErrNotFound)
			}
			return nil // removed already
		}
		_, err = tx.Exec(ctx, `UPDATE outbox SET outcome = 'removed', done = $1, held = NULL WHERE hook_id = $2 AND outcome = ''`, at, hook)
		return err
	})
}

// Hooks implements store.HookStore.
func (s *Store) Hooks(ctx context.Context, id string) ([]store.Hook, error) {
	return hooks(ctx, s.pool, id, "")
}

// LiveHooks implements store.HookStore.
func (s *Store) LiveHooks(ctx context.Context) ([]store.Hook, error) {
	return collectHooks(s.pool.Query(ctx, `SELECT `+store.HookColumns+` FROM hooks WHERE removed IS NULL ORDER BY id`))
}

// hooks lists race id's hooks; with a key, only the one it names.
func hooks(ctx context.Context, q querier, id, key string) ([]store.Hook, error) {
	return collectHooks(q.Query(ctx, `SELECT `+store.HookColumns+` FROM hooks WHERE race_id = $1 AND ($2 = '' OR key = $2) ORDER BY id`, id, key))
}

func collectHooks(rows pgx.Rows, err error) ([]store.Hook, error) {
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Hook, error) {
		var h store.Hook
		var events string
		var warn int64
		err := row.Scan(&h.ID, &h.Race, &h.URL, &h.Format, &events, &warn, &h.Secret, &h.Key, &h.Created, &h.Removed)
		h.Events, h.WarnBefore, h.Created = strings.Split(events, ","), time.Duration(warn), h.Created.UTC()
		h.Removed = utc(h.Removed)
		return h, err
	})
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// Warn implements store.HookStore.
func (s *Store) Warn(ctx context.Context, d store.Delivery) (bool, error) {
	d.Kind = store.DeliverWarning
	if err := store.CheckDelivery(d); err != nil {
		return false, err
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO outbox (hook_id, race_id, kind, turn, seq, deadline, created, due)
		SELECT id, race_id, 'warning', $1, 0, $2, $3, $4 FROM hooks WHERE id = $5 AND race_id = $6 AND removed IS NULL
		ON CONFLICT DO NOTHING`, d.Turn, *d.Deadline, d.Created, d.Due, d.Hook, d.Race)
	if err != nil {
		return false, fmt.Errorf("queueing a warning for race %q: %w", d.Race, err)
	}
	return tag.RowsAffected() > 0, nil
}

// Claim implements store.HookStore. SKIP LOCKED lets instances claiming at
// once take different rows rather than wait for each other.
func (s *Store) Claim(ctx context.Context, claim string, now, until time.Time, n int) ([]store.Delivery, error) {
	if err := store.CheckClaim(claim, n); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `UPDATE outbox SET claim = $1, held = $2
		WHERE id IN (SELECT id FROM outbox o WHERE outcome = '' AND due <= $3 AND (held IS NULL OR held <= $3)
		             AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.hook_id = o.hook_id AND e.outcome = '' AND e.id < o.id)
		             ORDER BY due, id LIMIT $4 FOR UPDATE SKIP LOCKED)
		RETURNING `+store.DeliveryColumns, claim, until, now, n)
	if err != nil {
		return nil, err
	}
	return collectDeliveries(rows)
}

// Settle implements store.HookStore.
func (s *Store) Settle(ctx context.Context, d store.Delivery) (bool, error) {
	if err := store.CheckDelivery(d); err != nil {
		return false, err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE outbox SET outcome = $1, done = $2, due = $3, attempts = $4, error = $5, held = NULL
		WHERE id = $6 AND claim = $7 AND outcome = ''`, d.Outcome, d.Done, d.Due, d.Attempts, d.Error, d.ID, d.Claim)
	if err != nil {
		return false, fmt.Errorf("settling delivery %d: %w", d.ID, err)
	}
	return tag.RowsAffected() > 0, nil
}

// Deliveries implements store.HookStore.
func (s *Store) Deliveries(ctx context.Context, id string, n int) ([]store.Delivery, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+store.DeliveryColumns+` FROM outbox WHERE race_id = $1 ORDER BY id DESC LIMIT $2`, id, n)
	if err != nil {
		return nil, err
	}
	return collectDeliveries(rows)
}

func collectDeliveries(rows pgx.Rows) ([]store.Delivery, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Delivery, error) {
		var d store.Delivery
		err := row.Scan(&d.ID, &d.Hook, &d.Race, &d.Kind, &d.Turn, &d.Seq, &d.Deadline, &d.Created, &d.Due, &d.Attempts, &d.Claim, &d.Outcome, &d.Done, &d.Error)
		d.Deadline, d.Done, d.Created, d.Due = utc(d.Deadline), utc(d.Done), d.Created.UTC(), d.Due.UTC()
		return d, err
	})
}

// Prune implements store.HookStore. A delivery may go when its id is the
// race's (keep+1)-th latest or older (by id, as Deliveries orders them):
// that id is one look in the index a row, where counting the newer ones
// read the race's outbox a row. Rows another instance is deleting are
// passed over, not waited for.
func (s *Store) Prune(ctx context.Context, before time.Time, keep, n int) (int, error) {
	if err := store.CheckPrune(keep, n); err != nil {
		return 0, err
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM outbox WHERE id IN (
		SELECT o.id FROM outbox o WHERE o.outcome <> '' AND o.done < $1
		AND o.id <= (SELECT l.id FROM outbox l WHERE l.race_id = o.race_id ORDER BY l.id DESC LIMIT 1 OFFSET $2)
		ORDER BY o.done, o.id LIMIT $3 FOR UPDATE SKIP LOCKED)`, before, keep, n)
	if err != nil {
		return 0, fmt.Errorf("pruning the outbox: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
