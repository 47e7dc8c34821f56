package rtd

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"pitwall/dice"
)

// racingMods is x's modifier to Racing Checks: -1 inked, -2 shrunk.
func racingMods(x *Racer) int {
	m := 0
	if x.Ink > 0 {
		m--
	}
	if x.Shrunk > 0 {
		m -= 2
	}
	return m
}

// passMods is x's modifier to Pass Checks: the ink's -1 (shrinking touches Racing Checks only).
func passMods(x *Racer) int {
	if x.Ink > 0 {
		return -1
	}
	return 0
}

// turn plays turns 1 and on: the Player Action Phase, the Movement Phase and
// the Cleanup Phase.
func (r *resolver) turn(actions map[int]Action) {
	s := r.s
	for i := range s.Racers {
		x := &s.Racers[i]
		x.Defensive, x.SlideBonus = false, 0
	}
	// High Acceleration: +1 to a kart that starts the turn at 0, before
	// anyone acts (a kart knocked to 0 during the turn waits for the next).
	running := s.running()
	for _, x := range running {
		if x.Momentum == 0 && x.Perk == HighAcceleration {
			x.Momentum++
			r.say(x, "action", r.d.Mark(), "%s's high acceleration: +1 Momentum from a standstill", x.Name)
		}
	}
	// 1: Player Action Phase, first place to last, as the order stood at the start of the turn.
	pulls := map[int]bool{} // who tries to pull ahead when they may
	for _, x := range running {
		a := actions[x.Seat]
		x.Action = a.String()
		pulls[x.Seat] = s.Opts.pulls(a)
		r.act(x, a)
	}
	r.blueShellStrikes()
	// 2: Movement Phase: the segment's features, then passes, then falling back and pulling ahead.
	groups := r.groups()
	moved := map[int]int{} // segments each racer moves on this turn
	for _, g := range groups {
		for _, x := range g {
			r.features(x)
		}
	}
	for _, g := range r.groups() {
		r.passes(g)
	}
	for _, g := range r.groups() {
		last, first := g[len(g)-1], g[0]
		for _, x := range g {
			moved[x.Seat] = 1
		}
		if last.Momentum <= 0 {
			m := r.d.Mark()
			mod := racingMods(last)
			was := last.Momentum
			face, out, table := r.racingCheck(last, "avoid falling back", mod)
			if !out.Succeeds() {
				moved[last.Seat] = 0
				last.FellBack = true
				held := r.gain(last, 2)
				r.say(last, "fall back", m, "%s, last in the segment at Momentum %d, rolls %d%s%s: wipes out and falls back, repeating the %s (+2 Momentum%s)", last.Name, was, face, modText(mod), table, s.course.Segments[last.Segment].Name, held)
			} else {
				r.say(last, "fall back", m, "%s, last in the segment at low Momentum, rolls %d%s%s: holds on", last.Name, face, modText(mod), table)
			}
		}
		if (first.Momentum >= 4 || first.BreakAway) && moved[first.Seat] == 1 {
			if pulls[first.Seat] {
				r.pullAhead(first, moved)
			} else { // the text: he can, not he must
				r.say(first, "pull ahead", r.d.Mark(), "%s, first in the segment at Momentum %d, stays with the pack", first.Name, first.Momentum)
			}
		}
		first.BreakAway = false
	}
	// Everyone else moves on one segment (pulled ahead: two; fallen back: none).
	passedBoxes := map[int]int{} // the segment whose item boxes each racer passes
	for _, x := range s.running() {
		passedBoxes[x.Seat] = x.Segment
		r.advance(x, moved[x.Seat])
	}
	// 3: Cleanup Phase: item boxes at the end of the segment driven, the course's events, Momentum kept in bounds, the order.
	r.itemBoxes(passedBoxes)
	r.courseEvents(passedBoxes)
	for i := range s.Racers {
		x := &s.Racers[i]
		x.Momentum = min(max(x.Momentum, 0), MaxMomentum(x.Debuff))
		x.Ink, x.Shrunk, x.Star, x.Ghost = max(0, x.Ink-1), max(0, x.Shrunk-1), max(0, x.Star-1), max(0, x.Ghost-1)
		x.BreakAway = false
	}
	s.Fakes = nil
	s.reorder()
	leader := s.running()
	for i := range s.Racers {
		if x := &s.Racers[i]; x.FellBack && len(leader) > 0 && s.distance(leader[0]) == s.distance(x) {
			x.FellBack = false // caught up with the leader's segment: no longer behind
		}
	}
}

