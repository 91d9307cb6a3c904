package dicetray

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sztab/sztab/vision/geom"
)

// What stands out from the tray's fitted light: a pixel darker than
// darkRatio or brighter than brightRatio times the tray there, or whose
// hue departs by more than hueRatio of its brightness. A shadow on the
// tray (a hand, the tray's wall, a die's own) keeps above darkRatio.
const (
	darkRatio   = 0.42
	brightRatio = 1.35
	hueRatio    = 0.40
)

// coreRatio: a die's core is the part at least this fraction of its side
// from its outline; touching dice's cores are apart.
const coreRatio = 0.35

type comp struct {
	area           int
	first          int // its first pixel in a raster scan
	x0, y0, x1, y1 int // half-size bounding box, inclusive
	// local buffers over the box padded by one: the blob with its holes
	// filled, and its chamfer distance to the outside (3 a step)
	lw, lh int
	fill   []bool
	dt     []int32
	dmax   int32
}

type candidate struct {
	centre geom.Vec2 // full size
	comp   int
}

type segmenter struct {
	w, h   int // full size
	hw, hh int // half size
	f      Frame
	coef   [3][6]float64
	fg     []bool
	labels []int32 // component+1 of each half-size pixel, 0: tray
	comps  []comp
	stack  []int32
	bands  []band
	// components' buffers
	fillBuf []bool
	dtBuf   []int32
	cut     []float64
	// fitBackground's buffers; the samples' places and ata0 are those
	// of a frame of fitW×fitH
	samples    []bgSample
	fitW, fitH int
	ata0       [6][6]float64
	use        []bool
	res        []float64
	// cands of each component, filled by candidates
	byComp [][]int
	// candidates' buffers
	seen   []bool
	xs, ys []float64
}

// load takes the frame; the half-size image (each pixel the mean of a
// 2×2 block) is worked out where it is needed, never stored.
func (s *segmenter) load(f Frame) {
	s.f = f
	s.w, s.h = f.Width, f.Height
	s.hw, s.hh = f.Width/2, f.Height/2
}

// halfAt is half-size pixel (i, j), BGR, times 4.
func (s *segmenter) halfAt(i, j int) (b, g, r int) {
	r0 := s.f.BGR[3*(2*j)*s.w+6*i:]
	r1 := s.f.BGR[3*(2*j+1)*s.w+6*i:]
	return int(r0[0]) + int(r0[3]) + int(r1[0]) + int(r1[3]),
		int(r0[1]) + int(r0[4]) + int(r1[1]) + int(r1[4]),
		int(r0[2]) + int(r0[5]) + int(r1[2]) + int(r1[5])
}

func (s *segmenter) norm(x, y float64) (float64, float64) {
	return 2*x/float64(s.w) - 1, 2*y/float64(s.h) - 1
}

// bgAt is the tray's fitted colour (BGR) at full-size pixel (x, y).
func (s *segmenter) bgAt(x, y float64) [3]float64 {
	xn, yn := s.norm(x, y)
	var b [3]float64
	for c := 0; c < 3; c++ {
		k := &s.coef[c]
		b[c] = k[0] + k[1]*xn + k[2]*yn + k[3]*xn*xn + k[4]*xn*yn + k[5]*yn*yn
	}
	return b
}

