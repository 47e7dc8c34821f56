package rtd

import (
	"fmt"
	"strings"

	"pitwall/dice"
	"pitwall/race"
)

type resolver struct {
	s  *State
	d  *dice.Roller
	ev []race.Event
	// quiet keeps each event's seat and kind only: the odds of a choice
	// play an action thousands of times and read no story.
	quiet bool
}

func (r *resolver) say(x *Racer, kind string, mark int, format string, a ...any) {
	seat := -1
	if x != nil {
		seat = x.Seat
	}
	if r.quiet {
		r.ev = append(r.ev, race.Event{Seat: seat, Kind: kind})
		return
	}
	r.ev = append(r.ev, race.Event{Seat: seat, Kind: kind, Text: fmt.Sprintf(format, a...), Rolls: r.d.Since(mark)})
}

// check rolls a Racing Check for x with a modifier and reads it off the table.
func (r *resolver) check(x *Racer, why string, mod int) (face int, out Outcome) {
	face = r.d.Roll(x.Seat, x.Name+": "+why, dice.D6)
	return face, RacingCheck(face + mod)
}

// racingCheck rolls a Racing Check for x and applies the table's Momentum,
// which the text gives every Racing Check ('always'), beside what the check
// is for: a 6 +1, a 7 or more +2, a 1 -1, 0 or less -2. It returns the face,
// the outcome and that Momentum in words for the story ("" when none).
// Opposed checks (a ram, a shell's attack, the grid's ties) compare totals
// instead and are not read on the table; the rocket start has results of its
// own.
func (r *resolver) racingCheck(x *Racer, why string, mod int) (int, Outcome, string) {
	face, out := r.check(x, why, mod)
	n := out.Momentum()
	if n == 0 {
		return face, out, ""
	}
	held := r.gain(x, n)
	return face, out, fmt.Sprintf(", %s Momentum on the roll%s", signed(n), held)
}

// gain adds n Momentum to x. With momentum-cap=at-once (the default) a
// kart's maximum holds at every moment, so what would go past it is lost;
// it returns ", held at N, its most" then, for the story, and "" otherwise.
// With momentum-cap=cleanup the Cleanup Phase cuts it back instead.
func (r *resolver) gain(x *Racer, n int) string {
	x.Momentum += n
	most := MaxMomentum(x.Debuff)
	if n <= 0 || r.s.Opts.CapAtCleanup || x.Momentum <= most {
		return ""
	}
	x.Momentum = most
	return fmt.Sprintf(", held at %d, its most", most)
}

func signed(n int) string {
	if n >= 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

// start plays turn 0: High Acceleration, then everyone's Rocket Start (or
// safe start), then the grid by Momentum, ties by opposed Racing Checks.
func (r *resolver) start(actions map[int]Action) {
	s := r.s
	for i := range s.Racers {
		x := &s.Racers[i]
		m := r.d.Mark()
		if x.Perk == HighAcceleration {
			x.Momentum++
			r.say(x, "start", m, "%s's high acceleration: +1 Momentum before the start", x.Name)
			m = r.d.Mark()
		}
		a := actions[x.Seat]
		x.Action = a.String()
		if a.Safe {
			x.Momentum++
			r.say(x, "start", m, "%s starts safely: +1 Momentum (%d)", x.Name, x.Momentum)
			continue
		}
		face, out := r.check(x, "rocket start", 0)
		switch {
		case face == 1: // a natural 1: the critical failure
			r.say(x, "start", m, "%s fluffs the rocket start (a natural 1): no Momentum (%d)", x.Name, x.Momentum)
		case out.Succeeds():
			x.Momentum += 2
			r.say(x, "start", m, "%s nails the rocket start (%d): +2 Momentum (%d)", x.Name, face, x.Momentum)
		default:
			x.Momentum++
			r.say(x, "start", m, "%s's rocket start fails (%d): +1 Momentum (%d)", x.Name, face, x.Momentum)
		}
	}
	// The grid: more Momentum first; ties by opposed Racing Checks, rolled again while they tie.
	seats := append([]int(nil), s.Order...)
	tiebreak := map[int][]int{}
	for round, more := 0, true; more && round < 20; round++ { // 20 rounds of ties: seat order decides
		more = false
		groups := map[string][]int{}
		for _, seat := range seats {
			key := fmt.Sprint(s.racer(seat).Momentum, tiebreak[seat])
			groups[key] = append(groups[key], seat)
		}
		for _, seat := range seats {
			key := fmt.Sprint(s.racer(seat).Momentum, tiebreak[seat])
			if g := groups[key]; len(g) > 1 && g[0] == seat {
				m := r.d.Mark()
				var rolls []string
				for _, o := range g {
					f := r.d.Roll(o, s.racer(o).Name+": grid tiebreak", dice.D6)
					tiebreak[o] = append(tiebreak[o], f)
					rolls = append(rolls, fmt.Sprintf("%s %d", s.racer(o).Name, f))
				}
				lead := "level on Momentum %d, opposed Racing Checks for the grid: %s"
				if round > 0 {
					lead = "still level on Momentum %d, rolled again: %s"
				}
				r.say(nil, "start", m, lead, s.racer(seat).Momentum, strings.Join(rolls, ", "))
				more = true
			}
		}
	}
	sortSeats(seats, func(a, b int) bool {
		ma, mb := s.racer(a).Momentum, s.racer(b).Momentum
		if ma != mb {
			return ma > mb
		}
		ta, tb := tiebreak[a], tiebreak[b]
		for i := 0; i < len(ta) && i < len(tb); i++ {
			if ta[i] != tb[i] {
				return ta[i] > tb[i]
			}
		}
		return false
	})
	s.Order = seats
	for i := range s.Racers {
		s.Racers[i].Momentum = min(s.Racers[i].Momentum, MaxMomentum(s.Racers[i].Debuff))
	}
}

func sortSeats(seats []int, less func(a, b int) bool) {
	for i := 1; i < len(seats); i++ { // insertion sort: stable and small
		for j := i; j > 0 && less(seats[j], seats[j-1]); j-- {
			seats[j], seats[j-1] = seats[j-1], seats[j]
		}
	}
}
