package vision

import (
	"math"
	"testing"
)

func TestEdgeDistance(t *testing.T) {
	tests := []struct {
		name    string
		a, b    ModelPosition
		mm, bnd float64
	}{
		{"apart", ModelPosition{X: 0, Y: 0, BaseMM: 25, SigmaMM: 0.3}, ModelPosition{X: 300, Y: 400, BaseMM: 32, SigmaMM: 0.4}, 500 - 28.5, 1},
		{"touching", ModelPosition{X: 0, BaseMM: 25}, ModelPosition{X: 25, BaseMM: 25}, 0, 0},
		{"overlapping", ModelPosition{X: 0, BaseMM: 40}, ModelPosition{X: 10, BaseMM: 40}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EdgeDistance(tt.a, tt.b)
			if math.Abs(got.MM-tt.mm) > 1e-9 || math.Abs(got.BoundMM-tt.bnd) > 1e-9 {
				t.Errorf("got %+v, want %v mm ± %v", got, tt.mm, tt.bnd)
			}
		})
	}
}

func TestUnitDistanceAndCover(t *testing.T) {
	s := Snapshot{Seq: 3, Models: []ModelPosition{
		{ID: "a1", Unit: "a", X: 0, Y: 0, BaseMM: 25},
		{ID: "a2", Unit: "a", X: 100, Y: 0, BaseMM: 25},
		{ID: "b1", Unit: "b", X: 600, Y: 0, BaseMM: 25, Cover: "light"},
		{ID: "b2", Unit: "b", X: 700, Y: 0, BaseMM: 25, Cover: "heavy"},
		{ID: "b3", Unit: "b", X: 800, Y: 0, BaseMM: 25, Cover: "heavy"},
	}}
	d, err := s.UnitDistance("a", "b")
	if err != nil || d.MM != 475 {
		t.Errorf("got %+v, %v; want 475 mm", d, err)
	}
	if _, err := s.UnitDistance("a", "z"); err == nil {
		t.Error("distance to a unit not on the table: no error")
	}
	if l, h := s.CoverCount("b"); l != 1 || h != 2 {
		t.Errorf("cover: got %d light %d heavy, want 1 and 2", l, h)
	}
}
