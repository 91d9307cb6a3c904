package geom

import (
	"errors"
	"math"
)

// FitRadialLens estimates a lens from one view of points on a plane: a
// pinhole camera with square pixels, its principal point at (cx, cy), and
// two-term radial distortion (k1, k2), posed over the plane. src are the
// points on the plane (mm), dst where the camera sees them (distorted
// pixels) and h0 a homography src → dst to start from.
//
// With heightMM > 0 (the camera's height above the plane) the focal length
// is fitted with the camera held at that height; otherwise the focal
// length is estimated from h0's perspective and held while the height is
// fitted. It returns the lens and the RMS reprojection error in pixels.
//
// A single view of a plane determines the distortion only where points
// lie: use it with points spread from the image's middle to its edges
// (fiducials in the corners and at the edges' midpoints), and check the
// result by cross-validation.
func FitRadialLens(src, dst []Vec2, h0 Homography, cx, cy, heightMM float64) (Lens, float64, error) {
	n := len(src)
	if n != len(dst) {
		return Lens{}, 0, errors.New("geom: FitRadialLens: src and dst differ in length")
	}
	if n < 8 {
		return Lens{}, 0, ErrDegenerate
	}
	var f float64
	var err error
	if heightMM > 0 {
		f, err = FocalForHeight(h0, cx, cy, 0, heightMM)
		if err != nil {
			return Lens{}, 0, err
		}
	} else {
		var ok bool
		if f, ok = EstimateFocal(h0, cx, cy); !ok {
			return Lens{}, 0, ErrNoFocal
		}
	}
	// the pose from h0: X_c = R·((x, y, 0) − C)
	k := Mat3{f, 0, cx, 0, f, cy, 0, 0, 1}
	ki, err := k.Inv()
	if err != nil {
		return Lens{}, 0, err
	}
	m := ki.Mul(Mat3(h0))
	m1, m2, m3 := m.Col(0), m.Col(1), m.Col(2)
	lambda := 2 / (m1.Norm() + m2.Norm())
	if m3[2] < 0 {
		lambda = -lambda
	}
	r1, r2 := m1.Scale(lambda), m2.Scale(lambda)
	r0, err := NearestRotation(FromCols(r1, r2, r1.Cross(r2)))
	if err != nil {
		return Lens{}, 0, err
	}
	c0 := r0.T().MulVec(m3.Scale(lambda)).Scale(-1)
	if heightMM > 0 {
		c0[2] = math.Copysign(heightMM, c0[2])
	}
	// parameters: rotation increment (3), camera x, y, then the focal
	// length (height known) or the height (focal length known), k1, k2
	type params [8]float64
	unpack := func(p params) (Mat3, Vec3, float64, float64, float64) {
		r := r0.Mul(rodrigues(Vec3{p[0], p[1], p[2]}))
		c := Vec3{p[3], p[4], c0[2]}
		ff := f
		if heightMM > 0 {
			ff = p[5]
		} else {
			c[2] = p[5]
		}
		return r, c, ff, p[6], p[7]
	}
	resid := func(p params, out []float64) bool {
		r, c, ff, k1, k2 := unpack(p)
		for i, s := range src {
			q := r.MulVec(Vec3{s.X - c[0], s.Y - c[1], -c[2]})
			if q[2] <= 1e-9 {
				return false
			}
			x, y := q[0]/q[2], q[1]/q[2]
			r2 := x*x + y*y
			d := 1 + r2*(k1+r2*k2)
			out[2*i] = ff*x*d + cx - dst[i].X
			out[2*i+1] = ff*y*d + cy - dst[i].Y
		}
		return true
	}
	var p params
	p[3], p[4] = c0[0], c0[1]
	if heightMM > 0 {
		p[5] = f
	} else {
		p[5] = c0[2]
	}
	steps := params{1e-7, 1e-7, 1e-7, 1e-4, 1e-4, 1e-4, 1e-7, 1e-7}
	r := make([]float64, 2*n)
	rp := make([]float64, 2*n)
	rm := make([]float64, 2*n)
	cost := func(p params) float64 {
		if !resid(p, rp) {
			return math.Inf(1)
		}
		s := 0.0
		for _, v := range rp {
			s += v * v
		}
		return s
	}
	cur := cost(p)
	if math.IsInf(cur, 1) {
		return Lens{}, 0, ErrDegenerate
	}
	const np = 8
	jac := make([]float64, 2*n*np)
	lam := 1e-3
	for iter := 0; iter < 100; iter++ {
		resid(p, r)
		for j := 0; j < np; j++ {
			a, b := p, p
			a[j] += steps[j]
			b[j] -= steps[j]
			if !resid(a, rp) || !resid(b, rm) {
				return Lens{}, 0, ErrDegenerate
			}
			for i := range r {
				jac[i*np+j] = (rp[i] - rm[i]) / (2 * steps[j])
			}
		}
		var jtj [np * np]float64
		var jtr [np]float64
		for i := range r {
			row := jac[i*np : (i+1)*np]
			for a := 0; a < np; a++ {
				jtr[a] -= row[a] * r[i]
				for b := 0; b < np; b++ {
					jtj[a*np+b] += row[a] * row[b]
				}
			}
		}
		improved := false
		for try := 0; try < 12; try++ {
			a := jtj
			for d := 0; d < np; d++ {
				a[d*np+d] += lam * math.Max(jtj[d*np+d], 1e-12)
			}
			delta, err := Solve(np, a[:], jtr[:])
			if err != nil {
				lam *= 10
				continue
			}
			next := p
			for d := range next {
				next[d] += delta[d]
			}
			if c := cost(next); c < cur {
				small := cur-c < 1e-12*cur
				p, cur = next, c
				lam = math.Max(lam/10, 1e-12)
				improved = !small
				break
			}
			lam *= 10
		}
		if !improved {
			break
		}
	}
	_, _, ff, k1, k2 := unpack(p)
	if !(ff > 0) || math.IsNaN(k1) || math.IsNaN(k2) {
		return Lens{}, 0, ErrDegenerate
	}
	return Lens{FX: ff, FY: ff, CX: cx, CY: cy, K1: k1, K2: k2}, math.Sqrt(cur / float64(n)), nil
}

// rodrigues is the rotation by the vector w (axis × angle).
func rodrigues(w Vec3) Mat3 {
	t := w.Norm()
	if t < 1e-300 {
		return Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	a := w.Scale(1 / t)
	c, s := math.Cos(t), math.Sin(t)
	v := 1 - c
	return Mat3{
		c + a[0]*a[0]*v, a[0]*a[1]*v - a[2]*s, a[0]*a[2]*v + a[1]*s,
		a[1]*a[0]*v + a[2]*s, c + a[1]*a[1]*v, a[1]*a[2]*v - a[0]*s,
		a[2]*a[0]*v - a[1]*s, a[2]*a[1]*v + a[0]*s, c + a[2]*a[2]*v,
	}
}
