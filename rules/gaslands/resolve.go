package gaslands

import (
	"fmt"
	"math"
	"strings"

	"pitwall/dice"
	"pitwall/internal/words"
	"pitwall/race"
)

// An activation, step by step as the text orders it (docs/rules/gaslands.md):
// the template and its class in the kart's gear, skid dice, Push It, SHIFT
// results, hazards, the move along the template (collisions, boosts, item
// boxes and gates on the way), the slide, road to off-road, the spin, the
// attack, the owner's Bullet Bills, and the wipeout step.

type play struct {
	s   *State
	d   *dice.Roller
	ev  []race.Event
	act *Activation
	// credits are the gates the moving kart has been given in the motion it
	// is on, so that settle can take back those it is put back behind.
	credits []credit
}

// credit is a gate counted at a step of a motion: the step ran from u0 to u1,
// and the kart was due at gate, on lap, before it.
type credit struct {
	u0, u1    float64
	gate, lap int
}

func (p *play) say(seat int, kind, format string, a ...any) {
	text := fmt.Sprintf(format, a...)
	if strings.HasPrefix(text, "the ") || strings.HasPrefix(text, "a ") {
		text = strings.ToUpper(text[:1]) + text[1:] // "the warp pipe rolls..." starts a sentence
	}
	p.ev = append(p.ev, race.Event{Seat: seat, Kind: kind, Text: text})
}

func (p *play) roll(seat int, reason string) int { return p.d.Roll(seat, reason, dice.D6) }

func (p *play) hazard(i, n int, why string) {
	if n <= 0 {
		return
	}
	k := &p.s.Karts[i]
	k.Hazards += n
	p.say(k.Seat, "hazard", "%s gains %s (%s): %d now.", k.Name, plural(n, "hazard token"), why, k.Hazards)
}

var plural = words.Count

// activate plays the active kart's activation with order o.
func (p *play) activate(o Order) {
	s := p.s
	i := s.Active
	k := &s.Karts[i]
	if o.Collide != "" {
		k.Collide = o.Collide
	}
	t, _ := s.M.Template(o.Template) // checked by ParseOrder
	name := o.Template
	if o.Side {
		name += " " + sideName(o.Left)
	}
	p.act = &Activation{Seat: k.Seat, Template: name, Start: k.Pos}
	p.say(k.Seat, "move", "%s (gear %d, %s) takes the %s.", k.Name, k.Gear, plural(k.Hazards, "hazard"), name)

	count := p.skidStep(i, t, o)

	// The move.
	start := k.Pos
	startOnRoad := s.track.RectOnRoad(start)
	outline := placeOutline(t, o.Left, start)
	p.act.Outline = outline
	p.act.Path = []Vec{start.Centre}
	boosted := p.move(i, templateMotion(t, o.Left, start), true, o)
	if boosted && (count[Slide] > 0 || count[Spin] > 0) {
		p.say(k.Seat, "skid", "The skid effects wait for the end of the forced move.")
	}
	k = &s.Karts[i]
	// The slide: momentum carries the kart on the way it faced before the template.
	if count[Slide] > 0 && !k.Finished {
		from := k.Pos
		dir := heading(start.Heading)
		p.act.Slide = []Vec{from.Centre}
		p.say(k.Seat, "slide", "%s slides %.0f mm on, the way it was heading.", k.Name, s.M.Slide)
		p.move(i, motion{Len: s.M.Slide, At: func(u float64) Rect { r := from; r.Centre = from.Centre.Add(dir.Scale(u)); return r }}, false, o)
		k = &s.Karts[i]
		p.act.Slide = append(p.act.Slide, k.Pos.Centre)
	}
	if startOnRoad && s.track.RectOffRoad(k.Pos) && !k.Finished {
		p.hazard(i, 1, "off the road")
	}
	if count[Spin] > 0 && !k.Finished {
		p.spin(i, o)
	}
	if o.Push {
		if startOnRoad && s.track.RectOnRoad(s.Karts[i].Pos) && s.track.onRoadAll(outline) {
			p.say(k.Seat, "skid", "Push It is free: the move started, ran and ended on the road.")
		} else {
			p.hazard(i, 1, "Push It")
		}
	}

	// The attack step.
	if o.Shell != "" && !s.Karts[i].Finished {
		p.shell(i, o.Shell)
	}
	if o.Bill && !s.Karts[i].Finished {
		k := &s.Karts[i]
		front := k.Pos.Centre.Add(heading(k.Pos.Heading).Scale(float64(k.Pos.Length/2) + (BillLength/2 + 5))) // 5 mm clear of the nose, one addition as before
		s.Bills = append(s.Bills, Bill{Owner: k.Seat, Pos: Rect{Centre: front, Heading: k.Pos.Heading, Length: BillLength, Width: BillWidth}})
		k.Item = ""
		p.say(k.Seat, "item", "%s fires a Bullet Bill.", k.Name)
	}
	// A Bullet Bill is in gear 2: it flies in gear phases 1 and 2 only
	// (bill=every-activation: after each of its owner's activations).
	if s.Phase <= BillGear || s.BillEveryAct {
		p.bills(s.Karts[i].Seat)
	}
	p.wipeouts()
}

