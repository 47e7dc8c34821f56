package rtd

import (
	"fmt"

	"pitwall/dice"
)

// Laid says whether an item is laid behind or thrown ahead ('item lay',
// 'item throw at NAME') rather than simply used.
func (i Item) Laid() bool { return i == Banana || i == FakeItemBox || i == BobOmb }

// Dragged says whether an item is dragged behind the kart while held: it
// guards against shells (+3 to dodge) and hits a driver who fails to pass.
// The Red Shell is too: the text makes it identical to the Green Shell but
// for its target and bonus.
func (i Item) Dragged() bool {
	return i == Banana || i == FakeItemBox || i == GreenShell || i == RedShell || i == BobOmb
}

// A lasting effect holds "until the end of next turn": this turn and the next.
const lasting = 2

// immune says whether items cannot touch x (a Boo's ghost, a Star's invincibility).
func (x *Racer) immune() bool { return x.Ghost > 0 || x.Star > 0 }

// shellGuard is x's bonus to dodge a shell: +3 while dragging, +2 for each
// orbiting red shell, +1 driving defensively.
func (x *Racer) shellGuard() int {
	g := 0
	if x.Hand.Dragged() {
		g += 3
	}
	if x.holding(TripleRedShell) {
		g += 2 * x.Shells
	}
	if x.Defensive {
		g++
	}
	return g
}

// washInk clears the ink: a dash panel, a Mushroom, a Boo, a Star or a Power Slide does.
func (r *resolver) washInk(x *Racer, why string) {
	if x.Ink > 0 {
		x.Ink = 0
		r.say(x, "ink", r.d.Mark(), "%s's windscreen is washed clean by the %s", x.Name, why)
	}
}

// hitBy applies an item's hit to x: a spin (-1), a flip (-2), or a blast into
// the air (Momentum to zero and every item lost).
func (r *resolver) hitBy(x *Racer, it Item, m int) {
	switch it {
	case Banana:
		x.Momentum--
		r.say(x, "hit", m, "%s spins out on the banana: -1 Momentum", x.Name)
	case FakeItemBox, GreenShell, RedShell, TripleRedShell:
		x.Momentum -= 2
		r.say(x, "hit", m, "%s flips: -2 Momentum", x.Name)
	case BobOmb, BlueShell:
		x.Momentum = 0
		x.loseAll()
		r.say(x, "hit", m, "%s is thrown into the air: Momentum 0, every item lost", x.Name)
	}
}

// blast: the next two drivers in line check to stay clear; a driver caught
// spins out (-1) and loses every item.
func (r *resolver) blast(after *Racer, what string) {
	order := r.s.running()
	for i, y := range order {
		if y != after {
			continue
		}
		for _, z := range order[i+1 : min(i+3, len(order))] {
			if z.immune() {
				continue
			}
			m := r.d.Mark()
			face, out, table := r.racingCheck(z, "clear the "+what+"'s blast", racingMods(z))
			if out.Succeeds() {
				r.say(z, "blast", m, "%s swerves clear of the blast (%d%s)", z.Name, face, table)
				continue
			}
			z.Momentum--
			z.loseAll()
			r.say(z, "blast", m, "%s is caught in the blast (%d%s): spins out, -1 Momentum, every item lost", z.Name, face, table)
		}
		return
	}
}

