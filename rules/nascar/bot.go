package nascar

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"pitwall/race"
)

// Bot chooses an order the way a careful driver would. It tries every speed
// it may move at this turn, every way of steering that many squares that
// keeps to the track (at most two turns to each side), and every speed
// change at the end, with the rules' own Check saying which orders are
// legal and what wildcards they cost. It keeps the order that gains the most
// ground this turn and next, among those that end where the car can still
// brake in time for the bends ahead: from where the order leaves it, heading
// and speed as they will be, the car can brake a speed a turn and follow the
// track to a standstill, steering no more than a free order may. On the way
// it gives way to the cars ahead, keeps off oil, turns round when it heads
// the wrong way, leans towards ending where a missed turn (straight on)
// would keep to the track, and a worn car stops in the pit lane for repairs.
// What it works out about the track alone it keeps with the track, for
// every race there; its randomness is its own, and what it orders is logged
// like a driver's.
func Bot(st race.State, seat int, rng *rand.Rand) string { return botWith(st, seat, rng, nil) }

// botWith is Bot, telling keep (when not nil) of every order the planner
// weighs with its score, for the search bot's candidates.
func botWith(st race.State, seat int, rng *rand.Rand, keep func(botChoice)) string {
	s, ok := st.(*State)
	if !ok {
		return ""
	}
	c := s.car(seat)
	if c == nil || !c.racing() {
		return ""
	}
	if c.Speed >= driveSpeeds {
		// Beyond what the planner works out (only a stored state gets
		// here: pit stops never raise a car this far): brake first, rather
		// than search every way of that many squares.
		return brakeOrder(c.Speed)
	}
	car := s.carFor(c)
	d := s.track.drive.get()
	defer s.track.drive.put(d)
	d.init(s.track)
	p := botPlanner{s: s, c: c, car: car, d: d, keep: keep}
	// The cars ahead: a car gives way to those, as they drive their own
	// line without looking back, as likelyPaths has it.
	var others []*RaceCar
	mine, order := s.track.Progress(c.Pos), s.order()
	for i, o := range order {
		if o == c {
			continue
		}
		// Ahead on the track, not in the race: a car a lap down that lies
		// ahead is driving its own line too. Level cars go by race order.
		d := s.track.ahead(mine, s.track.Progress(o.Pos))
		if d > 0 || (d == 0 && i < slices.Index(order, c)) {
			others = append(others, o)
		}
	}
	p.risks(others)
	p.oilCost = botOilCost
	if p.oilUnavoidable() {
		p.oilCost = 0
	}
	best := p.choose(rng, false)
	if best.text == "" { // every way leaves the track: the way that leaves it least
		best = p.choose(rng, true)
	}
	if o, err := Parse(best.text); err == nil {
		if _, err := Check(o, car); err == nil {
			return best.text
		}
	}
	// Nothing the planner found passes (it always should): brake, or move off.
	return brakeOrder(c.Speed)
}

// brakeOrder brakes a speed at the beginning and moves on at what is left,
// or, at a standstill, moves off.
func brakeOrder(speed int) string {
	switch {
	case speed > 1:
		return "B" + strings.Repeat("M", speed-1)
	case speed == 1:
		return "B"
	}
	return "AM"
}

// BotOrder implements race.Botter (nascar has no bonus window).
func (Ruleset) BotOrder(s race.State, seat int, _ bool, rng *rand.Rand) string {
	return Bot(s, seat, rng)
}

// botPlanner is one car's choice of order for one turn.
type botPlanner struct {
	s   *State
	c   *RaceCar
	car Car
	d   *driveTable
	// risk is how likely (in thousandths, summed over the cars ahead)
	// another car is to be on a square about when this car enters it on a
	// move, by move and square; lastRisk likewise for its last square,
	// where it stays.
	risk, lastRisk []int
	moves          int         // the most moves risk holds
	legal          *legalTable // what orders cost the car
	keep           func(botChoice)
	oilCost        int // a slick's cost beside its slew's: botOilCost, or 0 when no way round the slicks ahead is left (oilUnavoidable)
}

// botChoice is a candidate order and how good it is.
type botChoice struct {
	text  string
	score int
}

