//go:build cgo

package vision

import (
	"encoding/json"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// loadGolden reads a committed frame and its truth.
func loadGolden(t testing.TB, name string) (gocv.Mat, *synth.Truth) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	tr, err := synth.LoadTruth(synth.TruthPath(path))
	if err != nil {
		t.Fatal(err)
	}
	img := gocv.IMRead(path, gocv.IMReadColor)
	if img.Empty() {
		t.Fatalf("%s does not load", path)
	}
	return img, tr
}

func sceneLayout(s *synth.Scene) synth.Layout {
	return synth.DefaultLayout(s.TableW, s.TableD, len(s.Models))
}

// calibrateOn calibrates the table on frame, with the true lens or (pinhole)
// with only the camera height, measured to the nearest 10 mm.
func calibrateOn(t testing.TB, frame gocv.Mat, reg *Registry, s *synth.Scene, pinhole bool) (*Calibration, error) {
	t.Helper()
	fd, err := newFrameDetector(reg, DefaultDetectorParams())
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	det, err := fd.detect(frame, false)
	if err != nil {
		t.Fatal(err)
	}
	in := TableInput{Width: frame.Cols(), Height: frame.Rows(), Frames: [][]RawMarker{det.fiducials}, Registry: reg, MaxErrorPx: 1, MaxErrorMM: 1}
	if pinhole {
		in.CameraHeightMM = math.Round(s.Camera.Centre[2]/10) * 10
	} else {
		in.Lens = trueLens(s)
	}
	return CalibrateTable(in)
}

