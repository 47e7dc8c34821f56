package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"pitwall/race"
)

// The roles a secret link gives.
const (
	RoleHost      = "host"
	RoleSeat      = "seat"
	RoleSpectator = "spectator"
	// RoleInvite opens a join to a race that takes its racers by invite,
	// and nothing else.
	RoleInvite = "invite"
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
	Seat    int        `json:"seat"` // RoleSeat: the seat, from 0; -1 for a link that names its racer
	Created time.Time  `json:"created"`
	Revoked *time.Time `json:"revoked,omitempty"`
	// Racer names the racer of a seat's link made before the race started,
	// when the seats were not known yet (Seat is -1): the link opens the
	// seat that racer holds once the race is set up. "" for any other link.
	Racer string `json:"racer,omitempty"`
}

// Access is how the service opens a race: to everyone (a public race's
// spectators need no link) or only to its links, and when its turns
// resolve. It is written with the race.
type Access struct {
	Race        string    `json:"race"`
	Public      bool      `json:"public"`
	ResolveWhen string    `json:"resolve_when"`
	Created     time.Time `json:"created"`
	// Invite says the race takes its racers by invite: it takes entrants
	// until its host starts it.
	Invite bool `json:"invite"`
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
	// Tokens lists race id's links, revoked ones too, in the order they
	// were made; ErrNotFound for a race not stored.
	Tokens(ctx context.Context, id string) ([]Token, error)
	// AddControl appends a control (store.CheckControl) and returns it as
	// stored, its Seq given. A control whose key race id holds already is
	// not stored again: the stored one is returned, or, if it says
	// something else, an error wrapping ErrExists. A race not stored gives
	// ErrNotFound.
	AddControl(ctx context.Context, c Control) (Control, error)
	// Controls lists race id's controls in the order they were stored
	// (none for a race not stored).
	Controls(ctx context.Context, id string) ([]Control, error)
}

// The kinds of Control.
const (
	// ControlSeat says who plays Seat from now on: Value ControlBot (the
	// game's heuristic bot, run by the service) or ControlBot+":"+NAME (the
	// bot of that name, package bot), ControlPerson (whoever holds the
	// seat's link) or ControlRemoved (no one: the racer was removed, and
	// the game's default for missing orders plays the seat).
	ControlSeat = "seat"
	// ControlHost says who makes the host's settings a game asks for as it
	// goes (party's minigame results): ControlBot or ControlPerson.
	ControlHost = "host"
	// ControlSchedule is the repeating schedule the service sets each new
	// turn's deadline by: Value is its JSON, "" for none.
	ControlSchedule = "schedule"
	// ControlClock pauses the race's deadlines (Value ControlPaused) or
	// starts them again (ControlRunning).
	ControlClock = "clock"
)

// Values of controls.
const (
	ControlBot     = "bot"
	ControlPerson  = "person"
	ControlRemoved = "removed"
	ControlPaused  = "paused"
	ControlRunning = "running"
)

// Control is a host's standing instruction to the service about a race:
// who plays a seat, who makes the host's settings, the repeating schedule,
// a pause. It is not part of the race (what it leads to is: the bot's
// orders, the deadlines it sets are logged like anyone's); controls are
// appended and never changed, and the last of a kind (and seat) stands.
type Control struct {
	Race  string    `json:"race"`
	Seq   int64     `json:"seq"` // given by the store, rising in the order stored
	Kind  string    `json:"kind"`
	Seat  int       `json:"seat"` // ControlSeat: the seat, from 0; any other -1
	Value string    `json:"value"`
	Key   string    `json:"key,omitempty"` // the client's idempotency key, unique in the race
	At    time.Time `json:"at"`
}

// Same says whether c and d say the same thing (a repeat of a keyed write).
func (c Control) Same(d Control) bool {
	return c.Race == d.Race && c.Kind == d.Kind && c.Seat == d.Seat && c.Value == d.Value && c.Key == d.Key
}

// ControlToAdd is c checked (CheckControl) and as a store stores it: its
// time in UTC, as it is read back.
func ControlToAdd(c Control) (Control, error) {
	if err := CheckControl(c); err != nil {
		return c, err
	}
	c.At = c.At.UTC()
	return c, nil
}

// SameControl is what a store answers to a keyed control when the key is
// stored already: *c becomes the stored control if it says the same thing;
// otherwise the answer is an error wrapping ErrExists.
func SameControl(c *Control, stored Control) error {
	if !c.Same(stored) {
		return fmt.Errorf("race %q: the key %q was given already, to another control (%s %s): %w", c.Race, c.Key, stored.Kind, stored.Value, ErrExists)
	}
	*c = stored
	return nil
}

// BotControl is the Value of a control that hands a seat to the bot named
// name: ControlBot for the heuristic one ("" too), as every race before named
// bots stored it.
func BotControl(name string) string {
	if name == "" || name == "heuristic" {
		return ControlBot
	}
	return ControlBot + ":" + name
}

// BotOf is the name of the bot a control's value hands a seat to, and
// whether it hands it to one.
func BotOf(value string) (name string, ok bool) {
	if value == ControlBot {
		return "heuristic", true
	}
	name, ok = strings.CutPrefix(value, ControlBot+":")
	if !ok || name == "" {
		return "", false
	}
	return name, true
}
