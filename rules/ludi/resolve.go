package ludi

import (
	"fmt"
	"slices"

	"pitwall/dice"
	"pitwall/internal/words"
	"pitwall/race"
	"pitwall/rules/ludi/tables"
)

// freeDiscard is how many spaces a chariot stopped by an obstacle may lose
// before its horses take damage: all of them at LOW, two at FAST, four at MAX.
var freeDiscard = map[tables.Level]int{tables.Stop: 99, tables.Low: 99, tables.Fast: 2, tables.Max: 4}

// contingencyReach is 'within 50% of the highest roll' as the text counts it:
// 2 or less at LOW, 5 or less at FAST, 7 or less at MAX.
var contingencyReach = map[tables.Level]int{tables.Stop: 0, tables.Low: 2, tables.Fast: 5, tables.Max: 7}

type resolver struct {
	s          *State
	d          *dice.Roller
	ev         []race.Event
	orders     map[int]Orders
	initiative map[int]int
	bonusMove  map[int]bool
	usedCont   map[int]bool // seats whose contingency for this order has been used
	watching   map[int]bool
	stunned    map[int]bool // seats whose order this step is lost to a stun
	armed      map[int]Kind // attacks waiting for an overtaker this step, by seat
	start      map[int]Chariot
	step       int
	// overturned holds the seats flipped this turn, true once the story has
	// said the wreck lies still: the flipped orders begin next turn.
	overturned map[int]bool
}

// resolve plays one turn and returns the new state and what happened.
func resolve(old *State, orders map[int]Orders, d *dice.Roller) (*State, []race.Event) {
	s := old.clone()
	r := &resolver{s: s, d: d, orders: orders, initiative: map[int]int{}, bonusMove: map[int]bool{}, usedCont: map[int]bool{}, overturned: map[int]bool{}}
	for i := range s.Chariots {
		c := &s.Chariots[i]
		c.Trail = nil
		c.Orders = ""
		if !c.Active() {
			continue
		}
		o := orders[c.Seat]
		c.Orders = o.String()
		c.Trail = []Pos{c.Pos}
		switch o.Bonus {
		case "initiative":
			r.initiative[c.Seat] = 1
		case "move":
			r.bonusMove[c.Seat] = true
		}
	}
	for r.step = 0; r.step < s.Orders; r.step++ {
		r.watching = map[int]bool{}
		r.stunned = map[int]bool{}
		r.armed = map[int]Kind{}
		r.usedCont = map[int]bool{} // each order after the first has a contingency of its own
		r.start = map[int]Chariot{}
		queue := s.order(r.initiative)
		for _, c := range queue {
			if k := r.kindFor(c); k == Watch && c.Stunned == 0 {
				r.watching[c.Seat] = true
			}
			r.start[c.Seat] = *c
		}
		for _, c := range queue {
			if c.Active() {
				r.act(c)
			}
		}
		for _, c := range queue {
			if k, ok := r.armed[c.Seat]; ok && c.Active() && !c.Flipped {
				r.say(c, k.String(), r.d.Mark(), "%s's %s finds no chariot within reach", c.Name, k)
			}
		}
	}
	s.T++
	s.Orders = 1 // a host sets more orders turn by turn
	return s, r.ev
}

func (r *resolver) kindFor(c *Chariot) Kind {
	o := r.orders[c.Seat]
	if r.step < len(o.Steps) {
		return o.Steps[r.step].Kind
	}
	return Cruise
}

func (r *resolver) say(c *Chariot, kind string, mark int, format string, a ...any) {
	seat := -1
	if c != nil {
		seat = c.Seat
	}
	r.ev = append(r.ev, race.Event{Seat: seat, Kind: kind, Text: fmt.Sprintf(format, a...), Rolls: r.d.Since(mark)})
}

func (r *resolver) roll(c *Chariot, why string, d dice.Die) int {
	return r.d.Roll(c.Seat, c.Name+": "+why, d)
}

