// Package store keeps races: their definition, the append-only log of what was
// submitted, and a record of every resolved turn (state hash, dice rolled, the
// dice stream's state and a snapshot of the state, which is only a cache).
//
// Store is an interface with one conformance suite (storetest), so that the
// embedded SQLite store and a PostgreSQL store behave the same.
package store

import (
	"context"
	"errors"
	"time"

	"pitwall/race"
)

// ErrNotFound is returned for a race that does not exist.
var ErrNotFound = errors.New("no such race")

// ErrConflict is returned when an append does not come right after the last
// entry (another writer got there first); the caller reloads and tries again.
var ErrConflict = errors.New("the race's log moved on; reload and try again")

// ErrExists is returned when a race is created with an ID already taken.
var ErrExists = errors.New("a race with this ID exists")

// Pending is one append of a group commit (Batcher.AppendAll).
type Pending struct {
	Race  string
	Entry race.Entry
	Turn  *SavedTurn
	// Prev, if not "", is the hash of the entry this one was chained on:
	// the append is refused (ErrConflict) unless the log's entry before it
	// has that hash. A writer that queues an entry behind one of its own
	// still on its way names it, so that should that one fail, and another
	// writer's entry take its place, this one is not stored on top of it.
	Prev string
}

// Batcher is a Store that appends to many races at once, in one
// transaction and one commit (group commit): durability costs one wait for
// the disk for all of them, not one each.
type Batcher interface {
	// AppendAll judges and stores each append as Append would, in order,
	// in one transaction. errs[i] is the i-th append's error: its refusal
	// (as Append's, wrapping the same errors), or, when the transaction
	// failed, its failure. Every append whose error is nil is durable; no
	// other is stored.
	AppendAll(ctx context.Context, batch []Pending) (errs []error)
}

// ErrDuplicateKey is returned when an entry's client key is already in the
// race's log: the request was made before, and nothing more is stored.
var ErrDuplicateKey = errors.New("an entry with this key is stored already")

// SavedTurn is what is kept of a resolved turn, beside its resolve entry. A
// store gives back State, Story and DiceState byte for byte: State is the
// hashed snapshot and both are in the hash chain, so a store must not
// re-encode them (as PostgreSQL's jsonb would); DiceState is binary (not
// valid UTF-8, and it may hold NUL bytes).
type SavedTurn = race.TurnRecord

// Summary is one line of a race list.
type Summary struct {
	ID         string    `json:"id"`
	Ruleset    string    `json:"ruleset"`
	Track      string    `json:"track"`
	Created    time.Time `json:"created"`
	Entries    int       `json:"entries"` // log length
	Turns      int       `json:"turns"`   // resolved turns
	Commitment string    `json:"commitment"`
}

// Page is a part of the race list: the races after the one created at
// AfterCreated with id AfterID in the list's order (none: from the newest),
// at most Limit of them (0: all).
type Page struct {
	AfterCreated time.Time
	AfterID      string
	Limit        int
}

// After is the page that follows the race s, of limit races.
func After(s Summary, limit int) Page {
	return Page{AfterCreated: s.Created, AfterID: s.ID, Limit: limit}
}

// Holds says whether page p holds s by its place in the list, leaving its
// limit aside: a store without an index of its own filters with it.
func (p Page) Holds(s Summary) bool {
	return p.AfterID == "" || s.Created.Before(p.AfterCreated) || s.Created.Equal(p.AfterCreated) && s.ID > p.AfterID
}

// Store keeps races: a race's definition never changes once created, and its
// log only grows. Every method is safe for concurrent use, also from several
// processes on one database. A method that returns nil has made its change
// durable.
//
// Every time a store gives back (Race.Created, Entry.At, SavedTurn.At,
// Summary.Created) equals the time stored to the microsecond and is in UTC,
// whatever zone it was stored in. Errors wrap ErrNotFound, ErrExists,
// ErrConflict and ErrDuplicateKey so that errors.Is finds them, and name the
// race. The conformance suite in package storetest holds stores to all of this.
type Store interface {
	// Create stores a new race's definition (its Log must be empty).
	Create(ctx context.Context, r *race.Race) error
	// Load returns the race with its whole log, in order.
	Load(ctx context.Context, id string) (*race.Race, error)
	// Resume returns the race with the record of turn n (n < 0: the last
	// turn resolved) and, in Log, the entries from that turn's resolve entry
	// on, less (where the store can) the orders that a later order of the
	// same seat for the same turn replaced, but never a turn's first order:
	// the log's public part ends before it (race.Played.PublicSeq), as
	// posts publish it. With no turn resolved, or for
	// n = 0 (the start), it returns the whole log and a nil record; for a
	// turn not resolved, an error wrapping ErrNotFound.
	Resume(ctx context.Context, id string, n int) (*race.Race, *SavedTurn, error)
	// Keyed returns the entry stored with the client key, or nil.
	Keyed(ctx context.Context, id, key string) (*race.Entry, error)
	// Keys returns every entry stored with a client key, in order: a
	// service that keeps a race in memory answers repeated keys from them.
	Keys(ctx context.Context, id string) ([]race.Entry, error)
	// Last returns the seq of the log's last entry (0 for an empty log): a
	// race kept in memory is as fresh as the store while Last is its Seq.
	Last(ctx context.Context, id string) (int, error)
	// List returns the races of page p, newest first (ties by ID); the zero
	// Page is every race.
	List(ctx context.Context, p Page) ([]Summary, error)
	// Append adds e to the race's log. e.Seq must be the log's length + 1, or
	// Append returns ErrConflict and stores nothing; a key already in the
	// log gives ErrDuplicateKey and stores nothing. A turn is stored only
	// with a resolve entry of the same turn number (turn.Turn == e.Turn), in
	// the same transaction, and once: if either cannot be stored, neither is.
	// For any other entry turn must be nil.
	Append(ctx context.Context, id string, e race.Entry, turn *SavedTurn) error
	// Turns returns the saved turns, in order.
	Turns(ctx context.Context, id string) ([]SavedTurn, error)
	Close() error
}

// Announcer is a store that announces each append to everyone serving its
// database, as several instances on one PostgreSQL do.
type Announcer interface {
	// Listen calls fn with the race of each entry another process appends,
	// until ctx ends or the store can no longer listen (the error says
	// why; listen again). fn must not block for long.
	Listen(ctx context.Context, fn func(id string)) error
}
