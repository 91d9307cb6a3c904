package skirmish

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/sztab/sztab/rules/dice"
)

const tol = 1e-12

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// sameDist reports whether a and b agree to eps, a missing outcome counting
// as probability 0.
func sameDist(a, b dice.Dist, eps float64) bool {
	for k := range max(len(a), len(b)) {
		if !near(a.P(k), b.P(k), eps) {
			return false
		}
	}
	return true
}

// TestHandChecked holds values worked out on paper.
func TestHandChecked(t *testing.T) {
	// The rulebook's example: 5 × Karabiner 98k (hit 2, wound 3) at
	// grenadiers (save 4).
	k98 := Sequence{Attacks: 5, Hit: 2, Wound: 3, Save: 4}
	u, err := k98.Unsaved()
	if err != nil {
		t.Fatal(err)
	}
	per := 5.0 / 6 * 4.0 / 6 * 3.0 / 6 // 5/18
	checks := []struct {
		name      string
		got, want float64
	}{
		{"mean unsaved", u.Mean(), 5 * per},
		{"P(5 unsaved)", u.P(5), math.Pow(per, 5)},
		{"P(0 unsaved)", u.P(0), math.Pow(1-per, 5)},
		{"P(≥1 unsaved)", u.AtLeast(1), 1 - math.Pow(1-per, 5)},
	}
	// One Panzerfaust (hit 2, d6 wounds) at a 2-life model, no save:
	// dies unless it misses or rolls a 1 for damage.
	pf := Sequence{Attacks: 1, Hit: 2, DamageD6: true, Save: 7}
	k, err := pf.Killed(Target{Models: 1, Lives: 2})
	if err != nil {
		t.Fatal(err)
	}
	pu, _ := pf.Unsaved()
	checks = append(checks,
		struct {
			name      string
			got, want float64
		}{"panzerfaust P(kill)", k.P(1), 5.0 / 6 * 5.0 / 6},
		struct {
			name      string
			got, want float64
		}{"panzerfaust mean wounds", pu.Mean(), 5.0 / 6 * 3.5},
	)
	// Two hits of 1 wound on 2 grenadiers of 2 lives: spread wounds both,
	// focus kills one. With hit/wound/save certain-ish: hit 2, wound 2, no
	// save; P(both attacks land) = (25/36)².
	two := Sequence{Attacks: 2, Hit: 2, Wound: 2, Save: 7}
	spread, _ := two.Killed(Target{Models: 2, Lives: 2})
	focus, _ := two.Killed(Target{Models: 2, Lives: 2, Policy: Focus})
	both := math.Pow(25.0/36, 2)
	checks = append(checks,
		struct {
			name      string
			got, want float64
		}{"spread P(0 killed)", spread.P(0), 1},
		struct {
			name      string
			got, want float64
		}{"focus P(1 killed)", focus.P(1), both},
	)
	for _, c := range checks {
		if !near(c.got, c.want, tol) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestKilledSingleWounds checks the DP against the closed forms for packets
// of one wound: Focus kills ⌊w/L⌋; Spread levels the unit, so with w < M·L
// wounds nobody dies until every model is down to one life.
func TestKilledSingleWounds(t *testing.T) {
	seqs := []Sequence{
		{Attacks: 12, Hit: 3, Wound: 4, Save: 5},
		{Attacks: 30, Hit: 2, Wound: 2, Save: 7},
		{Attacks: 7, Hit: 4, Wound: 3, Save: 2},
	}
	targets := []Target{{1, 1, Spread}, {3, 8, Spread}, {2, 9, Focus}, {5, 2, Spread}, {5, 2, Focus}, {3, 4, Spread}, {3, 4, Focus}, {10, 1, Focus}, {4, 3, ""}}
	for _, s := range seqs {
		u, err := s.Unsaved()
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			t.Run(fmt.Sprintf("%+v/%+v", s, tg), func(t *testing.T) {
				got, err := s.Killed(tg)
				if err != nil {
					t.Fatal(err)
				}
				want := make(dice.Dist, tg.Models+1)
				for w, p := range u {
					want[closedKilled(w, tg)] += p
				}
				for k := range want {
					if !near(got.P(k), want[k], tol) {
						t.Errorf("P(%d killed): got %v, want %v", k, got.P(k), want[k])
					}
				}
			})
		}
	}
}

func closedKilled(w int, t Target) int {
	m, l := t.Models, t.Lives
	if w >= m*l {
		return m
	}
	if t.Policy == Focus {
		return w / l
	}
	if q := w / m; q == l-1 {
		return w % m
	}
	return 0
}

// eachRoll calls f with every combination of k dice (k = 0: once).
func eachRoll(k int, f func(v []int)) {
	v := make([]int, k)
	for i := range v {
		v[i] = 1
	}
	for {
		f(v)
		i := 0
		for ; i < k; i++ {
			v[i]++
			if v[i] <= 6 {
				break
			}
			v[i] = 1
		}
		if i == k {
			return
		}
	}
}

// bruteForce plays every combination of every die the sequence can roll,
// stage by stage, and counts outcomes in units of 6^-depth, where depth is
// the most dice any path can roll, so the sums are exact integers.
func bruteForce(s Sequence, tg *Target) (unsaved, killed dice.Dist) {
	depth := 0
	if s.Hit < 7 {
		depth += s.Attacks
		if s.DamageD6 || s.Wound < 7 {
			depth += s.Attacks
			if s.Save < 7 && s.DamageD6 {
				depth += 6 * s.Attacks
			} else if s.Save < 7 {
				depth += s.Attacks
			}
		}
	}
	var uc, kc []int64
	uc = make([]int64, 6*s.Attacks+1)
	if tg != nil {
		kc = make([]int64, tg.Models+1)
	}
	nHit := s.Attacks
	if s.Hit == 7 {
		nHit = 0
	}
	eachRoll(nHit, func(hv []int) {
		hits := 0
		for _, v := range hv {
			if v >= s.Hit && v != 1 {
				hits++
			}
		}
		nw := hits
		if !s.DamageD6 && s.Wound == 7 {
			nw = 0
		}
		eachRoll(nw, func(wv []int) {
			var packets []int
			for _, v := range wv {
				if s.DamageD6 {
					packets = append(packets, v)
				} else if v >= s.Wound {
					packets = append(packets, 1)
				}
			}
			total := 0
			for _, p := range packets {
				total += p
			}
			ns := total
			if s.Save == 7 {
				ns = 0
			}
			eachRoll(ns, func(sv []int) {
				weight := int64(1)
				for range depth - len(hv) - len(wv) - len(sv) {
					weight *= 6
				}
				left := append([]int(nil), packets...)
				if ns > 0 {
					i := 0
					for k, w := range packets {
						left[k] = 0
						for _, v := range sv[i : i+w] {
							if v < s.Save {
								left[k]++
							}
						}
						i += w
					}
				}
				u := 0
				for _, w := range left {
					u += w
				}
				uc[u] += weight
				if tg != nil {
					kc[bruteAllocate(*tg, left)] += weight
				}
			})
		})
	})
	den := math.Pow(6, float64(depth))
	unsaved = make(dice.Dist, len(uc))
	for k, c := range uc {
		unsaved[k] = float64(c) / den
	}
	if tg != nil {
		killed = make(dice.Dist, len(kc))
		for k, c := range kc {
			killed[k] = float64(c) / den
		}
	}
	return unsaved, killed
}

// bruteAllocate applies the policies model by model.
func bruteAllocate(tg Target, packets []int) int {
	lives := make([]int, tg.Models)
	for i := range lives {
		lives[i] = tg.Lives
	}
	dead := 0
	for _, p := range packets {
		if p == 0 || dead == tg.Models {
			continue
		}
		best := -1
		for i, l := range lives {
			if l <= 0 {
				continue
			}
			switch {
			case best < 0:
				best = i
			case tg.Policy == Focus && l < lives[best]:
				best = i
			case tg.Policy != Focus && l > lives[best]:
				best = i
			}
		}
		lives[best] -= p
		if lives[best] <= 0 {
			dead++
		}
	}
	return dead
}

func TestExactMatchesBruteForce(t *testing.T) {
	targets := []*Target{nil, {1, 1, Spread}, {2, 2, Spread}, {2, 2, Focus}, {3, 1, Spread}, {1, 3, Focus}, {2, 3, Spread}, {2, 3, Focus}}
	seqs := []Sequence{
		{Attacks: 0, Hit: 2, Wound: 2, Save: 2},
		{Attacks: 1, Hit: 4, Wound: 3, Save: 5},
		{Attacks: 2, Hit: 2, Wound: 3, Save: 4},
		{Attacks: 2, Hit: 7, Wound: 3, Save: 4},
		{Attacks: 2, Hit: 3, Wound: 7, Save: 4},
		{Attacks: 2, Hit: 6, Wound: 2, Save: 7},
		{Attacks: 3, Hit: 3, Wound: 4, Save: 5},
		{Attacks: 1, Hit: 2, DamageD6: true, Save: 4},
		{Attacks: 1, Hit: 5, DamageD6: true, Save: 2},
		{Attacks: 2, Hit: 2, DamageD6: true, Save: 7},
		{Attacks: 2, Hit: 4, DamageD6: true, Save: 7},
		{Attacks: 3, Hit: 3, DamageD6: true, Save: 7},
	}
	for _, s := range seqs {
		for _, tg := range targets {
			name := fmt.Sprintf("%+v", s)
			if tg != nil {
				name += fmt.Sprintf("/%+v", *tg)
			}
			t.Run(name, func(t *testing.T) {
				o, err := s.Exact(tg)
				if err != nil {
					t.Fatal(err)
				}
				bu, bk := bruteForce(s, tg)
				for k := range max(len(bu), o.Unsaved.Len()) {
					if !near(o.Unsaved.P(k), bu.P(k), tol) {
						t.Errorf("P(%d unsaved): got %v, want %v", k, o.Unsaved.P(k), bu.P(k))
					}
				}
				if tg == nil {
					if o.Killed != nil {
						t.Errorf("killed without a target: got %v, want nil", o.Killed)
					}
					return
				}
				for k := range max(len(bk), o.Killed.Len()) {
					if !near(o.Killed.P(k), bk.P(k), tol) {
						t.Errorf("P(%d killed): got %v, want %v", k, o.Killed.P(k), bk.P(k))
					}
				}
			})
		}
	}
}

func TestExactMassAndBigSequences(t *testing.T) {
	tests := []struct {
		s  Sequence
		tg Target
	}{
		{Sequence{Attacks: 1000, Hit: 4, Wound: 3, Save: 5}, Target{Models: 1000, Lives: 2}},
		{Sequence{Attacks: 1000, Hit: 4, Wound: 3, Save: 5}, Target{Models: 10, Lives: 100, Policy: Focus}},
		{Sequence{Attacks: 200, Hit: 2, DamageD6: true, Save: 4}, Target{Models: 20, Lives: 3}},
		{Sequence{Attacks: 300, Hit: 2, DamageD6: true, Save: 6}, Target{Models: 100, Lives: 6, Policy: Focus}},
	}
	for _, tt := range tests {
		o, err := tt.s.Exact(&tt.tg)
		if err != nil {
			t.Fatalf("%+v: %v", tt.s, err)
		}
		if !near(o.Unsaved.Total(), 1, 1e-12) || !near(o.Killed.Total(), 1, 1e-12) {
			t.Errorf("%+v/%+v: got totals %v and %v, want 1", tt.s, tt.tg, o.Unsaved.Total(), o.Killed.Total())
		}
		want := float64(tt.s.Attacks) * o.Packet.Mean()
		if !near(o.Unsaved.Mean(), want, 1e-9*want) {
			t.Errorf("%+v: mean unsaved got %v, want %v", tt.s, o.Unsaved.Mean(), want)
		}
	}
}

func TestMGFireAttacks(t *testing.T) {
	tests := []struct {
		f    MGFire
		want int
	}{
		{MGFire{Models: 1, BaseShots: 8, StationaryRounds: 0, BonusPerRound: MGBonusPerRound, Cap: 12}, 8},
		{MGFire{Models: 1, BaseShots: 8, StationaryRounds: 1, BonusPerRound: MGBonusPerRound, Cap: 12}, 10},
		{MGFire{Models: 2, BaseShots: 8, StationaryRounds: 2, BonusPerRound: MGBonusPerRound, Cap: 12}, 24},
		{MGFire{Models: 2, BaseShots: 8, StationaryRounds: 5, BonusPerRound: MGBonusPerRound, Cap: 12}, 24},
		{MGFire{Models: 1, BaseShots: 7, StationaryRounds: 2, BonusPerRound: MGBonusPerRound, Cap: 11}, 11},
		{MGFire{Models: 3, BaseShots: 7, StationaryRounds: 1, BonusPerRound: MGBonusPerRound, Cap: 11}, 27},
		{MGFire{Models: 0, BaseShots: 7, StationaryRounds: 1, BonusPerRound: MGBonusPerRound, Cap: 11}, 0},
	}
	for _, tt := range tests {
		got, err := tt.f.Attacks()
		if err != nil || got != tt.want {
			t.Errorf("%+v: got %d, %v, want %d", tt.f, got, err, tt.want)
		}
	}
}

// TestUnsavedIsConvolveAll: the unsaved wounds of a sequence are the sum of
// its attacks' packets.
func TestUnsavedIsConvolveAll(t *testing.T) {
	packet, err := Sequence{Attacks: 1, Hit: 3, DamageD6: true, Save: 5}.Packet()
	if err != nil {
		t.Fatal(err)
	}
	unsaved, err := Sequence{Attacks: 5, Hit: 3, DamageD6: true, Save: 5}.Unsaved()
	if err != nil {
		t.Fatal(err)
	}
	got := dice.ConvolveAll(packet, packet, packet, packet, packet)
	if got.Len() != unsaved.Len() || !sameDist(got, unsaved, tol) {
		t.Errorf("five packets: got %v, want the sequence's %v", got, unsaved)
	}
}

func TestSequenceValidation(t *testing.T) {
	tests := []struct {
		name  string
		call  func() error
		param string
		msg   string
	}{
		{"hit 8", func() error { _, err := Sequence{Attacks: 1, Hit: 8, Wound: 3, Save: 4}.Unsaved(); return err },
			ParamHit, "skirmish: hit threshold 8 is outside 2–7"},
		{"hit 1", func() error { _, err := Sequence{Attacks: 1, Hit: 1, Wound: 3, Save: 4}.Unsaved(); return err },
			ParamHit, "skirmish: hit threshold 1 is outside 2–7"},
		{"wound 0", func() error { _, err := Sequence{Attacks: 1, Hit: 2, Save: 4}.Unsaved(); return err },
			ParamWound, "skirmish: wound threshold 0 is outside 2–7"},
		{"wound with d6", func() error {
			_, err := Sequence{Attacks: 1, Hit: 2, Wound: 3, DamageD6: true, Save: 4}.Unsaved()
			return err
		}, ParamWound, "skirmish: wound threshold 3 cannot be combined with d6 damage"},
		{"save 1", func() error { _, err := Sequence{Attacks: 1, Hit: 2, Wound: 3, Save: 1}.Packet(); return err },
			ParamSave, "skirmish: save threshold 1 is outside 2–7"},
		{"attacks -1", func() error { _, err := Sequence{Attacks: -1, Hit: 2, Wound: 3, Save: 4}.Unsaved(); return err },
			ParamAttacks, "skirmish: attacks -1 is negative"},
		{"attacks 1001", func() error { _, err := Sequence{Attacks: 1001, Hit: 2, Wound: 3, Save: 4}.Exact(nil); return err },
			ParamAttacks, "skirmish: attacks 1001 is more than 1000"},
		{"models 0", func() error {
			_, err := Sequence{Attacks: 1, Hit: 2, Wound: 3, Save: 4}.Killed(Target{Lives: 1})
			return err
		},
			ParamModels, "skirmish: models 0 must be at least 1"},
		{"models 1001", func() error {
			_, err := Sequence{Attacks: 1, Hit: 2, Wound: 3, Save: 4}.Killed(Target{Models: 1001, Lives: 1})
			return err
		}, ParamModels, "skirmish: models 1001 is more than 1000"},
		{"lives -1", func() error {
			_, err := Sequence{Attacks: 1, Hit: 2, Wound: 3, Save: 4}.Killed(Target{Models: 2, Lives: -1})
			return err
		}, ParamLives, "skirmish: lives -1 must be at least 1"},
		{"policy", func() error {
			_, err := Sequence{Attacks: 1, Hit: 2, Wound: 3, Save: 4}.Exact(&Target{Models: 2, Lives: 1, Policy: "random"})
			return err
		}, ParamPolicy, `skirmish: allocation policy "random" is neither "spread" nor "focus"`},
		{"state space", func() error {
			_, err := Sequence{Attacks: 100, Hit: 2, DamageD6: true, Save: 5}.Killed(Target{Models: 200, Lives: 12})
			return err
		}, ParamModels, "skirmish: models 200 with 12 lives each needs more than 50000 allocation states; use fewer models or the Monte Carlo estimate"},
		{"mg cap", func() error { _, err := MGFire{Models: 1, BaseShots: 8, Cap: 0}.Attacks(); return err },
			ParamCap, "skirmish: shot cap 0 is below the base shots 8"},
		{"mg rounds", func() error {
			_, err := MGFire{Models: 1, BaseShots: 8, StationaryRounds: -1, Cap: 12}.Attacks()
			return err
		}, ParamRounds, "skirmish: stationary rounds -1 is negative"},
		{"mg too many", func() error {
			_, err := MGFire{Models: 100, BaseShots: 8, StationaryRounds: 2, BonusPerRound: 2, Cap: 12}.Attacks()
			return err
		}, ParamAttacks, "skirmish: attacks 1200 is more than 1000"},
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

// benchSeq is 12 anti-tank shots (hit 2+, d6 wounds, save 4+) at 10
// two-life models.
var (
	benchSeq    = Sequence{Attacks: 12, Hit: 2, DamageD6: true, Save: 4}
	benchTarget = Target{Models: 10, Lives: 2}
)

func BenchmarkExactSequence12(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		o, err := benchSeq.Exact(&benchTarget)
		if err != nil || o.Killed.Len() != 11 {
			b.Fatal(err)
		}
	}
}
