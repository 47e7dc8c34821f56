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
// (pitwall verify) and to show a race without replaying it.
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
type Store interface {
	// Create stores a new race's definition (its Log must be empty).
	Create(ctx context.Context, r *race.Race) error
	// Load returns the race with its whole log, in order.
	Load(ctx context.Context, id string) (*race.Race, error)
	// List returns every race, newest first.
	List(ctx context.Context) ([]Summary, error)
	// Append adds e to the race's log. e.Seq must be the log's length + 1, or
	// Append returns ErrConflict and stores nothing. For a resolve entry, turn
	// is the turn it resolved and is stored in the same transaction; otherwise nil.
	Append(ctx context.Context, id string, e race.Entry, turn *SavedTurn) error
	// Turns returns the saved turns, in order.
	Turns(ctx context.Context, id string) ([]SavedTurn, error)
	// SetDeadline records the next turn's deadline (nil clears it).
	SetDeadline(ctx context.Context, id string, at *time.Time) error
	Close() error
}
