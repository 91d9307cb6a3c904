package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// testCamera is a pinhole camera looking down at the table from centre c
// (z = height above the table) with rotation r (world → camera; world z
// points down into the table).
type testCamera struct {
	k Mat3
	r Mat3
	c Vec3
}

func lookDown(f, cx, cy float64, centre Vec3, tiltDeg, azDeg, yawDeg float64) testCamera {
	tilt, az, yaw := tiltDeg*math.Pi/180, azDeg*math.Pi/180, yawDeg*math.Pi/180
	// optical axis: down, leaning by tilt towards azimuth az
	z := Vec3{math.Sin(tilt) * math.Cos(az), math.Sin(tilt) * math.Sin(az), math.Cos(tilt)}
	xh := Vec3{math.Cos(yaw), math.Sin(yaw), 0}
	x := xh.Sub(z.Scale(xh.Dot(z))).Unit()
	y := z.Cross(x)
	return testCamera{k: Mat3{f, 0, cx, 0, f, cy, 0, 0, 1}, r: FromRows(x, y, z), c: centre}
}

// project maps the table point (x, y) at height h to a pixel.
func (c testCamera) project(x, y, h float64) Vec2 {
	wc := Vec3{c.c[0], c.c[1], -c.c[2]}
	pc := c.r.MulVec(Vec3{x, y, -h}.Sub(wc))
	q := c.k.MulVec(pc)
	return Vec2{q[0] / q[2], q[1] / q[2]}
}

func grid(n int, w, d float64) []Vec2 {
	var pts []Vec2
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			pts = append(pts, Vec2{w * float64(i) / float64(n-1), d * float64(j) / float64(n-1)})
		}
	}
	return pts
}