// groups splits the running racers by the segment they drive, each in race order.
func (r *resolver) groups() [][]*Racer {
	// By distance first: a racer moved on during the turn (a shortcut) is
	// out of its old group even while the running order still lists it
	// there, and the racers it left stay one group.
	rs := slices.Clone(r.s.running())
	sort.SliceStable(rs, func(i, j int) bool { return r.s.distance(rs[i]) > r.s.distance(rs[j]) })
	var out [][]*Racer
	for _, x := range rs {
		if n := len(out); n > 0 && r.s.distance(out[n-1][0]) == r.s.distance(x) {
			out[n-1] = append(out[n-1], x)
			continue
		}
		out = append(out, []*Racer{x})
	}
	return out
}

// features navigates the segment's hazard and dash panels.
func (r *resolver) features(x *Racer) {
	seg := r.s.course.Segments[x.Segment]
	if h := seg.Hazard; h != nil {
		m := r.d.Mark()
		face, out, table := r.racingCheck(x, h.Name, h.Check+racingMods(x))
		// A hazard's name is a course maker's words ("gravel trap",
		// "falling off the edge"), so it is told as a label after its
		// segment's name, never inside a sentence it might not fit.
		if out.Succeeds() {
			r.say(x, "hazard", m, "%s gets through %s (%s: %d%s%s)", x.Name, theSegment(seg), h.Name, face, modText(h.Check), table)
		} else {
			x.Momentum -= h.Lose
			r.say(x, "hazard", m, "%s is caught in %s (%s: %d%s%s): -%d Momentum", x.Name, theSegment(seg), h.Name, face, modText(h.Check), table, h.Lose)
		}
	}
	if seg.DashPanels {
		m := r.d.Mark()
		face, out, table := r.racingCheck(x, "dash panels", racingMods(x))
		if out.Succeeds() {
			held := r.gain(x, 1)
			r.say(x, "dash", m, "%s hits the dash panels (%d%s): +1 Momentum%s", x.Name, face, table, held)
			r.washInk(x, "dash panels")
		} else {
			r.say(x, "dash", m, "%s misses the dash panels (%d%s)", x.Name, face, table)
		}
	}
}

// theSegment is a segment's name in a sentence: "the Hairpin", and a name
// that has its own article ("The Loop") as it is.
func theSegment(seg Segment) string {
	if strings.HasPrefix(strings.ToLower(seg.Name), "the ") {
		return seg.Name
	}
	return "the " + seg.Name
}

func modText(m int) string {
	if m == 0 {
		return ""
	}
	return ", " + signed(m)
}

// passes: driver by driver from the last in the group up, a driver with more
// Momentum than the one ahead tries to pass; each success costs one Momentum
// and he tries again, until he fails or has no more Momentum than the next.
func (r *resolver) passes(g []*Racer) {
	s := r.s
	drivers := append([]*Racer(nil), g...)
	for k := len(drivers) - 1; k >= 0; k-- {
		x := drivers[k]
		j := 0
		for j < len(g) && g[j] != x {
			j++
		}
		for ; j > 0; j-- {
			ahead := g[j-1]
			if x.Defensive || x.Momentum <= ahead.Momentum {
				break
			}
			if !r.pass(x, ahead, false) {
				break
			}
			g[j-1], g[j] = x, ahead
			s.swap(x.Seat, ahead.Seat)
		}
	}
}

