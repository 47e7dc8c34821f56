// Package memstore is a store.Store in memory: for tests, simulations and
// demos that need no file. It passes the same conformance suite as the SQLite
// store; nothing survives the process.
package memstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"pitwall/race"
	"pitwall/store"
)

// Data is what a memory store holds. Stores opened on the same Data see the
// same races, as two connections to one database would.
type Data struct {
	mu    sync.Mutex
	races map[string]*entry
}

type entry struct {
	race  race.Race // Log kept separately
	log   []race.Entry
	turns []store.SavedTurn
}

// NewData returns an empty Data.
func NewData() *Data { return &Data{races: map[string]*entry{}} }

// Store is a store.Store on a Data.
type Store struct {
	d      *Data
	closed bool
	mu     sync.Mutex
}

var (
	_ store.Store   = (*Store)(nil)
	_ store.Batcher = (*Store)(nil)
)

// New returns a store on a Data of its own.
func New() *Store { return Open(NewData()) }

// Open returns a store on d.
func Open(d *Data) *Store { return &Store{d: d} }

var errClosed = errors.New("the memory store is closed")

func (s *Store) lock() (*Data, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, errClosed
	}
	s.d.mu.Lock()
	return s.d, nil
}

func utc(t time.Time) time.Time { return t.UTC() }

func cloneRace(r race.Race) race.Race {
	r.Created = utc(r.Created)
	r.Entrants = cloneEntrants(r.Entrants)
	r.Config.Options = cloneMap(r.Config.Options)
	r.Log = nil
	return r
}

func cloneEntrants(es []race.Entrant) []race.Entrant {
	if es == nil {
		return nil
	}
	out := make([]race.Entrant, len(es))
	for i, e := range es {
		out[i] = race.Entrant{Player: e.Player, Racers: slices.Clone(e.Racers), Options: cloneMap(e.Options)}
	}
	return out
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func cloneTurn(t store.SavedTurn) store.SavedTurn {
	t.Rolls = slices.Clone(t.Rolls)
	t.DiceState = slices.Clone(t.DiceState)
	t.State = slices.Clone(t.State)
	t.Story = slices.Clone(t.Story)
	t.At = utc(t.At)
	return t
}

// with runs fn on race id with the data locked.
func (s *Store) with(ctx context.Context, id string, fn func(e *entry) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d, err := s.lock()
	if err != nil {
		return err
	}
	defer d.mu.Unlock()
	e, ok := d.races[id]
	if !ok {
		return notFound(id)
	}
	return fn(e)
}

func notFound(id string) error { return fmt.Errorf("race %q: %w", id, store.ErrNotFound) }

// Create implements store.Store.
func (s *Store) Create(ctx context.Context, r *race.Race) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, _, err := store.EncodeNew(r); err != nil {
		return err
	}
	d, err := s.lock()
	if err != nil {
		return err
	}
	defer d.mu.Unlock()
	if _, dup := d.races[r.ID]; dup {
		return fmt.Errorf("creating race %q: %w", r.ID, store.ErrExists)
	}
	d.races[r.ID] = &entry{race: cloneRace(*r)}
	return nil
}

