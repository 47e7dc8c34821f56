package ludi

import (
	"math/rand/v2"
	"strings"

	"pitwall/race"
	"pitwall/rules/ludi/tables"
)

// Bot chooses orders for a seat the way a careful racer would: get going,
// slow for the corners in an outer lane, attack when a rival is alongside, and
// whip now and then on a straight. Its randomness is its own (rng), so bots
// never touch the race's dice; what it orders is logged like any racer's.
func Bot(st race.State, seat int, rng *rand.Rand) string {
	s := st.(*State)
	c := s.chariot(seat)
	if c == nil || !c.Active() {
		return ""
	}
	if c.Flipped {
		if c.Injured > 0 || rng.IntN(3) == 0 {
			return repeat(RollAway, s.Orders)
		}
		return repeat(HangOn, s.Orders)
	}
	if s.T == 1 {
		return repeat(Accelerate, s.Orders)
	}
	// The orders as data, each after the first with Brake to fall back on,
	// held to the race as ParseOrder would hold their text.
	var steps [3]Step
	o := Orders{Steps: steps[:0]}
	for i := 0; i < s.Orders; i++ {
		st := Step{Kind: botStep(s, c, rng, i == 0)}
		if i > 0 {
			st.Contingency = &single[Brake][0].Kind
		}
		o.Steps = append(o.Steps, st)
	}
	if s.legal(c, o, false) != nil {
		return repeat(Control, s.Orders)
	}
	return o.String()
}

func botStep(s *State, c *Chariot, rng *rand.Rand, first bool) Kind {
	t := s.track
	cornerSoon := false
	p := c.Pos
	for i := 0; i < 10; i++ {
		p, _ = t.Next(p)
		if t.Segments[p.Seg].Corner {
			cornerSoon = true
			break
		}
	}
	inCorner := t.Segments[c.Pos.Seg].Corner
	// Damage can take more spaces than the level's die gives: a chariot that
	// cannot move at its level speeds up, or it would stand for ever.
	if c.Level < tables.Max && reachAt(s, c, c.Level) <= 0 {
		return Accelerate
	}
	// A chariot or wreck ahead in the lane within this move's reach: go round
	// it where the next lane is clear, else slow to LOW (where an obstacle
	// costs nothing) and edge round it.
	if reach := levelReach(s, c); reach > 0 && s.inLane(c, c.Pos.Lane, 1, reach) != nil {
		var clear []int
		for _, side := range []int{1, -1} {
			if lane := c.Pos.Lane + side; lane >= 1 && lane <= t.Lanes && s.inLane(c, lane, 1, reach) == nil {
				clear = append(clear, side)
			}
		}
		switch {
		case len(clear) > 0 && clear[0] > 0:
			return Right1
		case len(clear) > 0:
			return Left1
		case c.Level > tables.Low && reachAt(s, c, c.Level-1) > 0:
			return Brake
		case c.Pos.Lane == 1 || (c.Pos.Lane < t.Lanes && rng.IntN(2) == 0):
			return Right1
		default:
			return Left1
		}
	}
	safeLane := 3 - min(c.Skill, 1) // lane 2 with skill, 3 without: the corner table's calm lanes at FAST
	switch {
	case (cornerSoon || inCorner) && c.Level == tables.Max:
		return Brake
	case (cornerSoon || inCorner) && c.Pos.Lane < safeLane && c.Level >= tables.Fast:
		return Right1
	case (cornerSoon || inCorner) && c.Level == tables.Fast:
		return Control
	}
	if first {
		for _, k := range []Kind{CrashLeft, CrashRight, LacerateLeft, LacerateRight} {
			if c.Skill >= 1 && rng.IntN(4) == 0 && s.attackable(c, k) == attackOK {
				return k
			}
		}
	}
	switch {
	case c.Level < tables.Fast:
		return Accelerate
	case c.Level == tables.Fast && !cornerSoon && rng.IntN(3) == 0:
		return Accelerate
	case c.Endurance >= 1 && !cornerSoon && rng.IntN(6) == 0:
		return Whip
	case c.Pos.Lane > safeLane && rng.IntN(3) == 0:
		return Left1
	}
	return [2]Kind{Control, Watch}[rng.IntN(2)]
}

// repeat is k written for each of n orders, each after the first with
// Brake to fall back on.
func repeat(k Kind, n int) string { return repeatText(k.String(), n) }

// repeatText is order written n times, each after the first with Brake to
// fall back on.
func repeatText(order string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = order
		if i > 0 {
			parts[i] += " else Brake"
		}
	}
	return strings.Join(parts, ", ")
}

// BotOrder implements race.Botter: in the bonus window it takes the extra
// space, or the initiative when a rival is level with it.
func (Ruleset) BotOrder(s race.State, seat int, inWindow bool, rng *rand.Rand) string {
	o := Bot(s, seat, rng)
	if inWindow && o != "" {
		if rng.IntN(3) == 0 {
			return o + ", bonus initiative"
		}
		return o + ", bonus move"
	}
	return o
}

// levelReach is the most a chariot can move at its level: the die's top
// face (less what tired horses lose of it) and its Speed; at STOP, 0 (no die,
// and no Speed below FAST).
func levelReach(s *State, c *Chariot) int {
	return topFace(c, c.Level, s.Rules) + speedBonus(c)
}

// reachAt is the most the chariot could move at level lv, damage counted.
func reachAt(s *State, c *Chariot, lv tables.Level) int {
	// levelReach and penalty of the chariot at lv, without copying it: of
	// the two, only the die and the Speed bonus depend on the level.
	return topFace(c, lv, s.Rules) + speedBonusAt(c, lv) - penalty(c, s.Rules)
}