// pass resolves one Pass (with a Ram first if either is set to ram). It
// returns whether x gets ahead; a pass that succeeds costs one Momentum
// unless it is free (a Draft or a Power Slide's).
func (r *resolver) pass(x, ahead *Racer, free bool) bool {
	// A star makes every pass a ram; a ram is set up with the Ram Driver action.
	for _, rammer := range []*Racer{x, ahead} {
		if !rammer.RamNext && rammer.Star == 0 {
			continue
		}
		other := ahead
		if rammer == ahead {
			other = x
		}
		rammer.RamNext = false
		if other.Ghost > 0 || other.Star > 0 && rammer.Star == 0 {
			r.say(rammer, "ram", r.d.Mark(), "%s cannot touch %s", rammer.Name, other.Name)
			continue
		}
		if won := r.ram(rammer, other); won {
			if rammer == x { // the rammed driver cannot oppose: x goes through
				if !free {
					x.Momentum--
				}
				return true
			}
			return false // x was rammed: his pass fails
		}
	}
	m := r.d.Mark() // after the rams: their rolls are told with them
	a := r.d.Roll(x.Seat, x.Name+": pass", dice.D6)
	d := r.d.Roll(ahead.Seat, ahead.Name+": hold", dice.D6)
	at := a + x.Momentum + x.SlideBonus + passMods(x)
	dt := d + ahead.Momentum + passMods(ahead)
	if ahead.Defensive {
		dt++
	}
	if PassSucceeds(at, dt) {
		if !free {
			x.Momentum--
		}
		r.say(x, "pass", m, "%s passes %s (%d against %d)", x.Name, ahead.Name, at, dt)
		return true
	}
	r.say(x, "pass", m, "%s cannot get past %s (%d against %d)", x.Name, ahead.Name, at, dt)
	r.draggedHit(x, ahead)
	return false
}

// draggedHit: a driver who fails to pass or ram one dragging an item is hit by it.
func (r *resolver) draggedHit(x, dragger *Racer) {
	if !dragger.Hand.Dragged() || x.immune() {
		return
	}
	it := dragger.Hand // the dragged item is the one in front
	dragger.drop(it)
	m := r.d.Mark()
	r.say(x, "hit", m, "%s runs into %s's dragged %s", x.Name, dragger.Name, it)
	r.hitBy(x, it, r.d.Mark())
	if it == BobOmb {
		r.blast(x, "bob-omb")
	}
}

// ram: an opposed Racing Check. The rammer winning costs both a Momentum and
// the rammed one must check to avoid spinning out; losing costs the rammer one.
func (r *resolver) ram(rammer, other *Racer) bool {
	m := r.d.Mark()
	if rammer.Star > 0 && r.s.Opts.StarRamSure { // star-ram=sure: no roll, it always lands
		other.Momentum -= 2
		r.say(rammer, "ram", m, "%s, invincible, rams %s out of the way: %s flips, -2 Momentum", rammer.Name, other.Name, other.Name)
		return true
	}
	bonus := map[Perk]int{RammingSpeed: 1}[rammer.Perk] - map[Perk]int{Featherweight: 1}[rammer.Debuff]
	guard := 0
	if other.holding(TripleRedShell) {
		guard = 2 * other.Shells // orbiting shells guard against rams
	}
	if rammer.holding(TripleRedShell) {
		bonus += 2 * rammer.Shells
	}
	// Driving defensively is +1 against a ram: the text calls a ram an
	// attack, and the defensive driver is the one being passed.
	if rammer.Defensive {
		bonus++
	}
	if other.Defensive {
		guard++
	}
	// An opposed Racing Check: each side's ink and shrink count.
	a := r.d.Roll(rammer.Seat, rammer.Name+": ram", dice.D6) + bonus + racingMods(rammer)
	d := r.d.Roll(other.Seat, other.Name+": resist the ram", dice.D6) + guard + racingMods(other)
	if !RamSucceeds(a, d) { // a star's ram too (star-ram=roll): it is treated as a ram, check and all
		rammer.Momentum--
		r.say(rammer, "ram", m, "%s tries to ram %s (%d against %d) and bounces off: -1 Momentum", rammer.Name, other.Name, a, d)
		r.draggedHit(rammer, other)
		return false
	}
	if rammer.Star > 0 { // an invincible rammer that wins flips the other
		other.Momentum -= 2
		r.say(rammer, "ram", m, "%s, invincible, rams %s out of the way (%d against %d): %s flips, -2 Momentum", rammer.Name, other.Name, a, d, other.Name)
		return true
	}
	rammer.Momentum--
	other.Momentum--
	face, out, table := r.racingCheck(other, "avoid spinning out", racingMods(other))
	text := fmt.Sprintf("; %s keeps control (%d%s)", other.Name, face, table)
	if !out.Succeeds() {
		other.Momentum--
		text = fmt.Sprintf("; %s spins out (%d%s): -1 more", other.Name, face, table)
	}
	r.say(rammer, "ram", m, "%s rams %s (%d against %d): both -1 Momentum%s", rammer.Name, other.Name, a, d, text)
	return true
}

