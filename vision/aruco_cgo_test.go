//go:build cgo

package vision

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"testing"

	"github.com/sztab/sztab/vision/aruco"
)

// TestDictionaryMatchesOpenCV: the pure-Go marker table (vision/aruco) is
// OpenCV's. With -update it is written again from OpenCV.
func TestDictionaryMatchesOpenCV(t *testing.T) {
	if *update {
		var b bytes.Buffer
		b.WriteString("// Code generated from OpenCV's predefined ArUco dictionaries (TestDictionaryMatchesOpenCV -update); DO NOT EDIT.\n\npackage aruco\n")
		for _, d := range []struct {
			name string
			cv   int
		}{{"dict4x4", 3}, {"dict5x5", 7}} {
			fmt.Fprintf(&b, "\nvar %s = [...]uint32{", d.name)
			for id := 0; id < 1000; id++ {
				size, bits := openCVMarkerBits(d.cv, id)
				var v uint32
				for i := 0; i < size*size; i++ {
					v = v<<1 | uint32(bits[i])
				}
				if id%8 == 0 {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "0x%07x, ", v)
			}
			b.WriteString("\n}\n")
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("aruco/dict_table.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, d := range aruco.All() {
		for id := 0; id < d.Len(); id++ {
			size, bits := openCVMarkerBits(d.OpenCV, id)
			if size != d.Size {
				t.Fatalf("%s: OpenCV's markers are %d bits a side, ours %d", d.Name, size, d.Size)
			}
			for r := 0; r < size; r++ {
				for c := 0; c < size; c++ {
					if (bits[r*size+c] == 1) != d.White(id, r, c) {
						t.Fatalf("%s marker %d bit (%d, %d): ours differs from OpenCV's", d.Name, id, r, c)
					}
				}
			}
		}
	}
}
