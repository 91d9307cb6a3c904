package geom

import (
	"math"
	"testing"
)

// fiducialCorners are the corners of 50 mm squares in the corners and at
// the long edges' midpoints of a 1800×1200 mm table.
func fiducialCorners() []Vec2 {
	var pts []Vec2
	for _, c := range []Vec2{{45, 45}, {1755, 45}, {1755, 1155}, {45, 1155}, {900, 45}, {900, 1155}} {
		for _, p := range SquareCorners(c, 50, 0) {
			pts = append(pts, p)
		}
	}
	return pts
}

// TestFitRadialLens: from a distorting camera's view of the fiducials and
// its height, the focal length and the radial distortion come back, and
// with them the whole table is placed; a homography alone is millimetres
// off between the fiducials.
func TestFitRadialLens(t *testing.T) {
	const f, cx, cy, height = 1480.0, 1151.5, 647.5, 1500.0
	cam := lookDown(f, cx, cy, Vec3{870, 560, height}, 6, 30, 2)
	truth := Lens{FX: f, FY: f, CX: cx, CY: cy, K1: -0.12, K2: 0.04}
	see := func(x, y float64) Vec2 { return truth.Real(cam.project(x, y, 0)) }
	src := fiducialCorners()
	var dst []Vec2
	for _, p := range src {
		dst = append(dst, see(p.X, p.Y))
	}
	h0, err := FitHomography(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	lens, rms, err := FitRadialLens(src, dst, h0, cx, cy, height)
	if err != nil {
		t.Fatal(err)
	}
	if rms > 1e-3 || math.Abs(lens.FX-f) > 0.05 || math.Abs(lens.K1-truth.K1) > 1e-4 || math.Abs(lens.K2-truth.K2) > 1e-4 {
		t.Errorf("got f %.3f k1 %.5f k2 %.5f (RMS %.2g px), want f %g k1 %g k2 %g", lens.FX, lens.K1, lens.K2, rms, f, truth.K1, truth.K2)
	}
	// the table between the fiducials, through the fitted lens and
	// through a homography alone
	var ideal []Vec2
	for _, p := range dst {
		ideal = append(ideal, lens.Ideal(p))
	}
	h, _ := FitHomography(src, ideal)
	hi, _ := h.Inv()
	flat, _ := RefineHomography(h0, src, dst)
	flati, _ := flat.Inv()
	var withLens, without float64
	for _, p := range grid(9, 1800, 1200) {
		px := see(p.X, p.Y)
		withLens = math.Max(withLens, hi.Apply(lens.Ideal(px)).Dist(p))
		without = math.Max(without, flati.Apply(px).Dist(p))
	}
	if withLens > 0.01 || without < 5 {
		t.Errorf("largest error on the table: got %.3g mm with the fitted lens and %.3g mm with a homography alone, want ≤ 0.01 and (to show the test bites) ≥ 5", withLens, without)
	}
}
