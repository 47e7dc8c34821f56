package gaslands

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// choicesOf is the active kart's choices, which must be given.
func choicesOf(t *testing.T, s *State, seat int) Choices {
	t.Helper()
	v, err := (Ruleset{}).Choices(s, seat)
	if err != nil {
		t.Fatal(err)
	}
	return v.(Choices)
}

// variants of a state for the sample: as played, and with the active kart
// holding a green shell, and a red one (another kart finished) or a Bullet Bill.
func variants(s *State, n int) []*State {
	out := []*State{s}
	for _, item := range []string{GreenShell, []string{RedShell, BulletBill}[n%2]} {
		v := s.clone()
		v.track = s.track
		v.Karts[v.Active].Item = item
		if item == RedShell {
			v.Karts[(v.Active+1)%len(v.Karts)].Finished = true
		}
		out = append(out, v)
	}
	return out
}

// Every choice listed as allowed is accepted by ParseOrder, reads back as its
// canonical text, and each of its words reads as the same order; every one
// listed as refused is refused with its code and reason; orders outside the
// lists are refused: at sampled activations of bot races.
func TestChoicesMatchTheRules(t *testing.T) {
	seen := map[string]int{}
	allowed := 0
	for _, seed := range []uint64{2, 5} {
		_, p := botRace(t, seed, 4, []string{"luigi-raceway", "bowser-castle"}[seed%2])
		// densely early on, while the karts are bunched (targets in cover)
		for n := 0; n <= p.Resolved(); n += map[bool]int{true: 4, false: 9}[n < 40] {
			st := racetest.StateAt(t, p, n)
			if st.Over() {
				continue
			}
			for _, s := range variants(st.(*State), n) {
				allowed += checkChoices(t, s, seen)
			}
		}
	}
	racetest.Met(t, "refusal with", seen, CodeNotPermitted, CodeOverHandling, CodeAboveTopGear, CodeBelowFirstGear,
		CodeNoShell, CodeShellAtSelf, CodeTargetFinished, CodeNoBill, CodeNotYourActivation, "a target in cover")
	if allowed == 0 {
		t.Fatal("no choice allowed in the sample")
	}
	t.Logf("%d choices allowed and accepted; refused: %v", allowed, seen)
}

