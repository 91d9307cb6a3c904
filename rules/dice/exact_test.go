package dice

import (
	"errors"
	"math"
	"testing"
)

const tol = 1e-12

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestDistMethods(t *testing.T) {
	d := Dist{0.25, 0, 0.5, 0.25}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"P(0)", d.P(0), 0.25},
		{"P(2)", d.P(2), 0.5},
		{"P(-1)", d.P(-1), 0},
		{"P(4)", d.P(4), 0},
		{"AtLeast(-3)", d.AtLeast(-3), 1},
		{"AtLeast(2)", d.AtLeast(2), 0.75},
		{"AtLeast(9)", d.AtLeast(9), 0},
		{"AtMost(1)", d.AtMost(1), 0.25},
		{"AtMost(9)", d.AtMost(9), 1},
		{"Mean", d.Mean(), 0*0.25 + 2*0.5 + 3*0.25},
		{"Variance", d.Variance(), 0.25*1.75*1.75 + 0.5*0.25*0.25 + 0.25*1.25*1.25},
		{"Len", float64(d.Len()), 4},
	}
	for _, tt := range tests {
		if !near(tt.got, tt.want, tol) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	m := d.Map()
	if len(m) != 3 || m["0"] != 0.25 || m["2"] != 0.5 || m["3"] != 0.25 {
		t.Errorf("Map: got %v, want only the outcomes above zero", m)
	}
}

func TestD6AndSuccessChance(t *testing.T) {
	d := D6()
	if d.P(0) != 0 || !near(d.Total(), 1, tol) || !near(d.Mean(), 3.5, tol) {
		t.Errorf("D6: got %v (mean %v), want uniform 1…6", d, d.Mean())
	}
	for th := 2; th <= 7; th++ {
		p, err := SuccessChance(th)
		if err != nil || !near(p, float64(7-th)/6, 0) {
			t.Errorf("SuccessChance(%d): got %v, %v, want %v", th, p, err, float64(7-th)/6)
		}
	}
}

func TestPoolSuccesses(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 13, 40} {
		for th := 2; th <= 7; th++ {
			d, err := PoolSuccesses(n, th)
			if err != nil {
				t.Fatal(err)
			}
			p := float64(7-th) / 6
			if d.Len() != n+1 {
				t.Errorf("n=%d t=%d: got Len %d, want %d", n, th, d.Len(), n+1)
			}
			for k := 0; k <= n; k++ {
				want := binom(n, k) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
				if !near(d.P(k), want, tol) {
					t.Errorf("n=%d t=%d: P(%d) got %v, want %v", n, th, k, d.P(k), want)
				}
			}
			if !near(d.Mean(), float64(n)*p, 1e-11) {
				t.Errorf("n=%d t=%d: mean got %v, want %v", n, th, d.Mean(), float64(n)*p)
			}
		}
	}
	// The largest pool keeps its mass.
	d, err := PoolSuccesses(MaxDice, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !near(d.Total(), 1, 1e-12) || !near(d.Mean(), 500, 1e-9) {
		t.Errorf("1000 dice at 4+: got total %v mean %v, want 1 and 500", d.Total(), d.Mean())
	}
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

func TestValidation(t *testing.T) {
	tests := []struct {
		name  string
		call  func() error
		param string
		msg   string
	}{
		{"pool 1001", func() error { _, err := PoolSuccesses(1001, 4); return err },
			ParamDice, "dice: pool size 1001 is more than 1000"},
		{"pool -2", func() error { _, err := PoolSuccesses(-2, 4); return err },
			ParamDice, "dice: pool size -2 is negative"},
		{"pool threshold 9", func() error { _, err := PoolSuccesses(3, 9); return err },
			ParamThreshold, "dice: threshold 9 is outside 2–7"},
		{"chance 1", func() error { _, err := SuccessChance(1); return err },
			ParamThreshold, "dice: threshold 1 is outside 2–7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var pe *ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ParamError", err)
			}
			if pe.Param != tt.param {
				t.Errorf("param: got %q, want %q", pe.Param, tt.param)
			}
			if err.Error() != tt.msg {
				t.Errorf("message: got %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}
