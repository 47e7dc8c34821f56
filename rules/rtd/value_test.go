package rtd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/internal/logit"
	"pitwall/race"
)

// valueRaces is how many races valueWeights are fitted from.
const valueRaces = 10000

// valueSamples plays n two-kart races of the heuristic bot, each on a
// course and between two karts of the demo drawn by its seed (seeds 1 to
// n), and gives, for every turn after the start at which neither kart has
// finished, the first kart's features less the second's, and whether the
// first finished ahead.
func valueSamples(t testing.TB, n int) (xs [][]float64, ys []bool) {
	g := game()
	var karts []race.Entrant
	for _, e := range g.Demo.Entrants {
		if len(e.Racers) == 1 {
			karts = append(karts, e)
		}
	}
	rs := Ruleset{}
	for i := 1; i <= n; i++ {
		seed := uint64(i)
		rng := rand.New(rand.NewPCG(seed, 0x7a1e))
		a := rng.IntN(len(karts))
		b := (a + 1 + rng.IntN(len(karts)-1)) % len(karts)
		course := g.Tracks[rng.IntN(len(g.Tracks))].ID
		d := dice.NewQuiet(dice.SeedFromInt(seed))
		st, err := rs.Setup(race.Config{Track: course}, []race.Entrant{karts[a], karts[b]}, d)
		if err != nil {
			t.Fatal(err)
		}
		var race1 [][]float64
		for turn := 0; turn < 200 && !st.Over(); turn++ {
			s := st.(*State)
			if x, y := s.racer(0), s.racer(1); s.T > 0 && !x.Finished && !y.Finished {
				f, g := s.valueFeatures(x), s.valueFeatures(y)
				diff := make([]float64, nFeatures)
				for k := range diff {
					diff[k] = f[k] - g[k]
				}
				race1 = append(race1, diff)
			}
			orders := map[int]race.Order{}
			for _, p := range rs.Prompts(st) {
				o, err := rs.ParseOrder(st, race.Submission{Seat: p.Seat, Text: rs.BotOrder(st, p.Seat, false, rng)})
				if err != nil {
					t.Fatalf("race %d: the heuristic bot's order: %v", i, err)
				}
				orders[p.Seat] = o
			}
			if st, _, err = rs.Resolve(st, orders, d, race.BotTime(turn)); err != nil {
				t.Fatal(err)
			}
		}
		s := st.(*State)
		if !s.Over() {
			t.Fatalf("race %d is not over after 200 turns", i)
		}
		for _, x := range race1 {
			xs, ys = append(xs, x), append(ys, s.Finish[0] == 0)
		}
	}
	return xs, ys
}

// valueWeights are what a fit of valueRaces races gives (a ridge of 1e-3
// for the features a race may never show); should the rules, the bot or
// the features change the fit, this fails and prints the weights to paste
// into value.go.
func TestValueWeights(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 10,000 races")
	}
	xs, ys := valueSamples(t, valueRaces)
	w, err := logit.Fit(xs, ys, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"featSegments", "featSegmentsByLeft", "featMomentum", "featMomentumByLeft", "featFirst", "featFirstByLeft", "featHand"}
	if len(names) != nFeatures {
		t.Fatalf("%d names for %d features", len(names), nFeatures)
	}
	var b strings.Builder
	moved := false
	for i, v := range w {
		fmt.Fprintf(&b, "\t%s: %v,\n", names[i], v)
		moved = moved || math.Abs(v-valueWeights[i]) > 1e-9*math.Max(1, math.Abs(v))
	}
	if moved {
		t.Errorf("the fit of %d races (%d turns) gives other weights; value.go's valueWeights would read:\n%s", valueRaces, len(xs), b.String())
	}
	// What the model tells: its log loss on the races it was fitted to,
	// against a coin's (ln 2).
	loss := 0.0
	for i, x := range xs {
		p := logit.Chance(w, x)
		if !ys[i] {
			p = 1 - p
		}
		loss -= math.Log(p)
	}
	t.Logf("%d turns of %d races: log loss %.4f (a coin: %.4f)", len(xs), valueRaces, loss/float64(len(xs)), math.Ln2)
}

