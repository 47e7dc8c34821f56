package racetest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// dash is a small game for testing the checks: every seat rolls a d6 each
// turn and moves that far plus its boost; first past 30 wins. An order
// "boost" adds 1, and only in the bonus window.
type dash struct {
	// loseBoost: DecodeState forgets the boosts, which the JSON keeps out
	// of sight (what a game that keeps a state's part unexported risks).
	loseBoost bool
	// loseFinish: DecodeState drops the finish order it reads.
	loseFinish bool
}

type dashState struct {
	T      int   `json:"turn"`
	Pos    []int `json:"pos"`
	Finish []int `json:"finish,omitempty"`
	Boost  []int `json:"-"` // set up from the entrants' options; lost unless decode rebuilds it
	Opts   []int `json:"opts"`
}

func (s *dashState) Turn() int  { return s.T }
func (s *dashState) Over() bool { return len(s.Finish) > 0 }
func (s *dashState) Seats() []race.Seat {
	var out []race.Seat
	for i := range s.Pos {
		out = append(out, race.Seat{Seat: i, Name: fmt.Sprint("R", i)})
	}
	return out
}

type dashOrder string

func (o dashOrder) String() string { return string(o) }

func (dash) Game() *race.Game {
	return &race.Game{ID: "dash", Name: "dash", Version: 1, Racers: race.Range{Min: 1, Max: 1}}
}
func (dash) Setup(cfg race.Config, es []race.Entrant, d *dice.Roller) (race.State, error) {
	s := &dashState{T: 1}
	for _, e := range es {
		b, _ := strconv.Atoi(e.Options["boost"])
		s.Pos = append(s.Pos, d.Roll(len(s.Pos), "grid", dice.D(3)))
		s.Boost = append(s.Boost, b)
		s.Opts = append(s.Opts, b)
	}
	return s, nil
}
func (dash) Set(s race.State, k, v string) (race.State, error) { return s, nil }
func (dash) Prompts(st race.State) []race.Prompt {
	s := st.(*dashState)
	if s.Over() {
		return nil
	}
	var out []race.Prompt
	for i := range s.Pos {
		out = append(out, race.Prompt{Seat: i, Turn: s.T, Orders: 1})
	}
	return out
}
func (dash) ParseOrder(s race.State, sub race.Submission) (race.Order, error) {
	switch sub.Text {
	case "go":
	case "boost":
		if !sub.InWindow {
			return nil, race.Illegalf("a boost only in the window")
		}
	default:
		return nil, race.Invalidf("go or boost")
	}
	return dashOrder(sub.Text), nil
}
func (dash) DefaultOrder(race.State, int) race.Order { return dashOrder("go") }
func (dash) Resolve(st race.State, orders map[int]race.Order, d *dice.Roller, _ time.Time) (race.State, []race.Event, error) {
	s := st.(*dashState)
	n := &dashState{T: s.T + 1, Pos: append([]int(nil), s.Pos...), Boost: s.Boost, Opts: s.Opts}
	for i := range n.Pos {
		n.Pos[i] += d.Roll(i, "move", dice.D(6)) + s.Boost[i]
		if orders[i].String() == "boost" {
			n.Pos[i]++
		}
		if n.Pos[i] >= 30 {
			n.Finish = append(n.Finish, i)
		}
	}
	return n, nil, nil
}
func (dash) Standings(st race.State) race.Standings {
	s := st.(*dashState)
	var out race.Standings
	for i, p := range s.Pos {
		out = append(out, race.Standing{Place: i + 1, Seat: i, Detail: fmt.Sprint(p)})
	}
	return out
}
func (g dash) DecodeState(b []byte) (race.State, error) {
	var s dashState
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	s.Boost = s.Opts
	if g.loseBoost {
		s.Boost = make([]int, len(s.Pos))
	}
	if g.loseFinish {
		s.Finish = nil
	}
	return &s, nil
}

// failure runs f with a TB that records its failures, and returns their
// messages, one a line (up to the first fatal one).
func failure(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	var wg sync.WaitGroup
	wg.Go(func() { f(r) })
	wg.Wait()
	return strings.Join(r.msgs, "\n")
}

