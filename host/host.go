// Package host runs races for a host: it creates them, takes orders and
// settings, resolves turns and checks races, on top of a store. It reads the
// clock (for the bonus window) and logs what it read, so that rulesets stay pure.
package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strings"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
)

// Host runs races kept in a store.
type Host struct {
	Store store.Store
	Clock Clock
	live  *live // the races in memory (KeepLive); nil: every call loads
}

// Clock is the host's one source of time: the log's times, the bonus
// window and the schedule's checks all read it, and nothing else does.
type Clock interface{ Now() time.Time }

// ClockFunc is a function as a Clock.
type ClockFunc func() time.Time

// Now implements Clock.
func (f ClockFunc) Now() time.Time { return f() }

// SystemClock is the machine's clock.
var SystemClock Clock = ClockFunc(time.Now)

// New returns a host on st that reads the system clock.
func New(st store.Store) *Host { return &Host{Store: st, Clock: SystemClock} }

// Now is the time to log: UTC, to the microsecond (what every store keeps).
func (h *Host) Now() time.Time { return h.Clock.Now().UTC().Truncate(time.Microsecond) }

// BadInput marks an error in what the user gave (exit status 2 on the command line).
type BadInput struct{ Err error }

func (e *BadInput) Error() string { return e.Err.Error() }
func (e *BadInput) Unwrap() error { return e.Err }

func bad(err error) error { return &BadInput{Err: err} }

func badf(format string, a ...any) error { return bad(fmt.Errorf(format, a...)) }

// IsBadInput says whether err is the user's input being refused.
func IsBadInput(err error) bool {
	var b *BadInput
	var oe *race.OrderError
	return errors.As(err, &b) || errors.As(err, &oe) || errors.Is(err, store.ErrNotFound) ||
		errors.Is(err, store.ErrExists) || errors.Is(err, race.ErrOver) || errors.Is(err, ErrClosed)
}

// Code is err's stable code, for a program or a page to act on: an order's
// own (race.OrderError.ErrCode), or one of turn_closed, race_forming,
// race_over, no_such_race, race_exists, bad_input; "" for an error that is
// not the user's (the store failing).
func Code(err error) string {
	var oe *race.OrderError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &oe):
		return oe.ErrCode()
	case errors.Is(err, ErrClosed):
		return "turn_closed"
	case errors.Is(err, ErrForming):
		return "race_forming"
	case errors.Is(err, race.ErrOver):
		return "race_over"
	case errors.Is(err, store.ErrNotFound):
		return "no_such_race"
	case errors.Is(err, store.ErrExists):
		return "race_exists"
	case IsBadInput(err):
		return "bad_input"
	}
	return ""
}

// ErrClosed is wrapped by a write for a turn that has been resolved.
var ErrClosed = errors.New("that turn has closed")

// kindOf is an error of a kind (errors.Is finds it) whose message says it all.
type kindOf struct {
	msg  string
	kind error
}

func (e *kindOf) Error() string { return e.msg }
func (e *kindOf) Unwrap() error { return e.kind }

// Req says what a write is for. Turn is the turn it names; 0 means the turn
// open when the write is first tried, and a retry keeps that turn, so a
// write never moves to another turn. Key is the client's key: a write
// repeated with it stores nothing more and gives back what the first stored.
type Req struct {
	Turn int
	Key  string
}

// NewRace creates a race. With no seed, the seed comes from crypto/rand; a
// given seed is for tests and demos. With no entrants the race is forming and
// takes entrants with Join until its first order.
func (h *Host) NewRace(ctx context.Context, ruleset, id string, cfg race.Config, entrants []race.Entrant, seed *dice.Seed) (*race.Race, error) {
	p, err := h.Prepare(ruleset, id, cfg, entrants, seed)
	if err != nil {
		return nil, err
	}
	r := p.Race
	if err := h.Store.Create(ctx, r); err != nil {
		if errors.Is(err, store.ErrExists) {
			return nil, bad(fmt.Errorf("a race called %q exists already; choose another --id", id))
		}
		return nil, err
	}
	return r, nil
}

