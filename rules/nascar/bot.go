package nascar

import (
	"math/rand/v2"
	"strings"

	"pitwall/race"
)

// Bot chooses an order the way a steady driver would: for this speed, one
// faster and one slower, it steers square by square along the track (turning
// where the track turns, within the turn limits) and keeps the plan that gets
// furthest without leaving the track or driving into a car. Its randomness is
// its own; what it orders is logged like a driver's.
func Bot(st race.State, seat int, rng *rand.Rand) string {
	s := st.(*State)
	c := s.car(seat)
	if c == nil || !c.racing() {
		return ""
	}
	best, bestScore := "", -1<<60
	now := botCar{pos: c.Pos, h: c.Heading, speed: c.Speed, max: c.MaxSpeed, wc: c.Wildcards, inPit: c.InPit}
	for _, delta := range []int{1, 0, -1} {
		for _, brakeAfter := range []bool{false, true} {
			o, score, end := s.botPlan(c, now, delta, brakeAfter)
			if o == "" {
				continue
			}
			// Look one turn ahead: a plan that leaves no good next turn (a bend
			// taken too fast) is worth what that next turn is worth.
			next := -1 << 40
			for _, d2 := range []int{0, -1, 1} {
				if _, sc, _ := s.botPlan(c, end, d2, false); sc > next {
					next = sc
				}
			}
			score += next / 2
			score += rng.IntN(3) // a little variety between equal plans
			if score > bestScore {
				best, bestScore = o, score
			}
		}
	}
	if best == "" { // nothing passes: brake if possible, or cruise
		if c.Speed > 0 {
			best = "B" + strings.Repeat("M", c.Speed-1)
		} else {
			best = "A M"
		}
	}
	if o, err := Parse(best); err != nil {
		return strings.Repeat("M", c.Speed)
	} else if _, err := Check(o, s.carFor(c)); err != nil {
		return strings.Repeat("M", c.Speed)
	}
	return best
}

// botCar is where a bot imagines its car: a real one, or one a turn on.
type botCar struct {
	pos   Point
	h     Heading
	speed int
	max   int
	wc    int
	inPit bool
}

// botPlan steers greedily at speed b.speed+delta (braking at the end when
// asked), and scores the squares gained, less heavy costs for leaving the
// track, hitting a car or entering the pit lane without need.
func (s *State) botPlan(c *RaceCar, b botCar, delta int, brakeAfter bool) (string, int, botCar) {
	t := s.track
	speed := b.speed + delta
	if speed < 0 || speed > b.max || (speed == 0 && b.speed == 0) || (brakeAfter && (delta < 0 || speed == 0)) {
		return "", -1 << 40, b
	}
	var o strings.Builder
	switch {
	case delta > 0:
		o.WriteString("A")
	case delta < 0:
		o.WriteString("B")
	}
	pos, h := b.pos, b.h
	lefts, rights := 0, 0
	score := 0
	prog := t.Progress(pos)
	wantPit := b.max <= 8 && !b.inPit
	for i := 0; i < speed; i++ {
		bestTok, bestGain := byte('M'), -1<<30
		for _, tok := range []byte{'M', 'L', 'R'} {
			nh := h
			switch tok {
			case 'L':
				if lefts >= 1 && (lefts >= 2 || b.wc < 3) {
					continue
				}
				nh = h.Turn(-1)
			case 'R':
				if rights >= 1 && (rights >= 2 || b.wc < 3) {
					continue
				}
				nh = h.Turn(1)
			}
			dx, dy := nh.Step()
			np := Point{pos.X + dx, pos.Y + dy}
			q := t.At(np)
			gain := 0
			switch {
			case !q.OnTrack():
				gain = -10000
			case s.occupant(np, c) != nil && !q.InPit():
				gain = -5000
			default:
				gain = t.ahead(prog, t.Progress(np))
				entering := q.InPit() && !t.At(pos).InPit()
				if entering && (!wantPit || speed > PitSpeedLimit) {
					gain -= 3000 // the pit only for repairs, and only within the limit
				}
				if t.Along(np) == nh {
					gain += 3 // facing the way the track goes next
				}
			}
			if tok != 'M' {
				gain-- // keep straight when it is as good
			}
			if gain > bestGain {
				bestTok, bestGain = tok, gain
			}
		}
		switch bestTok {
		case 'L':
			lefts++
			h = h.Turn(-1)
		case 'R':
			rights++
			h = h.Turn(1)
		}
		dx, dy := h.Step()
		pos = Point{pos.X + dx, pos.Y + dy}
		if t.At(pos).OnTrack() {
			prog = t.Progress(pos)
		}
		score += bestGain
		o.WriteByte(bestTok)
	}
	end := b
	end.pos, end.h, end.speed = pos, h, speed
	if brakeAfter {
		o.WriteString("B")
		end.speed--
	}
	if t.At(pos).OnTrack() && t.Along(pos) != h {
		score -= 15 // pointing the wrong way costs the next turn
	}
	return o.String(), score, end
}

// BotOrder implements race.Botter (nascar has no bonus window).
func (Ruleset) BotOrder(s race.State, seat int, _ bool, rng *rand.Rand) string {
	return Bot(s, seat, rng)
}