type recorder struct {
	testing.TB
	msgs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, a ...any) {
	r.Errorf(format, a...)
	runtime.Goexit()
}
func (r *recorder) Errorf(format string, a ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatal(a ...any) {
	r.msgs = append(r.msgs, fmt.Sprint(a...))
	runtime.Goexit()
}

func dashRace(t *testing.T, g dash) *race.Played {
	r := &race.Race{ID: "d", Ruleset: "dash", Entrants: Entrants(3, "R", func(i int) map[string]string {
		return map[string]string{"boost": fmt.Sprint(i % 2)}
	}), Seed: dice.SeedFromInt(4), Created: time.Unix(0, 0)}
	return Play(t, g, r, rand.New(rand.NewPCG(1, 2)), Options{
		Bot: func(s race.State, seat int, rng *rand.Rand) string {
			if (s.Turn()+seat)%3 == 0 {
				return "boost"
			}
			return "go"
		},
		InWindow: func(s race.State, seat int) bool { return (s.Turn()+seat)%3 == 0 },
	})
}

func TestSameDecode(t *testing.T) {
	p := dashRace(t, dash{})
	if len(p.Turns) < 3 {
		t.Fatalf("%d turns", len(p.Turns))
	}
	SameReplay(t, dash{}, p.Race, p)
	SameDecode(t, dash{}, p)
	boosts := 0
	for _, e := range p.Race.Log {
		if e.InWindow {
			boosts++
		}
	}
	if boosts == 0 {
		t.Fatal("no orders in the window: the check of InWindow is not tried")
	}

	// A decode that loses what the JSON does not show is caught on the next turn.
	msg := failure(t, func(tb testing.TB) { SameDecode(tb, dash{loseBoost: true}, p) })
	if !strings.Contains(msg, "the start state, decoded: turn 1 ends in another state") {
		t.Errorf("a lost boost: %q", msg)
	}
	// A decode that loses what the JSON shows is caught by the hash.
	msg = failure(t, func(tb testing.TB) { SameDecode(tb, dash{loseFinish: true}, p) })
	if !strings.Contains(msg, "hashes differently") || !strings.Contains(msg, "finish") {
		t.Errorf("a lost finish: %q", msg)
	}
	// The window is read from the log: a check that dropped it would refuse
	// the logged boosts.
	q := *p
	r := *p.Race
	r.Log = append([]race.Entry(nil), p.Race.Log...)
	for i := range r.Log {
		r.Log[i].InWindow = false
	}
	q.Race = &r
	msg = failure(t, func(tb testing.TB) { SameDecode(tb, dash{}, &q) })
	if !strings.Contains(msg, "a boost only in the window") {
		t.Errorf("orders out of the window: %q", msg)
	}
}

// Replays yields every race it plays, by seed, after checking it; a race
// whose stored states do not read back fails in the first race.
func TestReplays(t *testing.T) {
	play := func(g dash) func(uint64) (*race.Race, *race.Played) {
		return func(seed uint64) (*race.Race, *race.Played) {
			return BotRace(t, g, seed, 1, race.Config{}, Entrants(3, "R", nil), Options{
				Bot: func(race.State, int, *rand.Rand) string { return "go" }})
		}
	}
	want := uint64(1000)
	if testing.Short() {
		want = 7
	}
	var seeds uint64
	for seed, p := range Replays(t, dash{}, 7, play(dash{})) {
		if seeds++; seed != seeds || !p.State.Over() {
			t.Fatalf("race %d: seed %d, over %v", seeds, seed, p.State.Over())
		}
	}
	if seeds != want {
		t.Errorf("%d races, want %d", seeds, want)
	}
	msg := failure(t, func(tb testing.TB) {
		for range Replays(tb, dash{loseFinish: true}, 7, play(dash{loseFinish: true})) {
			tb.Errorf("a race that does not read back was yielded")
		}
	})
	if !strings.Contains(msg, "seed-1") || !strings.Contains(msg, "hashes differently") {
		t.Errorf("a lost finish: %q", msg)
	}
}

func TestFirstTurnWith(t *testing.T) {
	p := &race.Played{Turns: []race.Turn{
		{Events: []race.Event{{Kind: "roll"}}},
		{Events: []race.Event{{Kind: "roll"}, {Kind: "crash"}}},
		{Events: []race.Event{{Kind: "crash"}}},
	}}
	for kind, want := range map[string]int{"roll": 1, "crash": 2, "fork": 0} {
		if got := FirstTurnWith(p, kind); got != want {
			t.Errorf("FirstTurnWith(%q) = %d, want %d", kind, got, want)
		}
	}
}

func TestSampled(t *testing.T) {
	at := func(turn int, over bool) *dashState {
		s := &dashState{T: turn + 1, Pos: []int{turn}}
		if over {
			s.Finish = []int{0}
		}
		return s
	}
	p := &race.Played{Started: true, Start: at(0, false)}
	for n := 1; n <= 4; n++ {
		p.Turns = append(p.Turns, race.Turn{Turn: n, After: at(n, n == 4)})
	}
	p.State = p.Turns[3].After
	for _, tc := range []struct {
		step int
		want string
	}{{1, "0 1 2 3"}, {2, "0 2"}, {3, "0 3"}} {
		var got []string
		for n, s := range Sampled(t, p, tc.step) {
			if s.(*dashState).Pos[0] != n {
				t.Errorf("step %d: turn %d came with the state after turn %d", tc.step, n, s.(*dashState).Pos[0])
			}
			got = append(got, strconv.Itoa(n))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("step %d: turns %v, want %s", tc.step, got, tc.want)
		}
	}
	// The last turn resolved is sampled too when the race goes on after it.
	p.Turns[3].After, p.State = at(4, false), at(4, false)
	var got []string
	for n := range Sampled(t, p, 2) {
		got = append(got, strconv.Itoa(n))
	}
	if strings.Join(got, " ") != "0 2 4" {
		t.Errorf("a race not over after its last turn, step 2: turns %v, want 0 2 4", got)
	}
	p.Turns = p.Turns[1:] // turn 1 is not there to give
	if msg := failure(t, func(tb testing.TB) {
		for range Sampled(tb, p, 1) {
		}
	}); !strings.Contains(msg, "the state after turn 1") {
		t.Errorf("a turn the race cannot give: %q", msg)
	}
}

func TestMet(t *testing.T) {
	seen := map[string]int{"crash": 2, "slip": 1}
	Met(t, "outcome", seen, "crash", "slip")
	if msg := failure(t, func(tb testing.TB) { Met(tb, "outcome", seen, "crash", "wall", "slip", "fire") }); msg !=
		"the sample has no outcome wall: it checks nothing of it (it has map[crash:2 slip:1])\n"+
			"the sample has no outcome fire: it checks nothing of it (it has map[crash:2 slip:1])" {
		t.Errorf("two kinds never met: %q", msg)
	}
	if msg := failure(t, func(tb testing.TB) { Met(tb, "", seen, "wall") }); !strings.HasPrefix(msg, "the sample has no wall:") {
		t.Errorf("no what: %q", msg)
	}
}

// Entrants are as many as asked for, named as the doc says.
func TestEntrants(t *testing.T) {
	es := Entrants(3, "R", func(i int) map[string]string { return map[string]string{"n": strconv.Itoa(i)} })
	if len(es) != 3 {
		t.Fatalf("%d entrants; want 3", len(es))
	}
	for i, e := range es {
		if e.Player != "P"+strconv.Itoa(i) || len(e.Racers) != 1 || e.Racers[0] != "R"+strconv.Itoa(i) || e.Options["n"] != strconv.Itoa(i) {
			t.Errorf("entrant %d: %+v", i, e)
		}
	}
	if es := Entrants(0, "R", nil); len(es) != 0 {
		t.Errorf("Entrants(0): %v", es)
	}
}

// diff points at the first byte where two states' JSON differ, and past
// the end when they do not.
func TestStateDiff(t *testing.T) {
	a, b := &dashState{T: 1, Pos: []int{5}}, &dashState{T: 1, Pos: []int{6}}
	if got := diff(a, b); !strings.HasPrefix(got, "at byte 17\n") { // {"turn":1,"pos":[ is 17 bytes
		t.Errorf("diff: %q", got)
	}
	whole, _ := json.Marshal(a)
	if got := diff(a, a); !strings.HasPrefix(got, fmt.Sprintf("at byte %d\n", len(whole))) {
		t.Errorf("diff of a state with itself: %q", got)
	}
}
