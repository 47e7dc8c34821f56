package ludi

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"pitwall/dice"
	"pitwall/internal/words"
	"pitwall/race"
	"pitwall/rules/ludi/tables"
)

// freeDiscard is how many spaces a chariot stopped by an obstacle may lose
// before its horses take damage, by level: all of them at LOW, two at FAST,
// four at MAX.
var freeDiscard = [tables.Max + 1]int{tables.Stop: 99, tables.Low: 99, tables.Fast: 2, tables.Max: 4}

// contingencyReach is 'within 50% of the highest roll' as the text counts
// it, by level: 2 or less at LOW, 5 or less at FAST, 7 or less at MAX.
var contingencyReach = [tables.Max + 1]int{tables.Stop: 0, tables.Low: 2, tables.Fast: 5, tables.Max: 7}

// A resolver plays one turn. What it keeps by seat it keeps in slices
// indexed by seat (a chariot's seat is its index, as check holds a stored
// state to), and its slices are reused from turn to turn through a pool:
// the simulator resolves hundreds of thousands of turns.
type resolver struct {
	s *State
	d *dice.Roller
	// tell says whether the story is written: not for a quiet roller
	// (the simulator's), whose caller reads no events.
	tell       bool
	ev         []race.Event
	orders     []Orders // by seat; a seat with no orders cruises
	has        []bool   // by seat: orders were given
	initiative []int
	bonusMove  []bool
	usedCont   []bool // seats whose contingency for this order has been used
	watching   []bool
	stunned    []bool // seats whose order this step is lost to a stun
	armed      []Kind // attacks waiting for an overtaker this step, by seat; Cruise for none
	nArmed     int
	start      []Pos  // where each chariot of the queue stood as the step began
	started    []bool // by seat: in the step's queue
	step       int
	// overturned says, by seat, whether the chariot flipped this turn
	// (notFlipped, flippedUntold) and whether the story has said the wreck
	// lies still (flippedTold): the flipped orders begin next turn.
	overturned []int8
	queue      []*Chariot
	trails     [][]Pos // by seat: the spaces crossed this turn
	packed     []Pos   // the trails end to end
	// occupied holds, for each space (occIndex), the chariots standing
	// on it as bits by index, when there are at most 64: at then looks
	// one space up in place of asking every chariot.
	occupied []uint64
	occIndex [][]int // [lane][seg]: the index of the segment's first space
	useOcc   bool
	inCorner []int  // by segment, for one move
	checked  []bool // by segment, for one move
}

const (
	notFlipped int8 = iota
	flippedUntold
	flippedTold
)

var resolvers = sync.Pool{New: func() any { return new(resolver) }}

// fresh is x with n zero elements, reusing its array when it is big enough.
func fresh[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	x = x[:n]
	clear(x)
	return x
}

// newResolver takes a resolver from the pool for a turn of s on d, its
// orders all unset.
func newResolver(s *State, d *dice.Roller) *resolver {
	r := resolvers.Get().(*resolver)
	n := len(s.Chariots)
	r.s, r.d, r.tell, r.ev = s, d, d.Telling(), nil
	r.orders, r.has = fresh(r.orders, n), fresh(r.has, n)
	r.initiative, r.bonusMove, r.overturned = fresh(r.initiative, n), fresh(r.bonusMove, n), fresh(r.overturned, n)
	r.usedCont, r.watching, r.stunned = fresh(r.usedCont, n), fresh(r.watching, n), fresh(r.stunned, n)
	r.armed, r.nArmed = fresh(r.armed, n), 0
	r.start, r.started = fresh(r.start, n), fresh(r.started, n)
	if cap(r.trails) < n {
		r.trails = make([][]Pos, n)
	}
	r.trails = r.trails[:n]
	for i := range r.trails {
		r.trails[i] = r.trails[i][:0]
	}
	r.inCorner, r.checked = fresh(r.inCorner, len(s.track.Segments)), fresh(r.checked, len(s.track.Segments))
	return r
}

// release gives r back to the pool, holding on to nothing of the turn.
func (r *resolver) release() {
	clear(r.orders)
	clear(r.queue)
	r.s, r.d, r.ev = nil, nil, nil
	resolvers.Put(r)
}