// deploy plays the item a deploys: the one it names, or the item in front.
func (r *resolver) deploy(x *Racer, a Action) {
	s := r.s
	it := a.used(x)
	m := r.d.Mark()
	if !x.holding(it) { // a named item lost or stolen since the order
		if it != 0 {
			r.say(x, "item", m, "%s has no %s to deploy any more", x.Name, it)
		}
		return
	}
	x.spend(it)
	switch it {
	case Mushroom:
		held := r.gain(x, 2)
		r.say(x, "item", m, "%s fires a mushroom: +2 Momentum%s", x.Name, held)
		r.washInk(x, "mushroom")
		if ahead := r.ahead(x); ahead != nil {
			if r.pass(x, ahead, true) {
				s.swap(x.Seat, ahead.Seat)
			}
		} else {
			x.BreakAway = true // nobody ahead in the segment: try to break away into the next one
		}
	case Boo:
		x.Ghost = lasting
		held := r.gain(x, 1)
		r.washInk(x, "boo")
		var holders []*Racer
		for _, y := range s.running() {
			if y != x && y.Hand != 0 && !y.immune() {
				holders = append(holders, y)
			}
		}
		if len(holders) == 0 {
			r.say(x, "item", m, "%s turns into a ghost: +1 Momentum%s, immune to items and rams; nobody has an item to steal", x.Name, held)
			return
		}
		v := holders[0]
		if len(holders) > 1 {
			v = holders[r.d.Roll(x.Seat, x.Name+": boo steals from", dice.D(len(holders)))-1]
		}
		its := v.items()
		took := its[0]
		if len(its) > 1 { // and a die picks which of its items
			took = its[r.d.Roll(x.Seat, x.Name+": boo steals which of "+v.Name+"'s items", dice.D(len(its)))-1]
		}
		v.drop(took)
		x.give(took)
		if took == TripleRedShell { // with the shells of one: up to three
			n := min(3, v.Shells)
			v.Shells -= n
			x.addShells(n)
		}
		r.say(x, "item", m, "%s turns into a ghost: +1 Momentum%s, immune to items and rams, and steals %s's %s", x.Name, held, v.Name, took)
	case Star:
		x.Star = lasting
		held := r.gain(x, 1)
		r.washInk(x, "star")
		r.say(x, "item", m, "%s grabs a star: invincible until the end of next turn, +1 Momentum%s", x.Name, held)
	case Thunderbolt:
		r.say(x, "item", m, "%s calls down the thunderbolt", x.Name)
		for _, y := range s.running() {
			if y == x || y.immune() {
				continue
			}
			y.Shrunk = lasting
			y.Momentum -= 3
			r.say(y, "item", r.d.Mark(), "%s shrinks: -3 Momentum, -2 on Racing Checks until the end of next turn", y.Name)
		}
	case Blooper:
		r.say(x, "item", m, "%s lets the blooper loose: ink on every windscreen", x.Name)
		for _, y := range s.running() {
			if y != x && !y.immune() {
				y.Ink = lasting
			}
		}
	case BlueShell:
		s.BlueShell = &BlueShellShot{By: x.Seat, Turn: s.T + 1}
		r.say(x, "item", m, "%s launches a blue shell: it strikes the leader at the end of next turn's Action Phase", x.Name)
	case GreenShell:
		r.greenShell(x, a)
	case RedShell:
		r.redShell(x, RedShell)
	case TripleRedShell:
		r.redShell(x, TripleRedShell)
	case Banana, FakeItemBox, BobOmb:
		r.dropOrThrow(x, it, a)
	}
}

// The ends of a shell's attack.
const (
	ShellHit      = "hit"
	ShellMiss     = "miss"
	ShellItemLost = "item-lost" // the dragged item took the hit instead
)

// ShellResult is the end of a shell's opposed roll: the shell's face-1 plus
// bonus must beat the target's dodge face plus its modifiers and guard. A
// shell that beats the dodge only thanks to a dragged item's +3 hits that
// item instead.
func ShellResult(face, bonus, dodge, mod, guard int, dragging bool) string {
	at, dt := face-1+bonus, dodge+mod+guard
	switch {
	case at > dt:
		return ShellHit
	case dragging && guard >= 3 && at > dt-3:
		return ShellItemLost
	}
	return ShellMiss
}

// LaidMods are the Racing-Check modifiers of the drivers behind a laid item,
// the next driver first (the last repeats): a bob-omb catches only the next
// driver, at -2; a fake box among real boxes gives nobody the +1.
func LaidMods(it Item, amongBoxes bool) []int {
	switch {
	case it == BobOmb:
		return []int{-2}
	case it == FakeItemBox && amongBoxes:
		return []int{-1, 0, 0}
	}
	return []int{-1, 0, 1}
}

// ThrowPenalty is the thrower's Racing-Check penalty for between drivers
// between it and the target; a bob-omb is lobbed over them.
func ThrowPenalty(it Item, between int) int {
	if it == BobOmb {
		return 0
	}
	return between
}

// BlueShellShared says whether the leader (face a, modifier am) drags the
// driver just behind (face d, modifier dm) into the blue shell: a Pass roll
// (each modifier is Momentum and ink; the driver's +1 driving defensively)
// the leader must win.
func BlueShellShared(a, am, d, dm int) bool { return a+am > d+dm }

