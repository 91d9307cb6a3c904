package skirmish

import (
	"fmt"
	"math"
	"testing"
)

func close(a, b []float64, tol float64) bool {
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y float64
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if math.Abs(x-y) > tol {
			return false
		}
	}
	return true
}

// outcome is the distribution of (unsaved wounds, models killed).
type outcome struct{ wounds, killed []float64 }

func (o *outcome) add(w, k int, p float64) {
	for len(o.wounds) <= w {
		o.wounds = append(o.wounds, 0)
	}
	for len(o.killed) <= k {
		o.killed = append(o.killed, 0)
	}
	o.wounds[w] += p
	o.killed[k] += p
}

// enumerate plays every outcome of the shot in progress through the engine,
// a die at a time: for a threshold only pass or fail matters (a 6 or a 1,
// weighed by their chance), a d6-wounds die takes each face. At the start of
// every stage it checks the odds the state shows against what follows.
func enumerate(t *testing.T, s State, path string) outcome {
	t.Helper()
	sh := s.Shot
	if sh == nil {
		var o outcome
		o.add(s.LastShot.Unsaved, len(s.LastShot.Killed), 1)
		return o
	}
	faces := map[int]float64{}
	if sh.Stage == StageDamage {
		for v := 1; v <= 6; v++ {
			faces[v] = 1.0 / 6
		}
	} else {
		p := chance(s.threshold(sh.Stage))
		faces[6], faces[1] = p, 1-p
	}
	var o outcome
	for _, v := range []int{1, 2, 3, 4, 5, 6} {
		p := faces[v]
		if p == 0 {
			continue
		}
		sub := enumerate(t, mustApply(t, s, rolls(v)), fmt.Sprintf("%s %s:%d", path, sh.Stage, v))
		for w, q := range sub.wounds {
			for len(o.wounds) <= w {
				o.wounds = append(o.wounds, 0)
			}
			o.wounds[w] += p * q
		}
		for k, q := range sub.killed {
			for len(o.killed) <= k {
				o.killed = append(o.killed, 0)
			}
			o.killed[k] += p * q
		}
	}
	if len(sh.Entered) == 0 {
		if sh.Odds == nil || sh.Odds.Before != sh.Stage {
			t.Fatalf("%s: odds %+v before %s", path, sh.Odds, sh.Stage)
		}
		if !close(sh.Odds.Wounds, o.wounds, 2e-9) || !close(sh.Odds.Killed, o.killed, 2e-9) {
			t.Errorf("%s before %s:\n odds wounds %v killed %v\n play wounds %v killed %v", path, sh.Stage, sh.Odds.Wounds, sh.Odds.Killed, o.wounds, o.killed)
		}
	}
	return o
}

func TestOddsMatchPlay(t *testing.T) {
	cat := looseCat(t)
	wound := func(s State, unit string, lives ...int) State {
		u := s.unit(unit)
		for i, l := range lives {
			u.Models[i].Wounds = u.Models[i].Lives - l
		}
		return s
	}
	tests := []struct {
		name   string
		units  []UnitSpec
		opts   Options
		lives  []int // remaining lives of the target's models
		bartek bool  // Bartek shoots
		shot   DeclareShot
	}{
		{name: "rifles at a unit at full strength", units: []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 3}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 2}},
			shot: shoot(20, 0, 0)},
		{name: "rifles at a wounded unit, spread", units: []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 3}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 3}},
			lives: []int{1, 2, 2}, shot: shoot(20, 0, 0)},
		{name: "rifles at a wounded unit, focus, heavy cover", units: []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 3}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 3}},
			opts: Options{Allocation: Focus}, lives: []int{2, 1, 2}, shot: shoot(20, 0, 2)},
		{name: "Panzerfaust: d6 wounds", units: []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 1, Weapon: "PANZERFAUST"}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 3}},
			lives: []int{1, 2, 2}, shot: shoot(15, 0, 0)},
		{name: "flamethrower on three models", units: []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 1, Weapon: "ZDOBYCZNY FLAMMENWERFER 35"}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 3}},
			lives: []int{1, 2, 2}, shot: DeclareShot{Shooter: "ak", Target: "gren", Markers: []Marker{{Models: []string{"gren-1", "gren-2", "gren-3"}}}}},
		{name: "mortar: two markers, one model under both", units: []UnitSpec{{ID: "gren", Card: "mortar_team", Owner: 2, Models: 2, Weapon: "MOŹDZIERZ 50MM"}, {ID: "ak", Card: "ak_soldier", Owner: 1, Models: 3}},
			bartek: true, shot: DeclareShot{Shooter: "gren", Target: "ak", Markers: []Marker{{Models: []string{"ak-1", "ak-2"}, Distance: kroki(20, 0)}, {Models: []string{"ak-2"}, Distance: kroki(20, 0)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := deployed(t, cat, tt.units, tt.opts, ChooseScenario{Number: 1})
			s = mustApply(t, s, EndPhase{})
			if tt.bartek {
				s = mustApply(t, s, EndPhase{}, EndPhase{})
			}
			target := tt.shot.Target
			if tt.lives != nil {
				s = wound(s, target, tt.lives...)
			}
			s = mustApply(t, s, tt.shot)
			o := enumerate(t, s, "")
			if math.Abs(o.wounds[0]+sum(o.wounds[1:])-1) > 1e-12 {
				t.Errorf("enumeration does not sum to 1: %v", o.wounds)
			}
		})
	}
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// The rulebook's example shot, as a display would show it before the roll.
func TestOddsOfTheWorkedExample(t *testing.T) {
	s := mustApply(t, newGame(t, 5, "", 5, Options{}), shoot(20, 0, 0))
	o := s.Shot.Odds
	if o.Before != StageHit || math.Abs(o.MeanWounds-5*5.0/6*4.0/6*3.0/6) > 1e-9 || o.Killed[0] != 1 {
		t.Errorf("odds %+v; want mean 1.3889 unsaved and nobody killed (spread, two lives)", o)
	}
	s = mustApply(t, s, rolls(3, 3, 3, 4, 5))
	if o := s.Shot.Odds; o.Before != StageWound || math.Abs(o.MeanWounds-5*4.0/6*3.0/6) > 1e-9 {
		t.Errorf("after five hits: %+v", o)
	}
	s = mustApply(t, s, rolls(3, 4, 4, 6, 6))
	if o := s.Shot.Odds; o.Before != StageSave || math.Abs(o.MeanWounds-2.5) > 1e-9 || math.Abs(o.Wounds[2]-10.0/32) > 1e-9 {
		t.Errorf("before the five saves: %+v", o)
	}
}