// act plays one order of one chariot.
func (r *resolver) act(c *Chariot) {
	k := r.kindFor(c)
	st := Step{Kind: k}
	if o := r.orders[c.Seat]; r.step < len(o.Steps) {
		st = o.Steps[r.step]
	}
	if c.Flipped {
		// The text gives a flipped chariot its two orders on the racer's
		// subsequent turns: a chariot that overturned this turn lies still
		// for the rest of it, its other orders lost with the chariot.
		if told, now := r.overturned[c.Seat]; now {
			if !told {
				r.overturned[c.Seat] = true
				r.say(c, "wreck", r.d.Mark(), "the wreck of %s lies where it overturned until next turn, when %s may hang on or roll away", c.Name, c.Name)
			}
			return
		}
		r.flipped(c, k)
		return
	}
	if c.Stunned > 0 {
		c.Stunned--
		r.stunned[c.Seat] = true
		k = Cruise
		m := r.d.Mark()
		if c.DropToFast {
			c.DropToFast = false
			if c.Level == tables.Max {
				c.Level = tables.Fast
			}
		}
		r.say(c, "stun", m, "%s is stunned and cannot order: the chariot cruises at %s", c.Name, c.Level)
	}
	// The first activation rule: before a second or third order, a chariot close
	// ahead (or in a lane the order moves into) calls up the contingency.
	if r.step > 0 && st.Contingency != nil && !r.usedCont[c.Seat] && k != Cruise {
		if who := r.crowded(c, k); who != nil {
			r.usedCont[c.Seat] = true
			m := r.d.Mark()
			r.say(c, "contingency", m, "%s sees %s close ahead: the contingency %s replaces %s", c.Name, who.Name, *st.Contingency, k)
			k = *st.Contingency
		}
	}
	// A Watch guards only while it is the order carried out: a stun or a
	// contingency in its place leaves the chariot open to a laceration.
	if k == Watch {
		r.watching[c.Seat] = true
	} else {
		delete(r.watching, c.Seat)
	}
	before := c.Level // a Brake contingency at an obstacle starts from here
	m := r.d.Mark()
	whipSpaces := 0
	switch k {
	case Accelerate:
		if c.Level < tables.Max {
			c.Level++
		}
		r.say(c, "speed", m, "%s shakes the reins: %s", c.Name, c.Level)
	case Whip:
		if c.Level < tables.Max {
			c.Level++
		}
		whipSpaces = r.whip(c)
	case Brake:
		if c.Level > tables.Stop {
			c.Level--
		}
		r.say(c, "speed", m, "%s pulls the reins: %s", c.Name, c.Level)
	case Hold:
		r.say(c, "speed", m, "%s holds the horses at the start", c.Name)
	}
	if !c.Active() || c.Flipped { // the whip can stop the horses
		return
	}
	r.drive(c, k, st, whipSpaces, before)
}

// whip rolls the text's two d20s and returns the spaces gained.
func (r *resolver) whip(c *Chariot) int {
	m := r.d.Mark()
	end := c.Endurance
	r1 := r.roll(c, "whip success", dice.D20)
	ok, plus := tables.WhipSuccess(end, r1)
	r2 := r.roll(c, "whip damage", dice.D20)
	hurt := tables.WhipHurts(end, r2)
	text := fmt.Sprintf("%s whips the horses (%s)", c.Name, c.Level)
	if ok {
		text += fmt.Sprintf(": success, +%d spaces", plus)
	} else {
		text += ": no extra pace"
		plus = 0
	}
	if hurt {
		text += "; the horses suffer"
	}
	r.say(c, "whip", m, "%s", text)
	if hurt {
		r.hurtHorses(c, "the whip")
	}
	return plus
}

// crowded finds a chariot that calls up the contingency before order k.
func (r *resolver) crowded(c *Chariot, k Kind) *Chariot {
	reach := contingencyReach[c.Level]
	lanes := map[int]bool{c.Pos.Lane: true}
	for i, step := 1, sign(k.Shift()); i <= abs(k.Shift()); i++ {
		lanes[c.Pos.Lane+i*step] = true
	}
	for i := range r.s.Chariots {
		o := &r.s.Chariots[i]
		if o == c || !o.OnTrack() || !lanes[o.Pos.Lane] {
			continue
		}
		d := r.s.gap(o, c)
		if o.Pos.Lane == c.Pos.Lane && d >= 1 && d <= reach {
			return o
		}
		if o.Pos.Lane != c.Pos.Lane && d >= 0 && d <= reach {
			return o
		}
	}
	return nil
}

// spaces works out how far the chariot goes this order, and tells it.
func (r *resolver) spaces(c *Chariot, k Kind, whip int) (roll, n int) {
	if c.Level == tables.Stop {
		return 0, 0
	}
	die, _ := tables.SpeedDie(c.Level)
	m := r.d.Mark()
	roll = r.roll(c, "speed "+c.Level.String(), die)
	text := fmt.Sprintf("%s at %s rolls %d on the %s die", c.Name, c.Level, roll, die.Name)
	counted := roll // the corner table reads the die as rolled
	if top := topFace(c, c.Level, r.s.Rules); roll > top {
		counted = top
		text += fmt.Sprintf(", %d at most with %s lost", top, words.Count(c.enduranceSpent(), "Endurance point"))
	}
	n = counted + whip
	stunned := r.stunned[c.Seat]
	if bonus := speedBonus(c); bonus > 0 && !stunned && !c.Flipped {
		n += bonus
		text += fmt.Sprintf(", +%d for Speed", bonus)
	}
	if whip > 0 {
		text += fmt.Sprintf(", +%d whip", whip)
	}
	if p := penalty(c, r.s.Rules); p > 0 {
		n -= p
		text += fmt.Sprintf(", -%d for damage", p)
	}
	if n < 0 {
		n = 0
	}
	// The bonus space belongs to the next movement: a stunned one is not
	// eligible for bonuses, and the space is lost with it.
	if r.bonusMove[c.Seat] {
		r.bonusMove[c.Seat] = false
		if stunned {
			text += ", the bonus space lost to the stun"
		} else {
			n++
			text += ", +1 bonus space"
		}
	}
	r.say(c, "roll", m, "%s: %s", text, words.Count(n, "space"))
	return roll, n
}