// skidStep is the activation up to the move: the chart's class, the skid
// dice, Push It and the SHIFT results, and the hazards they leave. It returns
// the faces that stand (SLIDE and SPIN act later). Choices works out its odds.
func (p *play) skidStep(i int, t Template, o Order) map[Skid]int {
	s := p.s
	k := &s.Karts[i]
	// The chart: a hazardous template costs a token; a trivial one gives a
	// free SHIFT result, spent below with the dice's (or, trivial=token,
	// sheds a token).
	class := s.M.Class(t.Name, k.Gear)
	switch {
	case class == Hazardous:
		p.hazard(i, 1, fmt.Sprintf("the %s is hazardous in gear %d", t.Name, k.Gear))
	case class == Trivial && s.TrivialToken:
		if k.Hazards > 0 {
			k.Hazards--
			p.say(k.Seat, "hazard", "The %s is trivial in gear %d: %s sheds a hazard token (%d now).", t.Name, k.Gear, k.Name, k.Hazards)
		}
	case class == Trivial:
		p.say(k.Seat, "skid", "The %s is trivial in gear %d: a free SHIFT.", t.Name, k.Gear)
	}

	// Skid dice, Push It and the SHIFT results.
	faces := make([]Skid, o.Skid)
	for j := range faces {
		faces[j] = SkidDie[p.roll(k.Seat, "skid die")-1]
	}
	if o.Skid > 0 {
		p.say(k.Seat, "skid", "Skid dice: %s.", faceList(faces))
	}
	if o.Push {
		n := 0
		for j, f := range faces {
			if f != Shift {
				faces[j] = SkidDie[p.roll(k.Seat, "skid die, pushed")-1]
				n++
			}
		}
		if n > 0 {
			p.say(k.Seat, "skid", "Push It: %s re-rolled: %s.", plural(n, "die"), faceList(faces))
		} else {
			p.say(k.Seat, "skid", "Push It: every die shows SHIFT, nothing to re-roll.")
		}
	}
	count := map[Skid]int{}
	for _, f := range faces {
		count[f]++
	}
	shifts := count[Shift]
	if class == Trivial && !s.TrivialToken {
		shifts++
	}
	for n := abs(o.Shift); n > 0 && shifts > 0; n-- {
		dir := 1
		if o.Shift < 0 {
			dir = -1
		}
		g := k.Gear + dir
		if g < 1 || g > k.MaxGear {
			p.say(k.Seat, "gear", "%s cannot shift to gear %d (1 to %d): the SHIFT is kept.", k.Name, g, k.MaxGear)
			break
		}
		shifts--
		k.Gear = g
		p.say(k.Seat, "gear", "A SHIFT shifts %s %s to gear %d.", k.Name, map[int]string{1: "up", -1: "down"}[dir], g)
		p.hazard(i, 1, "shifting gear")
	}
	// The SHIFTs left cancel the worst results first, then tokens on the
	// kart; a SPIN the order asks to turn with is kept.
	for _, f := range discardOrder(o) {
		for shifts > 0 && count[f] > 0 {
			shifts--
			count[f]--
			p.say(k.Seat, "skid", "A SHIFT discards a %s.", strings.ToUpper(f.String()))
		}
	}
	for ; shifts > 0 && k.Hazards > 0; shifts-- {
		k.Hazards--
		p.say(k.Seat, "skid", "A SHIFT discards a hazard token from %s (%d now).", k.Name, k.Hazards)
	}
	p.hazard(i, count[Hazard]+count[Slide]+count[Spin], "skid dice")
	var kept []string
	for _, f := range faces {
		kept = append(kept, f.String())
	}
	p.act.Skid = kept
	return count
}

// discardOrder is the results SHIFTs discard, first first: a SLIDE, a SPIN,
// a HAZARD; an order that says which way to spin keeps its SPIN.
func discardOrder(o Order) []Skid {
	if o.SpinSet {
		return []Skid{Slide, Hazard}
	}
	return []Skid{Slide, Spin, Hazard}
}

func faceList(fs []Skid) string {
	var w []string
	for _, f := range fs {
		w = append(w, strings.ToUpper(f.String()))
	}
	return strings.Join(w, ", ")
}

// A motion is a kart's rectangle at each distance along a move, 0 to Len.
type motion struct {
	At  func(u float64) Rect
	Len float64
}

// templateMotion: the kart's rear middle runs straight to the template's
// start (the kart's front), then along the template, so that the kart ends
// as Template.Move places it, facing the way the path runs.
func templateMotion(t Template, left bool, k Rect) motion {
	h0 := heading(k.Heading)
	rear0 := k.Centre.Sub(h0.Scale(k.Length / 2))
	front0 := k.Centre.Add(h0.Scale(k.Length / 2))
	pl := t.PathLength()
	return motion{Len: k.Length + pl, At: func(u float64) Rect {
		r := k
		if u <= k.Length {
			r.Centre = rear0.Add(h0.Scale(u + float64(k.Length/2)))
			return r
		}
		pt, h := t.Pose(math.Min(1, (u-k.Length)/pl), left)
		rear := front0.Add(pt.Rotate(k.Heading))
		r.Heading = k.Heading + h
		r.Centre = rear.Add(heading(r.Heading).Scale(k.Length / 2))
		return r
	}}
}

