package rtd

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/turns")

// A turn case is a text file a host can write:
//
//	# what the case shows
//	course luigi-circuit
//	turn 3                       (the race's turn; 1 is the start)
//	racer Mario segment 2 laps 0 momentum 3 perk item-bonus debuff slow hand mushroom fellback
//	order Mario Luigi            (race order, first place first; default: as listed)
//	action Mario: aggressive
//	dice d6=4 d6=2
//
// The .golden beside it holds the events, with their rolls, and every racer after.
func parseCase(t *testing.T, path string) (*State, map[int]string, []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := &State{T: 2, Laps: 3}
	actions := map[int]string{}
	var rolls []string
	byName := map[string]int{}
	var order []string
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fail := func(format string, a ...any) { t.Fatalf("%s:%d: %s", path, line, fmt.Sprintf(format, a...)) }
		num := func(v string) int {
			n, err := strconv.Atoi(v)
			if err != nil {
				fail("%q is not a number", v)
			}
			return n
		}
		w := strings.Fields(text)
		switch w[0] {
		case "course":
			c, err := LoadCourse(w[1])
			if err != nil {
				fail("%v", err)
			}
			s.course, s.CourseID = c, c.ID
		case "turn":
			s.T = num(w[1]) - 1
		case "laps":
			s.Laps = num(w[1])
		case "racer":
			x := Racer{Seat: len(s.Racers), Name: w[1], Player: w[1]}
			for i := 2; i < len(w); i++ {
				next := func() string {
					i++
					if i >= len(w) {
						fail("%s needs a value", w[i-1])
					}
					return w[i]
				}
				switch w[i] {
				case "segment":
					x.Segment = num(next())
				case "laps":
					x.Laps = num(next())
				case "momentum":
					x.Momentum = num(next())
				case "perk", "debuff":
					k := w[i]
					p, err := ParsePerk(next())
					if err != nil {
						fail("%v", err)
					}
					if k == "perk" {
						x.Perk = p
					} else {
						x.Debuff = p
					}
				case "hand":
					v := next()
					for it := Banana; it <= Thunderbolt; it++ {
						if it.String() == v {
							x.Hand = it
						}
					}
					if x.Hand == 0 {
						fail("no item %q", v)
					}
				case "fellback":
					x.FellBack = true
				case "star":
					x.Star = num(next())
				case "ghost":
					x.Ghost = num(next())
				case "ink":
					x.Ink = num(next())
				case "shrunk":
					x.Shrunk = num(next())
				case "shells":
					x.Shells = num(next())
				default:
					fail("unknown word %q in a racer line", w[i])
				}
			}
			byName[x.Name] = x.Seat
			s.Racers = append(s.Racers, x)
		case "order":
			order = w[1:]
		case "action":
			name := strings.TrimSuffix(w[1], ":")
			seat, ok := byName[name]
			if !ok {
				fail("no racer %q", name)
			}
			_, rest, _ := strings.Cut(text, ":")
			actions[seat] = strings.TrimSpace(rest)
		case "dice":
			rolls = append(rolls, w[1:]...)
		case "blue": // a blue shell fired last turn by NAME strikes this turn
			seat, ok := byName[w[1]]
			if !ok {
				fail("no racer %q", w[1])
			}
			s.BlueShell = &BlueShellShot{By: seat, Turn: -1} // set to this turn below
		default:
			fail("unknown line %q", w[0])
		}
	}
	if s.course == nil {
		t.Fatalf("%s: no course line", path)
	}
	if s.BlueShell != nil {
		s.BlueShell.Turn = s.T
	}
	if order == nil {
		for _, x := range s.Racers {
			order = append(order, x.Name)
		}
	}
	for _, n := range order {
		s.Order = append(s.Order, byName[n])
	}
	return s, actions, rolls
}

func describe(s *State, x *Racer) string {
	out := fmt.Sprintf("%d. %-6s lap %d %-22s momentum %d", s.position(x.Seat), x.Name, x.Laps+1, s.course.Segments[x.Segment].Name, x.Momentum)
	if x.Hand != 0 {
		out += " holding " + x.Hand.String()
	}
	if x.FellBack {
		out += " fell-back"
	}
	for _, e := range []struct {
		n string
		v int
	}{{"shells", x.Shells}, {"ink", x.Ink}, {"shrunk", x.Shrunk}, {"star", x.Star}, {"ghost", x.Ghost}} {
		if e.v > 0 && (e.n != "shells" || x.Hand == TripleRedShell) {
			out += fmt.Sprintf(" %s %d", e.n, e.v)
		}
	}
	if x.Finished {
		out += " FINISHED"
	}
	return out
}

func TestGoldenTurns(t *testing.T) {
	files, _ := filepath.Glob("testdata/turns/*.txt")
	if len(files) == 0 {
		t.Fatal("no turn cases")
	}
	sort.Strings(files)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			s, texts, rolls := parseCase(t, path)
			script, err := dice.NewScript(rolls...)
			if err != nil {
				t.Fatal(err)
			}
			rs := Ruleset{}
			orders := map[int]race.Order{}
			for seat, text := range texts {
				o, err := rs.ParseOrder(s, race.Submission{Seat: seat, Text: text})
				if err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				orders[seat] = o
			}
			before, _ := race.Hash(s)
			next, events, err := rs.Resolve(s, orders, dice.WithSource(script), time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := race.Hash(s); after != before {
				t.Fatal("Resolve changed the state it was given")
			}
			if script.Err() != nil || script.Left() > 0 {
				t.Fatalf("the dice: %v, %d not rolled", script.Err(), script.Left())
			}
			var b strings.Builder
			b.WriteString("events:\n")
			for _, e := range events {
				fmt.Fprintf(&b, "  %s\n", e.Text)
				for _, r := range e.Rolls {
					fmt.Fprintf(&b, "      %s\n", r)
				}
			}
			ns := next.(*State)
			b.WriteString("after:\n")
			for _, seat := range ns.Order {
				fmt.Fprintf(&b, "  %s\n", describe(ns, ns.racer(seat)))
			}
			golden := strings.TrimSuffix(path, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./rules/rtd -run TestGoldenTurns -update, then read the file)", err)
			}
			if string(want) != b.String() {
				t.Errorf("turn differs from %s:\n--- got\n%s--- want\n%s", golden, b.String(), want)
			}
		})
	}
}