// checkChoices checks one state's choices for every seat; it counts the
// codes refused in seen and returns the number of choices allowed.
func checkChoices(t *testing.T, s *State, seen map[string]int) int {
	t.Helper()
	rs := Ruleset{}
	where := fmt.Sprintf("activation %d", s.Turn())
	parse := func(seat int, text string) (Order, error) {
		o, err := rs.ParseOrder(s, race.Submission{Seat: seat, Text: text})
		if err != nil {
			return Order{}, err
		}
		return o.(Order), nil
	}
	// check holds ParseOrder to what choice c says of text.
	allowed := 0
	check := func(c Choice, text string) {
		t.Helper()
		o, err := parse(s.Active, text)
		var oe *race.OrderError
		switch {
		case c.Allowed && err != nil:
			t.Fatalf("%s: %q is listed as allowed and is refused: %v", where, text, err)
		case c.Allowed && !strings.EqualFold(o.String(), text): // a target's name is read in any case
			t.Fatalf("%s: %q reads back as %q", where, text, o)
		case !c.Allowed && err == nil:
			t.Fatalf("%s: %q is listed as refused (%s) and is accepted", where, text, c.Code)
		case !c.Allowed && (!errors.As(err, &oe) || oe.Kind != race.Illegal || oe.ErrCode() != c.Code || oe.Reason != c.Reason || c.Code == race.CodeNotAllowed):
			t.Fatalf("%s: %q refused with %v (%s), listed with code %q and %q", where, text, err, oe.ErrCode(), c.Code, c.Reason)
		}
		if c.Allowed {
			allowed++
		} else {
			seen[c.Code]++
		}
	}
	// same: each word of c, after prefix, reads as the canonical order.
	same := func(c Choice, prefix string) {
		t.Helper()
		want, werr := parse(s.Active, prefix+c.Order)
		for _, w := range c.Words {
			got, err := parse(s.Active, prefix+strings.ToUpper(w))
			if (err == nil) != (werr == nil) || (err == nil && !reflect.DeepEqual(got, want) && s.kartByName(got.Shell) != s.kartByName(want.Shell)) {
				t.Fatalf("%s: the word %q reads as %+v (%v), not as %q", where, w, got, err, c.Order)
			}
		}
	}
	for seat := range s.Karts {
		ch := choicesOf(t, s, seat)
		if seat != s.Active {
			if ch.Orders != 0 || ch.Note == "" || ch.Templates != nil || ch.Skid != nil || ch.Items != nil {
				t.Fatalf("%s: seat %d, not active, has choices: %+v", where, seat, ch)
			}
			_, err := parse(seat, "long")
			var oe *race.OrderError
			if !errors.As(err, &oe) || oe.ErrCode() != CodeNotYourActivation {
				t.Fatalf("%s: seat %d orders out of turn: %v", where, seat, err)
			}
			seen[oe.ErrCode()]++
			continue
		}
		k := s.Karts[seat]
		if ch.Orders != 1 || ch.Gear != k.Gear || ch.Hazards != k.Hazards || ch.Handling != k.Handling || ch.Item != k.Item || ch.Kart != k.Name ||
			ch.MaxGear != k.MaxGear || ch.Collide != k.Collide || ch.Round != s.Round || ch.Phase != s.Phase || ch.Note != "" {
			t.Fatalf("%s: the active kart's choices: %+v", where, ch)
		}
		// The templates: every one of the race, each side; the allowed
		// ones are the prompt's list.
		var legal, listed []string
		for _, l := range rs.Prompts(s)[0].Legal {
			legal = append(legal, strings.TrimSuffix(strings.TrimSuffix(l, " (trivial)"), " (hazardous)"))
		}
		n := 0
		for _, tm := range s.M.Templates {
			n += map[bool]int{true: 1, false: 2}[tm.Straight()]
		}
		if len(ch.Templates) != n {
			t.Fatalf("%s: %d template choices for %d templates and sides", where, len(ch.Templates), n)
		}
		for _, tc := range ch.Templates {
			check(tc.Choice, tc.Order)
			same(tc.Choice, "")
			cls := s.M.Class(tc.Template, k.Gear)
			if tc.Class != cls.String() || tc.Allowed != (cls != NotPermitted) || (tc.Odds != nil) != tc.Allowed {
				t.Fatalf("%s: %s is %s (allowed %v, odds %v) in gear %d", where, tc.Order, tc.Class, tc.Allowed, tc.Odds, k.Gear)
			}
			if tc.Allowed {
				listed = append(listed, tc.Order)
			}
		}
		if !reflect.DeepEqual(legal, listed) {
			t.Fatalf("%s: allowed templates %v, the prompt lists %v", where, listed, legal)
		}
		base := s.baseOrder(seat).String()
		if base != listed[0] {
			t.Fatalf("%s: parts are judged with %q, not the first allowed template %q", where, base, listed[0])
		}
		// The parts after a template.
		classes := map[string]bool{}
		for _, tc := range ch.Templates {
			if tc.Allowed {
				classes[tc.Class] = true
			}
		}
		// 0 to 6 dice, pushed or not (0 not), each shift of up to 5 gears and
		// at most a gear a SHIFT: of the dice, and a trivial template's free one.
		free := 0
		if classes[Trivial.String()] && !s.TrivialToken {
			free = 1
		}
		wantSkid := 0
		for n := 0; n <= MaxSkidDice; n++ {
			shifts := 2*min(n+free, MaxGear-1) + 1
			if n == 0 {
				wantSkid += shifts - 1 // no dice and no shift is the template alone
			} else {
				wantSkid += 2 * shifts
			}
		}
		if len(ch.Skid) != wantSkid {
			t.Fatalf("%s: %d skid choices, want %d (0 to 6 dice, pushed or not, each shift a SHIFT can make)", where, len(ch.Skid), wantSkid)
		}
		for _, sc := range ch.Skid {
			check(sc.Choice, base+" "+sc.Order)
			same(sc.Choice, base+" ")
			// odds for each class of template that can make the shift: all,
			// or (a shift a die short) the trivial class alone
			want := len(classes)
			if abs(sc.Shift) > sc.Dice {
				want = free
			}
			if sc.Allowed && len(sc.Odds) != want || !sc.Allowed && len(sc.Odds) > 0 {
				t.Fatalf("%s: %s (allowed %v) has odds for %d classes, want %d", where, sc.Order, sc.Allowed, len(sc.Odds), want)
			}
			for c := range sc.Odds {
				if !classes[c] {
					t.Fatalf("%s: %s has odds for %s, no allowed template's class", where, sc.Order, c)
				}
			}
		}
		var parts []Choice
		parts = append(parts, ch.Spin...)
		parts = append(parts, ch.Boost...)
		parts = append(parts, ch.Collision...)
		for _, it := range ch.Items {
			parts = append(parts, it.Choice)
			if it.Allowed && it.Target != "" && it.InReach != (it.Blocked == "") {
				t.Fatalf("%s: %s in reach %v, blocked %q", where, it.Order, it.InReach, it.Blocked)
			}
			if j := s.kartByName(it.Target); it.Allowed && j >= 0 {
				// reach and odds as the throw works them out, from here
				a := Aim(s, seat, j, k.Item)
				dice := ShellDice
				if a.Cover {
					dice--
				}
				want, _ := AttackOdds(dice, s.Karts[j].Gear, s.SixIsOne)
				if a.Reason != "" {
					want = nil
				}
				if it.Range != a.Range || it.Cover != a.Cover || it.Blocked != a.Reason || !oddsNear(it.Odds, want) {
					t.Fatalf("%s: %s: range %v cover %v blocked %q odds %v; Aim says %+v, odds %v", where, it.Order, it.Range, it.Cover, it.Blocked, it.Odds, a, want)
				}
			}
			if it.Cover && it.InReach {
				seen["a target in cover"]++ // one die fewer: the sample must hold one
			}
			if it.Target == NearestTarget && it.Allowed && it.InReach != (s.nearestTarget(seat) >= 0) {
				t.Fatalf("%s: shell nearest in reach %v", where, it.InReach)
			}
			if (it.Target == "") != (it.Order == "bill") {
				t.Fatalf("%s: %q names target %q", where, it.Order, it.Target)
			}
		}
		if len(ch.Spin) != 2 || len(ch.Boost) != 5 || len(ch.Collision) != 2 || len(ch.Items) != len(s.Karts)+2 {
			t.Fatalf("%s: %d spins, %d boosts, %d collision choices, %d items", where, len(ch.Spin), len(ch.Boost), len(ch.Collision), len(ch.Items))
		}
		for _, c := range parts {
			check(c, base+" "+c.Order)
			same(c, base+" ")
		}
		for _, c := range ch.Spin { // fewer degrees, written after the spin
			check(c, base+" "+strings.Replace(c.Order, " 90", " 45", 1))
		}
		// Outside the lists: more shifts than SHIFTs could make, not allowed;
		// no side, an unknown template, too many dice, a shell with no
		// target, not understood.
		if _, err := parse(seat, base+" skid 1 shift up 3"); !errors.As(err, new(*race.OrderError)) || err.(*race.OrderError).Code != CodeShiftTooFar {
			t.Fatalf("%s: 3 shifts of 1 die gave %v", where, err)
		}
		for _, text := range []string{"gentle", "warp left", base + " skid 7", base + " shell", "long left"} {
			_, err := parse(seat, text)
			var oe *race.OrderError
			if !errors.As(err, &oe) || oe.Kind != race.Invalid {
				t.Fatalf("%s: %q, outside the choices, gave %v", where, text, err)
			}
		}
	}
	return allowed
}

