package skirmish

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sztab/sztab/rules/dice"
)

// TestMonteCarloAgreesWithExact: every estimate lies within 4 standard
// errors of the exact value. The seed is fixed, so the test is
// deterministic; with ~40 comparisons per case the chance that an honest
// estimator trips one at 4 SE is well under 1%.
func TestMonteCarloAgreesWithExact(t *testing.T) {
	tests := []struct {
		s  Sequence
		tg Target
	}{
		{Sequence{Attacks: 5, Hit: 2, Wound: 3, Save: 4}, Target{Models: 5, Lives: 2}},
		{Sequence{Attacks: 24, Hit: 4, Wound: 3, Save: 5}, Target{Models: 6, Lives: 2, Policy: Focus}},
		{Sequence{Attacks: 12, Hit: 2, DamageD6: true, Save: 4}, Target{Models: 10, Lives: 2}},
		{Sequence{Attacks: 6, Hit: 3, DamageD6: true, Save: 5}, Target{Models: 4, Lives: 3, Policy: Focus}},
		{Sequence{Attacks: 8, Hit: 3, DamageD6: true, Save: 6}, Target{Models: 3, Lives: 4}},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%+v/%+v", tt.s, tt.tg), func(t *testing.T) {
			o, err := tt.s.Exact(&tt.tg)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 1920))
			e, err := tt.s.MonteCarlo(rng, &tt.tg, 200_000)
			if err != nil {
				t.Fatal(err)
			}
			within(t, "unsaved", o.Unsaved, e.Unsaved)
			within(t, "killed", o.Killed, e.Killed)
		})
	}
}

func within(t *testing.T, what string, exact dice.Dist, e dice.EstimatedDist) {
	t.Helper()
	if d := math.Abs(e.Mean - exact.Mean()); d > 4*e.MeanSE {
		t.Errorf("%s mean: got %v ± %v, want %v", what, e.Mean, e.MeanSE, exact.Mean())
	}
	for k := range max(len(e.P), exact.Len()) {
		p := exact.P(k)
		var est, se float64
		if k < len(e.P) {
			est, se = e.P[k], e.SE[k]
		}
		// An outcome never seen has SE 0; allow what 200,000 runs cannot see.
		if math.Abs(est-p) > 4*se+1e-4 {
			t.Errorf("%s P(%d): got %v ± %v, want %v", what, k, est, se, p)
		}
	}
}

func TestMonteCarloSource(t *testing.T) {
	s := Sequence{Attacks: 10, Hit: 3, Wound: 4, Save: 5}
	tg := Target{Models: 5, Lives: 2}
	o, err := s.Exact(&tg)
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.MonteCarloSource(dice.NewSeeded(7), &tg, 50_000)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "unsaved", o.Unsaved, e.Unsaved)
	within(t, "killed", o.Killed, e.Killed)
	if e.Runs != 50_000 {
		t.Errorf("runs: got %d, want 50000", e.Runs)
	}
}

