package race

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"pitwall/dice"
)

// Turn is one resolved turn, as replay computes it.
type Turn struct {
	Turn      int            `json:"turn"`
	Orders    map[int]string `json:"orders"`              // canonical orders per seat, defaults included
	Defaulted []int          `json:"defaulted,omitempty"` // seats that sent nothing and got the default
	Events    []Event        `json:"events"`
	Rolls     []dice.Roll    `json:"rolls"`
	After     State          `json:"-"`
	Hash      string         `json:"hash"`       // of After
	DiceState []byte         `json:"dice_state"` // the stream after the turn
}

// Played is a race replayed up to the end of its log: every turn, the current
// state and the orders waiting for the next resolution.
type Played struct {
	Ruleset    Ruleset
	Race       *Race
	Start      State
	SetupRolls []dice.Roll
	Turns      []Turn
	State      State
	Pending    map[int]Order // orders in for the current turn, by seat
	roller     *dice.Roller
}

// Start sets a race up from its definition: it checks the configuration and
// entrants and draws whatever the setup draws (the grid, by lot).
func Start(rs Ruleset, r *Race) (*Played, error) {
	roller := dice.New(r.Seed)
	s, err := rs.Setup(r.Config, r.Entrants, roller)
	if err != nil {
		return nil, err
	}
	return &Played{Ruleset: rs, Race: r, Start: s, SetupRolls: roller.Since(0), State: s,
		Pending: map[int]Order{}, roller: roller}, nil
}

// Replay rebuilds a race from its setup, seed and log.
func Replay(rs Ruleset, r *Race) (*Played, error) {
	p, err := Start(rs, r)
	if err != nil {
		return nil, fmt.Errorf("setting the race up again: %w", err)
	}
	for _, e := range r.Log {
		if err := p.Apply(e); err != nil {
			return nil, fmt.Errorf("log entry %d (%s, turn %d): %w", e.Seq, e.Kind, e.Turn, err)
		}
	}
	return p, nil
}

// ErrOver is returned for a submission to a race that has ended.
var ErrOver = errors.New("the race is over")

// Check validates a submission against the current state without changing anything.
func (p *Played) Check(sub Submission) (Order, error) {
	if p.State.Over() {
		return nil, ErrOver
	}
	if !p.prompted(sub.Seat) {
		return nil, Illegalf("seat %d has nothing to order on turn %d%s", sub.Seat, p.State.Turn(), p.seatList())
	}
	return p.Ruleset.ParseOrder(p.State, sub)
}

// CheckSetting validates a host's setting for the current turn without changing anything.
func (p *Played) CheckSetting(key, value string) error {
	if p.State.Over() {
		return ErrOver
	}
	_, err := p.Ruleset.Set(p.State, key, value)
	return err
}

func (p *Played) prompted(seat int) bool {
	for _, pr := range p.Ruleset.Prompts(p.State) {
		if pr.Seat == seat {
			return true
		}
	}
	return false
}

func (p *Played) seatList() string {
	var names []string
	for _, pr := range p.Ruleset.Prompts(p.State) {
		names = append(names, fmt.Sprintf("%d (%s)", pr.Seat, pr.Name))
	}
	if len(names) == 0 {
		return ""
	}
	return "; seats that do: " + strings.Join(names, ", ")
}

// Apply plays one log entry onto the race.
func (p *Played) Apply(e Entry) error {
	if e.Turn != p.State.Turn() {
		return fmt.Errorf("entry is for turn %d but the race is on turn %d", e.Turn, p.State.Turn())
	}
	switch e.Kind {
	case EntryOrder:
		o, err := p.Check(Submission{Seat: e.Seat, Text: e.Text, InWindow: e.InWindow, At: e.At})
		if err != nil {
			return err
		}
		p.Pending[e.Seat] = o
	case EntrySet:
		if p.State.Over() {
			return ErrOver
		}
		k, v, ok := strings.Cut(e.Text, "=")
		if !ok {
			return fmt.Errorf("a setting is KEY=VALUE; got %q", e.Text)
		}
		s, err := p.Ruleset.Set(p.State, k, v)
		if err != nil {
			return err
		}
		p.State = s
	case EntryResolve:
		_, err := p.resolve(e.At)
		return err
	default:
		return fmt.Errorf("unknown log entry kind %q", e.Kind)
	}
	return nil
}

// NextTurn resolves the current turn on the race in memory and returns it; the
// caller stores the resolve entry with the turn, or drops the Played.
// at is the time of the resolve, as it will be logged (only a Clocked game reads it).
func (p *Played) NextTurn(at time.Time) (Turn, error) { return p.resolve(at) }

func (p *Played) resolve(at time.Time) (Turn, error) {
	if p.State.Over() {
		return Turn{}, ErrOver
	}
	orders := map[int]Order{}
	t := Turn{Turn: p.State.Turn(), Orders: map[int]string{}}
	for _, pr := range p.Ruleset.Prompts(p.State) {
		o, ok := p.Pending[pr.Seat]
		if !ok {
			o = p.Ruleset.DefaultOrder(p.State, pr.Seat)
			t.Defaulted = append(t.Defaulted, pr.Seat)
		}
		orders[pr.Seat] = o
		t.Orders[pr.Seat] = o.String()
	}
	sort.Ints(t.Defaulted)
	mark := p.roller.Mark()
	var next State
	var events []Event
	var err error
	if c, ok := p.Ruleset.(Clocked); ok {
		next, events, err = c.ResolveAt(p.State, orders, p.roller, at)
	} else {
		next, events, err = p.Ruleset.Resolve(p.State, orders, p.roller)
	}
	if err != nil {
		return Turn{}, fmt.Errorf("resolving turn %d: %w", t.Turn, err)
	}
	h, err := Hash(next)
	if err != nil {
		return Turn{}, err
	}
	t.Events, t.Rolls, t.After, t.Hash, t.DiceState = events, p.roller.Since(mark), next, h, p.roller.State()
	p.Turns = append(p.Turns, t)
	p.State = next
	p.Pending = map[int]Order{}
	return t, nil
}

// StateAt is the state after turn n (0 = the start).
func (p *Played) StateAt(n int) (State, error) {
	if n == 0 {
		return p.Start, nil
	}
	if n < 0 || n > len(p.Turns) {
		return nil, fmt.Errorf("turn %d has not been played; played: 0 to %d", n, len(p.Turns))
	}
	return p.Turns[n-1].After, nil
}
