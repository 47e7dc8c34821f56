package nascar

import (
	"fmt"
	"math"
	"slices"

	"pitwall/dice"
	"pitwall/internal/words"
	"pitwall/race"
)

// Coin is a two-faced die: the text's random picks (an oil slick's turn, who
// leads after a crash) are 50-50.
var Coin = dice.Die{Name: "coin", Faces: []int{1, 2}}

// The most speed and max speed one trip off the track costs, and the most
// when an oil slick sent the car off (the text).
const (
	maxOffPenalty = 4
	maxOilPenalty = 2
)

// mover is a car working through its order during a turn.
type mover struct {
	c        *RaceCar
	moves    []Token
	after    int   // the speed change at the end of the order
	off      int   // squares entered off the track this turn
	offFrom  Point // the last track square before it first left
	ghost    Point // where the rest of its move has come to since it left
	oilFirst bool  // an oil slick turned it before it left the track
	done     bool
	lastProg int // progress of the last track square it stood on
}

type resolver struct {
	s      *State
	d      *dice.Roller
	ev     []race.Event
	movers map[int]*mover // by seat
}

func (r *resolver) say(c *RaceCar, kind string, mark int, format string, a ...any) {
	seat := -1
	if c != nil {
		seat = c.Seat
	}
	r.ev = append(r.ev, race.Event{Seat: seat, Kind: kind, Text: fmt.Sprintf(format, a...), Rolls: r.d.Since(mark)})
}

// resolve plays one turn: every car's order, one square at a time, leader first.
func resolve(old *State, orders map[int]Order, d *dice.Roller) (*State, []race.Event) {
	s := old.clone()
	r := &resolver{s: s, d: d, movers: map[int]*mover{}}
	// Every order is checked against the state before the turn, before any
	// car changes speed: a slipstream depends on the speed of the car ahead.
	type planned struct {
		c *RaceCar
		o Order
		p Plan
	}
	var plans []planned
	for _, c := range s.order() {
		o := orders[c.Seat]
		p, err := Check(o, s.carFor(c))
		if err != nil { // orders were checked when they came in; a default never fails
			r.say(c, "order", d.Mark(), "%s's orders no longer fit (%v): %s cruises", c.Name, err, c.Name)
			o = cruise(c.Speed)
			p, _ = Check(o, s.carFor(c))
		}
		plans = append(plans, planned{c, o, p})
	}
	for i := range s.Cars {
		s.Cars[i].PutBehind = false // its slipstream is in the plan
	}
	var ms []*mover
	for _, pl := range plans {
		ms = append(ms, r.start(pl.c, pl.o, pl.p))
	}
	// Square by square: each tick, every car with moves left takes one, leader first.
	for {
		moved := false
		for _, m := range ms {
			if m.done || len(m.moves) == 0 || !m.c.racing() {
				continue
			}
			r.step(m)
			moved = true
		}
		if !moved {
			break
		}
	}
	for _, m := range ms {
		r.endTurn(m)
	}
	s.T++
	if s.T > s.MaxTurns() && !allOut(s) {
		r.say(nil, "end", r.d.Mark(), "The race is called after %d turns: the cars still running are placed by how far round they are", s.MaxTurns())
	}
	return s, r.ev
}

// start sets a car off on its checked order for the turn.
func (r *resolver) start(c *RaceCar, o Order, p Plan) *mover {
	c.Trail = []Point{c.Pos}
	c.Orders = o.String()
	m := &mover{c: c, moves: o.Moves, lastProg: r.s.track.Progress(c.Pos), after: p.EndSpeed - p.TurnSpeed}
	c.Wildcards -= p.Wildcards
	mark := r.d.Mark()
	text := fmt.Sprintf("%s: %s, speed %d", c.Name, orderText(o), p.TurnSpeed)
	if p.Wildcards > 0 {
		text += fmt.Sprintf(" (%s, %d left)", words.Count(p.Wildcards, "wildcard"), c.Wildcards)
	}
	r.say(c, "order", mark, "%s", text)
	c.Speed = p.TurnSpeed
	r.movers[c.Seat] = m
	return m
}

