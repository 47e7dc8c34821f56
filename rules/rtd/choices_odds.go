package rtd

import (
	"fmt"
	"strconv"
	"strings"

	"pitwall/dice"
)

// The odds of a choice come from the tables where one check decides it
// (Odds: a Power Slide's or a path's Racing Check, the rocket start), and
// otherwise from the resolver's own code played over every sequence of
// faces the dice can show (a pass with its rams and dragged items, an
// item's attacks): exact, and no second copy of the rules. A green shell
// alone is counted by hand (greenOdds), driver by driver, checked against
// every face in the tests.

// The keys of Choice.Odds.
const (
	OddsPass    = "pass"    // gets ahead of the racer just ahead in the segment
	OddsSuccess = "success" // the action's Racing Check passes
	OddsNailed  = "nailed"  // rocket start: +2 Momentum
	OddsFailed  = "failed"  // rocket start: +1
	OddsFluffed = "fluffed" // rocket start: a natural 1, nothing
)

// momentumKey names a change of Momentum: "momentum+2", "momentum-1".
func momentumKey(d int) string { return fmt.Sprintf("momentum%+d", d) }

// enumLimit bounds the sequences of faces counted for one choice: beyond it
// (a banana laid before a long line of drivers) the odds are left out.
const enumLimit = 1 << 12

// faceWalk is a dice source that shows one sequence of faces, then the next:
// faces[i] is the face of the i-th die rolled, sides[i] its number of faces.
type faceWalk struct {
	faces, sides []int
	i            int
}

func (w *faceWalk) Face(d dice.Die) int {
	if w.i == len(w.faces) {
		w.faces, w.sides = append(w.faces, 0), append(w.sides, d.Sides())
	}
	w.i++
	return w.faces[w.i-1]
}

// eachFaces plays play once for every sequence of faces and sums the
// probability of each key it returns; false when there are more than limit.
func eachFaces(limit int, play func(d *dice.Roller) []string) (map[string]float64, bool) {
	out := map[string]float64{}
	w := &faceWalk{}
	for n := 0; n < limit; n++ {
		w.i = 0
		keys := play(dice.WithSource(w))
		w.faces, w.sides = w.faces[:w.i], w.sides[:w.i]
		p := 1.0
		for _, k := range w.sides {
			p /= float64(k)
		}
		for _, k := range keys {
			out[k] += p
		}
		// the next sequence: the last die that can show a higher face does, and the dice after it are rolled afresh
		k := len(w.faces) - 1
		for k >= 0 && w.faces[k] == w.sides[k]-1 {
			k--
		}
		if k < 0 {
			return out, true
		}
		w.faces[k]++
		w.faces, w.sides = w.faces[:k+1], w.sides[:k+1]
	}
	return nil, false
}

// checkSucceeds is the chance a Racing Check at mod passes, off the table's odds.
func checkSucceeds(mod int) float64 {
	o, _ := Ruleset{}.Odds("racing-check", map[string]string{"modifier": strconv.Itoa(mod)}) // a whole number is always good input
	p := 0.0
	for out := Succeed; out <= SucceedGainTwo; out++ {
		p += o[out.String()]
	}
	return p
}

// oddsOf fills in the odds of c, the allowed action a of x.
func (s *State) oddsOf(x *Racer, a Action, c *Choice) {
	seg := s.course.Segments[x.Segment]
	mods := racingMods(x)
	switch a.Kind {
	case RocketStart:
		if a.Safe {
			return // +1, no dice
		}
		c.Odds = d6(func(face int) string {
			switch {
			case face == 1:
				return OddsFluffed
			case RacingCheck(face).Succeeds():
				return OddsNailed
			}
			return OddsFailed
		})
		return
	case TakePath:
		if p := seg.Paths[a.Path-1]; p.Check != nil {
			c.Odds = map[string]float64{OddsSuccess: checkSucceeds(*p.Check + mods)}
		}
		return
	case DriveDefensively, RamDriver: // no dice in the Action Phase
		return
	}
	if a.Kind == Draft && s.aheadInSegment(x) == nil {
		return // nobody to draft: nothing happens
	}
	var plain, defended map[string]float64
	it := a.used(x) // the item deployed, for an item's order
	if a.Kind == DeployItem && it == GreenShell {
		plain, defended = s.greenOdds(x, a, false), s.greenOdds(x, a, true)
	} else {
		var ok bool
		if plain, ok = s.actOdds(x, a, false, enumLimit); !ok {
			return // too many ways to count: left out rather than guessed
		}
		// Those ahead driving defensively touch only a pass (+1 to hold) and a
		// red shell's target (+1 to dodge): the rest need not be played twice.
		defended = plain
		if a.Kind == Draft || a.Kind == PowerSlide || a.Kind == DeployItem && (it == Mushroom || it == RedShell || it == TripleRedShell) {
			if defended, ok = s.actOdds(x, a, true, enumLimit); !ok {
				defended = plain
			}
		}
	}
	c.Odds, c.Hits = s.split(plain)
	d, dh := s.split(defended)
	for _, o := range []map[string]float64{c.Odds, d} {
		if s.aheadInSegment(x) != nil && (a.Kind == Draft || a.Kind == PowerSlide || a.Kind == DeployItem && it == Mushroom) {
			o[OddsPass] += 0 // a pass tried: its chance is listed, nought or not
		}
	}
	if a.Kind == PowerSlide {
		c.Odds[OddsSuccess] = checkSucceeds(seg.Shape.PowerSlideModifier() + mods)
		d[OddsSuccess] = c.Odds[OddsSuccess]
	}
	if !sameOdds(c.Odds, d) {
		c.Defended = d
	}
	if !sameHits(c.Hits, dh) {
		c.HitsDefended = dh
	}
	if len(c.Odds) == 0 {
		c.Odds = nil
	}
}

