package rtd

import (
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
)

// Each race option reaches the state set up; the defaults are the zero
// value; a key or a value the game has not got is refused, saying what
// it takes.
func TestRaceOptions(t *testing.T) {
	es := []race.Entrant{{Player: "A", Racers: []string{"Mario"}}, {Player: "B", Racers: []string{"Luigi"}}}
	setup := func(opts map[string]string) (*State, error) {
		st, err := Ruleset{}.Setup(race.Config{Options: opts}, es, dice.New(dice.SeedFromInt(1)))
		if err != nil {
			return nil, err
		}
		return st.(*State), nil
	}
	for _, tc := range []struct {
		opts map[string]string
		want RaceOptions
	}{
		{nil, RaceOptions{}},
		{map[string]string{"inventory": "any", "momentum-cap": "at-once", "pull-ahead": "unless-held", "star-ram": "roll"}, RaceOptions{}},
		{map[string]string{"inventory": "one"}, RaceOptions{OneItem: true}},
		{map[string]string{"momentum-cap": "cleanup"}, RaceOptions{CapAtCleanup: true}},
		{map[string]string{"pull-ahead": "when-ordered"}, RaceOptions{PullWhenOrdered: true}},
		{map[string]string{"star-ram": " Sure "}, RaceOptions{StarRamSure: true}},
	} {
		s, err := setup(tc.opts)
		if err != nil || s.Opts != tc.want {
			t.Errorf("%v: %+v, %v; want %+v", tc.opts, s, err, tc.want)
		}
	}
	for _, f := range optionFields {
		if f.Default != f.Values[0] {
			t.Errorf("%s: the default %q is not the first value of %v", f.Name, f.Default, f.Values)
		}
	}
	for _, tc := range []struct {
		opts map[string]string
		says string
	}{
		{map[string]string{"momentum-cap": ""}, `momentum-cap is one of at-once, cleanup; got ""`},
		{map[string]string{"inventory": "three"}, `inventory is one of any, one; got "three"`},
		{map[string]string{"pull-ahead": "never"}, `pull-ahead is one of unless-held, when-ordered; got "never"`},
		{map[string]string{"star-ram": "true"}, `star-ram is one of roll, sure`},
		{map[string]string{"laps": "1"}, `unknown race option "laps"; rtd's race options are inventory, momentum-cap, pull-ahead, star-ram (the number of laps is --laps)`},
	} {
		if _, err := setup(tc.opts); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: %v; want %q", tc.opts, err, tc.says)
		}
	}
}