// placeOutline is the template laid at the kart's front.
func placeOutline(t Template, left bool, k Rect) []Vec {
	front := k.Centre.Add(heading(k.Heading).Scale(k.Length / 2))
	var out []Vec
	for _, v := range t.Outline(left) {
		out = append(out, front.Add(v.Rotate(k.Heading)))
	}
	return out
}

// A contact is what a moving rectangle met first.
type contact struct {
	kind string // "kart", "obstruction", "edge", "bill"
	idx  int
}

// blockers are the things on the table a moving rectangle can meet, other
// than itself: karts racing, obstructions standing, Bullet Bills, and the
// table's edge.
func (s *State) touching(r Rect, selfKart, selfBill int, through map[int]bool) *contact {
	if !s.track.Inside(r) {
		return &contact{kind: "edge"}
	}
	for j, o := range s.track.Obstructions {
		if !s.gone(j) && o.Rect.Overlaps(r) {
			return &contact{kind: "obstruction", idx: j}
		}
	}
	for j, k := range s.Karts {
		if j != selfKart && !k.Finished && !through[j] && k.Pos.Overlaps(r) {
			return &contact{kind: "kart", idx: j}
		}
	}
	for j, b := range s.Bills {
		if j != selfBill && b.Pos.Overlaps(r) {
			return &contact{kind: "bill", idx: j}
		}
	}
	return nil
}

// sweepStep is how finely a move is checked for contact, in mm.
const sweepStep = 4.0

// sweep runs m from a to b and returns the distance of first contact (the
// last free point before it) and what was met; nil when the way is clear.
// Karts in through are driven through. A move starts clear: nothing on the
// table ever overlaps (the replay test checks it after every activation).
func (s *State) sweep(m motion, a, b float64, selfKart, selfBill int, through map[int]bool) (float64, *contact) {
	hit := func(u float64) *contact { return s.touching(m.At(u), selfKart, selfBill, through) }
	prev := a
	for u := a; ; {
		u = math.Min(b, u+sweepStep)
		if c := hit(u); c != nil {
			lo, hi := prev, u
			for n := 0; n < 12; n++ {
				mid := (lo + hi) / 2
				if hit(mid) != nil {
					hi = mid
				} else {
					lo = mid
				}
			}
			return lo, hit(hi)
		}
		prev = u
		if u >= b {
			return b, nil
		}
	}
}

// move runs kart i along m, meeting what is in the way. The main move (main)
// can run onto a boost, which straightens the kart, carries it down the boost
// and forces a second template; it reports whether it did (a kart with no
// room on the boost drives on past it, once).
//
// As in the core game, a kart that meets another collides and drives on
// through it: collisions change no kart's course. It never ends a move on top
// of one, though: it stops short, where it last had room. Immovable
// obstructions and the table's edge stop it; destructible ones go.
func (p *play) move(i int, m motion, main bool, o Order) bool {
	s := p.s
	through := map[int]bool{}
	p.credits = nil
	u := 0.0
	for guard := 0; guard < 64 && u < m.Len; guard++ {
		stop, c := s.sweep(m, u, m.Len, i, -1, through)
		// Boosts, item boxes and gates along the stretch just run.
		if main {
			if bu, bi, ok := p.boostOn(m, u, stop); ok {
				p.travel(i, m, u, bu)
				if p.boost(i, bi, o) {
					return true
				}
				main, u = false, bu
				continue
			}
		}
		if c == nil {
			p.travel(i, m, u, m.Len)
			p.settle(i, m, m.Len)
			return false
		}
		p.travel(i, m, u, stop)
		u = stop
		k := s.Karts[i]
		switch c.kind {
		case "kart":
			p.mark(k.Pos, s.Karts[c.idx].Pos)
			p.collideKarts(i, c.idx)
			if s.KartHitStops && !s.Karts[i].Finished {
				p.say(k.Seat, "move", "%s stops against %s.", k.Name, s.Karts[c.idx].Name)
				p.settle(i, m, u)
				return false
			}
			through[c.idx] = true
		case "bill":
			p.mark(k.Pos, s.Bills[c.idx].Pos)
			p.billHits(c.idx, i)
		case "edge":
			p.act.Hits = append(p.act.Hits, k.Pos.Centre.Add(heading(k.Pos.Heading).Scale(k.Pos.Length/2)))
			p.collideObject(i, "the table's edge", Heavy)
			p.settle(i, m, u)
			return false
		case "obstruction":
			ob := s.track.Obstructions[c.idx]
			p.mark(k.Pos, ob.Rect)
			if ob.Kind == Immovable {
				p.collideObject(i, "the "+ob.Name, Heavy)
				p.settle(i, m, u)
				return false
			}
			p.collideObject(i, "a "+ob.Name, Middle)
			s.Gone = append(s.Gone, c.idx)
			p.say(-1, "obstruction", "The %s is gone.", ob.Name)
		}
		if s.Karts[i].Finished {
			return false
		}
	}
	p.settle(i, m, u)
	return false
}

