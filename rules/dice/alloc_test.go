package dice

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// sameDist reports whether a and b agree to eps, a missing outcome counting
// as probability 0.
func sameDist(a, b Dist, eps float64) bool {
	for k := range max(len(a), len(b)) {
		if !near(a.P(k), b.P(k), eps) {
			return false
		}
	}
	return true
}

func TestBinomial(t *testing.T) {
	choose := func(n, k int) float64 {
		c := 1.0
		for i := 1; i <= k; i++ {
			c = c * float64(n-k+i) / float64(i)
		}
		return c
	}
	for _, n := range []int{0, 1, 2, 5, 12, 30} {
		for _, p := range []float64{0, 1.0 / 6, 0.5, 2.0 / 3, 1} {
			t.Run(fmt.Sprintf("%d,%v", n, p), func(t *testing.T) {
				d := Binomial(n, p)
				if d.Len() != n+1 {
					t.Fatalf("Len %d, want %d", d.Len(), n+1)
				}
				for k := 0; k <= n; k++ {
					want := choose(n, k) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
					if !near(d.P(k), want, tol) {
						t.Errorf("P(%d) = %v, want %v", k, d.P(k), want)
					}
				}
			})
		}
	}
	// PoolSuccesses is Binomial at a threshold's chance.
	for th := 2; th <= 7; th++ {
		pool, err := PoolSuccesses(9, th)
		if err != nil {
			t.Fatal(err)
		}
		if b := Binomial(9, float64(7-th)/6); !sameDist(pool, b, 0) {
			t.Errorf("threshold %d: PoolSuccesses %v, Binomial %v", th, pool, b)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Binomial(-1, p) did not panic")
		}
	}()
	Binomial(-1, 0.5)
}

func TestConvolve(t *testing.T) {
	twoD6 := Dist{0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1}
	for k := range twoD6 {
		twoD6[k] /= 36
	}
	tests := []struct {
		name string
		a, b Dist
		want Dist
	}{
		{"2d6", D6(), D6(), twoD6},
		{"point mass at 0 is the identity", Dist{1}, Dist{0.2, 0.3, 0.5}, Dist{0.2, 0.3, 0.5}},
		{"point mass at 2 shifts", Dist{0, 0, 1}, Dist{0.25, 0.75}, Dist{0, 0, 0.25, 0.75}},
		{"two coins", Dist{0.5, 0.5}, Dist{0.25, 0.75}, Dist{0.125, 0.5, 0.375}},
		{"zeros inside", Dist{0.5, 0, 0.5}, Dist{0.5, 0, 0.5}, Dist{0.25, 0, 0.5, 0, 0.25}},
		{"empty left", Dist{}, D6(), Dist{}},
		{"empty right", D6(), nil, Dist{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Convolve(tt.a, tt.b)
			if got.Len() != tt.want.Len() || !sameDist(got, tt.want, tol) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if rev := Convolve(tt.b, tt.a); !sameDist(rev, got, tol) {
				t.Errorf("not symmetric: %v and %v", got, rev)
			}
		})
	}
}

func TestConvolveAll(t *testing.T) {
	packet := Dist{0.5, 0.25, 0, 0.125, 0, 0, 0.125}
	tests := []struct {
		name string
		ds   []Dist
		want Dist
	}{
		{"none", nil, Dist{1}},
		{"one", []Dist{{0.3, 0.7}}, Dist{0.3, 0.7}},
		{"binomials add up", []Dist{Binomial(2, 0.3), Binomial(4, 0.3), Binomial(1, 0.3)}, Binomial(7, 0.3)},
		{"five packets are ConvolveN", []Dist{packet, packet, packet, packet, packet}, ConvolveN(packet, 5)},
		{"3d6", []Dist{D6(), D6(), D6()}, Convolve(Convolve(D6(), D6()), D6())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ConvolveAll(tt.ds...)
			if got.Len() != tt.want.Len() || !sameDist(got, tt.want, tol) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestConvolveN(t *testing.T) {
	skewed := Dist{0.5, 0, 0.3, 0.2}
	for _, d := range []Dist{{0.3, 0.7}, D6(), skewed, {1}, {0, 1}} {
		for _, n := range []int{0, 1, 2, 5, 12} {
			t.Run(fmt.Sprintf("%v×%d", d, n), func(t *testing.T) {
				got := ConvolveN(d, n)
				want := ConvolveAll(slices.Repeat([]Dist{d}, n)...)
				if got.Len() != want.Len() || !sameDist(got, want, tol) {
					t.Errorf("got %v, want %v", got, want)
				}
			})
		}
	}
	if got := ConvolveN(Dist{}, 3); got.Len() != 0 {
		t.Errorf("empty ×3: got %v, want empty", got)
	}
	if got := ConvolveN(nil, 0); got.Len() != 1 || got.P(0) != 1 {
		t.Errorf("empty ×0: got %v, want Dist{1}", got)
	}
	if b := Binomial(9, 0.3); !sameDist(ConvolveN(Dist{0.7, 0.3}, 9), b, 0) {
		t.Errorf("ConvolveN of a coin: got %v, want Binomial %v", ConvolveN(Dist{0.7, 0.3}, 9), b)
	}
	defer func() {
		if recover() == nil {
			t.Error("ConvolveN(d, -1) did not panic")
		}
	}()
	ConvolveN(D6(), -1)
}

func TestMixture(t *testing.T) {
	tests := []struct {
		name string
		ws   []float64
		ds   []Dist
		want Dist
	}{
		{"none", nil, nil, Dist{}},
		{"one", []float64{1}, []Dist{{0.2, 0.8}}, Dist{0.2, 0.8}},
		{"lengths differ", []float64{0.25, 0.75}, []Dist{{1}, {0, 0, 1}}, Dist{0.25, 0, 0.75}},
		{"die or coin", []float64{0.5, 0.5}, []Dist{D6(), {0.5, 0.5}}, Dist{0.25, 0.25 + 1.0/12, 1.0 / 12, 1.0 / 12, 1.0 / 12, 1.0 / 12, 1.0 / 12}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Mixture(tt.ws, tt.ds)
			if got.Len() != tt.want.Len() || !sameDist(got, tt.want, tol) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("Mixture of 1 weight and 2 distributions did not panic")
		}
	}()
	Mixture([]float64{1}, []Dist{{1}, {1}})
}
