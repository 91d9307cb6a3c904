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
	mmPerPx                        []float64
}

func (a *accuracy) recall() float64 { return float64(a.found) / float64(a.visible) }

// measureAccuracy renders n frames from seed, calibrates each on its own
// fiducials (with the true lens) and scores a snapshot against the truth.
func measureAccuracy(t testing.TB, o synth.Options, seed uint64, n int) *accuracy {
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
		cal, err := calibrateOn(t, mat, reg, s, false)
		if err != nil {
			mat.Close()
			t.Fatalf("frame %d: %v", f, err)
		}
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
		}
		for i := range snap.Models {
			for j := i + 1; j < len(snap.Models); j++ {
				ma, mb := snap.Models[i], snap.Models[j]
				ta, tb := truth[ma.ID], truth[mb.ID]
				want := math.Max(0, math.Hypot(ta.X-tb.X, ta.Y-tb.Y)-ta.Base/2-tb.Base/2)
				d := EdgeDistance(ma, mb)
				e := math.Abs(d.MM - want)
				a.dist = append(a.dist, e)
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
	cover := float64(a.distWithin) / float64(len(a.dist))
	t.Logf("%d frames at %.2f mm/px (%.2f–%.2f): recall %d/%d = %.4f, %d false; centre error p50 %.3f p95 %.3f max %.3f mm; distance error p95 %.3f max %.3f mm over %d pairs, %.1f%% within the stated bound",
		a.frames, geom.Percentile(a.mmPerPx, .5), geom.Percentile(a.mmPerPx, 0), geom.Percentile(a.mmPerPx, 1),
		a.found, a.visible, a.recall(), a.falses,
		geom.Percentile(a.centre, .5), cp95, geom.Percentile(a.centre, 1), dp95, geom.Percentile(a.dist, 1), len(a.dist), 100*cover)
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
}