// The costs the bot weighs, in tenths of a square of ground (lap.go).
const (
	botUnsafe   = 1 << 20       // ending where the car cannot brake in time: only when nothing else will do
	botOffTrack = 1 << 24       // a square off the track: only when nothing else will do
	botCarCost  = 4000          // a square another car is likely to be on about then: a crash
	botOilCost  = 300           // an oil slick slews the car, left or right by a coin (and see slewCost)
	botOilOff   = 4 * botUnsafe // each square a slew is likely to send the car off the track
	botWildcard = 150           // a wildcard, and 100/wildcards left more: they are few
	botAgainst  = 30            // each eighth of a turn beyond the first that the car heads away from the way round
	botMay      = 100           // in thousandths of botCarCost: a square a car ahead could be on, if not likely
	botCruise   = 60            // each square off the track if the car misses its next turn and drives straight on
	botPit      = 500           // a pit stop for a worn car: max speed back, and a wildcard or two
	botPitBelow = 9             // the max speed at which a car wants its pit stop
	botLikely   = 10            // another bot may drive any way about this good (a square) as its best
)

// The speed changes the bot tries before its moves and after them.
var (
	botBefore      = [...]string{"", "A", "B", "AA", "BB"}
	botSlipBefore  = [...]string{"S", "SA", "SAA"}
	botAfter       = [...]string{"", "A", "B"}
	botSpeedChange = map[byte]int{'S': 1, 'A': 1, 'B': -1}
)

// choose is the best order; offTrack lets the moves leave the track, each
// square off costing dear (for when every way does).
func (p *botPlanner) choose(rng *rand.Rand, offTrack bool) botChoice {
	s, c, t := p.s, p.c, p.s.track
	ok := p.d.allowed(t, c.Pos)
	// A worn car makes a pit stop while a lap is left to run after it (the
	// race cannot be won through the pit lane).
	inPit := t.At(c.Pos).InPit()
	wantPit := p.d.pit && !inPit && c.MaxSpeed <= botPitBelow && c.Crossings < s.Laps
	if wantPit {
		ok = func(q Point) bool { return t.At(q).OnTrack() }
	}
	if offTrack {
		ok = func(Point) bool { return true }
	}
	befores := botBefore[:]
	if p.car.CanSlipstream {
		befores = append(befores[:len(befores):len(befores)], botSlipBefore[:]...)
	}
	from := t.Progress(c.Pos)
	best := botChoice{score: -1 << 40}
	ways := map[int][]botWay{} // by speed
	for b, before := range befores {
		u := c.Speed
		for i := range before {
			u += botSpeedChange[before[i]]
		}
		if u < 0 || u > c.MaxSpeed || (u == 0 && before == "") {
			continue // an empty order is no order
		}
		if _, done := ways[u]; !done {
			ways[u] = p.ways(u, ok)
		}
		for _, w := range ways[u] {
			last := c.Pos
			if len(w.sq) > 0 {
				last = w.sq[len(w.sq)-1]
			}
			pitted := inPit || slices.ContainsFunc(w.sq, func(q Point) bool { return t.At(q).InPit() })
			if pitted && u > PitSpeedLimit {
				continue // the speed limit holds on every square of the pit lane
			}
			penalty := w.penalty
			if pitted && !inPit {
				// The pit lane runs the racing way from its entry marker: a
				// car cut in anywhere else would have to turn round in it.
				if i := slices.IndexFunc(w.sq, func(q Point) bool { return t.At(q).InPit() }); w.sq[i] != p.d.entry {
					continue
				}
				penalty -= botPit
			}
			gain := 0
			if w.off == 0 {
				gain = t.ahead(from, t.Progress(last))
			}
			for a, after := range botAfter {
				if u == 0 && after != "" {
					continue // with no moves, every letter acts before them
				}
				wc := p.wildcards(b, a, w.lefts, w.rights, u)
				if wc < 0 {
					continue
				}
				e := u
				for i := range after {
					e += botSpeedChange[after[i]]
				}
				if t.At(last).InPit() && e > PitSpeedLimit {
					continue // and on the speed the car ends the turn with there
				}
				score := gain - penalty - wc*(botWildcard+100/max(1, c.Wildcards)) - botAgainst*against(w.h, p.d.alongAt(t, last)) -
					botCruise*min(maxOffPenalty, cruiseOff(t, last, w.h, e))
				if w.off == 0 && p.d.safe(t, last, w.h, e) {
					score += p.d.nextGain(t, last, w.h, e, e < c.MaxSpeed)
				} else {
					score -= botUnsafe + e*1000 // brake all it can
				}
				if wantPit && !pitted && !p.d.canSlowFor(t, last, e) {
					score -= botPit // it would come to the pit lane too fast
				}
				score += rng.IntN(3) // a little variety between equal plans
				if p.keep != nil {
					p.keep(botChoice{text: before + string(w.moves) + after, score: score})
				}
				if score > best.score {
					best = botChoice{text: before + string(w.moves) + after, score: score}
				}
			}
		}
	}
	return best
}