// resolve plays one turn with orders by seat (a seat missing from orders
// cruises) and returns the new state and what happened.
func resolve(old *State, orders map[int]Orders, d *dice.Roller) (*State, []race.Event) {
	r := newResolver(old, d)
	defer r.release()
	for seat, o := range orders {
		if seat >= 0 && seat < len(r.orders) {
			r.orders[seat], r.has[seat] = o, true
		}
	}
	return r.play(old)
}

// play plays the turn from old with the orders set in r.
func (r *resolver) play(old *State) (*State, []race.Event) {
	s := old.cloneForResolve()
	r.s = s
	r.fillOccupied()
	for i := range s.Chariots {
		c := &s.Chariots[i]
		c.Trail = nil
		c.Orders = ""
		if !c.Active() {
			continue
		}
		o := r.orders[c.Seat]
		c.Orders = o.String()
		r.trails[c.Seat] = append(r.trails[c.Seat], c.Pos)
		switch o.Bonus {
		case "initiative":
			r.initiative[c.Seat] = 1
		case "move":
			r.bonusMove[c.Seat] = true
		}
	}
	for r.step = 0; r.step < s.Orders; r.step++ {
		clear(r.watching)
		clear(r.stunned)
		clear(r.armed)
		r.nArmed = 0
		clear(r.usedCont) // each order after the first has a contingency of its own
		clear(r.started)
		r.queue = s.orderInto(r.queue[:0], r.initiative)
		for _, c := range r.queue {
			if k := r.kindFor(c); k == Watch && c.Stunned == 0 {
				r.watching[c.Seat] = true
			}
			r.start[c.Seat], r.started[c.Seat] = c.Pos, true
		}
		for _, c := range r.queue {
			if c.Active() {
				r.act(c)
			}
		}
		for _, c := range r.queue {
			if k := r.armed[c.Seat]; k != Cruise && c.Active() && !c.Flipped {
				if r.tell {
					r.say(c, k.String(), r.d.Mark(), "%s's %s finds no chariot within reach", c.Name, k)
				}
			}
		}
	}
	s.T++
	s.Orders = 1 // a host sets more orders turn by turn
	r.keepTrails()
	return s, r.ev
}

// goTo moves c to p, on its trail.
func (r *resolver) goTo(c *Chariot, p Pos) {
	if r.useOcc && c.OnTrack() {
		i := uint(c.Seat)
		r.occupied[r.occAt(c.Pos)] &^= 1 << i
		r.occupied[r.occAt(p)] |= 1 << i
	}
	c.Pos = p
	r.trails[c.Seat] = append(r.trails[c.Seat], p)
}

// leaveTrack takes c, just out of the race and off the track (finished,
// or a wreck dragged over the line), off its space.
func (r *resolver) leaveTrack(c *Chariot) {
	if r.useOcc {
		r.occupied[r.occAt(c.Pos)] &^= 1 << uint(c.Seat)
	}
}

// occAt is p's place in occupied.
func (r *resolver) occAt(p Pos) int { return r.occIndex[p.Lane][p.Seg] + p.Cell }

// at is the chariot or wreck on space p, if any: State.at, looked up.
func (r *resolver) at(p Pos) *Chariot {
	if !r.useOcc {
		return r.s.at(p)
	}
	if p.Lane < 1 || p.Lane >= len(r.occIndex) || p.Seg < 0 || p.Seg >= len(r.occIndex[p.Lane]) {
		return nil // no space of the track: no chariot stands there
	}
	var c *Chariot
	if m := r.occupied[r.occAt(p)]; m != 0 {
		c = &r.s.Chariots[bits.TrailingZeros64(m)] // the first in seat order, as State.at finds it
	}
	if checkAt && c != r.s.at(p) {
		panic(fmt.Sprintf("the spaces taken say %v stands on %v; State.at says %v", c, p, r.s.at(p)))
	}
	return c
}

// checkAt has every look-up of a space asked of State.at as well (tests).
var checkAt = false