// fitBackground fits the tray's light: a quadratic surface per channel
// through a grid of samples, refitted twice to the 60% that fit it
// best (dice, coins and shadows are the rest).
func (s *segmenter) fitBackground() {
	const step = 8
	// the samples' places and the first fit's normal matrix (all the
	// samples) depend on the frame's size only: kept between frames
	if s.fitW != s.w || s.fitH != s.h {
		s.fitW, s.fitH = s.w, s.h
		s.samples = s.samples[:0]
		for j := step / 2; j < s.hh; j += step {
			for i := step / 2; i < s.hw; i += step {
				xn, yn := s.norm(2*float64(i)+0.5, 2*float64(j)+0.5)
				s.samples = append(s.samples, bgSample{b: [6]float64{1, xn, yn, xn * xn, xn * yn, yn * yn}})
			}
		}
		s.ata0 = normal(s.samples, nil)
	}
	k := 0
	for j := step / 2; j < s.hh; j += step {
		for i := step / 2; i < s.hw; i += step {
			b, g, r := s.halfAt(i, j)
			s.samples[k].p = [3]float64{float64(b) / 4, float64(g) / 4, float64(r) / 4}
			k++
		}
	}
	samples := s.samples
	use := slices.Grow(s.use[:0], len(samples))[:len(samples)]
	for i := range use {
		use[i] = true
	}
	res := slices.Grow(s.res[:0], len(samples))[:len(samples)]
	s.use, s.res = use, res
	for iter := 0; iter < 3; iter++ {
		ata := s.ata0
		if iter > 0 {
			ata = normal(samples, use)
		}
		var atb [3][6]float64
		for i := range samples {
			if !use[i] {
				continue
			}
			sm := &samples[i]
			for r := 0; r < 6; r++ {
				for ch := 0; ch < 3; ch++ {
					atb[ch][r] += sm.b[r] * sm.p[ch]
				}
			}
		}
		for ch := 0; ch < 3; ch++ {
			s.coef[ch] = solve6(ata, atb[ch])
		}
		for i := range samples {
			sm := &samples[i]
			d := 0.0
			for ch := 0; ch < 3; ch++ {
				v := 0.0
				for r := 0; r < 6; r++ {
					v += s.coef[ch][r] * sm.b[r]
				}
				d += math.Abs(sm.p[ch] - v)
			}
			res[i] = d
		}
		s.cut = append(s.cut[:0], res...)
		lim := nth(s.cut, len(s.cut)*6/10)
		for i := range use {
			use[i] = res[i] <= lim
		}
	}
}

// normal is the least-squares fit's normal matrix, the sum of b·bᵀ over
// the samples in use (all when use is nil).
func normal(samples []bgSample, use []bool) [6][6]float64 {
	var ata [6][6]float64
	for i := range samples {
		if use != nil && !use[i] {
			continue
		}
		sm := &samples[i]
		for r := 0; r < 6; r++ {
			for c := r; c < 6; c++ {
				ata[r][c] += sm.b[r] * sm.b[c]
			}
		}
	}
	for r := 0; r < 6; r++ {
		for c := 0; c < r; c++ {
			ata[r][c] = ata[c][r]
		}
	}
	return ata
}

// bgSample is one sample of the tray's light: the quadratic's terms at
// its place and its colour.
type bgSample struct {
	b [6]float64
	p [3]float64
}

// nth is the k-th smallest of a (which it reorders): the value a sorted
// copy holds at k.
func nth(a []float64, k int) float64 {
	lo, hi := 0, len(a)-1
	for lo < hi {
		// median of three as the pivot
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		p := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}

// solve6 solves a·x = b by Gaussian elimination with partial pivoting
// (a singular system gives zeros: a flat grey tray).
func solve6(a [6][6]float64, b [6]float64) [6]float64 {
	for c := 0; c < 6; c++ {
		p := c
		for r := c + 1; r < 6; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return [6]float64{}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < 6; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < 6; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [6]float64
	for r := 5; r >= 0; r-- {
		v := b[r]
		for k := r + 1; k < 6; k++ {
			v -= a[r][k] * x[k]
		}
		x[r] = v / a[r][r]
	}
	return x
}

// standsOut: does colour p (BGR) stand out from the tray's colour b?
// maskRow does the same, written out; TestMaskRow holds them together.
func standsOut(p0, p1, p2, b0, b1, b2 float64) bool {
	P, B := p0+p1+p2, b0+b1+b2
	if B < 1 {
		return P > 30
	}
	if P < darkRatio*B || P > brightRatio*B {
		return true
	}
	// hue: p − (P/B)·b, times B
	lim := hueRatio * B * (P/3 + 4)
	return math.Abs(p0*B-P*b0) > lim || math.Abs(p1*B-P*b1) > lim || math.Abs(p2*B-P*b2) > lim
}

// mask marks the half-size pixels that stand out.
func (s *segmenter) mask() {
	n := s.hw * s.hh
	s.fg = slices.Grow(s.fg[:0], n)[:n]
	rows(s.hh, func(j0, j1 int) {
		for j := j0; j < j1; j++ {
			s.maskRow(j)
		}
	})
}

// rows runs f over bands of n rows, one goroutine per CPU.
func rows(n int, f func(j0, j1 int)) {
	w := min(runtime.GOMAXPROCS(0), 4)
	if w < 2 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(n*k/w, n*(k+1)/w)
		}()
	}
	wg.Wait()
}