// The odds of each choice match the real skid step (skidStep, as an
// activation plays it) run many times on seeded dice: for each template
// class and each skid choice, in gears and with tokens that reach the edges
// (top and bottom gear, a wipeout, tokens to shed).
func TestStepOddsMatchTheDice(t *testing.T) {
	const runs = 1500
	_, p := botRace(t, 1, 3, "luigi-raceway")
	start := p.Start.(*State)
	checked := 0
	for ci, cfg := range []struct {
		gear, top, hazards, handling int
		token                        bool // trivial=token
	}{{1, 6, 0, 2, false}, {3, 4, 4, 3, false}, {6, 6, 5, 2, false}, {2, 5, 1, 3, false}, {3, 4, 2, 3, true}} {
		s := start.clone()
		s.track = start.track
		s.TrivialToken = cfg.token
		i := s.Active
		k := &s.Karts[i]
		k.Gear, k.MaxGear, k.Hazards, k.Handling = cfg.gear, cfg.top, cfg.hazards, cfg.handling
		ch := choicesOf(t, s, i)
		// a template of each class allowed in this gear
		of := map[string]Template{}
		for _, name := range s.M.Allowed(k.Gear) {
			c := s.M.Class(name, k.Gear).String()
			if _, ok := of[c]; !ok {
				of[c], _ = s.M.Template(name)
			}
		}
		type trial struct {
			o    Order
			t    Template
			odds StepOdds
		}
		var trials []trial
		for _, tc := range ch.Templates {
			if tc.Allowed {
				tm, _ := s.M.Template(tc.Template)
				trials = append(trials, trial{Order{Template: tm.Name}, tm, *tc.Odds})
			}
		}
		for _, sc := range ch.Skid {
			for c, odds := range sc.Odds {
				trials = append(trials, trial{Order{Template: of[c].Name, Skid: sc.Dice, Push: sc.Push, Shift: sc.Shift}, of[c], odds})
			}
		}
		for ti, tr := range trials {
			d := dice.New(dice.SeedFromInt(uint64(1000*ci + ti)))
			got := StepOdds{Hazards: map[string]float64{}, Gear: map[string]float64{}}
			for r := 0; r < runs; r++ {
				sim := *s
				sim.Karts = append([]Kart(nil), s.Karts...)
				pl := &play{s: &sim, d: d, act: &Activation{}}
				count := pl.skidStep(i, tr.t, tr.o)
				after := sim.Karts[i]
				got.Hazards[strconv.Itoa(after.Hazards-k.Hazards)]++
				got.Gear[strconv.Itoa(after.Gear)]++
				got.Slide += b2f(count[Slide] > 0)
				got.Spin += b2f(count[Spin] > 0)
				got.Wipeout += b2f(after.Hazards >= 6)
			}
			where := fmt.Sprintf("gear %d, %d tokens, %s", cfg.gear, cfg.hazards, tr.o)
			for _, m := range []map[string]float64{tr.odds.Hazards, tr.odds.Gear} {
				if err := racetest.Distribution(m, nil, 1e-9); err != nil {
					t.Errorf("%s: %v", where, err)
				}
			}
			within(t, where+" hazards", tr.odds.Hazards, got.Hazards, runs)
			within(t, where+" gear", tr.odds.Gear, got.Gear, runs)
			within(t, where, map[string]float64{"slide": tr.odds.Slide, "spin": tr.odds.Spin, "wipeout": tr.odds.Wipeout},
				map[string]float64{"slide": got.Slide, "spin": got.Spin, "wipeout": got.Wipeout}, runs)
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d choices checked", checked)
	}
}

// oddsNear: the same outcomes, each within rounding (hazardOdds adds in map order).
func oddsNear(a, b map[string]float64) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || math.Abs(v-w) > 1e-12 {
			return false
		}
	}
	return true
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// within: every outcome's count of runs is near its odds, and nothing seen
// has odds of 0.
func within(t *testing.T, where string, odds, counts map[string]float64, runs int) {
	t.Helper()
	for k, c := range counts {
		if c > 0 && odds[k] == 0 {
			t.Errorf("%s: %s came up %v times; the odds leave it out", where, k, c)
		}
	}
	for k, p := range odds {
		got := counts[k] / float64(runs)
		if !racetest.Agrees(counts[k], runs, p, 0.003) {
			t.Errorf("%s: %s %.4f in %d runs, the odds say %.4f", where, k, got, runs, p)
		}
	}
}

