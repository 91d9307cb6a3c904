// Package aruco holds the bit patterns of OpenCV's predefined ArUco
// dictionaries (4×4 and 5×5 families) in pure Go, so markers can be
// rendered (the synthetic table, printable sheets) without OpenCV. The
// table is checked against OpenCV by the vision package's cgo tests.
package aruco

import (
	"fmt"
	"sort"
	"strings"
)

// Dictionary is a predefined ArUco dictionary.
type Dictionary struct {
	// Name is the config name, "4x4_50".
	Name string
	// Size is the marker's bits per side (4 or 5); a printed marker has
	// Size+2 cells per side with the black border.
	Size int
	// OpenCV is the cv::aruco::PREDEFINED_DICTIONARY_NAME value.
	OpenCV int
	codes  []uint32
}

// Len is the number of markers.
func (d *Dictionary) Len() int { return len(d.codes) }

// White reports whether the inner bit (row, col) of marker id is white.
func (d *Dictionary) White(id, row, col int) bool {
	n := d.Size
	return d.codes[id]>>(uint(n*n-1-(row*n+col)))&1 == 1
}

// Cell reports whether cell (row, col) of the printed marker, border
// included (0 ≤ row, col < Size+2), is white.
func (d *Dictionary) Cell(id, row, col int) bool {
	n := d.Size
	if row <= 0 || col <= 0 || row > n || col > n {
		return false
	}
	return d.White(id, row-1, col-1)
}

// Code is marker id's bits, row-major, first bit most significant, 1 = white.
func (d *Dictionary) Code(id int) uint32 { return d.codes[id] }

var predefined = map[string]*Dictionary{
	"4x4_50":   {Name: "4x4_50", Size: 4, OpenCV: 0, codes: dict4x4[:50]},
	"4x4_100":  {Name: "4x4_100", Size: 4, OpenCV: 1, codes: dict4x4[:100]},
	"4x4_250":  {Name: "4x4_250", Size: 4, OpenCV: 2, codes: dict4x4[:250]},
	"4x4_1000": {Name: "4x4_1000", Size: 4, OpenCV: 3, codes: dict4x4[:1000]},
	"5x5_50":   {Name: "5x5_50", Size: 5, OpenCV: 4, codes: dict5x5[:50]},
	"5x5_100":  {Name: "5x5_100", Size: 5, OpenCV: 5, codes: dict5x5[:100]},
	"5x5_250":  {Name: "5x5_250", Size: 5, OpenCV: 6, codes: dict5x5[:250]},
	"5x5_1000": {Name: "5x5_1000", Size: 5, OpenCV: 7, codes: dict5x5[:1000]},
}

// Names lists the dictionaries, sorted.
func Names() []string {
	var n []string
	for k := range predefined {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Lookup finds a dictionary by name ("4x4_50", case-insensitive; the
// OpenCV spelling "DICT_4X4_50" is accepted too).
func Lookup(name string) (*Dictionary, error) {
	key := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(name)), "dict_")
	if d, ok := predefined[key]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("aruco: unknown dictionary %q (known: %s)", name, strings.Join(Names(), ", "))
}

// All returns every predefined dictionary, for tests.
func All() []*Dictionary {
	var out []*Dictionary
	for _, n := range Names() {
		out = append(out, predefined[n])
	}
	return out
}