func (s *segmenter) maskRow(j int) {
	{
		_, yn := s.norm(0, 2*float64(j)+0.5)
		var a, bb, cc [3]float64 // b(xn) = a + bb·xn + cc·xn²
		for ch := 0; ch < 3; ch++ {
			k := &s.coef[ch]
			a[ch] = k[0] + k[2]*yn + k[5]*yn*yn
			bb[ch] = k[1] + k[4]*yn
			cc[ch] = k[3]
		}
		w3 := 3 * s.w
		r0 := s.f.BGR[3*(2*j)*s.w : 3*(2*j)*s.w+w3]
		r1 := s.f.BGR[3*(2*j+1)*s.w : 3*(2*j+1)*s.w+w3]
		fg := s.fg[j*s.hw : (j+1)*s.hw]
		dx := 4 / float64(s.w)
		xn, _ := s.norm(0.5, 0)
		third := &thirdPlus4
		for i := range fg {
			b0 := a[0] + xn*(bb[0]+cc[0]*xn)
			b1 := a[1] + xn*(bb[1]+cc[1]*xn)
			b2 := a[2] + xn*(bb[2]+cc[2]*xn)
			xn += dx
			k := 6 * i
			q0, q1 := r0[k:k+6:k+6], r1[k:k+6:k+6]
			pb := int(q0[0]) + int(q0[3]) + int(q1[0]) + int(q1[3])
			pg := int(q0[1]) + int(q0[4]) + int(q1[1]) + int(q1[4])
			pr := int(q0[2]) + int(q0[5]) + int(q1[2]) + int(q1[5])
			// standsOut, written out (it is the loop's work); a quarter
			// is exact in floating point, as the division by 4 is, and so
			// is the sum P of three quarters (P/3 + 4 comes from a table)
			sum := pb + pg + pr
			p0, p1, p2 := float64(pb)*0.25, float64(pg)*0.25, float64(pr)*0.25
			P, B := float64(sum)*0.25, b0+b1+b2
			var out bool
			switch {
			case B < 1:
				out = P > 30
			case P < darkRatio*B || P > brightRatio*B:
				out = true
			default:
				lim := hueRatio * B * third[sum&4095]
				// |d| > lim, without math.Abs's trip through the integer
				// registers
				d0, d1, d2 := p0*B-P*b0, p1*B-P*b1, p2*B-P*b2
				out = d0 > lim || d0 < -lim || d1 > lim || d1 < -lim || d2 > lim || d2 < -lim
			}
			fg[i] = out
		}
	}
}

// thirdPlus4[S] is P/3 + 4 for the sum P = S/4 of a half-size pixel's
// three channels (S ≤ 3060), as standsOut works it out.
var thirdPlus4 = func() (t [4096]float64) {
	for s := range t {
		t[s] = float64(s)*0.25/3 + 4
	}
	return t
}()

