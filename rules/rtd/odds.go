package rtd

import (
	"fmt"

	"pitwall/race"
)

// Checks implements race.Oddser.
func (Ruleset) Checks() []race.Check {
	return []race.Check{
		{Name: "racing-check", Help: "a Racing Check: 1d6 plus the modifier, read off the text's list",
			Flags:    []race.Flag{{Name: "modifier", Values: "any whole number", Need: true}},
			Outcomes: []string{"fail-2", "fail-1", "fail", "success", "success+1", "success+2"}},
		{Name: "item", Help: "an Item Roll: 1d6 plus the position bonus, +1 behind, the perk; 1 to 12 on the chart",
			Flags: []race.Flag{{Name: "position", Values: "1.. (1 = first place)", Need: true}, {Name: "behind", Bool: true},
				{Name: "perk", Values: "item-bonus|low-loot (or any other perk: no effect)"}},
			Outcomes: itemNames[1:]},
		{Name: "pass", Help: "a Pass: 1d6 plus Momentum each; the passer must beat the defender (ties hold)",
			Flags: []race.Flag{{Name: "momentum", Values: "the passer's Momentum", Need: true}, {Name: "against", Values: "the defender's Momentum", Need: true},
				{Name: "defensive", Bool: true}, {Name: "bonus", Values: "the passer's other bonuses, such as +1 from a Power Slide"}},
			Outcomes: []string{"pass", "held"}},
		{Name: "attack", Help: "an item's attack on one driver: a shell's opposed roll, a laid or thrown item's Racing Check, the blue shell's pull on the driver behind the leader",
			Flags: []race.Flag{{Name: "item", Values: "green-shell|red-shell|triple-red-shell|banana|fake-item-box|bob-omb|blue-shell", Need: true},
				{Name: "how", Values: "lay|throw (banana, fake-item-box, bob-omb; default lay)"},
				{Name: "behind", Values: "laid: the victim's place behind the item, 1 = the next driver (default 1)"},
				{Name: "between", Values: "thrown: drivers between thrower and target, 1.. (default 1)"},
				{Name: "among-boxes", Bool: true},
				{Name: "bonus", Values: "shells: the shell's extra (green: +1 at the named target, -1 at another, +1 after a bounce); blue-shell: the leader's Pass modifier, Momentum before the hit and ink -1"},
				{Name: "modifier", Values: "the target's Racing-Check modifiers (ink -1, shrunk -2); thrown: the thrower's; blue-shell: the driver's Pass modifier (Momentum, ink -1, +1 defensive)"},
				{Name: "dragging", Bool: true}, {Name: "shells", Values: "triple red shells the target still holds, 0..3"},
				{Name: "defensive", Bool: true}},
			Outcomes: []string{ShellHit, ShellMiss, ShellItemLost}},
		{Name: "ram", Help: "a ram: an opposed Racing Check, 1d6 plus modifiers each; the rammer must beat the other (a tie bounces it off)",
			Flags: []race.Flag{{Name: "bonus", Values: "the rammer's modifiers (Ramming Speed +1, Featherweight -1, orbiting triple red shells +2 each, +1 driving defensively, ink -1, shrunk -2)"},
				{Name: "guard", Values: "the other's modifiers (the same)"}},
			Outcomes: []string{"rams", "bounces"}},
		{Name: "aggressive", Help: "driving aggressively: 1d6 plus the modifiers; a 4 gains 1 Momentum, more gains 2, a Racing Check's losses at 1 and below",
			Flags:    []race.Flag{{Name: "modifier", Values: "the driver's modifiers (ink -1, shrunk -2; default 0)"}},
			Outcomes: []string{"-2", "-1", "+0", "+1", "+2"}},
		{Name: "course-event", Help: "a course event that comes on a roll: 1d6, it comes on the number the course names or more",
			Flags:    []race.Flag{{Name: "needs", Values: "the number the course's event needs, 1..7", Need: true}},
			Outcomes: []string{"comes", "none"}},
	}
}

// Odds implements race.Oddser.
func (o Ruleset) Odds(check string, args map[string]string) (map[string]float64, error) {
	if _, err := race.FindCheck("rtd", o.Checks(), check, args); err != nil {
		return nil, err
	}
	// num reads a whole-number flag from lo up to maxFlag: far beyond any
	// Momentum or modifier the game has, and small enough that no sum of
	// them overflows.
	num := func(name string, lo int) (int, error) { return race.IntFlag(args, name, 0, lo, maxFlag) }
	// mods reads flags that may be negative, in order: the first refused is
	// the error told.
	mods := func(names ...string) ([]int, error) {
		v := make([]int, len(names))
		for i, name := range names {
			var err error
			if v[i], err = num(name, -maxFlag); err != nil {
				return nil, err
			}
		}
		return v, nil
	}
	out := map[string]float64{}
	switch check {
	case "racing-check":
		m, err := num("modifier", -maxFlag)
		if err != nil {
			return nil, err
		}
		return d6(func(face int) string { return RacingCheck(face + m).String() }), nil
	case "item":
		pos, err := num("position", 1)
		if err != nil {
			return nil, err
		}
		perk := Standard
		if v, ok := args["perk"]; ok {
			if perk, err = ParsePerk(v); err != nil {
				return nil, fmt.Errorf("--perk: %v", err)
			}
		}
		b := ItemRollBonus(pos, args["behind"] == "true", perk)
		return d6(func(face int) string { return ItemFor(face + b).String() }), nil
	case "pass":
		v, err := mods("momentum", "against", "bonus")
		if err != nil {
			return nil, err
		}
		mp, md, bonus := v[0], v[1], v[2]
		if args["defensive"] == "true" {
			md++ // Drive Defensively: +1 to avoid being passed
		}
		opposed(out, PassSucceeds, mp+bonus, md, "pass", "held")
		return share(out, 36), nil
	case "attack":
		return attackOdds(args, num)
	case "ram":
		v, err := mods("bonus", "guard")
		if err != nil {
			return nil, err
		}
		opposed(out, RamSucceeds, v[0], v[1], "rams", "bounces")
		return share(out, 36), nil
	case "aggressive":
		m, err := num("modifier", -maxFlag)
		if err != nil {
			return nil, err
		}
		return d6(func(face int) string { return signed(AggressiveGain(face + m)) }), nil
	case "course-event":
		needs, err := race.IntFlag(args, "needs", 0, 1, 7)
		if err != nil {
			return nil, err
		}
		return d6(func(face int) string { return map[bool]string{true: "comes", false: "none"}[EventComes(face, needs)] }), nil
	}
	return out, nil
}