// shellAttack is one shell's opposed check against y: d6-1 plus bonus, against
// y's Racing Check with its guard. It returns the shell's face and whether it hits.
func (r *resolver) shellAttack(by, y *Racer, it Item, bonus int) (int, bool) {
	m := r.d.Mark()
	if y.immune() {
		r.say(y, "shell", m, "the %s passes straight through %s", it, y.Name)
		return 0, false
	}
	face := r.d.Roll(by.Seat, fmt.Sprintf("%s: %s at %s", by.Name, it, y.Name), dice.D6)
	dodge := r.d.Roll(y.Seat, y.Name+": dodge the "+it.String(), dice.D6)
	guard := y.shellGuard()
	at, dt := face-1+bonus, dodge+racingMods(y)+guard
	switch ShellResult(face, bonus, dodge, racingMods(y), guard, y.Hand.Dragged()) {
	case ShellHit:
		r.hitBy(y, it, m)
		return face, true
	case ShellItemLost: // saved by the dragged item (the one in front): it is hit and lost
		lost := y.Hand
		y.drop(lost)
		r.say(y, "shell", m, "the %s (%d) smashes into %s's dragged %s instead (%d): the item is lost", it, at, y.Name, lost, dt)
		return face, false
	}
	r.say(y, "shell", m, "%s dodges the %s (%d against %d)", y.Name, it, at, dt)
	return face, false
}

// greenShell travels forwards (or backwards) through the segment, attacking
// each driver until it hits; a natural 6 that misses bounces on with +1, a
// natural 1 bounces off a wall and turns back.
func (r *resolver) greenShell(x *Racer, a Action) {
	m := r.d.Mark()
	dir := -1 // forwards: towards first place
	if a.How == "backward" {
		dir = 1
	}
	r.say(x, "item", m, "%s fires a green shell %s", x.Name, map[int]string{-1: "forwards", 1: "backwards"}[dir])
	g := r.group(x)
	pos := 0
	for i, y := range g {
		if y == x {
			pos = i
		}
	}
	bonus, turned := 0, false
	for i := pos + dir; i >= 0 && i < len(g); i += dir {
		y := g[i]
		b := bonus
		if a.Target != "" {
			if y.Name == a.Target {
				b++
			} else {
				b--
			}
		}
		face, hit := r.shellAttack(x, y, GreenShell, b)
		if hit {
			return
		}
		bonus = 0
		switch face {
		case 6:
			bonus = 1
		case 1:
			if turned {
				return
			}
			turned, dir = true, -dir
			r.say(x, "shell", r.d.Mark(), "the green shell bounces off the wall and comes back")
		}
	}
}

// redShell homes in on the driver just ahead, with +3.
func (r *resolver) redShell(x *Racer, it Item) {
	m := r.d.Mark()
	ahead := r.aheadAnywhere(x)
	if ahead == nil {
		r.say(x, "item", m, "%s fires a red shell, but nobody is ahead", x.Name)
		return
	}
	r.say(x, "item", m, "%s fires a red shell at %s", x.Name, ahead.Name)
	r.shellAttack(x, ahead, it, 3)
}

// dropOrThrow lays a banana, fake box or bob-omb behind, or throws it forward at a target.
func (r *resolver) dropOrThrow(x *Racer, it Item, a Action) {
	s := r.s
	m := r.d.Mark()
	g := r.group(x)
	pos := 0
	for i, y := range g {
		if y == x {
			pos = i
		}
	}
	if a.How == "throw" && a.Target != "" {
		ti := -1
		for i, y := range g {
			if y.Name == a.Target {
				ti = i
			}
		}
		if ti >= 0 && ti < pos-1 {
			target := g[ti]
			penalty := ThrowPenalty(it, pos-ti-1) // -1 for each driver between
			face, out, table := r.racingCheck(x, fmt.Sprintf("throw the %s at %s", it, target.Name), -penalty+racingMods(x))
			if out.Succeeds() && !target.immune() {
				r.say(x, "item", m, "%s throws the %s (%d%s%s) and hits %s", x.Name, it, face, modText(-penalty), table, target.Name)
				r.hitBy(target, it, r.d.Mark())
				if it == BobOmb {
					r.blast(target, "bob-omb")
				}
				return
			}
			r.say(x, "item", m, "%s throws the %s (%d%s%s) and misses: it lands on the track", x.Name, it, face, modText(-penalty), table)
			if it == BobOmb {
				r.blast(target, "bob-omb")
				return
			}
			// It lands ahead: the thrower and everyone behind drive over it,
			// with +1 to avoid; a fake box among item boxes gives no +1 and
			// waits among them for a pickup of 1 or 2, as a laid one does.
			mod := 1
			if it == FakeItemBox && s.course.Segments[x.Segment].ItemBoxes > 0 {
				mod = 0
				s.Fakes = append(s.Fakes, x.Segment)
			}
			r.avoid(append([]*Racer{x}, g[pos+1:]...), it, []int{mod})
			return
		}
		r.say(x, "item", m, "%s cannot throw at %q: the target must be ahead in the segment, but not the driver just ahead", x.Name, a.Target)
	}
	r.say(x, "item", m, "%s drops the %s behind", x.Name, it)
	behind := g[pos+1:]
	boxes := s.course.Segments[x.Segment].ItemBoxes > 0
	if it == BobOmb {
		r.avoid(behind[:min(1, len(behind))], it, LaidMods(it, boxes))
		if len(behind) > 0 {
			r.blast(behind[0], "bob-omb")
		}
		return
	}
	if it == FakeItemBox && boxes {
		s.Fakes = append(s.Fakes, x.Segment)
	}
	r.avoid(behind, it, LaidMods(it, boxes))
}

