package geom

import (
	"errors"
	"fmt"
	"math"
)

// TableFrame ties table millimetres to ideal (undistorted) pixels. The
// table plane is seen through the homography H fitted to fiducials lying
// at FiducialHeight; the camera pose recovered from H and the camera
// matrix gives the vertical direction, so a point at any height above the
// table (the top of a base) is mapped without parallax error.
//
// Table coordinates: x and y on the table, in mm; heights are measured up
// from the table surface, towards the camera.
type TableFrame struct {
	// H maps (x, y) on the plane at FiducialHeight to ideal pixels.
	H              Homography
	FiducialHeight float64
	// Vertical is the image of the upward direction: moving a point up by
	// dh mm adds dh·Vertical to its homogeneous image coordinates.
	Vertical Vec3
	// Camera is the camera's optical centre: x, y on the table and its
	// height above the table, in mm.
	Camera Vec3
	// Tilt is the angle between the optical axis and the vertical, degrees.
	Tilt float64
}

// NewTableFrame recovers the camera pose from H (table plane at height
// fiducialHeight → ideal pixels) and the camera matrix K.
func NewTableFrame(h Homography, k Mat3, fiducialHeight float64) (TableFrame, error) {
	ki, err := k.Inv()
	if err != nil {
		return TableFrame{}, fmt.Errorf("geom: camera matrix: %w", err)
	}
	m := ki.Mul(Mat3(h))
	m1, m2, m3 := m.Col(0), m.Col(1), m.Col(2)
	n1, n2 := m1.Norm(), m2.Norm()
	if n1 == 0 || n2 == 0 {
		return TableFrame{}, ErrDegenerate
	}
	lambda := 2 / (n1 + n2)
	if m3[2] < 0 { // the plane's origin must lie in front of the camera
		lambda = -lambda
	}
	r1, r2 := m1.Scale(lambda), m2.Scale(lambda)
	r, err := NearestRotation(FromCols(r1, r2, r1.Cross(r2)))
	if err != nil {
		return TableFrame{}, fmt.Errorf("geom: camera pose: %w", err)
	}
	r3 := r.Col(2)
	tp := m3.Scale(lambda) // translation of the plane's own origin
	// The plane's frame: X_c = R·(x, y, z) + tp, z along r3 = r1×r2.
	// The camera centre in that frame is −Rᵀ·tp; its z tells on which side
	// of the plane the camera is, which is "up".
	c := r.T().MulVec(tp).Scale(-1)
	up := 1.0
	if c[2] < 0 {
		up = -1
	}
	vertical := k.MulVec(r3).Scale(up / lambda)
	// h = s·K·[r1 r2 tp] with s = 1/lambda; vertical is in the same scale.
	f := TableFrame{
		H:              h,
		FiducialHeight: fiducialHeight,
		Vertical:       vertical,
		Camera:         Vec3{c[0], c[1], math.Abs(c[2]) + fiducialHeight},
		Tilt:           math.Acos(math.Min(1, math.Abs(r3[2]))) * 180 / math.Pi,
	}
	return f, nil
}

// HomographyAt maps (x, y) on the plane at height hMM to ideal pixels.
func (f TableFrame) HomographyAt(hMM float64) Homography {
	d := hMM - f.FiducialHeight
	g := f.H
	g[2] += f.Vertical[0] * d
	g[5] += f.Vertical[1] * d
	g[8] += f.Vertical[2] * d
	return g
}

// Project maps the table point (x, y) at height hMM to an ideal pixel.
func (f TableFrame) Project(x, y, hMM float64) Vec2 {
	return f.HomographyAt(hMM).Apply(Vec2{x, y})
}

// Unproject maps an ideal pixel to the table point (x, y) at height hMM
// that the camera sees there.
func (f TableFrame) Unproject(px Vec2, hMM float64) (Vec2, error) {
	inv, err := f.HomographyAt(hMM).Inv()
	if err != nil {
		return Vec2{}, err
	}
	return inv.Apply(px), nil
}

