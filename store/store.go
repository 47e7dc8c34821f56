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

	"pitwall/dice"
	"pitwall/race"
)

// ErrNotFound is returned for a race that does not exist.
var ErrNotFound = errors.New("no such race")

// ErrConflict is returned when an append does not come right after the last
// entry (another writer got there first); the caller reloads and tries again.
var ErrConflict = errors.New("the race's log moved on; reload and try again")

// ErrExists is returned when a race is created with an ID already taken.
var ErrExists = errors.New("a race with this ID exists")

// SavedTurn is what is kept of a resolved turn, to check replays against
// (pitwall verify) and to show a race without replaying it. A store gives
// back State and DiceState byte for byte: State is the hashed snapshot, so a
// store must not re-encode it (as PostgreSQL's jsonb would), and DiceState is
// binary (not valid UTF-8, and it may hold NUL bytes).
type SavedTurn struct {
	Turn      int         `json:"turn"`
	Hash      string      `json:"hash"`
	Rolls     []dice.Roll `json:"rolls"`
	DiceState []byte      `json:"dice_state"`
	State     []byte      `json:"state"` // JSON snapshot of the state after the turn
	At        time.Time   `json:"at"`
}

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

// Store keeps races. Every method is safe for concurrent use. A method that
// returns nil has made its change durable.
//
// Every time a store gives back (Race.Created, Schedule times, Entry.At,
// SavedTurn.At, Summary.Created) equals the time stored to the nanosecond and
// is in UTC, whatever zone it was stored in. Errors wrap ErrNotFound,
// ErrExists and ErrConflict so that errors.Is finds them, and name the race.
// The conformance suite in package storetest holds stores to all of this.
type Store interface {
	// Create stores a new race's definition, with its Schedule (its Log must
	// be empty).
	Create(ctx context.Context, r *race.Race) error
	// Load returns the race with its schedule and its whole log, in order.
	Load(ctx context.Context, id string) (*race.Race, error)
	// List returns every race, newest first.
	List(ctx context.Context) ([]Summary, error)
	// Append adds e to the race's log. e.Seq must be the log's length + 1, or
	// Append returns ErrConflict and stores nothing. A turn is stored only
	// with a resolve entry of the same turn number (turn.Turn == e.Turn), in
	// the same transaction: if either cannot be stored, neither is. For any
	// other entry turn must be nil.
	Append(ctx context.Context, id string, e race.Entry, turn *SavedTurn) error
	// Turns returns the saved turns, in order.
	Turns(ctx context.Context, id string) ([]SavedTurn, error)
	// SetSchedule records the next turn's deadline and bonus window, replacing
	// the whole schedule: nil fields clear them.
	SetSchedule(ctx context.Context, id string, s race.Schedule) error
	// SetEntrants replaces the entrants of a race whose log is empty. Once the
	// log has an entry the entrants are fixed (replay depends on them) and
	// SetEntrants returns ErrConflict, wrapped with the race's ID; the check
	// is made in the same transaction as the change.
	SetEntrants(ctx context.Context, id string, entrants []race.Entrant) error
	Close() error
}