// avoid: each driver checks to avoid a laid item, with mods[i] (the last repeats).
func (r *resolver) avoid(ds []*Racer, it Item, mods []int) {
	for i, y := range ds {
		if y.immune() {
			continue
		}
		mod := mods[min(i, len(mods)-1)]
		m := r.d.Mark()
		face, out, table := r.racingCheck(y, "avoid the "+it.String(), mod+racingMods(y))
		if out.Succeeds() {
			r.say(y, "avoid", m, "%s steers round the %s (%d%s%s)", y.Name, it, face, modText(mod), table)
			continue
		}
		if table != "" {
			r.say(y, "avoid", m, "%s cannot steer round the %s (%d%s%s)", y.Name, it, face, modText(mod), table)
			m = r.d.Mark()
		}
		r.hitBy(y, it, m)
	}
}

// group is x's segment group, in race order.
func (r *resolver) group(x *Racer) []*Racer {
	for _, g := range r.groups() {
		for _, y := range g {
			if y == x {
				return g
			}
		}
	}
	return []*Racer{x}
}

// aheadAnywhere is the racer just ahead of x in the whole race.
func (r *resolver) aheadAnywhere(x *Racer) *Racer {
	order := r.s.running()
	for i, y := range order {
		if y == x && i > 0 {
			return order[i-1]
		}
	}
	return nil
}

// blueShellStrikes: at the end of the Action Phase of the turn after it was
// fired, the blue shell hits whoever leads; the leader may drag a driver just
// behind into it (an opposed roll); the next two drivers check against the blast.
func (r *resolver) blueShellStrikes() {
	s := r.s
	b := s.BlueShell
	if b == nil || b.Turn != s.T {
		return
	}
	s.BlueShell = nil
	order := s.running()
	if len(order) == 0 {
		return
	}
	leader := order[0]
	m := r.d.Mark()
	if leader.immune() {
		r.say(leader, "blue shell", m, "the blue shell finds %s untouchable", leader.Name)
		r.blast(leader, "blue shell")
		return
	}
	r.say(leader, "blue shell", m, "the blue shell strikes the leader, %s", leader.Name)
	// The drag is a Pass roll, with the Momentum the leader had as the
	// shell came down (the hit sets it to 0).
	lead := leader.Momentum + passMods(leader)
	r.hitBy(leader, BlueShell, r.d.Mark())
	if len(order) > 1 && r.s.distance(order[1]) == r.s.distance(leader) && !order[1].immune() {
		// The leader drives close to the next driver to share the hit.
		n := order[1]
		m := r.d.Mark()
		hold := n.Momentum + passMods(n)
		if n.Defensive {
			hold++
		}
		a := r.d.Roll(leader.Seat, leader.Name+": share the blue shell", dice.D6)
		d := r.d.Roll(n.Seat, n.Name+": keep clear of the leader", dice.D6)
		if BlueShellShared(a, lead, d, hold) {
			r.say(n, "blue shell", m, "%s is dragged into the explosion (%d against %d)", n.Name, a+lead, d+hold)
			r.hitBy(n, BlueShell, r.d.Mark())
			r.blast(n, "blue shell")
			return
		}
		r.say(n, "blue shell", m, "%s keeps clear of the leader (%d against %d)", n.Name, a+lead, d+hold)
	}
	r.blast(leader, "blue shell")
}
