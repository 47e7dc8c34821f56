package gaslands

import (
	"fmt"
	"strconv"
	"strings"

	"pitwall/dice"
	"pitwall/race"
)

// Checks implements race.Oddser.
func (Ruleset) Checks() []race.Check {
	return []race.Check{
		{Name: "skid", Help: "skid dice: each face SHIFT (3 in 6), HAZARD, SLIDE or SPIN; with more dice, the outcome counts each face, e.g. '2 shift + spin'",
			Flags:    []race.Flag{{Name: "dice", Values: fmt.Sprintf("1..%d, up to the kart's Handling (default 1)", MaxSkidDice)}},
			Outcomes: []string{"shift", "hazard", "slide", "spin"}},
		{Name: "attack", Help: "an attack (5 dice for a shell): 4 or 5 one hit, 6 two; the target's evade dice (its gear) cancel a hit on each 6; the outcome is the hazard tokens taken",
			Flags: []race.Flag{{Name: "gear", Values: "the target's current gear, 0..6", Need: true},
				{Name: "dice", Values: "attack dice, 1..12 (default 5, a shell)"}, {Name: "six-is-one", Bool: true}},
			Outcomes: []string{"0", "1", "2"}}, // and more, up to two a die
		{Name: "smash", Help: "a collision's smash attack: dice by orientation and weight (the text's table), hits as an attack; the defender evades with its gear or smashes back (no evade dice); at least 1 hazard",
			Flags: []race.Flag{{Name: "orientation", Values: "head-on|t-bone|sideswipe|tailgate", Need: true},
				{Name: "gear", Values: "the attacker's gear, 0..6", Need: true}, {Name: "against", Values: "the defender's gear, 0..6", Need: true},
				{Name: "heavier", Values: "weight classes the attacker is heavier, -2..2 (default 0)"},
				{Name: "evade", Bool: true}, {Name: "six-is-one", Bool: true}},
			Outcomes: []string{"1", "2"}},
		{Name: "scatter", Help: "a wipeout's scatter die (a d8): the degrees the kart turns clockwise about its centre, 45 apart, 1 keeping its facing",
			Outcomes: []string{"0", "45", "90", "135", "180", "225", "270", "315"}},
	}
}

// scatterTurn is the turn, in degrees clockwise, that the scatter die's face
// gives a kart that wipes out: eight directions 45 apart, 1 keeping its
// facing (a reading: the text says only "roll Scatter die"; a d8 of eight
// directions is this project's, docs/rules/gaslands.md).
func scatterTurn(face int) int { return (face - 1) * 45 }

// Odds implements race.Oddser.
func (o Ruleset) Odds(check string, args map[string]string) (map[string]float64, error) {
	if _, err := race.FindCheck("gaslands", o.Checks(), check, args); err != nil {
		return nil, err
	}
	num := func(name string, def int) (int, error) {
		v, ok := args[name]
		if !ok {
			return def, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, fmt.Errorf("--%s must be a whole number; got %q", name, v)
		}
		return n, nil
	}
	switch check {
	case "scatter":
		out := map[string]float64{}
		for _, f := range dice.D8.Faces {
			out[strconv.Itoa(scatterTurn(f))] += 1 / float64(len(dice.D8.Faces))
		}
		return out, nil
	case "smash":
		o, err := ParseOrientation(args["orientation"])
		if err != nil {
			return nil, err
		}
		var n [3]int
		for i, f := range []string{"gear", "against", "heavier"} {
			if n[i], err = num(f, 0); err != nil {
				return nil, err
			}
		}
		return SmashOdds(o, n[0], n[1], n[2], args["evade"] == "true", args["six-is-one"] == "true")
	case "attack":
		gear, err := num("gear", 0)
		if err != nil {
			return nil, err
		}
		dice, err := num("dice", ShellDice)
		if err != nil {
			return nil, err
		}
		return AttackOdds(dice, gear, args["six-is-one"] == "true")
	}
	n, err := num("dice", 1)
	if err != nil {
		return nil, err
	}
	return SkidOdds(n)
}
