package racetest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest/golden"
)

// A turn case is one turn written down as a host could write it: where the
// racers stand, their orders, and the dice in the order the rules must roll
// them. Every game reads the same file format (docs/turn-cases.md):
//
//	# what the case shows (comments anywhere)
//	GAME'S OWN LINES       the track, the turn, one line per racer ...
//	orders NAME: TEXT      a racer's orders as they would send them
//	window NAME            NAME's orders came in the host's bonus window
//	dice d20=7 green=9     the dice, in the order they must be rolled
//	at 2026-11-23T09:00:00Z  when the orders came in and the turn resolved
//	                       (RFC 3339; for games that follow the clock)
//
// A racer with a prompt and no orders line gets the game's default order.
// The .golden file beside each case holds what must follow: the events
// with their rolls, and every racer after the turn. The case fails if the
// rules roll a die the case does not name, or leave one unrolled.

// CaseReader reads the lines of a turn case that are the game's own.
type CaseReader interface {
	// Line reads one of the game's lines; w is its words, w[0] its keyword.
	Line(w []string) error
	// Seat is the seat of the racer the case calls name.
	Seat(name string) (int, bool)
	// State is the state the lines set up, ready to play a turn.
	State() (race.State, error)
}

// Seats are a turn case's racers by name, each to its seat: a CaseReader
// that embeds them has its Seat, and records each racer in them as its line
// is read.
type Seats map[string]int

// Seat is the seat of the racer the case calls name.
func (s Seats) Seat(name string) (int, bool) { n, ok := s[name]; return n, ok }

// TurnCases is one game's turn cases.
type TurnCases struct {
	Ruleset race.Ruleset
	Dir     string            // the cases' folder: testdata/turns
	New     func() CaseReader // a reader for one case
	// Describe gives the lines of the golden file's "after": every racer
	// and whatever else the turn may change.
	Describe func(race.State) []string
}

// TurnCase is a case as read: its state and each seat's submission.
type TurnCase struct {
	State  race.State
	Orders map[int]race.Submission
	Dice   []string
	At     time.Time // when the orders came in and the turn resolved
}

// ReadTurnCase reads the case at path.
func ReadTurnCase(path string, r CaseReader) (TurnCase, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return TurnCase{}, err
	}
	tc := TurnCase{Orders: map[int]race.Submission{}}
	window := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		w := strings.Fields(text)
		var err error
		switch w[0] {
		case "orders":
			name, rest, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(text, "orders")), ":")
			seat, known := r.Seat(strings.TrimSpace(name))
			switch {
			case !ok:
				err = fmt.Errorf("an orders line is 'orders NAME: ORDERS'")
			case !known:
				err = fmt.Errorf("orders for %q, who is not in the case", name)
			default:
				tc.Orders[seat] = race.Submission{Seat: seat, Text: strings.TrimSpace(rest)}
			}
		case "window":
			if len(w) != 2 {
				err = fmt.Errorf("a window line is 'window NAME'")
			}
			window[strings.Join(w[1:], " ")] = true
		case "dice":
			tc.Dice = append(tc.Dice, w[1:]...)
		case "at":
			if len(w) != 2 {
				err = fmt.Errorf("an at line is 'at TIME', such as 'at 2026-11-23T09:00:00Z'")
			} else if tc.At, err = time.Parse(time.RFC3339, w[1]); err != nil {
				err = fmt.Errorf("at is a time such as 2026-11-23T09:00:00Z; got %q", w[1])
			}
		default:
			err = r.Line(w)
		}
		if err != nil {
			return TurnCase{}, fmt.Errorf("%s:%d: %v", path, line, err)
		}
	}
	for seat, sub := range tc.Orders {
		sub.At = tc.At
		tc.Orders[seat] = sub
	}
	for name := range window {
		seat, ok := r.Seat(name)
		sub, given := tc.Orders[seat]
		if !ok || !given {
			return TurnCase{}, fmt.Errorf("%s: window %s: no orders for %s in the case", path, name, name)
		}
		sub.InWindow = true
		tc.Orders[seat] = sub
	}
	if tc.State, err = r.State(); err != nil {
		return TurnCase{}, fmt.Errorf("%s: %v", path, err)
	}
	return tc, nil
}

