package rtd

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"pitwall/dice"
)

// eachFaces counts every sequence of faces once, with its probability, and
// gives up past its limit.
func TestEachFaces(t *testing.T) {
	// Two d6, and a third die (a d3) only after a 6 on the first.
	play := func(d *dice.Roller) []string {
		a := d.Roll(0, "a", dice.D6)
		b := d.Roll(0, "b", dice.D6)
		keys := []string{"any", "sum " + strconv.Itoa(a+b)}
		if a == 6 {
			keys = append(keys, "third "+strconv.Itoa(d.Roll(0, "c", dice.D(3))))
		}
		return keys
	}
	got, ok := eachFaces(1000, play)
	if !ok {
		t.Fatal("gave up")
	}
	for k, want := range map[string]float64{"any": 1, "sum 7": 6. / 36, "sum 2": 1. / 36, "sum 12": 1. / 36, "third 1": 1. / 18, "third 3": 1. / 18} {
		if !near(got[k], want) {
			t.Errorf("%s: %v, want %v", k, got[k], want)
		}
	}
	if len(got) != 1+11+3 {
		t.Errorf("%d keys: %v", len(got), got)
	}
	// 36 + 6*3 - 6 = 48 sequences: a limit of 48 is enough, 47 is not
	if _, ok := eachFaces(48, play); !ok {
		t.Error("48 sequences do not fit a limit of 48")
	}
	if m, ok := eachFaces(47, play); ok || m != nil {
		t.Error("48 sequences fit a limit of 47")
	}
	if m, ok := eachFaces(1, func(*dice.Roller) []string { return []string{"x"} }); !ok || m["x"] != 1 {
		t.Errorf("no dice: %v %v", m, ok)
	}
}

// choiceNamed is the choice of ch for order.
func choiceNamed(t *testing.T, ch Choices, order string) Choice {
	t.Helper()
	for _, c := range ch.Actions {
		if c.Order == order {
			return c
		}
	}
	t.Fatalf("no choice %q in %+v", order, ch.Actions)
	return Choice{}
}

