package party

import (
	"strconv"
	"testing"

	"pitwall/dice"
	"pitwall/race/racetest"
)

// The happening and Chance Time tables, cell by cell at each face.
func TestFaceTables(t *testing.T) {
	happening := []string{"", thwomp, thwomp, coinShower, coinShower, tailwind, tailwind}
	chance := []string{"", givesCoins, givesCoins, takesCoins, takesCoins, swapCoins, swapStars}
	for face := 1; face <= 6; face++ {
		if happeningOn[face] != happening[face] {
			t.Errorf("happening d6 %d: %q; want %q", face, happeningOn[face], happening[face])
		}
		if chanceOn[face] != chance[face] {
			t.Errorf("chance d6 %d: %q; want %q", face, chanceOn[face], chance[face])
		}
	}
}

func TestChecks(t *testing.T) {
	for _, c := range []struct {
		check string
		args  map[string]string
		want  map[string]float64
	}{
		{"happening", nil, map[string]float64{thwomp: 2.0 / 6, coinShower: 2.0 / 6, tailwind: 2.0 / 6}},
		{"chance", nil, map[string]float64{givesCoins: 2.0 / 6, takesCoins: 2.0 / 6, swapCoins: 1.0 / 6, swapStars: 1.0 / 6}},
		{"movement", nil, map[string]float64{"1": .1, "2": .1, "3": .1, "4": .1, "5": .1, "6": .1, "7": .1, "8": .1, "9": .1, "10": .1}},
		{"movement", map[string]string{"mrdl": "d4, -2", "boost": "3"}, map[string]float64{"2": .25, "3": .25, "4": .25, "5": .25}},
		{"movement", map[string]string{"mrdl": "2d2"}, map[string]float64{"2": .25, "3": .5, "4": .25}},
	} {
		got, err := Ruleset{}.Odds(c.check, c.args)
		if err != nil {
			t.Fatalf("%s %v: %v", c.check, c.args, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s %v: %v; want %v", c.check, c.args, got, c.want)
		}
		for k, p := range c.want {
			if d := got[k] - p; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s %v: %s has %v; want %v", c.check, c.args, k, got[k], p)
			}
		}
	}
	racetest.OddsRefused(t, Ruleset{}, []racetest.OddsRefusal{
		{Check: "movement", Args: map[string]string{"mrdl": "d0"}, Says: `--mrdl: "d0": a die has 1 to 100 sides`},
		{Check: "movement", Args: map[string]string{"boost": "-1"}, Says: "--boost must be a whole number from 0 to 100"},
		{Check: "movement", Args: map[string]string{"boost": "x"}, Says: "--boost must be a whole number"},
		{Check: "happening", Args: map[string]string{"boost": "1"}, Says: "happening has no flag --boost"},
		{Check: "bowser", Says: `unknown party check "bowser"`},
	})
}

// The movement odds agree with the dice rolled many times.
func TestMovementOddsAgreeWithTheDice(t *testing.T) {
	m, err := ParseMRDL("d4 d6 -2")
	if err != nil {
		t.Fatal(err)
	}
	odds, err := Ruleset{}.Odds("movement", map[string]string{"mrdl": "d4 d6 -2", "boost": "3"})
	if err != nil {
		t.Fatal(err)
	}
	if err := racetest.Distribution(odds, nil, 1e-12); err != nil {
		t.Fatal(err)
	}
	const n = 60000
	seen := map[string]float64{}
	d := dice.New(dice.SeedFromInt(5))
	for range n {
		v, _ := m.Roll(d, 0, "movement roll")
		seen[strconv.Itoa(v+3)]++
	}
	for k, c := range seen {
		if !racetest.Agrees(c, n, odds[k], 0.002) {
			t.Errorf("movement %s: rolled %v times in %d; odds %v", k, c, n, odds[k])
		}
	}
}
