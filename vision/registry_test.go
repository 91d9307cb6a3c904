package vision

import (
	"strings"
	"testing"
)

const testRegistry = `
dictionary: 4x4_50
table: {width_mm: 1200, depth_mm: 1200}
fiducials:
  side_mm: 40
  markers:
    - {marker: 0, x_mm: 30, y_mm: 30}
    - {marker: 1, x_mm: 1170, y_mm: 30}
    - {marker: 2, x_mm: 1170, y_mm: 1170, rot_deg: 90}
    - {marker: 3, x_mm: 30, y_mm: 1170, side_mm: 60}
models:
  - {marker: 10, id: ak-1, unit: ak, faction: Armia Krajowa, base_mm: 25}
  - {marker: 11, id: ak-2, unit: ak, base_mm: 32, height_mm: 5}
  - {marker: 12, id: gren-1, unit: gren, base_mm: 40, marker_mm: 25}
`

func TestParseRegistry(t *testing.T) {
	r, err := ParseRegistry("test", []byte(testRegistry))
	if err != nil {
		t.Fatal(err)
	}
	m, ok := r.Model(10)
	if !ok || m.MarkerMM != 16 || m.HeightMM != 3.5 || m.Faction != "Armia Krajowa" {
		t.Errorf("model 10: got %+v, want a 16 mm marker 3.5 mm up", m)
	}
	if m, _ := r.Model(11); m.MarkerMM != 20 || m.HeightMM != 5 {
		t.Errorf("model 11: got %+v, want 20 mm, 5 mm up", m)
	}
	if f, ok := r.Fiducial(3); !ok || f.SideMM != 60 {
		t.Errorf("fiducial 3: got %+v", f)
	}
	if f, _ := r.Fiducial(0); f.SideMM != 40 {
		t.Errorf("fiducial 0: side %g, want the default 40", f.SideMM)
	}
	if _, ok := r.Model(0); ok {
		t.Error("a fiducial is a model")
	}
	if got := strings.Join(r.Units(), ","); got != "ak,gren" {
		t.Errorf("units: got %s", got)
	}
	c := r.fiducials[2].Corners()
	// turned a quarter clockwise: the marker's top-left corner is at the
	// top right of its square
	if c[0].X != 1190 || c[0].Y != 1150 {
		t.Errorf("fiducial 2's first corner: got %v, want (1190, 1150)", c[0])
	}
}

func TestRegistryErrors(t *testing.T) {
	tests := []struct{ name, edit, err string }{
		{"duplicate marker", "  - {marker: 12, id: x, unit: u, base_mm: 25}\n", "marker 12 is already model"},
		{"marker outside the dictionary", "  - {marker: 60, id: x, unit: u, base_mm: 25}\n", "not in dictionary 4x4_50"},
		{"marker too big", "  - {marker: 13, id: x, unit: u, base_mm: 25, marker_mm: 20}\n", "does not fit on a 25 mm base"},
		{"duplicate id", "  - {marker: 13, id: ak-1, unit: u, base_mm: 25}\n", "used twice"},
		{"no unit", "  - {marker: 13, id: x, base_mm: 25}\n", "unit is empty"},
		{"unknown key", "  - {marker: 13, id: x, unit: u, base_mm: 25, colour: red}\n", "field colour not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRegistry("test", []byte(testRegistry+tt.edit))
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("got %v, want an error containing %q", err, tt.err)
			}
		})
	}
	for _, bad := range []struct{ yaml, err string }{
		{"", "empty"},
		{"dictionary: 7x7_50\ntable: {width_mm: 1, depth_mm: 1}\n", "unknown dictionary"},
		{"table: {width_mm: 1200, depth_mm: 1200}\nfiducials:\n  markers:\n    - {marker: 0, x_mm: 1, y_mm: 1}\n", "at least 4"},
	} {
		if _, err := ParseRegistry("test", []byte(bad.yaml)); err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("%q: got %v, want an error containing %q", bad.yaml, err, bad.err)
		}
	}
}

func TestMarkersExample(t *testing.T) {
	r, err := LoadRegistry("../firmware-config/markers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Fiducials.Markers) < 4 || len(r.Models) == 0 {
		t.Errorf("the example has %d fiducials and %d models", len(r.Fiducials.Markers), len(r.Models))
	}
}
