package rtd

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"pitwall/race"
)

// The race options: where the text leaves the mechanism to the host, each
// reading is a choice (docs/rules/rtd.md, "Race options"). They are read at
// setup into the state, so a turn's rules are in the state alone.
const (
	OptInventory   = "inventory"
	OptMomentumCap = "momentum-cap"
	OptPullAhead   = "pull-ahead"
	OptStarRam     = "star-ram"
)

// optionFields are the race options as the CLI and pages offer them; the
// first value of each is its default.
var optionFields = []race.Field{
	{Name: OptInventory, Type: race.Choice, Values: []string{"any", "one"}, Default: "any",
		Help: "any: a racer holds any number of items and checks at every line of item boxes it drives; one: one item at a time, and a racer holding one drives past the boxes"},
	{Name: OptMomentumCap, Type: race.Choice, Values: []string{"at-once", "cleanup"}, Default: "at-once",
		Help: "at-once: Momentum never goes past the kart's most (5, a Slow kart 4), a gain beyond it is lost; cleanup: it may during the turn and is cut back in the Cleanup Phase"},
	{Name: OptPullAhead, Type: race.Choice, Values: []string{"unless-held", "when-ordered"}, Default: "unless-held",
		Help: "unless-held: the first in a segment at Momentum 4 or more (or breaking away on a mushroom) tries to pull ahead unless its order ends 'then hold'; when-ordered: only if its order ends 'then pull ahead'"},
	{Name: OptStarRam, Type: race.Choice, Values: []string{"roll", "sure"}, Default: "roll",
		Help: "roll: an invincible racer's ram is the ram's opposed check, and a win flips the other (-2); sure: it always wins, with no dice"},
}

// RaceOptions are the race's options as the rules read them; the zero value
// is every default, so a race set up before an option existed plays by its
// default.
type RaceOptions struct {
	OneItem         bool `json:"one_item,omitempty"`          // inventory=one
	CapAtCleanup    bool `json:"cap_at_cleanup,omitempty"`    // momentum-cap=cleanup
	PullWhenOrdered bool `json:"pull_when_ordered,omitempty"` // pull-ahead=when-ordered
	StarRamSure     bool `json:"star_ram_sure,omitempty"`     // star-ram=sure
}

// readOptions reads a race's options: an unknown key or a value the option
// does not take is refused with what it does take.
func readOptions(opts map[string]string) (RaceOptions, error) {
	var o RaceOptions
	for _, k := range slices.Sorted(maps.Keys(opts)) { // the same error for the same input
		f, ok := race.FieldNamed(optionFields, k)
		if !ok {
			names := make([]string, len(optionFields))
			for i, f := range optionFields {
				names[i] = f.Name
			}
			return o, fmt.Errorf("unknown race option %q; rtd's race options are %s (the number of laps is --laps)", k, strings.Join(names, ", "))
		}
		v, err := f.Chosen(opts[k])
		if err != nil {
			return o, err
		}
		switch k {
		case OptInventory:
			o.OneItem = v == "one"
		case OptMomentumCap:
			o.CapAtCleanup = v == "cleanup"
		case OptPullAhead:
			o.PullWhenOrdered = v == "when-ordered"
		case OptStarRam:
			o.StarRamSure = v == "sure"
		}
	}
	return o, nil
}

// clause is the pull clause that changes something in this race: 'then
// hold' where a racer pulls ahead unless held, 'then pull ahead' where only
// on order.
func (o RaceOptions) clause() string {
	if o.PullWhenOrdered {
		return PullAhead
	}
	return PullHold
}

// toPull is what an order adds to pull ahead whenever it may: the clause
// where only an order pulls, nothing where every racer does.
func (o RaceOptions) toPull() string {
	if o.PullWhenOrdered {
		return PullAhead
	}
	return ""
}

// pulls says whether a racer whose order is a tries to pull ahead (or break
// away) when it may: the text makes it the driver's choice.
func (o RaceOptions) pulls(a Action) bool {
	if o.PullWhenOrdered {
		return a.Pull == PullAhead
	}
	return a.Pull != PullHold
}