// components labels the 8-connected blobs of the mask, fills their holes
// and measures each pixel's distance to the blob's outline. The labelling
// runs in bands of rows (more than CPUs), joined where the bands meet; the
// blobs are numbered in the order a single raster scan meets them.
func (s *segmenter) components() {
	n := s.hw * s.hh
	s.fg = slices.Grow(s.fg[:0], n)[:n]
	s.labels = slices.Grow(s.labels[:0], n)[:n]
	// more bands than CPUs, taken in turn: a CPU that another process
	// holds up does not hold up the frame (the bands are joined as one
	// raster scan would number the blobs, whatever their number)
	workers := min(runtime.GOMAXPROCS(0), 4)
	nb := min(4*workers, s.hh/32)
	if workers == 1 || s.hh < 64 {
		nb, workers = 1, 1
	}
	for len(s.bands) < nb {
		s.bands = append(s.bands, band{})
	}
	bands := s.bands[:nb]
	// each band: its rows of the mask, then its blobs
	forEach(nb, workers, func(b int) {
		bd := &bands[b]
		bd.j0, bd.j1 = s.hh*b/nb, s.hh*(b+1)/nb
		for j := bd.j0; j < bd.j1; j++ {
			s.maskRow(j)
		}
		clear(s.labels[bd.j0*s.hw : bd.j1*s.hw])
		s.labelBand(bd)
	})
	// the blobs of all bands, numbered band after band; those that touch
	// across a band's edge joined
	off := make([]int, nb+1)
	for b := range bands {
		off[b+1] = off[b] + len(bands[b].comps)
	}
	parent := make([]int32, off[nb])
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for b := 1; b < nb; b++ {
		j := bands[b].j0 // its first row; the row above is band b-1's last
		for i := 0; i < s.hw; i++ {
			q := j*s.hw + i
			if !s.fg[q] {
				continue
			}
			for dx := -1; dx <= 1; dx++ {
				if i+dx < 0 || i+dx >= s.hw || !s.fg[q-s.hw+dx] {
					continue
				}
				x := find(int32(off[b] + int(s.labels[q]) - 1))
				y := find(int32(off[b-1] + int(s.labels[q-s.hw+dx]) - 1))
				if x != y {
					parent[max(x, y)] = min(x, y)
				}
			}
		}
	}
	// each joined blob is its parts together; numbered by its first pixel
	roots := make([]int32, 0, len(parent))
	merged := make([]comp, len(parent))
	for b := range bands {
		for k, c := range bands[b].comps {
			g := int32(off[b] + k)
			r := find(g)
			if r == g {
				roots = append(roots, r)
				merged[r] = c
				continue
			}
			m := &merged[r]
			m.area += c.area
			m.x0, m.y0, m.x1, m.y1 = min(m.x0, c.x0), min(m.y0, c.y0), max(m.x1, c.x1), max(m.y1, c.y1)
			m.first = min(m.first, c.first)
		}
	}
	// a root is its blob's first part, so it holds the blob's first pixel
	// only when that part comes first: sort by the first pixel
	slices.SortFunc(roots, func(a, b int32) int { return merged[a].first - merged[b].first })
	final := make([]int32, len(parent))
	s.comps = s.comps[:0]
	for k, r := range roots {
		final[r] = int32(k + 1)
		s.comps = append(s.comps, merged[r])
	}
	for g := range final {
		final[g] = final[find(int32(g))]
	}
	// the blobs' local buffers, carved from two kept between frames
	total := 0
	for i := range s.comps {
		if c := &s.comps[i]; c.area >= 12 {
			c.lw, c.lh = c.x1-c.x0+3, c.y1-c.y0+3
			total += c.lw * c.lh
		}
	}
	s.fillBuf = slices.Grow(s.fillBuf[:0], total)[:total]
	s.dtBuf = slices.Grow(s.dtBuf[:0], total)[:total]
	clear(s.fillBuf)
	clear(s.dtBuf)
	at := 0
	for i := range s.comps {
		if c := &s.comps[i]; c.area >= 12 {
			n := c.lw * c.lh
			c.fill, c.dt = s.fillBuf[at:at+n:at+n], s.dtBuf[at:at+n:at+n]
			at += n
		}
	}
	// each band's labels renumbered in place, then each blob's holes and
	// distances, the blobs shared out
	forEach(nb, workers, func(b int) {
		bd := &bands[b]
		labels := s.labels[bd.j0*s.hw : bd.j1*s.hw]
		for q, l := range labels {
			if l != 0 {
				labels[q] = final[off[b]+int(l)-1]
			}
		}
	})
	var next atomic.Int32
	parallelN(workers, func(b int) {
		st, out := bands[b].stack, bands[b].out
		for {
			i := int(next.Add(1)) - 1
			if i >= len(s.comps) {
				break
			}
			if c := &s.comps[i]; c.fill != nil {
				st, out = s.local(c, int32(i+1), st, out)
			}
		}
		bands[b].stack, bands[b].out = st, out
	})
}