// botWay is a way to drive a turn's squares, and what its squares cost.
type botWay struct {
	moves         []byte // M, L and R
	sq            []Point
	h             Heading // after the last move
	lefts, rights int
	off           int // squares off the track
	penalty       int // for its squares: cars likely there, oil, off the track
}

// wayKey is where a way has come to: what its rest depends on.
type wayKey struct {
	carMove
	pit bool // it has been in the pit lane
}

// carMove is where a car has come to along an order's moves: its square,
// its heading and the turns it has made to each side, of which an order
// may make only so many.
type carMove struct {
	p             Point
	h             Heading
	lefts, rights int
}

// next is m after the move l (M, L or R); false when l turns to a side m
// has turned to most times already. The bot's searches all move so.
func (m carMove) next(l byte, most int) (carMove, bool) {
	switch {
	case l == 'L' && m.lefts >= most, l == 'R' && m.rights >= most:
		return m, false
	case l == 'L':
		m.lefts++
	case l == 'R':
		m.rights++
	}
	m.h = m.h.Steer(l)
	dx, dy := m.h.Step()
	m.p = Point{m.p.X + dx, m.p.Y + dy}
	return m, true
}

// wayNode is a way's last move, and what its squares cost so far.
type wayNode struct {
	wayKey
	parent  int // index of the node a move before, -1 for the start
	letter  byte
	penalty int
	off     int
}

// wayIndex says which node holds a wayKey in the layer stamped stamp.
type wayIndex struct {
	stamp uint32
	node  int32
}

// slot is where k's index is kept in at; -1 for a square off the map (only
// when every way leaves the track).
func (d *driveTable) slot(t *Track, k wayKey) int {
	if k.p.X < 0 || k.p.Y < 0 || k.p.X >= t.W || k.p.Y >= t.H {
		return -1
	}
	i := ((t.idx(k.p)*8+int(k.h))*(maxOfAKind+1)+k.lefts)*(maxOfAKind+1) + k.rights
	if k.pit {
		i += len(d.at) / 2
	}
	return i
}

// ways are, for each square, heading and number of turns to each side the
// car can end n moves on at, the way there whose squares cost least: a car
// likely there then (risk), an oil slick, a square off the track. Every
// square passes ok, and the car turns at most twice to each side.
func (p *botPlanner) ways(n int, ok func(Point) bool) []botWay {
	t, c := p.s.track, p.c
	d := p.d
	nodes := append(d.nodes[:0], wayNode{wayKey: wayKey{carMove: carMove{p: c.Pos, h: c.Heading}}, parent: -1})
	layer := append(d.layer[:0], 0)
	var next []int
	for move := 1; move <= n; move++ {
		d.stamp++                 // a new layer: every index in at is stale
		var offMap map[wayKey]int // the same for squares off the map
		next = next[:0]
		for _, i := range layer {
			from := nodes[i]
			for _, l := range [...]byte{'M', 'L', 'R'} {
				m, moved := from.next(l, maxOfAKind)
				if !moved || !ok(m.p) {
					continue
				}
				q := t.At(m.p)
				k := wayKey{carMove: m, pit: from.pit || q.InPit()}
				nd := wayNode{wayKey: k, parent: i, letter: l, penalty: from.penalty, off: from.off}
				switch {
				case !q.OnTrack():
					nd.off++
					nd.penalty += botOffTrack
				case p.s.hasOil(k.p):
					// Worked out exactly for the way kept (slewCost); here, as
					// if a slew sends it off a square.
					nd.penalty += p.oilCost + botOilOff/2
				}
				if !q.InPit() {
					nd.penalty += botCarCost * p.meets(k.p, move, false) / 1000
				}
				slot := d.slot(t, k)
				j, seen := offMap[k]
				if slot >= 0 {
					j, seen = int(d.at[slot].node), d.at[slot].stamp == d.stamp
				}
				if seen {
					if nd.penalty < nodes[j].penalty {
						nodes[j] = nd
					}
					continue
				}
				switch {
				case slot >= 0:
					d.at[slot] = wayIndex{d.stamp, int32(len(nodes))}
				case offMap == nil:
					offMap = map[wayKey]int{k: len(nodes)}
				default:
					offMap[k] = len(nodes)
				}
				next = append(next, len(nodes))
				nodes = append(nodes, nd)
			}
		}
		layer, next = next, layer
	}
	d.nodes, d.layer = nodes, layer // kept for the next call's buffers
	out := make([]botWay, 0, len(layer))
	moves, squares := make([]byte, n*len(layer)), make([]Point, n*len(layer))
	for x, i := range layer {
		nd := nodes[i]
		w := botWay{h: nd.h, lefts: nd.lefts, rights: nd.rights, off: nd.off, moves: moves[x*n : (x+1)*n : (x+1)*n], sq: squares[x*n : (x+1)*n : (x+1)*n]}
		for j, k := i, n-1; k >= 0; j, k = nodes[j].parent, k-1 {
			w.moves[k], w.sq[k] = nodes[j].letter, nodes[j].p
		}
		// The exact costs: the last square, where the car stays, and the
		// first oil slick, by where the slew would take the rest of the way.
		w.off = min(w.off, maxOffPenalty)
		w.penalty = w.off * botOffTrack
		oiled := false
		for move, q := range w.sq {
			if t.At(q).OnTrack() && p.s.hasOil(q) && !oiled {
				oiled = true
				w.penalty += p.oilCost + p.slewCost(w.moves, w.sq, move)
			}
			if !t.At(q).InPit() {
				w.penalty += botCarCost * p.meets(q, move+1, move == n-1) / 1000
			}
		}
		out = append(out, w)
	}
	return out
}

