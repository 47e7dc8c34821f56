// Package race is the core that every game shares: the Ruleset interface, the
// registry of rulesets, entrants and seats, prompts, orders, events and replay.
//
// A race is its setup (ruleset, configuration, entrants), its seed and the
// ordered log of what was submitted. Everything else (states, events, rolls,
// pictures, posts) is recomputed from that by Replay, so a snapshot is only a
// cache and any race can be audited once its seed is revealed.
package race

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"pitwall/dice"
)

// Config is what the host chooses when a race is created.
type Config struct {
	Track   string            `json:"track"`
	Laps    int               `json:"laps,omitempty"`
	Options map[string]string `json:"options,omitempty"`
}

// MaxLaps is the most laps a race may run.
const MaxLaps = 20

// RaceLaps is the number of laps a race runs: the host's (cfg.Laps), or the
// track's when the host named none; 1 to MaxLaps.
func (cfg Config) RaceLaps(trackDefault int) (int, error) {
	laps := cfg.Laps
	if laps == 0 {
		laps = trackDefault
	}
	if laps < 1 || laps > MaxLaps {
		return 0, fmt.Errorf("laps is 1 to %d; got %d", MaxLaps, laps)
	}
	return laps, nil
}

// TrackAndLaps loads a race's track (def when the host named none) with
// load, and works out its laps: the host's, or the track's own (trackLaps).
func TrackAndLaps[T any](cfg Config, def string, load func(id string) (T, error), trackLaps func(T) int) (T, int, error) {
	id := cfg.Track
	if id == "" {
		id = def
	}
	t, err := load(id)
	if err != nil {
		return t, 0, err
	}
	laps, err := cfg.RaceLaps(trackLaps(t))
	return t, laps, err
}

// CheckLaps checks the laps of a decoded state: 1 to MaxLaps.
func CheckLaps(laps int) error {
	if laps < 1 || laps > MaxLaps {
		return fmt.Errorf("%d laps; a race runs 1 to %d", laps, MaxLaps)
	}
	return nil
}

// Entrant is one participant as entered: a player and the racers they field
// (one or two aurigae in ludi, one car elsewhere), with the ruleset's choices
// (a ludi package and two extra characteristics, a nascar upgrade...).
type Entrant struct {
	Player  string            `json:"player"`
	Racers  []string          `json:"racers"`
	Options map[string]string `json:"options,omitempty"`
}

// Seat is one racer in a race, numbered from 0 in the order Setup gives them.
type Seat struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Name   string `json:"name"`
}

// State is a ruleset's state of one race. It must marshal to JSON
// deterministically: the state hash is the SHA-256 of that JSON.
type State interface {
	Turn() int // the turn to be played next, from 1
	Over() bool
	Seats() []Seat
}

// Hash is the SHA-256 of the state's JSON, in hex.
func Hash(s State) (string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("hashing the state: %w", err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// Submission is one racer's orders for a turn, as received.
type Submission struct {
	Seat int
	Text string
	// InWindow says the host's bonus time window was open when the orders came in.
	// The clock is read outside the ruleset and the answer is logged, so replay is pure.
	InWindow bool
	// At is when the host received the orders, as logged; games played on a
	// calendar (party's phases) judge an order by it, never by the clock.
	At time.Time
}

// Order is a parsed, validated submission. String gives its canonical text.
type Order interface {
	String() string
}

// Prompt says who must act now and what they may do.
type Prompt struct {
	Seat   int      `json:"seat"`
	Name   string   `json:"name"`
	Turn   int      `json:"turn"`
	Orders int      `json:"orders"`          // how many orders this turn takes
	Legal  []string `json:"legal,omitempty"` // the orders allowed now, in the ruleset's notation
	Note   string   `json:"note,omitempty"`  // why the choice is limited, if it is
}

// Event is one thing that happened in a turn, with the story told and the dice behind it.
type Event struct {
	Seat  int         `json:"seat"` // -1 for the race as a whole
	Kind  string      `json:"kind"`
	Text  string      `json:"text"`
	Rolls []dice.Roll `json:"rolls,omitempty"`
}

// Standing is one racer's place.
type Standing struct {
	Place  int    `json:"place"`
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Player string `json:"player"`
	Status string `json:"status"` // racing, finished, out
	Detail string `json:"detail,omitempty"`
}

// Standings lists every racer, first place first.
type Standings []Standing

// TrackInfo names a track that a ruleset ships.
type TrackInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Laps        int    `json:"laps"` // the default
	Seats       int    `json:"seats"`
}

// TrackInfos lists a game's shipped tracks for Game.Tracks, each as info
// tells it, with def, the track of a race that names none, first and the
// others in the order tracks gives them. A game whose tracks cannot be read
// lists none; setting up a race says why.
func TrackInfos[T any](tracks func() ([]T, error), def string, info func(T) TrackInfo) []TrackInfo {
	ts, err := tracks()
	if err != nil {
		return nil
	}
	out := make([]TrackInfo, len(ts))
	for i, t := range ts {
		out[i] = info(t)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID == def && out[j].ID != def })
	return out
}

