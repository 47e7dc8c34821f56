package gaslands

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"pitwall/race"
)

// Odds computes exact odds from the game's dice by counting their faces.
type Odds struct{}

// Checks implements race.Oddser.
func (Odds) Checks() []race.Check {
	return []race.Check{
		{Name: "skid", Help: "skid dice: each face SHIFT (3 in 6), HAZARD, SLIDE or SPIN; with more dice, the outcome counts each face, e.g. '2 shift + spin'",
			Flags:    []race.Flag{{Name: "dice", Values: fmt.Sprintf("1..%d, up to the kart's Handling (default 1)", MaxSkidDice)}},
			Outcomes: []string{"shift", "hazard", "slide", "spin"}},
	}
}

// Odds implements race.Oddser.
func (o Odds) Odds(check string, args map[string]string) (map[string]float64, error) {
	var c *race.Check
	var names []string
	for _, x := range o.Checks() {
		names = append(names, x.Name)
		if x.Name == check {
			c = &x
		}
	}
	if c == nil {
		return nil, fmt.Errorf("unknown gaslands check %q; checks: %s", check, strings.Join(names, ", "))
	}
	var unknown []string
	for k := range args {
		known := false
		for _, f := range c.Flags {
			known = known || f.Name == k
		}
		if !known {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("%s has no flag --%s; flags: --dice", check, unknown[0])
	}
	n := 1
	if v, ok := args["dice"]; ok {
		var err error
		if n, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
			return nil, fmt.Errorf("--dice must be a whole number from 1 to %d; got %q", MaxSkidDice, v)
		}
	}
	return SkidOdds(n)
}