// risks works out risk from the ways each other car ahead may drive: the
// ways it is likely to (likelyPaths), and those braking a speed or two
// along the same line, count in full; any other square a free order could
// take it to counts botMay. Cars move a square at a time, all together, so
// a car that enters a square another holds at that moment crashes: a car
// on its j'th square (its first is where it starts) is there about when
// another enters it on its j-1'th to j+1'th move, on any move after once it
// has stopped, and before that if the other stops there.
func (p *botPlanner) risks(others []*RaceCar) {
	t := p.s.track
	sq := t.W * t.H
	// A slipstream and two accelerates at most; every car counts as many
	// as a new car would, so that the cars ahead's marks serve them all.
	p.moves = max(p.c.MaxSpeed, StartMaxSpeed) + 3
	n := (p.moves + 1) * sq
	d := p.d
	if len(d.risk) < n {
		d.risk, d.lastRisk, d.car, d.riskSet = make([]int, n), make([]int, n), make([]int32, 2*n), nil
	}
	p.risk, p.lastRisk = d.risk[:n], d.lastRisk[:n]
	for _, k := range d.riskSet { // what the last turn's risks set
		if k >= len(d.risk) {
			d.lastRisk[k-len(d.risk)] = 0
		} else {
			d.risk[k] = 0
		}
	}
	d.riskSet = d.riskSet[:0]
	car := d.car[:2*n] // one car's: the most any of its ways weighs, by index into risk, then lastRisk; all 0 between cars
	var touched []int
	mark := func(k int, w int32) {
		if car[k] == 0 {
			touched = append(touched, k)
		}
		car[k] = max(car[k], w)
	}
	// at marks q as held from the car's j'th square on, until its next
	// (or for good, when it stops there).
	at := func(q Point, j int, stops bool, w int32) {
		if !t.At(q).OnTrack() {
			return
		}
		hi := min(j+1, p.moves)
		if stops {
			hi = p.moves
		}
		for move := max(1, j-1); move <= hi; move++ {
			mark(move*sq+t.idx(q), w)
		}
		for move := 1; move <= hi; move++ {
			mark(n+move*sq+t.idx(q), w)
		}
	}
	for _, o := range others {
		// What a car adds depends on the track, the car and how many moves
		// are counted alone: every car behind it asks the same.
		key := riskKey{o.Pos, o.Heading, o.Speed, o.MaxSpeed, p.moves}
		marks, known := d.marks[key]
		if !known {
			touched = touched[:0]
			lo := max(0, o.Speed-2) // the fewest moves it may make
			for _, way := range p.d.likelyPaths(t, o) {
				for j, q := range way {
					at(q, j, j == len(way)-1 || j >= lo, 1000)
				}
			}
			for j, layer := range reach(t, p.d.allowed(t, o.Pos), o.Pos, o.Heading, min(o.MaxSpeed, o.Speed+2)) {
				for _, q := range layer {
					at(q, j, j >= lo, botMay)
				}
			}
			marks = make([]riskMark, len(touched))
			for i, k := range touched {
				marks[i] = riskMark{int32(k), car[k]}
				car[k] = 0
			}
			if len(d.marks) >= botMarksKept {
				clear(d.marks) // a bound on what is kept: it is worked out again as needed
			}
			d.marks[key] = marks
		}
		for _, m := range marks {
			if k := int(m.k); k >= n {
				p.lastRisk[k-n] += int(m.w)
				d.riskSet = append(d.riskSet, k-n+len(d.risk))
			} else {
				p.risk[k] += int(m.w)
				d.riskSet = append(d.riskSet, k)
			}
		}
	}
}