// truthCalibration is the calibration a perfect detection of the scene's
// fiducials gives.
func truthCalibration(t testing.TB, s *synth.Scene, reg *Registry) *Calibration {
	t.Helper()
	var ms []RawMarker
	for _, f := range reg.Fiducials.Markers {
		m := RawMarker{ID: f.Marker}
		for k, c := range f.Corners() {
			m.Corners[k], _ = s.Camera.Pixel(c.X, c.Y, reg.Fiducials.HeightMM)
		}
		ms = append(ms, m)
	}
	cal, err := CalibrateTable(TableInput{Width: s.Camera.Width, Height: s.Camera.Height, Frames: [][]RawMarker{ms}, Registry: reg, Lens: trueLens(s)})
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

func testConfig() Config {
	c := Config{Source: "test", Calibration: "test", Markers: "test"}
	c.Defaults()
	return c
}

// snapshotOf runs one frame through a pipeline that snaps at once.
func snapshotOf(t testing.TB, frame gocv.Mat, reg *Registry, cal *Calibration) (Snapshot, Stats) {
	t.Helper()
	cfg := testConfig()
	cfg.StillFrames = 1
	p, err := newPipeline(cfg, reg, cal, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s, err := p.Process(frame, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		t.Fatal("no snapshot from a frame with still_frames 1")
	}
	return *s, p.Stats()
}

// scoreAgainstTruth checks a snapshot against the truth: every marker the
// camera fully sees found, nothing false, centres within maxErr mm.
func scoreAgainstTruth(t testing.TB, name string, s Snapshot, tr *synth.Truth, maxErr float64) (errs []float64, visible, found int) {
	t.Helper()
	truth := map[string]synth.MarkerTruth{}
	for _, m := range tr.Models {
		truth[m.ID] = m
	}
	got := map[string]bool{}
	for _, m := range s.Models {
		mt, ok := truth[m.ID]
		if !ok || got[m.ID] {
			t.Errorf("%s: model %s is false or twice", name, m.ID)
			continue
		}
		got[m.ID] = true
		e := math.Hypot(m.X-mt.X, m.Y-mt.Y)
		errs = append(errs, e)
		if e > maxErr {
			t.Errorf("%s: model %s at (%.2f, %.2f), truth (%.2f, %.2f): got %.2f mm off, want ≤ %g", name, m.ID, m.X, m.Y, mt.X, mt.Y, e, maxErr)
		}
	}
	for _, mt := range tr.Models {
		if mt.Visible == 1 {
			visible++
			if got[mt.ID] {
				found++
			}
		}
	}
	return errs, visible, found
}

func TestGoldenFrames(t *testing.T) {
	for _, g := range goldenFrames {
		t.Run(strings.TrimSuffix(g.name, filepath.Ext(g.name)), func(t *testing.T) {
			img, tr := loadGolden(t, g.name)
			defer img.Close()
			reg := layoutRegistry(t, sceneLayout(tr.Scene))
			cal, err := calibrateOn(t, img, reg, tr.Scene, g.pinhole)
			if g.noFiducials {
				if err == nil || !strings.Contains(err.Error(), "found 0 of the fiducials") {
					t.Fatalf("calibrating on a frame without fiducials: got %v, want an error saying none was found", err)
				}
				// the stored calibration still serves: models are found
				cal = truthCalibration(t, tr.Scene, reg)
			} else if err != nil {
				t.Fatal(err)
			}
			snap, st := snapshotOf(t, img, reg, cal)
			errs, vis, found := scoreAgainstTruth(t, g.name, snap, tr, 2)
			if r := float64(found) / float64(vis); r < g.minRecall {
				t.Errorf("found %d of %d fully visible markers (%.3f), want at least %.3f", found, vis, r, g.minRecall)
			}
			for _, w := range snap.Warnings {
				t.Errorf("warning: %s", w)
			}
			t.Logf("calibration %.3f px %.3f mm RMS, %.3f mm held out (lens: %s); %d/%d visible found (%d recovered), centre error p95 %.3f max %.3f mm",
				cal.Error.RMSPx, cal.Error.RMSMM, cal.Error.HoldoutMM, cal.LensSource, found, vis, st.Recovered, geom.Percentile(errs, .95), geom.Percentile(errs, 1))
			checkSnapshotGolden(t, filepath.Join(goldenDir, strings.TrimSuffix(g.name, filepath.Ext(g.name))+".snapshot.json"), snap)
		})
	}
}

// TestCalibrationReprojectionNoiseFree: the calibration's error at the
// fiducials on a frame without noise is at most 0.3 px.
func TestCalibrationReprojectionNoiseFree(t *testing.T) {
	img, tr := loadGolden(t, "clean-2304x1296.png")
	defer img.Close()
	if tr.Scene.Noise != 0 {
		t.Fatalf("the clean frame has noise %g", tr.Scene.Noise)
	}
	reg := layoutRegistry(t, sceneLayout(tr.Scene))
	cal, err := calibrateOn(t, img, reg, tr.Scene, false)
	if err != nil {
		t.Fatal(err)
	}
	if cal.Error.RMSPx > 0.3 || cal.Error.Inliers != cal.Error.Points {
		t.Errorf("got RMS %.3f px with %d of %d corners, want ≤ 0.3 px with all", cal.Error.RMSPx, cal.Error.Inliers, cal.Error.Points)
	}
	// and the corners found are where the truth has them
	fd, _ := newFrameDetector(reg, DefaultDetectorParams())
	defer fd.Close()
	det, _ := fd.detect(img, false)
	var e []float64
	for _, m := range det.fiducials {
		for _, f := range tr.Fiducials {
			if f.Marker == m.ID {
				for k := 0; k < 4; k++ {
					e = append(e, m.Corners[k].Dist(f.Corners[k]))
				}
			}
		}
	}
	if got := geom.RMS(e); got > 0.3 || len(e) != 4*len(tr.Fiducials) {
		t.Errorf("fiducial corners: got %.3f px RMS from the truth over %d corners, want ≤ 0.3 over %d", got, len(e), 4*len(tr.Fiducials))
	}
	t.Logf("reprojection RMS %.3f px (max %.3f), %.3f mm; corners vs truth %.3f px RMS", cal.Error.RMSPx, cal.Error.MaxPx, cal.Error.RMSMM, geom.RMS(e))
}

// checkSnapshotGolden compares a snapshot with the golden one: the same
// models and flags, positions within 0.25 mm (a tenth of the accuracy
// asked for; OpenCV builds differ in the corners they start from).
func checkSnapshotGolden(t *testing.T, path string, s Snapshot) {
	t.Helper()
	s.Time = time.Time{}
	s.Image = ""
	if *update {
		b, _ := json.MarshalIndent(s, "", "  ")
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	var want Snapshot
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(s.Models) != len(want.Models) {
		t.Fatalf("got %d models, want %d (golden %s)", len(s.Models), len(want.Models), path)
	}
	for i, m := range s.Models {
		w := want.Models[i]
		if m.ID != w.ID || m.Occluded != w.Occluded || math.Hypot(m.X-w.X, m.Y-w.Y) > 0.25 || math.Abs(m.SigmaMM-w.SigmaMM) > 0.1 {
			t.Errorf("model %d: got %+v, want %+v", i, m, w)
		}
	}
}
