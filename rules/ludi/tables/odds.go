package tables

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"pitwall/dice"
	"pitwall/race"
)

// The flags of the checks (contract.md, `pitwall odds`, ludi).
var (
	flagLevel        = race.Flag{Name: "level", Values: "low|fast|max", Need: true}
	flagLane         = race.Flag{Name: "lane", Values: "1..6", Need: true}
	flagSkill        = race.Flag{Name: "skill", Values: "0..2", Need: true}
	flagControl      = race.Flag{Name: "control", Values: "true|false", Bool: true}
	flagEndurance    = race.Flag{Name: "endurance", Values: "0..2", Need: true}
	flagConstitution = race.Flag{Name: "constitution", Values: "0..2", Need: true}
	flagWatch        = race.Flag{Name: "watch", Values: "true|false", Bool: true}
	flagMode         = race.Flag{Name: "mode", Values: "adjacent|overtaking", Need: true}
	flagSize         = race.Flag{Name: "size", Values: "0..2 (the defender's)", Need: true}
	flagTarget       = race.Flag{Name: "target", Values: "horses|chariot", Need: true}
	flagCombo        = race.Flag{Name: "combo", Values: "0..6 (the attacker's Skill + Size)", Need: true}
	flagDefender     = race.Flag{Name: "defender", Values: "0..2 (the defender's Size/Endurance)", Need: true}
	flagValue        = race.Flag{Name: "value", Values: "0..2 (the chariot's Size, or the horses' Endurance)", Need: true}
	flagSpaces       = race.Flag{Name: "spaces", Values: "3..7 (the lane's spaces in the corner)", Need: true}
	flagWheels       = race.Flag{Name: "wheels", Values: "0..2 (Control's modifier at the level: 1 at FAST, 2 at MAX; 0 without)"}
)

// Outcome names.
const (
	outSuccessDamage = "success_damage"
	outSuccess       = "success"
	outDamage        = "damage"
	outNone          = "none"
	outStun          = "stun"
	outHit           = "hit"
	outSelfDamage    = "self_damage"
	outHurt          = "hurt"
)

// Checks lists the rolls whose odds Odds computes, with their flags and
// outcome names: every roll a turn makes (a crash's horses-or-chariot and a
// slip's horses-or-chariot are even picks, and hanging on to a wreck reads
// the fall's table).
func Checks() []race.Check {
	var spaces []string
	for n := 2; n <= 12; n++ {
		spaces = append(spaces, strconv.Itoa(n))
	}
	return []race.Check{
		{
			Name:     "speed",
			Help:     "spaces moved in a turn at a speed level (orange, red or green Formula D die)",
			Flags:    []race.Flag{flagLevel},
			Outcomes: spaces,
		},
		{
			Name:     "corner",
			Help:     "cornering outcome by lane (1 = inside), speed level and auriga Skill; --control subtracts 1 at FAST, 2 at MAX",
			Flags:    []race.Flag{flagLane, flagLevel, flagSkill, flagControl},
			Outcomes: []string{NoChange.String(), Slip.String(), Naufragia.String()},
		},
		{
			Name:     "whip",
			Help:     "whipping: roll 1 (success) and roll 2 (damage to the horses) are independent D20s, by the horses' Endurance",
			Flags:    []race.Flag{flagEndurance},
			Outcomes: []string{outSuccessDamage, outSuccess, outDamage, outNone},
		},
		{
			Name:     "lacerate",
			Help:     "laceration of an auriga: attacker Skill against defender Constitution; --watch subtracts 2 from the roll",
			Flags:    []race.Flag{flagSkill, flagConstitution, flagWatch},
			Outcomes: []string{outStun, outNone},
		},
		{
			Name:     "wall",
			Help:     "damage from contact with the wall, by auriga Skill",
			Flags:    []race.Flag{flagSkill},
			Outcomes: []string{outDamage, outNone},
		},
		{
			Name:     "crash",
			Help:     "a Crash: whether it strikes its target, by how it comes (landing adjacent or overtaking), the attacker's Skill and the defender's Size; --watch: the defender watches, 2 off the roll (the race option watch-crash=minus-2, the default)",
			Flags:    []race.Flag{flagMode, flagSkill, flagSize, flagTarget, flagWatch},
			Outcomes: []string{outHit, outNone},
		},
		{
			Name:     "crash-damage",
			Help:     "a Crash's damage roll: whether the attacker damages its own chariot, by its Skill + Size combo and the defender's Size/Endurance (what the defender suffers is the cell's, not the roll's)",
			Flags:    []race.Flag{flagCombo, flagDefender},
			Outcomes: []string{outSelfDamage, outNone},
		},
		{
			Name:     "slip",
			Help:     "a Slip with no contact: whether the part hit (an even pick, horses or chariot) is damaged, by its Size or Endurance; --wheels: what the chariot's Control takes off the roll when the chariot is hit (the race option control-wheels=slip, the default)",
			Flags:    []race.Flag{flagValue, flagWheels},
			Outcomes: []string{outDamage, outNone},
		},
		{
			Name:     "slip-start",
			Help:     "where in the corner a Slip begins, by the lane's spaces there (rerolled faces rolled again)",
			Flags:    []race.Flag{flagSpaces},
			Outcomes: []string{"1", "2", "3", "4", "5", "6", "7"},
		},
		{
			Name:     "fall",
			Help:     "the auriga's fall at a naufragia, by Constitution; hanging on to a wreck throws the auriga out on the same rolls",
			Flags:    []race.Flag{flagConstitution},
			Outcomes: []string{outHurt, outNone},
		},
	}
}

