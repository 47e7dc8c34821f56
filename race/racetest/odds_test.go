package racetest

import (
	"math"
	"testing"
)

func TestAgrees(t *testing.T) {
	for _, c := range []struct {
		count float64
		n     int
		p     float64
		slack float64
		want  bool
	}{
		{500, 1000, 0.5, 0, true},
		{563, 1000, 0.5, 0, true},  // 4 standard errors are 0.0632
		{564, 1000, 0.5, 0, false}, // just beyond
		{436, 1000, 0.5, 0, false},
		{437, 1000, 0.5, 0, true},
		{1, 1000, 0, 0, false}, // an outcome the odds leave out came up
		{1, 1000, 0, 0.002, true},
		{0, 1000, 0, 0, true},
		{0, 1000, math.NaN(), 1, false},
		{0, 1000, 1.0000001, 1, false},
		{0, 1000, -0.1, 1, false},
		{0, 0, 0.5, 1, false},
	} {
		if got := Agrees(c.count, c.n, c.p, c.slack); got != c.want {
			t.Errorf("%v of %d at odds %v, slack %v: %v", c.count, c.n, c.p, c.slack, got)
		}
	}
}
