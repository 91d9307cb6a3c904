package vision

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/geom"
)

// Gray is an 8-bit grey image, row-major with a stride (an OpenCV Mat's
// memory, or a Go slice).
type Gray struct {
	W, H, Stride int
	Pix          []byte
}

// at is the bilinear interpolation at (x, y), pixel centres on integers;
// ok is false outside the image.
func (g *Gray) at(x, y float64) (float64, bool) {
	if x < 0 || y < 0 || x > float64(g.W-1) || y > float64(g.H-1) {
		return 0, false
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, g.W-1), min(y0+1, g.H-1)
	fx, fy := x-float64(x0), y-float64(y0)
	r0, r1 := y0*g.Stride, y1*g.Stride
	a := float64(g.Pix[r0+x0])*(1-fx) + float64(g.Pix[r0+x1])*fx
	b := float64(g.Pix[r1+x0])*(1-fx) + float64(g.Pix[r1+x1])*fx
	return a*(1-fy) + b*fy, true
}

// line is n·p = d with |n| = 1.
type line struct {
	n geom.Vec2
	d float64
}

func (l line) intersect(m line) (geom.Vec2, bool) {
	det := l.n.X*m.n.Y - l.n.Y*m.n.X
	if math.Abs(det) < 1e-9 {
		return geom.Vec2{}, false
	}
	return geom.Vec2{X: (l.d*m.n.Y - l.n.Y*m.d) / det, Y: (l.n.X*m.d - l.d*m.n.X) / det}, true
}

// fitLine is the total least squares line through pts.
func fitLine(pts []geom.Vec2) (line, bool) {
	if len(pts) < 2 {
		return line{}, false
	}
	var c geom.Vec2
	for _, p := range pts {
		c = c.Add(p)
	}
	c = c.Scale(1 / float64(len(pts)))
	var sxx, sxy, syy float64
	for _, p := range pts {
		d := p.Sub(c)
		sxx += d.X * d.X
		sxy += d.X * d.Y
		syy += d.Y * d.Y
	}
	// normal = eigenvector of the smaller eigenvalue
	theta := 0.5 * math.Atan2(2*sxy, sxx-syy) // direction of the line
	n := geom.Vec2{X: -math.Sin(theta), Y: math.Cos(theta)}
	return line{n: n, d: n.X*c.X + n.Y*c.Y}, true
}

// RefineCorners places a marker's corners with subpixel accuracy: along
// each outer edge of the black border it finds where the brightness
// crosses halfway between the border's black and the white outside, fits
// a line through those points and intersects neighbouring lines. cells is
// the marker's cells per side, border included (6 for 4×4 markers). ok is
// false when an edge has too few clean points (the marker is cut by the
// image border or something covers it).
func RefineCorners(g *Gray, c [4]geom.Vec2, cells int) (out [4]geom.Vec2, resid float64, ok bool) {
	out, resid, err := refineCorners(g, c, cells)
	if err != nil {
		return c, 0, false
	}
	return out, resid, true
}

// Reasons refinement fails.
var (
	errTiny      = errors.New("marker too small")
	errEdge      = errors.New("an edge has too few clean points")
	errCornerJmp = errors.New("a corner moved too far")
)

