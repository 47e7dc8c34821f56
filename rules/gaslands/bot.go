package gaslands

import (
	"math"
	"math/rand/v2"

	"pitwall/race"
)

// plan picks the template that gains the most ground for kart i and keeps it
// on the road, facing down it, clear of others: it tries every template and
// side the gear permits, without dice. It is the default order and the
// bot's driving.
func plan(s *State, i int) Order {
	k := s.Karts[i]
	best, bestScore := Order{}, math.Inf(-1)
	t := s.track
	from := s.Distance(k)
	for _, name := range s.M.Allowed(k.Gear) {
		tm, _ := s.M.Template(name)
		for _, left := range []bool{false, true} {
			if tm.Straight() && left {
				continue
			}
			m := templateMotion(tm, left, k.Pos)
			stop, c := s.sweep(m, 0, m.Len, i, -1)
			end := m.At(stop)
			moved := k
			moved.Pos = end
			gain := progressGain(t, k.Pos.Centre, end.Centre)
			score := gain
			if t.RectOffRoad(end) {
				_, d, _ := t.project(end.Centre)
				score -= 150 + 2*(d-t.Width/2+KartLength)
			}
			if c != nil {
				score -= 250 // a collision: a hazard at least, and the move cut short
			}
			for j, o := range s.Karts {
				if j != i && !o.Finished {
					if d := o.Pos.Centre.Sub(end.Centre).Len(); d < 90 {
						score -= 90 - d // too close: the next move may hit it
					}
				}
			}
			score -= 60 * math.Abs(angleTo(end.Heading, t.Heading(end.Centre)))
			_, d, _ := t.project(end.Centre)
			score -= 0.3 * d
			switch s.M.Class(name, k.Gear) {
			case Hazardous:
				score -= 25 + 10*float64(k.Hazards)
			case Trivial:
				if k.Hazards > 0 {
					score += 10 + 10*float64(k.Hazards)
				}
			}
			_ = from
			if score > bestScore {
				best, bestScore = Order{Template: name, Left: left, Side: !tm.Straight()}, score
			}
		}
	}
	if best.Template == "" {
		best.Template = s.M.Allowed(k.Gear)[0]
	}
	return best
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
