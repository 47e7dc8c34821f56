package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// hop is a toy game whose rules change between versions, as a fixed rule
// would: each racer orders a hop of 1 to 3 and moves the hop plus a d6.
// Version 2 doubles the hop and refuses a hop of 3.
type hop struct{}

var hopVersion = 1

type hopState struct {
	T   int   `json:"t"`
	End int   `json:"end"` // the last turn: ten a lap
	Pos []int `json:"pos"`
}

func (s *hopState) Turn() int  { return s.T }
func (s *hopState) Over() bool { return s.T > s.End }
func (s *hopState) Seats() []race.Seat {
	var out []race.Seat
	for i := range s.Pos {
		out = append(out, race.Seat{Seat: i, Name: fmt.Sprint("Hopper ", i+1)})
	}
	return out
}

type hopOrder int

func (o hopOrder) String() string { return strconv.Itoa(int(o)) }

func (hop) Game() *race.Game {
	return &race.Game{ID: "hop", Name: "Hop", Version: hopVersion, Racers: race.Range{Min: 1, Max: 1}}
}
func (hop) Setup(cfg race.Config, es []race.Entrant, _ *dice.Roller) (race.State, error) {
	if len(es) < 2 {
		return nil, fmt.Errorf("%w: two hoppers needed", race.ErrTooFew)
	}
	laps := max(cfg.Laps, 4)
	return &hopState{T: 1, End: 10 * laps, Pos: make([]int, len(es))}, nil
}
func (hop) Set(s race.State, k, v string) (race.State, error) { return nil, fmt.Errorf("no settings") }

// hopPrompts counts the prompts asked of hop, by state.
var hopPrompts sync.Map // *hopState -> *atomic.Int64