// band is a band of rows [j0, j1) of the half-size mask, labelled on its
// own: its blobs numbered from 1 in s.labels.
type band struct {
	j0, j1 int
	comps  []comp
	stack  []int32
	out    []bool
}

// labelBand labels the blobs of one band.
func (s *segmenter) labelBand(bd *band) {
	bd.comps = bd.comps[:0]
	st := bd.stack[:0]
	for start := bd.j0 * s.hw; start < bd.j1*s.hw; start++ {
		if !s.fg[start] || s.labels[start] != 0 {
			continue
		}
		id := int32(len(bd.comps) + 1)
		c := comp{x0: s.hw, y0: s.hh, x1: -1, y1: -1, first: start}
		// the stack holds (x, y) pairs: no division a pixel
		st = append(st[:0], int32(start%s.hw), int32(start/s.hw))
		s.labels[start] = id
		for len(st) > 0 {
			x, y := int(st[len(st)-2]), int(st[len(st)-1])
			st = st[:len(st)-2]
			c.area++
			c.x0, c.y0, c.x1, c.y1 = min(c.x0, x), min(c.y0, y), max(c.x1, x), max(c.y1, y)
			// the 8 neighbours within the band (the pixel itself is
			// labelled already)
			xa, xb := max(x-1, 0), min(x+1, s.hw-1)
			for yy := max(y-1, bd.j0); yy <= min(y+1, bd.j1-1); yy++ {
				row := yy * s.hw
				fg, lab := s.fg[row+xa:row+xb+1], s.labels[row+xa:row+xb+1]
				for k := range fg {
					if fg[k] && lab[k] == 0 {
						lab[k] = id
						st = append(st, int32(xa+k), int32(yy))
					}
				}
			}
		}
		bd.comps = append(bd.comps, c)
	}
	bd.stack = st
}

// forEach runs f(0) … f(n-1) on w goroutines, each taking the next
// index in turn, and waits for them.
func forEach(n, w int, f func(int)) {
	var next atomic.Int32
	parallelN(w, func(int) {
		for {
			i := int(next.Add(1)) - 1
			if i >= n {
				return
			}
			f(i)
		}
	})
}

// parallelN runs f(0) … f(n-1) at once and waits for them.
func parallelN(n int, f func(int)) {
	if n == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(k)
		}()
	}
	wg.Wait()
}