// fillOccupied marks where each chariot on the track stands.
func (r *resolver) fillOccupied() {
	t := r.s.track
	r.useOcc = len(r.s.Chariots) <= 64
	if !r.useOcc {
		return
	}
	if cap(r.occIndex) < t.Lanes+1 {
		r.occIndex = make([][]int, t.Lanes+1)
	}
	r.occIndex = r.occIndex[:t.Lanes+1]
	n := 0
	for l := 1; l <= t.Lanes; l++ {
		r.occIndex[l] = fresh(r.occIndex[l], len(t.Segments))
		for seg := range t.Segments {
			r.occIndex[l][seg] = n
			n += t.Spaces(seg, l)
		}
	}
	r.occupied = fresh(r.occupied, n)
	for i := range r.s.Chariots {
		if c := &r.s.Chariots[i]; c.OnTrack() && t.has(c.Pos) && c.Seat == i {
			r.occupied[r.occAt(c.Pos)] |= 1 << uint(i)
		} else if c.OnTrack() {
			r.useOcc = false // a state built by hand: ask every chariot
			return
		}
	}
}

// keepTrails gives each chariot that raced this turn its trail, all cut
// from one array of the turn's length (each clipped, so an append copies).
func (r *resolver) keepTrails() {
	r.packed = r.packed[:0]
	for i := range r.s.Chariots {
		r.packed = append(r.packed, r.trails[r.s.Chariots[i].Seat]...)
	}
	all := slices.Clone(r.packed) // one array, not cleared before it is filled
	for i := range r.s.Chariots {
		c := &r.s.Chariots[i]
		if t := r.trails[c.Seat]; len(t) > 0 {
			c.Trail = all[:len(t):len(t)]
			all = all[len(t):]
		}
	}
}

func (r *resolver) kindFor(c *Chariot) Kind {
	o := r.orders[c.Seat]
	if r.step < len(o.Steps) {
		return o.Steps[r.step].Kind
	}
	return Cruise
}

// say tells an event, and nothing in a quiet turn; a caller whose words
// cost something to build asks r.tell first.
func (r *resolver) say(c *Chariot, kind string, mark int, format string, a ...any) {
	if !r.tell {
		return // a quiet turn tells nothing (callers skip costly arguments themselves)
	}
	seat := -1
	if c != nil {
		seat = c.Seat
	}
	r.ev = append(r.ev, race.Event{Seat: seat, Kind: kind, Text: fmt.Sprintf(format, a...), Rolls: r.d.Since(mark)})
}

// cat is the parts joined, for the story, and nothing in a quiet turn.
func (r *resolver) cat(parts ...string) string {
	if !r.tell {
		return ""
	}
	return strings.Join(parts, "")
}

// sprintf is fmt.Sprintf for the story, and nothing in a quiet turn: for
// numbers only (a string boxed for it would cost what it saves).
func (r *resolver) sprintf(format string, a ...int) string {
	if !r.tell {
		return ""
	}
	args := make([]any, len(a))
	for i, x := range a {
		args[i] = x
	}
	return fmt.Sprintf(format, args...)
}

