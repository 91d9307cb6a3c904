//go:build cgo

package vision

import (
	"math"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// accuracyOptions are the accuracy frames: a 180×120 cm table at
// 2304×1296 with the fiducials framed (about 0.9–1.2 mm per pixel), the
// camera 1.2–1.8 m up, tilted up to 20°, turned a little or round,
// lens distortion, blur, noise and uneven light.
func accuracyOptions(w, h int) synth.Options {
	o := synth.Defaults(w, h, synth.DefaultLayout(1800, 1200, 40))
	o.FrameFiducials = true
	o.MaxYaw = 2
	o.Blur = [2]float64{0.4, 0.8}
	o.Noise = [2]float64{1, 4}
	return o
}

// accuracy is what a run over generated frames measured.
type accuracy struct {
	frames, visible, found, falses int
	centre, dist                   []float64 // absolute errors, mm
	distWithin                     int       // distance errors within BoundMM
	bounds                         []float64 // the distances' BoundMM
	// centreAxes are the centres' x and y errors, centreWithin those
	// within 2·SigmaMM
	centreAxes, centreWithin int
	calHoldout               []float64 // the calibrations' HoldoutMM
	mmPerPx                  []float64
}

func (a *accuracy) recall() float64 { return float64(a.found) / float64(a.visible) }

// distCover is the share of distance errors within their bound.
func (a *accuracy) distCover() float64 { return float64(a.distWithin) / float64(len(a.dist)) }

// centreCover is the share of the centres' x and y errors within 2σ.
func (a *accuracy) centreCover() float64 { return float64(a.centreWithin) / float64(a.centreAxes) }

// measureAccuracy renders n frames from seed, calibrates each on its own
// fiducials (with the true lens) and scores a snapshot against the truth.
func measureAccuracy(t testing.TB, o synth.Options, seed uint64, n int) *accuracy {
	t.Helper()
	return measureAccuracyWith(t, o, seed, n, func(mat gocv.Mat, reg *Registry, s *synth.Scene) (*Calibration, error) {
		return calibrateOn(t, mat, reg, s, false)
	})
}

// measureAccuracyWith is measureAccuracy with another calibration.
func measureAccuracyWith(t testing.TB, o synth.Options, seed uint64, n int, calibrate func(gocv.Mat, *Registry, *synth.Scene) (*Calibration, error)) *accuracy {
	t.Helper()
	a := &accuracy{}
	reg := layoutRegistry(t, o.Layout)
	for f := 0; f < n; f++ {
		s, err := synth.Random(o, seed+uint64(f))
		if err != nil {
			t.Fatal(err)
		}
		im, err := s.Render()
		if err != nil {
			t.Fatal(err)
		}
		tr := s.Truth()
		mat, err := gocv.NewMatFromBytes(im.Height, im.Width, gocv.MatTypeCV8UC3, im.BGR)
		if err != nil {
			t.Fatal(err)
		}
		cal, err := calibrate(mat, reg, s)
		if err != nil {
			mat.Close()
			t.Fatalf("frame %d: %v", f, err)
		}
		a.calHoldout = append(a.calHoldout, cal.Error.HoldoutMM)
		cfg := testConfig()
		cfg.StillFrames = 1
		p, err := newPipeline(cfg, reg, cal, quietLog())
		if err != nil {
			t.Fatal(err)
		}
		snap, err := p.Process(mat, time.Unix(0, 0))
		p.Close()
		mat.Close()
		if err != nil || snap == nil {
			t.Fatalf("frame %d: no snapshot: %v", f, err)
		}
		a.frames++
		truth := map[string]synth.MarkerTruth{}
		for _, m := range tr.Models {
			truth[m.ID] = m
			if m.Visible == 1 {
				a.visible++
				a.mmPerPx = append(a.mmPerPx, m.MMPerPixel)
			}
		}
		if testing.Verbose() {
			for _, mt := range tr.Models {
				if mt.Visible == 1 && findModel(*snap, mt.ID) == nil {
					t.Logf("frame %d: missed %s (marker %d, %g mm on %g mm, %.2f mm/px)", f, mt.ID, mt.Marker, mt.Side, mt.Base, mt.MMPerPixel)
				}
			}
		}
		for _, m := range snap.Models {
			mt, ok := truth[m.ID]
			if !ok {
				a.falses++
				continue
			}
			if mt.Visible == 1 {
				a.found++
			}
			a.centre = append(a.centre, math.Hypot(m.X-mt.X, m.Y-mt.Y))
			for _, e := range []float64{m.X - mt.X, m.Y - mt.Y} {
				a.centreAxes++
				if math.Abs(e) <= 2*m.SigmaMM {
					a.centreWithin++
				}
			}
		}
		for i := range snap.Models {
			for j := i + 1; j < len(snap.Models); j++ {
				ma, mb := snap.Models[i], snap.Models[j]
				ta, tb := truth[ma.ID], truth[mb.ID]
				want := math.Max(0, math.Hypot(ta.X-tb.X, ta.Y-tb.Y)-ta.Base/2-tb.Base/2)
				d := EdgeDistance(ma, mb)
				e := math.Abs(d.MM - want)
				a.dist = append(a.dist, e)
				a.bounds = append(a.bounds, d.BoundMM)
				if e <= d.BoundMM {
					a.distWithin++
				}
			}
		}
	}
	return a
}

// TestAccuracy is the accuracy bar on generated frames: centre
// error p95 ≤ 2 mm, base-to-base distance error p95 ≤ 2 mm, no false
// model, recall ≥ 99.5% of the fully visible markers; and the uncertainty
// bounds hold.
func TestAccuracy(t *testing.T) {
	a := measureAccuracy(t, accuracyOptions(2304, 1296), 1000, 10)
	cp95, dp95 := geom.Percentile(a.centre, .95), geom.Percentile(a.dist, .95)
	cover, bound := a.distCover(), geom.Percentile(a.bounds, .5)
	t.Logf("%d frames at %.2f mm/px (%.2f–%.2f): recall %d/%d = %.4f, %d false; centre error p50 %.3f p95 %.3f max %.3f mm, %.1f%% of x, y within 2σ; distance error p95 %.3f max %.3f mm over %d pairs, %.1f%% within the stated bound (median %.3f mm)",
		a.frames, geom.Percentile(a.mmPerPx, .5), geom.Percentile(a.mmPerPx, 0), geom.Percentile(a.mmPerPx, 1),
		a.found, a.visible, a.recall(), a.falses,
		geom.Percentile(a.centre, .5), cp95, geom.Percentile(a.centre, 1), 100*a.centreCover(), dp95, geom.Percentile(a.dist, 1), len(a.dist), 100*cover, bound)
	if cp95 > 2 {
		t.Errorf("centre error p95: got %.3f mm, want ≤ 2", cp95)
	}
	if dp95 > 2 {
		t.Errorf("distance error p95: got %.3f mm, want ≤ 2", dp95)
	}
	if a.falses != 0 {
		t.Errorf("false models: got %d, want 0", a.falses)
	}
	if a.recall() < 0.995 {
		t.Errorf("recall: got %.4f, want ≥ 0.995", a.recall())
	}
	if cover < 0.95 {
		t.Errorf("distance errors within their bound: got %.3f, want ≥ 0.95", cover)
	}
	// and the bound is not so wide as to call everything too close
	if bound > 1.5 {
		t.Errorf("median distance bound: got %.3f mm, want ≤ 1.5", bound)
	}
}

// e2eOptions are frames like the companion's camera test's: the table of
// firmware-config/markers.yaml (180×120 cm, six fiducials) seen at
// 2304×1296 from 1.5 m up, tilted up to 10°, through a distorting lens,
// with forty models for many pairs.
func e2eOptions(t testing.TB) synth.Options {
	t.Helper()
	reg, err := LoadRegistry("../firmware-config/markers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l := synth.DefaultLayout(reg.Table.WidthMM, reg.Table.DepthMM, 40)
	l.Dict = reg.Dictionary
	l.Fiducials = nil
	for _, f := range reg.Fiducials.Markers {
		side := f.SideMM
		if side == 0 {
			side = reg.Fiducials.SideMM
		}
		l.Fiducials = append(l.Fiducials, synth.Fiducial{Marker: f.Marker, X: f.X, Y: f.Y, Side: side, Height: reg.Fiducials.HeightMM, Rot: f.Rot})
	}
	o := synth.Defaults(2304, 1296, l)
	o.CameraHeight = [2]float64{1500, 1500}
	o.MaxTilt, o.MaxYaw, o.Flip = 10, 2, false
	return o
}

// TestBoundCoversErrorWithoutLensCalibration: calibrated without a lens
// calibration (camera_height_mm only), through a lens that distorts, the
// distances' bounds still hold the true distances (the lens's distortion
// is estimated from the fiducials, and what that leaves is measured by
// leaving fiducials out), and the positions stay accurate.
func TestBoundCoversErrorWithoutLensCalibration(t *testing.T) {
	a := measureAccuracyWith(t, e2eOptions(t), 44, 5, func(mat gocv.Mat, reg *Registry, s *synth.Scene) (*Calibration, error) {
		fd, err := newFrameDetector(reg, DefaultDetectorParams())
		if err != nil {
			return nil, err
		}
		defer fd.Close()
		det, err := fd.detect(mat, false)
		if err != nil {
			return nil, err
		}
		return CalibrateTable(TableInput{Width: mat.Cols(), Height: mat.Rows(), Frames: [][]RawMarker{det.fiducials}, Registry: reg, CameraHeightMM: 1500})
	})
	cover, bound := a.distCover(), geom.Percentile(a.bounds, .5)
	dp95 := geom.Percentile(a.dist, .95)
	t.Logf("%d frames: calibration holdout %.3f–%.3f mm; centre error p95 %.3f mm, %.1f%% of x, y within 2σ; distance error p95 %.3f max %.3f mm over %d pairs, %.1f%% within the bound (median %.3f mm, p95 %.3f)",
		a.frames, geom.Percentile(a.calHoldout, 0), geom.Percentile(a.calHoldout, 1), geom.Percentile(a.centre, .95), 100*a.centreCover(),
		dp95, geom.Percentile(a.dist, 1), len(a.dist), 100*cover, bound, geom.Percentile(a.bounds, .95))
	if len(a.dist) < 2000 {
		t.Fatalf("only %d pairs measured", len(a.dist))
	}
	if cover < 0.95 {
		t.Errorf("distance errors within their bound: got %.3f, want ≥ 0.95", cover)
	}
	if c := a.centreCover(); c < 0.95 {
		t.Errorf("centre errors (x, y) within 2σ: got %.3f, want ≥ 0.95", c)
	}
	if dp95 > 2 {
		t.Errorf("distance error p95: got %.3f mm, want ≤ 2", dp95)
	}
	if bound > 6 {
		t.Errorf("median distance bound: got %.3f mm, want ≤ 6", bound)
	}
}