// riskKey is what the risk a car adds for those behind it depends on.
type riskKey struct {
	pos          Point
	h            Heading
	speed, max   int
	movesCounted int
}

// riskMark is what a car adds to one index of the risk tables (by index
// into risk, then lastRisk).
type riskMark struct{ k, w int32 }

// botMarksKept bounds the cars' risk marks a driveTable keeps.
const botMarksKept = 4096

// reach is every square a car on p heading h can be on after each of n
// moves, turning at most once to each side: its j'th layer is where it may
// be after j moves.
func reach(t *Track, ok func(Point) bool, p Point, h Heading, n int) [][]Point {
	layers := [][]Point{{p}}
	now := []carMove{{p: p, h: h}}
	for range n {
		var next []carMove
		var squares []Point
		for _, st := range now {
			for _, l := range [...]byte{'M', 'L', 'R'} {
				x, moved := st.next(l, 1)
				if !moved || !ok(x.p) || slices.Contains(next, x) {
					continue
				}
				next = append(next, x)
				if !slices.Contains(squares, x.p) {
					squares = append(squares, x.p)
				}
			}
		}
		now = next
		layers = append(layers, squares)
	}
	return layers
}

// meets is how likely (in thousandths, summed over the cars ahead) another
// car is to be on q, or to come onto it, about when the car enters it on its
// move'th square; on the last square, also any time later, when the car has
// stopped there (see risks).
func (p *botPlanner) meets(q Point, move int, last bool) int {
	t := p.s.track
	if move > p.moves || t.At(q) == Off {
		return 0
	}
	k := move*t.W*t.H + t.idx(q)
	if last {
		return p.lastRisk[k]
	}
	return p.risk[k]
}

// oilNear is how near (in squares, either way) a slick must lie to the car
// for oilUnavoidable to look for a way round it.
const oilNear = 4

// oilUnavoidable says whether the slicks near the car and ahead of it
// leave it no headway: no chain of moves from its square and heading (a
// square each, turning an eighth at most, keeping to the squares it may
// drive), as many as it could make this turn and the next at a speed more
// a turn (2*speed+3), gets past the furthest of them, or half a square a
// move round the track, without entering a slick. Then waiting for a way
// round gains nothing the bot can see, and a slick costs only what its
// slew does: a bot that charged it in full found turning away a little
// better every turn, and circled a cluster of slicks for 300 turns (a way
// round was there, but only by a turn about the straight that no order of
// two turns finds).
func (p *botPlanner) oilUnavoidable() bool {
	t, c := p.s.track, p.c
	from := t.Progress(c.Pos)
	near := func(q Point, n int) bool { return max(q.X-c.Pos.X, c.Pos.X-q.X, q.Y-c.Pos.Y, c.Pos.Y-q.Y) <= n }
	far := -1
	for _, o := range p.s.Oil {
		if near(o, oilNear) && t.At(o).OnTrack() {
			if a := t.ahead(from, t.Progress(o)); a > 0 {
				far = max(far, a)
			}
		}
	}
	if far < 0 || from < 0 {
		return false
	}
	ok := p.d.allowed(t, c.Pos)
	type at struct {
		p Point
		h Heading
	}
	type step struct {
		at
		moves int
	}
	most := 2*c.Speed + 3
	// Headway enough: past the furthest slick, or half a square a move.
	need := min(far+1, most*side/2)
	seen := map[at]bool{{c.Pos, c.Heading}: true}
	queue := []step{{at{c.Pos, c.Heading}, 0}}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if m.moves == most {
			continue
		}
		for _, l := range [...]byte{'M', 'L', 'R'} {
			h := m.h.Steer(l)
			dx, dy := h.Step()
			q := Point{m.p.X + dx, m.p.Y + dy}
			if !near(q, 2*oilNear) || !ok(q) || p.s.hasOil(q) || seen[at{q, h}] {
				continue
			}
			if t.ahead(from, t.Progress(q)) >= need {
				return false // a way round
			}
			seen[at{q, h}] = true
			queue = append(queue, step{at{q, h}, m.moves + 1})
		}
	}
	return true
}