// Ruleset plays one game. It never does I/O, never reads the clock and never
// uses a global random source: everything comes in through its arguments, so a
// race replays bit for bit.
type Ruleset interface {
	// Game describes the game: its id, tracks, choices and words. It is
	// the same value every time.
	Game() *Game
	Setup(cfg Config, entrants []Entrant, d *dice.Roller) (State, error)
	// Set applies a host's setting for the coming turn (such as the number of orders).
	Set(s State, key, value string) (State, error)
	Prompts(s State) []Prompt
	// ParseOrder reads and validates a submission. The error is an *OrderError.
	ParseOrder(s State, sub Submission) (Order, error)
	DefaultOrder(s State, seat int) Order
	// Resolve plays one turn. It must not change s: it returns a new state.
	// at is the time of the resolve as the host logged it: a game on a
	// calendar (Game.Calendar) moves its calendar on by it, and no game
	// reads the clock, so replay gives the same turn.
	Resolve(s State, orders map[int]Order, d *dice.Roller, at time.Time) (State, []Event, error)
	Standings(s State) Standings
	// DecodeState reads a state marshalled to JSON (a cached snapshot).
	DecodeState(b []byte) (State, error)
}

// ErrorKind tells an order that was not understood from one that is not allowed now.
type ErrorKind int

const (
	Invalid ErrorKind = iota // not understood: bad syntax, unknown word
	Illegal                  // understood, but not allowed in this position
)

// OrderError is a refused order, with a reason a racer can act on.
type OrderError struct {
	Kind   ErrorKind
	Reason string
	// Code is a stable name for what is wrong, for a page to show beside
	// the field; empty, it is the kind's (CodeNotUnderstood, CodeNotAllowed).
	Code string
}

func (e *OrderError) Error() string { return e.Reason }

// The codes of an order refused, when its game names none finer.
const (
	CodeNotUnderstood = "order_not_understood" // Invalid: bad syntax, an unknown word
	CodeNotAllowed    = "order_not_allowed"    // Illegal: understood, not allowed now
)

// KindCode says which of the two kinds the error is: CodeNotUnderstood or
// CodeNotAllowed, whatever its own code.
func (e *OrderError) KindCode() string {
	if e.Kind == Illegal {
		return CodeNotAllowed
	}
	return CodeNotUnderstood
}

// ErrCode is the error's stable code: its own, or its kind's.
func (e *OrderError) ErrCode() string {
	if e.Code != "" {
		return e.Code
	}
	return e.KindCode()
}

// Invalidf makes an error for an order that was not understood.
func Invalidf(format string, a ...any) error {
	return &OrderError{Kind: Invalid, Reason: fmt.Sprintf(format, a...)}
}

// Illegalf makes an error for an order that is understood but not allowed now.
func Illegalf(format string, a ...any) error {
	return &OrderError{Kind: Illegal, Reason: fmt.Sprintf(format, a...)}
}

// NotUnderstood is Invalidf with the game's own code, for a page to show
// beside the order field.
func NotUnderstood(code, format string, a ...any) error {
	return &OrderError{Kind: Invalid, Code: code, Reason: fmt.Sprintf(format, a...)}
}

// NotAllowed is Illegalf with the game's own code.
func NotAllowed(code, format string, a ...any) error {
	return &OrderError{Kind: Illegal, Code: code, Reason: fmt.Sprintf(format, a...)}
}

var registry = map[string]Ruleset{}

// Register makes a ruleset available by its ID. Rulesets register in init.
func Register(r Ruleset) {
	id := r.Game().ID
	if _, dup := registry[id]; dup {
		panic("race: ruleset registered twice: " + id) // a programming error at start-up
	}
	registry[id] = r
}

// Lookup finds a registered ruleset.
func Lookup(id string) (Ruleset, error) {
	if r, ok := registry[id]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("unknown ruleset %q; known: %s", id, strings.Join(IDs(), ", "))
}

