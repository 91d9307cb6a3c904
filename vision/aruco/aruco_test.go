package aruco

import "testing"

func TestLookup(t *testing.T) {
	tests := []struct {
		name string
		size int
		n    int
		ok   bool
	}{
		{"4x4_50", 4, 50, true},
		{"DICT_4X4_100", 4, 100, true},
		{" 5x5_250 ", 5, 250, true},
		{"6x6_50", 0, 0, false},
	}
	for _, tt := range tests {
		d, err := Lookup(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("Lookup(%q): got error %v, want ok=%v", tt.name, err, tt.ok)
			continue
		}
		if tt.ok && (d.Size != tt.size || d.Len() != tt.n) {
			t.Errorf("Lookup(%q): got %d×%d bits, %d markers; want %d, %d", tt.name, d.Size, d.Size, d.Len(), tt.size, tt.n)
		}
	}
}

func TestCellsHaveBlackBorder(t *testing.T) {
	d, _ := Lookup("4x4_50")
	// marker 0 of DICT_4X4_50 is 1011 0101 0011 0010 (1 = white)
	want := [][]bool{
		{true, false, true, true},
		{false, true, false, true},
		{false, false, true, true},
		{false, false, true, false},
	}
	for r := 0; r < 6; r++ {
		for c := 0; c < 6; c++ {
			got := d.Cell(0, r, c)
			w := false
			if r >= 1 && r <= 4 && c >= 1 && c <= 4 {
				w = want[r-1][c-1]
			}
			if got != w {
				t.Errorf("cell (%d,%d): got white=%v, want %v", r, c, got, w)
			}
		}
	}
}