// speedBonus is the Speed characteristic's extra spaces: it raises the top
// speeds, so it counts at FAST and MAX (docs/rules/ludi.md).
func speedBonus(c *Chariot) int {
	if c.Level >= tables.Fast {
		return c.Team.Speed
	}
	return 0
}

// penalty is the spaces lost to lasting damage: each horse injury, each space
// lost to a crash, and one for every two points of chariot damage; with the
// endurance-pace option 'space', each Endurance point lost as well.
func penalty(c *Chariot, rules Rules) int {
	p := c.HorseInjuries + c.Lame + (c.DamageL+c.DamageR)/2
	if rules.enduranceCostsSpaces() {
		p += c.enduranceSpent()
	}
	return p
}

// topFace is the highest roll of the speed die at level lv that counts in
// full. With the endurance-pace option 'cap' (the text: lost Endurance lowers
// the most a chariot can move) each Endurance point lost takes one off the
// top face, never below the die's lowest; a higher roll reads as this.
func topFace(c *Chariot, lv tables.Level, rules Rules) int {
	die, ok := tables.SpeedDie(lv)
	if !ok {
		return 0
	}
	top, low := slices.Max(die.Faces), slices.Min(die.Faces)
	if rules.enduranceCaps() {
		top = max(low, top-c.enduranceSpent())
	}
	return top
}

// drive moves the chariot for one order: attacks, displacement, the lane, corners, the wall.
// before is the level the chariot had before this order changed it.
func (r *resolver) drive(c *Chariot, k Kind, st Step, whip int, before tables.Level) {
	roll, n := r.spaces(c, k, whip)
	if r.braceFor(c, k, st, n, before) {
		k = Brake
		roll, n = r.spaces(c, k, 0)
	}
	attacked := false
	if k.IsAttack() {
		if d := r.adjacent(c, k.Side()); d != nil {
			r.attack(c, d, k, tables.Adjacent, "alongside")
			attacked = true
			if !c.Active() || c.Flipped {
				return
			}
		}
	}
	from := c.Pos
	moved := r.move(c, k, st, roll, n)
	if moved > 0 && c.Active() && !c.Flipped {
		m := r.d.Mark()
		where := r.s.track.Segments[c.Pos.Seg].Name
		if c.Pos.Lane != from.Lane {
			r.say(c, "move", m, "%s drives %s, from lane %d to lane %d, now in the %s", c.Name, words.Count(moved, "space"), from.Lane, c.Pos.Lane, where)
		} else {
			r.say(c, "move", m, "%s drives %s in lane %d, now in the %s", c.Name, words.Count(moved, "space"), c.Pos.Lane, where)
		}
	}
	if !c.Active() || c.Flipped {
		return
	}
	if k.IsAttack() && !attacked {
		if d := r.overtaken(c, k.Side()); d != nil {
			r.attack(c, d, k, tables.Overtaking, "while overtaking")
		} else if d := r.adjacent(c, k.Side()); d != nil {
			r.attack(c, d, k, tables.Adjacent, "alongside")
		} else {
			r.armed[c.Seat] = k
		}
	}
	// An attack held for an overtaker fires when this chariot passes on its side.
	for i := range r.s.Chariots { // seat order: the same on every replay
		if len(r.armed) == 0 {
			break
		}
		y := &r.s.Chariots[i]
		ak, ok := r.armed[y.Seat]
		if !ok || y == c || !c.Active() || c.Flipped {
			continue
		}
		if r.passed(c, y, ak.Side()) {
			delete(r.armed, y.Seat)
			r.attack(y, c, ak, tables.Overtaking, "as "+c.Name+" overtakes")
		}
	}
	if moved > 0 && c.Active() && !c.Flipped && (c.Pos.Lane == 1 || c.Pos.Lane == r.s.track.Lanes) {
		r.wall(c)
	}
}

// braceFor is the Brake contingency at an obstacle, which the text activates
// 'before the chariot is moved': when the n spaces rolled would run the
// chariot into another with more to go than its level may let go, it brakes
// from the level it had before the order, in place of the order, and the move
// is rolled again at the new level. It says whether it did.
func (r *resolver) braceFor(c *Chariot, k Kind, st Step, n int, before tables.Level) bool {
	if r.step == 0 || st.Contingency == nil || *st.Contingency != Brake || r.usedCont[c.Seat] || r.stunned[c.Seat] {
		return false
	}
	o, left := r.foresee(c, k, n)
	if o == nil || left <= freeDiscard[c.Level] {
		return false
	}
	r.usedCont[c.Seat] = true
	c.Level = before
	if c.Level > tables.Stop {
		c.Level--
	}
	r.say(c, "contingency", r.d.Mark(), "%s would run into %s with %s to go: the contingency Brake is taken before the move, down to %s", c.Name, o.Name, words.Count(left, "space"), c.Level)
	return true
}

