package gaslands

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"pitwall/race/racetest"
)

// The die reads like the rules notes: three SHIFT faces, one each of HAZARD, SLIDE and SPIN.
func TestSkidDie(t *testing.T) {
	for roll, want := range map[int]Skid{1: Shift, 2: Shift, 3: Shift, 4: Hazard, 5: Slide, 6: Spin} {
		if got := SkidDie[roll-1]; got != want {
			t.Errorf("roll %d reads %s, want %s", roll, got, want)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestSkidOdds(t *testing.T) {
	o, err := SkidOdds(1)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]float64{"shift": 3. / 6, "hazard": 1. / 6, "slide": 1. / 6, "spin": 1. / 6} {
		if !near(o[k], v) {
			t.Errorf("one die: %s = %v, want %v", k, o[k], v)
		}
	}
	if len(o) != 4 {
		t.Errorf("one die: %d outcomes: %v", len(o), o)
	}
	o, _ = SkidOdds(2)
	// Two dice: both shift 9/36; shift and spin in either order 2*3/36; two spins 1/36.
	for k, v := range map[string]float64{"2 shift": 9. / 36, "shift + spin": 6. / 36, "2 spin": 1. / 36, "hazard + slide": 2. / 36} {
		if !near(o[k], v) {
			t.Errorf("two dice: %s = %v, want %v", k, o[k], v)
		}
	}
	for n := 1; n <= MaxSkidDice; n++ {
		o, err := SkidOdds(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := racetest.Distribution(o, nil, 1e-12); err != nil {
			t.Errorf("%d dice: %v", n, err)
		}
		// All shifts: (1/2)^n.
		all := "shift"
		if n > 1 {
			all = strconv.Itoa(n) + " shift"
		}
		if !near(o[all], math.Pow(0.5, float64(n))) {
			t.Errorf("%d dice: %s = %v", n, all, o[all])
		}
	}
	for _, n := range []int{0, 7, -1} {
		if _, err := SkidOdds(n); err == nil || !strings.Contains(err.Error(), "--dice is 1 to 6") {
			t.Errorf("%d dice: %v", n, err)
		}
	}
}

func TestOddsErrors(t *testing.T) {
	racetest.OddsRefused(t, Ruleset{}, []racetest.OddsRefusal{
		{Check: "drift", Says: "unknown gaslands check"},
		{Check: "skid", Args: map[string]string{"dice": "two"}, Says: "whole number"},
		{Check: "skid", Args: map[string]string{"gear": "2"}, Says: "no flag --gear"},
		{Check: "skid", Args: map[string]string{"dice": "9"}, Says: "1 to 6"},
		{Check: "attack", Says: "needs --gear"},
		{Check: "smash", Args: map[string]string{"orientation": "head-on", "gear": "2"}, Says: "needs --against"},
	})
}

func FuzzOdds(f *testing.F) {
	f.Add("skid", "dice", "3")
	f.Add("attack", "gear", "2")
	f.Fuzz(func(t *testing.T, check, flag, value string) {
		o, err := Ruleset{}.Odds(check, map[string]string{flag: value})
		if err != nil {
			return
		}
		if err := racetest.Distribution(o, nil, 1e-12); err != nil {
			t.Fatalf("%s --%s %s: %v", check, flag, value, err)
		}
	})
}
