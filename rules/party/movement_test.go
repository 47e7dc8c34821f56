package party

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// A small board for the movement's tests:
//
//	o -> a -> f (fork) -> b1 -> b2 -> j
//	               \---> n (non-decrementing) -> c1 -> j
//	j -> e (no successors: back to the start o)
const smallBoard = `
start: o
spaces:
  - {id: o, next: [a]}
  - {id: a, type: blue, next: [f]}
  - {id: f, next: [b1, n]}
  - {id: b1, type: red, next: [b2]}
  - {id: b2, next: [j]}
  - {id: n, decrementing: false, next: [c1]}
  - {id: c1, type: blue, next: [j]}
  - {id: j, next: [e]}
  - {id: e}
`

func mustBoard(t testing.TB, src string) *Board {
	t.Helper()
	b, err := ParseBoard("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func move(t *testing.T, b *Board, at string, movement int, choose ...string) Trace {
	t.Helper()
	tr, err := b.Move(at, movement, choose)
	if err != nil {
		t.Fatalf("move from %s by %d choosing %v: %v", at, movement, choose, err)
	}
	return tr
}

func wantTrace(t *testing.T, tr Trace, landed string, passed ...string) {
	t.Helper()
	if passed == nil {
		passed = []string{}
	}
	if tr.Landed != landed || !reflect.DeepEqual(tr.Passed, passed) {
		t.Errorf("got passed %v landed %s; want passed %v landed %s", tr.Passed, tr.Landed, passed, landed)
	}
}

// The walk begins from the player's own space: the first space passed is a
// successor of where they stand, not the space itself.
func TestMoveStartsFromTheCurrentSpace(t *testing.T) {
	b := mustBoard(t, smallBoard)
	wantTrace(t, move(t, b, "b1", 1), "b2", "b2")
	wantTrace(t, move(t, b, "o", 2), "f", "a", "f")
}

// On a line space the next space is its only successor, and the walk goes
// on until Movement is spent.
func TestLineSpaceHasOneWayOn(t *testing.T) {
	b := mustBoard(t, smallBoard)
	wantTrace(t, move(t, b, "b1", 3), "e", "b2", "j", "e")
}

// A space that names no successor leads to the starting space.
func TestNoSuccessorsLeadsToStart(t *testing.T) {
	b := mustBoard(t, smallBoard)
	if got := b.Successors("e"); !reflect.DeepEqual(got, []string{"o"}) {
		t.Fatalf("successors of e: %v", got)
	}
	wantTrace(t, move(t, b, "j", 3), "a", "e", "o", "a")
}

// At a fork the player names the next space; the choices answer the forks
// in the order they are met.
func TestForkTakesTheDesignatedSuccessor(t *testing.T) {
	b := mustBoard(t, smallBoard)
	wantTrace(t, move(t, b, "a", 2, "b1"), "b1", "f", "b1")
	wantTrace(t, move(t, b, "a", 2, "n"), "c1", "f", "n", "c1")
	// Round the board twice: the fork is met twice and answered twice.
	tr := move(t, b, "a", 10, "b1", "n")
	wantTrace(t, tr, "j", "f", "b1", "b2", "j", "e", "o", "a", "f", "n", "c1", "j")
}

// A fork with no choice left, or a choice that is not a successor, is an error.
func TestForkErrors(t *testing.T) {
	b := mustBoard(t, smallBoard)
	for _, c := range []struct {
		choose []string
		want   string
	}{
		{nil, "f is met with no choice left"},
		{[]string{"c1"}, `"c1", is not a successor of the fork f`},
		{[]string{"nowhere"}, "not a successor"},
		{[]string{"b1"}, "no choice left (choice 2)"}, // a second fork on the way round
	} {
		_, err := b.Move("a", 12, c.choose)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("choose %v: got %v, want %q", c.choose, err, c.want)
		}
	}
	// A fork that is not reached needs no choice; a choice left over is reported.
	tr := move(t, b, "o", 1, "b1")
	wantTrace(t, tr, "a", "a")
	if !reflect.DeepEqual(tr.Unused, []string{"b1"}) {
		t.Errorf("unused choices %v", tr.Unused)
	}
}

// Passing a non-decrementing space costs no Movement; spaces are
// decrementing unless the board says otherwise.
func TestNonDecrementingSpaceIsFree(t *testing.T) {
	b := mustBoard(t, smallBoard)
	if !b.Space("b1").Decrements() || b.Space("n").Decrements() {
		t.Fatal("b1 should decrement by default, n should not")
	}
	// Two points of Movement pass three spaces, n among them.
	wantTrace(t, move(t, b, "f", 2, "n"), "j", "n", "c1", "j")
	wantTrace(t, move(t, b, "f", 2, "b1"), "b2", "b1", "b2")
}

// The player lands where the walk ended, which is the last space passed;
// a walk can never end on a non-decrementing space.
func TestLandsOnTheLastSpacePassed(t *testing.T) {
	b := mustBoard(t, smallBoard)
	for m := 1; m <= 9; m++ {
		for _, c := range []string{"b1", "n"} {
			tr := move(t, b, "o", m, c, c)
			if tr.Landed != tr.Passed[len(tr.Passed)-1] || !b.Space(tr.Landed).Decrements() {
				t.Errorf("movement %d via %s: landed %s after %v", m, c, tr.Landed, tr.Passed)
			}
		}
	}
}

