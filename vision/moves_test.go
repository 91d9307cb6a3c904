package vision

import (
	"math"
	"testing"

	"github.com/sztab/sztab/rules/skirmish"
)

// underTemplate is the rules' decision on the camera's gaps.
func underTemplate(mk TableMarker, models []ModelPosition, rule skirmish.TemplateRule) (under, unsure []string) {
	var gaps []skirmish.MarkerGap
	for _, g := range MarkerGaps(mk, models) {
		gaps = append(gaps, skirmish.MarkerGap(g))
	}
	return skirmish.UnderTemplate(gaps, rule)
}

func TestUnderTemplate(t *testing.T) {
	mk := TableMarker{Kind: MarkerTemplate, X: 100, Y: 100, DiameterMM: 76, SigmaMM: 1}
	// Bases of 25 mm at σ 0.5: touching reach is 38 + 12.5 = 50.5 mm, the
	// bound 2·hypot(1, 0.5) ≈ 2.24 mm.
	models := []ModelPosition{
		model("centre", "b", 100, 100),
		model("partly", "b", 140, 100),      // 40 from the centre: partly under
		model("edge-in", "b", 100, 149),     // 49: within the bound of 50.5
		model("edge-out", "b", 152, 100),    // 52: within the bound
		model("outside", "b", 100, 160),     // 60: clear of it
		model("centre-rule", "b", 137, 100), // 37: centre under it too
	}
	tests := []struct {
		rule         skirmish.TemplateRule
		under, close []string
	}{
		{skirmish.TemplateTouch, []string{"centre", "partly", "centre-rule"}, []string{"edge-in", "edge-out"}},
		{"", []string{"centre", "partly", "centre-rule"}, []string{"edge-in", "edge-out"}},
		{skirmish.TemplateCentre, []string{"centre"}, []string{"partly", "centre-rule"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule), func(t *testing.T) {
			under, unsure := underTemplate(mk, models, tt.rule)
			if !equalStrings(under, tt.under) || !equalStrings(unsure, tt.close) {
				t.Errorf("got under %v close %v, want %v %v", under, unsure, tt.under, tt.close)
			}
		})
	}
	s := Snapshot{Markers: []TableMarker{mk, {Kind: MarkerObjective, X: 5, Y: 5}}}
	if got := s.MarkersOf(MarkerObjective); len(got) != 1 || got[0].X != 5 {
		t.Errorf("objective markers %v", got)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestMoves(t *testing.T) {
	wall := rect("w", CoverHeavy, 200, -50, 210, 50)
	// a piece far off read badly: it does not make the moves by the wall
	// close calls
	sloppy := rect("s", CoverLight, 1000, 1000, 1100, 1100)
	sloppy.SigmaMM = 5
	start := Snapshot{Terrain: []Terrain{wall, sloppy}, Models: []ModelPosition{
		model("over", "a", 150, 0), model("beside", "a", 150, 100), model("graze", "a", 150, 51.5),
		model("clip", "a", 150, 46), model("still", "a", 205, 0), model("gone", "a", 0, 0),
	}}
	end := Snapshot{KrokMM: 25.4, Models: []ModelPosition{
		model("over", "a", 260, 0), model("beside", "a", 260, 100), model("graze", "a", 260, 51.5),
		model("clip", "a", 260, 46), model("still", "a", 205, 0), model("new", "a", 0, 0),
	}}
	got := Moves(start, end)
	want := []struct {
		id          string
		mm          float64
		jump, close bool
	}{
		{"over", 110, true, false},
		{"beside", 110, false, false},
		{"graze", 110, false, true},
		{"clip", 110, true, false}, // 4 mm past the wall's edge, bound 2.24
		{"still", 0, false, false}, // stands in the wall: did not move, did not jump
	}
	if len(got) != len(want) {
		t.Fatalf("got %d moves, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		jump, unsure := skirmish.Jumped(skirmish.Path{MovedMM: g.Distance.MM, MovedBoundMM: g.Distance.BoundMM, DepthMM: g.DepthMM, DepthBoundMM: g.DepthBoundMM})
		if g.Model != w.id || math.Abs(g.Distance.MM-w.mm) > 1e-9 || jump != w.jump || unsure != w.close {
			t.Errorf("%s: got %+v (jump %v, unsure %v), want %v mm, jump %v close %v", w.id, g, jump, unsure, w.mm, w.jump, w.close)
		}
		if b := 2 * math.Hypot(0.5, 0.5); math.Abs(g.Distance.BoundMM-b) > 1e-9 {
			t.Errorf("%s: bound %v, want %v", w.id, g.Distance.BoundMM, b)
		}
	}
}

func TestCheckTable(t *testing.T) {
	good := Snapshot{Terrain: []Terrain{rect("w", CoverLight, 0, 0, 10, 10)}, Markers: []TableMarker{{Kind: MarkerTemplate, DiameterMM: 76}, {Kind: MarkerObjective}}}
	if err := good.CheckTable(); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name string
		s    Snapshot
		msg  string
	}{
		{"kind", Snapshot{Terrain: []Terrain{{ID: "x", Kind: "yellow", Outline: [][2]float64{{0, 0}, {1, 0}, {0, 1}}}}}, `kind "yellow"`},
		{"two vertices", Snapshot{Terrain: []Terrain{{ID: "x", Kind: CoverLight, Outline: [][2]float64{{0, 0}, {1, 0}}}}}, "2 vertices"},
		{"nan", Snapshot{Terrain: []Terrain{{ID: "x", Kind: CoverLight, Outline: [][2]float64{{0, 0}, {1, 0}, {math.NaN(), 1}}}}}, "not a point"},
		{"marker kind", Snapshot{Markers: []TableMarker{{Kind: "orange"}}}, `kind "orange"`},
		{"template size", Snapshot{Markers: []TableMarker{{Kind: MarkerTemplate}}}, "diameter_mm"},
		{"confidence", Snapshot{Markers: []TableMarker{{Kind: MarkerObjective, Confidence: 2}}}, "confidence 2"},
		{"model sigma", Snapshot{Models: []ModelPosition{{ID: "m", SigmaMM: -1}}}, "sigma -1"},
		{"corner σ count", Snapshot{Terrain: []Terrain{{ID: "x", Kind: CoverLight, Outline: [][2]float64{{0, 0}, {1, 0}, {0, 1}}, VertexSigmaMM: []float64{0.3}}}}, "1 vertex_sigma_mm for 3 vertices"},
		{"corner σ nan", Snapshot{Terrain: []Terrain{{ID: "x", Kind: CoverLight, Outline: [][2]float64{{0, 0}, {1, 0}, {0, 1}}, VertexSigmaMM: []float64{0.3, math.NaN(), 0.3}}}}, "vertex_sigma_mm NaN"},
	}
	for _, tt := range bad {
		err := tt.s.CheckTable()
		if err == nil || !contains(err.Error(), tt.msg) || !contains(err.Error(), "vision: ") {
			t.Errorf("%s: got %v, want an error with %q", tt.name, err, tt.msg)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
