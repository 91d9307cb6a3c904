package dice

import (
	"math"
	"testing"
)

func TestEstimateDist(t *testing.T) {
	// Four runs: one 0, three 1s. Sample variance (3 − 9/4)/3 = 1/4.
	e := EstimateDist([]int{1, 3}, 4)
	checks := []struct {
		name      string
		got, want float64
	}{
		{"P(0)", e.P[0], 0.25},
		{"P(1)", e.P[1], 0.75},
		{"SE(0)", e.SE[0], math.Sqrt(0.25 * 0.75 / 4)},
		{"SE(1)", e.SE[1], math.Sqrt(0.75 * 0.25 / 4)},
		{"Mean", e.Mean, 0.75},
		{"MeanSE", e.MeanSE, 0.25},
	}
	for _, c := range checks {
		if !near(c.got, c.want, tol) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if len(e.P) != 2 || len(e.SE) != 2 {
		t.Errorf("lengths: got %d and %d, want 2", len(e.P), len(e.SE))
	}
	// One run has no spread to estimate.
	if one := EstimateDist([]int{0, 0, 1}, 1); one.Mean != 2 || one.MeanSE != 0 || one.P[2] != 1 {
		t.Errorf("one run: got %+v, want mean 2, SE 0, P(2) 1", one)
	}
}