// slewCost is what an oil slick on the i'th square of moves is likely to
// cost: the car slews left or right there, by a coin, and drives the rest of
// its moves from the new heading; each square that takes it off the track
// (at most maxOilPenalty count) is worth half of botOilOff.
func (p *botPlanner) slewCost(moves []byte, sq []Point, i int) int {
	t := p.s.track
	h := p.c.Heading
	for _, l := range moves[:i+1] {
		h = h.Steer(l)
	}
	cost := 0
	for _, side := range []int{-1, 1} {
		at, sh, off := sq[i], h.Turn(side), 0
		for _, l := range moves[i+1:] {
			sh = sh.Steer(l)
			dx, dy := sh.Step()
			at = Point{at.X + dx, at.Y + dy}
			if !t.At(at).OnTrack() {
				off++
			}
		}
		cost += min(off, maxOilPenalty) * botOilOff / 2
	}
	return cost
}

// cruiseOff is how many squares off the track a car on p heading h at speed
// would drive if it missed its next turn: it goes straight on at its speed.
func cruiseOff(t *Track, p Point, h Heading, speed int) int {
	off := 0
	dx, dy := h.Step()
	for range speed {
		p = Point{p.X + dx, p.Y + dy}
		if !t.At(p).OnTrack() {
			off++
		}
	}
	return off
}

// against is how far h heads away from the way round, along: 0 for along
// it or 45 degrees off, then 1 for each eighth of a turn more. A car that
// an oil slick or a crash left heading the wrong way turns round by it: the
// ground it gains this turn and next does not show it the way.
func against(h, along Heading) int {
	d := (int(h) - int(along) + 8) % 8
	return max(0, min(d, 8-d)-1)
}

// wildcards is what an order of that shape (the b'th of botBefore then
// botSlipBefore, n moves with that many turns to each side, botAfter[a])
// costs the car, by the rules' own Check; -1 if it is refused. The answer
// depends on the car's numbers alone, so the track's table keeps it for
// every car.
func (p *botPlanner) wildcards(b, a, lefts, rights, n int) int {
	car := p.car
	if p.legal == nil {
		k := legalKey{car.Speed, car.MaxSpeed, car.Wildcards, car.Upgrade, car.CanSlipstream}
		if p.legal = p.d.legal[k]; p.legal == nil {
			p.legal = &legalTable{}
			if len(p.d.legal) >= botLegalKept {
				clear(p.d.legal) // a bound on what is kept: it is worked out again as needed
			}
			p.d.legal[k] = p.legal
		}
	}
	wc := &p.legal[b][a][lefts][rights]
	if *wc != 0 {
		return int(*wc) - 2
	}
	before := ""
	if b < len(botBefore) {
		before = botBefore[b]
	} else {
		before = botSlipBefore[b-len(botBefore)]
	}
	o := Order{}
	for i := range before {
		o.Before = append(o.Before, Token{Letter: before[i]})
	}
	for i := range n {
		l := byte('M')
		switch {
		case i < lefts:
			l = 'L'
		case i < lefts+rights:
			l = 'R'
		}
		o.Moves = append(o.Moves, Token{Letter: l})
	}
	for _, l := range []byte(botAfter[a]) {
		o.After = append(o.After, Token{Letter: l})
	}
	cost := -1
	if plan, err := Check(o, car); err == nil {
		cost = plan.Wildcards
	}
	*wc = int8(cost + 2)
	return cost
}

// legalKey is what an order's legality and cost depend on besides its
// letters: the car's numbers.
type legalKey struct {
	speed, max, wildcards int
	upgrade               Upgrade
	slipstream            bool
}

// legalTable is what each shape of order costs a car (see wildcards), plus
// two; 0 when not yet known.
type legalTable [len(botBefore) + len(botSlipBefore)][len(botAfter)][maxOfAKind + 1][maxOfAKind + 1]int8

// botLegalKept bounds the cars' order costs a driveTable keeps.
const botLegalKept = 4096

// walker finds every way to drive a number of squares: M, L and R, each
// square one that ok takes, at most one turn to each side (as a free order
// may: a second costs a wildcard).
type walker struct {
	ok func(Point) bool
	sq []Point
	// visit is called at the end of each way, with the heading there; it
	// returns false to stop the walk.
	visit func(h Heading) bool
}

func newWalker(ok func(Point) bool) *walker { return &walker{ok: ok} }

// walk goes n squares on from p heading h; it reports whether to go on.
func (w *walker) walk(p Point, h Heading, n int) bool {
	return w.walkOn(carMove{p: p, h: h}, n)
}

func (w *walker) walkOn(m carMove, n int) bool {
	if n == 0 {
		return w.visit(m.h)
	}
	for _, l := range [...]byte{'M', 'L', 'R'} {
		x, moved := m.next(l, 1)
		if !moved || !w.ok(x.p) {
			continue
		}
		w.sq = append(w.sq, x.p)
		more := w.walkOn(x, n-1)
		w.sq = w.sq[:len(w.sq)-1]
		if !more {
			return false
		}
	}
	return true
}

