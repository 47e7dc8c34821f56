package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"pitwall/race"
	"pitwall/store"
)

// afterMigration holds the steps that SQL alone cannot take, run in the
// migration's transaction right after the migration of that name.
var afterMigration = map[string]func(ctx context.Context, tx *sql.Tx) error{
	"0002_chain.sql": chainStoredRaces,
}

// chainStoredRaces brings races stored before schema 2 into the new log: the
// schedule kept in the races row becomes a schedule entry for the turn open
// now, and every entry gets its link in the hash chain. Such a race's chain
// starts at this migration: it vouches for the log as it was found here.
func chainStoredRaces(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM races ORDER BY id`)
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		if err := chainRace(ctx, tx, id); err != nil {
			return fmt.Errorf("race %q: %w", id, err)
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE races SET deadline = NULL, window_open = NULL, window_close = NULL`)
	return err
}

func chainRace(ctx context.Context, tx *sql.Tx, id string) error {
	rd := reader{tx}
	r, err := rd.Race(ctx, id)
	if err != nil {
		return err
	}
	var sch race.Schedule
	var deadline, winOpen, winClose sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT deadline, window_open, window_close FROM races WHERE id = ?`, id).
		Scan(&deadline, &winOpen, &winClose); err != nil {
		return err
	}
	for _, f := range []struct {
		s   sql.NullString
		dst **time.Time
	}{{deadline, &sch.Deadline}, {winOpen, &sch.WindowOpen}, {winClose, &sch.WindowClose}} {
		if *f.dst, err = parseNullTime(f.s); err != nil {
			return err
		}
	}
	log, err := rd.Log(ctx, id)
	if err != nil {
		return err
	}
	if err := store.CheckGapless(log, 1); err != nil {
		return err
	}
	turns, err := rd.Turns(ctx, id, 0, 1<<30)
	if err != nil {
		return err
	}
	byTurn := map[int]*race.TurnRecord{}
	for i := range turns {
		byTurn[turns[i].Turn] = &turns[i]
	}
	head, open := race.Genesis(r), 1
	for _, e := range log {
		var rec *race.TurnRecord
		if e.Kind == race.EntryResolve {
			rec, open = byTurn[e.Turn], e.Turn+1
		}
		head = race.ChainNext(head, e, rec, r.Seed)
		if _, err := tx.ExecContext(ctx, `UPDATE entries SET hash = ? WHERE race_id = ? AND seq = ?`, head, id, e.Seq); err != nil {
			return err
		}
	}
	if sch.Empty() {
		return nil
	}
	if sch.WindowOpen == nil || sch.WindowClose == nil {
		sch.WindowOpen, sch.WindowClose = nil, nil
	}
	e := race.Entry{Seq: len(log) + 1, Kind: race.EntrySchedule, Turn: open, Seat: -1, Text: sch.Text(),
		At: time.Now().UTC().Truncate(time.Microsecond)}
	e.Hash = race.ChainNext(head, e, nil, r.Seed)
	_, err = tx.ExecContext(ctx, `INSERT INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash)
		VALUES (?, ?, ?, ?, ?, ?, 0, ?, '', ?)`, id, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, formatTime(e.At), e.Hash)
	return err
}
