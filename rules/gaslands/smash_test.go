package gaslands

import (
	"math"
	"strings"
	"testing"
)

// The text's smash table, cell by cell, and its weight modifiers.
func TestSmashDice(t *testing.T) {
	for _, tc := range []struct {
		o                      Orientation
		gear, against, heavier int
		want                   int
	}{
		{HeadOn, 3, 2, 0, 5},    // attacker's gear plus defender's
		{TBone, 3, 2, 0, 3},     // attacker's gear
		{Sideswipe, 4, 6, 0, 4}, // attacker's gear
		{Tailgate, 5, 2, 0, 3},  // faster less slower
		{Tailgate, 2, 5, 0, 3},  // the same whichever is faster
		{HeadOn, 3, 2, 1, 6},    // 1 class heavier: +1
		{HeadOn, 3, 2, 2, 7},    // 2 classes heavier: +2
		{TBone, 3, 2, -1, 2},    // 1 class lighter: -1
		{TBone, 3, 2, -2, 1},    // 2 classes lighter: -2
		{Tailgate, 3, 3, -2, 0}, // never below none
		{HeadOn, 4, 0, 1, 5},    // a gear-4 kart into an obstruction (gear 0), head on, one class heavier
	} {
		if got := SmashDice(tc.o, tc.gear, tc.against, tc.heavier); got != tc.want {
			t.Errorf("%s %d against %d, heavier %d: %d dice, want %d", tc.o, tc.gear, tc.against, tc.heavier, got, tc.want)
		}
	}
}

func TestSmashOdds(t *testing.T) {
	// A T-bone in gear 1: one die; 1-3 would leave no hit, but a collision gives at least 1.
	o, err := SmashOdds(TBone, 1, 3, 0, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if !near(o["1"], 1./2+1./3) || !near(o["2"], 1./6) || o["0"] != 0 {
		t.Errorf("t-bone gear 1: %v", o)
	}
	// Evading in gear 1: a 6 on the evade die cancels one of the hits.
	o, _ = SmashOdds(TBone, 1, 1, 0, true, false)
	if !near(o["2"], 1./6*5/6) || !near(o["1"], 1-1./6*5/6) {
		t.Errorf("t-bone gear 1 against an evade at gear 1: %v", o)
	}
	// No dice at all (a tailgate at equal gears): still 1 hazard.
	if o, _ := SmashOdds(Tailgate, 3, 3, 0, false, false); !near(o["1"], 1) {
		t.Errorf("no dice: %v", o)
	}
	// The most dice the table gives: head on at 6 against 6, two classes heavier: 14.
	o, err = SmashOdds(HeadOn, 6, 6, 2, false, false)
	if err != nil {
		t.Fatalf("14 smash dice: %v", err)
	}
	if !near(o["28"], math.Pow(1./6, 14)) {
		t.Errorf("14 sixes: %v, want %v", o["28"], math.Pow(1./6, 14))
	}
	if _, err := SmashOdds(HeadOn, 7, 1, 0, false, false); err == nil {
		t.Error("gear 7 accepted")
	}
	if _, err := SmashOdds(HeadOn, 1, 1, 3, false, false); err == nil || !strings.Contains(err.Error(), "-2 to 2") {
		t.Errorf("three classes: %v", err)
	}
	if _, err := ParseOrientation("rear"); err == nil || !strings.Contains(err.Error(), "tailgate") {
		t.Errorf("a bad orientation: %v", err)
	}
}