// Prepare is NewRace without storing the race: the race checked and ready
// to store (p.Race; the service stores it together with its links), set up
// when it has enough entrants (p.Started), so its seats are known.
func (h *Host) Prepare(ruleset, id string, cfg race.Config, entrants []race.Entrant, seed *dice.Seed) (*race.Played, error) {
	rs, err := race.Lookup(ruleset)
	if err != nil {
		return nil, bad(err)
	}
	if cfg.Track == "" { // the game's first track, written down so the race says where it runs
		if ts := rs.Game().Tracks; len(ts) > 0 {
			cfg.Track = ts[0].ID
		}
	}
	s := dice.Seed{}
	if seed != nil {
		s = *seed
	} else if s, err = dice.NewSeed(); err != nil {
		return nil, err
	}
	if id == "" {
		var b [3]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		id = ruleset + "-" + hex.EncodeToString(b[:])
	}
	if err := checkID(id); err != nil {
		return nil, bad(err)
	}
	for _, e := range entrants {
		if err := race.CheckEntrant(e); err != nil {
			return nil, bad(err)
		}
	}
	r := &race.Race{ID: id, Ruleset: ruleset, Rules: rs.Game().Version, Config: cfg, Entrants: entrants, Seed: s, Created: h.Now()}
	return check(rs, r, entrants)
}

// check sets the race up with entrants to see that its configuration and
// entrants hold, and returns it; too few entrants is fine while the race is
// forming.
func check(rs race.Ruleset, r *race.Race, entrants []race.Entrant) (*race.Played, error) {
	p := race.Begin(rs, r)
	p.Entrants = entrants
	if err := p.SetUp(); err != nil && !errors.Is(err, race.ErrTooFew) {
		return nil, bad(err)
	}
	return p, nil
}

func checkID(id string) error {
	if len(id) > 64 {
		return fmt.Errorf("a race id is at most 64 characters; got %d", len(id))
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("a race id uses letters, digits, '-', '_' and '.'; %q has %q", id, r)
		}
	}
	return nil
}

// ErrForming is wrapped by Load for a race that has too few entrants to start.
var ErrForming = errors.New("the race is still taking entrants")

// Load is the race as it stands: resumed from the record of its last turn,
// with only the entries after it replayed.
func (h *Host) Load(ctx context.Context, id string) (*race.Played, error) {
	if h.live == nil {
		return h.load(ctx, id, -1)
	}
	// A race in memory may hold entries on their way to the store: what is
	// answered waits for them, and is read again should one have failed.
	for try := 0; ; try++ {
		l, err := h.lease(ctx, id, started)
		if err != nil {
			return nil, err
		}
		p, w := l.own(), l.queued()
		l.release()
		if err := l.wait(w); err == nil {
			return p, nil
		} else if try == 3 {
			return nil, fmt.Errorf("race %s: the race's latest entries failed to be stored; try again: %w", id, err)
		}
	}
}

// LoadAt is the race after turn n (0: the start), holding turn n itself as
// it was resolved; when n is the last turn, it is the race as it stands
// (otherwise Past is set).
func (h *Host) LoadAt(ctx context.Context, id string, n int) (*race.Played, error) {
	if n < 0 {
		return nil, badf("a turn is 0 (the start) or more; got %d", n)
	}
	if n > 0 {
		return h.load(ctx, id, n)
	}
	r, rs, err := h.loadWhole(ctx, id)
	if err != nil {
		return nil, err
	}
	// The start needs only the entries before the first turn's play.
	cut := len(r.Log)
	for i, e := range r.Log {
		if !e.IsEntrant() && e.Kind != race.EntrySchedule {
			cut = i
			break
		}
	}
	all := len(r.Log)
	r.Log = r.Log[:cut]
	p, err := replay(rs, r)
	if err != nil {
		return nil, err
	}
	p.Past = cut < all
	return p, nil
}

func rulesetOf(r *race.Race) (race.Ruleset, error) {
	rs, err := race.Lookup(r.Ruleset)
	if err != nil {
		return nil, fmt.Errorf("race %s: %w", r.ID, err)
	}
	return rs, nil
}