func refineCorners(g *Gray, c [4]geom.Vec2, cells int) (out [4]geom.Vec2, resid float64, err error) {
	out = c
	var lines [4]line
	var sumSq float64
	var count int
	for pass := 0; pass < 2; pass++ {
		centre := diagonalCross(out)
		sumSq, count = 0, 0
		for e := 0; e < 4; e++ {
			a, b := out[e], out[(e+1)%4]
			edge := b.Sub(a)
			length := edge.Norm()
			if length < 4 {
				return c, 0, errTiny
			}
			dir := edge.Scale(1 / length)
			n := geom.Vec2{X: dir.Y, Y: -dir.X}
			mid := a.Add(b).Scale(0.5)
			if n.X*(mid.X-centre.X)+n.Y*(mid.Y-centre.Y) < 0 {
				n = n.Scale(-1)
			}
			cell := length / float64(cells)
			reach := math.Max(0.75*cell, 1.5)
			samples := int(math.Max(6, math.Min(40, length*0.7)))
			pts := make([]geom.Vec2, 0, samples)
			for i := 0; i < samples; i++ {
				t := 0.12 + 0.76*(float64(i)+0.5)/float64(samples)
				p := a.Add(edge.Scale(t))
				if q, ok := edgeCrossing(g, p, n, reach); ok {
					pts = append(pts, q)
				}
			}
			if len(pts) < 4 || len(pts) < samples/2 {
				return c, 0, fmt.Errorf("%w: %d of %d (pass %d, edge %d, length %.1f)", errEdge, len(pts), samples, pass, e, length)
			}
			l, _ := fitLine(pts)
			// drop outliers (> 3 median deviations) and refit
			dev := make([]float64, len(pts))
			for i, p := range pts {
				dev[i] = math.Abs(l.n.X*p.X + l.n.Y*p.Y - l.d)
			}
			med := median(dev)
			lim := math.Max(3*med, 0.15)
			kept := pts[:0]
			for i, p := range pts {
				if dev[i] <= lim {
					kept = append(kept, p)
				}
			}
			if len(kept) < 4 {
				return c, 0, fmt.Errorf("%w: %d kept", errEdge, len(kept))
			}
			l, _ = fitLine(kept)
			for _, p := range kept {
				r := l.n.X*p.X + l.n.Y*p.Y - l.d
				sumSq += r * r
				count++
			}
			lines[e] = l
		}
		var next [4]geom.Vec2
		for k := 0; k < 4; k++ {
			p, ok := lines[(k+3)%4].intersect(lines[k])
			if !ok || p.Dist(c[k]) > math.Max(3, 0.25*c[k].Dist(c[(k+2)%4])) {
				return c, 0, errCornerJmp
			}
			next[k] = p
		}
		out = next
	}
	return out, math.Sqrt(sumSq / float64(max(count, 1))), nil
}

