package logit

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Outcomes drawn from known weights are fitted back to them, within what
// 200,000 samples can tell.
func TestFitRecoversWeights(t *testing.T) {
	want := []float64{0.5, -1.25, 2}
	rng := rand.New(rand.NewPCG(1, 2))
	var xs [][]float64
	var ys []bool
	for range 200000 {
		x := []float64{1, rng.NormFloat64(), rng.Float64()*2 - 1}
		xs = append(xs, x)
		ys = append(ys, rng.Float64() < Chance(want, x))
	}
	got, err := Fit(xs, ys, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 0.05 {
			t.Errorf("weight %d = %.3f, want %.3f", i, got[i], want[i])
		}
	}
}

// With no ridge, a fit's gradient is 0: the chances it gives add up to
// the outcomes seen, feature by feature.
func TestFitIsAtTheLikelihoodsTop(t *testing.T) {
	xs := [][]float64{{1, 0}, {1, 1}, {1, 2}, {1, 3}, {1, 1}, {1, 2}}
	ys := []bool{false, false, true, true, true, false}
	w, err := Fit(xs, ys, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		g := 0.0
		for n, x := range xs {
			y := 0.0
			if ys[n] {
				y = 1
			}
			g += (Chance(w, x) - y) * x[i]
		}
		if math.Abs(g) > 1e-9 {
			t.Errorf("gradient %d = %g at %v", i, g, w)
		}
	}
	if w[1] <= 0 {
		t.Errorf("the outcome comes more often as x grows, but its weight is %v", w[1])
	}
}

// The ridge keeps weights finite where the outcome is told for certain,
// and shrinks them.
func TestFitRidge(t *testing.T) {
	xs := [][]float64{{-1}, {-2}, {1}, {2}}
	ys := []bool{false, false, true, true}
	w1, err := Fit(xs, ys, 1)
	if err != nil {
		t.Fatal(err)
	}
	w10, err := Fit(xs, ys, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !(w1[0] > w10[0] && w10[0] > 0) || math.IsInf(w1[0], 0) || math.IsNaN(w1[0]) {
		t.Errorf("ridge 1: %v, ridge 10: %v; want finite, positive, the larger ridge smaller", w1, w10)
	}
}

func TestFitRefused(t *testing.T) {
	for _, c := range []struct {
		xs    [][]float64
		ys    []bool
		ridge float64
		want  string
	}{
		{nil, nil, 0, "no samples"},
		{[][]float64{{1}}, []bool{true, false}, 0, "1 samples of features and 2 outcomes"},
		{[][]float64{{}}, []bool{true}, 0, "no features"},
		{[][]float64{{1, 2}, {1}}, []bool{true, false}, 0, "sample 2 has 1 features"},
		{[][]float64{{1}}, []bool{true}, -1, "0 or more"},
		{[][]float64{{1}}, []bool{true}, math.NaN(), "0 or more"},
		{[][]float64{{1, math.NaN()}}, []bool{true}, 0, "sample 1's feature 2 is NaN"},
		{[][]float64{{1, 0}, {1, math.Inf(1)}}, []bool{true, false}, 0, "sample 2's feature 2 is +Inf"},
		// Told for certain, with no ridge: the weight would grow for ever.
		{[][]float64{{-1}, {-2}, {1}, {2}}, []bool{false, false, true, true}, 0, "add a ridge"},
		{[][]float64{{1, 0}, {1, 0}}, []bool{true, false}, 0, "add a ridge"},
	} {
		if _, err := Fit(c.xs, c.ys, c.ridge); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Fit(%v, %v, %v): %v; want an error saying %q", c.xs, c.ys, c.ridge, err, c.want)
		}
	}
}

func TestChance(t *testing.T) {
	if got := Chance([]float64{1, -2}, []float64{3, 1}); math.Abs(got-1/(1+math.Exp(-1))) > 1e-15 {
		t.Errorf("Chance = %v", got)
	}
	if got := LogOdds([]float64{1, -2}, []float64{3, 1, 7}); got != 1 {
		t.Errorf("LogOdds = %v, want 1", got)
	}
	if Sigmoid(0) != 0.5 {
		t.Errorf("Sigmoid(0) = %v", Sigmoid(0))
	}
}