// foresee walks the spaces move would take for n spaces of order k, with no
// dice (a slip can still change the path): the chariot that would stop this
// one and the spaces it would have left to go, or nil.
func (r *resolver) foresee(c *Chariot, k Kind, n int) (*Chariot, int) {
	t := r.s.track
	p, lap, shift := c.Pos, c.Lap, k.Shift()
	for moved := 0; moved < n; moved++ {
		var crossed bool
		sideways := false
		if shift != 0 {
			if s := r.sideStep(p, sign(shift)); !s.wall && s.beside == nil {
				p, crossed, sideways = s.next, s.crossed, true
				shift -= sign(shift)
			} else {
				shift = 0 // as in move: this space and the rest go straight on
			}
		}
		if !sideways {
			next, over := t.Next(p)
			if o := r.s.at(next); o != nil {
				return o, n - moved
			}
			p, crossed = next, over
		}
		if crossed {
			if lap++; lap >= r.s.Laps {
				return nil, 0 // it finishes first
			}
		}
	}
	return nil, 0
}

// step is one space of a displacement: diagonally forward into the next lane
// or, when the space ahead there is taken (ahead), straight across into the
// space beside. wall: there is no lane that side; beside: that space is taken
// too, and the chariot cannot move over.
type step struct {
	next          Pos
	crossed, wall bool
	ahead, beside *Chariot
}

func (r *resolver) sideStep(p Pos, dir int) step {
	t := r.s.track
	side, ok := t.Beside(p, dir)
	if !ok {
		return step{wall: true}
	}
	s := step{}
	s.next, s.crossed = t.Next(side)
	if s.ahead = r.s.at(s.next); s.ahead != nil {
		// The text's 'one racing line to the left of the current position':
		// level across, unless a chariot stands there too.
		s.beside = r.s.at(side)
		s.next, s.crossed = side, false
	}
	return s
}

// adjacent finds a chariot level with c in the lane on side.
func (r *resolver) adjacent(c *Chariot, side int) *Chariot {
	for i := range r.s.Chariots {
		o := &r.s.Chariots[i]
		if o != c && o.OnTrack() && o.Pos.Lane == c.Pos.Lane+side && r.s.track.Overlaps(c.Pos, o.Pos) {
			return o
		}
	}
	return nil
}

// overtaken finds a chariot that c started behind (within 2 spaces) and has
// now passed on side, landing within 2 spaces ahead of it or level with it.
func (r *resolver) overtaken(c *Chariot, side int) *Chariot {
	for i := range r.s.Chariots {
		o := &r.s.Chariots[i]
		if o == c || !o.OnTrack() || o.Pos.Lane != c.Pos.Lane+side {
			continue
		}
		// o is on c's side; c is on o's other side, as o sees it.
		if r.passed(c, o, -side) {
			return o
		}
	}
	return nil
}

// passed says whether mover, who started this step behind y within 2 spaces,
// now stands 0 to 2 spaces ahead of y in the lane on y's side (side as y sees it).
func (r *resolver) passed(mover, y *Chariot, side int) bool {
	if mover.Pos.Lane != y.Pos.Lane+side {
		return false
	}
	before, ok := r.start[mover.Seat]
	if !ok {
		return false
	}
	yStart, ok := r.start[y.Seat]
	if !ok {
		yStart = *y
	}
	behind := r.s.gap(&yStart, &before)
	now := r.s.gap(mover, y)
	return behind >= 1 && behind <= 2 && now >= 0 && now <= 2
}

