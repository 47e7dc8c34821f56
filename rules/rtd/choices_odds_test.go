package rtd

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// idle is an order that does nothing in the Action Phase (a path no
// segment has): the others stand as the odds take them.
var idle = Action{Kind: TakePath, Path: 99}

// outcome is what one played turn shows of seat's order, read from the
// real Resolve's events and state, the way a racer reads a post: the odds
// keys that came true, "hit:SEAT" and "lost:SEAT".
func outcome(s, after *State, seat int, evs []race.Event) map[string]bool {
	out := map[string]bool{}
	x := s.racer(seat)
	if s.T == 0 {
		gain := after.racer(seat).Momentum - x.Momentum
		if x.Perk == HighAcceleration {
			gain--
		}
		out[map[int]string{2: OddsNailed, 1: OddsFailed, 0: OddsFluffed}[gain]] = true
		return out
	}
	// The window: x's own action, up to the next racer's.
	i0 := -1
	for i, e := range evs {
		if e.Seat == seat && (e.Kind == "action" || e.Kind == "item") && !strings.Contains(e.Text, "high acceleration") {
			i0 = i
			break
		}
	}
	end := len(evs)
	for j := i0 + 1; j < len(evs); j++ {
		if evs[j].Kind == "action" && evs[j].Seat != seat {
			end = j
			break
		}
	}
	w := evs[i0:end]
	first := w[0].Text
	out[OddsSuccess] = strings.Contains(first, "power slides through") || strings.Contains(first, " takes ")
	if m := regexp.MustCompile(`drives aggressively \(\d\): ([+-]\d+) Momentum(, held at (\d))?`).FindStringSubmatch(first); m != nil {
		n, _ := strconv.Atoi(m[1])
		if m[3] != "" { // held at the kart's most: the change is what was left below it
			most, _ := strconv.Atoi(m[3])
			n = most - x.Momentum
		}
		out[momentumKey(n)] = true
	}
	for _, e := range w { // the first pass or ram that settles it
		if e.Kind == "pass" && e.Seat == seat {
			out[OddsPass] = strings.Contains(e.Text, " passes ")
			break
		}
		if e.Kind == "ram" && strings.Contains(e.Text, " rams ") {
			out[OddsPass] = e.Seat == seat
			break
		}
	}
	for _, y := range s.Racers {
		hit, lost := false, false
		for _, e := range w {
			hit = hit || e.Seat == y.Seat && (e.Kind == "hit" || e.Kind == "blast" && strings.Contains(e.Text, "caught") ||
				e.Kind == "item" && strings.Contains(e.Text, "shrinks"))
			lost = lost || e.Seat == y.Seat && e.Kind == "shell" && strings.Contains(e.Text, "instead") ||
				e.Kind == "item" && strings.Contains(e.Text, "steals "+y.Name+"'s") ||
				e.Kind == "hit" && strings.Contains(e.Text, " into "+y.Name+"'s dragged")
		}
		out["hit:"+strconv.Itoa(y.Seat)] = hit
		out["lost:"+strconv.Itoa(y.Seat)] = lost && !hit
	}
	return out
}

// within fails t unless k of n is p's count: four standard errors and a
// little for rounding.
func within(t *testing.T, what string, k, n int, p float64) {
	t.Helper()
	got := float64(k) / float64(n)
	if !(p >= 0 && p <= 1) { // NaN and beyond: no odds at all
		t.Errorf("%s: the odds say %v", what, p)
		return
	}
	if !racetest.Agrees(float64(k), n, p, 0.002) {
		t.Errorf("%s: %d of %d (%.4f), the odds say %.4f", what, k, n, got, p)
	}
}