// pullAhead: the first in a segment at Momentum 4 or more checks to Pull Ahead
// into the next segment, meeting its hazard; any Momentum lost there undoes it.
func (r *resolver) pullAhead(x *Racer, moved map[int]int) {
	s := r.s
	m := r.d.Mark()
	face, out, table := r.racingCheck(x, "pull ahead", racingMods(x))
	if !out.Succeeds() {
		r.say(x, "pull ahead", m, "%s tries to pull ahead (%d%s) and cannot", x.Name, face, table)
		return
	}
	next := s.course.Segments[(x.Segment+1)%len(s.course.Segments)]
	if h := next.Hazard; h != nil {
		hf, hout, htable := r.racingCheck(x, h.Name+" (pulling ahead)", h.Check+racingMods(x))
		if !hout.Succeeds() {
			x.Momentum -= h.Lose
			r.say(x, "pull ahead", m, "%s pulls ahead (%d%s) but is caught in %s (%s: %d%s%s): -%d Momentum, and the gap closes", x.Name, face, table, theSegment(next), h.Name, hf, modText(h.Check), htable, h.Lose)
			return
		}
		table += htable
	}
	moved[x.Seat] = 2
	x.Momentum -= 3
	r.say(x, "pull ahead", m, "%s pulls ahead (%d%s) into %s: -3 Momentum", x.Name, face, table, next.Name)
}

// advance moves a racer on n segments, counting laps and the finish.
func (r *resolver) advance(x *Racer, n int) {
	s := r.s
	for i := 0; i < n && !x.Finished; i++ {
		x.Segment++
		if x.Segment == len(s.course.Segments) {
			x.Segment = 0
			x.Laps++
			x.LapTurns = append(x.LapTurns, s.T)
			m := r.d.Mark()
			if x.Laps >= s.Laps {
				x.Finished = true
				x.FinishTurn = s.T
				s.Finish = append(s.Finish, x.Seat)
				r.say(x, "finish", m, "%s crosses the line: place %d!", x.Name, len(s.Finish))
			} else {
				r.say(x, "lap", m, "%s starts lap %d of %d", x.Name, x.Laps+1, s.Laps)
			}
		}
	}
}

