package race

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"pitwall/dice"
)

// Turn is one resolved turn: what was played and what came of it.
type Turn struct {
	Turn      int            `json:"turn"`
	Orders    map[int]string `json:"orders"`              // canonical orders per seat, defaults included
	Defaulted []int          `json:"defaulted,omitempty"` // seats that sent nothing and got the default
	Events    []Event        `json:"events"`
	Rolls     []dice.Roll    `json:"rolls"`
	After     State          `json:"-"`
	// Before is the state after the turn before (the start's, for turn 1),
	// without the host's settings logged since: a post compares it with
	// After (who took the lead, who finished). nil when not known: a turn
	// resumed from its record, until the host fills it in (host.WithBefore).
	Before    State  `json:"-"`
	Hash      string `json:"hash"`       // of After
	DiceState []byte `json:"dice_state"` // the stream after the turn
	Rules     int    `json:"rules"`      // the version of the rules that played it
	// Untold is set for a turn resolved before pitwall kept each turn's
	// story: its orders and events are not known without a replay.
	Untold bool `json:"untold,omitempty"`
}

// Voided is a pending entry that the rules of this build no longer take: a
// rules change between the entry and the resolve of its turn. The seat gets
// the default unless it sends orders again.
type Voided struct {
	Seq    int    `json:"seq"`
	Kind   string `json:"kind"`
	Seat   int    `json:"seat"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// Played is a race replayed up to the end of its log: the turns replayed,
// the current state, the orders and the schedule of the coming turn.
//
// A Played comes from Replay (from the setup, every entry: what verify
// does) or from Resume (from the record of a resolved turn, only the entries
// after it: what every other load does, so a load costs the same on turn 3
// and turn 300).
type Played struct {
	Ruleset Ruleset
	Race    *Race
	// Entrants are the race's entrants with the log's joins, fixes and
	// withdrawals applied; nil in a race resumed after its start.
	Entrants []Entrant
	Started  bool // set up: State holds the race
	// Turns holds the turns replayed, and, when resumed from the record of
	// turn k, turn k itself first (as recorded).
	Start      State // the state after the setup; nil when resumed
	SetupRolls []dice.Roll
	Turns      []Turn
	State      State
	Pending    map[int]Order // orders in for the current turn, by seat
	PendingAt  map[int]int   // the log entry of each pending order
	// Ready holds the seats that have marked themselves done with the
	// current turn (a later mark of "no" takes a seat out again).
	Ready map[int]bool
	// Schedule is the deadline and bonus window of the current turn.
	Schedule Schedule
	Seq      int    // the entries in the log so far: the next one is Seq+1
	Head     string // the hash chain's head after entry Seq
	// PublicSeq and PublicHead are the log's public part: every entry up to
	// the first order of the open turn, whose orders stay secret until it
	// is resolved. Posts publish PublicHead; an export holds that part.
	PublicSeq  int
	PublicHead string
	secret     bool // an order of the open turn has been logged
	// Lenient is set when the race's last turn was played (or, before the
	// first, the race created) under another version of the rules: a
	// pending entry they no longer take is voided (listed in Voided)
	// instead of failing the load.
	Lenient bool
	Voided  []Voided
	// Past is set when the race has gone on since the turns this Played
	// holds: it shows a turn gone by, not the race as it stands.
	Past   bool
	roller *dice.Roller
	// prompts are the ruleset's prompts of promptsOf, the state they were
	// asked for (see Prompts).
	prompts   []Prompt
	promptsOf State
}

// Begin returns a race that has not been set up: entrant and schedule
// entries may be applied; the first order, setting or resolve sets it up.
func Begin(rs Ruleset, r *Race) *Played {
	g := Genesis(r)
	return &Played{Ruleset: rs, Race: r, Entrants: r.Entrants, Head: g, PublicHead: g, Pending: map[int]Order{},
		PendingAt: map[int]int{}, Ready: map[int]bool{}}
}

// Start sets a race up from its definition: it checks the configuration and
// entrants and draws whatever the setup draws (the grid, by lot).
func Start(rs Ruleset, r *Race) (*Played, error) {
	p := Begin(rs, r)
	return p, p.start()
}

func (p *Played) start() error {
	roller := dice.New(p.Race.Seed)
	s, err := p.Ruleset.Setup(p.Race.Config, p.Entrants, roller)
	if err != nil {
		return err
	}
	p.Start, p.SetupRolls, p.roller, p.Started = s, roller.Since(0), roller, true
	p.setState(s)
	return nil
}

// Follow applies a race's whole log, checking every entry, and sets the race
// up only if the log does (a race that only took entrants and a schedule is
// not set up: Started is false, and its entrants may still change).
func Follow(rs Ruleset, r *Race) (*Played, error) {
	p := Begin(rs, r)
	if err := p.ApplyAll(r.Log); err != nil {
		return nil, err
	}
	return p, nil
}

// ApplyAll applies entries in order.
func (p *Played) ApplyAll(log []Entry) error {
	for _, e := range log {
		if err := p.Apply(e); err != nil {
			return fmt.Errorf("log entry %d (%s, turn %d): %w", e.Seq, e.Kind, e.Turn, err)
		}
	}
	return nil
}

// Replay rebuilds a race from its setup, seed and whole log, checking every
// entry, and sets it up. A race with too few entrants to start gives an
// error wrapping ErrTooFew with the Played as it stands (its Entrants).
func Replay(rs Ruleset, r *Race) (*Played, error) {
	p, err := Follow(rs, r)
	if err != nil {
		return nil, err
	}
	return p, p.SetUp()
}

// SetUp sets the race up if its log has not: a race with too few entrants
// gives an error wrapping ErrTooFew.
func (p *Played) SetUp() error {
	if !p.Started {
		if err := p.start(); err != nil {
			if errors.Is(err, ErrTooFew) {
				return err
			}
			return fmt.Errorf("setting the race up: %w", err)
		}
	}
	return nil
}

// Resume continues a race from the record of a resolved turn: its state
// snapshot and dice stream, with r.Log holding that turn's resolve entry
// and the entries after it, where the orders a later order of the same seat
// replaced may be left out (a store need not read them). Only the last order
// of each seat is read, so a load costs the same however long the race and
// however many orders were resent.
func Resume(rs Ruleset, r *Race, rec *TurnRecord) (*Played, error) {
	t, err := TurnOf(rec)
	if err != nil {
		return nil, err
	}
	if len(r.Log) == 0 || r.Log[0].Kind != EntryResolve || r.Log[0].Turn != rec.Turn {
		return nil, fmt.Errorf("resuming after turn %d needs its resolve entry first", rec.Turn)
	}
	s, err := rs.DecodeState(rec.State)
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot of turn %d: %w", rec.Turn, err)
	}
	if h, err := Hash(s); err != nil || h != rec.Hash {
		return nil, fmt.Errorf("the snapshot of turn %d does not decode to its recorded hash %.12s", rec.Turn, rec.Hash)
	}
	roller, err := dice.Restore(rec.DiceState)
	if err != nil {
		return nil, fmt.Errorf("turn %d: %w", rec.Turn, err)
	}
	t.After, t.Hash, t.DiceState = s, rec.Hash, rec.DiceState
	p := &Played{Ruleset: rs, Race: r, Started: true, Turns: []Turn{t}, State: s,
		Pending: map[int]Order{}, PendingAt: map[int]int{}, Ready: map[int]bool{}, roller: roller,
		Seq: r.Log[0].Seq, Head: r.Log[0].Hash, Lenient: rec.Rules != rs.Game().Version}
	p.note(r.Log[0])
	tail := r.Log[1:]
	// The last order of each seat for each turn; earlier ones were replaced.
	type seatTurn struct{ turn, seat int }
	last := map[seatTurn]int{}
	for _, e := range tail {
		if e.Kind == EntryOrder {
			last[seatTurn{e.Turn, e.Seat}] = e.Seq
		}
	}
	for _, e := range tail {
		if e.Seq <= p.Seq {
			return nil, fmt.Errorf("log entry %d comes after entry %d", e.Seq, p.Seq)
		}
		if e.Kind == EntryOrder && last[seatTurn{e.Turn, e.Seat}] != e.Seq {
			if e.Turn != p.State.Turn() {
				return nil, fmt.Errorf("log entry %d: it is for turn %d but the race is on turn %d", e.Seq, e.Turn, p.State.Turn())
			}
			p.note(e)
			continue
		}
		p.Seq = e.Seq - 1 // the replaced orders before it may have been left out
		if err := p.Apply(e); err != nil {
			return nil, fmt.Errorf("log entry %d (%s, turn %d): %w", e.Seq, e.Kind, e.Turn, err)
		}
	}
	return p, nil
}

// note moves the log's position and chain head past e.
func (p *Played) note(e Entry) {
	p.Seq, p.Head = e.Seq, e.Hash
	switch e.Kind {
	case EntryOrder:
		p.secret = true
	case EntryResolve:
		p.secret = false
	}
	if !p.secret {
		p.PublicSeq, p.PublicHead = e.Seq, e.Hash
	}
}

// ErrOver is returned for a submission to a race that has ended.
var ErrOver = errors.New("the race is over")

// ErrStarted is returned for a change of entrants once the race has started.
var ErrStarted = errors.New("the race has started: its entrants are fixed")

// Turn is the turn open for orders: the next to be resolved (1 before the start).
func (p *Played) Turn() int {
	if !p.Started {
		return 1
	}
	return p.State.Turn()
}

// Resolved is the number of turns resolved.
func (p *Played) Resolved() int { return p.Turn() - 1 }

// Check validates a submission against the current state without changing anything.
func (p *Played) Check(sub Submission) (Order, error) {
	if p.State.Over() {
		return nil, ErrOver
	}
	if !p.prompted(sub.Seat) {
		return nil, Illegalf("%s has nothing to order on turn %d%s", p.seatName(sub.Seat), p.State.Turn(), p.seatList())
	}
	return p.Ruleset.ParseOrder(p.State, sub)
}

// CheckReady says what is wrong with a racer's ready mark for the current
// turn: "yes" (done with the turn) or "no" (not after all), from a seat the
// turn prompts.
func (p *Played) CheckReady(seat int, text string) error {
	if p.State.Over() {
		return ErrOver
	}
	if !p.prompted(seat) {
		return Illegalf("%s has nothing to do on turn %d, so nothing to be ready with%s", p.seatName(seat), p.State.Turn(), p.seatList())
	}
	if text != "yes" && text != "no" {
		return fmt.Errorf("a ready mark is \"yes\" or \"no\"; got %q", text)
	}
	return nil
}

// openTurn forgets what was pending for the turn just played.
func (p *Played) openTurn() {
	p.Pending, p.PendingAt, p.Schedule, p.Voided, p.Ready = map[int]Order{}, map[int]int{}, Schedule{}, nil, map[int]bool{}
}

// CheckSetting validates a host's setting for the current turn without changing anything.
func (p *Played) CheckSetting(key, value string) error {
	if p.State.Over() {
		return ErrOver
	}
	_, err := p.Ruleset.Set(p.State, key, value)
	return err
}

// Prompts is the ruleset's prompts in the current state. Every order's
// check, every view and every look at whether a turn is due needs them, so
// they are asked of the ruleset once per state. The slice is shared:
// callers read it and never change it.
func (p *Played) Prompts() []Prompt {
	if p.State == nil {
		return nil
	}
	// Only a pointer is compared: another state's type may not be comparable.
	if p.promptsOf == nil || reflect.TypeOf(p.State).Kind() != reflect.Pointer || p.promptsOf != p.State {
		p.prompts, p.promptsOf = p.Ruleset.Prompts(p.State), p.State
	}
	return p.prompts
}

// setState makes s the current state; the prompts are asked again (a
// ruleset may have changed the state in place).
func (p *Played) setState(s State) {
	p.State, p.promptsOf, p.prompts = s, nil, nil
}

func (p *Played) prompted(seat int) bool {
	for _, pr := range p.Prompts() {
		if pr.Seat == seat {
			return true
		}
	}
	return false
}

func (p *Played) seatName(seat int) string {
	for _, s := range p.State.Seats() {
		if s.Seat == seat {
			return fmt.Sprintf("%s (seat %d)", s.Name, seat+1)
		}
	}
	return fmt.Sprintf("seat %d", seat+1)
}

func (p *Played) seatList() string {
	var names []string
	for _, pr := range p.Prompts() {
		names = append(names, fmt.Sprintf("%s (seat %d)", pr.Name, pr.Seat+1))
	}
	if len(names) == 0 {
		return ""
	}
	return "; racers who do: " + strings.Join(names, ", ")
}

// Apply plays one log entry onto the race.
func (p *Played) Apply(e Entry) error {
	if e.Seq != p.Seq+1 {
		return fmt.Errorf("entry %d follows entry %d", e.Seq, p.Seq)
	}
	if e.IsEntrant() {
		if p.Started {
			return ErrStarted
		}
		if e.Turn != 0 {
			return fmt.Errorf("an entrant entry is for turn 0, before the start; this one says turn %d", e.Turn)
		}
		es, err := ApplyEntrant(p.Entrants, e)
		if err != nil {
			return err
		}
		p.Entrants = es
		p.note(e)
		return nil
	}
	if e.Turn != p.Turn() {
		return fmt.Errorf("entry is for turn %d but the race is on turn %d", e.Turn, p.Turn())
	}
	if e.Kind == EntrySchedule {
		s, err := ParseSchedule(e.Text)
		if err != nil {
			return err
		}
		p.Schedule = s
		p.note(e)
		return nil
	}
	if !p.Started {
		if err := p.start(); err != nil {
			return fmt.Errorf("setting the race up: %w", err)
		}
	}
	switch e.Kind {
	case EntryOrder:
		o, err := p.Check(Submission{Seat: e.Seat, Text: e.Text, InWindow: e.InWindow, At: e.At})
		if err != nil {
			if !p.void(e, err) {
				return err
			}
			delete(p.Pending, e.Seat)
			delete(p.PendingAt, e.Seat)
			break
		}
		p.Pending[e.Seat], p.PendingAt[e.Seat] = o, e.Seq
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
			if !p.void(e, err) {
				return err
			}
			break
		}
		p.setState(s)
	case EntryResolve:
		if _, err := p.resolve(e.At); err != nil {
			return err
		}
	case EntryStart:
		// Set up above; a start after the race began changes nothing.
		if e.Seat != -1 || e.Text != "" {
			return fmt.Errorf("a start entry names no seat and holds no text")
		}
	case EntryReady:
		if err := p.CheckReady(e.Seat, e.Text); err != nil {
			return err
		}
		if e.Text == "yes" {
			p.Ready[e.Seat] = true
		} else {
			delete(p.Ready, e.Seat)
		}
	default:
		return fmt.Errorf("unknown log entry kind %q", e.Kind)
	}
	p.note(e)
	return nil
}

// void records a pending entry that this build's rules refuse, when the race
// was played under other rules; it says whether it did.
func (p *Played) void(e Entry, err error) bool {
	var oe *OrderError
	if !p.Lenient || e.Kind == EntryOrder && !errors.As(err, &oe) {
		return false
	}
	p.Voided = append(p.Voided, Voided{Seq: e.Seq, Kind: e.Kind, Seat: e.Seat, Text: e.Text, Reason: err.Error()})
	return true
}

// NextTurn resolves the current turn on the race in memory and returns it; the
// caller stores the resolve entry with the turn's record, or drops the
// Played. at is the time of the resolve, as it will be logged (only a game
// on a calendar reads it).
func (p *Played) NextTurn(at time.Time) (Turn, error) {
	if !p.Started {
		if err := p.start(); err != nil {
			return Turn{}, err
		}
	}
	return p.resolve(at)
}

func (p *Played) resolve(at time.Time) (Turn, error) {
	if p.State.Over() {
		return Turn{}, ErrOver
	}
	orders := map[int]Order{}
	t := Turn{Turn: p.State.Turn(), Orders: map[int]string{}, Rules: p.Ruleset.Game().Version}
	for _, pr := range p.Prompts() {
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
	next, events, err := p.Ruleset.Resolve(p.State, orders, p.roller, at)
	if err != nil {
		return Turn{}, fmt.Errorf("resolving turn %d: %w", t.Turn, err)
	}
	h, err := Hash(next)
	if err != nil {
		return Turn{}, err
	}
	t.Events, t.Rolls, t.After, t.Hash, t.DiceState = events, p.roller.Since(mark), next, h, p.roller.State()
	// The state the last post showed: settings logged since (party's
	// minigame prizes) count as this turn's news.
	t.Before = p.Start
	if k := len(p.Turns); k > 0 {
		t.Before = p.Turns[k-1].After
	}
	p.Turns = append(p.Turns, t)
	p.setState(next)
	p.openTurn()
	p.Lenient = false // the next turn's entries came under these rules
	return t, nil
}

// Record is the record of turn t to keep beside its resolve entry at time at.
func (t Turn) Record(at time.Time) (TurnRecord, error) {
	snap, err := json.Marshal(t.After)
	if err != nil {
		return TurnRecord{}, fmt.Errorf("turn %d: a snapshot of the state: %w", t.Turn, err)
	}
	story, err := json.Marshal(Story{Orders: t.Orders, Defaulted: t.Defaulted, Events: t.Events})
	if err != nil {
		return TurnRecord{}, fmt.Errorf("turn %d: the story: %w", t.Turn, err)
	}
	return TurnRecord{Turn: t.Turn, Hash: t.Hash, Rolls: t.Rolls, DiceState: t.DiceState, State: snap, Story: story, At: at, Rules: t.Rules}, nil
}

// Story is what a turn record keeps of the turn for its post: the orders
// played and what happened. A post of an old turn is told from it, as it was
// resolved, whatever the rules have become since.
type Story struct {
	Orders    map[int]string `json:"orders"`
	Defaulted []int          `json:"defaulted,omitempty"`
	Events    []Event        `json:"events"`
}

// TurnOf is the turn a record keeps (without its state, which Resume reads).
func TurnOf(rec *TurnRecord) (Turn, error) {
	var st Story
	if rec.Story == nil { // a turn resolved before stories were kept: told without them
		return Turn{Turn: rec.Turn, Rolls: rec.Rolls, Hash: rec.Hash, DiceState: rec.DiceState, Rules: rec.Rules, Untold: true}, nil
	}
	if err := json.Unmarshal(rec.Story, &st); err != nil {
		return Turn{}, fmt.Errorf("reading the story of turn %d: %w", rec.Turn, err)
	}
	return Turn{Turn: rec.Turn, Orders: st.Orders, Defaulted: st.Defaulted, Events: st.Events, Rolls: rec.Rolls,
		Hash: rec.Hash, DiceState: rec.DiceState, Rules: rec.Rules}, nil
}

// StateAt is the state after turn n (0 = the start), among the turns this
// Played holds.
func (p *Played) StateAt(n int) (State, error) { return stateAt(p.Start, p.Turns, n, p.Resolved()) }

// TurnAt is turn n, if this Played holds it.
func (p *Played) TurnAt(n int) (Turn, bool) { return turnAt(p.Turns, n) }

// stateAt is the state after turn n among turns, start being turn 0's.
func stateAt(start State, turns []Turn, n, resolved int) (State, error) {
	if n == 0 && start != nil {
		return start, nil
	}
	if t, ok := turnAt(turns, n); ok {
		return t.After, nil
	}
	if t, ok := turnAt(turns, n+1); ok && t.Before != nil {
		return t.Before, nil
	}
	return nil, fmt.Errorf("turn %d has not been played; played: 0 to %d", n, resolved)
}

func turnAt(turns []Turn, n int) (Turn, bool) {
	for _, t := range turns {
		if t.Turn == n {
			return t, true
		}
	}
	return Turn{}, false
}

// Reseat puts the race back on a recorded state and dice stream: verify goes
// on from the record after a turn that replays differently, so one
// difference is reported once.
func (p *Played) Reseat(s State, diceState []byte) error {
	roller, err := dice.Restore(diceState)
	if err != nil {
		return err
	}
	p.setState(s)
	p.roller = roller
	if n := len(p.Turns); n > 0 {
		p.Turns[n-1].After, p.Turns[n-1].DiceState = s, diceState
	}
	return nil
}

// Pass moves the log's position past e without applying it: verify passes
// over the entries of a turn it cannot replay under this build's rules.
func (p *Played) Pass(e Entry) { p.note(e) }

// Adopt takes turn e.Turn from its record instead of resolving it: verify
// goes on this way after a turn that this build's rules cannot replay.
func (p *Played) Adopt(e Entry, rec *TurnRecord) error {
	t, err := TurnOf(rec)
	if err != nil {
		return err
	}
	s, err := p.Ruleset.DecodeState(rec.State)
	if err != nil {
		return fmt.Errorf("reading the snapshot of turn %d: %w", rec.Turn, err)
	}
	t.After = s
	p.Turns = append(p.Turns, t)
	p.openTurn()
	if err := p.Reseat(s, rec.DiceState); err != nil {
		return err
	}
	p.note(e)
	return nil
}

// Clone is a copy of p that may be changed without changing p: a service
// keeps one Played per race in memory, hands out clones, and moves only its
// own on. The states are shared: a ruleset never changes a state it is
// given (it returns a new one), and the race's definition never changes.
func (p *Played) Clone() *Played {
	c := *p
	c.Pending, c.PendingAt, c.Ready = maps.Clone(p.Pending), maps.Clone(p.PendingAt), maps.Clone(p.Ready)
	// Turns are copied, not only clipped: a caller may fill a turn in
	// (host.WithBefore), which must not write into the race in memory.
	c.Turns, c.Voided, c.Entrants = slices.Clone(p.Turns), slices.Clip(p.Voided), slices.Clip(p.Entrants)
	c.SetupRolls = slices.Clip(p.SetupRolls)
	if p.roller != nil {
		c.roller = p.roller.Clone()
	}
	return &c
}