// TestResolve plays scripted dice through the stages.
func TestResolve(t *testing.T) {
	tests := []struct {
		name string
		s    Sequence
		tg   *Target
		dice []int
		want Trial
	}{
		{
			// FAZA STRZAŁU, the rulebook's example: 5 × 98k at grenadiers.
			name: "rulebook example",
			s:    Sequence{Attacks: 5, Hit: 2, Wound: 3, Save: 4},
			tg:   &Target{Models: 5, Lives: 2},
			dice: []int{3, 3, 3, 4, 5, 3, 4, 4, 6, 6, 2, 3, 6, 6, 6},
			want: Trial{Hits: 5, Wounds: 5, Unsaved: 2, Killed: 0, Wounded: 2, Dice: 15},
		},
		{
			name: "rulebook example, focus",
			s:    Sequence{Attacks: 5, Hit: 2, Wound: 3, Save: 4},
			tg:   &Target{Models: 5, Lives: 2, Policy: Focus},
			dice: []int{3, 3, 3, 4, 5, 3, 4, 4, 6, 6, 2, 3, 6, 6, 6},
			want: Trial{Hits: 5, Wounds: 5, Unsaved: 2, Killed: 1, Wounded: 0, Dice: 15},
		},
		{
			name: "misses roll no further dice",
			s:    Sequence{Attacks: 3, Hit: 4, Wound: 3, Save: 4},
			tg:   &Target{Models: 1, Lives: 1},
			dice: []int{1, 2, 3},
			want: Trial{Dice: 3},
		},
		{
			name: "d6 packets spread",
			s:    Sequence{Attacks: 2, Hit: 2, DamageD6: true, Save: 7},
			tg:   &Target{Models: 2, Lives: 4},
			dice: []int{2, 2, 3, 3},
			want: Trial{Hits: 2, Wounds: 6, Unsaved: 6, Killed: 0, Wounded: 2, Dice: 4},
		},
		{
			name: "d6 packets focus lose the excess",
			s:    Sequence{Attacks: 2, Hit: 2, DamageD6: true, Save: 7},
			tg:   &Target{Models: 2, Lives: 4, Policy: Focus},
			dice: []int{2, 2, 3, 3},
			want: Trial{Hits: 2, Wounds: 6, Unsaved: 6, Killed: 1, Wounded: 0, Dice: 4},
		},
		{
			name: "d6 packet saved wound by wound",
			s:    Sequence{Attacks: 1, Hit: 2, DamageD6: true, Save: 4},
			tg:   &Target{Models: 3, Lives: 2},
			dice: []int{5, 6, 1, 4, 3, 6, 2, 2},
			want: Trial{Hits: 1, Wounds: 6, Unsaved: 4, Killed: 1, Wounded: 0, Dice: 8},
		},
		{
			name: "no target",
			s:    Sequence{Attacks: 2, Hit: 2, Wound: 2, Save: 7},
			dice: []int{6, 6, 6, 6},
			want: Trial{Hits: 2, Wounds: 2, Unsaved: 2, Dice: 4},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.s.Resolve(dice.NewFixed(tt.dice...), tt.tg)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	s := Sequence{Attacks: 3, Hit: 2, Wound: 3, Save: 4}
	if _, err := s.Resolve(dice.NewFixed(6, 6), nil); !errors.Is(err, dice.ErrExhausted) {
		t.Errorf("short source: got %v, want dice.ErrExhausted", err)
	}
	if _, err := s.MonteCarlo(rand.New(rand.NewPCG(1, 1)), nil, 0); err == nil || err.Error() != "skirmish: runs 0 must be at least 1" {
		t.Errorf("runs 0: got %v, want skirmish: runs 0 must be at least 1", err)
	}
	bad := Sequence{Attacks: 3, Hit: 9, Wound: 3, Save: 4}
	if _, err := bad.MonteCarlo(rand.New(rand.NewPCG(1, 1)), nil, 10); err == nil || err.Error() != "skirmish: hit threshold 9 is outside 2–7" {
		t.Errorf("hit 9: got %v, want skirmish: hit threshold 9 is outside 2–7", err)
	}
}

func TestMonteCarloDeterministic(t *testing.T) {
	run := func() Estimate {
		e, err := benchSeq.MonteCarlo(rand.New(rand.NewPCG(42, 42)), &benchTarget, 1000)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	a, b := run(), run()
	if a.Unsaved.Mean != b.Unsaved.Mean || a.Killed.Mean != b.Killed.Mean {
		t.Errorf("same seed: got means %v/%v and %v/%v, want equal", a.Unsaved.Mean, a.Killed.Mean, b.Unsaved.Mean, b.Killed.Mean)
	}
}

func BenchmarkMonteCarlo12x100k(b *testing.B) {
	b.ReportAllocs()
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		e, err := benchSeq.MonteCarlo(rng, &benchTarget, 100_000)
		if err != nil || e.Runs != 100_000 {
			b.Fatal(err)
		}
	}
}
