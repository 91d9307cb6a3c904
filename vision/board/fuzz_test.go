package board_test

import (
	"testing"

	"github.com/sztab/sztab/vision/board"
)

// Board files and calibrations from outside never panic; what parses
// validates again after a round trip.
func FuzzParse(f *testing.F) {
	for _, g := range printed.Games() {
		f.Add(printed[g])
	}
	f.Add([]byte("game: x\nwidth_mm: 100\n"))
	f.Add([]byte("zones: [{id: a, polygon: [[0,0],[1e308,0],[0,1]]}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := board.Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		out, err := d.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := board.Parse("again.yaml", out); err != nil {
			t.Fatalf("a parsed board does not parse again: %v", err)
		}
	})
}

func FuzzParseCalibration(f *testing.F) {
	f.Add([]byte("version: 1\ngame: bitwa-warszawska\nwidth: 640\nheight: 480\nlens: {fx: 500, fy: 500, cx: 320, cy: 240}\nhomography: [1, 0, 0, 0, 1, 0, 0, 0, 1]\ncamera_mm: [300, 200, 1000]\n"))
	f.Add([]byte("version: 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = board.ParseCalibration("fuzz.yaml", data)
	})
}

// Bad board files: the error names the file, the line and what.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "", "x.yaml: the file is empty"},
		{"unknown field", "game: g\nsize: 3\n", "x.yaml:2:"},
		{"three markers", "game: g\nwidth_mm: 100\ndepth_mm: 100\nmarkers:\n  - {id: 1, x_mm: 20, y_mm: 20, side_mm: 20}\n", "x.yaml:5: markers: want the four corner markers"},
		{"marker twice", "game: g\nwidth_mm: 300\ndepth_mm: 300\nmarkers:\n  - {id: 1, x_mm: 20, y_mm: 20, side_mm: 20}\n  - {id: 1, x_mm: 280, y_mm: 20, side_mm: 20}\n  - {id: 2, x_mm: 280, y_mm: 280, side_mm: 20}\n  - {id: 3, x_mm: 20, y_mm: 280, side_mm: 20}\n", "x.yaml:6: marker 1: listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := board.Parse("x.yaml", []byte(tc.data))
			if err == nil || !contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	d, _ := printed.Builtin("mali-powstancy")
	d.Nodes[1].X, d.Nodes[1].Y = d.Nodes[0].X+5, d.Nodes[0].Y
	out, _ := d.Marshal()
	if _, err := board.Parse("m.yaml", out); err == nil || !contains(err.Error(), "overlaps node") {
		t.Errorf("overlapping nodes: %v", err)
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && (s[:len(sub)] == sub || contains(s[1:], sub)))
}
