package party

import (
	"fmt"
	"strconv"

	"pitwall/race"
)

// Checks implements race.Oddser.
func (Ruleset) Checks() []race.Check {
	return []race.Check{
		{Name: "movement", Help: "a movement roll: every die of the player's MRDL plus its integers and a happening's boost",
			Flags: []race.Flag{{Name: "mrdl", Values: "the dice list, such as d10 or '2d6 +1' (default d10)"},
				{Name: "boost", Values: "added by a tailwind, 0.." + strconv.Itoa(maxAdd) + " (default 0)"}},
			Outcomes: []string{"1", "2", "..."}},
		{Name: "happening", Help: "a Happening space's d6: 1-2 a Thwomp shakes coins loose, 3-4 a coin shower, 5-6 a tailwind for the next roll",
			Outcomes: []string{thwomp, coinShower, tailwind}},
		{Name: "chance", Help: "Chance Time's d6 (after a die picks the other player): 1-2 the lander gives coins, 3-4 takes them, 5 swap coins, 6 swap stars",
			Outcomes: []string{givesCoins, takesCoins, swapCoins, swapStars}},
	}
}

// Odds implements race.Oddser.
func (o Ruleset) Odds(check string, args map[string]string) (map[string]float64, error) {
	c, err := race.FindCheck("party", o.Checks(), check, args)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	switch c.Name {
	case "happening":
		for _, v := range happeningOn[1:] {
			out[v] += 1.0 / 6
		}
	case "chance":
		for _, v := range chanceOn[1:] {
			out[v] += 1.0 / 6
		}
	default:
		m := MRDL{{Sides: 10}}
		if text, ok := args["mrdl"]; ok {
			if m, err = ParseMRDL(text); err != nil {
				return nil, fmt.Errorf("--mrdl: %w", err)
			}
		}
		boost, err := race.IntFlag(args, "boost", 0, 0, maxAdd)
		if err != nil {
			return nil, err
		}
		for _, mv := range m.movementOdds(boost) {
			out[strconv.Itoa(mv.Movement)] += mv.Chance
		}
	}
	return out, nil
}
