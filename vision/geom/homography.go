package geom

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Homography maps points of one plane to another: dst ~ H·(src, 1).
type Homography Mat3

// Apply maps p.
func (h Homography) Apply(p Vec2) Vec2 {
	w := h[6]*p.X + h[7]*p.Y + h[8]
	return Vec2{(h[0]*p.X + h[1]*p.Y + h[2]) / w, (h[3]*p.X + h[4]*p.Y + h[5]) / w}
}

// Inv is the inverse mapping.
func (h Homography) Inv() (Homography, error) {
	m, err := Mat3(h).Inv()
	return Homography(m), err
}

// Normalized returns h scaled so that its Frobenius norm is 1 and h[8] ≥ 0.
func (h Homography) Normalized() Homography {
	s := 0.0
	for _, v := range h {
		s += v * v
	}
	s = 1 / math.Sqrt(s)
	if h[8] < 0 {
		s = -s
	}
	return Homography(Mat3(h).Scale(s))
}

// ErrDegenerate is returned when the points cannot determine a homography
// (fewer than four, or three of four on a line).
var ErrDegenerate = errors.New("geom: points are degenerate (fewer than 4, or collinear)")

// similarity that takes points to centroid 0 and mean distance √2.
func normalizer(pts []Vec2) Mat3 {
	var c Vec2
	for _, p := range pts {
		c = c.Add(p)
	}
	c = c.Scale(1 / float64(len(pts)))
	d := 0.0
	for _, p := range pts {
		d += p.Dist(c)
	}
	d /= float64(len(pts))
	if d == 0 {
		d = 1
	}
	s := math.Sqrt2 / d
	return Mat3{s, 0, -s * c.X, 0, s, -s * c.Y, 0, 0, 1}
}

func apply3(m Mat3, p Vec2) Vec2 { return Homography(m).Apply(p) }

// FitHomography is the normalised direct linear transform: the homography
// minimising the algebraic error over all the pairs src[i] → dst[i]. Use
// RefineHomography for the geometric (reprojection) optimum.
func FitHomography(src, dst []Vec2) (Homography, error) {
	if len(src) != len(dst) {
		return Homography{}, fmt.Errorf("geom: %d source points but %d destination points", len(src), len(dst))
	}
	if len(src) < 4 {
		return Homography{}, ErrDegenerate
	}
	ts, td := normalizer(src), normalizer(dst)
	var ata [81]float64
	for i := range src {
		s, d := apply3(ts, src[i]), apply3(td, dst[i])
		x, y, u, v := s.X, s.Y, d.X, d.Y
		rows := [2][9]float64{
			{-x, -y, -1, 0, 0, 0, u * x, u * y, u},
			{0, 0, 0, -x, -y, -1, v * x, v * y, v},
		}
		for _, r := range rows {
			for a := 0; a < 9; a++ {
				if r[a] == 0 {
					continue
				}
				for b := 0; b < 9; b++ {
					ata[a*9+b] += r[a] * r[b]
				}
			}
		}
	}
	vals, vecs := SymEigen(9, ata[:])
	if vals[1] <= 1e-12*vals[8] {
		return Homography{}, ErrDegenerate
	}
	var hn Mat3
	for i := 0; i < 9; i++ {
		hn[i] = vecs[i*9]
	}
	tdi, err := td.Inv()
	if err != nil {
		return Homography{}, err
	}
	h := tdi.Mul(hn).Mul(ts)
	if math.Abs(h.Det()) < 1e-300 {
		return Homography{}, ErrDegenerate
	}
	return Homography(h).Normalized(), nil
}

// Residuals are the reprojection errors |H·src[i] − dst[i]|.
func (h Homography) Residuals(src, dst []Vec2) []float64 {
	r := make([]float64, len(src))
	for i := range src {
		r[i] = h.Apply(src[i]).Dist(dst[i])
	}
	return r
}