// edgeCrossing finds, on the normal through p (pointing out of the
// marker), where the brightness crosses halfway from the dark inside to
// the light outside, within ±reach pixels.
func edgeCrossing(g *Gray, p, n geom.Vec2, reach float64) (geom.Vec2, bool) {
	const steps = 16
	var prof [steps + 1]float64
	for i := 0; i <= steps; i++ {
		s := -reach + 2*reach*float64(i)/steps
		v, ok := g.at(p.X+n.X*s, p.Y+n.Y*s)
		if !ok {
			return geom.Vec2{}, false
		}
		prof[i] = v
	}
	lo, hi := prof[0], prof[steps]
	for i := 0; i <= steps/2; i++ {
		lo = math.Min(lo, prof[i])
	}
	for i := steps / 2; i <= steps; i++ {
		hi = math.Max(hi, prof[i])
	}
	if hi-lo < 20 {
		return geom.Vec2{}, false
	}
	mid := (lo + hi) / 2
	// the first upward crossing from inside
	for i := 0; i < steps; i++ {
		if prof[i] < mid && prof[i+1] >= mid {
			f := (mid - prof[i]) / (prof[i+1] - prof[i])
			s := -reach + 2*reach*(float64(i)+f)/steps
			return geom.Vec2{X: p.X + n.X*s, Y: p.Y + n.Y*s}, true
		}
	}
	return geom.Vec2{}, false
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// Decoded is the result of reading a candidate's bits.
type Decoded struct {
	ID int
	// Corners reordered so that the first is the marker's top-left.
	Corners [4]geom.Vec2
	// Margin is the smallest distance of a cell's brightness from the
	// threshold, as a fraction of the black–white contrast (0–0.5).
	Margin float64
}

// DecodeMarker reads the bits of the square with corners c (any starting
// corner, ArUco's winding) and looks them up in dict, exactly. allowed,
// when not nil, limits the ids accepted. It needs a clear black border,
// a light surround and every cell clearly black or white (minMargin).
func DecodeMarker(g *Gray, c [4]geom.Vec2, dict *aruco.Dictionary, allowed func(int) bool, minMargin float64) (Decoded, bool) {
	d, err := decodeMarker(g, c, dict, allowed, minMargin)
	return d, err == nil
}

// Reasons a candidate does not decode.
var (
	errOutside   = errors.New("marker runs off the image")
	errContrast  = errors.New("no contrast between the border and the surround")
	errBorder    = errors.New("border not black")
	errAmbiguous = errors.New("a cell is neither clearly black nor white")
	errNoCode    = errors.New("bits are no marker of the dictionary")
)

func decodeMarker(g *Gray, c [4]geom.Vec2, dict *aruco.Dictionary, allowed func(int) bool, minMargin float64) (Decoded, error) {
	n := dict.Size + 2
	src := [4]geom.Vec2{{X: 0, Y: 0}, {X: float64(n), Y: 0}, {X: float64(n), Y: float64(n)}, {X: 0, Y: float64(n)}}
	h, err := geom.HomographyFrom4(src, c)
	if err != nil {
		return Decoded{}, err
	}
	cell := func(r, col float64) (float64, bool) {
		// mean of 3×3 samples over the central half of the cell
		s, k := 0.0, 0
		for i := -1; i <= 1; i++ {
			for j := -1; j <= 1; j++ {
				p := h.Apply(geom.Vec2{X: col + 0.5 + 0.22*float64(j), Y: r + 0.5 + 0.22*float64(i)})
				v, ok := g.at(p.X, p.Y)
				if !ok {
					return 0, false
				}
				s += v
				k++
			}
		}
		return s / float64(k), true
	}
	vals := make([]float64, n*n)
	for r := 0; r < n; r++ {
		for col := 0; col < n; col++ {
			v, ok := cell(float64(r), float64(col))
			if !ok {
				return Decoded{}, errOutside
			}
			vals[r*n+col] = v
		}
	}
	// black: the border; white: a ring half a cell outside the marker
	var border, ring []float64
	for r := 0; r < n; r++ {
		for col := 0; col < n; col++ {
			if r == 0 || col == 0 || r == n-1 || col == n-1 {
				border = append(border, vals[r*n+col])
			}
		}
	}
	for i := 0; i < n; i++ {
		for _, rc := range [][2]float64{{-0.6, float64(i)}, {float64(n) - 0.4, float64(i)}, {float64(i), -0.6}, {float64(i), float64(n) - 0.4}} {
			p := h.Apply(geom.Vec2{X: rc[1] + 0.5, Y: rc[0] + 0.5})
			if v, ok := g.at(p.X, p.Y); ok {
				ring = append(ring, v)
			}
		}
	}
	if len(ring) < 2*n {
		return Decoded{}, errOutside
	}
	black, white := median(border), median(ring)
	contrast := white - black
	if contrast < 30 {
		return Decoded{}, errContrast
	}
	thr := (black + white) / 2
	margin := 0.5
	for r := 0; r < n; r++ {
		for col := 0; col < n; col++ {
			v := vals[r*n+col]
			edge := r == 0 || col == 0 || r == n-1 || col == n-1
			if edge && v >= thr {
				return Decoded{Margin: (v - thr) / contrast}, errBorder
			}
			margin = math.Min(margin, math.Abs(v-thr)/contrast)
		}
	}
	if margin < minMargin {
		return Decoded{Margin: margin}, errAmbiguous
	}
	var code uint32
	for r := 1; r < n-1; r++ {
		for col := 1; col < n-1; col++ {
			code <<= 1
			if vals[r*n+col] > thr {
				code |= 1
			}
		}
	}
	// The sampled grid starts at c[0]; the marker's top-left is at c[k]
	// when the code read is the marker's turned by k quarter turns.
	sz := dict.Size
	for k := 0; k < 4; k++ {
		want := code
		for id := 0; id < dict.Len(); id++ {
			if dict.Code(id) == want && (allowed == nil || allowed(id)) {
				var oc [4]geom.Vec2
				for i := 0; i < 4; i++ {
					oc[i] = c[(i+k)%4]
				}
				return Decoded{ID: id, Corners: oc, Margin: margin}, nil
			}
		}
		code = rotateCode(code, sz)
	}
	return Decoded{Margin: margin}, errNoCode
}

// rotateCode turns a size×size bit matrix (row-major, first bit most
// significant) by a quarter turn, so that reading it from the next corner
// (c[1] as top-left) gives the result.
func rotateCode(code uint32, size int) uint32 {
	bit := func(r, c int) uint32 { return code >> uint(size*size-1-(r*size+c)) & 1 }
	var out uint32
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			// new (r, c) is old (c, size-1-r)
			out = out<<1 | bit(c, size-1-r)
		}
	}
	return out
}

// quadArea is the area of a quadrilateral (shoelace).
func quadArea(c [4]geom.Vec2) float64 {
	a := 0.0
	for k := 0; k < 4; k++ {
		p, q := c[k], c[(k+1)%4]
		a += p.X*q.Y - q.X*p.Y
	}
	return math.Abs(a) / 2
}

// insideQuad reports whether p is inside the convex quadrilateral c.
func insideQuad(c [4]geom.Vec2, p geom.Vec2) bool {
	sign := 0.0
	for k := 0; k < 4; k++ {
		a, b := c[k], c[(k+1)%4]
		cr := (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X)
		if cr == 0 {
			continue
		}
		if sign == 0 {
			sign = cr
		} else if (cr > 0) != (sign > 0) {
			return false
		}
	}
	return true
}

