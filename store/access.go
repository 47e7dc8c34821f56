package store

import (
	"context"
	"time"

	"pitwall/race"
)

// The roles a secret link gives.
const (
	RoleHost      = "host"
	RoleSeat      = "seat"
	RoleSpectator = "spectator"
)

// The ways a race served by the service resolves its open turn (besides a
// host's resolve): at its deadline only, early once every seat has marked
// itself ready, or early once every seat has orders in.
const (
	ResolveAtDeadline = "deadline"
	ResolveWhenReady  = "ready"
	ResolveWhenAllIn  = "all_in"
)

// Token is a secret link as stored: only the SHA-256 of its token is kept,
// so a copy of the database gives no one a way in.
type Token struct {
	Hash    string     `json:"-"` // hex SHA-256 of the token
	Race    string     `json:"race"`
	Role    string     `json:"role"`
	Seat    int        `json:"seat"` // RoleSeat: the seat, from 0
	Created time.Time  `json:"created"`
	Revoked *time.Time `json:"revoked,omitempty"`
}

// Access is how the service opens a race: to everyone (a public race's
// spectators need no link) or only to its links, and when its turns
// resolve. It is written with the race.
type Access struct {
	Race        string    `json:"race"`
	Public      bool      `json:"public"`
	ResolveWhen string    `json:"resolve_when"`
	Created     time.Time `json:"created"`
}

// AccessStore is a Store that also keeps what the service needs to open
// races to racers and spectators. Errors wrap ErrNotFound and ErrExists as
// Store's do.
type AccessStore interface {
	Store
	// CreateWithAccess stores a new race (as Create), its Access and its
	// first links, in one transaction: all of them, or none. Access and
	// links must name the race (store.CheckAccess).
	CreateWithAccess(ctx context.Context, r *race.Race, a Access, ts []Token) error
	// Access returns a race's Access; ErrNotFound for a race created without.
	Access(ctx context.Context, id string) (Access, error)
	// AddTokens stores more links of race id (all or none); a hash stored
	// already gives ErrExists, a race not stored ErrNotFound.
	AddTokens(ctx context.Context, id string, ts []Token) error
	// Token returns the link whose token hashes to hash; ErrNotFound when none.
	Token(ctx context.Context, hash string) (Token, error)
	// RevokeToken marks a link of race id revoked at the time given (the
	// first revocation's time stays); ErrNotFound when the race has no such
	// link.
	RevokeToken(ctx context.Context, id, hash string, at time.Time) error
}