// checkOdds plays seat's choice c n times through Resolve, the others idle
// (or driving defensively: defended), and holds the counts to the odds.
func checkOdds(t *testing.T, s *State, seat int, c Choice, defended bool, n int) {
	t.Helper()
	a, err := ParseAction(c.Order)
	if err != nil {
		t.Fatal(err)
	}
	odds, hits := c.Odds, c.Hits
	if defended {
		if c.Defended != nil {
			odds = c.Defended
		}
		if c.HitsDefended != nil {
			hits = c.HitsDefended
		}
	}
	count := map[string]int{}
	for k := range n {
		orders := map[int]race.Order{}
		for _, y := range s.running() {
			switch {
			case s.T == 0:
				orders[y.Seat] = Action{Kind: RocketStart, Safe: true}
			case defended:
				orders[y.Seat] = Action{Kind: DriveDefensively}
			default:
				orders[y.Seat] = idle
			}
		}
		orders[seat] = a
		after, evs, err := Ruleset{}.Resolve(s, orders, dice.New(dice.SeedFromInt(uint64(k+1))), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		for key, ok := range outcome(s, after.(*State), seat, evs) {
			if ok {
				count[key]++
			}
		}
	}
	what := fmt.Sprintf("turn %d %s %q (defended %v)", s.T, s.racer(seat).Name, c.Order, defended)
	for key, p := range odds {
		within(t, what+" "+key, count[key], n, p)
	}
	listed := map[string]float64{}
	for _, h := range hits {
		listed["hit:"+strconv.Itoa(h.Seat)], listed["lost:"+strconv.Itoa(h.Seat)] = h.Hit, h.ItemLost
	}
	for key, k := range count {
		switch {
		case strings.HasPrefix(key, "hit:") || strings.HasPrefix(key, "lost:"):
			within(t, what+" "+key, k, n, listed[key])
		case strings.HasPrefix(key, "momentum") || key == OddsPass && a.Kind != DriveAggressively:
			if _, ok := odds[key]; !ok {
				t.Errorf("%s: %s came %d times in %d, and the odds leave it out: %v", what, key, k, n, odds)
			}
		}
	}
	for key := range listed {
		if count[key] == 0 {
			within(t, what+" "+key, 0, n, listed[key])
		}
	}
}

// The odds of every choice with dice match the real Resolve played many
// times with different seeds: on hand-made states for each item and each
// check, and at turns of bot races.
func TestChoiceOddsMatchPlay(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 400
	}
	type setup struct {
		name string
		seat int
		seg  int // the segment of the group of four
		edit func(s *State)
	}
	luigi := func(f func(x *Racer)) func(s *State) { return func(s *State) { f(&s.Racers[1]) } }
	cases := []setup{
		{"green shell", 1, 0, nil},
		{"red shell, Mario defensive last turn", 1, 0, func(s *State) { s.Racers[1].Hand, s.Racers[0].Defensive = RedShell, true }},
		{"triple red shell at a dragger", 1, 0, func(s *State) { s.Racers[1].Hand, s.Racers[1].Shells = TripleRedShell, 2; s.Racers[0].Hand = Banana }},
		{"banana", 1, 0, luigi(func(x *Racer) { x.Hand = Banana })},
		{"fake box among boxes", 1, 0, luigi(func(x *Racer) { x.Hand = FakeItemBox })},
		{"bob-omb", 2, 0, func(s *State) { s.Racers[2].Hand = BobOmb; s.Racers[3].Hand = 0 }},
		{"banana thrown", 2, 0, func(s *State) { s.Racers[2].Hand = Banana; s.Racers[0].Ink = 1 }},
		{"mushroom into a dragger", 1, 0, func(s *State) { s.Racers[1].Hand, s.Racers[1].Momentum = Mushroom, 1; s.Racers[0].Hand = GreenShell }},
		{"boo", 1, 0, luigi(func(x *Racer) { x.Hand = Boo })},
		{"mushroom named behind a boo", 1, 0, luigi(func(x *Racer) { x.Hand, x.Bag, x.Momentum = Boo, []Item{Mushroom}, 1 })},
		{"green shell named behind a banana", 1, 0, func(s *State) {
			s.Racers[1].Hand, s.Racers[1].Bag = Banana, []Item{GreenShell}
			s.Racers[2].Hand, s.Racers[2].Bag = BobOmb, []Item{Star}
		}},
		{"thunderbolt", 1, 0, func(s *State) { s.Racers[1].Hand = Thunderbolt; s.Racers[0].Star = 1 }},
		{"ram first", 1, 0, func(s *State) {
			s.Racers[1].RamNext, s.Racers[1].Perk, s.Racers[1].Debuff = true, RammingSpeed, LowLoot
			s.Racers[0].Hand, s.Racers[0].Shells = TripleRedShell, 1
		}},
		{"star ahead", 1, 0, func(s *State) { s.Racers[0].Star, s.Racers[1].Ink = 1, 1 }},
		{"slide on a broad curve", 1, 5, luigi(func(x *Racer) { x.Momentum, x.Hand = 2, Mushroom })},
		{"tunnel path, shrunk", 1, 3, luigi(func(x *Racer) { x.Shrunk, x.Perk, x.Debuff, x.Momentum = 1, HighAcceleration, Slow, 0 })},
	}
	for _, tc := range cases {
		s := fixture(t)
		for i := range s.Racers[:4] {
			s.Racers[i].Segment = tc.seg
		}
		if s.Racers[4].Segment = tc.seg + 1; tc.seg+1 == len(s.course.Segments) {
			s.Racers[4].Segment, s.Racers[4].Laps = 0, 1
		}
		if tc.edit != nil {
			tc.edit(s)
		}
		ch := choicesOf(t, s, tc.seat)
		tried := 0
		for _, c := range ch.Actions {
			if !c.Allowed || c.Odds == nil && c.Hits == nil {
				continue
			}
			tried++
			checkOdds(t, s, tc.seat, c, false, n)
			checkOdds(t, s, tc.seat, c, true, n)
		}
		if tried < 2 {
			t.Errorf("%s: %d choices with odds", tc.name, tried)
		}
	}
	// The start, and turns of a bot race: the first racer of each group
	// that has one behind it (so that the next racer's action ends its own).
	_, p := botRace(t, 7, 6, "rainbow-road")
	for turn, st := range racetest.Sampled(t, p, 3) {
		if turn >= 30 {
			break
		}
		s := st.(*State)
		run := s.running()
		for _, x := range run[:len(run)-1] {
			if s.aheadInSegment(x) != nil && turn%2 == 0 {
				continue
			}
			for _, c := range choicesOf(t, st, x.Seat).Actions {
				if c.Allowed && (c.Odds != nil || c.Hits != nil) {
					checkOdds(t, s, x.Seat, c, turn%2 == 1, n/3)
				}
			}
			break
		}
	}
}