// RefineHomography minimises the sum of squared reprojection errors in the
// destination plane by Levenberg–Marquardt, starting from h.
func RefineHomography(h Homography, src, dst []Vec2) (Homography, error) {
	if len(src) < 4 || len(src) != len(dst) {
		return h, ErrDegenerate
	}
	// Work in normalised coordinates for conditioning; the destination
	// normaliser is a similarity, so its residuals are the pixel residuals
	// times one constant and the optimum is the same.
	ts, td := normalizer(src), normalizer(dst)
	tsi, err := ts.Inv()
	if err != nil {
		return h, err
	}
	tdi, err := td.Inv()
	if err != nil {
		return h, err
	}
	ns := make([]Vec2, len(src))
	nd := make([]Vec2, len(dst))
	for i := range src {
		ns[i], nd[i] = apply3(ts, src[i]), apply3(td, dst[i])
	}
	p := Mat3(Homography(td.Mul(Mat3(h)).Mul(tsi)).Normalized())
	// fix the largest entry, optimise the other eight
	fixed := 0
	for i := range p {
		if math.Abs(p[i]) > math.Abs(p[fixed]) {
			fixed = i
		}
	}
	free := make([]int, 0, 8)
	for i := 0; i < 9; i++ {
		if i != fixed {
			free = append(free, i)
		}
	}
	cost := func(m Mat3) float64 {
		c := 0.0
		for i := range ns {
			q := apply3(m, ns[i])
			dx, dy := q.X-nd[i].X, q.Y-nd[i].Y
			c += dx*dx + dy*dy
		}
		return c
	}
	lambda := 1e-3
	cur := cost(p)
	for iter := 0; iter < 100; iter++ {
		var jtj [64]float64
		var jtr [8]float64
		for i := range ns {
			x, y := ns[i].X, ns[i].Y
			w := p[6]*x + p[7]*y + p[8]
			u := (p[0]*x + p[1]*y + p[2]) / w
			v := (p[3]*x + p[4]*y + p[5]) / w
			ru, rv := nd[i].X-u, nd[i].Y-v
			var ju, jv [9]float64
			ju[0], ju[1], ju[2] = x/w, y/w, 1/w
			jv[3], jv[4], jv[5] = x/w, y/w, 1/w
			ju[6], ju[7], ju[8] = -u*x/w, -u*y/w, -u/w
			jv[6], jv[7], jv[8] = -v*x/w, -v*y/w, -v/w
			for a, fa := range free {
				jtr[a] += ju[fa]*ru + jv[fa]*rv
				for b, fb := range free {
					jtj[a*8+b] += ju[fa]*ju[fb] + jv[fa]*jv[fb]
				}
			}
		}
		improved := false
		for try := 0; try < 10; try++ {
			a := jtj
			for k := 0; k < 8; k++ {
				a[k*8+k] *= 1 + lambda
			}
			delta, err := Solve(8, a[:], jtr[:])
			if err != nil {
				lambda *= 10
				continue
			}
			next := p
			for k, f := range free {
				next[f] += delta[k]
			}
			c := cost(next)
			if c < cur {
				step := 0.0
				for _, d := range delta {
					step = math.Max(step, math.Abs(d))
				}
				p, cur = next, c
				lambda = math.Max(lambda/10, 1e-12)
				improved = true
				if step < 1e-14 {
					iter = 100
				}
				break
			}
			lambda *= 10
		}
		if !improved {
			break
		}
	}
	out := Homography(tdi.Mul(p).Mul(ts)).Normalized()
	return out, nil
}

// RansacOptions tune FitHomographyRANSAC.
type RansacOptions struct {
	// Threshold is the largest reprojection error of an inlier, in the
	// destination plane's units (pixels). Default 3.
	Threshold float64
	// Iterations is the most random samples drawn. Default 2000.
	Iterations int
	// Seed makes the sampling reproducible.
	Seed uint64
	// Groups, when set, gives each point's group (the marker it is a corner
	// of); samples then take their four points from four different groups,
	// which are far apart.
	Groups []int
}

