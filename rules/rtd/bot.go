package rtd

import (
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
	switch {
	case x.Momentum <= 1:
		return "aggressive"
	case seg.Shape.PowerSlideModifier() >= 0 && rng.IntN(2) == 0:
		return "power slide"
	case s.position(seat) == 1 && x.Momentum >= 3:
		return "defensive"
	case rng.IntN(6) == 0:
		return "ram"
	case rng.IntN(3) == 0:
		return "draft"
	}
	return "aggressive"
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