// Odds worked out by hand, for the steps' order and edges.
func TestStepOddsByHand(t *testing.T) {
	rule := func(c Class) skidRule { return (&State{}).skidRule(c, Order{}) }
	tokenRule := (&State{TrivialToken: true}).skidRule(Trivial, Order{})
	spinRule := (&State{}).skidRule(Permitted, Order{SpinSet: true})
	type want struct {
		hazards, gear        map[string]float64
		slide, spin, wipeout float64
	}
	for _, c := range []struct {
		name string
		got  StepOdds
		want want
	}{
		{"permitted, 1 die", stepOdds(rule(Permitted), 0, 1, 6, 1, false, 0), want{map[string]float64{"0": .5, "1": .5}, map[string]float64{"1": 1}, 1. / 6, 1. / 6, 0}},
		{"pushed: 3 in 4 SHIFT", stepOdds(rule(Permitted), 0, 1, 6, 1, true, 0), want{map[string]float64{"0": .75, "1": .25}, map[string]float64{"1": 1}, 1. / 12, 1. / 12, 0}},
		{"hazardous on 5 tokens: a SHIFT sheds one, else a wipeout", stepOdds(rule(Hazardous), 5, 1, 6, 1, false, 0), want{map[string]float64{"0": .5, "2": .5}, map[string]float64{"1": 1}, 1. / 6, 1. / 6, .5}},
		{"hazardous on 5 tokens, no dice", stepOdds(rule(Hazardous), 5, 2, 6, 0, false, 0), want{map[string]float64{"1": 1}, map[string]float64{"2": 1}, 0, 0, 1}},
		{"trivial: the free SHIFT sheds a token", stepOdds(rule(Trivial), 2, 1, 6, 0, false, 0), want{map[string]float64{"-1": 1}, map[string]float64{"1": 1}, 0, 0, 0}},
		{"trivial, nothing to shed", stepOdds(rule(Trivial), 0, 1, 6, 0, false, 0), want{map[string]float64{"0": 1}, map[string]float64{"1": 1}, 0, 0, 0}},
		// The free SHIFT shifts up; the die's SHIFT then sheds the token it cost.
		{"trivial: the free SHIFT shifts up", stepOdds(rule(Trivial), 0, 1, 6, 1, false, 1), want{map[string]float64{"0": .5, "2": .5}, map[string]float64{"2": 1}, 1. / 6, 1. / 6, 0}},
		{"trivial=token sheds one", stepOdds(tokenRule, 2, 1, 6, 0, false, 0), want{map[string]float64{"-1": 1}, map[string]float64{"1": 1}, 0, 0, 0}},
		{"trivial=token: no SHIFT to shift with", stepOdds(tokenRule, 0, 1, 6, 1, false, 1), want{map[string]float64{"1": 1}, map[string]float64{"1": .5, "2": .5}, 1. / 6, 1. / 6, 0}},
		// Two dice: a SHIFT beside a SPIN discards it, unless the order spins.
		{"a SHIFT discards a SPIN", stepOdds(rule(Permitted), 0, 1, 6, 2, false, 0), want{map[string]float64{}, map[string]float64{"1": 1}, 5. / 36, 5. / 36, 0}},
		{"a spin ordered keeps its SPIN", stepOdds(spinRule, 0, 1, 6, 2, false, 0), want{map[string]float64{}, map[string]float64{"1": 1}, 5. / 36, 11. / 36, 0}},
		{"a SHIFT shifts up for a token", stepOdds(rule(Permitted), 0, 1, 6, 1, false, 1), want{map[string]float64{"1": 1}, map[string]float64{"1": .5, "2": .5}, 1. / 6, 1. / 6, 0}},
		{"a SHIFT shifts down", stepOdds(rule(Permitted), 0, 3, 6, 1, false, -1), want{map[string]float64{"1": 1}, map[string]float64{"3": .5, "2": .5}, 1. / 6, 1. / 6, 0}},
		{"no gear above the top", stepOdds(rule(Permitted), 0, 4, 4, 1, false, 1), want{map[string]float64{"0": .5, "1": .5}, map[string]float64{"4": 1}, 1. / 6, 1. / 6, 0}},
		{"no gear below the first", stepOdds(rule(Permitted), 0, 1, 6, 1, false, -1), want{map[string]float64{"0": .5, "1": .5}, map[string]float64{"1": 1}, 1. / 6, 1. / 6, 0}},
		// Three dice: a spare SHIFT cancels a SLIDE before a SPIN.
		{"three dice", stepOdds(rule(Permitted), 0, 1, 6, 3, false, 0), want{map[string]float64{"0": .5, "1": 3. / 8, "3": 1. / 8}, map[string]float64{"1": 1}, 7. / 54, 23. / 108, 0}},
		// Two SHIFTs up of two dice: each up, a token each; a die short, one up.
		{"two up", stepOdds(rule(Permitted), 1, 1, 6, 2, false, 2), want{map[string]float64{"2": 1}, map[string]float64{"1": .25, "2": .5, "3": .25}, 11. / 36, 11. / 36, 0}},
	} {
		g := c.got
		for k, v := range c.want.hazards {
			if math.Abs(g.Hazards[k]-v) > 1e-12 {
				t.Errorf("%s: hazards %s = %v, want %v (%v)", c.name, k, g.Hazards[k], v, g.Hazards)
			}
		}
		for k, v := range c.want.gear {
			if math.Abs(g.Gear[k]-v) > 1e-12 {
				t.Errorf("%s: gear %s = %v, want %v", c.name, k, g.Gear[k], v)
			}
		}
		if math.Abs(g.Slide-c.want.slide) > 1e-12 || math.Abs(g.Spin-c.want.spin) > 1e-12 || math.Abs(g.Wipeout-c.want.wipeout) > 1e-12 {
			t.Errorf("%s: slide %v spin %v wipeout %v, want %v %v %v", c.name, g.Slide, g.Spin, g.Wipeout, c.want.slide, c.want.spin, c.want.wipeout)
		}
	}
}

