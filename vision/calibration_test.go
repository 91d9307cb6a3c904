package vision

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// fiducialSighting is what a detector would report for the registry's
// fiducials seen by cam, with Gaussian corner noise (pixels).
// modelSighting is model m's marker as cam sees it, at its base's height.
func modelSighting(cam *synth.Camera, m synth.Placed) RawMarker {
	rm := RawMarker{ID: m.Marker}
	for k, c := range geom.SquareCorners(geom.Vec2{X: m.X, Y: m.Y}, m.Side, m.Rot) {
		rm.Corners[k], _ = cam.Pixel(c.X, c.Y, m.Height)
	}
	return rm
}

func fiducialSighting(cam *synth.Camera, reg *Registry, noise float64, rng *rand.Rand) []RawMarker {
	var ms []RawMarker
	for _, f := range reg.Fiducials.Markers {
		m := RawMarker{ID: f.Marker}
		for k, c := range f.Corners() {
			p, _ := cam.Pixel(c.X, c.Y, reg.Fiducials.HeightMM)
			if noise > 0 {
				p = p.Add(geom.Vec2{X: rng.NormFloat64() * noise, Y: rng.NormFloat64() * noise})
			}
			m.Corners[k] = p
		}
		ms = append(ms, m)
	}
	return ms
}