// move runs the chariot cell by cell: displacement first (each lane costs one
// space, taken diagonally), then straight on in its lane.
func (r *resolver) move(c *Chariot, k Kind, st Step, roll, n int) int {
	t := r.s.track
	shift := k.Shift()
	startLane := c.Pos.Lane // the slip-lane option's 'start'
	wheels := 0             // what Control takes off a slip's damage roll against the chariot
	if k == Control && r.s.Rules.controlGuardsWheels() {
		wheels = tables.ControlModifier(c.Level)
	}
	moved := 0
	inCorner := map[int]int{}
	checked := map[int]bool{}
	slipAt := -1 // the corner space where a slip will happen, in the current lane
	slipSeg := -1
	for moved < n {
		var next Pos
		var crossed bool
		if shift != 0 {
			s := r.sideStep(c.Pos, sign(shift))
			m := r.d.Mark()
			switch {
			case s.wall:
				r.say(c, "move", m, "%s is already in lane %d, against the wall: the rest of %s does nothing", c.Name, c.Pos.Lane, k)
				shift = 0
				continue
			case s.beside != nil:
				r.say(c, "move", m, "%s cannot move over: %s and %s are in the way; it keeps to lane %d", c.Name, s.ahead.Name, s.beside.Name, c.Pos.Lane)
				shift = 0
				continue
			case s.ahead != nil:
				r.say(c, "move", m, "%s finds %s ahead in lane %d and moves straight across", c.Name, s.ahead.Name, s.next.Lane)
			}
			next, crossed = s.next, s.crossed
			shift -= sign(shift)
		} else {
			next, crossed = t.Next(c.Pos)
			if o := r.s.at(next); o != nil {
				if r.blocked(c, st, o, n-moved, &shift) {
					continue
				}
				break
			}
		}
		c.Pos = next
		c.Trail = append(c.Trail, next)
		moved++
		if crossed {
			c.Lap++
			if c.Lap >= r.s.Laps {
				r.finish(c)
				return moved
			}
		}
		seg := t.Segments[c.Pos.Seg]
		if !seg.Corner {
			continue
		}
		inCorner[c.Pos.Seg]++
		if inCorner[c.Pos.Seg] == 2 && !checked[c.Pos.Seg] {
			checked[c.Pos.Seg] = true
			switch r.corner(c, k, roll) {
			case tables.Naufragia:
				r.naufragia(c, fmt.Sprintf("%s overturns in the %s", c.Name, seg.Name))
				return moved
			case tables.Slip:
				slipAt, slipSeg = r.slipStart(c, startLane), c.Pos.Seg
			}
		}
		if slipSeg == c.Pos.Seg && c.Pos.Cell >= slipAt {
			slipSeg = -1
			if r.slip(c, moved < n, wheels) {
				moved++
			}
			if !c.Active() || c.Flipped {
				return moved
			}
		}
	}
	if slipSeg >= 0 && c.Pos.Seg == slipSeg { // the slip's space lay beyond this move's end
		r.slip(c, false, wheels)
	}
	return moved
}

// blocked handles a chariot stopped by another in its lane, with left spaces
// still to go. It returns true when a contingency lets the chariot move on.
func (r *resolver) blocked(c *Chariot, st Step, o *Chariot, left int, shift *int) bool {
	m := r.d.Mark()
	free := freeDiscard[c.Level]
	// The second activation rule: only when the horses are due to take damage,
	// and never for a stunned auriga, who gives no orders. A Brake met here is
	// one braceFor could not foresee: a slip took the chariot into this lane.
	if left > free && r.step > 0 && st.Contingency != nil && !r.usedCont[c.Seat] && !r.stunned[c.Seat] {
		cont := *st.Contingency
		switch cont {
		case Left1, Right1:
			side, ok := r.s.track.Beside(c.Pos, cont.Shift())
			if ok {
				if next, _ := r.s.track.Next(side); r.s.at(next) == nil {
					r.usedCont[c.Seat] = true
					r.say(c, "contingency", m, "%s is blocked by %s: the contingency %s takes the chariot round", c.Name, o.Name, cont)
					*shift = cont.Shift()
					return true
				}
			}
		case Brake:
			r.usedCont[c.Seat] = true
			if c.Level > tables.Stop {
				c.Level--
			}
			r.say(c, "contingency", m, "%s is blocked by %s: the contingency Brake takes it down to %s, %s let go", c.Name, o.Name, c.Level, words.Count(left, "space"))
			return false
		}
	}
	if left <= free {
		r.say(c, "obstacle", m, "%s is blocked by %s and lets %s go", c.Name, o.Name, words.Count(left, "space"))
		return false
	}
	r.say(c, "obstacle", m, "%s is blocked by %s with %s to go, more than the %d a chariot at %s can let go: the horses suffer", c.Name, o.Name, words.Count(left, "space"), free, c.Level)
	r.hurtHorses(c, "running into "+o.Name)
	return false
}

// corner reads the cornering table for the lane the chariot is in.
func (r *resolver) corner(c *Chariot, k Kind, roll int) tables.Corner {
	mod := 0
	if k == Control {
		mod = tables.ControlModifier(c.Level)
	}
	lv := c.Level
	out := tables.CornerOutcome(c.Pos.Lane, lv, c.Skill, roll-mod)
	m := r.d.Mark()
	modText := ""
	if mod > 0 {
		modText = fmt.Sprintf(" (Control: %d-%d)", roll, mod)
	}
	seg := r.s.track.Segments[c.Pos.Seg].Name
	switch out {
	case tables.NoChange:
		r.say(c, "corner", m, "%s takes the %s in lane %d at %s, roll %d%s, Skill %d: no change", c.Name, seg, c.Pos.Lane, lv, roll, modText, c.Skill)
	case tables.Slip:
		r.say(c, "corner", m, "%s takes the %s in lane %d at %s, roll %d%s, Skill %d: the chariot slips", c.Name, seg, c.Pos.Lane, lv, roll, modText, c.Skill)
	case tables.Naufragia:
		r.say(c, "corner", m, "%s takes the %s in lane %d at %s, roll %d%s, Skill %d: naufragia!", c.Name, seg, c.Pos.Lane, lv, roll, modText, c.Skill)
	}
	return out
}