// A seat with nothing to order says why; a seat not in the race is an error.
func TestChoicesWithNothingToOrder(t *testing.T) {
	rs := Ruleset{}
	_, p := botRace(t, 1, 3, "luigi-raceway")
	s := p.Start.(*State)
	for _, seat := range []int{-1, 3} {
		_, err := rs.Choices(s, seat)
		var oe *race.OrderError
		if !errors.As(err, &oe) || oe.ErrCode() != CodeNoSeat || oe.Kind != race.Illegal || !strings.Contains(oe.Reason, "seats 0 to 2") {
			t.Errorf("seat %d: %v", seat, err)
		}
		if _, err := rs.ParseOrder(s, race.Submission{Seat: seat, Text: "long"}); !errors.As(err, &oe) || oe.ErrCode() != CodeNoSeat {
			t.Errorf("seat %d orders: %v", seat, err)
		}
	}
	if _, err := rs.Choices(nil, 0); err == nil {
		t.Error("a nil state has choices")
	}
	over := s.clone()
	over.track = s.track
	over.Done, over.Active = true, -1
	fin := s.clone()
	fin.track = s.track
	fin.Karts[2].Finished = true
	for _, c := range []struct {
		s    *State
		seat int
		note string
	}{{over, 0, "the race is over"}, {fin, 2, "has finished"}, {s, 1, "activation (round 1, gear phase 1)"}} {
		ch := choicesOf(t, c.s, c.seat)
		if ch.Orders != 0 || !strings.Contains(ch.Note, c.note) || ch.Templates != nil {
			t.Errorf("seat %d: %d orders, note %q, want %q", c.seat, ch.Orders, ch.Note, c.note)
		}
	}
	var oe *race.OrderError
	if _, err := rs.ParseOrder(over, race.Submission{Seat: 0, Text: "long"}); !errors.As(err, &oe) || oe.ErrCode() != CodeRaceOver {
		t.Errorf("an order after the race: %v", err)
	}
}

// The same odds every time, to the last bit: sums are made in a fixed order.
func TestStepOddsAreStable(t *testing.T) {
	r := (&State{}).skidRule(Hazardous, Order{})
	for n := 1; n <= MaxSkidDice; n++ {
		a, _ := SkidOdds(n)
		for range 5 {
			if b, _ := SkidOdds(n); !reflect.DeepEqual(a, b) {
				t.Fatalf("%d dice: %v, then %v", n, a, b)
			}
			for _, push := range []bool{false, true} {
				if x, y := stepOdds(r, 3, 2, 6, n, push, 1), stepOdds(r, 3, 2, 6, n, push, 1); !reflect.DeepEqual(x, y) {
					t.Fatalf("%d dice, push %v: %v, then %v", n, push, x, y)
				}
			}
		}
	}
}
