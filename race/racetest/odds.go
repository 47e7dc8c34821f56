package racetest

import "math"

// Agrees says whether count hits in n trials agree with odds p: within four
// standard errors of p, plus slack for the tails, where the normal
// approximation is thin. Odds outside [0, 1], NaN included, never agree
// (a NaN would make every comparison false, and so pass).
func Agrees(count float64, n int, p, slack float64) bool {
	if !(p >= 0 && p <= 1) || n <= 0 {
		return false
	}
	return math.Abs(count/float64(n)-p) <= 4*math.Sqrt(p*(1-p)/float64(n))+slack
}
