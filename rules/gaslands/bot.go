package gaslands

import (
	"math"
	"math/rand/v2"

	"pitwall/race"
)

// plan picks the template that gains the most ground for kart i and keeps it
// on the road, facing down it, clear of others: it tries every template and
// side the gear permits, without dice; when the template runs onto a boost,
// it picks the forced move the same way. It is the default order and the
// bot's driving.
func plan(s *State, i int) Order {
	k := s.Karts[i]
	best, bestScore := Order{}, math.Inf(-1)
	var bestMotion motion
	for _, name := range s.M.Allowed(k.Gear) {
		tm, _ := s.M.Template(name)
		for _, left := range []bool{false, true} {
			if tm.Straight() && left {
				continue
			}
			m := templateMotion(tm, left, k.Pos)
			score := s.judge(i, k.Pos, m)
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
		}
	}
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
			for _, name := range BoostTemplates {
				tm, err := s.M.Template(name)
				if err != nil {
					continue
				}
				for _, left := range []bool{false, true} {
					if tm.Straight() && left {
						continue
					}
					if sc := s.judge(i, endR, templateMotion(tm, left, endR)); sc > bs {
						bs, best.Boost, best.BoostLeft = sc, name, left
					}
				}
			}
			if best.Boost == "medium" {
				best.Boost, best.BoostLeft = "", false // the default
			}
			return best
		}
	}
	return best
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
	// Room ahead: a kart that ends nose to an obstruction or the edge has no way on.
	ahead := templateMotion(Template{Name: "look", Length: 60}, false, end)
	if gap, hit := s.sweep(ahead, 0, ahead.Len, i, -1, nil); hit != nil && hit.kind != "kart" {
		score -= float64(3 * (ahead.Len - gap))
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
	return score - float64(0.3*d)
}

// blocked says whether every template kart i may take meets an obstruction
// or the table's edge at once: only a SPIN can turn it free.
func (s *State) blocked(i int) bool {
	k := s.Karts[i]
	for _, name := range s.M.Allowed(k.Gear) {
		tm, _ := s.M.Template(name)
		for _, left := range []bool{false, true} {
			m := templateMotion(tm, left, k.Pos)
			if stop, c := s.sweep(m, 0, m.Len, i, -1, nil); c == nil || c.kind == "kart" || stop > 5 {
				return false
			}
		}
	}
	return true
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
	o := plan(s, seat)
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