// driveSpeeds bounds the speeds the bot works out braking for; a car faster
// than that (a max speed raised far by pit stops) brakes first.
const driveSpeeds = 32

// drivePool keeps a track's driveTables: one bot decision holds one, so
// that bots of races played at once on one track (the simulator's workers)
// do not wait for each other, while each table stays warm across turns. A
// table is a memo of the track alone, so which one a decision gets changes
// nothing it decides.
type drivePool struct {
	mu   sync.Mutex
	free []*driveTable
}

func (p *drivePool) get() *driveTable {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		d := p.free[n-1]
		p.free = p.free[:n-1]
		return d
	}
	return &driveTable{}
}

// put gives d back, to be kept for the next decision; past as many tables
// as the process runs goroutines at once (a road course's is about 10 MB),
// it is let go.
func (p *drivePool) put(d *driveTable) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < runtime.GOMAXPROCS(0) {
		p.free = append(p.free, d)
	}
}

// driveTable is what the bot knows about driving a track, worked out as it
// is needed and kept for later decisions on it: it depends on the track
// alone. One decision at a time uses it (drivePool).
type driveTable struct {
	// brakes: for a car on a square with a heading, starting a turn at a
	// speed: 1 if it can brake a speed a turn and keep to the track, -1 if
	// not, 0 not yet known.
	brakes []int8
	// next: the most ground a free order gains from there, ending where the
	// car can brake in time (plus one; 0 not yet known), by whether the car
	// may accelerate.
	next []int32
	// along is the heading along the track on each square (Track.Along).
	along []Heading
	// The buffers of botPlanner.ways, kept between turns: at is the node of
	// each wayKey (by slot) in the layer stamped stamp.
	at    []wayIndex
	stamp uint32
	nodes []wayNode
	layer []int
	// The risk tables of a bot's turn (botPlanner.risks), kept between turns.
	risk, lastRisk []int
	car            []int32
	riskSet        []int // indices set in risk, then (from len(risk) on) lastRisk
	marks          map[riskKey][]riskMark
	legal          map[legalKey]*legalTable // botPlanner.wildcards
	// pit says the track has a pit lane, whose entry marker is entry,
	// entryProg round the lap.
	pit       bool
	entry     Point
	entryProg int
}

func (d *driveTable) init(t *Track) {
	if d.brakes != nil {
		return
	}
	d.brakes = make([]int8, t.W*t.H*8*driveSpeeds)
	d.next = make([]int32, 2*len(d.brakes))
	d.marks = map[riskKey][]riskMark{}
	d.legal = map[legalKey]*legalTable{}
	d.at = make([]wayIndex, 2*t.W*t.H*8*(maxOfAKind+1)*(maxOfAKind+1))
	d.along = make([]Heading, t.W*t.H)
	for i := range d.along {
		d.along[i] = t.Along(t.point(i))
	}
	// The pit entry: the marker the other lies a short way ahead of, each
	// as far round as the racing squares beside it (as the lap has it).
	var markers []Point
	var at []int
	for y := range t.H {
		for x := range t.W {
			if p := (Point{x, y}); t.At(p) == Marker {
				best := -1
				for _, n := range neighbours {
					q := Point{p.X + n[0], p.Y + n[1]}
					if sq := t.At(q); sq.OnTrack() && !sq.InPit() && sq != Finish {
						best = max(best, t.Progress(q))
					}
				}
				markers, at = append(markers, p), append(at, best)
			}
		}
	}
	for i := range markers {
		ahead := at[i] >= 0
		for j := range markers {
			if j != i && at[j] >= 0 && t.ahead(at[i], at[j]) <= 0 {
				ahead = false
			}
		}
		if ahead {
			d.pit, d.entry, d.entryProg = true, markers[i], at[i]
			return
		}
	}
}

// alongAt is Track.Along, worked out once.
func (d *driveTable) alongAt(t *Track, p Point) Heading {
	if p.X < 0 || p.Y < 0 || p.X >= t.W || p.Y >= t.H {
		return t.Heading // as Along has it off the track
	}
	return d.along[t.idx(p)]
}

// canSlowFor says whether a car on p, starting its next turn at speed, can
// brake a speed a turn to the pit speed limit before it comes to the pit
// entry (or has passed it).
func (d *driveTable) canSlowFor(t *Track, p Point, speed int) bool {
	dist := t.ahead(t.Progress(p), d.entryProg)
	if dist < 0 {
		return true
	}
	need := 0
	for v := speed - 1; v > PitSpeedLimit; v-- {
		need += v * side
	}
	return dist >= need
}