// slipStart rolls which space of the corner the slip begins on: a space of
// the chariot's lane (0-based). The die is chosen by the spaces of the lane
// the chariot is in now or, with the slip-lane option 'start', of the lane
// it began its order in (startLane); a space rolled in that lane is taken
// level into the chariot's lane.
func (r *resolver) slipStart(c *Chariot, startLane int) int {
	t := r.s.track
	lane := c.Pos.Lane
	if r.s.Rules.slipLaneAtStart() {
		lane = startLane
	}
	n := t.Spaces(c.Pos.Seg, lane)
	die, read, err := tables.SlipStart(n)
	if err != nil { // tracks are validated to 3-7 corner spaces; keep going safely
		return c.Pos.Cell
	}
	m := r.d.Mark()
	for tries := 0; ; tries++ {
		v := r.roll(c, "slip start", die)
		space, again := read(v)
		if again && tries <= 100 {
			continue
		}
		if lane == c.Pos.Lane {
			r.say(c, "slip", m, "%s: the slip begins on space %d of the %d in lane %d", c.Name, space, n, lane)
			return space - 1
		}
		p := Pos{Lane: lane, Seg: c.Pos.Seg, Cell: space - 1}
		for p.Lane != c.Pos.Lane {
			p, _ = t.Beside(p, sign(c.Pos.Lane-p.Lane))
		}
		r.say(c, "slip", m, "%s: the slip begins on space %d of the %d in lane %d, where the order began; level with it, space %d of the %d in lane %d",
			c.Name, space, n, lane, p.Cell+1, t.Spaces(c.Pos.Seg, c.Pos.Lane), c.Pos.Lane)
		return p.Cell
	}
}

// slip moves the chariot one lane outwards, and the slip counts as one of the
// move's spaces: with a space left (forward) it goes diagonally outwards and
// forwards, and it says it took that space; on the move's last space, whose
// forward step is already made, it goes straight out to the space beside.
// wheels is what the chariot's Control takes off its own slip damage roll.
func (r *resolver) slip(c *Chariot, forward bool, wheels int) bool {
	t := r.s.track
	m := r.d.Mark()
	side, ok := t.Beside(c.Pos, 1)
	if !ok {
		r.say(c, "slip", m, "%s slips into the outer wall", c.Name)
		r.slipHurt(c)
		return false
	}
	next, crossed := side, false
	if forward {
		next, crossed = t.Next(side)
	}
	if o := r.s.at(next); o != nil {
		r.say(c, "slip", m, "%s slips into %s and is thrown back into lane %d", c.Name, o.Name, c.Pos.Lane)
		r.slipHurt(c)
		if c.Active() {
			r.slipCheck(o, "struck by "+c.Name, 0)
		}
		return false
	}
	c.Pos = next
	c.Trail = append(c.Trail, next)
	r.say(c, "slip", m, "%s slips out to lane %d", c.Name, c.Pos.Lane)
	if crossed { // as any space of the move that crosses the line
		if c.Lap++; c.Lap >= r.s.Laps {
			r.finish(c)
			return true
		}
	}
	r.slipCheck(c, "the slip", wheels)
	return forward
}

// slipHurt damages a chariot whose slip met a wall or a chariot: no roll for
// whether, only for where (horses or chariot, then the side).
func (r *resolver) slipHurt(c *Chariot) {
	m := r.d.Mark()
	if v := r.roll(c, "horses (1-10) or chariot (11-20)", dice.D20); v <= 10 {
		r.say(c, "damage", m, "%s: the horses take it", c.Name)
		r.hurtHorses(c, "the slip")
		return
	}
	s := r.roll(c, "left side (1-10) or right side (11-20)", dice.D20)
	side := -1
	if s > 10 {
		side = 1
	}
	r.say(c, "damage", m, "%s: the chariot's %s side takes it", c.Name, sideName(side))
	r.hurtChariot(c, side, "the slip")
}

// slipCheck is the slip damage table: horses or chariot, the side, then a d20
// by Size or Endurance. wheels comes off that d20 when the chariot is hit:
// the text has Control help keep damaged wheels together (the
// control-wheels option).
func (r *resolver) slipCheck(c *Chariot, why string, wheels int) {
	m := r.d.Mark()
	horses := r.roll(c, "horses (1-10) or chariot (11-20)", dice.D20) <= 10
	side := 0
	val, what := c.Team.Size, "chariot"
	if horses {
		val, what = c.Endurance, "horses"
	} else {
		side = -1
		if r.roll(c, "left side (1-10) or right side (11-20)", dice.D20) > 10 {
			side = 1
		}
		what = "chariot's " + sideName(side) + " side"
	}
	v := r.roll(c, "slip damage", dice.D20)
	eff, note := v, ""
	if !horses && wheels > 0 {
		eff = max(1, v-wheels)
		note = fmt.Sprintf(" (Control: %d-%d)", v, wheels)
	}
	if !tables.SlipDamage(val, eff) {
		r.say(c, "damage", m, "%s: %s, d20 %d%s against the %s: no harm", c.Name, why, v, note, what)
		return
	}
	r.say(c, "damage", m, "%s: %s, d20 %d%s against the %s: damage", c.Name, why, v, note, what)
	if horses {
		r.hurtHorses(c, why)
	} else {
		r.hurtChariot(c, side, why)
	}
}