// aheadInSegment is the racer just ahead of x in its segment, if any.
func (s *State) aheadInSegment(x *Racer) *Racer {
	g, pos := s.segmentGroup(x)
	if pos > 0 {
		return g[pos-1]
	}
	return nil
}

// actOdds plays x's action a over every sequence of faces, from the Action
// Phase as it stands when x acts: Defensive and the slide bonus cleared, high
// acceleration for x and those before it, who do nothing else (but drive
// defensively, when defended). Keys: pass, momentum±N (driving aggressively),
// hit:SEAT and lost:SEAT (an item knocks that racer, or takes its item).
func (s *State) actOdds(x *Racer, a Action, defended bool, limit int) (map[string]float64, bool) {
	return eachFaces(limit, func(d *dice.Roller) []string {
		c := s.clone()
		for i := range c.Racers {
			c.Racers[i].Defensive, c.Racers[i].SlideBonus = false, 0
		}
		for _, y := range c.running() {
			if y.Momentum == 0 && y.Perk == HighAcceleration {
				y.Momentum++
			}
			if y.Seat == x.Seat {
				break
			}
			y.Defensive = defended
		}
		me := c.racer(x.Seat)
		before := append([]Racer(nil), c.Racers...)
		kept := *me // what x keeps if nothing takes any item but the one it deploys
		if a.Kind == DeployItem {
			kept.spend(a.used(me))
		}
		ahead := c.aheadInSegment(me)
		r := &resolver{s: c, d: d, quiet: true}
		r.act(me, a)
		var keys []string
		if ahead != nil && c.position(me.Seat) < c.position(ahead.Seat) {
			keys = append(keys, OddsPass)
		}
		if a.Kind == DriveAggressively {
			keys = append(keys, momentumKey(me.Momentum-before[me.Seat].Momentum))
		}
		// Knocked by an item: hit (a bob-omb's hit on a racer already at
		// Momentum 0 shows only in the event; a pass that fails into a
		// dragged item), caught in a blast, or shrunk; a ram on the way is
		// the pass, not a hit.
		hitBy, blasted := map[int]bool{}, map[int]bool{}
		for _, e := range r.ev {
			if e.Seat >= 0 {
				hitBy[e.Seat] = hitBy[e.Seat] || e.Kind == "hit"
				blasted[e.Seat] = blasted[e.Seat] || e.Kind == "blast"
			}
		}
		for i, y := range c.Racers {
			b := before[i]
			switch {
			case hitBy[i] || blasted[i] && y.Momentum < b.Momentum || y.Shrunk > b.Shrunk:
				keys = append(keys, "hit:"+strconv.Itoa(i))
			case len(y.items()) < len(kept.items()) && i == me.Seat || i != me.Seat && len(y.items()) < len(b.items()):
				keys = append(keys, "lost:"+strconv.Itoa(i))
			}
		}
		return keys
	})
}

// split parts actOdds's keys into the racer's odds and the hits on racers.
func (s *State) split(m map[string]float64) (map[string]float64, []Hit) {
	odds := map[string]float64{}
	bySeat := map[int]*Hit{}
	for k, p := range m {
		p = min(max(p, 0), 1) // a certainty summed from many small parts can come out a hair above 1
		kind, seat, ok := strings.Cut(k, ":")
		if !ok {
			odds[k] = p
			continue
		}
		n, _ := strconv.Atoi(seat)
		h := bySeat[n]
		if h == nil {
			h = &Hit{Name: s.Racers[n].Name, Seat: n}
			bySeat[n] = h
		}
		if kind == "hit" {
			h.Hit = p
		} else {
			h.ItemLost = p
		}
	}
	var hits []Hit
	for _, x := range s.Racers { // seat order: the same list every time
		if h := bySeat[x.Seat]; h != nil {
			hits = append(hits, *h)
		}
	}
	return odds, hits
}