// IDs lists the registered rulesets, sorted.
func IDs() []string {
	ids := make([]string, 0, len(registry))
	for id := range registry {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Race is everything that defines a race: replay derives the rest. Entrants
// are those given when the race was created; joins, fixes and withdrawals
// before the start are entries of the log.
type Race struct {
	ID       string    `json:"id"`
	Ruleset  string    `json:"ruleset"`
	Rules    int       `json:"rules"` // the ruleset's version when the race was created
	Config   Config    `json:"config"`
	Entrants []Entrant `json:"entrants"`
	Seed     dice.Seed `json:"-"`
	Created  time.Time `json:"created"`
	Log      []Entry   `json:"log,omitempty"`
}

// ErrTooFew is wrapped by Setup when a race has too few entrants to start;
// a race may be created that way and take entrants before it starts.
var ErrTooFew = errors.New("too few entrants")

// Commitment is the SHA-256 of the seed, public from the start.
func (r *Race) Commitment() string { return r.Seed.Commitment() }

// CheckFinishOrder checks a decoded state's finishing order: each seat in it
// is a racer who finished, listed once, and the finishers number finished.
// racer gives a seat's name and whether it finished (ok false: no such
// seat); noun names the racers in the error ("chariots").
func CheckFinishOrder(order []int, racer func(seat int) (name string, done, ok bool), finished int, noun string) error {
	seen := map[int]bool{}
	for _, seat := range order {
		name, done, ok := racer(seat)
		switch {
		case !ok:
			return fmt.Errorf("seat %d finished, and there is no seat %d", seat, seat)
		case seen[seat]:
			return fmt.Errorf("%s finished twice", name)
		case !done:
			return fmt.Errorf("%s is listed as finished but is not", name)
		}
		seen[seat] = true
	}
	if finished != len(order) {
		return fmt.Errorf("%d %s finished, %d are listed", finished, noun, len(order))
	}
	return nil
}

// DecodeJSON reads a state stored as JSON (what names it in errors: "a
// ludi state"): it unmarshals it, lets the game attach what is not stored
// (its track, from the stored id), and checks it, so that a state the game
// could not have made is refused here, not by a panic in a later turn.
func DecodeJSON[S any, P interface {
	*S
	State
}](what string, b []byte, attach, check func(P) error) (State, error) {
	s := P(new(S))
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	if err := attach(s); err != nil {
		return nil, err
	}
	if err := check(s); err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	return s, nil
}

// SeatsOf lists the seats of a state's racers, in the order given.
func SeatsOf[R any](racers []R, seat func(*R) Seat) []Seat {
	out := make([]Seat, len(racers))
	for i := range racers {
		out[i] = seat(&racers[i])
	}
	return out
}

// BySeat is the racer of racers that sits in seat, or nil when none does;
// seatOf reads a racer's seat.
func BySeat[R any](racers []R, seat int, seatOf func(*R) int) *R {
	for i := range racers {
		if seatOf(&racers[i]) == seat {
			return &racers[i]
		}
	}
	return nil
}

// OrdersAs are a turn's orders as the game's own order type T, each seat's
// as its ParseOrder made it; an order of another type is an error that names
// the seat (a caller's mistake, never a racer's).
func OrdersAs[T Order](game string, orders map[int]Order) (map[int]T, error) {
	out := make(map[int]T, len(orders))
	for seat, o := range orders {
		t, ok := o.(T)
		if !ok {
			return nil, fmt.Errorf("seat %d: not a %s order: %T", seat, game, o)
		}
		out[seat] = t
	}
	return out, nil
}

// ReadOrder reads a submission as every game's ParseOrder does, refusing it
// at the first of three questions: may the seat order at all (orderer: no
// such racer, or one out of the race), is the text an order (parse: an
// Invalid error), and is that order allowed now (judge: an Illegal error,
// else the order as the race will play it). A seat that may not order is
// told so whatever it wrote.
func ReadOrder[R any, O Order](sub Submission, orderer func(seat int) (R, error), parse func(text string) (O, error), judge func(R, O) (O, error)) (Order, error) {
	r, err := orderer(sub.Seat)
	if err != nil {
		return nil, err
	}
	o, err := parse(sub.Text)
	if err != nil {
		return nil, err
	}
	if o, err = judge(r, o); err != nil {
		return nil, err
	}
	return o, nil
}

// Seated is st as the game's own state and the racer of seat, found by
// orderer as ParseOrder finds it (ReadOrder), so that a game's Choices
// refuses a seat as its ParseOrder does. A state of another game, or none,
// is an error naming the game's (what: "a ludi state"): a caller's mistake.
func Seated[S any, P interface {
	*S
	State
}, R any](what string, st State, seat int, orderer func(P, int) (R, error)) (P, R, error) {
	s, ok := st.(P)
	if !ok || s == nil {
		var none R
		return nil, none, fmt.Errorf("not %s", what)
	}
	r, err := orderer(s, seat)
	return s, r, err
}