// EstimateFocal estimates the focal length, in pixels, of a camera with
// square pixels and its principal point at (cx, cy) from the homography
// of a plane it sees (Zhang's constraints with one unknown). ok is false
// when the plane is too close to square-on for the focal length to show.
func EstimateFocal(h Homography, cx, cy float64) (f float64, ok bool) {
	t := Mat3{1, 0, -cx, 0, 1, -cy, 0, 0, 1}
	a := t.Mul(Mat3(h))
	a1, a2 := a.Col(0), a.Col(1)
	// scale the columns so the equations are comparable
	s := 1 / math.Sqrt(a1.Dot(a1)+a2.Dot(a2))
	a1, a2 = a1.Scale(s), a2.Scale(s)
	// w = 1/f²:  alpha·w + beta = 0
	alpha1 := a1[0]*a2[0] + a1[1]*a2[1]
	beta1 := a1[2] * a2[2]
	alpha2 := a1[0]*a1[0] + a1[1]*a1[1] - a2[0]*a2[0] - a2[1]*a2[1]
	beta2 := a1[2]*a1[2] - a2[2]*a2[2]
	// In-plane terms are O(1) and perspective terms O(tilt/f); a square-on
	// plane leaves beta at rounding level.
	den := alpha1*alpha1 + alpha2*alpha2
	if den == 0 {
		return 0, false
	}
	w := -(alpha1*beta1 + alpha2*beta2) / den
	if !(w > 0) {
		return 0, false
	}
	return 1 / math.Sqrt(w), true
}

// FocalForHeight finds the focal length (square pixels, principal point
// (cx, cy)) at which the camera recovered from h sits heightMM above the
// table.
func FocalForHeight(h Homography, cx, cy, fiducialHeight, heightMM float64) (float64, error) {
	height := func(f float64) (float64, error) {
		fr, err := NewTableFrame(h, Mat3{f, 0, cx, 0, f, cy, 0, 0, 1}, fiducialHeight)
		if err != nil {
			return 0, err
		}
		return fr.Camera[2], nil
	}
	// scan plausible focal lengths (0.1 to 30 image half-widths) for a
	// bracket, then bisect it
	scale := math.Max(math.Max(cx, cy), 1)
	lo, hi := 0.0, 0.0
	var glo float64
	prevF, prevG := 0.0, math.NaN()
	for i := 0; i <= 400; i++ {
		f := scale * 0.1 * math.Pow(300, float64(i)/400)
		g, err := height(f)
		if err != nil {
			continue
		}
		if !math.IsNaN(prevG) && (prevG-heightMM)*(g-heightMM) <= 0 {
			lo, hi, glo = prevF, f, prevG
			break
		}
		prevF, prevG = f, g
	}
	if hi == 0 {
		return 0, fmt.Errorf("geom: no focal length puts the camera %.0f mm above the table", heightMM)
	}
	for i := 0; i < 200 && hi/lo > 1+1e-12; i++ {
		mid := math.Sqrt(lo * hi)
		g, err := height(mid)
		if err != nil {
			return 0, err
		}
		if (g-heightMM)*(glo-heightMM) > 0 {
			lo, glo = mid, g
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi), nil
}

// ErrNoFocal is returned by FocalFor when neither the lens nor a camera
// height is known and the view is too square-on to estimate the focal
// length.
var ErrNoFocal = errors.New("geom: the focal length cannot be estimated from a view this square-on to the table")

// SquareCorners are the corners of a square marker centred at c with side
// s, turned by rotDeg degrees (clockwise as seen from above, with x to the
// right and y towards the viewer), in ArUco's order: the marker's top-left,
// top-right, bottom-right, bottom-left. Unturned, the marker's top edge
// faces y = 0.
func SquareCorners(c Vec2, s, rotDeg float64) [4]Vec2 {
	a := rotDeg * math.Pi / 180
	cs, sn := math.Cos(a), math.Sin(a)
	h := s / 2
	local := [4]Vec2{{-h, -h}, {h, -h}, {h, h}, {-h, h}}
	var out [4]Vec2
	for i, p := range local {
		out[i] = Vec2{c.X + cs*p.X - sn*p.Y, c.Y + sn*p.X + cs*p.Y}
	}
	return out
}