// The odds beside the choices are the tables' and the odds checks', for
// each kind of choice.
func TestChoiceOddsFromTables(t *testing.T) {
	s := fixture(t) // the group of four on the Start Straight (broad-straight)
	s.Racers[2].Ink = 1
	toad := choicesOf(t, s, 3) // a banana, Momentum 2, behind Peach (1, inked)
	pass := odds(t, "pass", map[string]string{"momentum": "2", "against": "1", "bonus": "1"})
	passDef := odds(t, "pass", map[string]string{"momentum": "2", "against": "1", "bonus": "1", "defensive": "true"})
	draft := choiceNamed(t, toad, "draft")
	if !near(draft.Odds[OddsPass], pass["pass"]) || !near(draft.Defended[OddsPass], passDef["pass"]) || len(draft.Odds) != 1 || draft.Hits != nil {
		t.Errorf("draft %+v; the pass check says %v, defended %v", draft, pass, passDef)
	}
	slide := choiceNamed(t, toad, "power slide")
	if !near(slide.Odds[OddsSuccess], 0.5) || slide.Odds[OddsPass] <= 0 || slide.Odds[OddsPass] >= slide.Odds[OddsSuccess] {
		t.Errorf("power slide on a broad straight: %+v", slide)
	}
	agg := choiceNamed(t, toad, "aggressive")
	for k, want := range map[string]float64{"momentum+2": 2. / 6, "momentum+1": 1. / 6, "momentum+0": 2. / 6, "momentum-1": 1. / 6} {
		if !near(agg.Odds[k], want) {
			t.Errorf("aggressive %s: %v, want %v", k, agg.Odds[k], want)
		}
	}
	if len(agg.Odds) != 4 || agg.Defended != nil {
		t.Errorf("aggressive: %+v", agg)
	}
	for _, order := range []string{"defensive", "ram", "item lay"} { // no dice; a banana laid with nobody behind
		if c := choiceNamed(t, toad, order); c.Odds != nil || c.Hits != nil || c.Defended != nil {
			t.Errorf("%s has odds: %+v", order, c)
		}
	}
	// A throw at Mario, one driver between: the thrower's check at -1; a
	// miss lands ahead and Toad drives over it at +1.
	throw := choiceNamed(t, toad, "item throw at Mario")
	hit := odds(t, "attack", map[string]string{"item": "banana", "how": "throw", "between": "2"})["hit"]
	avoid := odds(t, "racing-check", map[string]string{"modifier": "1"})
	own := avoid["fail"] + avoid["fail-1"] + avoid["fail-2"]
	if len(throw.Hits) != 2 || throw.Hits[0].Name != "Mario" || !near(throw.Hits[0].Hit, hit) || throw.Hits[1].Name != "Toad" || !near(throw.Hits[1].Hit, (1-hit)*own) {
		t.Errorf("throw at Mario: %+v; the attack check says %v, then %v for Toad", throw.Hits, hit, own)
	}

	// Luigi, inked, lays a banana before Peach (inked) and Toad.
	s = fixture(t)
	s.Racers[1].Hand, s.Racers[1].Ink, s.Racers[2].Ink = Banana, 1, 1
	lay := choiceNamed(t, choicesOf(t, s, 1), "item lay")
	first := odds(t, "attack", map[string]string{"item": "banana", "modifier": "-1"})["hit"]
	second := odds(t, "attack", map[string]string{"item": "banana", "behind": "2"})["hit"]
	if len(lay.Hits) != 2 || lay.Hits[0].Seat != 2 || !near(lay.Hits[0].Hit, first) || lay.Hits[1].Seat != 3 || !near(lay.Hits[1].Hit, second) {
		t.Errorf("banana laid: %+v, want %v and %v", lay.Hits, first, second)
	}
	if c := choiceNamed(t, choicesOf(t, s, 1), "item"); !sameHits(c.Hits, lay.Hits) {
		t.Errorf("'item' with a banana is not 'item lay': %+v", c.Hits)
	}

	// A red shell at Mario, who drives defensively or not, and drags a banana.
	s = fixture(t)
	s.Racers[1].Hand, s.Racers[0].Hand = RedShell, Banana
	red := choiceNamed(t, choicesOf(t, s, 1), "item")
	for _, def := range []bool{false, true} {
		hits := red.Hits
		args := map[string]string{"item": "red-shell", "dragging": "true"}
		if def {
			hits, args["defensive"] = red.HitsDefended, "true"
		}
		o := odds(t, "attack", args)
		if len(hits) != 1 || hits[0].Name != "Mario" || !near(hits[0].Hit, o["hit"]) || !near(hits[0].ItemLost, o["item-lost"]) {
			t.Errorf("red shell (defended %v): %+v, the attack check says %v", def, hits, o)
		}
	}

	// The start: every racer may rocket start.
	s = fixture(t)
	s.T = 0
	rocket := choiceNamed(t, choicesOf(t, s, 2), "rocket start")
	if !near(rocket.Odds[OddsNailed], 0.5) || !near(rocket.Odds[OddsFailed], 1./3) || !near(rocket.Odds[OddsFluffed], 1./6) || len(rocket.Odds) != 3 {
		t.Errorf("rocket start: %v", rocket.Odds)
	}
	if c := choiceNamed(t, choicesOf(t, s, 2), "safe start"); !c.Allowed || c.Odds != nil {
		t.Errorf("safe start: %+v", c)
	}

	// A path's check, inked (-1): the Tunnel's is -1.
	s = fixture(t)
	for i := range s.Racers[:4] {
		s.Racers[i].Segment = 3
	}
	s.Racers[4].Segment, s.Racers[1].Ink = 4, 1
	path := choiceNamed(t, choicesOf(t, s, 1), "path 1")
	o := odds(t, "racing-check", map[string]string{"modifier": "-2"})
	if want := o["success"] + o["success+1"] + o["success+2"]; !near(path.Odds[OddsSuccess], want) || !near(want, 1./6) || len(path.Odds) != 1 {
		t.Errorf("path 1, shrunk: %v, want %v", path.Odds, want)
	}
	// A draft with nobody ahead in the segment does nothing: no odds.
	if c := choiceNamed(t, choicesOf(t, s, 0), "draft"); c.Odds != nil || !c.Allowed {
		t.Errorf("a draft from the front: %+v", c)
	}
}

