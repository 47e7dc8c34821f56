package racetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest/golden"
)

// dashReader reads dash's own line: 'racer NAME at POS'.
type dashReader struct {
	s     dashState
	names map[string]int
}

func newDashReader() CaseReader { return &dashReader{s: dashState{T: 1}, names: map[string]int{}} }

func (r *dashReader) Line(w []string) error {
	l := NewLine(w)
	if w[0] != "racer" {
		l.Failf("unknown line %q", w[0])
		return l.Err()
	}
	name := l.Word()
	if l.Word() != "at" {
		l.Failf("a racer line is 'racer NAME at POS'")
	}
	r.names[name] = len(r.s.Pos)
	r.s.Pos = append(r.s.Pos, l.Int())
	r.s.Boost, r.s.Opts = append(r.s.Boost, 0), append(r.s.Opts, 0)
	if l.More() {
		l.Failf("%q after the position", l.Word())
	}
	return l.Err()
}

func (r *dashReader) Seat(name string) (int, bool) { n, ok := r.names[name]; return n, ok }
func (r *dashReader) State() (race.State, error)   { return &r.s, nil }

func writeCase(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name+".txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadTurnCase(t *testing.T) {
	dir := t.TempDir()
	p := writeCase(t, dir, "ok", "# a comment\nracer Ann at 3\nracer Bo at 28\n\norders Bo: boost\nwindow Bo\ndice d6=2 d6=1\nat 2026-11-23T09:00:00Z\n")
	tc, err := ReadTurnCase(p, newDashReader())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	if sub := tc.Orders[1]; sub.Text != "boost" || !sub.InWindow || !sub.At.Equal(at) || len(tc.Orders) != 1 {
		t.Errorf("orders %+v", tc.Orders)
	}
	if strings.Join(tc.Dice, " ") != "d6=2 d6=1" || !tc.At.Equal(at) {
		t.Errorf("dice %v at %v", tc.Dice, tc.At)
	}
	next, _, err := tc.Play(dash{})
	if err != nil {
		t.Fatal(err)
	}
	// Ann: 3+2 (default go); Bo: 28+1+1 (boost in the window) = 30, finished.
	if s := next.(*dashState); s.Pos[0] != 5 || s.Pos[1] != 30 || len(s.Finish) != 1 {
		t.Errorf("after: %+v", s)
	}
	for _, bad := range []struct{ text, want string }{
		{"racer Ann at 3\norders Cy: go\n", `:2: orders for "Cy", who is not in the case`},
		{"racer Ann at 3\norders Ann go\n", ":2: an orders line is 'orders NAME: ORDERS'"},
		{"racer Ann at 3\nwindow Ann\n", "window Ann: no orders for Ann"},
		{"racer Ann at 3\nwindow\n", ":2: a window line is 'window NAME'"},
		{"racer Ann at 3\nat noon\n", `:2: at is a time such as 2026-11-23T09:00:00Z; got "noon"`},
		{"racer Ann at three\n", `:1: "three" is not a whole number`},
		{"racer Ann at 3x\n", `:1: "3x" is not a whole number`},
		{"racer Ann at\n", `:1: racer needs a value after "at"`},
		{"racer Ann at 3 fast\n", `:1: "fast" after the position`},
		{"car Ann at 3\n", `:1: unknown line "car"`},
	} {
		_, err := ReadTurnCase(writeCase(t, dir, "bad", bad.text), newDashReader())
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: got %v, want %q", bad.text, err, bad.want)
		}
	}
	if _, err := ReadTurnCase(filepath.Join(dir, "none.txt"), newDashReader()); err == nil {
		t.Error("a missing file is read")
	}
}