// Play plays the case's turn with its dice: every order parsed, a default
// for every prompt without one. It fails if Resolve changes the state it
// was given or the dice are not rolled as the case names them.
func (tc TurnCase) Play(rs race.Ruleset) (race.State, []race.Event, error) {
	script, err := dice.NewScript(tc.Dice...)
	if err != nil {
		return nil, nil, err
	}
	orders := map[int]race.Order{}
	for seat, sub := range tc.Orders {
		o, err := rs.ParseOrder(tc.State, sub)
		if err != nil {
			return nil, nil, fmt.Errorf("orders %q: %v", sub.Text, err)
		}
		orders[seat] = o
	}
	for _, p := range rs.Prompts(tc.State) {
		if _, ok := orders[p.Seat]; !ok {
			orders[p.Seat] = rs.DefaultOrder(tc.State, p.Seat)
		}
	}
	before, err := race.Hash(tc.State)
	if err != nil {
		return nil, nil, err
	}
	next, events, err := rs.Resolve(tc.State, orders, dice.WithSource(script), tc.At)
	if err != nil {
		return nil, nil, err
	}
	if after, _ := race.Hash(tc.State); after != before {
		return nil, nil, fmt.Errorf("resolve changed the state it was given")
	}
	if script.Err() != nil {
		return nil, nil, fmt.Errorf("the dice: %v", script.Err())
	}
	if script.Left() > 0 {
		return nil, nil, fmt.Errorf("the rules rolled %d dice fewer than the case names", script.Left())
	}
	return next, events, nil
}

// Run plays every case in the folder and holds it to its golden file.
func (c TurnCases) Run(t *testing.T) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(c.Dir, "*.txt"))
	if len(files) == 0 {
		t.Fatalf("no turn cases in %s", c.Dir)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			tc, err := ReadTurnCase(path, c.New())
			if err != nil {
				t.Fatal(err)
			}
			next, events, err := tc.Play(c.Ruleset)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(path, ".txt")+".golden", TurnText(events, c.Describe(next)))
		})
	}
}

// TurnText is a turn as golden files show it: the events, each with its
// rolls, and the lines that describe the state after.
func TurnText(events []race.Event, after []string) string {
	var b strings.Builder
	b.WriteString("events:\n")
	WriteEvents(&b, events)
	b.WriteString("after:\n")
	for _, l := range after {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	return b.String()
}

// WriteEvents writes events as golden files show them: each on a line of
// its own, its rolls on the lines after, further in.
func WriteEvents(b *strings.Builder, events []race.Event) {
	for _, e := range events {
		fmt.Fprintf(b, "  %s\n", e.Text)
		for _, r := range e.Rolls {
			fmt.Fprintf(b, "      %s\n", r)
		}
	}
}

// Line walks the words of a case's line, keeping the first thing wrong,
// so a game's reader needs no error check after every number.
type Line struct {
	w   []string
	i   int
	err error
}

// NewLine walks w from its second word (the first is the keyword).
func NewLine(w []string) *Line { return &Line{w: w, i: 1} }

// More says whether a word is left, and nothing went wrong yet.
func (l *Line) More() bool { return l.err == nil && l.i < len(l.w) }

// Word is the next word.
func (l *Line) Word() string {
	if l.i >= len(l.w) {
		l.Failf("%s needs a value after %q", l.w[0], l.w[l.i-1])
		return ""
	}
	l.i++
	return l.w[l.i-1]
}

// Int is the next word, a whole number.
func (l *Line) Int() int {
	v := l.Word()
	n, err := strconv.Atoi(v)
	if err != nil && l.err == nil {
		l.Failf("%q is not a whole number", v)
	}
	return n
}

// Pair is the next word, two whole numbers with sep between ("3,1", "0:5").
func (l *Line) Pair(sep string) (int, int) {
	v := l.Word()
	a, b, ok := strings.Cut(v, sep)
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if (!ok || err1 != nil || err2 != nil) && l.err == nil {
		l.Failf("%q is two whole numbers with %q between", v, sep)
	}
	return x, y
}

// Option is the next word of an option line, KEY=VALUE: its key and value,
// and whether it is one (every game's readings are race options, read alike).
func (l *Line) Option() (key, value string, ok bool) {
	key, value, ok = strings.Cut(l.Word(), "=")
	if !ok && l.err == nil {
		l.Failf("an option line is 'option KEY=VALUE'")
	}
	return key, value, ok && l.err == nil
}

// Fields reads the rest of a line that sets up one racer (what names the
// line: "car", "racer"), word by word, as every game's reader does: a word
// of ints takes the whole number after it; any other goes to word, which
// reads what follows it and says whether it knew the word. An unknown word
// fails the line.
func (l *Line) Fields(what string, ints map[string]*int, word func(k string) bool) {
	for l.More() {
		k := l.Word()
		if n, ok := ints[k]; ok {
			*n = l.Int()
			continue
		}
		if word == nil || !word(k) {
			l.Failf("unknown word %q in a %s line", k, what)
		}
	}
}

// Check keeps err, if it is the first thing wrong.
func (l *Line) Check(err error) {
	if err != nil && l.err == nil {
		l.err = err
	}
}

// Failf keeps an error, if it is the first thing wrong.
func (l *Line) Failf(format string, a ...any) { l.Check(fmt.Errorf(format, a...)) }

// Err is the first thing wrong with the line.
func (l *Line) Err() error { return l.err }
