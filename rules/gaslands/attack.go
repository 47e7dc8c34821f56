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

// hazardOdds counts the hazard tokens of dice attack dice against evades evade dice.
func hazardOdds(dice, evades int, sixIsOne bool) map[string]float64 {
	// The distribution of hits over the attack dice, then of cancels over the evade dice.
	hits := map[int]float64{0: 1}
	for i := 0; i < dice; i++ {
		next := map[int]float64{}
		for h, p := range hits {
			for f := 1; f <= 6; f++ {
				next[h+Hits(f, sixIsOne)] += p / 6
			}
		}
		hits = next
	}
	cancels := map[int]float64{0: 1}
	for i := 0; i < evades; i++ {
		next := map[int]float64{}
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
			out[fmt.Sprint(AttackHazards(h, c))] += float64(ph * pc)
		}
	}
	return out
}
