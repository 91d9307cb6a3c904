package dice

import (
	"fmt"
	"strconv"
)

// This file holds the exact odds: probability distributions computed by
// convolution and dynamic programming (no sampling), accurate to a few ulps
// of float64 — far below 1e-12 for every size the validation lets through.

// MaxDice is the largest pool (dice rolled at once, copies summed) the
// exact functions accept.
const MaxDice = 1000

// Parameter names carried by ParamError.Param. They are stable, so a CLI can
// map them to its flags.
const (
	ParamThreshold = "threshold"
	ParamDice      = "dice"
)

var paramLabels = map[string]string{
	ParamThreshold: "threshold",
	ParamDice:      "pool size",
}

// ParamError is an invalid input to the odds functions. Param is one of the
// Param* constants, so a caller can tell which flag or field was wrong:
//
//	dice: threshold 8 is outside 2–7
type ParamError struct {
	Param  string
	Value  any
	Reason string
}

func (e *ParamError) Error() string {
	label := paramLabels[e.Param]
	if label == "" {
		label = e.Param
	}
	return fmt.Sprintf("dice: %s %v %s", label, e.Value, e.Reason)
}

func checkThreshold(param string, t int) error {
	if t < 2 || t > 7 {
		return &ParamError{Param: param, Value: t, Reason: "is outside 2–7"}
	}
	return nil
}

func checkCount(param string, n, limit int) error {
	switch {
	case n < 0:
		return &ParamError{Param: param, Value: n, Reason: "is negative"}
	case n > limit:
		return &ParamError{Param: param, Value: n, Reason: fmt.Sprintf("is more than %d", limit)}
	}
	return nil
}

// Dist is a discrete distribution over 0, 1, …, Len()-1: d[k] is P(X = k).
// Len is one more than the largest outcome the rules allow, so trailing
// probabilities may be zero (PoolSuccesses(3, 7) has Len 4 and all its mass
// at 0). Marshalled as JSON it is the plain array; Map gives the keyed form.
type Dist []float64

// Len is the number of outcomes covered, largest outcome + 1.
func (d Dist) Len() int { return len(d) }

// P is P(X = k); zero outside the range.
func (d Dist) P(k int) float64 {
	if k < 0 || k >= len(d) {
		return 0
	}
	return d[k]
}

// AtLeast is P(X ≥ k), summed from the tail so small tails keep their
// precision.
func (d Dist) AtLeast(k int) float64 {
	k = max(k, 0)
	s := 0.0
	for i := len(d) - 1; i >= k; i-- {
		s += d[i]
	}
	return s
}

// AtMost is P(X ≤ k).
func (d Dist) AtMost(k int) float64 {
	k = min(k, len(d)-1)
	s := 0.0
	for i := 0; i <= k; i++ {
		s += d[i]
	}
	return s
}

// Total is the sum of all probabilities (1 up to rounding).
func (d Dist) Total() float64 { return d.AtLeast(0) }

// Mean is E[X].
func (d Dist) Mean() float64 {
	m := 0.0
	for k, p := range d {
		m += float64(k) * p
	}
	return m
}

// Variance is Var[X].
func (d Dist) Variance() float64 {
	m := d.Mean()
	v := 0.0
	for k, p := range d {
		x := float64(k) - m
		v += x * x * p
	}
	return v
}

// Map is the JSON-friendly keyed form: decimal outcome → probability, with
// only the outcomes whose probability is above zero.
func (d Dist) Map() map[string]float64 {
	m := make(map[string]float64)
	for k, p := range d {
		if p > 0 {
			m[strconv.Itoa(k)] = p
		}
	}
	return m
}

// Signed is a distribution over the integers Min, Min+1, …: P[i] is
// P(X = Min+i). Differences of dice live here.
type Signed struct {
	Min  int  `json:"min"`
	Dist Dist `json:"p"`
}

// Max is the largest outcome covered.
func (s Signed) Max() int { return s.Min + len(s.Dist) - 1 }

// P is P(X = k).
func (s Signed) P(k int) float64 { return s.Dist.P(k - s.Min) }

// AtLeast is P(X ≥ k).
func (s Signed) AtLeast(k int) float64 { return s.Dist.AtLeast(k - s.Min) }

// AtMost is P(X ≤ k).
func (s Signed) AtMost(k int) float64 {
	if k < s.Min {
		return 0
	}
	return s.Dist.AtMost(k - s.Min)
}

// Mean is E[X].
func (s Signed) Mean() float64 { return float64(s.Min)*s.Dist.Total() + s.Dist.Mean() }

