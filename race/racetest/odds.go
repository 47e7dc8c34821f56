package racetest

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"pitwall/race"
)

// Agrees says whether count hits in n trials agree with odds p: within four
// standard errors of p, plus slack for the tails, where the normal
// approximation is thin. Odds outside [0, 1], NaN included, never agree
// (a NaN would make every comparison false, and so pass).
func Agrees(count float64, n int, p, slack float64) bool {
	if !(p >= 0 && p <= 1) || n <= 0 {
		return false
	}
	return math.Abs(count/float64(n)-p) <= 4*math.Sqrt(p*(1-p)/float64(n))+slack
}

// Distribution says what is wrong with odds as a distribution, or nil: each
// value in [0, 1] (NaN is not), summing to 1 within tol, and, when outcomes
// are given, naming exactly those.
func Distribution(odds map[string]float64, outcomes []string, tol float64) error {
	if outcomes != nil {
		if len(odds) != len(outcomes) {
			return fmt.Errorf("%d outcomes %v; want %d: %v", len(odds), odds, len(outcomes), outcomes)
		}
		for _, o := range outcomes {
			if _, ok := odds[o]; !ok {
				return fmt.Errorf("no outcome %q in %v", o, odds)
			}
		}
	}
	sum := 0.0
	for _, k := range slices.Sorted(maps.Keys(odds)) { // a fixed order: the same sum every time
		p := odds[k]
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("outcome %q has odds %v", k, p)
		}
		sum += p
	}
	if math.Abs(sum-1) > tol {
		return fmt.Errorf("the odds %v sum to %v", odds, sum)
	}
	return nil
}

// OddsRefusal is an odds check a game must refuse: the check, its flags,
// and a word the refusal must say.
type OddsRefusal struct {
	Check string
	Args  map[string]string
	Says  string
}

// OddsRefused fails t for each of refusals that o accepts, or refuses
// without saying its word.
func OddsRefused(t testing.TB, o race.Oddser, refusals []OddsRefusal) {
	t.Helper()
	for _, r := range refusals {
		if _, err := o.Odds(r.Check, r.Args); err == nil || !strings.Contains(err.Error(), r.Says) {
			t.Errorf("%s %v: %v, want %q", r.Check, r.Args, err, r.Says)
		}
	}
}
