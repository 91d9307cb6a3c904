package vision

import (
	"math"
	"testing"
)

func TestCheckTooCloseToCall(t *testing.T) {
	tests := []struct {
		d     Distance
		limit float64
		want  Call
	}{
		{Distance{MM: 700, BoundMM: 1}, 762, Within},
		{Distance{MM: 761, BoundMM: 1}, 762, Within},
		{Distance{MM: 761.5, BoundMM: 1}, 762, TooCloseToCall},
		{Distance{MM: 762.9, BoundMM: 1}, 762, TooCloseToCall},
		{Distance{MM: 763.5, BoundMM: 1}, 762, Beyond},
		{Distance{MM: 762, BoundMM: 0}, 762, Within},
	}
	for _, tt := range tests {
		if got := tt.d.Check(tt.limit); got != tt.want {
			t.Errorf("%+v against %g: got %s, want %s", tt.d, tt.limit, got, tt.want)
		}
	}
}

func TestKrokiAndPairs(t *testing.T) {
	s := Snapshot{Seq: 1, Models: []ModelPosition{
		{ID: "a1", Unit: "a", X: 0, Y: 0, BaseMM: 25, SigmaMM: 0.3},
		{ID: "a2", Unit: "a", X: 100, Y: 0, BaseMM: 25, SigmaMM: 0.4},
		{ID: "b1", Unit: "b", X: 400, Y: 0, BaseMM: 40, SigmaMM: 0.3, Occluded: true},
	}}
	k, bk := Distance{MM: 254, BoundMM: 2.54}.Kroki(25.4)
	if k != 10 || math.Abs(bk-0.1) > 1e-12 {
		t.Errorf("kroki: got %g ± %g, want 10 ± 0.1", k, bk)
	}
	all := s.ModelDistances(25.4)
	if len(all) != 3 {
		t.Fatalf("model pairs: got %d, want 3", len(all))
	}
	if all[0].A != "a1" || all[0].B != "a2" || all[0].MM != 75 || all[0].BoundMM != 1 {
		t.Errorf("a1–a2: got %+v, want 75 mm ± 1", all[0])
	}
	units := s.UnitDistances(25.4)
	if len(units) != 1 {
		t.Fatalf("unit pairs: got %d, want 1", len(units))
	}
	u := units[0]
	if u.A != "a" || u.B != "b" || u.ModelA != "a2" || u.ModelB != "b1" || u.MM != 267.5 || !u.Occluded || u.Kroki != 10.531 {
		t.Errorf("a–b: got %+v, want a2–b1 267.5 mm (10.531 kroki), occluded", u)
	}
}
