//go:build cgo

package vision

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/board"
	"github.com/sztab/sztab/vision/geom"
)

// CalibrateBoardFrom finds the board's corner markers in the images (or
// in one frame from the camera) and fits the board: every corner marker
// must be seen, where the board file puts it. The lens calibration the
// config names is used when the file exists; otherwise camera_height_mm.
func CalibrateBoardFrom(ctx context.Context, cfg Config, opt BoardOptions, log *slog.Logger) (*board.Calibration, error) {
	def, err := board.ForGame(opt.Game, opt.Board)
	if err != nil {
		return nil, err
	}
	dict, err := aruco.Lookup(def.Dictionary)
	if err != nil {
		return nil, fmt.Errorf("vision: board: %w", err)
	}
	det, err := newArucoDetector(dict, DefaultDetectorParams())
	if err != nil {
		return nil, err
	}
	defer det.Close()
	in := board.CalibrateInput{CameraHeightMM: cfg.CameraHeightMM, MaxErrorPx: cfg.MaxErrorPx}
	if cfg.Lens != "" {
		l, err := LoadLens(cfg.Lens)
		switch {
		case err == nil:
			in.Lens = l.Lens
		case errors.Is(err, os.ErrNotExist):
			log.Info("calibrate board: no lens calibration", "lens", cfg.Lens)
		default:
			return nil, err
		}
	}
	// The last image where every corner marker is seen; else the one
	// where most are, for the error.
	var best map[int][4]geom.Vec2
	err = grabFrames(ctx, cfg, opt.Images, 1, 0, log, func(i int, name string, m gocv.Mat) error {
		found, err := det.detect(m, geom.Vec2{}, nil)
		if err != nil {
			return err
		}
		seen := map[int][4]geom.Vec2{}
		for _, f := range found {
			seen[f.ID] = f.Corners
		}
		log.Info("calibrate board: frame", "frame", name, "markers", len(found))
		if in.Width != 0 && (m.Cols() != in.Width || m.Rows() != in.Height) {
			return fmt.Errorf("vision: %s is %d×%d, the others %d×%d", name, m.Cols(), m.Rows(), in.Width, in.Height)
		}
		in.Width, in.Height = m.Cols(), m.Rows()
		if n := corners(def, seen); best == nil || n >= corners(def, best) {
			best = seen
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	in.Seen = best
	cal, err := board.Calibrate(def, in)
	if err != nil {
		return nil, err
	}
	cal.Board = opt.Board
	return cal, nil
}

func corners(d *board.Definition, seen map[int][4]geom.Vec2) int {
	n := 0
	for _, m := range d.Markers {
		if _, ok := seen[m.ID]; ok {
			n++
		}
	}
	return n
}

// boardReader counts the pieces on the printed board the config's board:
// calibration names.
type boardReader struct {
	counter *board.Counter
	buf     []byte
}

// openBoard prepares the board counting when the config names a board
// calibration.
func (p *Pipeline) openBoard() error {
	if p.cfg.Board == "" {
		return nil
	}
	cal, err := board.LoadCalibration(p.cfg.Board)
	if err != nil {
		return err
	}
	def, err := board.ForGame(cal.Game, cal.Board)
	if err != nil {
		return err
	}
	k, err := board.NewCounter(def, cal)
	if err != nil {
		return err
	}
	p.board = &boardReader{counter: k}
	return nil
}

// countBoard fills the snapshot's pieces from the frame; a frame it cannot
// read leaves them out, with a warning.
func (p *Pipeline) countBoard(s *Snapshot, frame gocv.Mat) {
	if p.board == nil {
		return
	}
	if frame.Type() != gocv.MatTypeCV8UC3 || !frame.IsContinuous() {
		s.Warnings = append(s.Warnings, "board: the frame is not 8-bit BGR; pieces not counted")
		return
	}
	data, err := frame.DataPtrUint8()
	if err != nil {
		s.Warnings = append(s.Warnings, "board: "+err.Error())
		return
	}
	res, err := p.board.counter.CountBGR(frame.Cols(), frame.Rows(), data)
	if err != nil {
		s.Warnings = append(s.Warnings, err.Error())
		return
	}
	s.Pieces = pieceCounts(res)
	s.Warnings = append(s.Warnings, res.Warnings...)
}