// Movement of 0 or less moves nobody: the loop never starts and the player
// lands on the space they are on.
func TestMovementZeroOrLessLandsInPlace(t *testing.T) {
	b := mustBoard(t, smallBoard)
	for _, m := range []int{0, -1, -7} {
		wantTrace(t, move(t, b, "f", m), "f")
	}
	if _, err := b.Move("f", maxMovement+1, nil); err == nil {
		t.Error("a movement past the limit should be refused")
	}
	if _, err := b.Move("zz", 1, nil); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Errorf("unknown space: %v", err)
	}
}

// Even on a board that skipped validation, a loop of non-decrementing
// spaces ends the walk with an error instead of hanging the host.
func TestWalkHasAHardBound(t *testing.T) {
	f := false
	b := &Board{Start: "a", Spaces: []Space{{ID: "a", Next: []string{"b"}}, {ID: "b", Next: []string{"c"}, Decrementing: &f}, {ID: "c", Next: []string{"b"}, Decrementing: &f}},
		index: map[string]int{"a": 0, "b": 1, "c": 2}}
	done := make(chan walked, 1)
	go func() { done <- b.walk("a", 3, nil, nil) }()
	select {
	case w := <-done:
		if w.err == nil || !strings.Contains(w.err.Error(), "never ends") {
			t.Fatalf("got %v", w.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the walk did not end")
	}
}

// The contract's example board, as written there, loads and moves.
func TestContractBoard(t *testing.T) {
	b := mustBoard(t, `start: s0            # the starting space
spaces:
  - id: s0
    next: [s1]       # successors; none given = the starting space; two or more = a fork
  - id: s1
    next: [s2, s5]
  - id: s2
    decrementing: false   # default true
  - id: s5
`)
	wantTrace(t, move(t, b, "s0", 2, "s2"), "s0", "s1", "s2", "s0")
	wantTrace(t, move(t, b, "s0", 2, "s5"), "s5", "s1", "s5")
}

// A board without an mrdl gives every player [d10]; an MRDL adds every die
// and every integer.
func TestMRDL(t *testing.T) {
	b := mustBoard(t, smallBoard)
	if got := b.DefaultMRDL().String(); got != "[d10]" {
		t.Errorf("default MRDL %s", got)
	}
	m, err := ParseMRDL("d6, 2d4 -3")
	if err != nil {
		t.Fatal(err)
	}
	if m.String() != "[d6, d4, d4, -3]" {
		t.Errorf("parsed %s", m)
	}
	script, _ := dice.NewScript("d6=5", "d4=1", "d4=4")
	got, faces := m.Roll(dice.WithSource(script), 0, "movement roll")
	if got != 7 || !reflect.DeepEqual(faces, []int{5, 1, 4}) || script.Err() != nil {
		t.Errorf("rolled %d %v (%v)", got, faces, script.Err())
	}
	for _, bad := range []string{"", "d0", "d101", "x", "13d6", "200", "d6 d6 d6 d6 d6 d6 d6 d6 d6 d6 d6 d6 d6"} {
		if _, err := ParseMRDL(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	b2 := mustBoard(t, "start: a\nmrdl: [d6, 2, \"-1\"]\nspaces:\n  - {id: a}\n")
	if b2.DefaultMRDL().String() != "[d6, 2, -1]" {
		t.Errorf("board mrdl %s", b2.DefaultMRDL())
	}
}

// Setting out with a player whose MRDL is undefined rolls [d10].
func TestUndefinedMRDLRollsD10(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	s.Players[0].MRDL = nil
	at := monday.Add(10 * time.Hour)
	next, _ := resolveWith(t, s, map[int]string{0: "roll via b1"}, at, "d10=3")
	p := next.player(0)
	if p.Space != "b1" || p.MRDL.String() != "[d10]" {
		t.Errorf("on %s with %s", p.Space, p.MRDL)
	}
}

// monday is a Monday, 00:00 UTC.
var monday = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

// testGame sets a game up on a board given as YAML, in UTC, with the first
// Monday fixed, every player on the start with 10 coins.
func testGame(t testing.TB, src string, n int) *State {
	t.Helper()
	b := mustBoard(t, src)
	s := &State{BoardID: b.ID, TZ: "UTC", Weeks: 4, Phase: Before, First: "2026-11-23", board: b, loc: time.UTC}
	for i := 0; i < n; i++ {
		s.Players = append(s.Players, Player{Seat: i, Player: string(rune('A' + i)), Name: []string{"Mario", "Luigi", "Peach", "Yoshi"}[i%4],
			Space: b.Start, Coins: startCoins, MRDL: b.DefaultMRDL()})
	}
	return s
}

// resolveWith parses the orders at the time given and resolves them on
// scripted dice; it fails the test on any refusal or leftover die.
func resolveWith(t testing.TB, s *State, texts map[int]string, at time.Time, rolls ...string) (*State, []race.Event) {
	t.Helper()
	orders := map[int]race.Order{}
	for seat, text := range texts {
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: seat, Text: text, At: at})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		orders[seat] = o
	}
	for _, pr := range (Ruleset{}).Prompts(s) {
		if _, ok := orders[pr.Seat]; !ok {
			orders[pr.Seat] = Ruleset{}.DefaultOrder(s, pr.Seat)
		}
	}
	script, err := dice.NewScript(rolls...)
	if err != nil {
		t.Fatal(err)
	}
	before := string(mustJSON(t, s))
	next, events, err := Ruleset{}.Resolve(s, orders, dice.WithSource(script), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if string(mustJSON(t, s)) != before {
		t.Fatal("Resolve changed the state it was given")
	}
	if script.Err() != nil || script.Left() > 0 {
		t.Fatalf("the dice: %v, %d not rolled", script.Err(), script.Left())
	}
	return next.(*State), events
}
