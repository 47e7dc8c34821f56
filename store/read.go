package store

import (
	"context"
	"errors"
	"fmt"
	"math"

	"pitwall/race"
)

// What the SQL stores do alike when they read a race and when they refuse
// an append: each keeps its own SQL and driver behind Reader and
// AppendState, and the steps, checks and errors are written once here.

// Reader reads a race's rows on one snapshot of a store's database.
type Reader interface {
	// Race reads the race without its log; an error wrapping ErrNotFound
	// when there is no such race.
	Race(ctx context.Context, id string) (*race.Race, error)
	// Exists says whether the race is stored.
	Exists(ctx context.Context, id string) (bool, error)
	// Log reads the whole log, in order.
	Log(ctx context.Context, id string) ([]race.Entry, error)
	// Tail reads the log from entry from on, in order, less the orders of
	// turns after turnOf that a later order of the same seat for the same
	// turn replaced (save each turn's first): a racer who resends orders a
	// thousand times costs a load nothing.
	Tail(ctx context.Context, id string, from, turnOf int) ([]race.Entry, error)
	// LastTurn is the number of the last saved turn, or turn n itself for
	// n >= 0; false when there is no such turn.
	LastTurn(ctx context.Context, id string, n int) (int, bool, error)
	// Turns reads the saved turns from..to, in order.
	Turns(ctx context.Context, id string, from, to int) ([]SavedTurn, error)
	// ResolveSeq is the seq of the entry that resolved turn.
	ResolveSeq(ctx context.Context, id string, turn int) (int, error)
	// Keyed reads the entry stored with key (not ""), or nil.
	Keyed(ctx context.Context, id, key string) (*race.Entry, error)
	// Keys reads every entry stored with a key, in order.
	Keys(ctx context.Context, id string) ([]race.Entry, error)
	// Last reads the seq of the last entry, 0 for none.
	Last(ctx context.Context, id string) (int, error)
}

// Snapshot runs fn with a Reader on one snapshot of a store's database (a
// read-only transaction). Its methods are Store's reads: a store that
// embeds its Snapshot has them.
type Snapshot func(ctx context.Context, fn func(rd Reader) error) error

// Load implements Store.Load.
func (read Snapshot) Load(ctx context.Context, id string) (*race.Race, error) {
	var r *race.Race
	err := read(ctx, func(rd Reader) error {
		var err error
		if r, err = rd.Race(ctx, id); err != nil {
			return err
		}
		r.Log, err = wholeLog(ctx, rd, id)
		return err
	})
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, fmt.Errorf("loading %w", err)
		}
		return nil, fmt.Errorf("loading race %q: %w", id, err)
	}
	return r, nil
}

// wholeLog reads the log, which must run without a gap.
func wholeLog(ctx context.Context, rd Reader, id string) ([]race.Entry, error) {
	log, err := rd.Log(ctx, id)
	if err != nil {
		return nil, err
	}
	return log, CheckGapless(log, 1)
}