// mark notes where a collision happened, for the picture.
func (p *play) mark(a, b Rect) {
	if c, ok := contactPoint(a, b); ok {
		p.act.Hits = append(p.act.Hits, c)
		return
	}
	p.act.Hits = append(p.act.Hits, a.Centre.Add(heading(a.Heading).Scale(a.Length/2)))
}

// settle leaves kart i, come to distance at along m, where it last had room:
// no kart ends a move on top of another.
func (p *play) settle(i int, m motion, at float64) {
	s := p.s
	k := &s.Karts[i]
	if k.Finished {
		return
	}
	free := func(u float64) bool { return s.touching(m.At(u), i, -1, nil) == nil }
	if free(at) {
		return
	}
	v := at
	for v > 0 && !free(v) {
		v = math.Max(0, v-sweepStep)
	}
	lo, hi := v, math.Min(at, v+sweepStep)
	for n := 0; n < 12; n++ {
		if mid := (lo + hi) / 2; free(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	k.Pos = m.At(lo)
	p.act.Path = append(p.act.Path, k.Pos.Centre)
	p.say(k.Seat, "move", "%s stops %.0f mm short: no room to end its move clear of the karts it drove through.", k.Name, at-lo)
	p.uncount(i, m, lo)
}

// uncount takes back the gates kart i was given in motion m beyond lo,
// where it has been put back: a gate counts only for a kart past it.
func (p *play) uncount(i int, m motion, lo float64) {
	s := p.s
	k := &s.Karts[i]
	for n := len(p.credits) - 1; n >= 0; n-- {
		c := p.credits[n]
		g := s.track.Gates[c.gate]
		if lo >= c.u1 || (lo > c.u0 && segmentsCross(m.At(c.u0).Centre, m.At(lo).Centre, g.A, g.B)) {
			break // it still stands past this gate, and so past the ones before
		}
		p.credits = p.credits[:n]
		k.Gate, k.Lap = c.gate, c.lap
		switch {
		case c.gate == 0 && k.Lap == 0: // on the grid still
			p.say(k.Seat, "lap", "%s is back behind the line.", k.Name)
		case c.gate == 0:
			p.say(k.Seat, "lap", "%s is back behind the line: still on lap %d of %d.", k.Name, k.Lap, s.Laps)
		default:
			p.say(k.Seat, "lap", "%s is back behind gate %d, which it has still to pass.", k.Name, c.gate)
		}
	}
}

// travel moves kart i from a to b along m: gates crossed and item boxes
// touched on the way are counted; the picture gets the path.
func (p *play) travel(i int, m motion, a, b float64) {
	s := p.s
	k := &s.Karts[i]
	prev := m.At(a).Centre
	for u := a; u < b; {
		u0 := u
		u = math.Min(b, u+sweepStep)
		r := m.At(u)
		if gate, lap := k.Gate, k.Lap; p.gates(i, prev, r.Centre) {
			p.credits = append(p.credits, credit{u0: u0, u1: u, gate: gate, lap: lap})
		}
		prev = r.Centre
		if k.Finished {
			k.Pos = r
			p.act.Path = append(p.act.Path, r.Centre)
			return
		}
		if k.Item == "" {
			for _, box := range s.track.ItemBoxes {
				if rectNear(r, box, ItemBoxRadius) {
					k.Item = ItemTable[p.roll(k.Seat, "item box")-1]
					p.say(k.Seat, "item", "%s drives through an item box: %s.", k.Name, itemName(k.Item))
					break
				}
			}
		}
	}
	k.Pos = m.At(b)
	p.act.Path = append(p.act.Path, k.Pos.Centre)
}

// itemName is an item with its article, for a sentence: "a green shell".
func itemName(it string) string {
	if it == "" {
		return "nothing"
	}
	return "a " + itemWord(it)
}

// itemWord is an item's name: "green shell".
func itemWord(it string) string {
	switch it {
	case GreenShell:
		return "green shell"
	case RedShell:
		return "red shell"
	case BulletBill:
		return "Bullet Bill"
	}
	return it
}

// rectNear says whether a circle of radius rad round c touches r.
func rectNear(r Rect, c Vec, rad float64) bool {
	l := c.Sub(r.Centre).Rotate(-r.Heading)
	dx := math.Max(0, math.Abs(l.X)-float64(r.Length/2))
	dy := math.Max(0, math.Abs(l.Y)-float64(r.Width/2))
	return detHypot(dx, dy) < rad
}

// gates counts the gate due if the centre's step from a to b crosses it
// going forwards, and says whether it did.
func (p *play) gates(i int, a, b Vec) bool {
	s := p.s
	k := &s.Karts[i]
	if !s.track.passGate(k, a, b) {
		return false
	}
	if k.Gate != 1 {
		return true
	}
	switch {
	case k.Lap == 1:
	case k.Lap > s.Laps:
		k.Finished, k.Place, k.FinishAt = true, s.placed()+1, s.Act+1
		p.say(k.Seat, "finish", "%s crosses the line to finish %s!", k.Name, words.Nth(k.Place))
	default:
		p.say(k.Seat, "lap", "%s starts lap %d of %d.", k.Name, k.Lap, s.Laps)
	}
	return true
}

// passGate counts k's gate due if a centre's step from a to b crosses it
// going forwards (the next gate is then due, and past the line a lap is
// begun), and says whether it did.
func (t *Track) passGate(k *Kart, a, b Vec) bool {
	g := t.Gates[k.Gate]
	if !segmentsCross(a, b, g.A, g.B) {
		return false
	}
	_, h := t.At(g.S)
	if b.Sub(a).Dot(heading(h)) <= 0 {
		return false
	}
	k.Gate = (k.Gate + 1) % len(t.Gates)
	if k.Gate == 1 {
		k.Lap++
	}
	return true
}

func segmentsCross(a, b, c, d Vec) bool {
	r, q := b.Sub(a), d.Sub(c)
	den := r.Cross(q)
	if math.Abs(den) < 1e-12 {
		return false
	}
	t := c.Sub(a).Cross(q) / den
	u := c.Sub(a).Cross(r) / den
	return t > 0 && t <= 1 && u >= 0 && u <= 1
}

// boostOn finds the first point between a and b where the kart touches a boost.
func (p *play) boostOn(m motion, a, b float64) (float64, int, bool) {
	for u := a; ; {
		r := m.At(u)
		for j, bs := range p.s.track.Boosts {
			if bs.Rect.Overlaps(r) {
				return u, j, true
			}
		}
		if u >= b {
			return 0, 0, false
		}
		u = math.Min(b, u+sweepStep)
	}
}

// boost carries kart i down boost bi and makes the forced move (the text).
// It reports whether it did: a kart with no room to be straightened onto the
// boost's line is not carried.
func (p *play) boost(i, bi int, o Order) bool {
	s := p.s
	k := &s.Karts[i]
	b := s.track.Boosts[bi].Rect
	// Straightened onto the boost's line, carried to its far end.
	dir := heading(b.Heading)
	from := k.Pos
	along := from.Centre.Sub(b.Centre).Dot(dir)
	startC := b.Centre.Add(dir.Scale(along))
	endC := b.Centre.Add(dir.Scale(float64(b.Length/2) + float64(k.Pos.Length/2)))
	dist := math.Max(0, endC.Sub(startC).Dot(dir))
	carry := motion{Len: dist, At: func(u float64) Rect {
		return Rect{Centre: startC.Add(dir.Scale(u)), Heading: b.Heading, Length: from.Length, Width: from.Width}
	}}
	if s.touching(carry.At(0), i, -1, nil) != nil {
		p.say(k.Seat, "boost", "%s touches the boost but has no room to be straightened onto it, and drives on.", k.Name)
		return false
	}
	p.say(k.Seat, "boost", "%s hits the boost: straightened and carried down it.", k.Name)
	k.Pos = carry.At(0)
	if p.move(i, carry, false, o); s.Karts[i].Finished {
		return true
	}
	k = &s.Karts[i]
	if !k.Pos.Centre.Near(endC, 0.5) {
		return true // stopped on the way
	}
	name, left := o.Boost, o.BoostLeft
	if name == "" {
		name = "medium"
	}
	t, err := s.M.Template(name)
	if err != nil {
		t, _ = s.M.Template(s.M.Templates[0].Name)
	}
	label := name
	if !t.Straight() {
		label += " " + sideName(left)
	}
	p.say(k.Seat, "boost", "The forced move: %s.", label)
	p.hazard(i, 1, "the boost")
	p.move(i, templateMotion(t, left, k.Pos), false, o)
	return true
}

// spin turns kart i about its centre, up to 90 degrees, the way the order
// says or to face down the road; it stops short of anything it would hit.
func (p *play) spin(i int, o Order) {
	s := p.s
	k := &s.Karts[i]
	var turn float64
	if o.SpinSet {
		turn = o.SpinDeg * math.Pi / 180
		if !o.SpinLeft {
			turn = -turn
		}
	} else {
		want := math.Remainder(s.track.Heading(k.Pos.Centre)-k.Pos.Heading, 2*math.Pi)
		turn = math.Max(-math.Pi/2, math.Min(math.Pi/2, want))
	}
	from := k.Pos
	m := motion{Len: math.Abs(turn) * 180 / math.Pi, At: func(u float64) Rect {
		r := from
		r.Heading = from.Heading + math.Copysign(u*math.Pi/180, turn)
		return r
	}}
	// The kart is picked up and set down turned (not swept round): if it has
	// no room at the full turn, it collides with what is there and is set down
	// at the largest turn that has room.
	stop, c := s.setDown(m, i)
	k.Pos = m.At(stop)
	dir := "right"
	if turn > 0 {
		dir = "left"
	}
	switch {
	case stop >= 0.5:
		p.say(k.Seat, "spin", "%s spins %.0f° %s.", k.Name, stop, dir)
	case c != nil:
		p.say(k.Seat, "spin", "%s spins %s but has no room: it turns less than a degree.", k.Name, dir)
	default: // a SPIN with no direction, on a kart already facing down the road
		p.say(k.Seat, "spin", "%s's spin turns it less than a degree: it already faces down the road.", k.Name)
	}
	if c != nil {
		switch c.kind {
		case "kart":
			p.collideKarts(i, c.idx)
		case "obstruction":
			ob := s.track.Obstructions[c.idx]
			w := Heavy
			if ob.Kind == Destructible {
				w = Middle
				s.Gone = append(s.Gone, c.idx)
			}
			p.collideObject(i, "the "+ob.Name, w)
		case "edge":
			p.collideObject(i, "the table's edge", Heavy)
		case "bill":
			p.billHits(c.idx, i)
		}
	}
}

// setDown turns kart i by m (degrees, 0 to m.Len) about its centre: the
// full turn when there is room there, otherwise the largest whole-degree
// turn that has room, and what the full turn would have met.
func (s *State) setDown(m motion, i int) (float64, *contact) {
	c := s.touching(m.At(m.Len), i, -1, nil)
	if c == nil {
		return m.Len, nil
	}
	for a := math.Floor(m.Len); a > 0; a-- {
		if s.touching(m.At(a), i, -1, nil) == nil {
			return a, c
		}
	}
	return 0, c
}

// A side of a collision.
type side struct {
	kart   int // -1: an object
	name   string
	gear   int
	weight Weight
	smash  bool
}

func (p *play) kartSide(i int) side {
	k := p.s.Karts[i]
	return side{kart: i, name: k.Name, gear: k.Gear, weight: k.Weight, smash: k.Collide == "smash"}
}

// collide resolves a collision of a (the active side) with b: each side
// that smashes rolls its smash dice at the other; each kart that evades rolls
// its gear in evade dice; every kart involved takes at least 1 hazard.
func (p *play) collide(a, b side, o Orientation) {
	seat := -1
	if a.kart >= 0 {
		seat = p.s.Karts[a.kart].Seat
	}
	word := func(x side) string {
		if x.smash {
			return "smashes"
		}
		return "evades"
	}
	p.say(seat, "collision", "Collision, %s: %s %s, %s %s.", o, a.name, word(a), b.name, word(b))
	hitsOn := func(att, def side, o Orientation) int {
		if !att.smash || def.kart < 0 {
			return 0
		}
		n := SmashDice(o, att.gear, def.gear, att.weight.Heavier(def.weight))
		hits := 0
		var faces []string
		atSeat := -1
		if att.kart >= 0 {
			atSeat = p.s.Karts[att.kart].Seat
		}
		for j := 0; j < n; j++ {
			f := p.roll(atSeat, "smash die")
			hits += Hits(f, p.s.SixIsOne)
			faces = append(faces, fmt.Sprint(f))
		}
		p.say(atSeat, "smash", "%s rolls %s (%s): %s.", att.name, plural(n, "smash die"), orNone(faces), plural(hits, "hit"))
		return hits
	}
	evades := func(x side, hits int) int {
		if x.kart < 0 || x.smash || hits == 0 {
			return 0
		}
		c := 0
		var faces []string
		for j := 0; j < x.gear; j++ {
			f := p.roll(p.s.Karts[x.kart].Seat, "evade die")
			if Cancels(f) {
				c++
			}
			faces = append(faces, fmt.Sprint(f))
		}
		p.say(p.s.Karts[x.kart].Seat, "evade", "%s evades with %s (%s): %s cancelled.", x.name, plural(x.gear, "die"), orNone(faces), plural(c, "hit"))
		return c
	}
	onB := hitsOn(a, b, o)
	onA := hitsOn(b, a, o)
	cb := evades(b, onB)
	ca := evades(a, onA)
	for _, x := range []struct {
		s    side
		hits int
	}{{a, AttackHazards(onA, ca)}, {b, AttackHazards(onB, cb)}} {
		if x.s.kart >= 0 {
			p.hazard(x.s.kart, max(1, x.hits), "the collision")
		}
	}
}

func orNone(fs []string) string {
	if len(fs) == 0 {
		return "none"
	}
	return strings.Join(fs, ", ")
}

func (p *play) collideKarts(i, j int) {
	o := Collide(p.s.Karts[i].Pos, p.s.Karts[j].Pos)
	p.collide(p.kartSide(i), p.kartSide(j), o)
}

// collideObject: an obstruction (or the table's edge) always smashes, in
// gear 0, head on (the text).
func (p *play) collideObject(i int, name string, w Weight) {
	p.collide(p.kartSide(i), side{kart: -1, name: name, gear: 0, weight: w, smash: true}, HeadOn)
}

// shell fires kart i's shell at target (a name or a seat number).
func (p *play) shell(i int, target string) {
	s := p.s
	k := &s.Karts[i]
	j := s.kartByName(target)
	if target == NearestTarget {
		if j = s.nearestTarget(i); j < 0 {
			p.say(k.Seat, "attack", "No kart is in reach of %s's %s: the shell is kept.", k.Name, itemWord(k.Item))
			return
		}
	}
	if j < 0 || k.Item == "" || k.Item == BulletBill {
		return // ParseOrder checked the target and the item, and neither changes during the move
	}
	tk := s.Karts[j]
	if tk.Finished {
		p.say(k.Seat, "attack", "%s has finished: %s keeps the %s.", tk.Name, k.Name, itemWord(k.Item))
		return
	}
	a := Aim(s, i, j, k.Item)
	if a.Reason != "" {
		p.say(k.Seat, "attack", "%s cannot throw at %s: %s. The shell is kept.", k.Name, tk.Name, a.Reason)
		return
	}
	item := k.Item
	k.Item = ""
	p.act.Shot = []Vec{k.Pos.Centre, tk.Pos.Centre}
	n := ShellDice
	if a.Cover {
		n--
	}
	cover := ""
	if a.Cover {
		cover = ", in cover (one die fewer)"
	}
	hits := 0
	var faces []string
	for d := 0; d < n; d++ {
		f := p.roll(k.Seat, "attack die")
		hits += Hits(f, s.SixIsOne)
		faces = append(faces, fmt.Sprint(f))
	}
	p.say(k.Seat, "attack", "%s throws %s at %s (%.0f mm%s): %s (%s), %s.", k.Name, itemName(item), tk.Name, a.Range, cover, plural(n, "attack die"), strings.Join(faces, ", "), plural(hits, "hit"))
	c := 0
	faces = nil
	if hits > 0 {
		for d := 0; d < tk.Gear; d++ {
			f := p.roll(tk.Seat, "evade die")
			if Cancels(f) {
				c++
			}
			faces = append(faces, fmt.Sprint(f))
		}
		p.say(tk.Seat, "evade", "%s evades with %s (%s): %s cancelled.", tk.Name, plural(tk.Gear, "die"), orNone(faces), plural(c, "hit"))
	}
	if h := AttackHazards(hits, c); h > 0 {
		p.hazard(j, h, "the "+itemWord(item))
	} else {
		p.say(tk.Seat, "attack", "%s takes no hazard.", tk.Name)
	}
}

// NearestTarget is the target word that throws at the nearest kart the shell
// can reach once the kart has moved: by post, the racer cannot measure first.
const NearestTarget = "nearest"

// nearestTarget is the kart nearest kart i that its shell can reach now, -1 for none.
func (s *State) nearestTarget(i int) int {
	best, bestD := -1, math.Inf(1)
	for j, x := range s.Karts {
		if j == i || x.Finished {
			continue
		}
		if a := Aim(s, i, j, s.Karts[i].Item); a.Reason == "" && a.Range < bestD {
			best, bestD = j, a.Range
		}
	}
	return best
}

// kartByName finds a target by its name or its seat, numbered from 1 as
// racers see seats (in posts and 'orders options').
func (s *State) kartByName(t string) int {
	for j, k := range s.Karts {
		if strings.EqualFold(k.Name, t) || fmt.Sprint(k.Seat+1) == t {
			return j
		}
	}
	return -1
}

// ShellRange is a shell's reach (pitwall's reading: twice the medium
// straight of the default templates).
const ShellRange = 240.0

// Aiming is whether a shell can be thrown, and how.
type Aiming struct {
	Range  float64 // centre to centre, mm
	Cover  bool    // the line passes a kart or a destructible obstruction: one die fewer
	Reason string  // why it cannot be thrown, "" when it can
}

// Aim checks range, line of sight and cover from kart i to kart j (a
// reading, docs/rules/gaslands.md): in range when the target's nearest
// corner or centre is within ShellRange of the thrower's centre; a green
// shell needs a line from the thrower's centre to the target's centre or a
// corner that crosses no immovable obstruction, and is in cover when every
// such line crosses another kart or a destructible one; a red shell homes in:
// range only.
func Aim(s *State, i, j int, item string) Aiming {
	a, b := s.Karts[i].Pos, s.Karts[j].Pos
	from := a.Centre
	a2 := Aiming{Range: b.Centre.Sub(from).Len()}
	cs := b.Corners()
	targets := append([]Vec{b.Centre}, cs[:]...)
	near := math.Inf(1)
	for _, t := range targets {
		near = math.Min(near, t.Sub(from).Len())
	}
	if near > ShellRange {
		a2.Reason = fmt.Sprintf("out of range (%.0f mm; a shell reaches %.0f)", near, ShellRange)
		return a2
	}
	if item == RedShell {
		return a2
	}
	clear, open := false, false
	for _, t := range targets {
		blocked, covered := false, false
		for g, o := range s.track.Obstructions {
			if s.gone(g) || !o.Rect.Crosses(from, t) {
				continue
			}
			if o.Kind == Immovable {
				blocked = true
			} else {
				covered = true
			}
		}
		for x, k := range s.Karts {
			if x != i && x != j && !k.Finished && k.Pos.Crosses(from, t) {
				covered = true
			}
		}
		if !blocked {
			clear = true
			if !covered {
				open = true
			}
		}
	}
	if !clear {
		a2.Reason = "no line of sight: an obstruction is in the way"
		return a2
	}
	a2.Cover = !open
	return a2
}

// bills moves the Bullet Bills of seat owner a medium straight each; each
// smashes what it meets and is gone; a bill leaving the table is gone too.
func (p *play) bills(owner int) {
	s := p.s
	for bi := 0; bi < len(s.Bills); bi++ {
		b := s.Bills[bi]
		if b.Owner != owner {
			continue
		}
		dir := heading(b.Pos.Heading)
		from := b.Pos
		m := motion{Len: 120, At: func(u float64) Rect { r := from; r.Centre = from.Centre.Add(dir.Scale(u)); return r }}
		if t, err := s.M.Template("medium"); err == nil {
			m.Len = t.Length
		}
		stop, c := s.sweep(m, 0, m.Len, -1, bi, nil)
		s.Bills[bi].Pos = m.At(stop)
		s.Bills[bi].Moves++
		p.act.BillPath = append(p.act.BillPath, from.Centre, m.At(stop).Centre)
		p.say(-1, "bill", "%s's Bullet Bill flies %.0f mm.", s.Karts[s.seatIndex(owner)].Name, stop)
		end := c != nil || s.Bills[bi].Moves >= BillLife
		if c != nil && c.kind == "kart" {
			p.billHits(bi, c.idx) // removes it; the owner's next bill flies all the same
			bi--
			continue
		}
		if c != nil && c.kind == "obstruction" && s.track.Obstructions[c.idx].Kind == Destructible {
			s.Gone = append(s.Gone, c.idx)
			p.say(-1, "obstruction", "The Bullet Bill flattens the %s.", s.track.Obstructions[c.idx].Name)
		}
		if end {
			p.say(-1, "bill", "The Bullet Bill is spent.")
			s.Bills = append(s.Bills[:bi], s.Bills[bi+1:]...)
			bi--
		}
	}
}

func (s *State) seatIndex(seat int) int {
	for j, k := range s.Karts {
		if k.Seat == seat {
			return j
		}
	}
	return 0
}

// billHits: a Bullet Bill (gear 2, heavy, always smashes) meets kart j and is spent.
func (p *play) billHits(bi, j int) {
	s := p.s
	b := s.Bills[bi]
	o := Collide(b.Pos, s.Karts[j].Pos)
	p.collide(side{kart: -1, name: "the Bullet Bill", gear: BillGear, weight: BillWeight, smash: true}, p.kartSide(j), o)
	s.Bills = append(s.Bills[:bi], s.Bills[bi+1:]...)
}

// wipeouts: every kart with 6 or more hazard tokens wipes out: gear 1, its
// tokens cleared, and the scatter die turns it (a d8 read as eight
// directions, 45 degrees apart, 1 keeping its facing; a reading).
func (p *play) wipeouts() {
	s := p.s
	for j := range s.Karts {
		k := &s.Karts[j]
		if k.Finished || k.Hazards < 6 {
			continue
		}
		r := p.d.Roll(k.Seat, "scatter die", dice.D8)
		k.Gear, k.Hazards = 1, 0
		k.Wipeouts++
		// The kart turns about its centre, clockwise; with no room at the
		// full turn it is set down at the largest turn that has room (a
		// reading: karts never overlap), without a collision.
		from := k.Pos
		turn := float64(scatterTurn(r))
		m := motion{Len: turn, At: func(u float64) Rect {
			x := from
			x.Heading = math.Remainder(from.Heading-u*math.Pi/180, 2*math.Pi)
			return x
		}}
		stop, _ := s.setDown(m, j)
		k.Pos = m.At(stop)
		text := fmt.Sprintf("%s wipes out! Gear 1, hazards cleared; the scatter die (%d) turns it %d° clockwise.", k.Name, r, scatterTurn(r))
		switch {
		case r == 1:
			text = fmt.Sprintf("%s wipes out! Gear 1, hazards cleared; the scatter die (1) leaves it facing as it was.", k.Name)
		case stop < 0.5:
			text = fmt.Sprintf("%s wipes out! Gear 1, hazards cleared; the scatter die (%d) would turn it %d° clockwise, but it has no room to turn.", k.Name, r, (r-1)*45)
		case stop < turn-0.5:
			text = fmt.Sprintf("%s wipes out! Gear 1, hazards cleared; the scatter die (%d) would turn it %d° clockwise: it stops at %.0f°, against what is in the way.", k.Name, r, (r-1)*45, stop)
		}
		p.say(k.Seat, "wipeout", "%s", text)
	}
}