func testScene(t testing.TB, w, h int, seed uint64, distortion bool) (*synth.Scene, *Registry) {
	t.Helper()
	l := synth.DefaultLayout(1800, 1200, 10)
	o := synth.Defaults(w, h, l)
	o.Distortion = distortion
	s, err := synth.Random(o, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s, layoutRegistry(t, l)
}

func TestCalibrateTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	s, reg := testScene(t, 2304, 1296, 7, true)
	cam := &s.Camera
	exact := fiducialSighting(cam, reg, 0, rng)
	moved := fiducialSighting(cam, reg, 0, rng)
	for k := range moved[4].Corners { // fiducial 4 knocked 15 mm along x
		f := reg.Fiducials.Markers[4]
		c := f.Corners()[k]
		moved[4].Corners[k], _ = cam.Pixel(c.X+15, c.Y, reg.Fiducials.HeightMM)
	}
	tests := []struct {
		name   string
		in     TableInput
		err    string
		check  func(t *testing.T, c *Calibration)
		isOver bool
	}{
		{name: "exact", in: TableInput{Frames: [][]RawMarker{exact}, Lens: trueLens(s)}, check: func(t *testing.T, c *Calibration) {
			if c.Error.RMSPx > 1e-6 || c.Error.Inliers != 4*len(exact) {
				t.Errorf("error: got %+v, want 0 over all corners", c.Error)
			}
			if d := geom.Vec3(c.CameraMM).Sub(cam.Centre).Norm(); d > 0.01 {
				t.Errorf("camera: got %v, want %v", c.CameraMM, cam.Centre)
			}
		}},
		{name: "a moved fiducial is left out", in: TableInput{Frames: [][]RawMarker{moved}, Lens: trueLens(s)}, check: func(t *testing.T, c *Calibration) {
			if c.Error.Inliers != 4*(len(moved)-1) || c.Fiducials[4].Used {
				t.Errorf("got %+v, fiducials %+v; want fiducial 4 left out", c.Error, c.Fiducials)
			}
			if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "fiducial 4 was left out: it is 15.0 mm from") {
				t.Errorf("warnings: got %q", c.Warnings)
			}
		}},
		{name: "median over frames", in: TableInput{Frames: [][]RawMarker{exact, moved, exact}, Lens: trueLens(s)}, check: func(t *testing.T, c *Calibration) {
			if c.Error.RMSPx > 1e-6 || c.Error.Frames != 3 {
				t.Errorf("error: got %+v, want 0 from 3 frames", c.Error)
			}
		}},
		{name: "three fiducials", in: TableInput{Frames: [][]RawMarker{exact[:3]}, Lens: trueLens(s)}, err: "found 3 of the fiducials"},
		{name: "nothing", in: TableInput{Frames: nil, Lens: trueLens(s)}, err: "found 0 of the fiducials"},
		{name: "over the bound", in: TableInput{Frames: [][]RawMarker{fiducialSighting(cam, reg, 2, rng)}, Lens: trueLens(s), MaxErrorPx: 0.5}, err: "over the bound", isOver: true},
		{name: "lens of another size", in: TableInput{Frames: [][]RawMarker{exact}, Lens: &LensCalibration{Width: 1920, Height: 1080, Lens: s.Camera.Lens}}, err: "lens calibration is for 1920×1080"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Width, tt.in.Height, tt.in.Registry = 2304, 1296, reg
			c, err := CalibrateTable(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want an error containing %q", err, tt.err)
				}
				if tt.isOver && (!errors.Is(err, ErrOverBound) || c == nil) {
					t.Errorf("over the bound: got calibration %v and %v, want the calibration and ErrOverBound", c != nil, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestCalibrateWithoutLens(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	s, reg := testScene(t, 2304, 1296, 11, false)
	ms := fiducialSighting(&s.Camera, reg, 0, rng)
	in := TableInput{Width: 2304, Height: 1296, Frames: [][]RawMarker{ms}, Registry: reg}
	// square-on views cannot tell the camera's height
	nadir := synth.LookDown(2304, 1296, geom.Lens{FX: 1900, FY: 1900, CX: 1151.5, CY: 647.5}, geom.Vec3{900, 600, 1500}, 0, 0, 0)
	in2 := in
	in2.Frames = [][]RawMarker{fiducialSighting(&nadir, reg, 0, rng)}
	if _, err := CalibrateTable(in2); err == nil || !strings.Contains(err.Error(), "camera_height_mm") {
		t.Errorf("square-on without lens or height: got %v, want advice to set camera_height_mm", err)
	}
	in2.CameraHeightMM = 1500
	c, err := CalibrateTable(in2)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.Lens.FX-1900) > 1 || math.Abs(c.CameraMM[2]-1500) > 0.5 {
		t.Errorf("square-on with the height: got f %.1f, camera %v; want 1900, 1500 mm up", c.Lens.FX, c.CameraMM)
	}
	// a tilted view shows its focal length (the principal point is
	// assumed at the centre, so not exactly)
	c, err = CalibrateTable(in)
	if err != nil {
		t.Fatal(err)
	}
	if d := geom.Vec3(c.CameraMM).Sub(s.Camera.Centre).Norm(); d > 0.02*s.Camera.Centre[2] {
		t.Errorf("tilted: camera at %v, want %v within 2%%", c.CameraMM, s.Camera.Centre)
	}
}

func TestCalibrationFile(t *testing.T) {
	s, reg := testScene(t, 1920, 1080, 3, true)
	ms := fiducialSighting(&s.Camera, reg, 0.1, rand.New(rand.NewPCG(3, 3)))
	c, err := CalibrateTable(TableInput{Width: 1920, Height: 1080, Frames: [][]RawMarker{ms}, Registry: reg, Lens: trueLens(s), LensName: "lens.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "cal.yaml")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []geom.Vec2{{X: 100, Y: 100}, {X: 1500, Y: 900}} {
		want, _ := c.ToTable(p, 4)
		got, err := back.ToTable(p, 4)
		if err != nil || got.Dist(want) > 1e-6 {
			t.Errorf("ToTable(%v) after a round trip: got %v, want %v", p, got, want)
		}
	}
	if err := back.CheckSize(1920, 1080); err != nil {
		t.Error(err)
	}
	if err := back.CheckSize(2304, 1296); err == nil || !strings.Contains(err.Error(), "for 1920×1080 frames, the camera gives 2304×1296") {
		t.Errorf("another size: got %v", err)
	}
	good, _ := os.ReadFile(path)
	bad := []struct{ name, data, err string }{
		{"garbage", "{{{", "does not parse"},
		{"unknown key", string(good) + "colour: red\n", "field colour not found"},
		{"version", strings.Replace(string(good), "version: 1", "version: 9", 1), "version 9"},
		{"singular", strings.Replace(string(good), "homography: [", "homography: [0, 0, 0, 0, 0, 0, 0, 0, 0, ", 1), "does not parse"},
	}
	for _, b := range bad {
		if _, err := ParseCalibration(b.name, []byte(b.data)); err == nil || !strings.Contains(err.Error(), b.err) {
			t.Errorf("%s: got %v, want an error containing %q", b.name, err, b.err)
		}
	}
	if _, err := LoadCalibration(filepath.Join(dir, "none.yaml")); err == nil || !strings.Contains(err.Error(), "sztab calibrate table") {
		t.Errorf("missing file: got %v, want advice to calibrate", err)
	}
}

// TestLocalise: markers projected by the true camera, through lens
// distortion and at their bases' heights, land where they are.
func TestLocalise(t *testing.T) {
	s, reg := testScene(t, 2304, 1296, 5, true)
	cal, err := CalibrateTable(TableInput{Width: 2304, Height: 1296, Frames: [][]RawMarker{fiducialSighting(&s.Camera, reg, 0, nil)}, Registry: reg, Lens: trueLens(s)})
	if err != nil {
		t.Fatal(err)
	}
	loc := newLocaliser(cal, reg)
	for _, m := range s.Models {
		rm := modelSighting(&s.Camera, m)
		o, err := loc.locate(rm, true)
		if err != nil {
			t.Fatal(err)
		}
		if d := o.Pos.Dist(geom.Vec2{X: m.X, Y: m.Y}); d > 1e-6 {
			t.Errorf("%s: got %v, want (%g, %g)", m.ID, o.Pos, m.X, m.Y)
		}
		if o.SigmaMM <= 0 || o.SigmaMM > 1 {
			t.Errorf("%s: sigma %g mm", m.ID, o.SigmaMM)
		}
		// the parallax is real: ignoring the height would cost
		flat, _ := cal.ToTable(rm.Centre(), 0)
		if flat.Dist(o.Pos) < 0.1 && math.Hypot(m.X-cal.CameraMM[0], m.Y-cal.CameraMM[1]) > 300 {
			t.Errorf("%s: no parallax at %g mm from the camera's foot", m.ID, math.Hypot(m.X-cal.CameraMM[0], m.Y-cal.CameraMM[1]))
		}
		// a marker of the wrong size is refused
		small := rm
		for k := range small.Corners {
			small.Corners[k] = rm.Centre().Add(rm.Corners[k].Sub(rm.Centre()).Scale(0.6))
		}
		if _, err := loc.locate(small, true); err == nil || !strings.Contains(err.Error(), "measures") {
			t.Errorf("%s at 60%%: got %v, want a size error", m.ID, err)
		}
	}
}

// tableError is the RMS and the largest distance (mm) between points of
// the table at height h and where the calibration puts what the camera
// sees of them.
func tableError(t testing.TB, cal *Calibration, cam *synth.Camera, h float64) (rms, max float64) {
	t.Helper()
	var e []float64
	for x := 100.0; x <= 1700; x += 100 {
		for y := 100.0; y <= 1100; y += 100 {
			px, _ := cam.Pixel(x, y, h)
			q, err := cal.ToTable(px, h)
			if err != nil {
				t.Fatal(err)
			}
			e = append(e, q.Dist(geom.Vec2{X: x, Y: y}))
		}
	}
	return geom.RMS(e), geom.Percentile(e, 1)
}

// TestCalibrateEstimatesDistortion: without a lens calibration, the lens's
// radial distortion is estimated from the fiducials, which places the
// table between them to about a millimetre where a homography alone is
// centimetres off; the holdout error, not the error at the fiducials,
// says how far off; a moved fiducial is still left out.
func TestCalibrateEstimatesDistortion(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var withLens, without []float64
	for _, seed := range []uint64{21, 22, 23, 24} {
		s, reg := testScene(t, 2304, 1296, seed, true)
		cam := &s.Camera
		height := math.Round(cam.Centre[2]/10) * 10
		ms := fiducialSighting(cam, reg, 0.15, rng)
		c, err := CalibrateTable(TableInput{Width: 2304, Height: 1296, Frames: [][]RawMarker{ms}, Registry: reg, CameraHeightMM: height})
		if err != nil {
			t.Fatal(err)
		}
		rms, max := tableError(t, c, cam, reg.Fiducials.HeightMM)
		// a homography alone through the fiducials
		var src, raw []geom.Vec2
		for _, m := range ms {
			f, _ := reg.Fiducial(m.ID)
			tc := f.Corners()
			src, raw = append(src, tc[:]...), append(raw, m.Corners[:]...)
		}
		flat, err := homographyFit(geom.Lens{})(src, raw)
		if err != nil {
			t.Fatal(err)
		}
		var e []float64
		for x := 100.0; x <= 1700; x += 100 {
			for y := 100.0; y <= 1100; y += 100 {
				px, _ := cam.Pixel(x, y, reg.Fiducials.HeightMM)
				e = append(e, flat(px).Dist(geom.Vec2{X: x, Y: y}))
			}
		}
		t.Logf("seed %d: k1 %.3f k2 %.3f (true %.3f %.3f); error at the fiducials %.3f mm, held out %.3f; on the table RMS %.3f max %.3f mm (a homography alone: RMS %.3f max %.3f)",
			seed, c.Lens.K1, c.Lens.K2, cam.Lens.K1, cam.Lens.K2, c.Error.RMSMM, c.Error.HoldoutMM, rms, max, geom.RMS(e), geom.Percentile(e, 1))
		if !c.Lens.HasDistortion() || !strings.Contains(c.LensSource, "radial distortion") {
			t.Errorf("seed %d: lens %+v (%s), want the distortion estimated", seed, c.Lens, c.LensSource)
		}
		if rms >= geom.RMS(e) {
			t.Errorf("seed %d: table error RMS %.3f mm, a homography alone %.3f; want less", seed, rms, geom.RMS(e))
		}
		withLens, without = append(withLens, rms), append(without, geom.RMS(e))
		// the error at the fiducials understates the table's, the holdout
		// error does not
		if c.Error.HoldoutMM < rms || max > 2*c.Error.HoldoutMM || c.Error.PositionMM() != c.Error.HoldoutMM {
			t.Errorf("seed %d: holdout %.3f mm, error at the fiducials %.3f; on the table RMS %.3f max %.3f; want the holdout over the RMS and over half the max", seed, c.Error.HoldoutMM, c.Error.RMSMM, rms, max)
		}
		if c.Error.Inliers != c.Error.Points || len(c.Fiducials) != 6 || c.Fiducials[0].HoldoutMM == 0 {
			t.Errorf("seed %d: %+v, fiducials %+v", seed, c.Error, c.Fiducials)
		}
	}
	if geom.RMS(withLens) > geom.RMS(without)/3 {
		t.Errorf("table error RMS over the seeds: %.3f mm with the lens estimated, %.3f with a homography alone; want a third at most", geom.RMS(withLens), geom.RMS(without))
	}
	// a fiducial knocked 15 mm is left out of the lens's fit and the frame
	s, reg := testScene(t, 2304, 1296, 21, true)
	cam := &s.Camera
	ms := fiducialSighting(cam, reg, 0.15, rng)
	for k := range ms[4].Corners {
		c := reg.Fiducials.Markers[4].Corners()[k]
		ms[4].Corners[k], _ = cam.Pixel(c.X+15, c.Y, reg.Fiducials.HeightMM)
	}
	c, err := CalibrateTable(TableInput{Width: 2304, Height: 1296, Frames: [][]RawMarker{ms}, Registry: reg, CameraHeightMM: math.Round(cam.Centre[2]/10) * 10})
	if err != nil {
		t.Fatal(err)
	}
	if c.Fiducials[4].Used || len(c.Warnings) == 0 || !strings.Contains(c.Warnings[0], "fiducial 4 was left out") || !c.Lens.HasDistortion() {
		t.Errorf("moved fiducial: got fiducials %+v, warnings %q, lens %+v", c.Fiducials, c.Warnings, c.Lens)
	}
	if rms, _ := tableError(t, c, cam, reg.Fiducials.HeightMM); rms > c.Error.HoldoutMM || rms > 2 {
		t.Errorf("moved fiducial: table error RMS %.3f mm, holdout %.3f; want it under the holdout and 2 mm", rms, c.Error.HoldoutMM)
	}
}

// TestOldCalibrationFile: a calibration written before the holdout error
// existed loads; its RMS error at the fiducials is the positions'
// calibration uncertainty, and one made without a lens calibration is
// reported as worth redoing.
func TestOldCalibrationFile(t *testing.T) {
	s, reg := testScene(t, 2304, 1296, 22, true)
	ms := fiducialSighting(&s.Camera, reg, 0.15, rand.New(rand.NewPCG(5, 5)))
	c, err := CalibrateTable(TableInput{Width: 2304, Height: 1296, Frames: [][]RawMarker{ms}, Registry: reg, CameraHeightMM: math.Round(s.Camera.Centre[2]/10) * 10})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Lens.HasDistortion() {
		t.Fatalf("lens %+v, want the distortion estimated", c.Lens)
	}
	path := filepath.Join(t.TempDir(), "cal.yaml")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	back, err := ParseCalibration("new", data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Error.HoldoutMM != c.Error.HoldoutMM || back.Error.HoldoutMM <= back.Error.RMSMM || back.Outdated() != "" {
		t.Errorf("round trip: got holdout %g (RMS %g), outdated %q; want %g, not outdated", back.Error.HoldoutMM, back.Error.RMSMM, back.Outdated(), c.Error.HoldoutMM)
	}
	// the old format: no holdout, and no distortion without a lens file
	var old []string
	for _, l := range strings.Split(string(data), "\n") {
		k := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(k, "holdout_mm:"):
			continue
		case strings.HasPrefix(k, "k1:"), strings.HasPrefix(k, "k2:"):
			l = l[:strings.Index(l, ":")] + ": 0"
		case strings.HasPrefix(k, "lens_source:"):
			l = "lens_source: 'estimated: camera 1500 mm above the table (camera_height_mm), principal point at the image centre, no distortion'"
		}
		old = append(old, l)
	}
	oc, err := ParseCalibration("old", []byte(strings.Join(old, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if oc.Error.HoldoutMM != 0 || oc.Error.PositionMM() != oc.Error.RMSMM || !strings.Contains(oc.Outdated(), "recalibrate") {
		t.Errorf("old file: got holdout %g, position error %g (RMS %g), outdated %q; want 0, the RMS, advice to recalibrate", oc.Error.HoldoutMM, oc.Error.PositionMM(), oc.Error.RMSMM, oc.Outdated())
	}
	// and positions through it take the RMS error
	loc := newLocaliser(oc, reg)
	m := s.Models[0]
	o, err := loc.locate(modelSighting(&s.Camera, m), true)
	if err != nil {
		t.Fatal(err)
	}
	if o.SigmaMM < oc.Error.RMSMM || o.SigmaMM > c.Error.HoldoutMM {
		t.Errorf("sigma through an old calibration: got %.3f mm, want at least its RMS error %.3f (and under the new holdout %.3f)", o.SigmaMM, oc.Error.RMSMM, c.Error.HoldoutMM)
	}
}
