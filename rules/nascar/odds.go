package nascar

import (
	"maps"
	"slices"

	"pitwall/race"
)

// The text leaves two things to chance, each a pick of two: which way a car
// that hits an oil slick slews, and which of two cars that meet takes the
// spot. Resolve reads the coin through these, and the odds count them.
var (
	slewOf     = map[int]int{1: -1, 2: 1}        // coin face to the turn: -1 left, 1 right
	moverLeads = map[int]bool{1: true, 2: false} // coin face to whether the car moving takes the spot
	slewName   = map[int]string{-1: "left", 1: "right"}
)

// Checks implements race.Oddser.
func (Ruleset) Checks() []race.Check {
	return []race.Check{
		{Name: "oil-slick", Help: "a car that drives onto an oil slick slews one heading left or right, a coin's pick",
			Outcomes: []string{"left", "right"}},
		{Name: "crash", Help: "two cars that meet: a coin picks which takes the spot (the car moving, or the one it ran into); the other is put behind",
			Outcomes: []string{"mover-leads", "other-leads"}},
	}
}

// Odds implements race.Oddser.
func (o Ruleset) Odds(check string, args map[string]string) (map[string]float64, error) {
	c, err := race.FindCheck("nascar", o.Checks(), check, args)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, f := range Coin.Faces {
		switch c.Name {
		case "oil-slick":
			out[slewName[slewOf[f]]]++
		default:
			out[map[bool]string{true: "mover-leads", false: "other-leads"}[moverLeads[f]]]++
		}
	}
	for _, k := range slices.Collect(maps.Keys(out)) {
		out[k] /= float64(len(Coin.Faces))
	}
	return out, nil
}
