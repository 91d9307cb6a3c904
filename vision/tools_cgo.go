//go:build cgo

package vision

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

// grabFrames calls f with each image, or with n frames from the source,
// one every `every`.
func grabFrames(ctx context.Context, cfg Config, images []string, n int, every time.Duration, log *slog.Logger, f func(i int, name string, m gocv.Mat) error) error {
	if len(images) > 0 {
		for i, path := range images {
			m := gocv.IMRead(path, gocv.IMReadColor)
			if m.Empty() {
				m.Close()
				return fmt.Errorf("vision: %s is not an image OpenCV reads", path)
			}
			err := f(i, filepath.Base(path), m)
			m.Close()
			if err != nil {
				return err
			}
		}
		return nil
	}
	src, err := openSource(cfg)
	if err != nil {
		return err
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	last := time.Time{}
	failures := 0
	for i := 0; i < n; {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := src.Read(&m); err != nil {
			failures++
			if failures > 100 {
				return fmt.Errorf("vision: the camera gives no frames: %w", err)
			}
			sleep(ctx, 50*time.Millisecond)
			continue
		}
		failures = 0
		if every > 0 && time.Since(last) < every {
			continue
		}
		last = time.Now()
		if err := f(i, fmt.Sprintf("frame %d", i+1), m); err != nil {
			return err
		}
		i++
	}
	return nil
}

// CalibrateTableFrom detects the fiducials in the images (or in frames
// from the camera) and fits the table frame. The lens calibration the
// config names is used when the file exists. Over the configured bound it
// returns the calibration and an error wrapping ErrOverBound: report it,
// do not save it.
func CalibrateTableFrom(ctx context.Context, cfg Config, opt TableOptions, log *slog.Logger) (*Calibration, error) {
	reg, err := LoadRegistry(cfg.Markers)
	if err != nil {
		return nil, err
	}
	var lens *LensCalibration
	if cfg.Lens != "" {
		l, err := LoadLens(cfg.Lens)
		switch {
		case err == nil:
			lens = l
		case errors.Is(err, os.ErrNotExist):
			log.Info("calibrate: no lens calibration; the lens is estimated (set camera_height_mm)", "lens", cfg.Lens)
		default:
			return nil, err
		}
	}
	fd, err := newFrameDetector(reg, DefaultDetectorParams())
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	var frames [][]RawMarker
	w, h := 0, 0
	n := opt.Frames
	if n <= 0 {
		n = 10
	}
	err = grabFrames(ctx, cfg, opt.Images, n, 0, log, func(i int, name string, m gocv.Mat) error {
		if w == 0 {
			w, h = m.Cols(), m.Rows()
		} else if m.Cols() != w || m.Rows() != h {
			return fmt.Errorf("vision: %s is %d×%d, the others %d×%d", name, m.Cols(), m.Rows(), w, h)
		}
		det, err := fd.detect(m, false)
		if err != nil {
			return err
		}
		log.Info("calibrate: frame", "frame", name, "fiducials", len(det.fiducials))
		frames = append(frames, det.fiducials)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return CalibrateTable(TableInput{
		Width: w, Height: h, Frames: frames, Registry: reg, Lens: lens, LensName: cfg.Lens,
		CameraHeightMM: cfg.CameraHeightMM, MaxErrorPx: cfg.MaxErrorPx, MaxErrorMM: cfg.MaxErrorMM,
	})
}

// CalibrateLensFrom finds the chessboard in the images (or in frames from
// the camera) and calibrates the lens. Over the configured bound
// (max_error_px) it returns the calibration and an error wrapping
// ErrOverBound.
func CalibrateLensFrom(ctx context.Context, cfg Config, opt LensOptions, log *slog.Logger) (*LensCalibration, error) {
	var views [][]geom.Vec2
	w, h := 0, 0
	n := opt.Frames
	if n <= 0 {
		n = 15
	}
	err := grabFrames(ctx, cfg, opt.Images, n, opt.Every, log, func(i int, name string, m gocv.Mat) error {
		if w == 0 {
			w, h = m.Cols(), m.Rows()
		} else if m.Cols() != w || m.Rows() != h {
			return fmt.Errorf("vision: %s is %d×%d, the others %d×%d", name, m.Cols(), m.Rows(), w, h)
		}
		cs, ok, err := FindChessboard(m, opt.Board)
		if err != nil {
			return err
		}
		if opt.OnView != nil {
			opt.OnView(i, name, ok)
		}
		if ok {
			views = append(views, cs)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	lc, err := CalibrateLens(views, opt.Board, w, h, opt.FixK3)
	if err != nil {
		return nil, err
	}
	lc.Created = time.Now().UTC().Truncate(time.Second)
	if cfg.MaxErrorPx > 0 && lc.RMSPx > cfg.MaxErrorPx {
		return lc, fmt.Errorf("vision: lens calibration: %w: RMS error %.3f px > max_error_px %.3g", ErrOverBound, lc.RMSPx, cfg.MaxErrorPx)
	}
	return lc, nil
}

// SnapshotOf reads one image (or, with image "", one frame from the
// camera) with the config's calibration and registry and returns the
// snapshot at once (no waiting for stillness) and its annotated JPEG with
// the pairs' distances.
func SnapshotOf(ctx context.Context, cfg Config, image string, pairs []Pair, log *slog.Logger) (Snapshot, []byte, error) {
	p, err := Open(cfg, log)
	if err != nil {
		return Snapshot{}, nil, err
	}
	defer p.Close()
	p.cfg.StillFrames = 1
	p.tracker = newTracker(p.cfg.StillMM, 1, p.cfg.ForgetAfter)
	p.pairs = pairs
	p.cfg.Annotated = ""
	var images []string
	if image != "" {
		images = []string{image}
	}
	var snap *Snapshot
	err = grabFrames(ctx, cfg, images, 1, 0, log, func(i int, name string, m gocv.Mat) error {
		var err error
		snap, err = p.Process(m, time.Now())
		return err
	})
	if err != nil {
		return Snapshot{}, nil, err
	}
	if snap == nil {
		return Snapshot{}, nil, errors.New("vision: no snapshot")
	}
	jpg, err := p.Annotate(pairs...)
	return *snap, jpg, err
}
