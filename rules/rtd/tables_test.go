package rtd

import (
	"math"
	"strings"
	"testing"
)

// Every line of the Racing Check list, at its exact results, and past both ends.
func TestRacingCheck(t *testing.T) {
	want := map[int]Outcome{-5: FailLoseTwo, -1: FailLoseTwo, 0: FailLoseTwo, 1: FailLoseOne, 2: Fail, 3: Fail,
		4: Succeed, 5: Succeed, 6: SucceedGainOne, 7: SucceedGainTwo, 8: SucceedGainTwo, 20: SucceedGainTwo}
	for r, w := range want {
		if got := RacingCheck(r); got != w {
			t.Errorf("RacingCheck(%d) = %v, want %v", r, got, w)
		}
	}
	for o, m := range map[Outcome]int{FailLoseTwo: -2, FailLoseOne: -1, Fail: 0, Succeed: 0, SucceedGainOne: 1, SucceedGainTwo: 2} {
		if o.Momentum() != m || o.Succeeds() != (o >= Succeed) {
			t.Errorf("%v: momentum %d, succeeds %v", o, o.Momentum(), o.Succeeds())
		}
	}
}

// The chart, 1 to 12, in the text's order; totals past either end read as the end.
func TestItemChart(t *testing.T) {
	chart := []string{"banana", "fake-item-box", "green-shell", "blooper", "bob-omb", "mushroom", "red-shell", "boo", "blue-shell", "triple-red-shell", "star", "thunderbolt"}
	for i, name := range chart {
		if got := ItemFor(i + 1).String(); got != name {
			t.Errorf("chart %d = %s, want %s", i+1, got, name)
		}
	}
	if ItemFor(0) != Banana || ItemFor(-3) != Banana || ItemFor(13) != Thunderbolt || ItemFor(40) != Thunderbolt {
		t.Error("totals past the chart's ends")
	}
}

func TestItemRollBonus(t *testing.T) {
	for _, tc := range []struct {
		pos    int
		behind bool
		perk   Perk
		want   int
	}{
		{1, false, Standard, 0}, // first place gets no bonus
		{2, false, Standard, 1}, // second +1
		{3, false, Standard, 2}, // third +2
		{3, true, Standard, 3},  // fallen behind: +1 more
		{2, false, ItemBonus, 2},
		{2, false, LowLoot, 0},
		{1, false, LowLoot, -1},
		{4, true, RammingSpeed, 4}, // other perks do nothing here
	} {
		if got := ItemRollBonus(tc.pos, tc.behind, tc.perk); got != tc.want {
			t.Errorf("ItemRollBonus(%d, %v, %v) = %d, want %d", tc.pos, tc.behind, tc.perk, got, tc.want)
		}
	}
	if MaxMomentum(Slow) != 4 || MaxMomentum(Standard) != 5 || MaxMomentum(ItemBonus) != 5 {
		t.Error("maximum Momentum: 5, or 4 when Slow")
	}
}

func TestPassTiesHold(t *testing.T) {
	if PassSucceeds(5, 5) || !PassSucceeds(6, 5) || PassSucceeds(4, 5) {
		t.Error("a pass must beat the defender; a tie holds")
	}
}

func odds(t *testing.T, check string, args map[string]string) map[string]float64 {
	t.Helper()
	o, err := Odds{}.Odds(check, args)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, p := range o {
		sum += p
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatalf("%s %v: outcomes sum to %v", check, args, sum)
	}
	return o
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestOdds(t *testing.T) {
	// The contract's sample: modifier 0.
	o := odds(t, "racing-check", map[string]string{"modifier": "0"})
	for k, v := range map[string]float64{"fail-1": 1. / 6, "fail": 2. / 6, "success": 2. / 6, "success+1": 1. / 6} {
		if !near(o[k], v) {
			t.Errorf("modifier 0: %s = %v, want %v", k, o[k], v)
		}
	}
	o = odds(t, "racing-check", map[string]string{"modifier": "-2"}) // 1-6 become -1..4
	if !near(o["fail-2"], 2./6) || !near(o["fail-1"], 1./6) || !near(o["fail"], 2./6) || !near(o["success"], 1./6) {
		t.Errorf("modifier -2: %v", o)
	}
	o = odds(t, "racing-check", map[string]string{"modifier": "3"}) // 4..9
	if !near(o["success"], 2./6) || !near(o["success+1"], 1./6) || !near(o["success+2"], 3./6) {
		t.Errorf("modifier +3: %v", o)
	}
	o = odds(t, "item", map[string]string{"position": "1"})
	for _, n := range []string{"banana", "fake-item-box", "green-shell", "blooper", "bob-omb", "mushroom"} {
		if !near(o[n], 1./6) {
			t.Errorf("first place: %s = %v", n, o[n])
		}
	}
	o = odds(t, "item", map[string]string{"position": "12", "behind": "true", "perk": "item-bonus"})
	if !near(o["thunderbolt"], 1) {
		t.Errorf("twelfth, behind, item bonus: %v", o)
	}
	o = odds(t, "item", map[string]string{"position": "1", "perk": "low-loot"}) // 0..5: 0 reads as 1
	if !near(o["banana"], 2./6) || !near(o["bob-omb"], 1./6) || o["mushroom"] != 0 {
		t.Errorf("first, low loot: %v", o)
	}
	o = odds(t, "pass", map[string]string{"momentum": "2", "against": "2"})
	if !near(o["pass"], 15./36) { // equal: the passer wins only on a higher die
		t.Errorf("equal momentum: %v", o)
	}
	o = odds(t, "pass", map[string]string{"momentum": "3", "against": "2", "defensive": "true"})
	if !near(o["pass"], 15./36) {
		t.Errorf("defensive cancels one point: %v", o)
	}
	o = odds(t, "pass", map[string]string{"momentum": "9", "against": "0"})
	if !near(o["pass"], 1) {
		t.Errorf("9 against 0: %v", o)
	}
}

func TestOddsErrors(t *testing.T) {
	for _, tc := range []struct {
		check string
		args  map[string]string
		says  string
	}{
		{"speed", nil, "unknown rtd check"},
		{"racing-check", nil, "needs --modifier"},
		{"racing-check", map[string]string{"modifier": "x"}, "--modifier must be a whole number"},
		{"racing-check", map[string]string{"modifier": "1", "lane": "2"}, "no flag --lane"},
		{"item", map[string]string{"position": "0"}, "--position must be a whole number from 1"},
		{"item", map[string]string{"position": "1", "perk": "turbo"}, "--perk"},
		{"item", map[string]string{"position": "1", "behind": "maybe"}, "switch"},
		{"pass", map[string]string{"momentum": "1"}, "needs --against"},
	} {
		_, err := Odds{}.Odds(tc.check, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s %v: %v, want %q", tc.check, tc.args, err, tc.says)
		}
	}
}

func FuzzOdds(f *testing.F) {
	f.Add("racing-check", "modifier", "-99")
	f.Add("item", "position", "3")
	f.Add("pass", "momentum", "2")
	f.Fuzz(func(t *testing.T, check, flag, value string) {
		o, err := Odds{}.Odds(check, map[string]string{flag: value, "against": "1", "position": "2", "modifier": "0"})
		if err != nil {
			return
		}
		sum := 0.0
		for _, p := range o {
			if p < 0 || p > 1 {
				t.Fatalf("a probability of %v", p)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("sum %v", sum)
		}
	})
}
