package skirmish

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sztab/sztab/rules/dice"
)

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
func bruteKilled(lives []int, packets []dice.Dist, policy Allocation) dice.Dist {
	killed := make(dice.Dist, len(lives)+1)
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
	d6 := func(hit, save int) dice.Dist {
		p, err := Sequence{Attacks: 1, Hit: hit, DamageD6: true, Save: save}.Packet()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	single := func(q float64) dice.Dist { return dice.Dist{1 - q, q} }
	tests := []struct {
		name    string
		lives   []int
		packets []dice.Dist
	}{
		{"no packets", []int{2, 1}, nil},
		{"single wounds, one wounded", []int{2, 1, 2}, []dice.Dist{single(0.3), single(0.3), single(0.3), single(0.3)}},
		{"single wounds, unsorted", []int{1, 3, 2, 1}, []dice.Dist{single(0.5), single(0.25), single(0.6), single(0.4), single(0.9)}},
		{"d6 packets on mixed lives", []int{3, 1, 2}, []dice.Dist{d6(2, 4), d6(2, 4), d6(3, 7)}},
		{"packets of unsaved wounds", []int{2, 2, 1}, []dice.Dist{dice.Binomial(2, 0.5), dice.Binomial(1, 0.5), dice.Binomial(3, 0.5)}},
		{"packets with gaps, longer than any model's lives", []int{1, 2, 4}, []dice.Dist{{0.5, 0, 0.3, 0, 0.2}, {0.1, 0.9}, {0, 0, 0, 0, 0, 0.5, 0.5}, {0.4, 0.1, 0.5}}},
		{"certain miss", []int{1, 2}, []dice.Dist{{1}, {1}}},
		{"overkill", []int{1, 1}, []dice.Dist{{0, 0, 1}, {0.5, 0.5}, {0.5, 0.5}}},
		{"one model", []int{5}, []dice.Dist{d6(2, 2), d6(4, 5), d6(2, 7)}},
		{"many lives", []int{7, 1, 9}, []dice.Dist{d6(2, 7), d6(2, 7), d6(2, 7), single(0.5)}},
	}
	for _, tt := range tests {
		for _, policy := range []Allocation{"", Spread, Focus} {
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
				packets := make([]dice.Dist, seq.Attacks)
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
	one := []dice.Dist{{0.5, 0.5}}
	many := make([]int, MaxModels+1)
	for i := range many {
		many[i] = 1
	}
	bigUnit := make([]int, 200)
	for i := range bigUnit {
		bigUnit[i] = 12 - i%3
	}
	bigFire := make([]dice.Dist, 100)
	for i := range bigFire {
		bigFire[i] = D6DamagePacket(5.0/6, 4.0/6)
	}
	tests := []struct {
		name    string
		lives   []int
		packets []dice.Dist
		policy  Allocation
		param   string
		msg     string
	}{
		{"no models", nil, one, Spread, ParamModels, "skirmish: models 0 must be at least 1"},
		{"too many models", many, one, Spread, ParamModels, "skirmish: models 1001 is more than 1000"},
		{"dead model", []int{2, 0}, one, Spread, ParamLives, "skirmish: lives 0 must be at least 1"},
		{"too many lives", []int{2, 101}, one, Focus, ParamLives, "skirmish: lives 101 is more than 100"},
		{"too many packets", []int{2}, make([]dice.Dist, dice.MaxDice+1), Spread, ParamAttacks, "skirmish: attacks 1001 is more than 1000"},
		{"policy", []int{2}, one, "random", ParamPolicy, `skirmish: allocation policy "random" is neither "spread" nor "focus"`},
		{"state space", bigUnit, bigFire, Spread, ParamModels,
			"skirmish: models 200 with up to 12 lives needs more than 50000 allocation states; use fewer models or the Monte Carlo estimate"},
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
