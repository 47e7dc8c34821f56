package ludi

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"pitwall/race"
)

// Rules are the race options that change how a turn plays: the readings a
// host may choose where the text is silent on a mechanism or can be read two
// ways (docs/rules/ludi.md, "Race options"). Setup reads them into the state,
// so Resolve stays pure and a replay plays them the same.
type Rules struct {
	WatchCrash    string `json:"watch_crash,omitempty"`
	EndurancePace string `json:"endurance_pace,omitempty"`
	LacerateSkill string `json:"lacerate_skill,omitempty"`
	SlipLane      string `json:"slip_lane,omitempty"`
	WreckFinish   string `json:"wreck_finish,omitempty"`
	ControlWheels string `json:"control_wheels,omitempty"`
}

// The values of the rule options.
const (
	WatchCrashMinus2 = "minus-2" // a Watch takes 2 off a crash roll against it
	WatchCrashNone   = "none"    // a Watch guards only against lacerations

	EndurancePaceCap   = "cap"   // each Endurance point lost takes one off the speed die's top face
	EndurancePaceSpace = "space" // each Endurance point lost costs a space on every move
	EndurancePaceNone  = "none"  // only injuries after the last point cost spaces

	LacerateSkillAttacker   = "attacker"   // the table's row is the attacker's Skill
	LacerateSkillDifference = "difference" // the row is the attacker's Skill less the defender's

	SlipLaneCheck = "check" // the slip die is chosen by the lane the corner is checked in
	SlipLaneStart = "start" // by the lane the chariot began its order in

	WreckFinishOut   = "out"   // a wreck dragged over the line takes no place
	WreckFinishPlace = "place" // it finishes and takes its place

	ControlWheelsSlip = "slip" // Control's cornering modifier also comes off the slip damage roll against the chariot
	ControlWheelsNone = "none" // Control changes only the cornering roll
)

// Each rule is asked by what its values other than the default do, so a
// Rules left empty (a state built by hand) plays by the defaults.

// watchGuardsCrash says whether a Watch takes WatchModifier off a crash roll.
func (r Rules) watchGuardsCrash() bool { return r.WatchCrash != WatchCrashNone }

// enduranceCaps says whether lost Endurance points lower the speed die's top face.
func (r Rules) enduranceCaps() bool {
	return r.EndurancePace != EndurancePaceSpace && r.EndurancePace != EndurancePaceNone
}

// enduranceCostsSpaces says whether each lost Endurance point costs a space.
func (r Rules) enduranceCostsSpaces() bool { return r.EndurancePace == EndurancePaceSpace }

// skillDifference says whether a laceration reads the Skill difference.
func (r Rules) skillDifference() bool { return r.LacerateSkill == LacerateSkillDifference }

// slipLaneAtStart says whether the slip die is chosen by the order's first lane.
func (r Rules) slipLaneAtStart() bool { return r.SlipLane == SlipLaneStart }

// wreckTakesPlace says whether a wreck dragged over the line finishes.
func (r Rules) wreckTakesPlace() bool { return r.WreckFinish == WreckFinishPlace }

// controlGuardsWheels says whether Control eases a slip's damage roll against the chariot.
func (r Rules) controlGuardsWheels() bool { return r.ControlWheels != ControlWheelsNone }

// ruleOption is one race option of Rules: its field as the CLI shows it, and
// where its value lives.
type ruleOption struct {
	field race.Field
	at    func(*Rules) *string
}