// Map is decimal outcome → probability for outcomes with probability above
// zero ("-2": 0.111…).
func (s Signed) Map() map[string]float64 {
	m := make(map[string]float64)
	for i, p := range s.Dist {
		if p > 0 {
			m[strconv.Itoa(s.Min+i)] = p
		}
	}
	return m
}

// D6 is one fair die: 1…6 with 1/6 each (Len 7, P(0) = 0).
func D6() Dist { return Dist{0, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6} }

// SuccessChance is the chance that one d6 shows at least t, for the
// thresholds the games use: (7−t)/6 for t in 2…7. A 1 always fails, so 1 is
// not a threshold; 7 is "cannot succeed" (for a save: no save).
func SuccessChance(t int) (float64, error) {
	if err := checkThreshold(ParamThreshold, t); err != nil {
		return 0, err
	}
	return chance(t), nil
}

func chance(t int) float64 { return float64(7-t) / 6 }

// PoolSuccesses is the number of successes when n d6 are rolled against
// threshold t: Binomial(n, (7−t)/6).
func PoolSuccesses(n, t int) (Dist, error) {
	if err := checkCount(ParamDice, n, MaxDice); err != nil {
		return nil, err
	}
	if err := checkThreshold(ParamThreshold, t); err != nil {
		return nil, err
	}
	return Binomial(n, chance(t)), nil
}

// Binomial is the number of successes in n independent trials that each
// succeed with chance p (0 ≤ p ≤ 1): Len n+1. It panics if n is negative.
func Binomial(n int, p float64) Dist {
	if n < 0 {
		panic(fmt.Sprintf("dice: Binomial of %d trials", n))
	}
	return nfold(Dist{1 - p, p}, n)
}

// Convolve is the distribution of X + Y for independent X ~ a and Y ~ b:
// Len a.Len()+b.Len()−1. An empty Dist has no mass, and neither has the
// result: it is empty too.
func Convolve(a, b Dist) Dist {
	if len(a) == 0 || len(b) == 0 {
		return Dist{}
	}
	out := make(Dist, len(a)+len(b)-1)
	for i, x := range a {
		if x == 0 {
			continue
		}
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}

// ConvolveAll is the distribution of the sum of independent variables with
// the distributions ds, convolved left to right; with none it is Dist{1}
// (always 0). For n copies of one distribution, ConvolveN and Binomial are
// cheaper.
func ConvolveAll(ds ...Dist) Dist {
	out := Dist{1}
	for _, d := range ds {
		out = Convolve(out, d)
	}
	return out
}

// Mixture is the distribution that is ds[i] with chance ws[i]: the sum of
// ws[i]·ds[i], as long as the longest of ds. The weights are not checked to
// sum to 1, so a caller may leave out components of weight 0. It panics if
// ws and ds differ in length.
func Mixture(ws []float64, ds []Dist) Dist {
	if len(ws) != len(ds) {
		panic(fmt.Sprintf("dice: Mixture of %d weights and %d distributions", len(ws), len(ds)))
	}
	n := 0
	for _, d := range ds {
		n = max(n, len(d))
	}
	out := make(Dist, n)
	for i, d := range ds {
		for k, x := range d {
			out[k] += ws[i] * x
		}
	}
	return out
}

// ConvolveN is the distribution of the sum of n independent copies of d,
// ConvolveAll of n times d: Len n·(d.Len()−1)+1, Dist{1} for n = 0 and empty
// for an empty d and n ≥ 1. It is computed in place (one allocation, no
// cancellation: every term is a sum of non-negative products). It panics if
// n is negative.
func ConvolveN(d Dist, n int) Dist {
	switch {
	case n < 0:
		panic(fmt.Sprintf("dice: ConvolveN of %d copies", n))
	case n == 0:
		return Dist{1}
	case len(d) == 0:
		return Dist{}
	}
	return nfold(d, n)
}

// nfold is ConvolveN for n ≥ 0 and a non-empty r.
func nfold(r []float64, n int) Dist {
	m := len(r) - 1
	out := make(Dist, m*n+1)
	out[0] = 1
	for i := 1; i <= n; i++ {
		prev := (i - 1) * m
		for k := i * m; k >= 0; k-- {
			lo, hi := max(0, k-prev), min(m, k)
			s := 0.0
			for j := lo; j <= hi; j++ {
				s += r[j] * out[k-j]
			}
			out[k] = s
		}
	}
	return out
}
