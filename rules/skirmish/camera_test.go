package skirmish

import (
	"reflect"
	"testing"
)

func TestCoverFromSightings(t *testing.T) {
	clear, light, heavy := Sighting{}, Sighting{Low: CoverLight, High: CoverLight}, Sighting{Low: CoverHeavy, High: CoverHeavy}
	maybe := Sighting{Low: "", High: CoverLight}
	tests := []struct {
		name      string
		sightings [][]Sighting
		want      InCover
	}{
		{"behind cover from every firer", [][]Sighting{{light, heavy}, {heavy, heavy}}, InCover{Light: 1, Heavy: 1}},
		{"one firer sees it in the clear", [][]Sighting{{light, clear}, {light, light}, {clear, clear}}, InCover{Light: 1}},
		{"no firer: behind nothing", [][]Sighting{{}, {}}, InCover{}},
		{"a close call that changes the unit's cover", [][]Sighting{{light}, {maybe}, {clear}},
			InCover{Light: 1, AtMost: &CoverCount{Light: 2}}},
		{"a close call that does not", [][]Sighting{{light}, {light}, {maybe}, {clear}, {clear}, {clear}}, InCover{Light: 2}},
		{"heavy on the favourable reading", [][]Sighting{{heavy}, {{Low: CoverLight, High: CoverHeavy}}, {clear}},
			InCover{Light: 1, Heavy: 1, AtMost: &CoverCount{Heavy: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CoverFromSightings(tt.sightings); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v (at most %+v), want %+v (at most %+v)", got, got.AtMost, tt.want, tt.want.AtMost)
			}
		})
	}
}

func TestUnderTemplate(t *testing.T) {
	// A 76 mm marker, 25 mm bases, bound 2.24 mm: touching reach 50.5 mm.
	gap := func(id string, centre float64) MarkerGap {
		return MarkerGap{Model: id, CentreMM: centre, MarkerRadiusMM: 38, BaseRadiusMM: 12.5, BoundMM: 2.24}
	}
	gaps := []MarkerGap{gap("centre", 0), gap("partly", 40), gap("edge-in", 49), gap("edge-out", 52), gap("outside", 60), gap("centre-rule", 37)}
	tests := []struct {
		rule          TemplateRule
		under, unsure []string
	}{
		{TemplateTouch, []string{"centre", "partly", "centre-rule"}, []string{"edge-in", "edge-out"}},
		{"", []string{"centre", "partly", "centre-rule"}, []string{"edge-in", "edge-out"}},
		{TemplateCentre, []string{"centre"}, []string{"partly", "centre-rule"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule), func(t *testing.T) {
			under, unsure := UnderTemplate(gaps, tt.rule)
			if !reflect.DeepEqual(under, tt.under) || !reflect.DeepEqual(unsure, tt.unsure) {
				t.Errorf("got under %v unsure %v, want %v %v", under, unsure, tt.under, tt.unsure)
			}
		})
	}
}

func TestJumped(t *testing.T) {
	tests := []struct {
		name           string
		p              Path
		jumped, unsure bool
	}{
		{"through a wall", Path{MovedMM: 110, MovedBoundMM: 1.4, DepthMM: 10, DepthBoundMM: 2.2}, true, false},
		{"clear of it", Path{MovedMM: 110, MovedBoundMM: 1.4, DepthMM: -30, DepthBoundMM: 2.2}, false, false},
		{"grazing its end", Path{MovedMM: 110, MovedBoundMM: 1.4, DepthMM: -1.5, DepthBoundMM: 2.2}, false, true},
		{"just into it", Path{MovedMM: 110, MovedBoundMM: 1.4, DepthMM: 2, DepthBoundMM: 2.2}, false, true},
		{"standing in it, not moving", Path{MovedMM: 1, MovedBoundMM: 1.4, DepthMM: 5, DepthBoundMM: 2.2}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if j, u := Jumped(tt.p); j != tt.jumped || u != tt.unsure {
				t.Errorf("got jumped %v unsure %v, want %v %v", j, u, tt.jumped, tt.unsure)
			}
		})
	}
}
