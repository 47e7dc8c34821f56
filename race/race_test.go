package race

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
)

// dash is a toy game for testing the core: each seat orders a step of 1 to 3;
// a turn moves every seat by its step plus a d6; the first to 20 wins.
// Version 2 of its rules (dashVersion, set by a test) adds the step twice.
type dash struct{}

var dashVersion = 1

type dashState struct {
	T   int   `json:"t"`
	Pos []int `json:"pos"`
	Bot bool  `json:"bot"`
}

func (s *dashState) Turn() int { return s.T }
func (s *dashState) Over() bool {
	for _, p := range s.Pos {
		if p >= 20 {
			return true
		}
	}
	return false
}
func (s *dashState) Seats() []Seat {
	out := make([]Seat, len(s.Pos))
	for i := range out {
		out[i] = Seat{Seat: i, Name: fmt.Sprint("r", i)}
	}
	return out
}

type step int

func (o step) String() string { return strconv.Itoa(int(o)) }

func (dash) Game() *Game {
	return &Game{ID: "dash", Name: "Dash", Version: dashVersion, Racers: Range{Min: 1, Max: 1}}
}
func (dash) Setup(cfg Config, es []Entrant, d *dice.Roller) (State, error) {
	if len(es) == 0 {
		return nil, errors.New("no entrants")
	}
	return &dashState{T: 1, Pos: make([]int, len(es))}, nil
}
func (dash) Set(s State, k, v string) (State, error) {
	if k != "bot" {
		return nil, fmt.Errorf("unknown setting %q", k)
	}
	n := *s.(*dashState)
	n.Bot = v == "on"
	return &n, nil
}
func (dash) Prompts(s State) []Prompt {
	var out []Prompt
	for i := range s.(*dashState).Pos {
		out = append(out, Prompt{Seat: i, Turn: s.Turn(), Orders: 1})
	}
	return out
}
func (dash) ParseOrder(s State, sub Submission) (Order, error) {
	n, err := strconv.Atoi(sub.Text)
	if err != nil {
		return nil, Invalidf("a step is a number; got %q", sub.Text)
	}
	if n < 1 || n > 3 {
		return nil, Illegalf("a step is 1 to 3; got %d", n)
	}
	return step(n), nil
}
func (dash) DefaultOrder(State, int) Order { return step(1) }
func (dash) Resolve(s State, orders map[int]Order, d *dice.Roller, _ time.Time) (State, []Event, error) {
	old := s.(*dashState)
	n := &dashState{T: old.T + 1, Pos: append([]int(nil), old.Pos...), Bot: old.Bot}
	var ev []Event
	for i := range n.Pos {
		r := d.Roll(i, "dash", dice.D6)
		n.Pos[i] += int(orders[i].(step))*dashVersion + r
		ev = append(ev, Event{Seat: i, Kind: "move", Text: fmt.Sprint("moves to ", n.Pos[i])})
	}
	return n, ev, nil
}
func (dash) Standings(State) Standings { return nil }
func (dash) DecodeState(b []byte) (State, error) {
	var s dashState
	return &s, json.Unmarshal(b, &s)
}

func newDash(t *testing.T) *Race {
	t.Helper()
	return &Race{ID: "x", Ruleset: "dash", Seed: dice.SeedFromInt(9), Created: time.Unix(0, 0),
		Entrants: []Entrant{{Player: "a"}, {Player: "b"}}}
}

