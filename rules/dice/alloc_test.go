package dice

import (
	"errors"
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
	packet, err := Sequence{Attacks: 1, Hit: 3, DamageD6: true, Save: 5}.Packet()
	if err != nil {
		t.Fatal(err)
	}
	unsaved, err := Sequence{Attacks: 5, Hit: 3, DamageD6: true, Save: 5}.Unsaved()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		ds   []Dist
		want Dist
	}{
		{"none", nil, Dist{1}},
		{"one", []Dist{{0.3, 0.7}}, Dist{0.3, 0.7}},
		{"binomials add up", []Dist{Binomial(2, 0.3), Binomial(4, 0.3), Binomial(1, 0.3)}, Binomial(7, 0.3)},
		{"five packets are the sequence", []Dist{packet, packet, packet, packet, packet}, unsaved},
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

// TestD6DamagePacket counts every hit die, damage die and save die.
func TestD6DamagePacket(t *testing.T) {
	for _, hit := range []int{2, 4, 7} {
		for _, save := range []int{2, 4, 6, 7} {
			t.Run(fmt.Sprintf("hit %d save %d", hit, save), func(t *testing.T) {
				var count [7]float64
				for h := 1; h <= 6; h++ {
					if h < hit {
						count[0] += 6
						continue
					}
					for d := 1; d <= 6; d++ {
						// Each save die fails with chance (save−1)/6.
						var walk func(i, unsaved int, weight float64)
						walk = func(i, unsaved int, weight float64) {
							if i == d {
								count[unsaved] += weight
								return
							}
							walk(i+1, unsaved+1, weight*float64(save-1)/6)
							walk(i+1, unsaved, weight*float64(7-save)/6)
						}
						walk(0, 0, 1)
					}
				}
				got := D6DamagePacket(float64(7-hit)/6, 1-float64(7-save)/6)
				if got.Len() != 7 {
					t.Fatalf("Len %d, want 7", got.Len())
				}
				for k, c := range count {
					if want := c / 36; !near(got.P(k), want, tol) {
						t.Errorf("P(%d) = %v, want %v", k, got.P(k), want)
					}
				}
				seq, err := Sequence{Attacks: 1, Hit: hit, DamageD6: true, Save: save}.Packet()
				if err != nil {
					t.Fatal(err)
				}
				if !sameDist(seq, got, 0) {
					t.Errorf("Sequence.Packet %v, D6DamagePacket %v", seq, got)
				}
			})
		}
	}
}

// bruteKilled plays every outcome of the packets, a model at a time.
func bruteKilled(lives []int, packets []Dist, policy Policy) Dist {
	killed := make(Dist, len(lives)+1)
	var walk func(i int, left []int, dead int, p float64)
	walk = func(i int, left []int, dead int, p float64) {
		if i == len(packets) {
			killed[dead] += p
			return
		}
		for j, pj := range packets[i] {
			if pj == 0 {
				continue
			}
			next, d := append([]int(nil), left...), dead
			best := -1
			for m, l := range next {
				switch {
				case l <= 0:
				case best < 0,
					policy == Focus && l < next[best],
					policy != Focus && l > next[best]:
					best = m
				}
			}
			if j > 0 && best >= 0 {
				next[best] -= j
				if next[best] <= 0 {
					d++
				}
			}
			walk(i+1, next, d, p*pj)
		}
	}
	walk(0, lives, 0, 1)
	return killed
}

func TestKilledFromLivesBruteForce(t *testing.T) {
	d6 := func(hit, save int) Dist {
		p, err := Sequence{Attacks: 1, Hit: hit, DamageD6: true, Save: save}.Packet()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	single := func(q float64) Dist { return Dist{1 - q, q} }
	tests := []struct {
		name    string
		lives   []int
		packets []Dist
	}{
		{"no packets", []int{2, 1}, nil},
		{"single wounds, one wounded", []int{2, 1, 2}, []Dist{single(0.3), single(0.3), single(0.3), single(0.3)}},
		{"single wounds, unsorted", []int{1, 3, 2, 1}, []Dist{single(0.5), single(0.25), single(0.6), single(0.4), single(0.9)}},
		{"d6 packets on mixed lives", []int{3, 1, 2}, []Dist{d6(2, 4), d6(2, 4), d6(3, 7)}},
		{"packets of unsaved wounds", []int{2, 2, 1}, []Dist{Binomial(2, 0.5), Binomial(1, 0.5), Binomial(3, 0.5)}},
		{"packets with gaps, longer than any model's lives", []int{1, 2, 4}, []Dist{{0.5, 0, 0.3, 0, 0.2}, {0.1, 0.9}, {0, 0, 0, 0, 0, 0.5, 0.5}, {0.4, 0.1, 0.5}}},
		{"certain miss", []int{1, 2}, []Dist{{1}, {1}}},
		{"overkill", []int{1, 1}, []Dist{{0, 0, 1}, {0.5, 0.5}, {0.5, 0.5}}},
		{"one model", []int{5}, []Dist{d6(2, 2), d6(4, 5), d6(2, 7)}},
		{"many lives", []int{7, 1, 9}, []Dist{d6(2, 7), d6(2, 7), d6(2, 7), single(0.5)}},
	}
	for _, tt := range tests {
		for _, policy := range []Policy{"", Spread, Focus} {
			t.Run(tt.name+"/"+string(policy), func(t *testing.T) {
				got, err := KilledFromLives(tt.lives, tt.packets, policy)
				if err != nil {
					t.Fatal(err)
				}
				want := bruteKilled(tt.lives, tt.packets, policy)
				if got.Len() != len(tt.lives)+1 || !sameDist(got, want, tol) {
					t.Errorf("got %v, want %v", got, want)
				}
			})
		}
	}
}

// For a unit of equal models at full strength it is Sequence.Killed.
func TestKilledFromLivesMatchesKilled(t *testing.T) {
	for _, seq := range []Sequence{
		{Attacks: 5, Hit: 2, Wound: 3, Save: 4},
		{Attacks: 7, Hit: 4, Wound: 3, Save: 7},
		{Attacks: 3, Hit: 2, DamageD6: true, Save: 5},
		{Attacks: 12, Hit: 2, DamageD6: true, Save: 4},
	} {
		for _, tg := range []Target{{Models: 5, Lives: 2}, {Models: 3, Lives: 1, Policy: Focus}, {Models: 4, Lives: 3, Policy: Spread}, {Models: 10, Lives: 8, Policy: Focus}} {
			t.Run(fmt.Sprintf("%+v %+v", seq, tg), func(t *testing.T) {
				want, err := seq.Killed(tg)
				if err != nil {
					t.Fatal(err)
				}
				p, err := seq.Packet()
				if err != nil {
					t.Fatal(err)
				}
				lives := make([]int, tg.Models)
				for i := range lives {
					lives[i] = tg.Lives
				}
				packets := make([]Dist, seq.Attacks)
				for i := range packets {
					packets[i] = p
				}
				got, err := KilledFromLives(lives, packets, tg.Policy)
				if err != nil {
					t.Fatal(err)
				}
				if !sameDist(got, want, tol) {
					t.Errorf("got %v, want %v", got, want)
				}
			})
		}
	}
}

func TestKilledFromLivesErrors(t *testing.T) {
	one := []Dist{{0.5, 0.5}}
	many := make([]int, MaxModels+1)
	for i := range many {
		many[i] = 1
	}
	bigUnit := make([]int, 200)
	for i := range bigUnit {
		bigUnit[i] = 12 - i%3
	}
	bigFire := make([]Dist, 100)
	for i := range bigFire {
		bigFire[i] = D6DamagePacket(5.0/6, 4.0/6)
	}
	tests := []struct {
		name    string
		lives   []int
		packets []Dist
		policy  Policy
		param   string
		msg     string
	}{
		{"no models", nil, one, Spread, ParamModels, "dice: models 0 must be at least 1"},
		{"too many models", many, one, Spread, ParamModels, "dice: models 1001 is more than 1000"},
		{"dead model", []int{2, 0}, one, Spread, ParamLives, "dice: lives 0 must be at least 1"},
		{"too many lives", []int{2, 101}, one, Focus, ParamLives, "dice: lives 101 is more than 100"},
		{"too many packets", []int{2}, make([]Dist, MaxDice+1), Spread, ParamAttacks, "dice: attacks 1001 is more than 1000"},
		{"policy", []int{2}, one, "random", ParamPolicy, `dice: allocation policy "random" is neither "spread" nor "focus"`},
		{"state space", bigUnit, bigFire, Spread, ParamModels,
			"dice: models 200 with up to 12 lives needs more than 50000 allocation states; use fewer models or the Monte Carlo estimate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := KilledFromLives(tt.lives, tt.packets, tt.policy)
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