// maxFlag bounds the odds' whole-number flags, both ways for those that may
// be negative.
const maxFlag = 99

// attackOdds counts the faces of an item's attack on one driver.
func attackOdds(args map[string]string, num func(string, int) (int, error)) (map[string]float64, error) {
	it, err := ParseItem(args["item"])
	if err != nil {
		return nil, fmt.Errorf("--item: %v", err)
	}
	ints := map[string]int{}
	for _, f := range []struct {
		name string
		lo   int
	}{{"behind", 1}, {"between", 1}, {"bonus", -maxFlag}, {"modifier", -maxFlag}, {"shells", 0}} {
		if ints[f.name], err = num(f.name, f.lo); err != nil {
			return nil, err
		}
	}
	if ints["shells"] > 3 {
		return nil, fmt.Errorf("--shells is 0 to 3; got %d", ints["shells"])
	}
	how := args["how"]
	lays := it == Banana || it == FakeItemBox || it == BobOmb
	switch {
	case how != "" && !lays:
		return nil, fmt.Errorf("--how is for banana, fake-item-box and bob-omb; a %s is fired", it)
	case how == "":
		how = "lay"
	case how != "lay" && how != "throw":
		return nil, fmt.Errorf("--how is lay or throw; got %q", how)
	}
	out := map[string]float64{} // faces counted, out of faces
	faces := 36.0
	check := func(mod int) { // a Racing Check: success misses the victim
		faces = 6
		for face := 1; face <= 6; face++ {
			if RacingCheck(face + mod).Succeeds() {
				out[ShellMiss]++
			} else {
				out[ShellHit]++
			}
		}
	}
	mod := ints["modifier"]
	switch {
	case it == GreenShell || it == RedShell || it == TripleRedShell:
		bonus := ints["bonus"]
		if it != GreenShell {
			bonus += 3 // a red shell homes in
		}
		guard := 2 * ints["shells"]
		if args["dragging"] == "true" {
			guard += 3
		}
		if args["defensive"] == "true" {
			guard++
		}
		for a := 1; a <= 6; a++ {
			for d := 1; d <= 6; d++ {
				out[ShellResult(a, bonus, d, mod, guard, args["dragging"] == "true")]++
			}
		}
	case it == BlueShell: // the leader is hit; this is the driver behind being pulled in
		for a := 1; a <= 6; a++ {
			for d := 1; d <= 6; d++ {
				if BlueShellShared(a, ints["bonus"], d, mod) {
					out[ShellHit]++
				} else {
					out[ShellMiss]++
				}
			}
		}
	case lays && how == "throw": // the thrower's check: success hits the target
		between := max(ints["between"], 1)
		check(mod - ThrowPenalty(it, between))
		out[ShellHit], out[ShellMiss] = out[ShellMiss], out[ShellHit]
	case lays:
		ms := LaidMods(it, args["among-boxes"] == "true")
		behind := max(ints["behind"], 1)
		if it == BobOmb && behind > 1 {
			return nil, fmt.Errorf("a laid bob-omb catches only the next driver (--behind 1); the two after check against its blast (odds rtd racing-check)")
		}
		check(mod + ms[min(behind-1, len(ms)-1)])
	default:
		return nil, fmt.Errorf("a %s does not attack one driver; --item is one of green-shell, red-shell, triple-red-shell, banana, fake-item-box, bob-omb, blue-shell", it)
	}
	for k, v := range out {
		if v == 0 {
			delete(out, k)
		}
	}
	return share(out, faces), nil
}

// opposed counts, of the 36 pairs of d6 of an opposed check, those the
// first side wins (won, each die plus its side's modifiers) as win and the
// others as lose, into out.
func opposed(out map[string]float64, won func(a, d int) bool, mine, theirs int, win, lose string) {
	for a := 1; a <= 6; a++ {
		for d := 1; d <= 6; d++ {
			if won(a+mine, d+theirs) {
				out[win]++
			} else {
				out[lose]++
			}
		}
	}
}

// d6 is the odds of one d6 read by key: each face counted under the key it
// gives, the counts shared out of 6.
func d6(key func(face int) string) map[string]float64 {
	out := map[string]float64{}
	for face := 1; face <= 6; face++ {
		out[key(face)]++
	}
	return share(out, 6)
}

// share turns counts of faces out of faces into odds, each divided once, so
// that odds that are certain are exactly 1 (36 additions of 1/36 are not).
func share(counts map[string]float64, faces float64) map[string]float64 {
	for k, n := range counts {
		counts[k] = n / faces
	}
	return counts
}