func allOut(s *State) bool {
	for i := range s.Cars {
		if s.Cars[i].racing() {
			return false
		}
	}
	return true
}

func orderText(o Order) string {
	if t := o.String(); t != "" {
		return t
	}
	return "no move"
}

// cruise is the missed turn's order: the same speed, straight on.
func cruise(speed int) Order {
	o := Order{}
	for i := 0; i < speed; i++ {
		o.Moves = append(o.Moves, Token{Letter: 'M'})
	}
	return o
}

// carFor is what an order is checked against for c now.
func (s *State) carFor(c *RaceCar) Car {
	return Car{X: c.Pos.X, Y: c.Pos.Y, Heading: c.Heading, Speed: c.Speed, MaxSpeed: c.MaxSpeed,
		Wildcards: c.Wildcards, Upgrade: c.Upgrade, CanSlipstream: s.canSlipstream(c)}
}

// step moves a car one square: the turn first, then the square, then what
// it finds there.
func (r *resolver) step(m *mover) {
	c, s, t := m.c, r.s, r.s.track
	tok := m.moves[0]
	m.moves = m.moves[1:]
	c.Heading = c.Heading.Steer(tok.Letter)
	dx, dy := c.Heading.Step()
	from := c.Pos
	if m.off > 0 {
		from = m.ghost
	}
	next := Point{from.X + dx, from.Y + dy}
	c.Trail = append(c.Trail, next)
	sq := t.At(next)
	if m.off > 0 || !sq.OnTrack() {
		r.offTrack(m, from, next)
		return
	}
	c.Pos = next
	prog := t.Progress(next)
	if m.lastProg >= 0 && prog < m.lastProg && t.ahead(m.lastProg, prog) > 0 {
		r.crossLine(m, sq)
		if m.done {
			return
		}
	}
	if m.lastProg >= 0 && r.backOver(c, m.lastProg, prog) {
		r.say(c, "lap", r.d.Mark(), "%s crosses the line backwards: the lap it began there is not counted", c.Name)
	}
	m.lastProg = prog
	r.pit(m, sq)
	if o := s.occupant(next, c); o != nil && !sq.InPit() {
		r.crash(m, o, from)
		return
	}
	if s.hasOil(next) {
		mark := r.d.Mark()
		v := r.d.Roll(c.Seat, c.Name+": oil slick, left (1) or right (2)", Coin)
		turn := slewOf[v]
		c.Heading = c.Heading.Turn(turn)
		m.oilFirst = true // slicks are met on the track only, before any square off it
		r.say(c, "oil", mark, "%s hits the oil at %v and slews %s: now heading %v", c.Name, next, slewName[turn], c.Heading)
	}
	if s.sandbag(next) {
		found := false
		for _, f := range s.Found {
			found = found || f == next
		}
		if !found {
			s.Found = append(s.Found, next)
		}
		c.Speed = max(0, c.Speed-1)
		if len(m.moves) > 0 {
			m.moves = m.moves[:len(m.moves)-1] // the lost speed costs a square this turn
		}
		r.say(c, "sandbag", r.d.Mark(), "%s hits a sandbag at %v: speed -1, now %d", c.Name, next, c.Speed)
	}
}

// offTrack runs a car that has left the track this turn. Every square it
// enters off the track counts, wherever its move ends; the rest of the move,
// on the track again or not, is only traced: the car is put back where it
// left at the end of the turn, so that way gains it no ground, crosses no
// line, enters no pit lane and meets no car, slick or sandbag. Meanwhile it
// waits on the first square it left for, where no car on the track meets it.
func (r *resolver) offTrack(m *mover, from, next Point) {
	if m.off == 0 {
		m.offFrom, m.c.Pos = from, next
	}
	m.ghost = next
	if !r.s.track.At(next).OnTrack() {
		m.off++
	}
}

