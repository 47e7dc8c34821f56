package party

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// oddsBoard has what a move can meet: a fork of two and one of three, a
// star space, a space that costs no Movement, a space with no successor.
const oddsBoard = `
start: o
mrdl: [d4, d6, -2]
spaces:
  - {id: o, next: [a]}
  - {id: a, type: blue, next: [f]}
  - {id: f, type: red, next: [b1, n]}
  - {id: b1, type: happening, next: [st]}
  - {id: st, type: star, next: [b2]}
  - {id: b2, type: blue, next: [g]}
  - {id: n, decrementing: false, next: [c1]}
  - {id: c1, type: chance, next: [g]}
  - {id: g, next: [x, y, z]}
  - {id: x, type: blue, next: [e]}
  - {id: y, type: red, next: [e]}
  - {id: z, next: [e]}
  - {id: e}
`

func TestMovementOdds(t *testing.T) {
	for _, c := range []struct {
		mrdl  MRDL
		boost int
		want  string
	}{
		{nil, 0, "1:1/10 2:1/10 3:1/10 4:1/10 5:1/10 6:1/10 7:1/10 8:1/10 9:1/10 10:1/10"},
		{MRDL{{Add: 4}}, 0, "4:1/1"},
		{MRDL{{Sides: 1}, {Add: -3}}, 2, "0:1/1"},
		{MRDL{{Sides: 2}, {Add: -3}, {Sides: 3}}, 1, "0:1/6 1:2/6 2:2/6 3:1/6"},
		{MRDL{{Sides: 6}, {Sides: 6}}, 0, "2:1/36 3:2/36 4:3/36 5:4/36 6:5/36 7:6/36 8:5/36 9:4/36 10:3/36 11:2/36 12:1/36"},
		{MRDL{{Sides: 4}, {Sides: 6}, {Add: -2}}, 3, "3:1/24 4:2/24 5:3/24 6:4/24 7:4/24 8:4/24 9:3/24 10:2/24 11:1/24"},
	} {
		ms := c.mrdl.movementOdds(c.boost)
		var got []string
		total := 0.0
		for _, m := range ms {
			den := strings.Split(c.want, "/")[1]
			den = strings.Fields(den)[0]
			var d float64
			fmt.Sscan(den, &d)
			got = append(got, fmt.Sprintf("%d:%d/%s", m.Movement, int(math.Round(m.Chance*d)), den))
			if math.Abs(m.Chance*d-math.Round(m.Chance*d)) > 1e-9 {
				t.Errorf("%v: %d has chance %v, not a multiple of 1/%s", c.mrdl, m.Movement, m.Chance, den)
			}
			total += m.Chance
		}
		if strings.Join(got, " ") != c.want || math.Abs(total-1) > 1e-12 {
			t.Errorf("%v boost %d: %s (total %v), want %s", c.mrdl, c.boost, strings.Join(got, " "), total, c.want)
		}
	}
}

// The odds of a move are those of the board's walk, Movement by Movement:
// from every space, with every route the board's forks allow.
func TestMoveOddsAreTheWalks(t *testing.T) {
	toad, err := LoadBoard(DefaultBoard)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []*Board{mustBoard(t, oddsBoard), mustBoard(t, smallBoard), toad} {
		for _, sp := range b.Spaces {
			routes, _, _ := b.routes(sp.ID, 12, maxChoiceRoutes)
			routes = append(routes, nil, []string{"nowhere"})
			for _, r := range routes {
				for m := -2; m <= 12; m++ {
					o := b.moveOdds(sp.ID, []Movement{{m, 1}}, r)
					w := b.walk(sp.ID, m, r, nil)
					want := Odds{Lands: map[string]float64{}, Types: map[string]float64{}}
					if w.fork != "" {
						want.Waits = map[string]float64{w.fork: 1}
					} else {
						want.Lands[w.at] = 1
						want.Types[string(b.Space(w.at).Type)] = 1
					}
					for _, id := range w.passed {
						if b.Space(id).Type == Star {
							want.Star = 1
						}
					}
					if fmt.Sprint(o) != fmt.Sprint(want) {
						t.Fatalf("%s from %s by %d via %v: %+v, want %+v", b.ID, sp.ID, m, r, o, want)
					}
				}
			}
		}
	}
}