// Odds computes the exact probability of each outcome of check, from the
// tables, by enumerating the faces of the dice. args holds the flags by name
// without dashes; a set bool flag holds "true". Every outcome the check names
// is present, those of probability 0 included (slip-start names the spaces of
// the longest lane, and gives those of the lane asked for).
func Odds(check string, args map[string]string) (map[string]float64, error) {
	exact, err := exactOdds(check, args)
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(exact))
	for k, p := range exact {
		out[k], _ = p.Float64()
	}
	return out, nil
}

// exactOdds is Odds as exact fractions.
func exactOdds(check string, args map[string]string) (map[string]*big.Rat, error) {
	checks := Checks()
	i := slices.IndexFunc(checks, func(c race.Check) bool { return c.Name == check })
	if i < 0 {
		names := make([]string, len(checks))
		for j, c := range checks {
			names[j] = c.Name
		}
		return nil, fmt.Errorf("unknown ludi check %q; the checks are %s", check, strings.Join(names, ", "))
	}
	c := checks[i]
	if err := knownFlags(c, args); err != nil {
		return nil, err
	}
	a := &argReader{check: c.Name, args: args}
	// Each case reads all its flags and works the odds out only if they all
	// read; otherwise the first flag missing or wrong is refused below.
	switch c.Name {
	case "speed":
		if l := a.level(); a.err == nil {
			return speedOdds(l), nil
		}
	case "corner":
		if lane, l, skill, control := a.integer(flagLane, 1, 6), a.level(), a.integer(flagSkill, 0, 2), a.boolean(flagControl); a.err == nil {
			return cornerOdds(lane, l, skill, control), nil
		}
	case "whip":
		if e := a.integer(flagEndurance, 0, 2); a.err == nil {
			return whipOdds(e), nil
		}
	case "lacerate":
		if skill, con, watch := a.integer(flagSkill, 0, 2), a.integer(flagConstitution, 0, 2), a.boolean(flagWatch); a.err == nil {
			return lacerateOdds(skill, con, watch), nil
		}
	case "wall":
		if skill := a.integer(flagSkill, 0, 2); a.err == nil {
			return d20Odds(func(r int) bool { return WallDamage(skill, r) }, outDamage, outNone), nil
		}
	case "crash":
		mode, skill, size := CrashMode(a.oneOf(flagMode, crashModeNames[:])), a.integer(flagSkill, 0, 2), a.integer(flagSize, 0, 2)
		if target, watch := Target(a.oneOf(flagTarget, targetNames[:])), a.boolean(flagWatch); a.err == nil {
			return crashOdds(mode, skill, size, target, watch), nil
		}
	case "crash-damage":
		if combo, def := a.integer(flagCombo, 0, 6), a.integer(flagDefender, 0, 2); a.err == nil {
			return d20Odds(func(r int) bool { self, _ := CrashDamageRoll(combo, def, r); return self }, outSelfDamage, outNone), nil
		}
	case "slip":
		if v, wheels := a.integer(flagValue, 0, 2), a.optional(flagWheels, 0, 2); a.err == nil {
			return d20Odds(func(r int) bool { return SlipDamage(v, max(1, r-wheels)) }, outDamage, outNone), nil
		}
	case "slip-start":
		if n := a.integer(flagSpaces, 3, 7); a.err == nil {
			return slipStartOdds(n), nil
		}
	case "fall":
		if con := a.integer(flagConstitution, 0, 2); a.err == nil {
			return d20Odds(func(r int) bool { return FallDamage(con, r) }, outHurt, outNone), nil
		}
	default:
		return nil, fmt.Errorf("ludi check %q has no odds", check) // not reached: every check has a case
	}
	return nil, a.err
}

