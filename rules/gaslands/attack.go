package gaslands

import "fmt"

// ShellDice is the number of attack dice of a shell (the text).
const ShellDice = 5

// Hits is what one attack die scores (rules notes): one hit on a 4 or 5, two
// on a 6 unless sixIsOne, none below 4.
func Hits(face int, sixIsOne bool) int {
	switch {
	case face == 6 && !sixIsOne:
		return 2
	case face >= 4:
		return 1
	}
	return 0
}

// Cancels says whether an evade die cancels a hit: only a 6 does (the text).
func Cancels(face int) bool { return face == 6 }

// AttackHazards is the hazard tokens a target takes: the hits not cancelled, never below 0.
func AttackHazards(hits, cancels int) int { return max(0, hits-cancels) }

// AttackOdds is the exact chance of each number of hazard tokens an attack of
// dice attack dice leaves on a target in gear evade dice, counted face by face.
func AttackOdds(dice, gear int, sixIsOne bool) (map[string]float64, error) {
	if dice < 1 || dice > 12 {
		return nil, fmt.Errorf("--dice is 1 to 12 attack dice; got %d", dice)
	}
	if gear < 0 || gear > 6 {
		return nil, fmt.Errorf("--gear is the target's gear, 0 to 6 (its evade dice); got %d", gear)
	}
	return hazardOdds(dice, gear, sixIsOne), nil
}

// hazardOdds counts the hazard tokens of dice attack dice against evades
// evade dice. The chances are summed in a fixed order (by hits, then by
// cancels), so the same call gives the same odds to the last bit.
func hazardOdds(dice, evades int, sixIsOne bool) map[string]float64 {
	// The distribution of hits over the attack dice (two at most a die),
	// then of cancels over the evade dice.
	hits := []float64{1}
	for range dice {
		next := make([]float64, len(hits)+2)
		for h, p := range hits {
			for f := 1; f <= 6; f++ {
				next[h+Hits(f, sixIsOne)] += p / 6
			}
		}
		hits = next
	}
	cancels := []float64{1}
	for range evades {
		next := make([]float64, len(cancels)+1)
		for c, p := range cancels {
			for f := 1; f <= 6; f++ {
				if Cancels(f) {
					next[c+1] += p / 6
				} else {
					next[c] += p / 6
				}
			}
		}
		cancels = next
	}
	out := map[string]float64{}
	for h, ph := range hits {
		for c, pc := range cancels {
			if p := float64(ph * pc); p > 0 { // float64(): rounded here, never fused into the sum (docs/rules/gaslands.md)
				out[fmt.Sprint(AttackHazards(h, c))] += p
			}
		}
	}
	return out
}
