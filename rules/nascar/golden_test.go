package nascar

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

// A turn case is a text file a host can write, on the test loop
// (testdata/loop.txt): the cars where they stand, their orders, any oil on
// the track, and the dice in the order the rules must roll them.
//
//	# what the case shows
//	laps 3
//	car Marcus at 13,1 heading E speed 4 max 12 wildcards 6 upgrade turbo crossings 3 inpit
//	oil 7,1
//	orders Marcus: MMMM
//	dice coin=2
//
// The .golden file beside it holds the events, with their rolls, and every car after the turn.
// loadLoop reads the test loop.
func loadLoop(t *testing.T) *Track {
	t.Helper()
	src, err := os.ReadFile("testdata/loop.txt")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ParseTrack("loop.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func parseCase(t *testing.T, path string) (*State, map[int]string, []string) {
	t.Helper()
	tr := loadLoop(t)
	s := &State{TrackID: tr.ID, T: 5, Laps: tr.Laps, track: tr, Sandbags: tr.Sandbag}
	orders := map[int]string{}
	var rolls []string
	byName := map[string]int{}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fail := func(format string, a ...any) { t.Fatalf("%s:%d: %s", path, line, fmt.Sprintf(format, a...)) }
		num := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil {
				fail("%q is not a number", s)
			}
			return n
		}
		point := func(s string) Point {
			x, y, ok := strings.Cut(s, ",")
			if !ok {
				fail("a square is X,Y; got %q", s)
			}
			return Point{num(x), num(y)}
		}
		w := strings.Fields(text)
		switch w[0] {
		case "laps":
			s.Laps = num(w[1])
		case "oil":
			s.Oil = append(s.Oil, point(w[1]))
		case "dice":
			rolls = append(rolls, w[1:]...)
		case "orders":
			name := strings.TrimSuffix(w[1], ":")
			seat, ok := byName[name]
			if !ok {
				fail("no car %q", name)
			}
			_, rest, _ := strings.Cut(text, ":")
			orders[seat] = strings.TrimSpace(rest)
		case "car":
			c := RaceCar{Seat: len(s.Cars), Name: w[1], Player: w[1], MaxSpeed: StartMaxSpeed, Wildcards: StartWildcards, Heading: E, Crossings: 1}
			for i := 2; i < len(w); i++ {
				next := func() string {
					i++
					if i >= len(w) {
						fail("%s needs a value", w[i-1])
					}
					return w[i]
				}
				switch w[i] {
				case "at":
					c.Pos = point(next())
				case "heading":
					h, err := ParseHeading(next())
					if err != nil {
						fail("%v", err)
					}
					c.Heading = h
				case "speed":
					c.Speed = num(next())
				case "max":
					c.MaxSpeed = num(next())
				case "wildcards":
					c.Wildcards = num(next())
				case "crossings":
					c.Crossings = num(next())
				case "upgrade":
					u, err := ParseUpgrade(next())
					if err != nil {
						fail("%v", err)
					}
					c.Upgrade = u
				case "inpit":
					c.InPit = true
				default:
					fail("unknown word %q in a car line", w[i])
				}
			}
			byName[c.Name] = c.Seat
			s.Cars = append(s.Cars, c)
		default:
			fail("unknown line %q", w[0])
		}
	}
	return s, orders, rolls
}

func describe(c *RaceCar) string {
	parts := []string{fmt.Sprintf("%-7s at %d,%d heading %-2v speed %d max %d wildcards %d crossings %d", c.Name, c.Pos.X, c.Pos.Y, c.Heading, c.Speed, c.MaxSpeed, c.Wildcards, c.Crossings)}
	if c.InPit {
		parts = append(parts, "in the pit")
	}
	if c.PitBroken {
		parts = append(parts, "pit limit broken")
	}
	if c.Out != "" {
		parts = append(parts, "OUT: "+c.Out)
	}
	return strings.Join(parts, " ")
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
			orders := map[int]race.Order{}
			rs := Ruleset{}
			for seat, text := range texts {
				o, err := rs.ParseOrder(s, race.Submission{Seat: seat, Text: text})
				if err != nil {
					t.Fatalf("orders %q: %v", text, err)
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
			for i := range ns.Cars {
				fmt.Fprintf(&b, "  %s\n", describe(&ns.Cars[i]))
			}
			if len(ns.Oil) > 0 || len(ns.Found) > 0 {
				fmt.Fprintf(&b, "  oil %v, sandbags seen %v\n", ns.Oil, ns.Found)
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
				t.Fatalf("%v (run go test ./rules/nascar -run TestGoldenTurns -update, then read the file)", err)
			}
			if string(want) != b.String() {
				t.Errorf("turn differs from %s:\n--- got\n%s--- want\n%s", golden, b.String(), want)
			}
		})
	}
}