// Resume implements Store.Resume.
func (read Snapshot) Resume(ctx context.Context, id string, n int) (*race.Race, *SavedTurn, error) {
	var r *race.Race
	var rec *SavedTurn
	err := read(ctx, func(rd Reader) error {
		var err error
		if r, err = rd.Race(ctx, id); err != nil {
			return err
		}
		turn, ok, err := rd.LastTurn(ctx, id, n)
		switch {
		case err != nil:
			return err
		case !ok && n <= 0:
			r.Log, err = wholeLog(ctx, rd, id)
			return err
		case !ok:
			return fmt.Errorf("turn %d has not been resolved: %w", n, ErrNotFound)
		}
		ts, err := rd.Turns(ctx, id, turn, turn)
		if err != nil {
			return err
		}
		rec = &ts[0]
		seq, err := rd.ResolveSeq(ctx, id, turn)
		if err != nil {
			return fmt.Errorf("finding the resolve entry of turn %d: %w", turn, err)
		}
		if r.Log, err = rd.Tail(ctx, id, seq, turn); err != nil {
			return err
		}
		if len(r.Log) == 0 || r.Log[0].Seq != seq {
			return fmt.Errorf("the log has no entry %d", seq)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, nil, fmt.Errorf("race %q: %w", id, err)
		}
		return nil, nil, fmt.Errorf("loading race %q: %w", id, err)
	}
	return r, rec, nil
}

// Keyed implements Store.Keyed.
func (read Snapshot) Keyed(ctx context.Context, id, key string) (*race.Entry, error) {
	return ofRace(read, ctx, id, fmt.Sprintf("finding key %q", key), func(rd Reader) (*race.Entry, error) {
		if key == "" {
			return nil, nil
		}
		return rd.Keyed(ctx, id, key)
	})
}

// Keys implements Store.Keys.
func (read Snapshot) Keys(ctx context.Context, id string) ([]race.Entry, error) {
	return ofRace(read, ctx, id, "reading the keyed entries", func(rd Reader) ([]race.Entry, error) { return rd.Keys(ctx, id) })
}

// Last implements Store.Last.
func (read Snapshot) Last(ctx context.Context, id string) (int, error) {
	return ofRace(read, ctx, id, "reading the log's length", func(rd Reader) (int, error) { return rd.Last(ctx, id) })
}

// Turns implements Store.Turns.
func (read Snapshot) Turns(ctx context.Context, id string) ([]SavedTurn, error) {
	return ofRace(read, ctx, id, "reading the saved turns", func(rd Reader) ([]SavedTurn, error) {
		return rd.Turns(ctx, id, 0, math.MaxInt32)
	})
}

// ofRace is what fn reads of race id, on one snapshot: an error wrapping
// ErrNotFound for a race that is not stored, and saying what was read.
func ofRace[T any](read Snapshot, ctx context.Context, id, what string, fn func(rd Reader) (T, error)) (T, error) {
	var out T
	err := read(ctx, func(rd Reader) error {
		switch exists, err := rd.Exists(ctx, id); {
		case err != nil:
			return err
		case !exists:
			return ErrNotFound
		}
		var err error
		out, err = fn(rd)
		return err
	})
	if err != nil {
		var zero T
		return zero, fmt.Errorf("race %q: %s: %w", id, what, err)
	}
	return out, nil
}

// AppendState is what a store reads of a race's log, when an entry could
// not be appended to it, to say why.
type AppendState struct {
	Exists   bool // the race is stored
	Last     int  // the last entry's seq, 0 for none
	KeySeq   int  // the seq of the entry stored with the new entry's key, 0 for none
	Resolved bool // a resolve entry of the new entry's turn is stored
	Saved    bool // the turn to save with the new entry is saved already
	// Prev is the hash of the entry before the new entry's seq, "" for none.
	Prev string
}

// Refusal says why e cannot be appended, in one order for every store: a
// missing race, a stored key, a seq that is not next, an entry before it
// other than the one it was chained on (prev, when not ""), a turn
// resolved or saved already. It is nil when none of these stands in the
// way.
func (st AppendState) Refusal(e race.Entry, prev string) error {
	switch {
	case !st.Exists:
		return ErrNotFound
	case st.KeySeq != 0:
		return fmt.Errorf("key %q is entry %d's: %w", e.Key, st.KeySeq, ErrDuplicateKey)
	case e.Seq != st.Last+1:
		return fmt.Errorf("entry %d does not follow the last entry, %d: %w", e.Seq, st.Last, ErrConflict)
	case prev != "" && prev != st.Prev:
		return fmt.Errorf("entry %d was chained on an entry %d other than the one stored (another writer's came first): %w", e.Seq, e.Seq-1, ErrConflict)
	case e.Kind == race.EntryResolve && st.Resolved:
		return fmt.Errorf("entry %d: turn %d is resolved already; a turn is resolved once: %w", e.Seq, e.Turn, ErrConflict)
	case st.Saved:
		return fmt.Errorf("entry %d: turn %d is already saved; a turn is resolved once: %w", e.Seq, e.Turn, ErrConflict)
	}
	return nil
}
