package rtd

import (
	"math"
	"math/rand/v2"

	"pitwall/race"
)

// Bot picks an action as a fair racer would: a rocket start, a path when it
// holds the item for it, a power slide on curves, aggressive driving when slow,
// defensive when ahead with Momentum to keep; it pulls ahead whenever it
// may, so where that is only on order (pull-ahead=when-ordered) it orders
// it. Its randomness is its own.
func Bot(st race.State, seat int, rng *rand.Rand) string {
	s := st.(*State)
	a := botAction(s, seat, rng)
	if p := s.Opts.toPull(); a != "" && s.T > 0 && p != "" {
		a += " then " + p
	}
	return a
}

func botAction(s *State, seat int, rng *rand.Rand) string {
	x := s.racer(seat)
	if x == nil || x.Finished {
		return ""
	}
	if s.T == 0 {
		if rng.IntN(4) == 0 {
			return "safe start"
		}
		return "rocket start"
	}
	seg := s.course.Segments[x.Segment]
	for i, p := range seg.Paths {
		if p.Item != "" && x.holdsNamed(p.Item) {
			return Action{Kind: TakePath, Path: i + 1}.String()
		}
		if p.Item == "" && p.Check != nil && *p.Check >= -1 && rng.IntN(2) == 0 {
			return Action{Kind: TakePath, Path: i + 1}.String()
		}
	}
	if x.Hand != 0 && x.Hand != Mushroom && rng.IntN(2) == 0 {
		switch x.Hand {
		case GreenShell:
			return []string{"item forward", "item backward"}[rng.IntN(2)]
		case Banana, FakeItemBox, BobOmb:
			return "item lay"
		}
		return "item"
	}
	if x.Hand == Mushroom && rng.IntN(3) == 0 {
		return "item"
	}
	return s.driveByOdds(x, seat, rng)
}

// What the bot reckons a driving action's outcomes worth, in Momentum: a
// pass won in the Action Phase (a place, and free of the Momentum a pass in
// the Movement Phase costs), a Power Slide's +1 to passing this turn, and
// holding a lead with Momentum to keep.
const (
	botPassWorth  = 1.5
	botSlideWorth = 0.3
	botHoldWorth  = 0.5
)

// driveByOdds is the driving action whose odds promise most, each worked
// out exactly over its dice as the tables give them (AggressiveGain over
// the d6, PassSucceeds over the two d6 of a pass; a ram or a star on the
// way, and a driver ahead who drives defensively, left aside): Drive
// Aggressively for the Momentum it is likely to gain (none past the
// kart's most), a Draft for the pass it may win, a Power Slide for its +1
// to passing and the free pass after a success, Drive Defensively when
// leading with Momentum to keep. A hair of rng breaks ties. Counted here
// rather than through Choices, which plays every outcome through the
// resolver: that made a race twenty times slower.
func (s *State) driveByOdds(x *Racer, seat int, rng *rand.Rand) string {
	mods := racingMods(x)
	room, gain := MaxMomentum(x.Debuff)-x.Momentum, 0.0
	for face := 1; face <= 6; face++ {
		gain += float64(min(AggressiveGain(face+mods), room)) / 6
	}
	pass, slidePass := 0.0, 0.0
	if ahead := s.aheadInSegment(x); ahead != nil {
		pass = passChance(x, ahead, 0)
		if x.Momentum > ahead.Momentum {
			slidePass = passChance(x, ahead, 1)
		}
	}
	slid := checkSucceeds(s.course.Segments[x.Segment].Shape.PowerSlideModifier() + mods)
	worths := []struct {
		k     ActionKind
		worth float64
	}{
		{DriveAggressively, gain},
		{Draft, botPassWorth * pass},
		{PowerSlide, slid * (botSlideWorth + botPassWorth*slidePass)},
		{DriveDefensively, 0},
	}
	if s.position(seat) == 1 && x.Momentum >= 3 {
		worths[3].worth = botHoldWorth
	}
	best, bestWorth := Action{Kind: DriveAggressively}, math.Inf(-1)
	for _, w := range worths {
		a := Action{Kind: w.k}
		if s.legal(x, a) != nil {
			continue
		}
		if v := w.worth + rng.Float64()/100; v > bestWorth {
			best, bestWorth = a, v
		}
	}
	return best.String()
}

// passChance is the chance that x passes ahead in one pass roll, with
// bonus added to x's total (a Power Slide's +1), as resolver.pass rolls it.
func passChance(x, ahead *Racer, bonus int) float64 {
	n := map[string]float64{}
	opposed(n, PassSucceeds, x.Momentum+bonus+passMods(x), ahead.Momentum+passMods(ahead), "pass", "held")
	return n["pass"] / 36
}

// BotOrder implements race.Botter.
func (Ruleset) BotOrder(s race.State, seat int, _ bool, rng *rand.Rand) string {
	a := Bot(s, seat, rng)
	// A draft with nobody ahead in the segment, or an item path without its item, is refused: drive instead.
	if _, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: seat, Text: a}); err != nil {
		return Action{Kind: DriveAggressively, Pull: s.(*State).Opts.toPull()}.String()
	}
	return a
}
