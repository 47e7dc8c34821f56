// Package host runs races for a host: it creates them, takes orders and
// settings, resolves turns and checks races, on top of a store. It reads the
// clock (for the bonus window) and logs what it read, so that rulesets stay pure.
package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
)

// Host runs races kept in a store.
type Host struct {
	Store store.Store
	Now   func() time.Time
}

// New returns a host on st that reads the system clock.
func New(st store.Store) *Host { return &Host{Store: st, Now: time.Now} }

// BadInput marks an error in what the user gave (exit status 2 on the command line).
type BadInput struct{ Err error }

func (e *BadInput) Error() string { return e.Err.Error() }
func (e *BadInput) Unwrap() error { return e.Err }

func bad(err error) error { return &BadInput{Err: err} }

// IsBadInput says whether err is the user's input being refused.
func IsBadInput(err error) bool {
	var b *BadInput
	var oe *race.OrderError
	return errors.As(err, &b) || errors.As(err, &oe) || errors.Is(err, store.ErrNotFound) ||
		errors.Is(err, store.ErrExists) || errors.Is(err, race.ErrOver)
}

// NewRace creates a race. With no seed, the seed comes from crypto/rand; a
// given seed is for tests and demos. With no entrants the race is forming and
// takes entrants with Join until its first order.
func (h *Host) NewRace(ctx context.Context, ruleset, id string, cfg race.Config, entrants []race.Entrant, seed *dice.Seed) (*race.Race, error) {
	rs, err := race.Lookup(ruleset)
	if err != nil {
		return nil, bad(err)
	}
	if cfg.Track == "" { // the game's first track, written down so the race says where it runs
		if ts := rs.Tracks(); len(ts) > 0 {
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
	r := &race.Race{ID: id, Ruleset: ruleset, Config: cfg, Entrants: entrants, Seed: s, Created: h.Now().UTC()}
	if err := check(rs, r); err != nil {
		return nil, err
	}
	if err := h.Store.Create(ctx, r); err != nil {
		if errors.Is(err, store.ErrExists) {
			return nil, bad(fmt.Errorf("a race called %q exists already; choose another --id", id))
		}
		return nil, err
	}
	return r, nil
}

// check sets the race up to see that its configuration and entrants hold; too
// few entrants is fine while the race is forming.
func check(rs race.Ruleset, r *race.Race) error {
	if _, err := race.Start(rs, r); err != nil && !errors.Is(err, race.ErrTooFew) {
		return bad(err)
	}
	return nil
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

// Join adds an entrant to a race that has not started.
func (h *Host) Join(ctx context.Context, id string, e race.Entrant) (*race.Race, error) {
	r, err := h.Store.Load(ctx, id)
	if err != nil {
		return nil, bad(err)
	}
	if len(r.Log) > 0 {
		return nil, bad(fmt.Errorf("race %s has started (its log has %d entries): entrants are fixed", id, len(r.Log)))
	}
	rs, err := race.Lookup(r.Ruleset)
	if err != nil {
		return nil, err
	}
	r.Entrants = append(slices.Clone(r.Entrants), e)
	if err := check(rs, r); err != nil {
		return nil, err
	}
	if err := h.Store.SetEntrants(ctx, id, r.Entrants); err != nil {
		return nil, err
	}
	return r, nil
}

// Load replays a race from its log.
func (h *Host) Load(ctx context.Context, id string) (*race.Played, error) {
	r, err := h.Store.Load(ctx, id)
	if err != nil {
		return nil, bad(err)
	}
	rs, err := race.Lookup(r.Ruleset)
	if err != nil {
		return nil, err
	}
	if _, err := race.Start(rs, r); errors.Is(err, race.ErrTooFew) {
		why := strings.TrimPrefix(err.Error(), race.ErrTooFew.Error()+": ")
		return nil, bad(fmt.Errorf("race %s is still forming (%s): add entrants with 'pitwall race join %s': %w", id, why, id, ErrForming))
	}
	p, err := race.Replay(rs, r)
	if err != nil {
		return nil, fmt.Errorf("race %s: %w", id, err)
	}
	return p, nil
}

// ErrForming is wrapped by Load for a race that has too few entrants to start.
var ErrForming = errors.New("the race is still taking entrants")

// retry runs fn again, on a fresh load, when another writer appended to the
// race's log first: nothing was stored, so trying again is safe.
func retry[T any](fn func() (T, error)) (T, error) {
	var v T
	var err error
	for i := 0; i < 20; i++ { // a full grid of racers at once still gets in
		if v, err = fn(); !errors.Is(err, store.ErrConflict) {
			return v, err
		}
	}
	return v, err
}

// Submit validates a racer's orders and, once they are stored, returns them.
// A refused order changes nothing.
func (h *Host) Submit(ctx context.Context, id string, seat int, text string) (race.Order, error) {
	return retry(func() (race.Order, error) { return h.submit(ctx, id, seat, text) })
}

func (h *Host) submit(ctx context.Context, id string, seat int, text string) (race.Order, error) {
	p, err := h.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	now := h.Now().UTC()
	in := p.Race.Schedule.InWindow(now)
	o, err := p.Check(race.Submission{Seat: seat, Text: text, InWindow: in, At: now})
	if err != nil {
		return nil, bad(err)
	}
	e := race.Entry{Seq: len(p.Race.Log) + 1, Kind: race.EntryOrder, Turn: p.State.Turn(), Seat: seat, Text: text, InWindow: in, At: now}
	if err := h.Store.Append(ctx, id, e, nil); err != nil {
		return nil, err
	}
	return o, nil
}

// Set applies a host's setting (KEY=VALUE) for the coming turn.
func (h *Host) Set(ctx context.Context, id, key, value string) error {
	_, err := retry(func() (struct{}, error) { return struct{}{}, h.set(ctx, id, key, value) })
	return err
}

func (h *Host) set(ctx context.Context, id, key, value string) error {
	p, err := h.Load(ctx, id)
	if err != nil {
		return err
	}
	if err := p.CheckSetting(key, value); err != nil {
		return bad(err)
	}
	e := race.Entry{Seq: len(p.Race.Log) + 1, Kind: race.EntrySet, Turn: p.State.Turn(), Seat: -1, Text: key + "=" + value, At: h.Now().UTC()}
	return h.Store.Append(ctx, id, e, nil)
}

// Schedule sets the next deadline and bonus window.
func (h *Host) Schedule(ctx context.Context, id string, s race.Schedule) error {
	if s.WindowOpen != nil && s.WindowClose != nil && !s.WindowClose.After(*s.WindowOpen) {
		return bad(fmt.Errorf("the bonus window closes (%s) before it opens (%s)", s.WindowClose.Format(time.RFC3339), s.WindowOpen.Format(time.RFC3339)))
	}
	if (s.WindowOpen == nil) != (s.WindowClose == nil) {
		return bad(errors.New("a bonus window needs both its opening and its closing time"))
	}
	if _, err := h.Store.Load(ctx, id); err != nil {
		return bad(err)
	}
	return h.Store.SetSchedule(ctx, id, s)
}

// Resolve plays the current turn (missed orders take the default) and stores it.
func (h *Host) Resolve(ctx context.Context, id string) (*race.Played, race.Turn, error) {
	type result struct {
		p *race.Played
		t race.Turn
	}
	r, err := retry(func() (result, error) {
		p, t, err := h.resolve(ctx, id)
		return result{p, t}, err
	})
	return r.p, r.t, err
}

func (h *Host) resolve(ctx context.Context, id string) (*race.Played, race.Turn, error) {
	p, err := h.Load(ctx, id)
	if err != nil {
		return nil, race.Turn{}, err
	}
	now := h.Now().UTC()
	e := race.Entry{Seq: len(p.Race.Log) + 1, Kind: race.EntryResolve, Turn: p.State.Turn(), Seat: -1, At: now}
	t, err := p.NextTurn(now)
	if err != nil {
		if errors.Is(err, race.ErrOver) {
			return nil, race.Turn{}, bad(fmt.Errorf("race %s is over: nothing to resolve", id))
		}
		return nil, race.Turn{}, err
	}
	snap, err := json.Marshal(t.After)
	if err != nil {
		return nil, race.Turn{}, err
	}
	saved := &store.SavedTurn{Turn: t.Turn, Hash: t.Hash, Rolls: t.Rolls, DiceState: t.DiceState, State: snap, At: now}
	if err := h.Store.Append(ctx, id, e, saved); err != nil {
		return nil, race.Turn{}, err
	}
	p.Race.Log = append(p.Race.Log, e)
	return p, t, nil
}

// Report is what verify found.
type Report struct {
	Race       string   `json:"race"`
	OK         bool     `json:"ok"`
	Turns      int      `json:"turns"`
	Rolls      int      `json:"rolls"`
	Commitment string   `json:"commitment"`
	Seed       string   `json:"seed,omitempty"` // revealed once the race is over
	Over       bool     `json:"over"`
	Problems   []string `json:"problems,omitempty"`
}

// Verify replays a race from its seed and log and checks every roll and state
// hash against what was recorded when each turn was resolved, and the seed
// against the commitment published at the start.
func (h *Host) Verify(ctx context.Context, id string) (Report, error) {
	rep := Report{Race: id}
	r, err := h.Store.Load(ctx, id)
	if err != nil {
		return rep, bad(err)
	}
	sums, err := h.Store.List(ctx)
	if err != nil {
		return rep, err
	}
	for _, s := range sums {
		if s.ID == id {
			rep.Commitment = s.Commitment
		}
	}
	if rep.Commitment != r.Seed.Commitment() {
		rep.Problems = append(rep.Problems, fmt.Sprintf("the seed does not match the published commitment %s", rep.Commitment))
	}
	saved, err := h.Store.Turns(ctx, id)
	if err != nil {
		return rep, err
	}
	rs, err := race.Lookup(r.Ruleset)
	if err != nil {
		return rep, err
	}
	p, err := race.Replay(rs, r)
	if err != nil {
		rep.Problems = append(rep.Problems, "the log does not replay: "+err.Error())
		return rep, nil
	}
	rep.Over = p.State.Over()
	if rep.Over {
		rep.Seed = r.Seed.Hex()
	}
	rep.Turns = len(p.Turns)
	if len(saved) != len(p.Turns) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d turns were recorded, the log replays %d", len(saved), len(p.Turns)))
	}
	for i := 0; i < min(len(saved), len(p.Turns)); i++ {
		got, want := p.Turns[i], saved[i]
		rep.Rolls += len(got.Rolls)
		if got.Hash != want.Hash {
			rep.Problems = append(rep.Problems, fmt.Sprintf("turn %d: the replayed state hash %.12s differs from the recorded %.12s", got.Turn, got.Hash, want.Hash))
		}
		if len(got.Rolls) != len(want.Rolls) {
			rep.Problems = append(rep.Problems, fmt.Sprintf("turn %d: %d rolls replayed, %d recorded", got.Turn, len(got.Rolls), len(want.Rolls)))
			continue
		}
		for j := range got.Rolls {
			if got.Rolls[j] != want.Rolls[j] {
				rep.Problems = append(rep.Problems, fmt.Sprintf("turn %d roll %d: replayed %s, recorded %s", got.Turn, j+1, got.Rolls[j], want.Rolls[j]))
				break
			}
		}
	}
	rep.OK = len(rep.Problems) == 0
	return rep, nil
}