// knownFlags refuses a flag the check does not have.
func knownFlags(c race.Check, args map[string]string) error {
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if !slices.ContainsFunc(c.Flags, func(f race.Flag) bool { return f.Name == k }) {
			have := make([]string, len(c.Flags))
			for i, f := range c.Flags {
				have[i] = "--" + f.Name
			}
			return fmt.Errorf("ludi %s has no flag %q; its flags are %s", c.Name, "--"+k, strings.Join(have, ", "))
		}
	}
	return nil
}

// argReader reads a check's flags. The first error sticks in err, and every
// read after it gives the zero value, so a check reads all its flags and
// asks err once.
type argReader struct {
	check string
	args  map[string]string
	err   error
}

// need is flag f's value; a missing f is an error.
func (a *argReader) need(f race.Flag) (string, bool) {
	if a.err != nil {
		return "", false
	}
	v, ok := a.args[f.Name]
	if !ok {
		a.err = fmt.Errorf("ludi %s needs --%s (%s)", a.check, f.Name, f.Values)
	}
	return v, ok
}

func (a *argReader) level() Level {
	v, ok := a.need(flagLevel)
	if !ok {
		return Stop
	}
	l, err := ParseLevel(v)
	switch {
	case err != nil:
		a.err = fmt.Errorf("--level must be one of low, fast, max; got %q", v)
	case l == Stop:
		a.err = fmt.Errorf("--level stop has no odds: a chariot at STOP moves 0 spaces and rolls no die; use low, fast or max")
	}
	return l
}

// integer reads f, which must be given, as a whole number lo..hi.
func (a *argReader) integer(f race.Flag, lo, hi int) int {
	if _, ok := a.need(f); !ok {
		return 0
	}
	return a.optional(f, lo, hi)
}

// optional reads f as a whole number lo..hi; absent, it is 0.
func (a *argReader) optional(f race.Flag, lo, hi int) int {
	if a.err != nil {
		return 0
	}
	n, err := race.IntFlag(a.args, f.Name, 0, lo, hi)
	a.err = err
	return n
}

// oneOf reads f, which must be given, as one of names in any case, and gives
// its index: the value itself where names is an enumeration's labels
// (crashModeNames, targetNames).
func (a *argReader) oneOf(f race.Flag, names []string) int {
	v, ok := a.need(f)
	if !ok {
		return 0
	}
	i := slices.Index(names, strings.ToLower(strings.TrimSpace(v)))
	if i < 0 {
		a.err = fmt.Errorf("--%s is %s; got %q", f.Name, strings.Join(names, " or "), v)
		return 0
	}
	return i
}

