package vision

import (
	"image"
	"slices"
	"testing"
)

func TestChangedRegions(t *testing.T) {
	// a 32×16 mask of an 8× smaller image of a 256×128 frame, tiles of 4
	mask := func(pts ...[2]int) []byte {
		m := make([]byte, 32*16)
		for _, p := range pts {
			m[p[1]*32+p[0]] = 255
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		mask   []byte
		margin int
		want   []image.Rectangle
	}{
		{"nothing changed", mask(), 10, nil},
		{"one block, no margin", mask([2]int{5, 5}), 0, []image.Rectangle{image.Rect(32, 32, 64, 64)}},
		{"one block grown by a tile", mask([2]int{5, 5}), 20, []image.Rectangle{image.Rect(0, 0, 96, 96)}},
		{"clipped at the frame", mask([2]int{31, 15}), 20, []image.Rectangle{image.Rect(192, 64, 256, 128)}},
		{"two apart", mask([2]int{0, 0}, [2]int{31, 15}), 0, []image.Rectangle{image.Rect(0, 0, 32, 32), image.Rect(224, 96, 256, 128)}},
		{"two joined by their margins", mask([2]int{0, 0}, [2]int{9, 0}), 32, []image.Rectangle{image.Rect(0, 0, 128, 64)}},
		{"diagonal groups whose boxes overlap are merged", mask([2]int{4, 0}, [2]int{0, 4}, [2]int{4, 4}), 0,
			[]image.Rectangle{image.Rect(0, 0, 64, 64)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := changedRegions(tc.mask, 32, 16, 32, 8, 4, tc.margin, 256, 128)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			for i, a := range got {
				for _, b := range got[i+1:] {
					if a.Overlaps(b) {
						t.Errorf("%v and %v overlap", a, b)
					}
				}
			}
		})
	}
}

func TestChangedRegionsCoverEveryChangedBlock(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		m := make([]byte, 40*30)
		x := seed
		for i := 0; i < int(seed%7)+1; i++ {
			x = x*6364136223846793005 + 1442695040888963407
			m[int(x>>33)%len(m)] = 1
		}
		rs := changedRegions(m, 40, 30, 40, 8, 4, 24, 320, 240)
		for i, v := range m {
			if v == 0 {
				continue
			}
			bx, by := (i%40)*8, (i/40)*8
			block := image.Rect(bx-24, by-24, bx+8+24, by+8+24).Intersect(image.Rect(0, 0, 320, 240))
			covered := false
			for _, r := range rs {
				if block.In(r) {
					covered = true
				}
			}
			if !covered {
				t.Fatalf("seed %d: block at %d,%d with its margin is in no region of %v", seed, bx, by, rs)
			}
		}
	}
}