// A board thick with forks lists at most maxChoiceRoutes routes, none
// longer than an order takes, and says it left some out.
func TestRoutesAreBounded(t *testing.T) {
	var src strings.Builder
	src.WriteString("start: f0\nspaces:\n")
	const n = 60
	for i := range n {
		fmt.Fprintf(&src, "  - {id: f%d, next: [a%d, b%d]}\n  - {id: a%d, next: [f%d]}\n  - {id: b%d, next: [f%d]}\n", i, i, i, i, (i+1)%n, i, (i+1)%n)
	}
	b := mustBoard(t, src.String())
	for _, c := range []struct {
		hi, limit, routes int
		more              bool
	}{
		{1, maxChoiceRoutes, 2, false},   // f0's two ways, then no Movement left at f1
		{2, maxChoiceRoutes, 2, false},   // lands on f1, no Movement left
		{3, maxChoiceRoutes, 6, false},   // a0, b0, then f1's two ways from each
		{500, maxChoiceRoutes, 64, true}, // more than the limit
		{500, 1000, 100, true},           // one way down to the most forks an order answers
	} {
		routes, forks, more := b.routes("f0", c.hi, c.limit)
		longest := 0
		for _, r := range routes {
			longest = max(longest, len(r))
		}
		if len(routes) < c.routes || (c.routes <= maxChoiceRoutes && len(routes) != c.routes) || more != c.more || longest > maxRoute || len(forks) == 0 {
			t.Errorf("movement %d, limit %d: %d routes (longest %d), %d forks, more %v; want %d routes, more %v",
				c.hi, c.limit, len(routes), longest, len(forks), more, c.routes, c.more)
		}
		if c.limit > maxChoiceRoutes && longest != maxRoute {
			t.Errorf("movement %d: the longest route is %d, want %d", c.hi, longest, maxRoute)
		}
	}
}

// The odds listed beside each choice are those of the game: each choice's
// order, resolved many times on different seeds by Resolve, ends where the
// odds say, within four standard errors; and nowhere they leave out.
func TestOddsMatchResolve(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 1000
	}
	at := monday.Add(10 * time.Hour)
	open := func(s *State) *State {
		s.advance(at)
		return s
	}
	toadSrc, err := boardFiles.ReadFile("boards/toad-town.yaml")
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]*State{}
	s := open(testGame(t, oddsBoard, 3))
	states["odds board, from the start"] = s
	s = open(testGame(t, oddsBoard, 3))
	s.Players[1].Space, s.Players[1].Boost, s.Players[1].Coins = "g", 3, 25
	states["odds board, on a fork, boosted"] = s
	s = open(testGame(t, oddsBoard, 3))
	s.Players[2].Space, s.Players[2].MRDL, s.Players[2].Coins = "a", MRDL{{Sides: 4}}, 40
	states["odds board, d4"] = s
	s = open(testGame(t, string(toadSrc), 2))
	s.Players[0].Space, s.Players[0].MRDL = "p6", MRDL{{Sides: 6}, {Sides: 6}}
	states["toad town, 2d6"] = s
	s = open(testGame(t, string(toadSrc), 2))
	s.Players[1].Space = "p12"
	states["toad town, d10"] = s
	// A player waiting at a fork: what each way does is certain.
	s, _ = resolveWith(t, open(testGame(t, oddsBoard, 2)), map[int]string{0: "roll"}, at, "d4=4", "d6=1")
	states["odds board, waiting at f"] = s
	names := make([]string, 0, len(states))
	for k := range states {
		names = append(names, k)
	}
	sort.Strings(names)
	checked := 0
	seen := map[string]bool{}
	for _, name := range names {
		s := states[name]
		for _, pl := range s.Players {
			v, err := Ruleset{}.Choices(s, pl.Seat)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range v.(Choices).Orders {
				key := fmt.Sprintf("%s %s %v", name, c.Order, c.Odds)
				if c.Odds == nil || strings.HasPrefix(c.Order, "try") || seen[key] {
					continue // try roll is the roll's odds, shared; seats alike are alike
				}
				seen[key] = true
				simulate(t, fmt.Sprintf("%s, seat %d, %s", name, pl.Seat, c.Order), s, pl.Seat, c, n)
				checked++
			}
		}
	}
	t.Logf("%d choices checked", checked)
	if checked < 15 {
		t.Fatalf("%d choices checked: the sample misses cases", checked)
	}
}