// recoverMargin is the least clearness of a cell (share of the contrast
// between black and white) for a marker OpenCV rejected to be read.
const recoverMargin = 0.05

// readCandidate tries to read a candidate square OpenCV could not: bit by
// bit, then by the likeliest code (matchMarker); on its refined corners
// (or its own when they do not refine), then inside it, on a smaller dark
// square (the candidate may be the base's white disc around a marker
// OpenCV did not outline) when lookInside says it is big enough to hold
// one.
func readCandidate(g *Gray, quad [4]geom.Vec2, cells int, dict *aruco.Dictionary, allowed func(int) bool, lookInside bool) (d Decoded, refined, ok bool) {
	// read bit by bit; when the square looks like a marker (black border,
	// light surround) but its bits do not read, by the likeliest code
	read := func(c [4]geom.Vec2) (Decoded, bool) {
		d, err := decodeMarker(g, c, dict, allowed, recoverMargin)
		switch {
		case err == nil:
			return d, true
		case errors.Is(err, errNoCode) || errors.Is(err, errAmbiguous):
			d, err := matchMarker(g, c, dict, allowed)
			return d, err == nil
		}
		return Decoded{}, false
	}
	contrast := borderContrast(g, quad, cells)
	if contrast >= 12 {
		rc, _, refined := RefineCorners(g, quad, cells)
		if !refined {
			rc = quad
		}
		if d, ok := read(rc); ok {
			return d, refined, true
		}
	}
	// the candidate is no marker outline; it may hold one (a base's disc)
	if !lookInside || contrast >= 40 {
		return Decoded{}, false, false
	}
	inner, ok := findSquareIn(g, quad)
	if !ok {
		return Decoded{}, false, false
	}
	rc, _, refined := RefineCorners(g, inner, cells)
	if !refined {
		rc = inner
	}
	d, ok = read(rc)
	return d, refined, ok
}

// borderContrast is a quick look at a candidate: how much lighter the
// surround just outside it is than its border cells (grey levels; a
// marker's is large, a blob's of texture small or negative).
func borderContrast(g *Gray, c [4]geom.Vec2, cells int) float64 {
	ctr := diagonalCross(c)
	var in, out []float64
	for k := 0; k < 4; k++ {
		a, b := c[k], c[(k+1)%4]
		for _, t := range [3]float64{0.3, 0.5, 0.7} {
			p := a.Add(b.Sub(a).Scale(t))
			d := p.Sub(ctr).Scale(1 / float64(cells)) // a cell, outwards
			if v, ok := g.at(p.X-d.X*0.5, p.Y-d.Y*0.5); ok {
				in = append(in, v)
			}
			if v, ok := g.at(p.X+d.X*0.5, p.Y+d.Y*0.5); ok {
				out = append(out, v)
			}
		}
	}
	if len(in) < 6 || len(out) < 6 {
		return 0
	}
	return median(out) - median(in)
}