// local fills the blob's holes and computes its chamfer distance map.
// c.fill and c.dt come zeroed, of c.lw×c.lh; out is a buffer.
func (s *segmenter) local(c *comp, id int32, st []int32, out []bool) ([]int32, []bool) {
	n := c.lw * c.lh
	for y := c.y0; y <= c.y1; y++ {
		row := s.labels[y*s.hw : (y+1)*s.hw]
		for x := c.x0; x <= c.x1; x++ {
			if row[x] == id {
				c.fill[(y-c.y0+1)*c.lw+x-c.x0+1] = true
			}
		}
	}
	// holes: what the outside cannot reach (the stack holds (x, y)
	// pairs: no division a pixel)
	out = slices.Grow(out[:0], n)[:n]
	clear(out)
	st = st[:0]
	push := func(x, y int) {
		if q := y*c.lw + x; !c.fill[q] && !out[q] {
			out[q] = true
			st = append(st, int32(x), int32(y))
		}
	}
	for x := 0; x < c.lw; x++ {
		out[x], out[(c.lh-1)*c.lw+x] = true, true
		st = append(st, int32(x), 0, int32(x), int32(c.lh-1))
	}
	for y := 0; y < c.lh; y++ {
		out[y*c.lw], out[y*c.lw+c.lw-1] = true, true
		st = append(st, 0, int32(y), int32(c.lw-1), int32(y))
	}
	for len(st) > 0 {
		x, y := int(st[len(st)-2]), int(st[len(st)-1])
		st = st[:len(st)-2]
		if x+1 < c.lw {
			push(x+1, y)
		}
		if x > 0 {
			push(x-1, y)
		}
		if y+1 < c.lh {
			push(x, y+1)
		}
		if y > 0 {
			push(x, y-1)
		}
	}
	for i := range c.fill {
		if !out[i] {
			c.fill[i] = true
		}
	}
	const big = 1 << 28
	w := c.lw
	for i := range c.dt {
		if c.fill[i] {
			c.dt[i] = big
		}
	}
	for y := 1; y < c.lh-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			if c.dt[i] == 0 {
				continue
			}
			d := c.dt[i]
			d = min(d, c.dt[i-1]+3, c.dt[i-w]+3, c.dt[i-w-1]+4, c.dt[i-w+1]+4)
			c.dt[i] = d
		}
	}
	c.dmax = 0
	for y := c.lh - 2; y >= 1; y-- {
		for x := w - 2; x >= 1; x-- {
			i := y*w + x
			if c.dt[i] == 0 {
				continue
			}
			d := c.dt[i]
			d = min(d, c.dt[i+1]+3, c.dt[i+w]+3, c.dt[i+w+1]+4, c.dt[i+w-1]+4)
			c.dt[i] = d
			c.dmax = max(c.dmax, d)
		}
	}
	return st, out
}

// estimateSide is the median side, in full-size pixels, of the blobs that
// look like one die seen from above: about as large as the square their
// widest inscribed circle fits in.
func (s *segmenter) estimateSide() float64 {
	var sides []float64
	for _, c := range s.comps {
		if c.fill == nil || c.dmax < 3*6 {
			continue
		}
		r := float64(c.dmax) / 3 // half-size pixels
		filled := 0
		for _, f := range c.fill {
			if f {
				filled++
			}
		}
		if q := float64(filled) / (4 * r * r); q > 0.85 && q < 1.5 {
			sides = append(sides, 4*r) // 2r, at full size
		}
	}
	if len(sides) == 0 {
		return 0
	}
	slices.Sort(sides)
	return sides[len(sides)/2]
}