// FitHomographyRANSAC fits a homography robust to outliers: random minimal
// samples, the consensus set of the best one, then a refit on that set and
// Levenberg–Marquardt refinement. inliers[i] says whether pair i was used.
func FitHomographyRANSAC(src, dst []Vec2, opt RansacOptions) (h Homography, inliers []bool, err error) {
	n := len(src)
	if n != len(dst) {
		return h, nil, fmt.Errorf("geom: %d source points but %d destination points", n, len(dst))
	}
	if n < 4 {
		return h, nil, ErrDegenerate
	}
	if opt.Threshold <= 0 {
		opt.Threshold = 3
	}
	if opt.Iterations <= 0 {
		opt.Iterations = 2000
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5a7ab))
	groupOf := func(i int) int {
		if opt.Groups != nil {
			return opt.Groups[i]
		}
		return i
	}
	distinctGroups := map[int]bool{}
	for i := 0; i < n; i++ {
		distinctGroups[groupOf(i)] = true
	}
	useGroups := opt.Groups != nil && len(distinctGroups) >= 4
	bestCount, bestErr := -1, math.Inf(1)
	var best Homography
	idx := make([]int, 4)
	for it := 0; it < opt.Iterations; it++ {
		if !drawSample(rng, n, idx, groupOf, useGroups) {
			continue
		}
		s := []Vec2{src[idx[0]], src[idx[1]], src[idx[2]], src[idx[3]]}
		d := []Vec2{dst[idx[0]], dst[idx[1]], dst[idx[2]], dst[idx[3]]}
		if collinear3(s) || collinear3(d) {
			continue
		}
		cand, err := FitHomography(s, d)
		if err != nil {
			continue
		}
		count, sum := 0, 0.0
		for i := 0; i < n; i++ {
			e := cand.Apply(src[i]).Dist(dst[i])
			if e <= opt.Threshold {
				count++
				sum += e
			}
		}
		if count > bestCount || (count == bestCount && sum < bestErr) {
			best, bestCount, bestErr = cand, count, sum
			if count == n && sum/float64(n) < opt.Threshold/20 {
				break
			}
		}
	}
	if bestCount < 4 {
		return h, nil, ErrDegenerate
	}
	inliers = make([]bool, n)
	h = best
	for round := 0; round < 3; round++ {
		var s, d []Vec2
		for i := 0; i < n; i++ {
			inliers[i] = h.Apply(src[i]).Dist(dst[i]) <= opt.Threshold
			if inliers[i] {
				s, d = append(s, src[i]), append(d, dst[i])
			}
		}
		if len(s) < 4 {
			return h, nil, ErrDegenerate
		}
		fit, err := FitHomography(s, d)
		if err != nil {
			return h, nil, err
		}
		if fit, err = RefineHomography(fit, s, d); err != nil {
			return h, nil, err
		}
		h = fit
	}
	for i := 0; i < n; i++ {
		inliers[i] = h.Apply(src[i]).Dist(dst[i]) <= opt.Threshold
	}
	return h, inliers, nil
}

func drawSample(rng *rand.Rand, n int, idx []int, groupOf func(int) int, useGroups bool) bool {
	for k := 0; k < 4; k++ {
		ok := false
		for try := 0; try < 50 && !ok; try++ {
			c := rng.IntN(n)
			ok = true
			for j := 0; j < k; j++ {
				if idx[j] == c || (useGroups && groupOf(idx[j]) == groupOf(c)) {
					ok = false
					break
				}
			}
			if ok {
				idx[k] = c
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// collinear3 reports whether any three of the four points are (nearly) on
// one line.
func collinear3(p []Vec2) bool {
	scale := 0.0
	for i := range p {
		for j := i + 1; j < len(p); j++ {
			scale = math.Max(scale, p[i].Dist(p[j]))
		}
	}
	if scale == 0 {
		return true
	}
	for a := 0; a < 4; a++ {
		for b := a + 1; b < 4; b++ {
			for c := b + 1; c < 4; c++ {
				area := (p[b].X-p[a].X)*(p[c].Y-p[a].Y) - (p[b].Y-p[a].Y)*(p[c].X-p[a].X)
				if math.Abs(area) < 1e-6*scale*scale {
					return true
				}
			}
		}
	}
	return false
}

// RMS is the root mean square of xs.
func RMS(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x * x
	}
	return math.Sqrt(s / float64(len(xs)))
}

// Percentile returns the p-quantile (0..1) of xs by linear interpolation;
// xs is not modified.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := p * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	if hi >= len(s) {
		return s[len(s)-1]
	}
	f := pos - float64(lo)
	return s[lo]*(1-f) + s[hi]*f
}

// HomographyFrom4 is the homography taking four points exactly onto four
// others (no three collinear), solved directly: cheaper than
// FitHomography for a minimal set.
func HomographyFrom4(src, dst [4]Vec2) (Homography, error) {
	var a [64]float64
	var b [8]float64
	for i := 0; i < 4; i++ {
		x, y, u, v := src[i].X, src[i].Y, dst[i].X, dst[i].Y
		r := 2 * i
		copy(a[8*r:8*r+8], []float64{x, y, 1, 0, 0, 0, -u * x, -u * y})
		copy(a[8*(r+1):8*(r+1)+8], []float64{0, 0, 0, x, y, 1, -v * x, -v * y})
		b[r], b[r+1] = u, v
	}
	h, err := Solve(8, a[:], b[:])
	if err != nil {
		return Homography{}, ErrDegenerate
	}
	return Homography{h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1}, nil
}
