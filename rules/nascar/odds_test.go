package nascar

import (
	"maps"
	"testing"

	"pitwall/race/racetest"
)

// Each of the coin's picks is an even chance, named as the check says.
func TestOdds(t *testing.T) {
	for check, want := range map[string]map[string]float64{
		"oil-slick": {"left": 0.5, "right": 0.5},
		"crash":     {"mover-leads": 0.5, "other-leads": 0.5},
	} {
		got, err := Ruleset{}.Odds(check, map[string]string{})
		if err != nil || !maps.Equal(got, want) {
			t.Errorf("%s: %v, %v; want %v", check, got, err, want)
		}
	}
	racetest.OddsRefused(t, Ruleset{}, []racetest.OddsRefusal{
		{Check: "spin", Says: `unknown nascar check "spin"; checks: oil-slick, crash`},
		{Check: "oil-slick", Args: map[string]string{"speed": "3"}, Says: "oil-slick has no flag --speed"},
	})
}

// The coin's faces, cell by cell: 1 slews left and gives the spot to the
// car moving, 2 slews right and gives it to the car it ran into.
func TestCoinReadings(t *testing.T) {
	if slewName[slewOf[1]] != "left" || slewName[slewOf[2]] != "right" || slewOf[1] != -1 || slewOf[2] != 1 {
		t.Errorf("oil slick: face 1 %d, face 2 %d; want left (-1) and right (1)", slewOf[1], slewOf[2])
	}
	if !moverLeads[1] || moverLeads[2] {
		t.Errorf("crash: face 1 mover leads %v, face 2 %v; want true, false", moverLeads[1], moverLeads[2])
	}
}