// loadWhole is race id with its whole log, and its ruleset.
func (h *Host) loadWhole(ctx context.Context, id string) (*race.Race, race.Ruleset, error) {
	r, err := h.Store.Load(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	rs, err := rulesetOf(r)
	if err != nil {
		return nil, nil, err
	}
	return r, rs, nil
}

func (h *Host) load(ctx context.Context, id string, n int) (*race.Played, error) {
	r, rec, err := h.Store.Resume(ctx, id, n)
	if err != nil {
		return nil, err
	}
	rs, err := rulesetOf(r)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return replay(rs, r)
	}
	past := false
	if n > 0 {
		// A past turn: its record, not a replay under today's rules.
		for _, e := range r.Log[1:] {
			if e.Kind == race.EntryResolve {
				r.Log, past = r.Log[:1], true
				break
			}
		}
	}
	p, err := race.Resume(rs, r, rec)
	if err != nil {
		return nil, fmt.Errorf("race %s: %w", id, err)
	}
	p.Past = past
	return p, nil
}

// replay plays a race from its setup: one with too few entrants is forming.
// A race created under other rules voids the pending entries these refuse.
func replay(rs race.Ruleset, r *race.Race) (*race.Played, error) {
	p := race.Begin(rs, r)
	p.Lenient = r.Rules != rs.Game().Version
	err := p.ApplyAll(r.Log)
	if err == nil {
		err = p.SetUp()
	}
	if errors.Is(err, race.ErrTooFew) {
		why := strings.TrimPrefix(err.Error(), race.ErrTooFew.Error()+": ")
		return nil, bad(&kindOf{fmt.Sprintf("race %s is still forming (%s): add entrants with 'pitwall race join %s'", r.ID, why, r.ID), ErrForming})
	}
	if err != nil {
		return nil, fmt.Errorf("race %s: %w", r.ID, err)
	}
	return p, nil
}

// retry runs fn again, on a fresh load, when another writer appended to the
// race's log first: nothing was stored, so trying again is safe. fn keeps
// the turn it first read, so a retry never moves to another turn.
func retry[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	var v T
	var err error
	for i := 0; i < 400; i++ { // eight writers on one turn and a resolve still get in
		if v, err = fn(); !errors.Is(err, store.ErrConflict) {
			return v, err
		}
		if i > 8 { // many writers at once: step aside for a moment
			select {
			case <-ctx.Done():
				return v, ctx.Err()
			case <-time.After(time.Duration(mrand.N(int64(5*time.Millisecond)) + int64(time.Millisecond))):
			}
		}
	}
	return v, fmt.Errorf("the race's log kept moving on while this write was tried 400 times; try again: %w", err)
}

// pin fixes the turn a write is for in turn, on the write's first try: the
// turn the request names (want), or the one open now; a retry keeps the
// turn the first try fixed. A turn already played is closed; one not yet
// open is bad input.
func pin(p *race.Played, turn *int, want int, what string) error {
	open := p.Turn()
	if *turn == 0 {
		*turn = want
		if want == 0 {
			*turn = open
		}
	}
	switch {
	case *turn < open:
		return bad(&kindOf{fmt.Sprintf("turn %d has closed (it has been resolved); turn %d is open", *turn, open), ErrClosed})
	case *turn > open:
		return badf("turn %d is not open yet; %s is for turn %d, the one open now", *turn, what, open)
	case p.Started && p.State.Over():
		return bad(&kindOf{fmt.Sprintf("race %s is over", p.Race.ID), race.ErrOver})
	}
	return nil
}

// repeated looks a client key up: the entry stored with it, if any, which
// must be of the same kind (and seat, and text when the request knows it
// before it is stored) as the request repeating it.
func repeated(ctx context.Context, l *lease, key, kind string, seat int, text string) (*race.Entry, error) {
	if key == "" {
		return nil, nil
	}
	if len(key) > MaxKey {
		return nil, badf("a key is at most %d characters; got %d", MaxKey, len(key))
	}
	e, err := l.keyed(ctx, key)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, nil
	}
	if e.Kind != kind || (kind == race.EntryOrder || kind == race.EntryReady) && e.Seat != seat || text != "" && e.Text != text {
		return nil, badf("key %q was used for another request (entry %d, %s for turn %d); a key names one request", key, e.Seq, e.Kind, e.Turn)
	}
	return e, nil
}