// matchMarker reads a blurred marker by its likeliest code: every code of
// the dictionary, in all four turns, blurred by a few kernels on the cell
// grid (templates), is fitted (black level and contrast) to the cells'
// mean brightness; the code that fits best wins if it fits well (RMS
// under maxResid of the contrast) and clearly better than any other
// marker's (by a factor of minRatio). It is the fallback for markers whose
// cells are too small to threshold one by one.
func matchMarker(g *Gray, c [4]geom.Vec2, dict *aruco.Dictionary, allowed func(int) bool) (Decoded, error) {
	const maxResid, minRatio = 0.1, 2.0
	n := dict.Size + 2
	src := [4]geom.Vec2{{X: 0, Y: 0}, {X: float64(n), Y: 0}, {X: float64(n), Y: float64(n)}, {X: 0, Y: float64(n)}}
	h, err := geom.HomographyFrom4(src, c)
	if err != nil {
		return Decoded{}, err
	}
	vals := make([]float64, n*n)
	var sv, svv float64
	for r := 0; r < n; r++ {
		for col := 0; col < n; col++ {
			s := 0.0
			for i := -1; i <= 1; i++ {
				for j := -1; j <= 1; j++ {
					p := h.Apply(geom.Vec2{X: float64(col) + 0.5 + 0.22*float64(j), Y: float64(r) + 0.5 + 0.22*float64(i)})
					v, ok := g.at(p.X, p.Y)
					if !ok {
						return Decoded{}, errOutside
					}
					s += v
				}
			}
			v := s / 9
			vals[r*n+col] = v
			sv += v
			svv += v * v
		}
	}
	k := float64(len(vals))
	cvv := svv - sv*sv/k // centred sum of squares of the cells
	ts := templatesOf(dict)
	best, second := -1, -1
	resid := func(i int) float64 {
		t := &ts.t[i]
		spv := 0.0
		for j, p := range t.pred {
			spv += p * vals[j]
		}
		cpv := spv - t.sp*sv/k
		b := cpv / t.cpp // the contrast
		if b < 20 {
			return math.Inf(1)
		}
		sse := cvv - cpv*b
		if sse < 0 {
			sse = 0
		}
		return math.Sqrt(sse/k) / b
	}
	rs := make([]float64, len(ts.t))
	for i := range ts.t {
		rs[i] = resid(i)
		switch {
		case best < 0 || rs[i] < rs[best]:
			if best >= 0 && ts.t[best].id != ts.t[i].id {
				second = best
			}
			best = i
		case ts.t[i].id != ts.t[best].id && (second < 0 || rs[i] < rs[second]):
			second = i
		}
	}
	if best < 0 || rs[best] > maxResid || (second >= 0 && rs[second] < minRatio*rs[best]) {
		return Decoded{}, errNoCode
	}
	tb := ts.t[best]
	if allowed != nil && !allowed(tb.id) {
		return Decoded{}, errNoCode
	}
	// the code fitted is the marker's turned tb.turn times: read from
	// c[k] the marker is upright for k = (4 − turn) mod 4
	kk := (4 - tb.turn) % 4
	var oc [4]geom.Vec2
	for i := 0; i < 4; i++ {
		oc[i] = c[(i+kk)%4]
	}
	return Decoded{ID: tb.id, Corners: oc}, nil
}

// template is a marker as the camera's blur would show its cells.
type template struct {
	id, turn int
	pred     []float64
	sp, cpp  float64 // sum, centred sum of squares
}

type templates struct{ t []template }

var (
	templatesMu    sync.Mutex
	templatesCache = map[string]*templates{}
)

// templatesOf builds (once) the templates of every marker of dict, in
// four turns, blurred by five kernels.
func templatesOf(dict *aruco.Dictionary) *templates {
	templatesMu.Lock()
	defer templatesMu.Unlock()
	if ts, ok := templatesCache[dict.Name]; ok {
		return ts
	}
	n := dict.Size + 2
	m := n + 2 // with a ring of white surround
	kernels := [][2]float64{{0, 0}, {0.06, 0.01}, {0.1, 0.025}, {0.14, 0.04}, {0.18, 0.06}}
	ts := &templates{}
	bits := make([]float64, m*m)
	for id := 0; id < dict.Len(); id++ {
		code := dict.Code(id)
		for turn := 0; turn < 4; turn++ {
			for i := range bits {
				r, col := i/m, i%m
				switch {
				case r == 0 || col == 0 || r == m-1 || col == m-1:
					bits[i] = 1
				case r == 1 || col == 1 || r == m-2 || col == m-2:
					bits[i] = 0
				default:
					k := (r-2)*dict.Size + (col - 2)
					bits[i] = float64(code >> uint(dict.Size*dict.Size-1-k) & 1)
				}
			}
			for _, kw := range kernels {
				w1, w2 := kw[0], kw[1]
				w0 := 1 - 4*w1 - 4*w2
				t := template{id: id, turn: turn, pred: make([]float64, n*n)}
				for r := 0; r < n; r++ {
					for col := 0; col < n; col++ {
						i := (r+1)*m + col + 1
						p := w0*bits[i] + w1*(bits[i-1]+bits[i+1]+bits[i-m]+bits[i+m]) + w2*(bits[i-m-1]+bits[i-m+1]+bits[i+m-1]+bits[i+m+1])
						t.pred[r*n+col] = p
						t.sp += p
						t.cpp += p * p
					}
				}
				t.cpp -= t.sp * t.sp / float64(n*n)
				ts.t = append(ts.t, t)
			}
			code = rotateCode(code, dict.Size)
		}
	}
	templatesCache[dict.Name] = ts
	return ts
}

// parallel runs f(0) … f(n−1) on GOMAXPROCS goroutines (OpenCV's
// detection uses every core; the pipeline's own work after it should too).
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
