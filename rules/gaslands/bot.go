package gaslands

import (
	"math"
	"math/rand/v2"

	"pitwall/race"
)

// plan picks the template that gains the most ground for kart i and keeps it
// on the road, facing down it, clear of others: it tries every template and
// side the gear permits, without dice; when the template runs onto a boost,
// it picks the forced move the same way. It is the default order (a rule:
// changing it changes how a missed activation plays); the bot drives by
// botPlan.
func plan(s *State, i int) Order { return planWith(s, i, s.judge) }

// planWith is plan, scoring each template's move with judge.
func planWith(s *State, i int, judge func(i int, from Rect, m motion) float64) Order {
	k := s.Karts[i]
	best, bestScore := Order{}, math.Inf(-1)
	var bestMotion motion
	s.M.eachSide(s.M.Allowed(k.Gear), func(name string, tm Template, left bool) bool {
		m := templateMotion(tm, left, k.Pos)
		score := judge(i, k.Pos, m)
		switch s.M.Class(name, k.Gear) {
		case Hazardous:
			score -= 25 + float64(10*float64(k.Hazards))
		case Trivial:
			if k.Hazards > 0 {
				score += 10 + float64(10*float64(k.Hazards))
			}
		}
		if score > bestScore {
			best, bestScore, bestMotion = Order{Template: name, Left: left, Side: !tm.Straight()}, score, m
		}
		return true
	})
	if best.Template == "" {
		best.Template = s.M.Allowed(k.Gear)[0]
		return best
	}
	// Onto a boost: the forced move that does best from its far end.
	stop, _ := s.sweep(bestMotion, 0, bestMotion.Len, i, -1, nil)
	for u := 0.0; u <= stop; u += sweepStep {
		r := bestMotion.At(u)
		for _, b := range s.track.Boosts {
			if !b.Rect.Overlaps(r) {
				continue
			}
			dir := heading(b.Rect.Heading)
			endR := Rect{Centre: b.Rect.Centre.Add(dir.Scale(float64(b.Rect.Length/2) + float64(k.Pos.Length/2))), Heading: b.Rect.Heading, Length: k.Pos.Length, Width: k.Pos.Width}
			bs := math.Inf(-1)
			s.M.eachSide(BoostTemplates, func(name string, tm Template, left bool) bool {
				if sc := s.judge(i, endR, templateMotion(tm, left, endR)); sc > bs {
					bs, best.Boost, best.BoostLeft = sc, name, left
				}
				return true
			})
			if best.Boost == "medium" {
				best.Boost, best.BoostLeft = "", false // the default
			}
			return best
		}
	}
	return best
}

// botPlan is the bot's driving: plan, with botJudge for judge.
func botPlan(s *State, i int) Order {
	// The move after can add at most twice the longest move there is (the
	// way round is measured along the middle of the road, so a kart on the
	// inside of a bend wins it faster than it drives, but not twice as
	// fast): a template that could not beat the best so far even so is not
	// looked past.
	most := 0.0
	for _, tm := range s.M.Templates {
		most = math.Max(most, tm.PathLength())
	}
	most = float64(2 * (most + KartLength))
	// planWith adds a template's class to the score (a hazard's cost, or a
	// trivial template's bonus), which the bound must allow for too.
	h := float64(s.Karts[i].Hazards)
	classes := 35 + float64(20*h)
	best := math.Inf(-1)
	return planWith(s, i, func(i int, from Rect, m motion) float64 {
		score, k := s.botJudge(i, from, m)
		if score+float64(botAhead*most)+classes > best {
			score += float64(botAhead * s.nextBest(k, k.Gear))
		} else {
			score += float64(botAhead * -most) // it cannot win: no need to know by how much
		}
		best = math.Max(best, score)
		return score
	})
}

// botJudge scores a move m of kart i from 'from' as judge does, but drives
// through the karts it meets, as the move itself does (each a collision),
// and counts the way won as the race does, gates and all (wayOn). It
// returns the kart as the move leaves it, for botPlan to look a move
// further from: the best a template of the same gear would gain from there
// (nextBest), at botAhead. So a line that leaves the kart nose to the verge
// or the table's edge, facing across the road, or past a gate it missed
// costs it the move after.
func (s *State) botJudge(i int, from Rect, m motion) (float64, Kart) {
	t := s.track
	through := map[int]bool{}
	u, hits := 0.0, 0
	for guard := 0; guard < 16; guard++ {
		stop, c := s.sweep(m, u, m.Len, i, -1, through)
		u = stop
		if c == nil || c.kind != "kart" {
			if c != nil {
				hits++
			}
			break
		}
		through[c.idx] = true
		hits++
	}
	// It never ends on a kart it drove through: it stops where it last had room.
	for ; u > 0 && s.touching(m.At(u), i, -1, nil) != nil; u = math.Max(0, u-sweepStep) {
	}
	end := m.At(u)
	k := s.Karts[i]
	score := s.wayOn(&k, m, u)
	if t.RectOffRoad(end) {
		_, d, _ := t.project(end.Centre)
		score -= 150 + float64(2*(d-float64(t.Width/2)+KartLength))
	}
	score -= float64(250 * hits) // each a hazard at least
	return s.endScore(score, i, end, botNoRoom, botMiddle), k
}