// wall rolls for contact with the wall when a move ends in the inside or outside lane.
func (r *resolver) wall(c *Chariot) {
	m := r.d.Mark()
	v := r.roll(c, "wall contact", dice.D20)
	side, wall := -1, "spina"
	if c.Pos.Lane != 1 {
		side, wall = 1, "outer wall"
	}
	if !tables.WallDamage(c.Skill, v) {
		r.say(c, "wall", m, "%s runs along the %s, d20 %d: no contact", c.Name, wall, v)
		return
	}
	if r.roll(c, "horses (1-10) or chariot (11-20)", dice.D20) <= 10 {
		r.say(c, "wall", m, "%s scrapes the %s, d20 %d: the horses are hurt", c.Name, wall, v)
		r.hurtHorses(c, "the "+wall)
		return
	}
	r.say(c, "wall", m, "%s scrapes the %s, d20 %d: the %s side of the chariot is damaged", c.Name, wall, v, sideName(side))
	r.hurtChariot(c, side, "the "+wall)
}

// attack resolves a Crash or a Lacerate by a on d.
func (r *resolver) attack(a, d *Chariot, k Kind, mode tables.CrashMode, how string) {
	m := r.d.Mark()
	if !k.IsCrash() {
		v := r.roll(a, "laceration", dice.D20)
		eff, note := v, ""
		if r.watching[d.Seat] {
			eff = max(1, v-tables.WatchModifier)
			note = fmt.Sprintf(" (%s watches: %d-%d)", d.Name, v, tables.WatchModifier)
		}
		skill := a.Skill
		if r.s.Rules.skillDifference() {
			skill = max(0, a.Skill-d.Skill)
			note += fmt.Sprintf(" (Skill %d against %d: row %d)", a.Skill, d.Skill, skill)
		}
		n := tables.LacerateStun(skill, d.Team.Constitution, eff)
		if n == 0 {
			r.say(a, "lacerate", m, "%s lashes at %s %s, d20 %d%s: no harm done", a.Name, d.Name, how, v, note)
			return
		}
		d.Stunned = max(d.Stunned, n)
		if d.Level == tables.Max {
			d.DropToFast = true
		}
		r.say(a, "lacerate", m, "%s lashes at %s %s, d20 %d%s: %s is stunned for %s", a.Name, d.Name, how, v, note, d.Name, words.Count(n, "order"))
		return
	}
	target := tables.Horses
	if r.s.track.Overlaps(a.Pos, d.Pos) {
		if r.roll(a, "strike horses (1-10) or chariot (11-20)", dice.D20) > 10 {
			target = tables.Chariot
		}
	}
	what := "horses"
	if target == tables.Chariot {
		what = "chariot"
	}
	v := r.roll(a, "crash", dice.D20)
	hit, note := v, ""
	if r.watching[d.Seat] && r.s.Rules.watchGuardsCrash() {
		hit = max(1, v-tables.WatchModifier)
		note = fmt.Sprintf(" (%s watches: %d-%d)", d.Name, v, tables.WatchModifier)
	}
	if !tables.CrashHits(mode, a.Skill, d.Team.Size, target, hit) {
		r.say(a, "crash", m, "%s swerves at the %s of %s %s, d20 %d%s: no contact", a.Name, what, d.Name, how, v, note)
		return
	}
	dv := r.roll(a, "crash damage", dice.D20)
	combo := a.Skill + a.Team.Size
	col := d.Team.Size
	if target == tables.Horses {
		col = min(d.Endurance, 2)
	}
	self, eff := tables.CrashDamageRoll(combo, col, dv)
	side := k.Side()
	r.say(a, "crash", m, "%s crashes into the %s of %s %s, d20 %d%s; damage d20 %d", a.Name, what, d.Name, how, v, note, dv)
	switch {
	case target == tables.Horses && eff != tables.NoEffect:
		r.hurtHorses(d, "the crash")
	case eff == tables.EnduringMove:
		d.Lame++
		m2 := r.d.Mark()
		r.say(d, "damage", m2, "%s's light chariot is bent: -1 space for the rest of the race", d.Name)
	case eff == tables.QualityLoss:
		r.hurtChariot(d, -side, "the crash")
	default:
		m2 := r.d.Mark()
		r.say(d, "damage", m2, "%s's chariot shrugs the blow off", d.Name)
	}
	if self && a.Active() && !a.Flipped {
		r.hurtChariot(a, side, "the recoil of the crash")
	}
}

