package racetest

import (
	"errors"
	"math"
	"strings"
	"testing"

	"pitwall/race"
)

func TestAgrees(t *testing.T) {
	for _, c := range []struct {
		count float64
		n     int
		p     float64
		slack float64
		want  bool
	}{
		{500, 1000, 0.5, 0, true},
		{563, 1000, 0.5, 0, true},  // 4 standard errors are 0.0632
		{564, 1000, 0.5, 0, false}, // just beyond
		{436, 1000, 0.5, 0, false},
		{437, 1000, 0.5, 0, true},
		{1, 1000, 0, 0, false}, // an outcome the odds leave out came up
		{1, 1000, 0, 0.002, true},
		{0, 1000, 0, 0, true},
		{1000, 1000, 1, 0, true}, // odds of 1 are odds
		{999, 1000, 1, 0, false},
		{0, 1000, math.NaN(), 1, false},
		{0, 1000, 1.0000001, 1, false},
		{0, 1000, -0.1, 1, false},
		{0, 0, 0.5, 1, false},
	} {
		if got := Agrees(c.count, c.n, c.p, c.slack); got != c.want {
			t.Errorf("%v of %d at odds %v, slack %v: %v", c.count, c.n, c.p, c.slack, got)
		}
	}
}

func TestDistribution(t *testing.T) {
	ab := []string{"a", "b"}
	for _, c := range []struct {
		odds     map[string]float64
		outcomes []string
		says     string // "" = a distribution
	}{
		{map[string]float64{"a": 0.25, "b": 0.75}, ab, ""},
		{map[string]float64{"a": 0.25, "b": 0.75}, nil, ""},
		{map[string]float64{"a": 1, "b": 0}, ab, ""},
		{map[string]float64{"a": 0.25, "b": 0.7}, ab, "sum to 0.95"},
		{map[string]float64{"a": 0.25, "b": 0.75 + 2e-9}, ab, "sum to"},
		{map[string]float64{"a": 0.25, "c": 0.75}, ab, `no outcome "b"`},
		{map[string]float64{"a": 1}, ab, "1 outcomes"},
		{map[string]float64{"a": 0.25, "b": 0.75, "c": 0}, ab, "3 outcomes"},
		{map[string]float64{"a": math.NaN(), "b": 1}, ab, `"a" has odds NaN`},
		{map[string]float64{"a": -0.5, "b": 1.5}, nil, `"a" has odds -0.5`},
		{map[string]float64{"a": 1.5, "b": -0.5}, nil, `"a" has odds 1.5`},
	} {
		err := Distribution(c.odds, c.outcomes, 1e-9)
		if c.says == "" && err != nil || c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)) {
			t.Errorf("Distribution(%v, %v) = %v; want %q", c.odds, c.outcomes, err, c.says)
		}
	}
}

// coin is an Oddser of one check, "toss", which refuses any flag.
type coin struct{}

func (coin) Checks() []race.Check { return nil }
func (coin) Odds(check string, args map[string]string) (map[string]float64, error) {
	if check != "toss" {
		return nil, errors.New("unknown check " + check)
	}
	for k := range args {
		return nil, errors.New("no flag --" + k)
	}
	return map[string]float64{"heads": 0.5, "tails": 0.5}, nil
}

func TestOddsRefused(t *testing.T) {
	OddsRefused(t, coin{}, []OddsRefusal{{"roll", nil, "unknown check"}, {"toss", map[string]string{"edge": "1"}, "no flag --edge"}})
	msg := failure(t, func(tb testing.TB) {
		OddsRefused(tb, coin{}, []OddsRefusal{{"toss", nil, "unknown"}, {"roll", nil, "no flag"}, {"roll", nil, "unknown"}})
	})
	if want := "toss map[]: <nil>, want \"unknown\"\nroll map[]: unknown check roll, want \"no flag\""; msg != want {
		t.Errorf("got %q, want %q", msg, want)
	}
}