func (hop) Prompts(s race.State) []race.Prompt {
	n, _ := hopPrompts.LoadOrStore(s, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
	var out []race.Prompt
	for _, x := range s.Seats() {
		out = append(out, race.Prompt{Seat: x.Seat, Name: x.Name, Turn: s.Turn(), Orders: 1})
	}
	return out
}
func (hop) ParseOrder(_ race.State, sub race.Submission) (race.Order, error) {
	n, err := strconv.Atoi(sub.Text)
	if err != nil {
		return nil, race.Invalidf("a hop is a number; got %q", sub.Text)
	}
	if n < 1 || n > 3 || hopVersion >= 2 && n == 3 {
		return nil, race.Illegalf("a hop of %d is not allowed", n)
	}
	return hopOrder(n), nil
}
func (hop) DefaultOrder(race.State, int) race.Order { return hopOrder(1) }
func (hop) Resolve(s race.State, orders map[int]race.Order, d *dice.Roller, _ time.Time) (race.State, []race.Event, error) {
	old := s.(*hopState)
	n := &hopState{T: old.T + 1, End: old.End, Pos: append([]int(nil), old.Pos...)}
	var ev []race.Event
	for i := range n.Pos {
		n.Pos[i] += int(orders[i].(hopOrder))*hopVersion + d.Roll(i, "hop", dice.D6)
		ev = append(ev, race.Event{Seat: i, Kind: "hop", Text: fmt.Sprintf("Hopper %d hops to %d", i+1, n.Pos[i])})
	}
	return n, ev, nil
}
func (hop) Standings(race.State) race.Standings { return nil }
func (hop) DecodeState(b []byte) (race.State, error) {
	var s hopState
	return &s, json.Unmarshal(b, &s)
}

func init() { race.Register(hop{}) }

// A race under way when its rules change keeps its history: it loads from
// its records, shows its old turns as they were played, voids a pending
// order the new rules refuse, plays its next turn under the new rules and
// records that; verify names the version each old turn needs.
func TestAnOldRaceLoadsAfterARulesChange(t *testing.T) {
	defer func() { hopVersion = 1 }()
	f := newFixture(t)
	ctx := context.Background()
	s := dice.SeedFromInt(1)
	es := []race.Entrant{{Player: "A", Racers: []string{"A"}}, {Player: "B", Racers: []string{"B"}}}
	if _, err := f.h.NewRace(ctx, "hop", "h", race.Config{}, es, &s); err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= 3; turn++ {
		if _, err := f.h.Submit(ctx, "h", 0, "3", Req{Turn: turn}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.h.Resolve(ctx, "h", Req{Turn: turn}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.h.Submit(ctx, "h", 0, "3", Req{Turn: 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Submit(ctx, "h", 1, "2", Req{Turn: 4}); err != nil {
		t.Fatal(err)
	}
	before := f.load(t, "h")
	old, _ := before.TurnAt(3)

	hopVersion = 2 // the rules are fixed; the race goes on
	p, err := f.h.Load(ctx, "h")
	if err != nil {
		t.Fatalf("the race no longer loads: %v", err)
	}
	if h0, _ := race.Hash(before.State); p.Turns[0].Hash != h0 || !p.Lenient {
		t.Fatalf("the state after turn 3 changed with the rules, or the load did not notice the change")
	}
	if len(p.Voided) != 1 || p.Voided[0].Seat != 0 || !strings.Contains(p.Voided[0].Reason, "not allowed") {
		t.Fatalf("the order the new rules refuse: %+v", p.Voided)
	}
	if _, ok := p.Pending[1]; !ok {
		t.Fatal("an order both rules take was dropped")
	}
	if now, _ := p.TurnAt(3); fmt.Sprint(now.Events, now.Orders) != fmt.Sprint(old.Events, old.Orders) || len(old.Events) == 0 {
		t.Fatalf("the story of turn 3 changed with the rules: %v, was %v", now.Events, old.Events)
	}
	res, err := f.h.Resolve(ctx, "h", Req{Turn: 4})
	if err != nil || res.Played.Rules != 2 || res.Played.Orders[0] != "1" || res.Played.Orders[1] != "2" {
		t.Fatalf("turn 4 under the new rules: %+v %v", res.Played, err)
	}
	recs, err := f.h.Store.Turns(ctx, "h")
	if err != nil || recs[2].Rules != 1 || recs[3].Rules != 2 {
		t.Fatalf("the turns' rules versions: %+v %v", recs, err)
	}
	rep, err := f.h.Verify(ctx, "h", "")
	if err != nil || rep.OK || !strings.Contains(strings.Join(rep.Problems, ";"), "verify it with a pitwall of version 1") {
		t.Fatalf("verify of a race played under two versions: %v %+v", err, rep)
	}
	// The state and the story of each turn of the old rules (verify goes on
	// from each record), and nothing of turn 4.
	if len(rep.Problems) != 3*2 || rep.Turns != 4 || strings.Contains(strings.Join(rep.Problems, ";"), "turn 4") {
		t.Errorf("%d problems: %q", len(rep.Problems), rep.Problems)
	}
}

// Every turn loaded from its record is the turn a full replay plays.
func TestLoadAtEqualsReplay(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 9)
	playOut(t, f, "r1")
	r, err := f.h.Store.Load(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := race.Lookup("ludi")
	full, err := race.Replay(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range full.Turns {
		p, err := f.h.LoadAt(ctx, "r1", want.Turn)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := p.TurnAt(want.Turn)
		h, _ := race.Hash(p.State)
		if !ok || got.Hash != want.Hash || h != want.Hash || fmt.Sprint(got.Events) != fmt.Sprint(want.Events) ||
			fmt.Sprint(got.Orders) != fmt.Sprint(want.Orders) || fmt.Sprint(got.Rolls) != fmt.Sprint(want.Rolls) {
			t.Fatalf("turn %d loaded differs from the replay", want.Turn)
		}
		if p.Past != (want.Turn < full.Resolved()) {
			t.Fatalf("turn %d: Past = %v", want.Turn, p.Past)
		}
	}
}