// hurtChariot costs one point on a side; the third on one side is naufragia.
func (r *resolver) hurtChariot(c *Chariot, side int, why string) {
	m := r.d.Mark()
	p := &c.DamageR
	if side < 0 {
		p = &c.DamageL
	}
	*p++
	r.say(c, "damage", m, "%s loses a point on the %s side (%s): %d of 3", c.Name, sideName(side), why, *p)
	if *p >= 3 {
		r.naufragia(c, fmt.Sprintf("the %s side of %s's chariot breaks up", sideName(side), c.Name))
	}
}

// hurtHorses costs an Endurance point or, with none left, a lasting injury;
// the fourth loss stops the horses.
func (r *resolver) hurtHorses(c *Chariot, why string) {
	m := r.d.Mark()
	if c.Endurance > 0 {
		c.Endurance--
		r.say(c, "damage", m, "%s's horses lose an Endurance point (%s): Endurance %d", c.Name, why, c.Endurance)
	} else {
		c.HorseInjuries++
		r.say(c, "damage", m, "%s's horses are injured (%s): -%s for the rest of the race", c.Name, why, words.Count(c.HorseInjuries, "space"))
	}
	if c.EnduranceLost() >= 4 && c.Active() {
		c.Out = HorsesStopped
		c.Level = tables.Stop
		r.say(c, "out", r.d.Mark(), "%s's horses have lost a fourth point and stop: the chariot is out", c.Name)
	}
}

// naufragia flips the chariot; the auriga's fall is rolled by Constitution.
func (r *resolver) naufragia(c *Chariot, why string) {
	if c.Flipped || !c.Active() {
		return
	}
	c.Flipped = true
	r.overturned[c.Seat] = false
	c.Stunned, c.DropToFast = 0, false
	m := r.d.Mark()
	v := r.roll(c, "fall", dice.D20)
	if tables.FallDamage(c.Team.Constitution, v) {
		c.Injured++
		c.Skill = max(0, c.Skill-1)
		r.say(c, "naufragia", m, "NAUFRAGIA! %s; %s falls hard, d20 %d: hurt, Skill %d", why, c.Name, v, c.Skill)
		return
	}
	r.say(c, "naufragia", m, "NAUFRAGIA! %s; %s falls, d20 %d: unhurt", why, c.Name, v)
}

// flipped plays a flipped chariot's order: hang on and be dragged, or roll away.
func (r *resolver) flipped(c *Chariot, k Kind) {
	m := r.d.Mark()
	if k == RollAway {
		c.Out = RolledAway
		r.say(c, "out", m, "%s lets go of the reins and rolls away to safety; the wreck stays on the track", c.Name)
		return
	}
	v := r.roll(c, "hang on", dice.D20)
	if tables.FallDamage(c.Team.Constitution, v) {
		c.Out = Thrown
		r.say(c, "out", m, "%s hangs on, d20 %d: thrown clear of the wreck, out of the race", c.Name, v)
		return
	}
	r.say(c, "hang on", m, "%s hangs on, d20 %d: dragged on at %s", c.Name, v, c.Level)
	_, n := r.spaces(c, HangOn, 0)
	t := r.s.track
	for i := 0; i < n; i++ {
		next, crossed := t.Next(c.Pos)
		if o := r.s.at(next); o != nil {
			r.say(c, "obstacle", r.d.Mark(), "the wreck of %s stops behind %s", c.Name, o.Name)
			return
		}
		c.Pos = next
		c.Trail = append(c.Trail, next)
		if crossed {
			c.Lap++
			if c.Lap >= r.s.Laps {
				r.wreckOver(c)
				return
			}
		}
	}
}

// wreckOver takes a dragged wreck over the line for the last time: with the
// wreck-finish option 'place' it finishes like any chariot; by default a
// destroyed chariot takes no place, and leaves the track and the race.
func (r *resolver) wreckOver(c *Chariot) {
	if r.s.Rules.wreckTakesPlace() {
		r.finish(c)
		return
	}
	c.Out = DraggedOver
	r.say(c, "out", r.d.Mark(), "the wreck of %s is dragged over the line: a wreck takes no place, and %s is out of the race", c.Name, c.Name)
}

// finish takes a chariot over the line for the last time.
func (r *resolver) finish(c *Chariot) {
	c.Out = Finished
	c.FinishTurn = r.s.T
	r.s.Finish = append(r.s.Finish, c.Seat)
	m := r.d.Mark()
	r.say(c, "finish", m, "%s crosses the line to finish in place %d!", c.Name, len(r.s.Finish))
}

func sideName(side int) string {
	if side < 0 {
		return "left"
	}
	return "right"
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