// endScore takes off score what where a move ends costs the next: too little
// room ahead (noRoom a mm short of a kart's length: every template starts
// with a kart's length straight on, so a kart that ends nose to an
// obstruction or the table's edge cannot move until a SPIN or a wipeout
// turns it), a kart too close, a heading off the road's, and each mm from
// the middle of the road (middle). The default order and the bot weigh
// them, the bot more heavily.
func (s *State) endScore(score float64, i int, end Rect, noRoom, middle float64) float64 {
	t := s.track
	ahead := templateMotion(Template{Name: "look", Length: 60}, false, end)
	if gap, hit := s.sweep(ahead, 0, ahead.Len, i, -1, nil); hit != nil && hit.kind != "kart" {
		score -= float64(noRoom * (ahead.Len - gap))
	}
	for j, o := range s.Karts {
		if j != i && !o.Finished {
			if d := o.Pos.Centre.Sub(end.Centre).Len(); d < 90 {
				score -= 90 - d // too close: the next move may hit it
			}
		}
	}
	score -= float64(60 * math.Abs(angleTo(end.Heading, t.Heading(end.Centre))))
	_, d, _ := t.project(end.Centre)
	return score - float64(middle*d)
}

// wayOn moves k's centre along m from its start to at, counting the gates
// it crosses as the move counts them (Track.passGate, at the move's steps),
// and says how much nearer the finish that leaves k (botAt).
func (s *State) wayOn(k *Kart, m motion, at float64) float64 {
	t := s.track
	before := s.botAt(*k)
	prev := m.At(0).Centre
	for u := 0.0; u < at; {
		u = math.Min(at, u+sweepStep)
		c := m.At(u).Centre
		t.passGate(k, prev, c)
		prev = c
	}
	k.Pos = m.At(at)
	return s.botAt(*k) - before
}

// botAt is how far round the race the bot reckons kart k: where its gate
// due lies in the race, less the way still to go to it. Only crossing a gate
// counts (as in the race's standings), so a kart that has gone past its gate
// due without crossing it has that way still to go: back to it, with a
// turn round each way (botTurnBack), or on round the lap, whichever is
// shorter.
func (s *State) botAt(k Kart) float64 { return s.botAtP(k, s.track.Progress(k.Pos.Centre)) }

// botAtP is botAt for a kart whose centre lies p round the lap.
func (s *State) botAtP(k Kart, p float64) float64 {
	t := s.track
	g := t.Gates[k.Gate]
	gate := float64(float64(k.Lap-1)*t.Length) + g.S // the race's way to the gate due
	if k.Gate == 0 {
		gate = float64(float64(k.Lap) * t.Length) // the line: it begins the next lap
	}
	togo := math.Mod(g.S-p+float64(2*t.Length), t.Length)
	if past := t.Length - togo; past < t.Length/2 {
		togo = math.Min(togo, past+botTurnBack)
	}
	return gate - togo
}

// botTurnBack is what turning round twice costs a kart, as way.
const botTurnBack = 300.0

// The bot's weights: the move after against this one; each mm from the
// middle of the road; each mm short of a kart's length of room ahead.
const (
	botAhead  = 0.8
	botMiddle = 0.3
	botNoRoom = 10.0
)

// botAheadStep is how finely the move after is checked for crossing a gate
// (a gate is wider than the road, so 20 mm steps do not miss one).
const botAheadStep = 20.0

// nextBest is the best score of a template that gear permits, for kart k
// where it stands: the road it gains, less for ending off the road
// or facing away from the way round, and for a hazard. It lays the template
// down without sweeping it (other karts will have moved by then): an
// immovable obstruction or the table's edge at its end rules it out.
func (s *State) nextBest(k Kart, gear int) float64 {
	t := s.track
	from, here := k.Pos, s.botAt(k)
	best := math.Inf(-1)
	s.M.eachSide(s.M.Allowed(gear), func(name string, tm Template, left bool) bool {
		// The kart's length straight on, then the template's end: the
		// table's edge or an immovable obstruction there rules it out.
		m := templateMotion(tm, left, from)
		end := m.At(m.Len)
		if start := m.At(from.Length); !t.Inside(start) || s.standsIn(start) || !t.Inside(end) || s.standsIn(end) {
			return true
		}
		// The road there, measured once: the way round, the distance from
		// the middle (off the road, near enough, when the kart's side is
		// beyond the edge), the road's heading.
		at, d, h := t.project(end.Centre)
		next := k
		next.Pos = end
		for u := botAheadStep; ; u += botAheadStep {
			u = math.Min(u, m.Len)
			t.passGate(&next, m.At(u-botAheadStep).Centre, m.At(u).Centre)
			if u == m.Len {
				break
			}
		}
		score := s.botAtP(next, at) - here
		if d > float64(t.Width/2)-KartWidth/2 {
			score -= 150 + float64(2*(d-float64(t.Width/2)+KartLength))
		}
		if s.M.Class(name, gear) == Hazardous {
			score -= 25
		}
		score -= float64(60 * math.Abs(angleTo(end.Heading, h)))
		best = math.Max(best, score)
		return true
	})
	if math.IsInf(best, -1) {
		return -250 // boxed in: no template has room
	}
	return best
}