// simulate resolves choice c's order n times, on seeds 1 to n, and compares
// how often each outcome came up with its odds.
func simulate(t *testing.T, where string, s *State, seat int, c Choice, n int) {
	t.Helper()
	o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: seat, Text: c.Order, At: s.Clock})
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	want := map[string]float64{"star": c.Odds.Star}
	for k, p := range c.Odds.Lands {
		want["lands "+k] = p
	}
	for k, p := range c.Odds.Types {
		want["type "+k] = p
	}
	for k, p := range c.Odds.Waits {
		want["waits "+k] = p
	}
	count := map[string]int{}
	for k := 1; k <= n; k++ {
		ns, _, err := Ruleset{}.Resolve(s, map[int]race.Order{seat: o}, dice.New(dice.SeedFromInt(uint64(k))), time.Time{})
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		q := ns.(*State).player(seat)
		if q.Pause != nil {
			count["waits "+q.Pause.Fork]++
		} else {
			count["lands "+q.Space]++
			count["type "+string(s.board.Space(q.Space).Type)]++
		}
		// The spaces this move passed: the player's walk this week, after
		// what it held before (a roll's first entry is where it started).
		for _, id := range flat(q.Path)[len(flat(s.player(seat).Path)):] {
			if s.board.Space(id).Type == Star {
				count["star"]++
				break
			}
		}
	}
	for k := range count {
		if _, ok := want[k]; !ok {
			want[k] = 0
		}
	}
	for k, p := range want {
		got := float64(count[k]) / float64(n)
		if !racetest.Agrees(float64(count[k]), n, p, 1e-9) {
			t.Errorf("%s: %s %.4f in %d resolves, odds %.4f", where, k, got, n, p)
		}
	}
}

func flat(path [][]string) []string {
	var out []string
	for _, seg := range path {
		out = append(out, seg...)
	}
	return out
}

// The happening and Chance Time tables, cell by cell at each face.
func TestFaceTables(t *testing.T) {
	happening := []string{"", thwomp, thwomp, coinShower, coinShower, tailwind, tailwind}
	chance := []string{"", givesCoins, givesCoins, takesCoins, takesCoins, swapCoins, swapStars}
	for face := 1; face <= 6; face++ {
		if happeningOn[face] != happening[face] {
			t.Errorf("happening d6 %d: %q; want %q", face, happeningOn[face], happening[face])
		}
		if chanceOn[face] != chance[face] {
			t.Errorf("chance d6 %d: %q; want %q", face, chanceOn[face], chance[face])
		}
	}
}

func TestChecks(t *testing.T) {
	for _, c := range []struct {
		check string
		args  map[string]string
		want  map[string]float64
	}{
		{"happening", nil, map[string]float64{thwomp: 2.0 / 6, coinShower: 2.0 / 6, tailwind: 2.0 / 6}},
		{"chance", nil, map[string]float64{givesCoins: 2.0 / 6, takesCoins: 2.0 / 6, swapCoins: 1.0 / 6, swapStars: 1.0 / 6}},
		{"movement", nil, map[string]float64{"1": .1, "2": .1, "3": .1, "4": .1, "5": .1, "6": .1, "7": .1, "8": .1, "9": .1, "10": .1}},
		{"movement", map[string]string{"mrdl": "d4, -2", "boost": "3"}, map[string]float64{"2": .25, "3": .25, "4": .25, "5": .25}},
		{"movement", map[string]string{"mrdl": "2d2"}, map[string]float64{"2": .25, "3": .5, "4": .25}},
	} {
		got, err := Ruleset{}.Odds(c.check, c.args)
		if err != nil {
			t.Fatalf("%s %v: %v", c.check, c.args, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s %v: %v; want %v", c.check, c.args, got, c.want)
		}
		for k, p := range c.want {
			if d := got[k] - p; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s %v: %s has %v; want %v", c.check, c.args, k, got[k], p)
			}
		}
	}
	racetest.OddsRefused(t, Ruleset{}, []racetest.OddsRefusal{
		{Check: "movement", Args: map[string]string{"mrdl": "d0"}, Says: `--mrdl: "d0": a die has 1 to 100 sides`},
		{Check: "movement", Args: map[string]string{"boost": "-1"}, Says: "--boost must be a whole number from 0 to 100"},
		{Check: "movement", Args: map[string]string{"boost": "x"}, Says: "--boost must be a whole number"},
		{Check: "happening", Args: map[string]string{"boost": "1"}, Says: "happening has no flag --boost"},
		{Check: "bowser", Says: `unknown party check "bowser"`},
	})
}

// The movement odds agree with the dice rolled many times.
func TestMovementOddsAgreeWithTheDice(t *testing.T) {
	m, err := ParseMRDL("d4 d6 -2")
	if err != nil {
		t.Fatal(err)
	}
	odds, err := Ruleset{}.Odds("movement", map[string]string{"mrdl": "d4 d6 -2", "boost": "3"})
	if err != nil {
		t.Fatal(err)
	}
	if err := racetest.Distribution(odds, nil, 1e-12); err != nil {
		t.Fatal(err)
	}
	const n = 60000
	seen := map[string]float64{}
	d := dice.New(dice.SeedFromInt(5))
	for range n {
		v, _ := m.Roll(d, 0, "movement roll")
		seen[strconv.Itoa(v+3)]++
	}
	for k, c := range seen {
		if !racetest.Agrees(c, n, odds[k], 0.002) {
			t.Errorf("movement %s: rolled %v times in %d; odds %v", k, c, n, odds[k])
		}
	}
}
