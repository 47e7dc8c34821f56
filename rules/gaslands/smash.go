package gaslands

import (
	"fmt"
	"strings"
)

// Orientation is how two karts meet in a collision.
type Orientation string

// The orientations of the text's smash table.
const (
	HeadOn    Orientation = "head-on"
	TBone     Orientation = "t-bone"
	Sideswipe Orientation = "sideswipe"
	Tailgate  Orientation = "tailgate"
)

// ParseOrientation reads an orientation's name.
func ParseOrientation(s string) (Orientation, error) {
	switch o := Orientation(strings.ToLower(strings.TrimSpace(s))); o {
	case HeadOn, TBone, Sideswipe, Tailgate:
		return o, nil
	}
	return "", fmt.Errorf("the orientation is head-on, t-bone, sideswipe or tailgate; got %q", s)
}

// SmashDice is the attacker's smash attack dice, as the text's table gives
// them: head on, both gears added; T-bone or sideswipe, the attacker's gear;
// tailgate, the faster kart's gear less the slower's. heavier is how many
// weight classes the attacker is heavier than the defender (negative:
// lighter), each +1 or -1 die. Never fewer than none.
func SmashDice(o Orientation, gear, against, heavier int) int {
	var n int
	switch o {
	case HeadOn:
		n = gear + against
	case TBone, Sideswipe:
		n = gear
	case Tailgate:
		n = max(gear, against) - min(gear, against)
	}
	return max(0, n+heavier)
}

// SmashOdds is the exact chance of each number of hazard tokens a smash
// leaves on the defender. A defender that evades rolls its gear in evade dice;
// one that smashes back rolls none against this attack. Every kart in a
// collision takes at least 1 hazard (the text).
func SmashOdds(o Orientation, gear, against, heavier int, evade, sixIsOne bool) (map[string]float64, error) {
	if gear < 0 || gear > 6 || against < 0 || against > 6 {
		return nil, fmt.Errorf("--gear and --against are gears, 0 to 6; got %d and %d", gear, against)
	}
	if heavier < -2 || heavier > 2 {
		return nil, fmt.Errorf("--heavier is -2 to 2 weight classes; got %d", heavier)
	}
	n := SmashDice(o, gear, against, heavier)
	evades := 0
	if evade {
		evades = against
	}
	out := map[string]float64{}
	if n == 0 {
		out["1"] = 1
		return out, nil
	}
	// Up to 14 dice (head on at gear 6 against 6, two classes heavier): more than an attack's flag allows.
	for k, p := range hazardOdds(n, evades, sixIsOne) {
		if k == "0" {
			k = "1" // the collision's least
		}
		out[k] += p
	}
	return out, nil
}