// valueRace is a race of the demo's first n karts on the first course,
// set up and moved on to turn T.
func valueRace(t *testing.T, n, turn int) *State {
	g := game()
	st, err := Ruleset{}.Setup(race.Config{Track: g.Tracks[0].ID}, g.Demo.Entrants[:n], dice.New(dice.SeedFromInt(uint64(n))))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	s.T = turn
	return s
}

// Value is each kart's likely share of the others it finishes ahead of:
// of two karts still racing, their Values make 1; the kart further round
// is valued higher, and more so near the finish; a finish settles it.
func TestValue(t *testing.T) {
	rs := Ruleset{}
	s := valueRace(t, 2, 3)
	at := func(seg0, seg1, laps int) (float64, float64) {
		s.Racers[0].Segment, s.Racers[1].Segment = seg0, seg1
		s.Racers[0].Laps, s.Racers[1].Laps = laps, laps
		s.reorder()
		return rs.Value(s, 0), rs.Value(s, 1)
	}
	v0, v1 := at(2, 1, 0)
	if math.Abs(v0+v1-1) > 1e-12 || v0 <= 0.5 || v0 >= 1 {
		t.Errorf("a segment ahead on the first lap: Values %v and %v; want above a half and below 1, making 1", v0, v1)
	}
	late, _ := at(2, 1, s.Laps-1)
	if late <= v0 {
		t.Errorf("a segment ahead on the last lap: %v; want more than the %v of the first", late, v0)
	}
	even, _ := at(1, 1, 0)
	s.Racers[0].Momentum, s.Racers[1].Momentum = 3, 1
	more := rs.Value(s, 0)
	if more <= even {
		t.Errorf("level, with more Momentum: %v; want more than the %v of level", more, even)
	}
	s.Racers[1].Finished, s.Finish = true, []int{1}
	s.reorder()
	if v0, v1 := rs.Value(s, 0), rs.Value(s, 1); v0 != 0 || v1 != 1 {
		t.Errorf("the second kart has finished: Values %v and %v; want 0 and 1", v0, v1)
	}
	s.Racers[0].Finished, s.Finish = true, []int{1, 0}
	s.reorder()
	if v0, v1 := rs.Value(s, 0), rs.Value(s, 1); v0 != 0 || v1 != 1 {
		t.Errorf("both finished, the second first: Values %v and %v; want 0 and 1", v0, v1)
	}
	if rs.Value(s, 7) != 0 || rs.Score(s, 7) != 0 {
		t.Error("a seat not in the race has a value")
	}
	if a, b := rs.Score(s, 1), rs.Score(s, 0); a <= b {
		t.Errorf("Scores of the first and the second to finish: %v, %v", a, b)
	}
}

// Of many karts, Value is the mean of the chances against each other one.
func TestValueOfMany(t *testing.T) {
	rs := Ruleset{}
	s := valueRace(t, 4, 2)
	for i := range s.Racers {
		s.Racers[i].Segment, s.Racers[i].Momentum = i, 4-i
	}
	s.reorder()
	sum := 0.0
	for i := range s.Racers {
		v := rs.Value(s, i)
		want := 0.0
		for j := range s.Racers {
			if j != i {
				want += logit.Sigmoid(s.strength(&s.Racers[i])-s.strength(&s.Racers[j])) / 3
			}
		}
		if math.Abs(v-want) > 1e-12 {
			t.Errorf("seat %d: Value %v, want %v", i, v, want)
		}
		sum += v
	}
	if math.Abs(sum-2) > 1e-12 { // four karts: six pairs, one winner each, over three
		t.Errorf("the Values add up to %v; want 2", sum)
	}
}