func (d *driveTable) key(t *Track, p Point, h Heading, speed int) int {
	return (t.idx(p)*8+int(h))*driveSpeeds + speed
}

// allowed is the squares a car starting on from keeps to: the racing track,
// and the pit lane only for a car already in it.
func (d *driveTable) allowed(t *Track, from Point) func(Point) bool {
	if t.At(from).InPit() {
		return func(q Point) bool { return t.At(q).OnTrack() }
	}
	return func(q Point) bool { q2 := t.At(q); return q2.OnTrack() && !q2.InPit() }
}

// safe says whether a car on p heading h, starting its next turn at speed,
// can brake a speed a turn (one B, free) to a standstill and keep to the
// track, turning at most once to each side a turn (free too).
func (d *driveTable) safe(t *Track, p Point, h Heading, speed int) bool {
	if speed >= driveSpeeds || speed < 0 || !t.At(p).OnTrack() {
		return false
	}
	k := d.key(t, p, h, speed)
	if v := d.brakes[k]; v != 0 {
		return v > 0
	}
	// At speed 1 the car can stop; it must only be able to move on again.
	n := max(1, speed-1)
	found := false
	w := newWalker(d.allowed(t, p))
	w.visit = func(eh Heading) bool {
		found = speed <= 1 || d.safe(t, w.sq[len(w.sq)-1], eh, n)
		return !found
	}
	w.walk(p, h, n)
	d.brakes[k] = -1
	if found {
		d.brakes[k] = 1
	}
	return found
}

// nextGain is the most ground a free order (one A or one B, at most one turn
// to each side) gains from p heading h at speed, ending where the car can
// still brake in time; a large negative number if there is none.
func (d *driveTable) nextGain(t *Track, p Point, h Heading, speed int, accelerate bool) int {
	const none = -botUnsafe
	if speed >= driveSpeeds {
		return none
	}
	k := 2 * d.key(t, p, h, speed)
	if accelerate {
		k++
	}
	if v := d.next[k]; v != 0 {
		return int(v - 1)
	}
	best := none
	from := t.Progress(p)
	hi := speed
	if accelerate {
		hi++
	}
	for u := max(0, speed-1); u <= hi; u++ {
		if u == 0 {
			best = max(best, 0) // standing still
			continue
		}
		w := newWalker(d.allowed(t, p))
		w.visit = func(eh Heading) bool {
			end := w.sq[len(w.sq)-1]
			if d.safe(t, end, eh, u) {
				best = max(best, t.ahead(from, t.Progress(end)))
			}
			return true
		}
		w.walk(p, h, u)
	}
	d.next[k] = int32(best + 1)
	return best
}

// likelyPaths are where car o is likely to drive this turn, each its square
// now first: the free orders (one A or B before, one after, at most one turn
// to each side) that a bot would find about as good as the best, gaining as
// much ground this turn and next and leaving the car able to brake in time.
func (d *driveTable) likelyPaths(t *Track, o *RaceCar) [][]Point {
	type cand struct {
		sq    []Point
		score int
	}
	var cands []cand
	bestScore := -1 << 40
	from := t.Progress(o.Pos)
	for u := max(0, o.Speed-1); u <= min(o.MaxSpeed, o.Speed+1); u++ {
		if u == 0 {
			cands = append(cands, cand{[]Point{o.Pos}, 0})
			bestScore = max(bestScore, 0)
			continue
		}
		if u >= driveSpeeds {
			continue
		}
		w := newWalker(d.allowed(t, o.Pos))
		w.visit = func(eh Heading) bool {
			end := w.sq[len(w.sq)-1]
			score := -1 << 40
			for e := max(0, u-1); e <= min(o.MaxSpeed, u+1); e++ {
				if d.safe(t, end, eh, e) {
					score = max(score, d.nextGain(t, end, eh, e, e < o.MaxSpeed))
				}
			}
			if score == -1<<40 {
				return true
			}
			score += t.ahead(from, t.Progress(end)) - botAgainst*against(eh, d.alongAt(t, end))
			if score >= bestScore-botLikely {
				cands = append(cands, cand{append([]Point{o.Pos}, w.sq...), score})
				bestScore = max(bestScore, score)
			}
			return true
		}
		w.walk(o.Pos, o.Heading, u)
	}
	var out [][]Point
	for _, c := range cands {
		if c.score >= bestScore-botLikely {
			out = append(out, c.sq)
		}
	}
	if len(out) == 0 {
		out = append(out, []Point{o.Pos})
	}
	return out
}