// crossLine counts a crossing of the finish line; the last finishes the race,
// but not through the pit area.
func (r *resolver) crossLine(m *mover, sq Square) {
	c, s := m.c, r.s
	mark := r.d.Mark()
	if c.Crossings == s.Laps && sq.InPit() && !s.PitFinishNoWin {
		r.say(c, "lap", mark, "%s crosses the line in the pit lane: the race cannot be won through the pits, so the lap does not count", c.Name)
		return
	}
	c.Crossings++
	switch {
	case c.Crossings > s.Laps:
		c.Out = Finished
		c.FinishTurn = s.T
		m.done = true
		won := slices.ContainsFunc(s.Finish, func(seat int) bool { return !s.car(seat).PitFinish })
		if sq.InPit() { // pit-finish=no-win: a place, never the win
			c.PitFinish = true
			s.Finish = append(s.Finish, c.Seat)
			if won {
				r.say(c, "finish", mark, "%s crosses the line in the pit lane and finishes: place %d", c.Name, len(s.Finish))
			} else {
				r.say(c, "finish", mark, "%s crosses the line in the pit lane and finishes, but the race cannot be won through the pits: the first car to finish on the track will go ahead", c.Name)
			}
			return
		}
		at := len(s.Finish)
		if !won {
			at = 0 // the first on the track wins, ahead of any through the pits
		}
		s.Finish = slices.Insert(s.Finish, at, c.Seat)
		r.say(c, "finish", mark, "%s takes the chequered flag: place %d!", c.Name, at+1)
	case c.Crossings == s.Laps:
		r.say(c, "lap", mark, "%s starts the last lap", c.Name)
	default:
		r.say(c, "lap", mark, "%s starts lap %d of %d", c.Name, c.Crossings, s.Laps)
	}
}

// pit keeps the pit stop's books: the speed limit between and on the ##
// markers, and the repairs and wildcards at the PP mark.
func (r *resolver) pit(m *mover, sq Square) {
	c := m.c
	mark := r.d.Mark()
	if !sq.InPit() {
		if c.InPit {
			c.InPit = false
			if c.PitRepair > 0 || c.PitWCs > 0 {
				r.say(c, "pit", mark, "%s leaves the pit lane, repaired", c.Name)
			}
			c.PitRepair, c.PitWCs, c.PitBroken, c.PitPassedP = 0, 0, false, false
		}
		return
	}
	if !c.InPit {
		c.InPit, c.PitBroken, c.PitPassedP, c.PitRepair, c.PitWCs = true, false, false, 0, 0
		r.say(c, "pit", mark, "%s enters the pit lane at speed %d", c.Name, c.Speed)
	}
	if c.Speed > PitSpeedLimit && !c.PitBroken {
		r.breakLimit(c, c.Speed)
	}
	if sq == PPMark && !c.PitPassedP {
		c.PitPassedP = true
		if c.PitBroken {
			return
		}
		c.PitRepair = 10 - c.Speed
		c.PitWCs = PitBonus(c.Speed)
		c.MaxSpeed += c.PitRepair
		c.Wildcards += c.PitWCs
		r.say(c, "pit", r.d.Mark(), "%s passes the PP mark at speed %d: max speed +%d (now %d), +%s", c.Name, c.Speed, c.PitRepair, c.MaxSpeed, words.Count(c.PitWCs, "wildcard"))
	}
}