// itemBoxes: each racer that drove a segment with a line of boxes, and has a
// free hand, checks to hit one; where boxes are fewer than racers, each box
// taken makes the next check 1 harder.
func (r *resolver) itemBoxes(drove map[int]int) {
	s := r.s
	taken := map[int]int{}
	for _, seat := range s.Order {
		x := s.racer(seat)
		seg, ok := drove[seat]
		if !ok || s.Opts.OneItem && x.Hand != 0 { // inventory=one: a full hand drives past
			continue
		}
		boxes := s.course.Segments[seg].ItemBoxes
		if boxes == 0 {
			continue
		}
		mod := racingMods(x)
		if boxes < len(s.Racers) {
			mod -= taken[seg]
		}
		m := r.d.Mark()
		face, out, table := r.racingCheck(x, "item box", mod)
		if fake := slices.Contains(s.Fakes, seg); fake && face <= 2 { // a 1 or 2 finds the fake box
			r.say(x, "item", m, "%s goes for an item box (%d%s) and hits the fake", x.Name, face, table)
			r.hitBy(x, FakeItemBox, r.d.Mark())
			continue
		}
		if !out.Succeeds() {
			r.say(x, "item", m, "%s misses the item boxes (%d%s%s)", x.Name, face, modText(mod), table)
			continue
		}
		taken[seg]++
		bonus := ItemRollBonus(s.position(seat), x.FellBack, x.Perk)
		if x.Debuff == LowLoot {
			bonus--
		}
		roll := r.d.Roll(x.Seat, x.Name+": item roll", dice.D6)
		got := ItemFor(roll + bonus)
		x.give(got)
		if got == TripleRedShell {
			x.addShells(3)
		}
		r.say(x, "item", m, "%s takes an item box (%d%s): the Item Roll is %d%s: %s", x.Name, face, table, roll, modText(bonus), got)
	}
}

// swap exchanges two racers' places in the order.
func (s *State) swap(a, b int) {
	ia, ib := s.position(a)-1, s.position(b)-1
	s.Order[ia], s.Order[ib] = s.Order[ib], s.Order[ia]
}

// act plays one racer's action in the Player Action Phase.
func (r *resolver) act(x *Racer, a Action) {
	s := r.s
	m := r.d.Mark()
	seg := s.course.Segments[x.Segment]
	switch a.Kind {
	case DriveAggressively:
		face := r.d.Roll(x.Seat, x.Name+": drive aggressively", dice.D6)
		gain := AggressiveGain(face + racingMods(x))
		held := r.gain(x, gain)
		r.say(x, "action", m, "%s drives aggressively (%d): %s Momentum%s", x.Name, face, signed(gain), held)
	case DriveDefensively:
		x.Defensive = true
		r.say(x, "action", m, "%s drives defensively", x.Name)
	case Draft:
		ahead := r.ahead(x)
		if ahead == nil {
			r.say(x, "action", m, "%s looks for a draft, but nobody is ahead in the segment", x.Name)
			return
		}
		r.say(x, "action", m, "%s drafts behind %s for a free pass", x.Name, ahead.Name)
		if r.pass(x, ahead, true) {
			s.swap(x.Seat, ahead.Seat)
		}
	case PowerSlide:
		mod := seg.Shape.PowerSlideModifier() + racingMods(x)
		face, out, table := r.racingCheck(x, "power slide", mod)
		if !out.Succeeds() {
			r.say(x, "action", m, "%s tries a power slide on the %s (%d%s%s) and fails", x.Name, seg.Shape.Words(), face, modText(mod), table)
			return
		}
		x.SlideBonus = 1
		r.say(x, "action", m, "%s power slides through the %s (%d%s%s): +1 to passing this turn", x.Name, seg.Shape.Words(), face, modText(mod), table)
		r.washInk(x, "power slide")
		if ahead := r.ahead(x); ahead != nil && x.Momentum > ahead.Momentum && r.pass(x, ahead, true) {
			s.swap(x.Seat, ahead.Seat)
		}
	case TakePath:
		r.path(x, seg, a.Path)
	case RamDriver:
		x.RamNext = true
		r.say(x, "action", m, "%s lines up a ram", x.Name)
	case DeployItem:
		r.deploy(x, a)
	}
}

// ahead is the racer just ahead of x in its segment, if any.
func (r *resolver) ahead(x *Racer) *Racer {
	for _, g := range r.groups() {
		for i, y := range g {
			if y == x && i > 0 {
				return g[i-1]
			}
		}
	}
	return nil
}