func TestPlayHoldsTheDice(t *testing.T) {
	dir := t.TempDir()
	for _, bad := range []struct{ text, want string }{
		{"racer Ann at 3\ndice d6=2 d6=1\n", "rolled 1 dice fewer"},
		{"racer Ann at 3\nracer Bo at 1\ndice d6=2\n", "the dice"},
		{"racer Ann at 3\ndice d20=2\n", "the dice"},
		{"racer Ann at 3\ndice d6=9\n", "d6 has no face 9"},
		{"racer Ann at 3\norders Ann: boost\ndice d6=1\n", "orders \"boost\": a boost only in the window"},
	} {
		tc, err := ReadTurnCase(writeCase(t, dir, "bad", bad.text), newDashReader())
		if err == nil {
			_, _, err = tc.Play(dash{})
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: got %v, want %q", bad.text, err, bad.want)
		}
	}
}

func TestTurnText(t *testing.T) {
	got := TurnText([]race.Event{{Text: "Ann moves", Rolls: []dice.Roll{{Seat: 0, Reason: "Ann: move", Die: "d6", Result: 2}}}, {Text: "Bo waits"}}, []string{"Ann at 5"})
	want := "events:\n  Ann moves\n      Ann: move: d6 = 2\n  Bo waits\nafter:\n  Ann at 5\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestGolden checks how golden.Check, which Run holds cases to, fails,
// here where a recorder of failures is at hand.
func TestGolden(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.golden")
	if err := os.WriteFile(p, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, p, "one\n")
	if msg := failure(t, func(tb testing.TB) { golden.Check(tb, p, "two\n") }); !strings.Contains(msg, "differs from") {
		t.Errorf("a changed text: %q", msg)
	}
	if msg := failure(t, func(tb testing.TB) { golden.Check(tb, p+".none", "two\n") }); !strings.Contains(msg, "-update") {
		t.Errorf("a missing golden: %q", msg)
	}
}

func TestLinePair(t *testing.T) {
	l := NewLine([]string{"car", "3,-1"})
	if x, y := l.Pair(","); x != 3 || y != -1 || l.Err() != nil {
		t.Errorf("3,-1: %d %d %v", x, y, l.Err())
	}
	for _, bad := range []string{"3;1", "3,", "3,1x", "a,1"} {
		l := NewLine([]string{"car", bad})
		l.Pair(",")
		if l.Err() == nil || !strings.Contains(l.Err().Error(), "two whole numbers") {
			t.Errorf("%q: %v", bad, l.Err())
		}
	}
}

func TestLineOption(t *testing.T) {
	l := NewLine([]string{"option", "watch-crash=none"})
	if k, v, ok := l.Option(); k != "watch-crash" || v != "none" || !ok || l.Err() != nil {
		t.Errorf("watch-crash=none: %q %q %v %v", k, v, ok, l.Err())
	}
	for bad, says := range map[string]string{"watch-crash": "'option KEY=VALUE'", "": "option needs a value"} {
		w := []string{"option"}
		if bad != "" {
			w = append(w, bad)
		}
		l := NewLine(w)
		if _, _, ok := l.Option(); ok || l.Err() == nil || !strings.Contains(l.Err().Error(), says) {
			t.Errorf("%q: ok %v, %v; want it refused saying %q", bad, ok, l.Err(), says)
		}
	}
}

func TestLineFields(t *testing.T) {
	var speed int
	var pit bool
	read := func(w ...string) error {
		speed, pit = 0, false
		l := NewLine(append([]string{"car"}, w...))
		l.Fields("car", map[string]*int{"speed": &speed}, func(k string) bool {
			pit = pit || k == "inpit"
			return k == "inpit"
		})
		return l.Err()
	}
	if err := read("Ann", "speed", "4", "inpit"); err == nil || !strings.Contains(err.Error(), `unknown word "Ann" in a car line`) {
		t.Errorf("a name where a word goes: %v", err)
	}
	if err := read("speed", "4", "inpit"); err != nil || speed != 4 || !pit {
		t.Errorf("speed 4 inpit: %d %v %v", speed, pit, err)
	}
	if err := read("speed", "x"); err == nil || !strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("speed x: %v", err)
	}
}