func play(t *testing.T, r *Race, rs Ruleset) *Played {
	t.Helper()
	p, err := Start(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	add := func(e Entry) {
		seq++
		e.Seq = seq
		e.Turn = p.State.Turn()
		if err := p.Apply(e); err != nil {
			t.Fatal(err)
		}
		r.Log = append(r.Log, e)
	}
	for !p.State.Over() {
		add(Entry{Kind: EntryOrder, Seat: 0, Text: "3"})
		add(Entry{Kind: EntryOrder, Seat: 0, Text: "2"}) // replaces the first
		if p.State.Turn() == 2 {
			add(Entry{Kind: EntrySet, Seat: -1, Text: "bot=on"})
		}
		add(Entry{Kind: EntryResolve, Seat: -1})
	}
	return p
}

func TestReplayReproducesEveryHash(t *testing.T) {
	r := newDash(t)
	live := play(t, r, dash{})
	again, err := Replay(dash{}, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Turns) != len(live.Turns) || len(live.Turns) < 3 {
		t.Fatalf("replayed %d turns of %d", len(again.Turns), len(live.Turns))
	}
	for i := range live.Turns {
		a, b := live.Turns[i], again.Turns[i]
		if a.Hash != b.Hash || fmt.Sprint(a.Rolls) != fmt.Sprint(b.Rolls) {
			t.Fatalf("turn %d differs on replay", i+1)
		}
		if a.Orders[0] != "2" || a.Orders[1] != "1" || len(a.Defaulted) != 1 || a.Defaulted[0] != 1 {
			t.Fatalf("turn %d orders %v defaulted %v: the later order must win, the silent seat default", i+1, a.Orders, a.Defaulted)
		}
	}
	if !live.Turns[1].After.(*dashState).Bot {
		t.Fatal("the setting was not applied")
	}
}

func TestReplayFailsOnATamperedLog(t *testing.T) {
	r := newDash(t)
	live := play(t, r, dash{})
	r.Log[1].Text = "3" // the order that counts (entry 0 was replaced by it)
	again, err := Replay(dash{}, r)
	if err != nil {
		t.Fatal(err)
	}
	same := true
	for i := range again.Turns {
		if i >= len(live.Turns) || again.Turns[i].Hash != live.Turns[i].Hash {
			same = false
		}
	}
	if same {
		t.Fatal("a changed order gave the same hashes")
	}
	r.Log[1].Text = "9"
	if _, err := Replay(dash{}, r); err == nil {
		t.Fatal("an illegal order in the log was replayed")
	}
	r.Log[1].Text = "2"
	r.Log[1].Turn = 5
	if _, err := Replay(dash{}, r); err == nil {
		t.Fatal("an entry for the wrong turn was replayed")
	}
}

func TestCheckChangesNothing(t *testing.T) {
	p, err := Start(dash{}, newDash(t))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := Hash(p.State)
	var oe *OrderError
	if _, err := p.Check(Submission{Seat: 0, Text: "x"}); !errors.As(err, &oe) || oe.Kind != Invalid {
		t.Fatalf("bad syntax: %v", err)
	}
	if _, err := p.Check(Submission{Seat: 0, Text: "7"}); !errors.As(err, &oe) || oe.Kind != Illegal {
		t.Fatalf("out of range: %v", err)
	}
	if _, err := p.Check(Submission{Seat: 5, Text: "1"}); err == nil {
		t.Fatal("a seat with no prompt was accepted")
	}
	if err := p.CheckSetting("nope", "1"); err == nil {
		t.Fatal("an unknown setting was accepted")
	}
	after, _ := Hash(p.State)
	if before != after || len(p.Pending) != 0 {
		t.Fatal("checking changed the race")
	}
}

func TestStateAt(t *testing.T) {
	p := play(t, newDash(t), dash{})
	if s, err := p.StateAt(0); err != nil || s.Turn() != 1 {
		t.Fatalf("StateAt(0) = %v, %v", s, err)
	}
	if _, err := p.StateAt(len(p.Turns) + 1); err == nil {
		t.Fatal("a turn not played was given")
	}
	if _, err := p.Check(Submission{Seat: 0, Text: "1"}); !errors.Is(err, ErrOver) {
		t.Fatalf("an order after the end: %v", err)
	}
}

func TestRegistry(t *testing.T) {
	Register(dash{})
	defer delete(registry, "dash")
	if _, err := Lookup("dash"); err != nil {
		t.Fatal(err)
	}
	if _, err := Lookup("nope"); err == nil {
		t.Fatal("unknown ruleset found")
	}
}

func TestRaceLaps(t *testing.T) {
	for _, tc := range []struct{ host, track, want int }{{0, 3, 3}, {1, 3, 1}, {0, 1, 1}, {5, 3, 5}, {20, 3, 20}, {21, 3, 0}, {-1, 3, 0}, {0, 0, 0}} {
		got, err := Config{Laps: tc.host}.RaceLaps(tc.track)
		if got != tc.want || (err != nil) != (tc.want == 0) {
			t.Errorf("laps %d on a track of %d: %d, %v; want %d", tc.host, tc.track, got, err, tc.want)
		}
	}
}

func TestCheckLaps(t *testing.T) {
	for laps, ok := range map[int]bool{-1: false, 0: false, 1: true, MaxLaps: true, MaxLaps + 1: false} {
		if err := CheckLaps(laps); (err == nil) != ok {
			t.Errorf("%d laps: %v", laps, err)
		}
	}
}

// A turn's orders come back as the game's type; one of another type is
// refused, naming the seat and the game.
func TestOrdersAs(t *testing.T) {
	got, err := OrdersAs[step]("dash", map[int]Order{0: step(2), 3: step(1)})
	if err != nil || len(got) != 2 || got[0] != 2 || got[3] != 1 {
		t.Fatalf("OrdersAs = %v, %v; want 0:2 3:1", got, err)
	}
	_, err = OrdersAs[step]("dash", map[int]Order{0: step(2), 1: otherOrder{}})
	if err == nil || err.Error() != "seat 1: not a dash order: race.otherOrder" {
		t.Fatalf("an order of another game: %v", err)
	}
}

type otherOrder struct{}

func (otherOrder) String() string { return "other" }

// A choice is allowed when its check passes, and refused with the error's
// own code and reason, or as not allowed when the error is not an
// OrderError.
func TestJudge(t *testing.T) {
	if c := Judge("a", []string{"a", "A"}, nil); !c.Allowed || c.Code != "" || c.Reason != "" || c.Order != "a" || len(c.Words) != 2 {
		t.Errorf("an allowed choice: %+v", c)
	}
	if c := Judge("b", nil, &OrderError{Kind: Illegal, Reason: "not now", Code: "too_late"}); c.Allowed || c.Code != "too_late" || c.Reason != "not now" {
		t.Errorf("a refused choice: %+v", c)
	}
	if c := Judge("c", nil, Invalidf("what?")); c.Allowed || c.Code != CodeNotUnderstood {
		t.Errorf("a choice not understood: %+v", c)
	}
	if c := Judge("d", nil, errors.New("broken")); c.Allowed || c.Code != CodeNotAllowed || c.Reason != "broken" {
		t.Errorf("a choice refused by another error: %+v", c)
	}
}

// A game's refusal carries its kind, its own code and its reason.
func TestRefusalsWithCodes(t *testing.T) {
	var oe *OrderError
	if err := NotUnderstood("no_verb", "%q is not an order", "fly"); !errors.As(err, &oe) || oe.Kind != Invalid || oe.ErrCode() != "no_verb" || oe.Reason != `"fly" is not an order` {
		t.Errorf("NotUnderstood: %#v", err)
	}
	if err := NotAllowed("too_fast", "speed %d is above %d", 9, 8); !errors.As(err, &oe) || oe.Kind != Illegal || oe.ErrCode() != "too_fast" || oe.Reason != "speed 9 is above 8" {
		t.Errorf("NotAllowed: %#v", err)
	}
}

func TestShortestFirst(t *testing.T) {
	got := ShortestFirst([]string{"whip", "w", "accelerate", "acc", "wb", "a"})
	if want := "a w wb acc whip accelerate"; strings.Join(got, " ") != want {
		t.Errorf("ShortestFirst = %v, want %s", got, want)
	}
}