var ruleOptions = []ruleOption{
	{race.Field{Name: "watch-crash", Type: race.Choice, Values: []string{WatchCrashMinus2, WatchCrashNone}, Default: WatchCrashMinus2,
		Help: "what a Watch does against a crash: minus-2 takes 2 off the crash roll against the watching chariot, as off a laceration; none leaves crashes alone (Watch guards only against lacerations)"},
		func(r *Rules) *string { return &r.WatchCrash }},
	{race.Field{Name: "endurance-pace", Type: race.Choice, Values: []string{EndurancePaceCap, EndurancePaceSpace, EndurancePaceNone}, Default: EndurancePaceCap,
		Help: "what a lost Endurance point costs the pace: cap takes one off the speed die's top face for each (a higher roll reads as that); space takes a space off every move for each; none costs nothing (only injuries once Endurance is gone)"},
		func(r *Rules) *string { return &r.EndurancePace }},
	{race.Field{Name: "lacerate-skill", Type: race.Choice, Values: []string{LacerateSkillAttacker, LacerateSkillDifference}, Default: LacerateSkillAttacker,
		Help: "the Skill row of the laceration table: attacker reads the attacker's Skill; difference reads the attacker's Skill less the defender's (below 0 as 0)"},
		func(r *Rules) *string { return &r.LacerateSkill }},
	{race.Field{Name: "slip-lane", Type: race.Choice, Values: []string{SlipLaneCheck, SlipLaneStart}, Default: SlipLaneCheck,
		Help: "the lane whose corner spaces choose the slip die: check uses the lane the chariot is in when the corner is checked; start uses the lane it began its order in, the space found level in its lane now"},
		func(r *Rules) *string { return &r.SlipLane }},
	{race.Field{Name: "wreck-finish", Type: race.Choice, Values: []string{WreckFinishOut, WreckFinishPlace}, Default: WreckFinishOut,
		Help: "a wreck dragged over the line for the last time: out leaves the track and the race with no place (ranked first of those out); place finishes and takes its place"},
		func(r *Rules) *string { return &r.WreckFinish }},
	{race.Field{Name: "control-wheels", Type: race.Choice, Values: []string{ControlWheelsSlip, ControlWheelsNone}, Default: ControlWheelsSlip,
		Help: "what Control does for damaged wheels: slip takes Control's cornering modifier (1 at FAST, 2 at MAX) off the slip damage roll against the chariot; none changes only the cornering roll"},
		func(r *Rules) *string { return &r.ControlWheels }},
}

// ruleFields are the rule options' fields, for the game's descriptor.
func ruleFields() []race.Field {
	var out []race.Field
	for _, o := range ruleOptions {
		out = append(out, o.field)
	}
	return out
}

// optionNames lists every race option, for errors.
func optionNames() string {
	names := []string{"package.NAME=a,b,c"}
	for _, o := range ruleOptions {
		names = append(names, o.field.Name+"="+strings.Join(o.field.Values, "|"))
	}
	return strings.Join(names, ", ")
}

// set sets the rule option key to value. It says false for a key that is not
// a rule option, and refuses a value the option does not take.
func (r *Rules) set(key, value string) (bool, error) {
	for _, o := range ruleOptions {
		if o.field.Name != key {
			continue
		}
		w, err := o.field.Chosen(value)
		if err != nil {
			return true, err
		}
		*o.at(r) = w
		return true, nil
	}
	return false, nil
}

// fill gives every option not set its default: a race set up, or a state
// stored, before an option existed plays by its default.
func (r *Rules) fill() {
	for _, o := range ruleOptions {
		if p := o.at(r); *p == "" {
			*p = o.field.Default
		}
	}
}

// check refuses a stored value no option takes.
func (r *Rules) check() error {
	for _, o := range ruleOptions {
		if v := *o.at(r); !slices.Contains(o.field.Values, v) {
			return fmt.Errorf("race option %s is %q; it is one of %s", o.field.Name, v, strings.Join(o.field.Values, ", "))
		}
	}
	return nil
}

// readOptions reads a race's options: the rules, and a check that every
// key is one ludi knows (package.NAME is read by BuildTeam).
func readOptions(options map[string]string) (Rules, error) {
	var r Rules
	for _, k := range slices.Sorted(maps.Keys(options)) { // the same error for the same options
		if strings.HasPrefix(k, "package.") && len(k) > len("package.") {
			continue
		}
		ok, err := r.set(k, options[k])
		if err != nil {
			return Rules{}, err
		}
		if !ok {
			return Rules{}, fmt.Errorf("unknown race option %q; ludi options: %s (the number of laps is --laps)", k, optionNames())
		}
	}
	r.fill()
	return r, nil
}