// standsIn says whether r overlaps an immovable obstruction.
func (s *State) standsIn(r Rect) bool {
	for _, o := range s.track.Obstructions {
		if o.Kind == Immovable && o.Rect.Overlaps(r) {
			return true
		}
	}
	return false
}

// judge scores a move m of kart i from 'from': the road gained, less for
// ending off the road, a collision, no room ahead, other karts close by, a
// facing across the road and a line far from the middle.
func (s *State) judge(i int, from Rect, m motion) float64 {
	t := s.track
	stop, c := s.sweep(m, 0, m.Len, i, -1, nil)
	end := m.At(stop)
	score := progressGain(t, from.Centre, end.Centre)
	if t.RectOffRoad(end) {
		_, d, _ := t.project(end.Centre)
		score -= 150 + float64(2*(d-float64(t.Width/2)+KartLength))
	}
	if c != nil {
		score -= 250 // a collision: a hazard at least, and the move cut short
	}
	return s.endScore(score, i, end, 3, 0.3)
}

// blocked says whether every template kart i may take meets an obstruction
// or the table's edge at once: only a SPIN can turn it free.
func (s *State) blocked(i int) bool {
	k := s.Karts[i]
	free := false
	s.M.eachSide(s.M.Allowed(k.Gear), func(_ string, tm Template, left bool) bool {
		m := templateMotion(tm, left, k.Pos)
		if stop, c := s.sweep(m, 0, m.Len, i, -1, nil); c == nil || c.kind == "kart" || stop > 5 {
			free = true
		}
		return !free
	})
	return !free
}

// progressGain is how far along the road a move from a to b went (negative backwards).
func progressGain(t *Track, a, b Vec) float64 {
	sa := t.Progress(a)
	return math.Remainder(t.ProgressNear(b, sa, 450)-sa, t.Length)
}

// BotOrder implements race.Botter: the plan, with skid dice to shift up
// towards gear 4 (or the kart's top) while it carries few hazards, to shift
// down when it carries many, and a shell at the nearest kart in reach.
func (Ruleset) BotOrder(st race.State, seat int, _ bool, rng *rand.Rand) string {
	s := st.(*State)
	o := botPlan(s, seat)
	k := s.Karts[seat]
	target := min(targetGear(s, k), k.MaxGear)
	switch {
	case k.Gear > target+1 || (k.Hazards >= 3 && k.Gear > target):
		o.Skid, o.Shift = min(2, k.Handling), -1
	case k.Gear < target && k.Hazards <= 1:
		o.Skid, o.Shift = min(2, k.Handling), 1
		if rng.IntN(3) == 0 {
			o.Skid = min(3, k.Handling)
		}
	}
	if s.legal(seat, o) != nil {
		o.Skid, o.Shift = 0, 0
	}
	if s.blocked(seat) {
		// Nose to a wall: every die a chance of the SPIN that turns it free (towards the road).
		o.Skid, o.Shift, o.SpinSet = k.Handling, 0, false
	}
	if o.Skid > 0 && rng.IntN(4) == 0 && s.track.RectOnRoad(k.Pos) {
		o.Push = true
	}
	if k.Hazards >= 3 {
		o.Collide = "evade"
	} else if k.Weight == Heavy && k.Collide != "smash" {
		o.Collide = "smash"
	}
	switch k.Item {
	case GreenShell, RedShell:
		o.Shell = NearestTarget // at whoever is in reach once it has moved
	case BulletBill:
		if rng.IntN(2) == 0 {
			o.Bill = true
		}
	}
	if _, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: seat, Text: o.String()}); err != nil {
		return plan(s, seat).String()
	}
	return o.String()
}

// targetGear is the gear the bot wants for the road ahead: the more the road
// turns in the next 500 mm, the lower.
func targetGear(s *State, k Kart) int {
	t := s.track
	at := t.Progress(k.Pos.Centre)
	_, h0 := t.At(at)
	bend := 0.0
	for d := 50.0; d <= 500; d += 50 {
		_, h := t.At(at + d)
		bend = math.Max(bend, math.Abs(angleTo(h0, h)))
	}
	switch {
	case bend > 2*math.Pi/3:
		return 2
	case bend > math.Pi/3:
		return 3
	case bend > math.Pi/6:
		return 4
	}
	return 5
}