// closeTo says two chances are the same, but for the sums' rounding.
func closeTo(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

func sameOdds(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, p := range a {
		if q, ok := b[k]; !ok || !closeTo(p, q) {
			return false
		}
	}
	return true
}

func sameHits(a, b []Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Seat != b[i].Seat || !closeTo(a[i].Hit, b[i].Hit) || !closeTo(a[i].ItemLost, b[i].ItemLost) {
			return false
		}
	}
	return true
}

// greenOdds counts a green shell's way down x's segment as greenShell plays
// it, with the same keys as actOdds: too many faces to try one by one (two
// dice a driver, and a bounce back), so the faces are counted a driver at a
// time, by what matters next: hit, missed or item lost, and a 6 (+1 on the
// next) or a 1 (back off the wall).
func (s *State) greenOdds(x *Racer, a Action, defended bool) map[string]float64 {
	g, pos := s.segmentGroup(x)
	// Each driver's guard, and whether it drags an item, as the shell first
	// meets it and after it has lost the dragged item in front to it (a
	// shell meets a driver at most twice: once each way).
	guard, drags := make([]int, len(g)), make([]bool, len(g))
	guardLost, dragsLost := make([]int, len(g)), make([]bool, len(g))
	for i, y := range g {
		y := *y
		y.Defensive = defended && s.position(y.Seat) < s.position(x.Seat) // those ahead have acted
		if y.Seat == x.Seat {
			y.drop(GreenShell) // the shell has left x's hand when it comes back
		}
		guard[i], drags[i] = y.shellGuard(), y.Hand.Dragged()
		if drags[i] {
			y.drop(y.Hand)
		}
		guardLost[i], dragsLost[i] = y.shellGuard(), y.Hand.Dragged()
	}
	type at struct {
		i, dir, bonus int
		turned        bool
		lost          uint32 // the drivers of g whose item a miss has taken
	}
	memo := map[at]map[string]float64{}
	var from func(k at) map[string]float64
	from = func(k at) map[string]float64 {
		if k.i < 0 || k.i >= len(g) {
			return nil
		}
		if m, ok := memo[k]; ok {
			return m
		}
		out := map[string]float64{}
		add := func(m map[string]float64, p float64) {
			for key, q := range m {
				out[key] += p * q
			}
		}
		y := g[k.i]
		b := k.bonus
		if a.Target != "" {
			if y.Name == a.Target {
				b++
			} else {
				b--
			}
		}
		next := func(face int, lost uint32, p float64) {
			n := at{i: k.i + k.dir, dir: k.dir, lost: lost, turned: k.turned}
			switch face {
			case 6:
				n.bonus = 1
			case 1:
				if k.turned {
					return
				}
				n.turned, n.dir, n.i = true, -k.dir, k.i-k.dir
			}
			add(from(n), p)
		}
		if y.immune() {
			next(0, k.lost, 1)
			memo[k] = out
			return out
		}
		mine := uint32(1) << k.i
		dragging, gd := drags[k.i], guard[k.i]
		if k.lost&mine != 0 {
			dragging, gd = dragsLost[k.i], guardLost[k.i]
		}
		seat := strconv.Itoa(y.Seat)
		for face := 1; face <= 6; face++ {
			for dodge := 1; dodge <= 6; dodge++ {
				p := 1.0 / 36
				switch ShellResult(face, b, dodge, racingMods(y), gd, dragging) {
				case ShellHit:
					out["hit:"+seat] += p
					if k.lost&mine != 0 {
						out["lost:"+seat] -= p // lost earlier, then hit: counted as a hit
					}
				case ShellItemLost:
					if k.lost&mine == 0 { // a second dragged item lost is the same key
						out["lost:"+seat] += p
					}
					next(face, k.lost|mine, p)
				default:
					next(face, k.lost, p)
				}
			}
		}
		memo[k] = out
		return out
	}
	dir := -1 // forwards, as greenShell fires it unless told backward
	if a.How == "backward" {
		dir = 1
	}
	out := from(at{i: pos + dir, dir: dir})
	for k, p := range out {
		if closeTo(p, 0) {
			delete(out, k)
		}
	}
	return out
}
