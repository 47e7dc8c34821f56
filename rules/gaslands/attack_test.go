package gaslands

import (
	"maps"
	"math"
	"strings"
	"testing"

	"pitwall/race/racetest"
)

// Each attack die at its face, as the notes give it.
func TestHits(t *testing.T) {
	for face, want := range map[int]int{1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2} {
		if got := Hits(face, false); got != want {
			t.Errorf("face %d: %d hits, want %d", face, got, want)
		}
	}
	if Hits(6, true) != 1 {
		t.Error("a 6 with six-is-one should be one hit")
	}
	for face := 1; face <= 6; face++ {
		if Cancels(face) != (face == 6) {
			t.Errorf("evade face %d cancels: %v", face, Cancels(face))
		}
	}
	if AttackHazards(2, 3) != 0 || AttackHazards(3, 1) != 2 {
		t.Error("hazards are the hits left, never below 0")
	}
}

func TestAttackOdds(t *testing.T) {
	for _, tc := range []struct {
		dice, gear int
		six        bool
		want       map[string]float64
	}{
		{1, 0, false, map[string]float64{"0": 1. / 2, "1": 1. / 3, "2": 1. / 6}},
		// Gear 1: a 6 on the evade die (1/6) cancels one hit.
		{1, 1, false, map[string]float64{"0": 1./2 + 1./3/6, "1": 1./3*5/6 + 1./6/6, "2": 1. / 6 * 5 / 6}},
		{1, 0, true, map[string]float64{"0": 1. / 2, "1": 1. / 2}},
		{5, 0, false, map[string]float64{"10": math.Pow(1./6, 5), "0": math.Pow(1./2, 5)}},
		// Ten tokens need five 6s on the attack and no 6 among six evade dice.
		{5, 6, false, map[string]float64{"10": math.Pow(1./6, 5) * math.Pow(5./6, 6)}},
	} {
		o, err := AttackOdds(tc.dice, tc.gear, tc.six)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, p := range o {
			sum += p
		}
		if !near(sum, 1) {
			t.Errorf("%+v: sum %v", tc, sum)
		}
		for k, v := range tc.want {
			if !near(o[k], v) {
				t.Errorf("%d dice at gear %d: %s = %v, want %v", tc.dice, tc.gear, k, o[k], v)
			}
		}
	}
	for _, bad := range [][2]int{{0, 1}, {13, 1}, {5, -1}, {5, 7}} {
		if _, err := AttackOdds(bad[0], bad[1], false); err == nil || !strings.Contains(err.Error(), "--") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// The same call gives the same odds to the last bit (a sum in map order did not).
func TestHazardOddsAreStable(t *testing.T) {
	for dice := 1; dice <= 6; dice++ {
		for evades := 0; evades <= 5; evades++ {
			first := hazardOdds(dice, evades, dice%2 == 0)
			if err := racetest.Distribution(first, nil, 1e-12); err != nil {
				t.Fatalf("%d dice against %d: %v", dice, evades, err)
			}
			for range 20 {
				if again := hazardOdds(dice, evades, dice%2 == 0); !maps.Equal(first, again) {
					t.Fatalf("%d dice against %d: %v, then %v", dice, evades, first, again)
				}
			}
		}
	}
}