// boolean reads a switch: absent is false; "true" (or "", a bare switch) is
// true; "false" is false.
func (a *argReader) boolean(f race.Flag) bool {
	v, ok := a.args[f.Name]
	if a.err != nil || !ok {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true":
		return true
	case "false":
		return false
	}
	a.err = fmt.Errorf("--%s is a switch: true or false; got %q", f.Name, v)
	return false
}

// odds turns counts over n equally likely cases into fractions.
func odds(n int64, counts map[string]int64) map[string]*big.Rat {
	out := make(map[string]*big.Rat, len(counts))
	for k, c := range counts {
		out[k] = big.NewRat(c, n)
	}
	return out
}

func speedOdds(l Level) map[string]*big.Rat {
	d, _ := SpeedDie(l) // l is LOW, FAST or MAX here
	counts := map[string]int64{}
	for _, f := range d.Faces {
		counts[strconv.Itoa(f)]++
	}
	return odds(int64(d.Sides()), counts)
}

func cornerOdds(lane int, l Level, skill int, control bool) map[string]*big.Rat {
	d, _ := SpeedDie(l) // l is LOW, FAST or MAX here
	mod := 0
	if control {
		mod = ControlModifier(l)
	}
	counts := map[string]int64{NoChange.String(): 0, Slip.String(): 0, Naufragia.String(): 0}
	for _, f := range d.Faces {
		counts[CornerOutcome(lane, l, skill, f-mod).String()]++
	}
	return odds(int64(d.Sides()), counts)
}

// d20Odds is the chance that hit is true on one standard D20.
func d20Odds(hit func(roll int) bool, yes, no string) map[string]*big.Rat {
	counts := map[string]int64{yes: 0, no: 0}
	for _, r := range dice.D20.Faces {
		if hit(r) {
			counts[yes]++
		} else {
			counts[no]++
		}
	}
	return odds(int64(dice.D20.Sides()), counts)
}

func whipOdds(endurance int) map[string]*big.Rat {
	counts := map[string]int64{outSuccessDamage: 0, outSuccess: 0, outDamage: 0, outNone: 0}
	for _, r1 := range dice.D20.Faces {
		ok, _ := WhipSuccess(endurance, r1)
		for _, r2 := range dice.D20.Faces {
			hurt := WhipHurts(endurance, r2)
			switch {
			case ok && hurt:
				counts[outSuccessDamage]++
			case ok:
				counts[outSuccess]++
			case hurt:
				counts[outDamage]++
			default:
				counts[outNone]++
			}
		}
	}
	n := int64(dice.D20.Sides())
	return odds(n*n, counts)
}

func lacerateOdds(skill, constitution int, watch bool) map[string]*big.Rat {
	mod := 0
	if watch {
		mod = WatchModifier
	}
	return d20Odds(func(r int) bool { return LacerateStun(skill, constitution, r-mod) > 0 }, outStun, outNone)
}

func crashOdds(mode CrashMode, skill, size int, target Target, watch bool) map[string]*big.Rat {
	mod := 0
	if watch {
		mod = WatchModifier
	}
	return d20Odds(func(r int) bool { return CrashHits(mode, skill, size, target, max(1, r-mod)) }, outHit, outNone)
}

// slipStartOdds counts the faces that name a space; a face that is rolled
// again counts for none, so each space's chance is its faces over those that
// name one.
func slipStartOdds(spaces int) map[string]*big.Rat {
	d, read, _ := SlipStart(spaces) // spaces is 3..7 here
	counts := map[string]int64{}
	var named int64
	for _, f := range d.Faces {
		if sp, again := read(f); !again {
			counts[strconv.Itoa(sp)]++
			named++
		}
	}
	return odds(named, counts)
}