func (r *resolver) roll(c *Chariot, why string, d dice.Die) int {
	if !r.tell {
		return r.d.Roll(c.Seat, "", d)
	}
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
		if o := r.overturned[c.Seat]; o != notFlipped {
			if o == flippedUntold {
				r.overturned[c.Seat] = flippedTold
				if r.tell {
					r.say(c, "wreck", r.d.Mark(), "the wreck of %s lies where it overturned until next turn, when %s may hang on or roll away", c.Name, c.Name)
				}
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
		if r.tell {
			r.say(c, "stun", m, "%s is stunned and cannot order: the chariot cruises at %s", c.Name, c.Level)
		}
	}
	// The first activation rule: before a second or third order, a chariot close
	// ahead (or in a lane the order moves into) calls up the contingency.
	if r.step > 0 && st.Contingency != nil && !r.usedCont[c.Seat] && k != Cruise {
		if who := r.crowded(c, k); who != nil {
			r.usedCont[c.Seat] = true
			m := r.d.Mark()
			if r.tell {
				r.say(c, "contingency", m, "%s sees %s close ahead: the contingency %s replaces %s", c.Name, who.Name, *st.Contingency, k)
			}
			k = *st.Contingency
		}
	}
	// A Watch guards only while it is the order carried out: a stun or a
	// contingency in its place leaves the chariot open to a laceration.
	r.watching[c.Seat] = k == Watch
	before := c.Level // a Brake contingency at an obstacle starts from here
	m := r.d.Mark()
	whipSpaces := 0
	switch k {
	case Accelerate:
		if c.Level < tables.Max {
			c.Level++
		}
		if r.tell {
			r.say(c, "speed", m, "%s shakes the reins: %s", c.Name, c.Level)
		}
	case Whip:
		if c.Level < tables.Max {
			c.Level++
		}
		whipSpaces = r.whip(c)
	case Brake:
		if c.Level > tables.Stop {
			c.Level--
		}
		if r.tell {
			r.say(c, "speed", m, "%s pulls the reins: %s", c.Name, c.Level)
		}
	case Hold:
		if r.tell {
			r.say(c, "speed", m, "%s holds the horses at the start", c.Name)
		}
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
	if !ok {
		plus = 0
	}
	if r.tell {
		text := fmt.Sprintf("%s whips the horses (%s)", c.Name, c.Level)
		if ok {
			text += fmt.Sprintf(": success, +%d spaces", plus)
		} else {
			text += ": no extra pace"
		}
		if hurt {
			text += "; the horses suffer"
		}
		r.say(c, "whip", m, "%s", text)
	}
	if hurt {
		r.hurtHorses(c, "the whip")
	}
	return plus
}

// crowded finds a chariot that calls up the contingency before order k.
func (r *resolver) crowded(c *Chariot, k Kind) *Chariot {
	reach := contingencyReach[c.Level]
	// The lanes the order passes: its own and those the displacement moves into.
	lo, hi := c.Pos.Lane, c.Pos.Lane+k.Shift()
	if hi < lo {
		lo, hi = hi, lo
	}
	for i := range r.s.Chariots {
		o := &r.s.Chariots[i]
		if o.Pos.Lane < lo || o.Pos.Lane > hi || o == c || !o.OnTrack() {
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
	die := tables.SpeedTable[c.Level] // read, never changed: SpeedDie would copy it
	m := r.d.Mark()
	roll = r.roll(c, speedWhy[c.Level], die)
	counted := roll // the corner table reads the die as rolled
	top := topFace(c, c.Level, r.s.Rules)
	if roll > top {
		counted = top
	}
	n = counted + whip
	stunned := r.stunned[c.Seat]
	bonus := speedBonus(c)
	if bonus > 0 && !stunned && !c.Flipped {
		n += bonus
	}
	p := penalty(c, r.s.Rules)
	if p > 0 {
		n -= p
	}
	if n < 0 {
		n = 0
	}
	// The bonus space belongs to the next movement: a stunned one is not
	// eligible for bonuses, and the space is lost with it.
	bonusMove := r.bonusMove[c.Seat]
	if bonusMove {
		r.bonusMove[c.Seat] = false
		if !stunned {
			n++
		}
	}
	if !r.tell {
		return roll, n
	}
	text := fmt.Sprintf("%s at %s rolls %d on the %s die", c.Name, c.Level, roll, die.Name)
	if roll > top {
		text += fmt.Sprintf(", %d at most with %s lost", top, words.Count(c.enduranceSpent(), "Endurance point"))
	}
	if bonus > 0 && !stunned && !c.Flipped {
		text += fmt.Sprintf(", +%d for Speed", bonus)
	}
	if whip > 0 {
		text += fmt.Sprintf(", +%d whip", whip)
	}
	if p > 0 {
		text += fmt.Sprintf(", -%d for damage", p)
	}
	if bonusMove {
		if stunned {
			text += ", the bonus space lost to the stun"
		} else {
			text += ", +1 bonus space"
		}
	}
	r.say(c, "roll", m, "%s: %s", text, words.Count(n, "space"))
	return roll, n
}

// speedBonus is the Speed characteristic's extra spaces: it raises the top
// speeds, so it counts at FAST and MAX (docs/rules/ludi.md).
func speedBonus(c *Chariot) int { return speedBonusAt(c, c.Level) }

// speedBonusAt is speedBonus were the chariot at level lv: Speed counts at
// FAST and MAX.
func speedBonusAt(c *Chariot, lv tables.Level) int {
	if lv >= tables.Fast {
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
	if lv <= tables.Stop || lv > tables.Max {
		return 0
	}
	top, low := speedFaces[lv].top, speedFaces[lv].low
	if rules.enduranceCaps() {
		top = max(low, top-c.enduranceSpent())
	}
	return top
}

// speedFaces are each level's die's highest and lowest face, and speedWhy
// the reason its roll is logged with: asked on every move.
var (
	speedFaces [tables.Max + 1]struct{ top, low int }
	speedWhy   [tables.Max + 1]string
)

func init() {
	for lv := tables.Stop; lv <= tables.Max; lv++ {
		speedWhy[lv] = "speed " + lv.String()
		if die, ok := tables.SpeedDie(lv); ok {
			speedFaces[lv].top, speedFaces[lv].low = slices.Max(die.Faces), slices.Min(die.Faces)
		}
	}
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
			if r.tell {
				r.say(c, "move", m, "%s drives %s, from lane %d to lane %d, now in the %s", c.Name, words.Count(moved, "space"), from.Lane, c.Pos.Lane, where)
			}
		} else {
			if r.tell {
				r.say(c, "move", m, "%s drives %s in lane %d, now in the %s", c.Name, words.Count(moved, "space"), c.Pos.Lane, where)
			}
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
			if r.armed[c.Seat] == Cruise {
				r.nArmed++
			}
			r.armed[c.Seat] = k
		}
	}
	// An attack held for an overtaker fires when this chariot passes on its side.
	for i := range r.s.Chariots { // seat order: the same on every replay
		if r.nArmed == 0 {
			break
		}
		y := &r.s.Chariots[i]
		ak := r.armed[y.Seat]
		if ak == Cruise || y == c || !c.Active() || c.Flipped {
			continue
		}
		if r.passed(c, y, ak.Side()) {
			r.armed[y.Seat] = Cruise
			r.nArmed--
			r.attack(y, c, ak, tables.Overtaking, r.cat("as ", c.Name, " overtakes"))
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
	if r.tell {
		r.say(c, "contingency", r.d.Mark(), "%s would run into %s with %s to go: the contingency Brake is taken before the move, down to %s", c.Name, o.Name, words.Count(left, "space"), c.Level)
	}
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
			if o := r.at(next); o != nil {
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
	if s.ahead = r.at(s.next); s.ahead != nil {
		// The text's 'one racing line to the left of the current position':
		// level across, unless a chariot stands there too.
		s.beside = r.at(side)
		s.next, s.crossed = side, false
	}
	return s
}

// adjacent finds a chariot level with c in the lane on side.
func (r *resolver) adjacent(c *Chariot, side int) *Chariot {
	for i := range r.s.Chariots {
		o := &r.s.Chariots[i]
		if o.Pos.Lane == c.Pos.Lane+side && o != c && o.OnTrack() && r.s.track.Overlaps(c.Pos, o.Pos) {
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
		if o.Pos.Lane != c.Pos.Lane+side || o == c || !o.OnTrack() {
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
	if !r.started[mover.Seat] {
		return false
	}
	before, yStart := r.start[mover.Seat], y.Pos
	if r.started[y.Seat] {
		yStart = r.start[y.Seat]
	}
	behind := r.s.gapPos(yStart, before)
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
	inCorner, checked := r.inCorner, r.checked
	clear(inCorner)
	clear(checked)
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
				if r.tell {
					r.say(c, "move", m, "%s is already in lane %d, against the wall: the rest of %s does nothing", c.Name, c.Pos.Lane, k)
				}
				shift = 0
				continue
			case s.beside != nil:
				if r.tell {
					r.say(c, "move", m, "%s cannot move over: %s and %s are in the way; it keeps to lane %d", c.Name, s.ahead.Name, s.beside.Name, c.Pos.Lane)
				}
				shift = 0
				continue
			case s.ahead != nil:
				if r.tell {
					r.say(c, "move", m, "%s finds %s ahead in lane %d and moves straight across", c.Name, s.ahead.Name, s.next.Lane)
				}
			}
			next, crossed = s.next, s.crossed
			shift -= sign(shift)
		} else {
			next, crossed = t.Next(c.Pos)
			if o := r.at(next); o != nil {
				if r.blocked(c, st, o, n-moved, &shift) {
					continue
				}
				break
			}
		}
		r.goTo(c, next)
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
				r.naufragia(c, r.cat(c.Name, " overturns in the ", seg.Name))
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
				if next, _ := r.s.track.Next(side); r.at(next) == nil {
					r.usedCont[c.Seat] = true
					if r.tell {
						r.say(c, "contingency", m, "%s is blocked by %s: the contingency %s takes the chariot round", c.Name, o.Name, cont)
					}
					*shift = cont.Shift()
					return true
				}
			}
		case Brake:
			r.usedCont[c.Seat] = true
			if c.Level > tables.Stop {
				c.Level--
			}
			if r.tell {
				r.say(c, "contingency", m, "%s is blocked by %s: the contingency Brake takes it down to %s, %s let go", c.Name, o.Name, c.Level, words.Count(left, "space"))
			}
			return false
		}
	}
	if left <= free {
		if r.tell {
			r.say(c, "obstacle", m, "%s is blocked by %s and lets %s go", c.Name, o.Name, words.Count(left, "space"))
		}
		return false
	}
	if r.tell {
		r.say(c, "obstacle", m, "%s is blocked by %s with %s to go, more than the %d a chariot at %s can let go: the horses suffer", c.Name, o.Name, words.Count(left, "space"), free, c.Level)
	}
	r.hurtHorses(c, r.cat("running into ", o.Name))
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
	if mod > 0 && r.tell {
		modText = fmt.Sprintf(" (Control: %d-%d)", roll, mod)
	}
	seg := r.s.track.Segments[c.Pos.Seg].Name
	switch out {
	case tables.NoChange:
		if r.tell {
			r.say(c, "corner", m, "%s takes the %s in lane %d at %s, roll %d%s, Skill %d: no change", c.Name, seg, c.Pos.Lane, lv, roll, modText, c.Skill)
		}
	case tables.Slip:
		if r.tell {
			r.say(c, "corner", m, "%s takes the %s in lane %d at %s, roll %d%s, Skill %d: the chariot slips", c.Name, seg, c.Pos.Lane, lv, roll, modText, c.Skill)
		}
	case tables.Naufragia:
		if r.tell {
			r.say(c, "corner", m, "%s takes the %s in lane %d at %s, roll %d%s, Skill %d: naufragia!", c.Name, seg, c.Pos.Lane, lv, roll, modText, c.Skill)
		}
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
			if r.tell {
				r.say(c, "slip", m, "%s: the slip begins on space %d of the %d in lane %d", c.Name, space, n, lane)
			}
			return space - 1
		}
		p := r.s.levelIn(Pos{Lane: lane, Seg: c.Pos.Seg, Cell: space - 1}, c.Pos.Lane)
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
		if r.tell {
			r.say(c, "slip", m, "%s slips into the outer wall", c.Name)
		}
		r.slipHurt(c)
		return false
	}
	next, crossed := side, false
	if forward {
		next, crossed = t.Next(side)
	}
	if o := r.at(next); o != nil {
		if r.tell {
			r.say(c, "slip", m, "%s slips into %s and is thrown back into lane %d", c.Name, o.Name, c.Pos.Lane)
		}
		r.slipHurt(c)
		if c.Active() {
			r.slipCheck(o, r.cat("struck by ", c.Name), 0)
		}
		return false
	}
	r.goTo(c, next)
	if r.tell {
		r.say(c, "slip", m, "%s slips out to lane %d", c.Name, c.Pos.Lane)
	}
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
		if r.tell {
			r.say(c, "damage", m, "%s: the horses take it", c.Name)
		}
		r.hurtHorses(c, "the slip")
		return
	}
	s := r.roll(c, "left side (1-10) or right side (11-20)", dice.D20)
	side := -1
	if s > 10 {
		side = 1
	}
	if r.tell {
		r.say(c, "damage", m, "%s: the chariot's %s side takes it", c.Name, sideName(side))
	}
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
		what = r.cat("chariot's ", sideName(side), " side")
	}
	v := r.roll(c, "slip damage", dice.D20)
	eff, note := v, ""
	if !horses && wheels > 0 {
		eff = max(1, v-wheels)
		note = r.sprintf(" (Control: %d-%d)", v, wheels)
	}
	if !tables.SlipDamage(val, eff) {
		if r.tell {
			r.say(c, "damage", m, "%s: %s, d20 %d%s against the %s: no harm", c.Name, why, v, note, what)
		}
		return
	}
	if r.tell {
		r.say(c, "damage", m, "%s: %s, d20 %d%s against the %s: damage", c.Name, why, v, note, what)
	}
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
		if r.tell {
			r.say(c, "wall", m, "%s runs along the %s, d20 %d: no contact", c.Name, wall, v)
		}
		return
	}
	if r.roll(c, "horses (1-10) or chariot (11-20)", dice.D20) <= 10 {
		if r.tell {
			r.say(c, "wall", m, "%s scrapes the %s, d20 %d: the horses are hurt", c.Name, wall, v)
		}
		r.hurtHorses(c, r.cat("the ", wall))
		return
	}
	if r.tell {
		r.say(c, "wall", m, "%s scrapes the %s, d20 %d: the %s side of the chariot is damaged", c.Name, wall, v, sideName(side))
	}
	r.hurtChariot(c, side, r.cat("the ", wall))
}

