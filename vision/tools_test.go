//go:build cgo

package vision

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// toolConfig writes a camera config for the golden layout into dir.
func toolConfig(t *testing.T, dir string, s *synth.Scene) Config {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "markers.yaml"), []byte(registryYAML(sceneLayout(s))), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Source: filepath.Join(dir, "none"), SourceKind: SourceDir, Calibration: filepath.Join(dir, "cal.yaml"),
		Lens: filepath.Join(dir, "lens.yaml"), Markers: filepath.Join(dir, "markers.yaml")}
	cfg.Defaults()
	return cfg
}

// TestLensCalibrationEndToEnd: chessboard views → lens → table
// calibration → models within 2 mm, as `sztab calibrate lens` and
// `sztab calibrate table` do it.
func TestLensCalibrationEndToEnd(t *testing.T) {
	img, tr := loadGolden(t, "turned-1920x1080.jpg")
	defer img.Close()
	cam := tr.Scene.Camera
	dir := t.TempDir()
	b := Board{Cols: 9, Rows: 6, SquareMM: 30}
	var images []string
	for i, cb := range synth.RandomChessboards(&cam, b.Cols, b.Rows, b.SquareMM, 12, 9) {
		im := synth.RenderChessboard(&cam, cb, 0.6, 2, 1, uint64(i))
		path := filepath.Join(dir, fmt.Sprintf("board%02d.png", i))
		m, err := gocv.NewMatFromBytes(im.Height, im.Width, gocv.MatTypeCV8UC3, im.BGR)
		if err != nil {
			t.Fatal(err)
		}
		ok := gocv.IMWrite(path, m)
		m.Close()
		if !ok {
			t.Fatal("IMWrite failed")
		}
		images = append(images, path)
	}
	cfg := toolConfig(t, dir, tr.Scene)
	found := 0
	lc, err := CalibrateLensFrom(context.Background(), cfg, LensOptions{Board: b, Images: images, FixK3: true, OnView: func(_ int, _ string, ok bool) {
		if ok {
			found++
		}
	}}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	if found < 10 || lc.RMSPx > 0.3 || math.Abs(lc.Lens.FX-cam.Lens.FX) > 0.01*cam.Lens.FX {
		t.Errorf("lens: %d views found, RMS %.3f px, fx %.1f (true %.1f)", found, lc.RMSPx, lc.Lens.FX, cam.Lens.FX)
	}
	if err := lc.Save(cfg.Lens); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join(goldenDir, "turned-1920x1080.jpg")
	cal, err := CalibrateTableFrom(context.Background(), cfg, TableOptions{Images: []string{golden}}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cal.LensSource, "lens calibration") || cal.Error.RMSPx > 0.5 {
		t.Errorf("table calibration: lens %q, error %+v", cal.LensSource, cal.Error)
	}
	if err := cal.Save(cfg.Calibration); err != nil {
		t.Fatal(err)
	}
	snap, jpg, err := SnapshotOf(context.Background(), cfg, golden, []Pair{{A: "u1", B: "u2"}}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	if len(jpg) == 0 {
		t.Error("no annotated image")
	}
	errs, vis, got := scoreAgainstTruth(t, "lens-calibrated", snap, tr, 2)
	t.Logf("lens RMS %.3f px from %d views; table %.3f px %.3f mm; %d/%d found, centre error p95 %.3f mm",
		lc.RMSPx, lc.Views, cal.Error.RMSPx, cal.Error.RMSMM, got, vis, geom.Percentile(errs, .95))
}

func TestCalibrateTableFromRefuses(t *testing.T) {
	img, tr := loadGolden(t, "tilt20-2304x1296.jpg")
	img.Close()
	dir := t.TempDir()
	cfg := toolConfig(t, dir, tr.Scene)
	cfg.CameraHeightMM = math.Round(tr.Scene.Camera.Centre[2])
	cfg.MaxErrorPx = 0.01 // no real calibration is that good
	golden := filepath.Join(goldenDir, "tilt20-2304x1296.jpg")
	cal, err := CalibrateTableFrom(context.Background(), cfg, TableOptions{Images: []string{golden}}, quietLog())
	if !errors.Is(err, ErrOverBound) || cal == nil {
		t.Errorf("a 0.01 px bound: got %v, want ErrOverBound with the calibration to report", err)
	}
	// a lens file that does not parse is an error, not ignored
	os.WriteFile(cfg.Lens, []byte("fx: [1"), 0o644)
	cfg.MaxErrorPx = 1
	if _, err := CalibrateTableFrom(context.Background(), cfg, TableOptions{Images: []string{golden}}, quietLog()); err == nil || !strings.Contains(err.Error(), "does not parse") {
		t.Errorf("a broken lens file: got %v", err)
	}
	// an image that is none
	bad := filepath.Join(dir, "x.jpg")
	os.WriteFile(bad, []byte("not a jpeg"), 0o644)
	os.Remove(cfg.Lens)
	if _, err := CalibrateTableFrom(context.Background(), cfg, TableOptions{Images: []string{bad}}, quietLog()); err == nil || !strings.Contains(err.Error(), "not an image") {
		t.Errorf("a broken image: got %v", err)
	}
}