// write runs one keyed, turn-addressed write on race id, taken as mode
// says: a repeat of the key gives what was stored; a conflict with another
// writer tries again on a fresh load. text is the entry's text when the
// request gives it as stored ("" when it is worked out in try): a key
// repeated with another text is refused.
func write[T any](ctx context.Context, h *Host, id string, mode int, q Req, kind string, seat int, text string,
	again func(l *lease, e *race.Entry) (T, error), try func(l *lease) (T, error)) (T, error) {
	var zero T
	// What every store keeps as it is, so that no store refuses it later.
	if err := errors.Join(store.CheckText("the key", q.Key), store.CheckText("the text", text)); err != nil {
		return zero, bad(err)
	}
	return retry(ctx, func() (T, error) {
		l, err := h.lease(ctx, id, mode)
		if err != nil {
			return zero, err
		}
		e, err := repeated(ctx, l, q.Key, kind, seat, text)
		var v T
		switch {
		case err != nil:
		case e != nil:
			v, err = again(l, e)
		default:
			v, err = try(l)
		}
		if errors.Is(err, store.ErrDuplicateKey) || err != nil && !errors.Is(err, store.ErrConflict) && l.behind(ctx) {
			err = store.ErrConflict // the key landed meanwhile, or memory was behind: the next try sees the log
		}
		// The answer waits, with the race let go, for what it was worked out
		// on to be stored: its own entry, and those queued before it.
		w := l.queued()
		l.release()
		if werr := l.wait(w); werr != nil {
			return zero, werr
		}
		return v, err
	})
}

// MaxKey is the longest client key, in bytes.
const MaxKey = 128

// Ack is what a stored order says back.
type Ack struct {
	Race   string `json:"race"`
	Turn   int    `json:"turn"` // the turn the order was stored for
	Seat   int    `json:"-"`    // from 0
	Racer  string `json:"racer"`
	Orders string `json:"orders"` // the orders as the rules read them
	Entry  int    `json:"entry"`  // the log entry
	Repeat bool   `json:"repeat,omitempty"`
}

// Submit checks a racer's orders for the turn q names and stores them; it
// returns what was stored. A refused order changes nothing.
func (h *Host) Submit(ctx context.Context, id string, seat int, text string, q Req) (Ack, error) {
	var turn int // the turn the write is for, fixed on its first try
	again := func(l *lease, e *race.Entry) (Ack, error) {
		p := l.p
		a := Ack{Race: id, Turn: e.Turn, Seat: e.Seat, Racer: racerOf(p, e.Seat), Orders: e.Text, Entry: e.Seq, Repeat: true}
		if e.Turn == p.Turn() && p.PendingAt[e.Seat] == e.Seq {
			a.Orders = p.Pending[e.Seat].String()
		}
		return a, nil
	}
	return write(ctx, h, id, started, q, race.EntryOrder, seat, text, again, func(l *lease) (Ack, error) {
		p := l.p
		if err := pin(p, &turn, q.Turn, "an order"); err != nil {
			return Ack{}, err
		}
		now := h.Now()
		in := p.Schedule.InWindow(now)
		o, err := p.Check(race.Submission{Seat: seat, Text: text, InWindow: in, At: now})
		if err != nil {
			return Ack{}, bad(err)
		}
		e, err := h.appendEntry(ctx, l, race.Entry{Kind: race.EntryOrder, Turn: turn, Seat: seat, Text: text, InWindow: in, At: now, Key: q.Key}, nil)
		if err != nil {
			return Ack{}, err
		}
		return Ack{Race: id, Turn: e.Turn, Seat: seat, Racer: racerOf(p, seat), Orders: o.String(), Entry: e.Seq}, nil
	})
}

func racerOf(p *race.Played, seat int) string {
	if p.Started {
		for _, s := range p.State.Seats() {
			if s.Seat == seat {
				return s.Name
			}
		}
	}
	return fmt.Sprint("seat ", seat+1)
}

// Set applies a host's setting (KEY=VALUE) for the turn q names and returns that turn.
func (h *Host) Set(ctx context.Context, id, key, value string, q Req) (int, error) {
	var turn int // the turn the write is for, fixed on its first try
	again := func(_ *lease, e *race.Entry) (int, error) { return e.Turn, nil }
	return write(ctx, h, id, started, q, race.EntrySet, -1, key+"="+value, again, func(l *lease) (int, error) {
		p := l.p
		if err := pin(p, &turn, q.Turn, "a setting"); err != nil {
			return 0, err
		}
		if err := p.CheckSetting(key, value); err != nil { // started: the lease set the race up
			return 0, bad(err)
		}
		e, err := h.appendEntry(ctx, l, race.Entry{Kind: race.EntrySet, Turn: turn, Seat: -1, Text: key + "=" + value, At: h.Now(), Key: q.Key}, nil)
		return e.Turn, err
	})
}

