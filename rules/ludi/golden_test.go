package ludi

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
	"pitwall/rules/ludi/tables"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/turns")

// A turn case is a text file a host can write: the chariots where they stand,
// their orders, and the dice in the order the rules must roll them.
//
//	# a comment: what the case shows
//	turn 2                      (the turn to play; 1 is the race start)
//	orders-per-turn 1
//	chariot Marcus lane 3 at 0:5 FAST skill 1 constitution 1 quality 1 size 1 speed 0 endurance 2
//	chariot Livia lane 4 at 0:5 LOW damage 1/0 worn 1 stunned 1 flipped lap 2 injuries 1 lame 1
//	chariot Titus lane 3 at 0:9 wreck      (flipped and abandoned: an obstacle)
//	orders Marcus: Whip
//	window Marcus               (Marcus's orders came in the bonus window)
//	dice d20=7 d20=3 green=9
//
// Team characteristics not given are 1. 'worn N' is the Endurance left.
// The golden file beside it (.golden) holds the events, with their rolls, and
// every chariot after the turn; -update rewrites it.
type turnCase struct {
	state    *State
	orders   map[int]string
	inWindow map[int]bool
	dice     []string
}

func parseCase(t *testing.T, path string) turnCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := LoadTrack("circus-maximus")
	if err != nil {
		t.Fatal(err)
	}
	tc := turnCase{state: &State{TrackID: tr.ID, T: 2, Laps: 3, Orders: 1, track: tr}, orders: map[int]string{}, inWindow: map[int]bool{}}
	byName := map[string]int{}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fail := func(format string, a ...any) {
			t.Fatalf("%s:%d: %s", path, line, fmt.Sprintf(format, a...))
		}
		w := strings.Fields(text)
		num := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil {
				fail("%q is not a number", s)
			}
			return n
		}
		switch w[0] {
		case "turn":
			tc.state.T = num(w[1])
		case "laps":
			tc.state.Laps = num(w[1])
		case "orders-per-turn":
			tc.state.Orders = num(w[1])
		case "chariot":
			c := Chariot{Seat: len(tc.state.Chariots), Name: w[1], Player: w[1], Package: "test",
				Team: Team{1, 1, 1, 1, 1, 1}}
			worn := -1
			for i := 2; i < len(w); i++ {
				k := strings.ToLower(w[i])
				next := func() string {
					i++
					if i >= len(w) {
						fail("%s needs a value", k)
					}
					return w[i]
				}
				switch k {
				case "lane":
					c.Pos.Lane = num(next())
				case "at":
					s, cell, ok := strings.Cut(next(), ":")
					if !ok {
						fail("at is SEGMENT:SPACE")
					}
					c.Pos.Seg, c.Pos.Cell = num(s), num(cell)
				case "stop", "low", "fast", "max":
					lv, _ := tables.ParseLevel(k)
					c.Level = lv
				case "skill", "constitution", "quality", "size", "speed", "endurance":
					*c.Team.field(k) = num(next())
				case "worn":
					worn = num(next())
				case "damage":
					l, r, _ := strings.Cut(next(), "/")
					c.DamageL, c.DamageR = num(l), num(r)
				case "stunned":
					c.Stunned = num(next())
				case "injuries":
					c.HorseInjuries = num(next())
				case "lame":
					c.Lame = num(next())
				case "lap":
					c.Lap = num(next())
				case "flipped":
					c.Flipped = true
				case "wreck": // flipped, its auriga gone: an obstacle and nothing more
					c.Flipped, c.Out = true, RolledAway
				case "droptofast":
					c.DropToFast = true
				default:
					fail("unknown word %q in a chariot line", w[i])
				}
			}
			c.Skill, c.Endurance = c.Team.Skill, c.Team.Endurance
			if worn >= 0 {
				c.Endurance = worn
			}
			if c.Pos.Lane == 0 {
				fail("chariot %s has no lane", c.Name)
			}
			byName[c.Name] = c.Seat
			tc.state.Chariots = append(tc.state.Chariots, c)
		case "orders":
			name := strings.TrimSuffix(w[1], ":")
			seat, ok := byName[name]
			if !ok {
				fail("no chariot %q", name)
			}
			_, rest, _ := strings.Cut(text, ":")
			tc.orders[seat] = strings.TrimSpace(rest)
		case "window":
			tc.inWindow[byName[w[1]]] = true
		case "dice":
			tc.dice = append(tc.dice, w[1:]...)
		default:
			fail("unknown line %q", w[0])
		}
	}
	return tc
}

// describe prints a chariot as the golden files show it.
func describe(c *Chariot) string {
	parts := []string{fmt.Sprintf("%-8s lane %d at %d:%d lap %d %s", c.Name, c.Pos.Lane, c.Pos.Seg, c.Pos.Cell, c.Lap, c.Level)}
	parts = append(parts, fmt.Sprintf("damage %d/%d endurance %d/%d skill %d", c.DamageL, c.DamageR, c.Endurance, c.Team.Endurance, c.Skill))
	for _, x := range []struct {
		n string
		v int
	}{{"injuries", c.HorseInjuries}, {"lame", c.Lame}, {"stunned", c.Stunned}, {"hurt", c.Injured}} {
		if x.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", x.n, x.v))
		}
	}
	if c.Flipped {
		parts = append(parts, "FLIPPED")
	}
	if c.DropToFast {
		parts = append(parts, "drop-to-fast")
	}
	if c.Out != "" {
		parts = append(parts, "OUT: "+c.Out)
	}
	return strings.Join(parts, " ")
}

func TestGoldenTurns(t *testing.T) {
	files, _ := filepath.Glob("testdata/turns/*.txt")
	if len(files) == 0 {
		t.Fatal("no turn cases in testdata/turns")
	}
	sort.Strings(files)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			tc := parseCase(t, path)
			script, err := dice.NewScript(tc.dice...)
			if err != nil {
				t.Fatal(err)
			}
			rs := Ruleset{}
			orders := map[int]race.Order{}
			for seat, text := range tc.orders {
				o, err := rs.ParseOrder(tc.state, race.Submission{Seat: seat, Text: text, InWindow: tc.inWindow[seat]})
				if err != nil {
					t.Fatalf("orders %q: %v", text, err)
				}
				orders[seat] = o
			}
			for _, p := range rs.Prompts(tc.state) {
				if _, ok := orders[p.Seat]; !ok {
					orders[p.Seat] = rs.DefaultOrder(tc.state, p.Seat)
				}
			}
			before, _ := race.Hash(tc.state)
			next, events, err := rs.Resolve(tc.state, orders, dice.WithSource(script), time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := race.Hash(tc.state); after != before {
				t.Fatal("Resolve changed the state it was given")
			}
			if script.Err() != nil {
				t.Fatalf("the dice: %v", script.Err())
			}
			if script.Left() > 0 {
				t.Fatalf("the rules rolled %d dice fewer than the case names", script.Left())
			}
			var b strings.Builder
			b.WriteString("events:\n")
			for _, e := range events {
				fmt.Fprintf(&b, "  %s\n", e.Text)
				for _, r := range e.Rolls {
					fmt.Fprintf(&b, "      %s\n", r)
				}
			}
			b.WriteString("after:\n")
			for i := range next.(*State).Chariots {
				fmt.Fprintf(&b, "  %s\n", describe(&next.(*State).Chariots[i]))
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
				t.Fatalf("%v (run go test -run TestGoldenTurns -update, then read the file)", err)
			}
			if string(want) != b.String() {
				t.Errorf("turn differs from %s:\n--- got\n%s--- want\n%s", golden, b.String(), want)
			}
		})
	}
}