// breakLimit voids the pit stop: repairs already made are taken back.
func (r *resolver) breakLimit(c *RaceCar, speed int) {
	c.PitBroken = true
	mark := r.d.Mark()
	if c.PitRepair > 0 || c.PitWCs > 0 {
		c.MaxSpeed = max(MinMaxSpeed, c.MaxSpeed-c.PitRepair)
		c.Wildcards = max(0, c.Wildcards-c.PitWCs)
		r.say(c, "pit", mark, "%s breaks the pit speed limit at %d: the repairs (+%d max speed, +%s) are taken back", c.Name, speed, c.PitRepair, words.Count(c.PitWCs, "wildcard"))
		c.PitRepair, c.PitWCs = 0, 0
		return
	}
	r.say(c, "pit", mark, "%s breaks the pit speed limit at %d: no benefit from this stop", c.Name, speed)
}

// PitBonus is the free wildcards for passing the PP mark at speed (the text's
// clarification): 5 or 6 gives 1, 2 to 4 give 2, 1 gives 3, 7 and more none.
func PitBonus(speed int) int {
	switch {
	case speed <= 1:
		return 3
	case speed <= 4:
		return 2
	case speed <= PitSpeedLimit:
		return 1
	}
	return 0
}

// crash: the mover ran into o. A coin picks who takes the spot; the other is
// put just behind. Both lose a point of max speed, stop for the turn, and oil
// is left where they met.
func (r *resolver) crash(m *mover, o *RaceCar, from Point) {
	c, s := m.c, r.s
	spot := c.Pos
	mark := r.d.Mark()
	v := r.d.Roll(c.Seat, fmt.Sprintf("crash with %s: %s leads (1) or %s (2)", o.Name, c.Name, o.Name), Coin)
	lead, back := c, o
	if !moverLeads[v] {
		lead, back = o, c
	}
	lead.Pos = spot
	back.Pos = s.behind(spot, lead, from)
	back.PutBehind = true
	back.Trail = append(back.Trail, back.Pos) // the picture shows where it was put
	// Put back over the line, a car has not begun the lap it was credited.
	backOver := r.backOver(back, s.track.Progress(spot), s.track.Progress(back.Pos))
	var was [2]int
	for i, x := range []*RaceCar{c, o} {
		was[i] = x.MaxSpeed
		x.MaxSpeed = max(MinMaxSpeed, x.MaxSpeed-1)
		x.Speed = min(x.Speed, x.MaxSpeed)
	}
	// What the crash did to each max speed: a car at the minimum loses none.
	damage := fmt.Sprintf("both lose a point of max speed (%s now %d, %s now %d)", c.Name, c.MaxSpeed, o.Name, o.MaxSpeed)
	switch {
	case c.MaxSpeed == was[0] && o.MaxSpeed == was[1]:
		damage = fmt.Sprintf("both max speeds stay at %d, the minimum", MinMaxSpeed)
	case c.MaxSpeed == was[0] || o.MaxSpeed == was[1]:
		damage = maxSpeedChange(c.Name, was[0], c.MaxSpeed) + ", " + maxSpeedChange(o.Name, was[1], o.MaxSpeed)
	}
	if !s.hasOil(spot) {
		s.Oil = append(s.Oil, spot)
	}
	m.done = true
	if om := r.movers[o.Seat]; om != nil {
		om.done = true // both stop for the turn
		om.lastProg = s.track.Progress(o.Pos)
	}
	r.say(c, "crash", mark, "CRASH! %s runs into %s at %v: %s keeps the spot, %s is put behind at %v; %s; oil spills", c.Name, o.Name, spot, lead.Name, back.Name, back.Pos, damage)
	if backOver {
		r.say(back, "lap", r.d.Mark(), "%s is put back over the line: the lap it began there is not counted", back.Name)
	}
}

// backOver takes back a crossing when a car goes from progress a back over
// the line to b: it has not begun the lap it was credited with. It reports
// whether it did.
func (r *resolver) backOver(c *RaceCar, a, b int) bool {
	if b <= a || r.s.track.ahead(a, b) >= 0 || c.Crossings == 0 {
		return false
	}
	c.Crossings--
	return true
}