// Ready marks a racer done with the turn q names (ready true), or not after
// all (false), and returns that turn. A mark changes no orders; it tells the
// host, the other racers and a service that resolves once everyone is
// ready.
func (h *Host) Ready(ctx context.Context, id string, seat int, ready bool, q Req) (int, error) {
	text := "no"
	if ready {
		text = "yes"
	}
	var turn int // the turn the write is for, fixed on its first try
	again := func(_ *lease, e *race.Entry) (int, error) { return e.Turn, nil }
	return write(ctx, h, id, started, q, race.EntryReady, seat, text, again, func(l *lease) (int, error) {
		p := l.p
		if err := pin(p, &turn, q.Turn, "a ready mark"); err != nil {
			return 0, err
		}
		if err := p.CheckReady(seat, text); err != nil {
			return 0, bad(err)
		}
		e, err := h.appendEntry(ctx, l, race.Entry{Kind: race.EntryReady, Turn: turn, Seat: seat, Text: text, At: h.Now(), Key: q.Key}, nil)
		return e.Turn, err
	})
}

// Schedule sets the deadline and bonus window of the turn q names: the
// fields given replace those set before for that turn. A time already past
// is refused. It returns the turn and its schedule as stored.
func (h *Host) Schedule(ctx context.Context, id string, change race.Schedule, q Req) (int, race.Schedule, error) {
	return h.schedule(ctx, id, q, func(race.Schedule) (race.Schedule, error) { return change, nil })
}

// Extend moves the deadline of the turn q names later by d, and returns the
// turn and its schedule as stored. The turn must have a deadline.
func (h *Host) Extend(ctx context.Context, id string, d time.Duration, q Req) (int, race.Schedule, error) {
	if d <= 0 {
		return 0, race.Schedule{}, badf("a deadline is extended by a time to come, such as 24h; not %s", d)
	}
	return h.schedule(ctx, id, q, func(now race.Schedule) (race.Schedule, error) {
		if now.Deadline == nil {
			return race.Schedule{}, badf("the turn has no deadline to extend; set one")
		}
		t := now.Deadline.Add(d)
		return race.Schedule{Deadline: &t}, nil
	})
}

// schedule stores a schedule entry for the turn q names: change gives the
// fields to replace from the turn's schedule as it stands.
func (h *Host) schedule(ctx context.Context, id string, q Req, change func(race.Schedule) (race.Schedule, error)) (int, race.Schedule, error) {
	type out struct {
		turn int
		s    race.Schedule
	}
	var turn int // the turn the write is for, fixed on its first try
	again := func(_ *lease, e *race.Entry) (out, error) {
		s, err := race.ParseSchedule(e.Text)
		return out{e.Turn, s}, err
	}
	// A race still forming takes the schedule of turn 1.
	o, err := write(ctx, h, id, either, q, race.EntrySchedule, -1, "", again, func(l *lease) (out, error) {
		p := l.p
		if err := pin(p, &turn, q.Turn, "a schedule"); err != nil {
			return out{}, err
		}
		now := h.Now()
		s := p.Schedule
		change, err := change(s)
		if err != nil {
			return out{}, err
		}
		for _, f := range []struct {
			name     string
			from, to **time.Time
		}{{"deadline", &change.Deadline, &s.Deadline}, {"window opening", &change.WindowOpen, &s.WindowOpen}, {"window closing", &change.WindowClose, &s.WindowClose}} {
			if *f.from == nil {
				continue
			}
			t := (*f.from).UTC().Truncate(time.Microsecond)
			if t.Year() > 9999 { // RFC 3339, and so a schedule entry, has four digits for the year
				return out{}, badf("the %s %s is after the year 9999; give a time before it", f.name, t.Format(time.RFC3339))
			}
			if f.name != "window opening" && !t.After(now) {
				return out{}, badf("the %s %s has passed (it is %s now); give a time to come", f.name, t.Format(time.RFC3339), now.Format(time.RFC3339))
			}
			*f.to = &t
		}
		text := s.Text()
		if _, err := race.ParseSchedule(text); err != nil {
			return out{}, bad(err)
		}
		e, err := h.appendEntry(ctx, l, race.Entry{Kind: race.EntrySchedule, Turn: turn, Seat: -1, Text: text, At: now, Key: q.Key}, nil)
		return out{e.Turn, s}, err
	})
	return o.turn, o.s, err
}