// opens says whether x may take p: a path that needs an item is open to a
// racer holding it, and a Boo's or a Star's to a racer who is already a
// ghost or invincible (the text: each gives 'access to certain shortcuts').
func (x *Racer) opens(p Path) bool {
	return p.Item == "" || x.already(p) || x.holdsNamed(p.Item)
}

// usesItem says whether taking p uses up an item of x's.
func (x *Racer) usesItem(p Path) bool { return p.Item != "" && !x.already(p) }

// already says whether x is already what p's item would make it.
func (x *Racer) already(p Path) bool {
	return p.Item == Boo.String() && x.Ghost > 0 || p.Item == Star.String() && x.Star > 0
}

// path takes an alternate path: its item is used, its check rolled; a shortcut
// moves the racer on a segment at once, a boost gives Momentum.
func (r *resolver) path(x *Racer, seg Segment, n int) {
	m := r.d.Mark()
	if n < 1 || n > len(seg.Paths) {
		r.say(x, "action", m, "%s looks for a way off the line, but %s has no path %d", x.Name, seg.Name, n)
		return
	}
	p := seg.Paths[n-1]
	it, _ := ParseItem(p.Item) // a course's path items are checked when it is read
	switch {
	case !x.opens(p):
		r.say(x, "action", m, "%s needs a %s for %s and has none", x.Name, p.Item, p.Name)
		return
	case !x.usesItem(p): // nothing to use
	case x.Hand.Dragged(): // the dragged item goes first
		r.say(x, "action", m, "%s must use the dragged %s before the %s, and cannot take %s", x.Name, x.Hand, p.Item, p.Name)
		return
	case it == Boo || it == Star: // used, with all it does: that is what opens the way
		r.deploy(x, Action{Kind: DeployItem, Item: it})
	default:
		x.drop(it)
	}
	if p.Check != nil {
		face, out, table := r.racingCheck(x, p.Name, *p.Check+racingMods(x))
		if !out.Succeeds() {
			r.say(x, "action", m, "%s misses %s (%d%s%s)", x.Name, p.Name, face, modText(*p.Check), table)
			return
		}
	}
	held := r.gain(x, p.Momentum)
	if p.Skip {
		r.say(x, "action", m, "%s takes %s: on past the next segment", x.Name, p.Name)
		r.advance(x, 1)
		return
	}
	r.say(x, "action", m, "%s takes %s: +%d Momentum%s", x.Name, p.Name, p.Momentum, held)
}

// courseEvents plays the course's changing conditions that come up this turn
// on the drivers who drove their segment (driven: seat to segment).
func (r *resolver) courseEvents(driven map[int]int) {
	s := r.s
	for _, e := range s.course.Events {
		m := r.d.Mark()
		if e.Every > 0 && s.T%e.Every != 0 {
			continue
		}
		if e.Roll > 0 {
			if f := r.d.Roll(-1, "course event: "+e.Name, dice.D6); !EventComes(f, e.Roll) {
				r.say(nil, "event", m, "Course event: no %s this turn (rolled %d, needs %d+)", e.Name, f, e.Roll)
				continue
			}
		}
		seg := s.course.segmentIndex(e.Segment)
		r.say(nil, "event", m, "Course event in %s: %s", theSegment(s.course.Segments[seg]), e.Name)
		for _, x := range s.running() {
			if d, ok := driven[x.Seat]; !ok || d != seg {
				continue
			}
			m := r.d.Mark()
			face, out, table := r.racingCheck(x, e.Name, e.Check+racingMods(x))
			if out.Succeeds() {
				r.say(x, "event", m, "%s comes through (%d%s%s)", x.Name, face, modText(e.Check), table)
				continue
			}
			x.Momentum -= e.Lose
			r.say(x, "event", m, "%s is caught (%d%s%s): -%d Momentum", x.Name, face, modText(e.Check), table, e.Lose)
		}
	}
}