// behind is where the car that lost a crash goes: the free track square just
// behind the spot (against the leader's heading), or the free square around it
// least far round; the mover's last square if there is none.
func (s *State) behind(spot Point, lead *RaceCar, from Point) Point {
	t := s.track
	dx, dy := lead.Heading.Step()
	straight := Point{spot.X - dx, spot.Y - dy}
	free := func(p Point) bool { return t.At(p).OnTrack() && s.occupant(p, nil) == nil }
	if free(straight) && t.ahead(t.Progress(straight), t.Progress(spot)) > 0 {
		return straight
	}
	best, bestAhead := from, math.MinInt
	for _, n := range neighbours {
		p := Point{spot.X + n[0], spot.Y + n[1]}
		if !free(p) {
			continue
		}
		if a := t.ahead(t.Progress(p), t.Progress(spot)); a > 0 && -a > bestAhead {
			best, bestAhead = p, -a
		}
	}
	return best
}

// endTurn applies the order's last speed changes, the pit limit on them, and
// the price of leaving the track.
func (r *resolver) endTurn(m *mover) {
	c, s, t := m.c, r.s, r.s.track
	if !c.racing() {
		return
	}
	mark := r.d.Mark()
	c.Speed = max(0, c.Speed+m.after)
	if c.InPit && c.Speed > PitSpeedLimit && !c.PitBroken {
		r.breakLimit(c, c.Speed)
	}
	if m.off > 0 {
		n := min(m.off, maxOffPenalty)
		if m.oilFirst {
			n = min(n, maxOilPenalty)
		}
		was := c.MaxSpeed
		c.Speed = max(0, c.Speed-n)
		c.MaxSpeed = max(MinMaxSpeed, c.MaxSpeed-n)
		c.Pos = s.nearestFree(m.offFrom, c)
		c.Heading = t.Along(c.Pos)
		c.Trail = append(c.Trail, c.Pos)
		r.say(c, "off", mark, "%s leaves the track for %s: speed -%d (now %d), %s; back on the track at %v heading %v",
			c.Name, words.Count(m.off, "square"), n, c.Speed, maxSpeedChange("", was, c.MaxSpeed), c.Pos, c.Heading)
	}
	c.Speed = min(c.Speed, c.MaxSpeed)
	if len(c.Trail) > 1 {
		r.say(c, "move", r.d.Mark(), "%s ends the turn at %v heading %v, speed %d", c.Name, c.Pos, c.Heading, c.Speed)
	}
}

// maxSpeedChange says what damage did to a car's max speed, from was to now,
// prefixed by who ("" for the sentence's own car): "max speed -2 (now 8)",
// or, as it never goes below MinMaxSpeed, "max speed -1 (now 6, the minimum)"
// and "max speed stays at 6, the minimum". It says only what happened, not
// the penalty the rule names.
func maxSpeedChange(who string, was, now int) string {
	if who != "" {
		who += "'s "
	}
	switch {
	case now == was:
		return fmt.Sprintf("%smax speed stays at %d, the minimum", who, now)
	case now == MinMaxSpeed:
		return fmt.Sprintf("%smax speed -%d (now %d, the minimum)", who, was-now, now)
	}
	return fmt.Sprintf("%smax speed -%d (now %d)", who, was-now, now)
}

// nearestFree is the racing square nearest to p that no other car holds.
func (s *State) nearestFree(p Point, c *RaceCar) Point {
	t := s.track
	q := t.Nearest(p)
	if s.occupant(q, c) == nil {
		return q
	}
	best, bestD := q, math.MaxInt
	for y := 0; y < t.H; y++ {
		for x := 0; x < t.W; x++ {
			o := Point{x, y}
			if !t.At(o).OnTrack() || t.At(o).InPit() || s.occupant(o, c) != nil {
				continue
			}
			if d := dist2(o, p); d < bestD {
				best, bestD = o, d
			}
		}
	}
	return best
}