// Forming is a race that may still be taking entrants: its log followed
// without setting it up (Entrants, Head and Started are what it has).
func (h *Host) Forming(ctx context.Context, id string) (*race.Played, error) {
	r, rs, err := h.loadWhole(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := race.Follow(rs, r)
	if err != nil {
		return nil, fmt.Errorf("race %s: %w", id, err)
	}
	return p, nil
}

// Join adds an entrant to a race that has not started, as one append: many
// joins at once all land. It returns the entrants as they stand after it.
func (h *Host) Join(ctx context.Context, id string, e race.Entrant, q Req) ([]race.Entrant, error) {
	es, _, err := h.Enter(ctx, id, e, q)
	return es, err
}

// Enter is Join that also says whether the join was stored before, with
// q's key (nothing was stored now).
func (h *Host) Enter(ctx context.Context, id string, e race.Entrant, q Req) ([]race.Entrant, bool, error) {
	return h.entrant(ctx, id, race.EntryJoin, race.EntrantText(e), q, &e)
}

// Fix replaces the choices of an entrant (found by the player's name) before the start.
func (h *Host) Fix(ctx context.Context, id string, e race.Entrant, q Req) ([]race.Entrant, error) {
	es, _, err := h.entrant(ctx, id, race.EntryFix, race.EntrantText(e), q, &e)
	return es, err
}

// Withdraw removes an entrant (by the player's name) before the start.
func (h *Host) Withdraw(ctx context.Context, id, player string, q Req) ([]race.Entrant, error) {
	es, _, err := h.entrant(ctx, id, race.EntryWithdraw, player, q, nil)
	return es, err
}

// ErrStarted is wrapped by a change of entrants once the race has started.
var ErrStarted = race.ErrStarted

// ErrNameTaken is wrapped by a join or fix that names a racer another
// entrant's racer is called already: a racer's name says which seat it
// holds (orders on the command line, a link made before the start).
var ErrNameTaken = errors.New("that racer's name is taken")

func (h *Host) entrant(ctx context.Context, id, kind, text string, q Req, e *race.Entrant) ([]race.Entrant, bool, error) {
	if e != nil {
		if err := race.CheckEntrant(*e); err != nil {
			return nil, false, bad(err)
		}
	}
	type out struct {
		es     []race.Entrant
		repeat bool
	}
	again := func(l *lease, _ *race.Entry) (out, error) { return out{l.p.Entrants, true}, nil }
	o, err := write(ctx, h, id, whole, q, kind, -1, text, again, func(l *lease) (out, error) {
		p := l.p
		if p.Started {
			return out{}, bad(&kindOf{fmt.Sprintf("race %s has started (turn %d is open): its entrants are fixed", id, p.Turn()), ErrStarted})
		}
		if e != nil {
			// the game's schema first: its errors name the choices a form offers
			if err := p.Ruleset.Game().CheckEntrant(*e); err != nil {
				return out{}, bad(err)
			}
			if err := namesFree(p.Entrants, *e); err != nil {
				return out{}, err
			}
			if kind == race.EntryJoin {
				for _, x := range p.Entrants {
					if strings.EqualFold(x.Player, e.Player) {
						return out{}, bad(&kindOf{fmt.Sprintf("a player called %q has joined already; give another name (a host changes an entry with 'pitwall race fix')", x.Player), ErrNameTaken})
					}
				}
			}
		}
		entry := race.Entry{Kind: kind, Turn: 0, Seat: -1, Text: text, At: h.Now(), Key: q.Key}
		es, err := race.ApplyEntrant(p.Entrants, entry)
		if err != nil {
			return out{}, bad(err)
		}
		if _, err := check(p.Ruleset, p.Race, es); err != nil {
			return out{}, err
		}
		if _, err := h.appendEntry(ctx, l, entry, nil); err != nil {
			return out{}, err
		}
		return out{es: es}, nil
	})
	return o.es, o.repeat, err
}

// namesFree refuses an entrant whose racers' names are another entrant's
// racers' (letter case aside) or one another's.
func namesFree(es []race.Entrant, e race.Entrant) error {
	for i, name := range e.Racers {
		for _, other := range e.Racers[:i] {
			if strings.EqualFold(name, other) {
				return bad(&kindOf{fmt.Sprintf("%s names two racers %q; each racer has a name of its own", e.Player, name), ErrNameTaken})
			}
		}
		for _, x := range es {
			if strings.EqualFold(x.Player, e.Player) {
				continue // the entrant itself, fixed (a join is refused as a second join)
			}
			for _, other := range x.Racers {
				if strings.EqualFold(name, other) {
					return bad(&kindOf{fmt.Sprintf("a racer called %q is in the race already (%s's); choose another name", other, x.Player), ErrNameTaken})
				}
			}
		}
	}
	return nil
}

// Start sets race id up in its log, so that it takes no more entrants (a
// start entry for turn 1; a race also starts with its first order). It
// says whether it started the race now: false for a race started before,
// or a start repeated with its key. Too few entrants is refused with the
// game's reason (ErrForming).
func (h *Host) Start(ctx context.Context, id string, q Req) (bool, error) {
	again := func(*lease, *race.Entry) (bool, error) { return false, nil }
	return write(ctx, h, id, whole, q, race.EntryStart, -1, "", again, func(l *lease) (bool, error) {
		p := l.p
		if p.Started {
			return false, nil
		}
		try := race.Begin(p.Ruleset, p.Race)
		try.Entrants = p.Entrants
		if err := try.SetUp(); err != nil {
			why := strings.TrimPrefix(err.Error(), race.ErrTooFew.Error()+": ")
			if errors.Is(err, race.ErrTooFew) {
				return false, bad(&kindOf{fmt.Sprintf("race %s cannot start yet: %s", id, why), ErrForming})
			}
			return false, bad(err)
		}
		if _, err := h.appendEntry(ctx, l, race.Entry{Kind: race.EntryStart, Turn: 1, Seat: -1, At: h.Now(), Key: q.Key}, nil); err != nil {
			return false, err
		}
		return true, nil
	})
}

// Resolution is what a resolve did.
type Resolution struct {
	Race     *race.Played // the race after it
	Turn     int          // the turn named
	Resolved bool         // false: that turn had been resolved before; nothing was done now
	Played   race.Turn    // the turn played, when Resolved
}

// Resolve plays the turn q names (missed orders take the default) and stores
// it. Any number of resolves of one turn, at once or one after another, play
// it once: the others resolve nothing and say so.
func (h *Host) Resolve(ctx context.Context, id string, q Req) (Resolution, error) {
	var turn int // the turn the write is for, fixed on its first try
	again := func(l *lease, e *race.Entry) (Resolution, error) {
		return Resolution{Race: l.own(), Turn: e.Turn}, nil
	}
	return write(ctx, h, id, started, q, race.EntryResolve, -1, "", again, func(l *lease) (Resolution, error) {
		p := l.p
		if err := pin(p, &turn, q.Turn, "a resolve"); err != nil {
			if errors.Is(err, ErrClosed) {
				return Resolution{Race: l.own(), Turn: turn}, nil
			}
			if errors.Is(err, race.ErrOver) {
				return Resolution{}, bad(&kindOf{fmt.Sprintf("race %s is over: nothing to resolve", id), race.ErrOver})
			}
			return Resolution{}, err
		}
		now := h.Now()
		l.changing()
		t, err := p.NextTurn(now)
		if err != nil {
			return Resolution{}, err
		}
		rec, err := t.Record(now)
		if err != nil {
			return Resolution{}, err
		}
		if _, err := h.appendEntry(ctx, l, race.Entry{Kind: race.EntryResolve, Turn: t.Turn, Seat: -1, At: now, Key: q.Key}, &rec); err != nil {
			return Resolution{}, err
		}
		return Resolution{Race: l.own(), Turn: t.Turn, Resolved: true, Played: t}, nil
	})
}
