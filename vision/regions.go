package vision

import (
	"image"

	"github.com/sztab/sztab/vision/geom"
)

// changedRegions turns a change mask (w×h bytes, non-zero where a block
// changed; row stride stride) of an image scale times smaller than the
// frame into rectangles of the frame that cover every changed block grown
// by margin frame pixels on every side, clipped to the frame (fw×fh).
// Blocks are grouped in tiles of tile mask pixels; touching or overlapping
// rectangles are merged, so no marker straddles two of them.
func changedRegions(mask []byte, w, h, stride, scale, tile, margin, fw, fh int) []image.Rectangle {
	if w <= 0 || h <= 0 || tile <= 0 || scale <= 0 {
		return nil
	}
	tw, th := (w+tile-1)/tile, (h+tile-1)/tile
	grid := make([]bool, tw*th)
	any := false
	for y := 0; y < h; y++ {
		row := mask[y*stride : y*stride+w]
		for x, v := range row {
			if v != 0 {
				grid[(y/tile)*tw+x/tile] = true
				any = true
			}
		}
	}
	if !any {
		return nil
	}
	// grow the changed tiles by the margin, in tiles
	cell := tile * scale
	grow := (margin + cell - 1) / cell
	grown := make([]bool, tw*th)
	for ty := 0; ty < th; ty++ {
		for tx := 0; tx < tw; tx++ {
			if !grid[ty*tw+tx] {
				continue
			}
			for y := max(ty-grow, 0); y <= min(ty+grow, th-1); y++ {
				for x := max(tx-grow, 0); x <= min(tx+grow, tw-1); x++ {
					grown[y*tw+x] = true
				}
			}
		}
	}
	// bounding boxes of the connected groups of grown tiles
	seen := make([]bool, tw*th)
	var rects []image.Rectangle
	var stack []int
	for i, g := range grown {
		if !g || seen[i] {
			continue
		}
		r := image.Rect(i%tw, i/tw, i%tw+1, i/tw+1)
		seen[i] = true
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := j%tw, j/tw
			r = r.Union(image.Rect(x, y, x+1, y+1))
			for _, n := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if n[0] < 0 || n[1] < 0 || n[0] >= tw || n[1] >= th {
					continue
				}
				k := n[1]*tw + n[0]
				if grown[k] && !seen[k] {
					seen[k] = true
					stack = append(stack, k)
				}
			}
		}
		rects = append(rects, image.Rect(r.Min.X*cell, r.Min.Y*cell, r.Max.X*cell, r.Max.Y*cell).Intersect(image.Rect(0, 0, fw, fh)))
	}
	return mergeOverlapping(rects)
}

// mergeOverlapping replaces rectangles that overlap or touch by their
// union until none do.
func mergeOverlapping(rs []image.Rectangle) []image.Rectangle {
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(rs) && !merged; i++ {
			for j := i + 1; j < len(rs); j++ {
				if rs[i].Inset(-1).Overlaps(rs[j]) {
					rs[i] = rs[i].Union(rs[j])
					rs = append(rs[:j], rs[j+1:]...)
					merged = true
					break
				}
			}
		}
	}
	return rs
}

// regionsArea is the pixels the rectangles cover (they do not overlap).
func regionsArea(rs []image.Rectangle) int {
	a := 0
	for _, r := range rs {
		a += r.Dx() * r.Dy()
	}
	return a
}

// quadCentre is the mean of a marker's corners.
func quadCentre(c [4]geom.Vec2) geom.Vec2 {
	return geom.Vec2{X: (c[0].X + c[1].X + c[2].X + c[3].X) / 4, Y: (c[0].Y + c[1].Y + c[2].Y + c[3].Y) / 4}
}

// quadInRegions reports whether the quadrilateral lies wholly in one of
// the rectangles, at least inset pixels from its edges (nearer, a detector
// run on the rectangle alone may not find it: it needs the marker's quiet
// zone and keeps off the image border).
func quadInRegions(rs []image.Rectangle, q [4]geom.Vec2, inset int) bool {
	for _, r := range rs {
		r = r.Inset(inset)
		in := true
		for _, p := range q {
			if p.X < float64(r.Min.X) || p.X >= float64(r.Max.X) || p.Y < float64(r.Min.Y) || p.Y >= float64(r.Max.Y) {
				in = false
				break
			}
		}
		if in {
			return true
		}
	}
	return false
}