// attack resolves a Crash or a Lacerate by a on d.
func (r *resolver) attack(a, d *Chariot, k Kind, mode tables.CrashMode, how string) {
	m := r.d.Mark()
	if !k.IsCrash() {
		v := r.roll(a, "laceration", dice.D20)
		eff, note := v, ""
		if r.watching[d.Seat] {
			eff = max(1, v-tables.WatchModifier)
			if r.tell {
				note = fmt.Sprintf(" (%s watches: %d-%d)", d.Name, v, tables.WatchModifier)
			}
		}
		skill := a.Skill
		if r.s.Rules.skillDifference() {
			skill = max(0, a.Skill-d.Skill)
			note += r.sprintf(" (Skill %d against %d: row %d)", a.Skill, d.Skill, skill)
		}
		n := tables.LacerateStun(skill, d.Team.Constitution, eff)
		if n == 0 {
			if r.tell {
				r.say(a, "lacerate", m, "%s lashes at %s %s, d20 %d%s: no harm done", a.Name, d.Name, how, v, note)
			}
			return
		}
		d.Stunned = max(d.Stunned, n)
		if d.Level == tables.Max {
			d.DropToFast = true
		}
		if r.tell {
			r.say(a, "lacerate", m, "%s lashes at %s %s, d20 %d%s: %s is stunned for %s", a.Name, d.Name, how, v, note, d.Name, words.Count(n, "order"))
		}
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
		if r.tell {
			note = fmt.Sprintf(" (%s watches: %d-%d)", d.Name, v, tables.WatchModifier)
		}
	}
	if !tables.CrashHits(mode, a.Skill, d.Team.Size, target, hit) {
		if r.tell {
			r.say(a, "crash", m, "%s swerves at the %s of %s %s, d20 %d%s: no contact", a.Name, what, d.Name, how, v, note)
		}
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
	if r.tell {
		r.say(a, "crash", m, "%s crashes into the %s of %s %s, d20 %d%s; damage d20 %d", a.Name, what, d.Name, how, v, note, dv)
	}
	switch {
	case target == tables.Horses && eff != tables.NoEffect:
		r.hurtHorses(d, "the crash")
	case eff == tables.EnduringMove:
		d.Lame++
		m2 := r.d.Mark()
		if r.tell {
			r.say(d, "damage", m2, "%s's light chariot is bent: -1 space for the rest of the race", d.Name)
		}
	case eff == tables.QualityLoss:
		r.hurtChariot(d, -side, "the crash")
	default:
		m2 := r.d.Mark()
		if r.tell {
			r.say(d, "damage", m2, "%s's chariot shrugs the blow off", d.Name)
		}
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
	if r.tell {
		r.say(c, "damage", m, "%s loses a point on the %s side (%s): %d of 3", c.Name, sideName(side), why, *p)
	}
	if *p >= 3 {
		r.naufragia(c, r.cat("the ", sideName(side), " side of ", c.Name, "'s chariot breaks up"))
	}
}

// hurtHorses costs an Endurance point or, with none left, a lasting injury;
// the fourth loss stops the horses.
func (r *resolver) hurtHorses(c *Chariot, why string) {
	m := r.d.Mark()
	if c.Endurance > 0 {
		c.Endurance--
		if r.tell {
			r.say(c, "damage", m, "%s's horses lose an Endurance point (%s): Endurance %d", c.Name, why, c.Endurance)
		}
	} else {
		c.HorseInjuries++
		if r.tell {
			r.say(c, "damage", m, "%s's horses are injured (%s): -%s for the rest of the race", c.Name, why, words.Count(c.HorseInjuries, "space"))
		}
	}
	if c.EnduranceLost() >= 4 && c.Active() {
		c.Out = HorsesStopped
		c.Level = tables.Stop
		if r.tell {
			r.say(c, "out", r.d.Mark(), "%s's horses have lost a fourth point and stop: the chariot is out", c.Name)
		}
	}
}

// naufragia flips the chariot; the auriga's fall is rolled by Constitution.
func (r *resolver) naufragia(c *Chariot, why string) {
	if c.Flipped || !c.Active() {
		return
	}
	c.Flipped = true
	r.overturned[c.Seat] = flippedUntold
	c.Stunned, c.DropToFast = 0, false
	m := r.d.Mark()
	v := r.roll(c, "fall", dice.D20)
	if tables.FallDamage(c.Team.Constitution, v) {
		c.Injured++
		c.Skill = max(0, c.Skill-1)
		if r.tell {
			r.say(c, "naufragia", m, "NAUFRAGIA! %s; %s falls hard, d20 %d: hurt, Skill %d", why, c.Name, v, c.Skill)
		}
		return
	}
	if r.tell {
		r.say(c, "naufragia", m, "NAUFRAGIA! %s; %s falls, d20 %d: unhurt", why, c.Name, v)
	}
}

// flipped plays a flipped chariot's order: hang on and be dragged, or roll away.
func (r *resolver) flipped(c *Chariot, k Kind) {
	m := r.d.Mark()
	if k == RollAway {
		c.Out = RolledAway
		if r.tell {
			r.say(c, "out", m, "%s lets go of the reins and rolls away to safety; the wreck stays on the track", c.Name)
		}
		return
	}
	v := r.roll(c, "hang on", dice.D20)
	if tables.FallDamage(c.Team.Constitution, v) {
		c.Out = Thrown
		if r.tell {
			r.say(c, "out", m, "%s hangs on, d20 %d: thrown clear of the wreck, out of the race", c.Name, v)
		}
		return
	}
	if r.tell {
		r.say(c, "hang on", m, "%s hangs on, d20 %d: dragged on at %s", c.Name, v, c.Level)
	}
	_, n := r.spaces(c, HangOn, 0)
	t := r.s.track
	for i := 0; i < n; i++ {
		next, crossed := t.Next(c.Pos)
		if o := r.at(next); o != nil {
			if r.tell {
				r.say(c, "obstacle", r.d.Mark(), "the wreck of %s stops behind %s", c.Name, o.Name)
			}
			return
		}
		r.goTo(c, next)
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
	r.leaveTrack(c)
	c.Out = DraggedOver
	if r.tell {
		r.say(c, "out", r.d.Mark(), "the wreck of %s is dragged over the line: a wreck takes no place, and %s is out of the race", c.Name, c.Name)
	}
}

// finish takes a chariot over the line for the last time.
func (r *resolver) finish(c *Chariot) {
	r.leaveTrack(c)
	c.Out = Finished
	c.FinishTurn = r.s.T
	r.s.Finish = append(r.s.Finish, c.Seat)
	m := r.d.Mark()
	if r.tell {
		r.say(c, "finish", m, "%s crosses the line to finish in place %d!", c.Name, len(r.s.Finish))
	}
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