// Load implements store.Store.
func (s *Store) Load(ctx context.Context, id string) (*race.Race, error) {
	var r race.Race
	err := s.with(ctx, id, func(e *entry) error {
		r = cloneRace(e.race)
		r.Log = slices.Clone(e.log)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, p store.Page) ([]store.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer d.mu.Unlock()
	out := []store.Summary{}
	for _, e := range d.races {
		sm := store.Summary{ID: e.race.ID, Ruleset: e.race.Ruleset, Track: e.race.Config.Track, Created: e.race.Created,
			Entries: len(e.log), Turns: len(e.turns), Commitment: e.race.Seed.Commitment()}
		if p.Holds(sm) {
			out = append(out, sm)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.After(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	if p.Limit > 0 && len(out) > p.Limit {
		out = out[:p.Limit]
	}
	return out, nil
}

// Append implements store.Store.
func (s *Store) Append(ctx context.Context, id string, e race.Entry, turn *store.SavedTurn) error {
	return s.with(ctx, id, func(r *entry) error { return appendTo(r, id, e, turn, "") })
}

// AppendAll implements store.Batcher.
func (s *Store) AppendAll(ctx context.Context, batch []store.Pending) []error {
	errs := make([]error, len(batch))
	for i, b := range batch {
		errs[i] = s.with(ctx, b.Race, func(r *entry) error { return appendTo(r, b.Race, b.Entry, b.Turn, b.Prev) })
	}
	return errs
}

// appendTo appends e to r, chained on prev when it is not "" (store.Pending).
func appendTo(r *entry, id string, e race.Entry, turn *store.SavedTurn, prev string) error {
	if _, err := store.EncodeAppend(id, e, turn); err != nil {
		return err
	}
	// What the SQL stores read of the log, read here, so that all refuse alike.
	st := store.AppendState{Exists: true, Last: len(r.log)}
	for _, x := range r.log {
		if e.Key != "" && x.Key == e.Key {
			st.KeySeq = x.Seq
		}
		st.Resolved = st.Resolved || x.Kind == race.EntryResolve && x.Turn == e.Turn
	}
	st.Saved = turn != nil && slices.ContainsFunc(r.turns, func(t store.SavedTurn) bool { return t.Turn == turn.Turn })
	if i := e.Seq - 2; i >= 0 && i < len(r.log) {
		st.Prev = r.log[i].Hash
	}
	if err := st.Refusal(e, prev); err != nil {
		return fmt.Errorf("race %q: appending entry %d: %w", id, e.Seq, err)
	}
	if turn != nil {
		r.turns = append(r.turns, cloneTurn(*turn))
	}
	e.At = utc(e.At)
	r.log = append(r.log, e)
	return nil
}

// Resume implements store.Store.
func (s *Store) Resume(ctx context.Context, id string, n int) (*race.Race, *store.SavedTurn, error) {
	var r race.Race
	var rec *store.SavedTurn
	err := s.with(ctx, id, func(e *entry) error {
		r = cloneRace(e.race)
		i := len(e.turns) - 1
		if n >= 0 {
			i = slices.IndexFunc(e.turns, func(t store.SavedTurn) bool { return t.Turn == n })
		}
		if i < 0 {
			if n > 0 {
				return fmt.Errorf("race %q: turn %d has not been resolved: %w", id, n, store.ErrNotFound)
			}
			r.Log = slices.Clone(e.log)
			return nil
		}
		t := cloneTurn(e.turns[i])
		rec = &t
		from := slices.IndexFunc(e.log, func(x race.Entry) bool { return x.Kind == race.EntryResolve && x.Turn == t.Turn })
		r.Log = slices.Clone(e.log[from:])
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &r, rec, nil
}

// Keyed implements store.Store.
func (s *Store) Keyed(ctx context.Context, id, key string) (*race.Entry, error) {
	var out *race.Entry
	err := s.with(ctx, id, func(e *entry) error {
		for _, x := range e.log {
			if key != "" && x.Key == key {
				out = &x
			}
		}
		return nil
	})
	return out, err
}

// Keys implements store.Store.
func (s *Store) Keys(ctx context.Context, id string) ([]race.Entry, error) {
	var out []race.Entry
	err := s.with(ctx, id, func(e *entry) error {
		for _, x := range e.log {
			if x.Key != "" {
				out = append(out, x)
			}
		}
		return nil
	})
	return out, err
}

// Last implements store.Store.
func (s *Store) Last(ctx context.Context, id string) (int, error) {
	var last int
	err := s.with(ctx, id, func(e *entry) error {
		last = len(e.log)
		return nil
	})
	return last, err
}

// Turns implements store.Store.
func (s *Store) Turns(ctx context.Context, id string) ([]store.SavedTurn, error) {
	var out []store.SavedTurn
	err := s.with(ctx, id, func(r *entry) error {
		out = make([]store.SavedTurn, len(r.turns))
		for i, t := range r.turns {
			out[i] = cloneTurn(t)
		}
		return nil
	})
	return out, err
}

// Close implements store.Store.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}
