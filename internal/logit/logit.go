// Package logit fits a logistic regression: the weights w for which
// 1/(1+e^-(w·x)) best tells how likely an outcome is from features x. The
// search bots' values learnt from simulated races come from it.
package logit

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Chance is 1/(1+e^-(w·x)): the chance the weights w give the outcome
// for features x.
func Chance(w, x []float64) float64 { return Sigmoid(LogOdds(w, x)) }

// Sigmoid is 1/(1+e^-z), the chance for log-odds z.
func Sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// LogOdds is w·x, the log-odds the weights w give the outcome for
// features x (x as long as w at least).
func LogOdds(w, x []float64) float64 {
	s := 0.0
	for i, v := range w {
		s += v * x[i]
	}
	return s
}

// Fit is the weights (no intercept: add a feature of 1 for one) that
// maximise the likelihood of the outcomes ys given the features xs, less a
// ridge penalty of ridge/2 times the weights' squared length, which keeps
// a feature that is never anything but 0, or that tells the outcome for
// certain, at a finite weight. Newton's method from all weights 0, until a
// step moves no weight by more than 1e-10; refused if 50 steps do not get
// there.
func Fit(xs [][]float64, ys []bool, ridge float64) ([]float64, error) {
	switch {
	case len(xs) == 0:
		return nil, errors.New("no samples to fit")
	case len(xs) != len(ys):
		return nil, fmt.Errorf("%d samples of features and %d outcomes", len(xs), len(ys))
	case len(xs[0]) == 0:
		return nil, errors.New("no features to fit")
	case ridge < 0 || math.IsNaN(ridge) || math.IsInf(ridge, 0):
		return nil, fmt.Errorf("a ridge penalty is a number, 0 or more; not %v", ridge)
	}
	k := len(xs[0])
	for i, x := range xs {
		if len(x) != k {
			return nil, fmt.Errorf("sample %d has %d features; the first has %d", i+1, len(x), k)
		}
		for j, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("sample %d's feature %d is %v; features are numbers", i+1, j+1, v)
			}
		}
	}
	w := make([]float64, k)
	grad := make([]float64, k)
	hess := make([]float64, k*k) // row by row; the upper triangle is read
	step := mat.NewVecDense(k, nil)
	var chol mat.Cholesky
	for range 50 {
		clear(hess)
		for i := range k {
			grad[i] = ridge * w[i]
			hess[i*k+i] = ridge
		}
		for n, x := range xs {
			p := Chance(w, x)
			y := 0.0
			if ys[n] {
				y = 1
			}
			for i := range k {
				grad[i] += (p - y) * x[i]
				for j := i; j < k; j++ {
					hess[i*k+j] += p * (1 - p) * x[i] * x[j]
				}
			}
		}
		if !chol.Factorize(mat.NewSymDense(k, hess)) {
			return nil, errors.New("the features do not tell the weights apart (one is a sum of others, never anything but 0, or tells the outcome for certain): add a ridge penalty")
		}
		if err := chol.SolveVecTo(step, mat.NewVecDense(k, grad)); err != nil {
			return nil, err
		}
		moved := 0.0
		for i := range w {
			w[i] -= step.AtVec(i)
			moved = max(moved, math.Abs(step.AtVec(i)))
		}
		if moved < 1e-10 {
			return w, nil
		}
	}
	return nil, errors.New("the weights did not settle in 50 steps of Newton's method (the features may tell the outcome for certain): add a ridge penalty")
}