// A green shell counted driver by driver gives what trying every face gives,
// on lines short enough to try them all.
func TestGreenOddsMatchEveryFace(t *testing.T) {
	for _, tc := range []struct {
		name string
		seat int
		edit func(s *State)
	}{
		{"forward, two ahead", 2, func(s *State) { s.Racers[3].Segment = 1; s.Racers[0].Hand = Banana }},
		{"backward, one behind", 2, func(s *State) {
			s.Racers[0].Segment, s.Racers[1].Segment = 1, 1
			s.Racers[3].Hand = TripleRedShell
			s.Racers[3].Shells = 2
		}},
		{"forward, an immune one ahead", 1, func(s *State) { s.Racers[2].Segment, s.Racers[3].Segment = 1, 1; s.Racers[0].Ghost = 1 }},
		{"backward, the first behind dragging two and met twice", 1, func(s *State) {
			s.Racers[0].Segment = 1
			s.Racers[2].Hand, s.Racers[2].Bag = Banana, []Item{FakeItemBox, Mushroom}
		}},
		{"forward from behind a dragged banana, one ahead", 1, func(s *State) {
			s.Racers[2].Segment, s.Racers[3].Segment = 1, 1
			s.Racers[1].Hand, s.Racers[1].Bag = Banana, []Item{GreenShell}
		}},
		{"forward, inked, one ahead with a bob-omb", 1, func(s *State) {
			s.Racers[2].Segment, s.Racers[3].Segment = 1, 1
			s.Racers[0].Hand, s.Racers[0].Ink = BobOmb, 1
		}},
	} {
		s := fixture(t)
		s.Racers[4].Segment = 2
		tc.edit(s)
		x := s.racer(tc.seat)
		if !x.holding(GreenShell) {
			x.Hand = GreenShell
		}
		g, _ := s.segmentGroup(x)
		for _, a := range []Action{{Kind: DeployItem}, {Kind: DeployItem, How: "backward"}, {Kind: DeployItem, How: "forward", Target: g[0].Name},
			{Kind: DeployItem, How: "backward", Target: g[len(g)-1].Name}} {
			if x.Hand != GreenShell {
				a.Item = GreenShell // the shell named, behind the item in front
			}
			for _, def := range []bool{a.Target != ""} { // each way once: every face is slow to try
				every, ok := s.actOdds(x, a, def, 1<<20)
				if !ok {
					t.Fatalf("%s: too many faces", tc.name)
				}
				for k, p := range every {
					if closeTo(p, 0) {
						delete(every, k)
					}
				}
				counted := s.greenOdds(x, a, def)
				if len(every) != len(counted) {
					t.Errorf("%s %q (defended %v): %v, every face gives %v", tc.name, a, def, counted, every)
				}
				for k, p := range every {
					if math.Abs(counted[k]-p) > 1e-9 {
						t.Errorf("%s %q (defended %v) %s: %v, every face gives %v", tc.name, a, def, k, counted[k], p)
					}
				}
			}
		}
	}
}

// The keys of the odds.
func TestMomentumKey(t *testing.T) {
	for d, want := range map[int]string{2: "momentum+2", 0: "momentum+0", -1: "momentum-1"} {
		if got := momentumKey(d); got != want {
			t.Errorf("%d: %s", d, got)
		}
	}
	if fmt.Sprint(checkSucceeds(0), checkSucceeds(3), checkSucceeds(-4)) != fmt.Sprint(0.5, 1.0, 0.0) {
		t.Errorf("checkSucceeds: %v %v %v", checkSucceeds(0), checkSucceeds(3), checkSucceeds(-4))
	}
}
