package vision

import (
	"math"
	"sort"

	"github.com/sztab/sztab/vision/geom"
)

// findSquareIn looks inside a candidate that did not read as a marker (a
// base's white disc, say) for the marker itself: the largest dark blob
// that does not touch the edge of the region, its convex hull, and the
// smallest rectangle around that. It returns rough corners for
// RefineCorners, or ok false.
func findSquareIn(g *Gray, quad [4]geom.Vec2) (c [4]geom.Vec2, ok bool) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range quad {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	pad := 0.25 * math.Max(maxX-minX, maxY-minY)
	x0, y0 := int(math.Floor(minX-pad)), int(math.Floor(minY-pad))
	x1, y1 := int(math.Ceil(maxX+pad)), int(math.Ceil(maxY+pad))
	if x0 < 0 || y0 < 0 || x1 >= g.W || y1 >= g.H || x1-x0 < 8 || y1-y0 < 8 || (x1-x0)*(y1-y0) > 200*200 {
		return c, false
	}
	w, h := x1-x0+1, y1-y0+1
	vals := make([]int, 0, w*h)
	var hist [256]int
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			v := int(g.Pix[y*g.Stride+x])
			vals = append(vals, v)
			hist[v]++
		}
	}
	quantile := func(q float64) int {
		want, n := int(q*float64(len(vals))), 0
		for v, c := range hist {
			n += c
			if n > want {
				return v
			}
		}
		return 255
	}
	dark, light := quantile(0.05), quantile(0.95)
	if light-dark < 40 {
		return c, false
	}
	thr := (dark + light) / 2
	// label the dark blobs (4-connected)
	label := make([]int32, w*h)
	var best []int
	next := int32(0)
	stack := make([]int, 0, 64)
	for i := range vals {
		if vals[i] >= thr || label[i] != 0 {
			continue
		}
		next++
		label[i] = next
		stack = append(stack[:0], i)
		blob := []int{}
		touches := false
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			blob = append(blob, k)
			x, y := k%w, k/w
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				touches = true
			}
			for _, n := range [4]int{k - 1, k + 1, k - w, k + w} {
				nx, ny := n%w, n/w
				if n < 0 || n >= len(vals) || (nx != x && ny != y) || label[n] != 0 || vals[n] >= thr {
					continue
				}
				label[n] = next
				stack = append(stack, n)
			}
		}
		if !touches && len(blob) > len(best) {
			best = blob
		}
	}
	if len(best) < 16 {
		return c, false
	}
	pts := make([]geom.Vec2, len(best))
	for i, k := range best {
		pts[i] = geom.Vec2{X: float64(x0 + k%w), Y: float64(y0 + k/w)}
	}
	hull := convexHull(pts)
	if len(hull) < 4 {
		return c, false
	}
	rect, area := minAreaRect(hull)
	// the rectangle of pixel centres is half a pixel short on each side
	ctr := rect[0].Add(rect[1]).Add(rect[2]).Add(rect[3]).Scale(0.25)
	for k := range rect {
		d := rect[k].Sub(ctr)
		n := d.Norm()
		if n > 0 {
			rect[k] = rect[k].Add(d.Scale(0.5 * math.Sqrt2 / n))
		}
	}
	a, b := rect[0].Dist(rect[1]), rect[1].Dist(rect[2])
	if a < 6 || b < 6 || a/b > 1.4 || b/a > 1.4 || float64(len(best)) < 0.4*area {
		return c, false
	}
	// clockwise in the image, like ArUco's corners
	if (rect[1].X-rect[0].X)*(rect[2].Y-rect[0].Y)-(rect[1].Y-rect[0].Y)*(rect[2].X-rect[0].X) < 0 {
		rect[1], rect[3] = rect[3], rect[1]
	}
	return rect, true
}

// convexHull is Andrew's monotone chain, counter-clockwise.
func convexHull(pts []geom.Vec2) []geom.Vec2 {
	p := append([]geom.Vec2(nil), pts...)
	sort.Slice(p, func(i, j int) bool { return p[i].X < p[j].X || (p[i].X == p[j].X && p[i].Y < p[j].Y) })
	cross := func(o, a, b geom.Vec2) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var h []geom.Vec2
	for _, q := range p {
		for len(h) >= 2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	lower := len(h) + 1
	for i := len(p) - 2; i >= 0; i-- {
		q := p[i]
		for len(h) >= lower && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	return h[:len(h)-1]
}

// minAreaRect is the smallest rectangle around a convex polygon: one of its
// sides lies along an edge of the polygon.
func minAreaRect(hull []geom.Vec2) ([4]geom.Vec2, float64) {
	best := math.Inf(1)
	var out [4]geom.Vec2
	for i := range hull {
		e := hull[(i+1)%len(hull)].Sub(hull[i])
		n := e.Norm()
		if n == 0 {
			continue
		}
		u := e.Scale(1 / n)
		v := geom.Vec2{X: -u.Y, Y: u.X}
		minU, maxU, minV, maxV := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			a, b := p.X*u.X+p.Y*u.Y, p.X*v.X+p.Y*v.Y
			minU, maxU = math.Min(minU, a), math.Max(maxU, a)
			minV, maxV = math.Min(minV, b), math.Max(maxV, b)
		}
		if area := (maxU - minU) * (maxV - minV); area < best {
			best = area
			at := func(a, b float64) geom.Vec2 { return u.Scale(a).Add(v.Scale(b)) }
			out = [4]geom.Vec2{at(minU, minV), at(maxU, minV), at(maxU, maxV), at(minU, maxV)}
		}
	}
	return out, best
}
