package rtd

import (
	"math"
	"testing"

	"pitwall/race/racetest"
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

// odds is an rtd odds check's outcomes, failing t on an error or on odds
// that are not a distribution.
func odds(t *testing.T, check string, args map[string]string) map[string]float64 {
	t.Helper()
	o, err := Ruleset{}.Odds(check, args)
	if err != nil {
		t.Fatal(err)
	}
	if err := racetest.Distribution(o, nil, 1e-12); err != nil {
		t.Fatalf("%s %v: %v", check, args, err)
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

// Each item's attack, counted by hand from the faces.
func TestAttackOdds(t *testing.T) {
	for _, tc := range []struct {
		args map[string]string
		want map[string]float64
	}{
		// Green shell: face-1 against the dodge face; it hits on 3v1, 4v1-2, 5v1-3, 6v1-4.
		{map[string]string{"item": "green-shell"}, map[string]float64{"hit": 10. / 36, "miss": 26. / 36}},
		// Red shell, +3: face+2 against the dodge: 2+3+4+5+6+6 hits.
		{map[string]string{"item": "red-shell"}, map[string]float64{"hit": 26. / 36, "miss": 10. / 36}},
		// Triple red shells are red shells; a target holding two of its own guards +4:
		// face+2 > dodge+4 means face > dodge+2: 4v1, 5v1-2, 6v1-3.
		{map[string]string{"item": "triple-red-shell", "shells": "2"}, map[string]float64{"hit": 6. / 36, "miss": 30. / 36}},
		// A named green shell (+1) at a driver dragging an item (+3): face > dodge+3 hits (5v1, 6v1, 6v2);
		// face > dodge otherwise takes the dragged item (15-3).
		{map[string]string{"item": "green-shell", "bonus": "1", "dragging": "true"}, map[string]float64{"hit": 3. / 36, "item-lost": 12. / 36, "miss": 21. / 36}},
		// A defensive, inked target: guard +1, modifier -1: they cancel.
		{map[string]string{"item": "green-shell", "defensive": "true", "modifier": "-1"}, map[string]float64{"hit": 10. / 36, "miss": 26. / 36}},
		// A laid banana: the next driver checks at -1 (5, 6 succeed), the one after at 0, the rest at +1.
		{map[string]string{"item": "banana"}, map[string]float64{"hit": 4. / 6, "miss": 2. / 6}},
		{map[string]string{"item": "banana", "behind": "2"}, map[string]float64{"hit": 3. / 6, "miss": 3. / 6}},
		{map[string]string{"item": "fake-item-box", "behind": "5"}, map[string]float64{"hit": 2. / 6, "miss": 4. / 6}},
		// Among real boxes a fake gives nobody the +1.
		{map[string]string{"item": "fake-item-box", "behind": "5", "among-boxes": "true"}, map[string]float64{"hit": 3. / 6, "miss": 3. / 6}},
		// Thrown over two drivers: the thrower checks at -2 (only a 6); a bob-omb is lobbed with no penalty.
		{map[string]string{"item": "banana", "how": "throw", "between": "2"}, map[string]float64{"hit": 1. / 6, "miss": 5. / 6}},
		{map[string]string{"item": "bob-omb", "how": "throw", "between": "2"}, map[string]float64{"hit": 3. / 6, "miss": 3. / 6}},
		// A laid bob-omb: the next driver checks at -2.
		{map[string]string{"item": "bob-omb"}, map[string]float64{"hit": 5. / 6, "miss": 1. / 6}},
		// The blue shell pulls the driver behind the leader in when the leader's roll is higher.
		{map[string]string{"item": "blue-shell"}, map[string]float64{"hit": 15. / 36, "miss": 21. / 36}},
		{map[string]string{"item": "blue-shell", "modifier": "-2"}, map[string]float64{"hit": 26. / 36, "miss": 10. / 36}},
	} {
		o := odds(t, "attack", tc.args)
		for k, v := range tc.want {
			if !near(o[k], v) {
				t.Errorf("%v: %s = %v, want %v (all: %v)", tc.args, k, o[k], v, o)
			}
		}
	}
}

func TestOddsErrors(t *testing.T) {
	racetest.OddsRefused(t, Ruleset{}, []racetest.OddsRefusal{
		{Check: "speed", Says: "unknown rtd check"},
		{Check: "racing-check", Says: "needs --modifier"},
		{Check: "racing-check", Args: map[string]string{"modifier": "x"}, Says: "--modifier must be a whole number"},
		{Check: "racing-check", Args: map[string]string{"modifier": "1", "lane": "2"}, Says: "no flag --lane"},
		{Check: "item", Args: map[string]string{"position": "0"}, Says: "--position must be a whole number from 1"},
		{Check: "item", Args: map[string]string{"position": "100"}, Says: "--position must be a whole number from 1 to 99"},
		{Check: "racing-check", Args: map[string]string{"modifier": "-100"}, Says: "--modifier must be a whole number from -99 to 99"},
		// A Momentum that would overflow the sum gave 'held' for certain.
		{Check: "pass", Args: map[string]string{"momentum": "9223372036854775807", "against": "0"}, Says: "--momentum must be a whole number from -99 to 99"},
		{Check: "item", Args: map[string]string{"position": "1", "perk": "turbo"}, Says: "--perk"},
		{Check: "item", Args: map[string]string{"position": "1", "behind": "maybe"}, Says: "switch"},
		{Check: "pass", Args: map[string]string{"momentum": "1"}, Says: "needs --against"},
		{Check: "attack", Says: "needs --item"},
		{Check: "attack", Args: map[string]string{"item": "star"}, Says: "does not attack"},
		{Check: "attack", Args: map[string]string{"item": "rocket"}, Says: "unknown item"},
		{Check: "attack", Args: map[string]string{"item": "red-shell", "how": "lay"}, Says: "is fired"},
		{Check: "attack", Args: map[string]string{"item": "banana", "how": "fling"}, Says: "lay or throw"},
		{Check: "attack", Args: map[string]string{"item": "bob-omb", "behind": "2"}, Says: "only the next driver"},
		{Check: "attack", Args: map[string]string{"item": "red-shell", "shells": "4"}, Says: "0 to 3"},
	})
}

func FuzzOdds(f *testing.F) {
	f.Add("racing-check", "modifier", "-99")
	f.Add("item", "position", "3")
	f.Add("pass", "momentum", "2")
	f.Add("attack", "item", "green-shell")
	f.Fuzz(func(t *testing.T, check, flag, value string) {
		o, err := Ruleset{}.Odds(check, map[string]string{flag: value, "against": "1", "position": "2", "modifier": "0"})
		if err != nil {
			return
		}
		if err := racetest.Distribution(o, nil, 1e-9); err != nil {
			t.Fatal(err)
		}
	})
}

// The items dragged behind the kart while held, as the text marks them
// ('Dragged'), and the Red Shell, identical to the Green Shell.
func TestDraggedItems(t *testing.T) {
	dragged := map[Item]bool{Banana: true, FakeItemBox: true, GreenShell: true, RedShell: true, BobOmb: true}
	for it := Item(1); it < Item(len(itemNames)); it++ {
		if it.Dragged() != dragged[it] {
			t.Errorf("%s: dragged %v, want %v", it, it.Dragged(), dragged[it])
		}
	}
}

// A ram must beat the other; a tie bounces off. Driving aggressively, cell
// by cell at each total. A course event comes on its number or more.
func TestRamAggressiveEvent(t *testing.T) {
	if RamSucceeds(4, 4) || !RamSucceeds(5, 4) || RamSucceeds(3, 4) {
		t.Error("a ram must beat the other; a tie bounces off")
	}
	for total, want := range map[int]int{-3: -2, -1: -2, 0: -2, 1: -1, 2: 0, 3: 0, 4: 1, 5: 2, 6: 2, 9: 2} {
		if got := AggressiveGain(total); got != want {
			t.Errorf("driving aggressively at %d: %+d Momentum; want %+d", total, got, want)
		}
	}
	if EventComes(4, 5) || !EventComes(5, 5) || !EventComes(6, 5) {
		t.Error("a course event comes on its number or more")
	}
	o := odds(t, "ram", map[string]string{"bonus": "0", "guard": "0"})
	if !near(o["rams"], 15./36) || !near(o["bounces"], 21./36) {
		t.Errorf("an even ram: %v", o)
	}
	o = odds(t, "ram", map[string]string{"bonus": "2", "guard": "1"}) // one up: 21 of 36
	if !near(o["rams"], 21./36) {
		t.Errorf("a ram one up: %v", o)
	}
	o = odds(t, "aggressive", nil)
	if !near(o["+2"], 2./6) || !near(o["+1"], 1./6) || !near(o["+0"], 2./6) || !near(o["-1"], 1./6) || len(o) != 4 {
		t.Errorf("driving aggressively, no modifier: %v", o)
	}
	o = odds(t, "aggressive", map[string]string{"modifier": "-2"}) // -1..4
	if !near(o["-2"], 2./6) || !near(o["-1"], 1./6) || !near(o["+0"], 2./6) || !near(o["+1"], 1./6) {
		t.Errorf("driving aggressively at -2: %v", o)
	}
	o = odds(t, "course-event", map[string]string{"needs": "5"})
	if !near(o["comes"], 2./6) || !near(o["none"], 4./6) {
		t.Errorf("an event on 5+: %v", o)
	}
	if o = odds(t, "course-event", map[string]string{"needs": "7"}); !near(o["none"], 1) {
		t.Errorf("an event on 7+: %v", o)
	}
	racetest.OddsRefused(t, Ruleset{}, []racetest.OddsRefusal{
		{Check: "course-event", Says: "course-event needs --needs"},
		{Check: "course-event", Args: map[string]string{"needs": "0"}, Says: "--needs must be a whole number from 1 to 7"},
		{Check: "ram", Args: map[string]string{"guard": "x"}, Says: "--guard must be a whole number"},
		{Check: "aggressive", Args: map[string]string{"modifier": "1.5"}, Says: "--modifier must be a whole number"},
	})
}