func TestFitHomographyExact(t *testing.T) {
	cam := lookDown(2000, 1152, 648, Vec3{900, 600, 1500}, 15, 30, 5)
	src := grid(5, 1800, 1200)
	dst := make([]Vec2, len(src))
	for i, p := range src {
		dst[i] = cam.project(p.X, p.Y, 0)
	}
	h, err := FitHomography(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	if got := RMS(h.Residuals(src, dst)); got > 1e-8 {
		t.Errorf("DLT residual: got %g px, want < 1e-8", got)
	}
	if _, err := FitHomography(src[:3], dst[:3]); err == nil {
		t.Error("three points: got no error, want ErrDegenerate")
	}
	line := []Vec2{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}
	if _, err := FitHomography(line, line); err == nil {
		t.Error("collinear points: got no error")
	}
}

func TestRansacRejectsOutliersAndRefines(t *testing.T) {
	cam := lookDown(1800, 960, 540, Vec3{600, 600, 1400}, 20, -60, -10)
	rng := rand.New(rand.NewPCG(1, 2))
	src := grid(6, 1200, 1200)
	dst := make([]Vec2, len(src))
	truth := make([]Vec2, len(src))
	for i, p := range src {
		truth[i] = cam.project(p.X, p.Y, 0)
		dst[i] = truth[i].Add(Vec2{rng.NormFloat64() * 0.3, rng.NormFloat64() * 0.3})
	}
	bad := []int{3, 17, 29}
	for _, i := range bad {
		dst[i] = dst[i].Add(Vec2{25, -40})
	}
	h, in, err := FitHomographyRANSAC(src, dst, RansacOptions{Threshold: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for i, ok := range in {
		wantIn := true
		for _, b := range bad {
			if b == i {
				wantIn = false
			}
		}
		if ok != wantIn {
			t.Errorf("point %d: got inlier=%v, want %v", i, ok, wantIn)
		}
	}
	// the fit must be close to the true mapping, well under the noise
	var errs []float64
	for i, p := range src {
		errs = append(errs, h.Apply(p).Dist(truth[i]))
	}
	if got := RMS(errs); got > 0.15 {
		t.Errorf("RANSAC+LM: got %.3f px RMS from the truth, want ≤ 0.15", got)
	}
}

func TestHomographyFrom4(t *testing.T) {
	src := [4]Vec2{{0, 0}, {6, 0}, {6, 6}, {0, 6}}
	dst := [4]Vec2{{100, 50}, {130, 52}, {128, 85}, {99, 80}}
	h, err := HomographyFrom4(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	for i := range src {
		if d := h.Apply(src[i]).Dist(dst[i]); d > 1e-9 {
			t.Errorf("point %d: %g px off", i, d)
		}
	}
	if _, err := HomographyFrom4(src, [4]Vec2{{0, 0}, {1, 1}, {2, 2}, {3, 3}}); err == nil {
		t.Error("collinear: got no error")
	}
}

func TestRefineNotWorseThanDLT(t *testing.T) {
	cam := lookDown(2200, 1152, 648, Vec3{900, 600, 1700}, 10, 100, 0)
	rng := rand.New(rand.NewPCG(3, 4))
	src := grid(4, 1800, 1200)
	dst := make([]Vec2, len(src))
	for i, p := range src {
		dst[i] = cam.project(p.X, p.Y, 0).Add(Vec2{rng.NormFloat64(), rng.NormFloat64()})
	}
	h0, err := FitHomography(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	h1, err := RefineHomography(h0, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	e0, e1 := RMS(h0.Residuals(src, dst)), RMS(h1.Residuals(src, dst))
	if e1 > e0+1e-12 {
		t.Errorf("refined residual: got %g, want ≤ DLT's %g", e1, e0)
	}
}

func TestLensRoundTrip(t *testing.T) {
	lenses := []Lens{
		{FX: 1800, FY: 1800, CX: 1152, CY: 648, K1: -0.12, K2: 0.05, P1: 0.001, P2: -0.0008, K3: -0.01},
		{FX: 1500, FY: 1510, CX: 960, CY: 540, K1: 0.08, K2: -0.02},
		{FX: 1500, FY: 1500, CX: 960, CY: 540},
	}
	for _, l := range lenses {
		for _, px := range []Vec2{{0, 0}, {1919, 1079}, {960, 540}, {100, 900}, {2303, 10}} {
			got := l.Real(l.Ideal(px))
			if d := got.Dist(px); d > 1e-9 {
				t.Errorf("lens %+v: Real(Ideal(%v)) = %v, %g px off, want < 1e-9", l, px, got, d)
			}
		}
	}
}

func TestTableFrameParallax(t *testing.T) {
	tests := []struct {
		name                  string
		f, tilt, az, yaw, fid float64
		centre                Vec3
	}{
		{"nadir", 1900, 0.001, 0, 0, 0, Vec3{900, 600, 1500}},
		{"tilted", 1700, 20, 45, 8, 0, Vec3{300, 500, 1300}},
		{"raised fiducials", 2100, 12, 200, -5, 3, Vec3{1000, 700, 1800}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cam := lookDown(tt.f, 1152, 648, tt.centre, tt.tilt, tt.az, tt.yaw)
			src := grid(3, 1800, 1200)
			dst := make([]Vec2, len(src))
			for i, p := range src {
				dst[i] = cam.project(p.X, p.Y, tt.fid)
			}
			h, err := FitHomography(src, dst)
			if err != nil {
				t.Fatal(err)
			}
			fr, err := NewTableFrame(h, cam.k, tt.fid)
			if err != nil {
				t.Fatal(err)
			}
			if d := fr.Camera.Sub(tt.centre).Norm(); d > 1e-6 {
				t.Errorf("camera centre: got %v, want %v", fr.Camera, tt.centre)
			}
			if math.Abs(fr.Tilt-tt.tilt) > 1e-6 {
				t.Errorf("tilt: got %g°, want %g°", fr.Tilt, tt.tilt)
			}
			for _, hh := range []float64{0, 4, 40} {
				for _, p := range []Vec2{{50, 50}, {1750, 1150}, {900, 600}} {
					px := cam.project(p.X, p.Y, hh)
					got, err := fr.Unproject(px, hh)
					if err != nil {
						t.Fatal(err)
					}
					if d := got.Dist(p); d > 1e-6 {
						t.Errorf("height %g: got %v, want %v", hh, got, p)
					}
				}
			}
		})
	}
}

func TestFocalEstimates(t *testing.T) {
	cam := lookDown(1850, 1152, 648, Vec3{900, 600, 1500}, 18, 60, 3)
	src := grid(3, 1800, 1200)
	dst := make([]Vec2, len(src))
	for i, p := range src {
		dst[i] = cam.project(p.X, p.Y, 0)
	}
	h, _ := FitHomography(src, dst)
	if f, ok := EstimateFocal(h, 1152, 648); !ok || math.Abs(f-1850) > 0.5 {
		t.Errorf("EstimateFocal: got %g, %v; want 1850", f, ok)
	}
	f, err := FocalForHeight(h, 1152, 648, 0, 1500)
	if err != nil || math.Abs(f-1850) > 0.5 {
		t.Errorf("FocalForHeight: got %g, %v; want 1850", f, err)
	}
}

func TestSymEigenAndSolve(t *testing.T) {
	a := []float64{4, 1, 2, 1, 3, 0, 2, 0, 5}
	vals, vecs := SymEigen(3, a)
	for c := 0; c < 3; c++ {
		for r := 0; r < 3; r++ {
			av := a[r*3]*vecs[c] + a[r*3+1]*vecs[3+c] + a[r*3+2]*vecs[6+c]
			if math.Abs(av-vals[c]*vecs[r*3+c]) > 1e-12 {
				t.Errorf("eigenpair %d: A·v ≠ λ·v", c)
			}
		}
	}
	x, err := Solve(3, a, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 3; r++ {
		if got := a[r*3]*x[0] + a[r*3+1]*x[1] + a[r*3+2]*x[2]; math.Abs(got-float64(r+1)) > 1e-12 {
			t.Errorf("row %d: got %g, want %d", r, got, r+1)
		}
	}
	if _, err := Solve(2, []float64{1, 2, 2, 4}, []float64{1, 1}); err == nil {
		t.Error("singular system: got no error")
	}
}

func BenchmarkRansac32(b *testing.B) {
	cam := lookDown(1800, 960, 540, Vec3{600, 600, 1400}, 20, -60, -10)
	src := grid(6, 1200, 1200)[:32]
	dst := make([]Vec2, len(src))
	for i, p := range src {
		dst[i] = cam.project(p.X, p.Y, 0)
	}
	for b.Loop() {
		if _, _, err := FitHomographyRANSAC(src, dst, RansacOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