// candidates finds one centre per die: the cores of each blob, a long
// core (dice side by side) divided along its length.
func (s *segmenter) candidates(side float64) []candidate {
	sh := side / 2
	thr := int32(math.Round(coreRatio * sh * 3))
	var out []candidate
	s.byComp = s.byComp[:0]
	for range s.comps {
		s.byComp = append(s.byComp, nil)
	}
	for ci := range s.comps {
		c := &s.comps[ci]
		if c.fill == nil {
			continue
		}
		if c.dmax < thr {
			// no core, yet a die's width and area: a die seen at a slant
			// (its face foreshortened, its sides like the tray); a pencil
			// is narrower
			filled := 0
			var mx, my float64
			for k, f := range c.fill {
				if f {
					filled++
					mx += float64(k % c.lw)
					my += float64(k / c.lw)
				}
			}
			if float64(c.dmax) >= 3*0.27*sh && float64(filled) >= 0.4*sh*sh {
				mx, my = mx/float64(filled), my/float64(filled)
				s.byComp[ci] = append(s.byComp[ci], len(out))
				out = append(out, candidate{centre: geom.Vec2{X: 2*(mx-1+float64(c.x0)) + 0.5, Y: 2*(my-1+float64(c.y0)) + 0.5}, comp: ci})
			}
			continue
		}
		seen := slices.Grow(s.seen[:0], len(c.dt))[:len(c.dt)]
		clear(seen)
		s.seen = seen
		for start := range c.dt {
			if c.dt[start] < thr || seen[start] {
				continue
			}
			// one core blob
			xs, ys := s.xs[:0], s.ys[:0]
			st := append(s.stack[:0], int32(start))
			seen[start] = true
			for len(st) > 0 {
				p := int(st[len(st)-1])
				st = st[:len(st)-1]
				x, y := p%c.lw, p/c.lw
				xs, ys = append(xs, float64(x)), append(ys, float64(y))
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						q := (y+dy)*c.lw + x + dx
						if q >= 0 && q < len(c.dt) && !seen[q] && c.dt[q] >= thr {
							seen[q] = true
							st = append(st, int32(q))
						}
					}
				}
			}
			s.stack, s.xs, s.ys = st, xs, ys
			var mx, my float64
			for i := range xs {
				mx += xs[i]
				my += ys[i]
			}
			mx /= float64(len(xs))
			my /= float64(len(xs))
			var sxx, sxy, syy float64
			for i := range xs {
				dx, dy := xs[i]-mx, ys[i]-my
				sxx += dx * dx
				sxy += dx * dy
				syy += dy * dy
			}
			ang := 0.5 * math.Atan2(2*sxy, sxx-syy)
			ux, uy := math.Cos(ang), math.Sin(ang)
			lo, hi := math.Inf(1), math.Inf(-1)
			for i := range xs {
				p := (xs[i]-mx)*ux + (ys[i]-my)*uy
				lo, hi = math.Min(lo, p), math.Max(hi, p)
			}
			ext := hi - lo + 1
			inset := (1 - 2*coreRatio) * sh / 2
			k := int(math.Round((ext-2*inset)/sh)) + 1
			k = max(1, min(k, 6))
			toFull := func(lx, ly float64) geom.Vec2 {
				return geom.Vec2{X: 2*(lx-1+float64(c.x0)) + 0.5, Y: 2*(ly-1+float64(c.y0)) + 0.5}
			}
			if k == 1 {
				s.byComp[ci] = append(s.byComp[ci], len(out))
				out = append(out, candidate{centre: toFull(mx, my), comp: ci})
				continue
			}
			step := (ext - 1 - 2*inset) / float64(k-1)
			for j := 0; j < k; j++ {
				p := lo + inset + float64(j)*step
				s.byComp[ci] = append(s.byComp[ci], len(out))
				out = append(out, candidate{centre: toFull(mx+p*ux, my+p*uy), comp: ci})
			}
		}
	}
	return s.merge(out, side)
}

// merge joins the candidates of one blob closer than mergeRatio of a
// side: two dice side by side are a side apart, so nearer centres are one
// object (a cocked die's core broken in two).
func (s *segmenter) merge(cs []candidate, side float64) []candidate {
	const mergeRatio = 0.62
	for {
		joined := false
		for a := 0; a < len(cs) && !joined; a++ {
			for b := a + 1; b < len(cs); b++ {
				if cs[a].comp == cs[b].comp && cs[a].centre.Dist(cs[b].centre) < mergeRatio*side {
					cs[a].centre = cs[a].centre.Add(cs[b].centre).Scale(0.5)
					cs = append(cs[:b], cs[b+1:]...)
					joined = true
					break
				}
			}
		}
		if !joined {
			break
		}
	}
	for i := range s.byComp {
		s.byComp[i] = s.byComp[i][:0]
	}
	for i, c := range cs {
		s.byComp[c.comp] = append(s.byComp[c.comp], i)
	}
	return cs
}
