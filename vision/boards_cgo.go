//go:build cgo

package vision

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"math"
	"os"
	"slices"
	"time"

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
	def, err := cfg.Boards.ForGame(opt.Game, opt.Board)
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
	// stale is set when the image changed since the board was last
	// counted (and when nothing was counted yet); until it is, the last
	// count (pieces, warnings) stands.
	stale    bool
	pieces   []PieceCount
	warnings []string
	// still counts the frames since a board-only camera's board last
	// moved.
	still int
}

// openBoard prepares the board counting when the config names a board
// calibration.
func (p *Pipeline) openBoard() error {
	if p.cfg.Board == "" {
		return nil
	}
	r, err := loadBoardReader(p.cfg.Board, p.cfg.Boards)
	if err != nil {
		return err
	}
	p.board = r
	return nil
}

func loadBoardReader(path string, boards board.Printed) (*boardReader, error) {
	cal, err := board.LoadCalibration(path)
	if err != nil {
		return nil, err
	}
	def, err := boards.ForGame(cal.Game, cal.Board)
	if err != nil {
		return nil, err
	}
	k, err := board.NewCounter(def, cal)
	if err != nil {
		return nil, err
	}
	return &boardReader{counter: k, stale: true}, nil
}

// newBoardOnlyPipeline is the pipeline of a camera over a printed board
// and nothing else (a board game's table): no markers to
// detect, no models; each time the board has changed and then stood still
// for still_frames frames it is counted, and a count (or a warning) that
// differs from the last snapshot's makes a new snapshot. A dice tray in
// the same view is read as on any table.
func newBoardOnlyPipeline(cfg Config, log *slog.Logger) (*Pipeline, error) {
	p := &Pipeline{
		cfg: cfg, log: log,
		tracker:   newTracker(cfg.StillMM, cfg.StillFrames, cfg.ForgetAfter),
		still:     newStillness(cfg.StillDiff),
		snapFrame: gocv.NewMat(),
		lastPx:    map[int]geom.Vec2{},
	}
	if err := p.openBoard(); err != nil {
		p.still.Close()
		p.snapFrame.Close()
		return nil, err
	}
	if cfg.DiceTray != nil {
		var err error
		if p.tray, err = newTrayState(*cfg.DiceTray); err != nil {
			p.still.Close()
			p.snapFrame.Close()
			return nil, err
		}
	}
	return p, nil
}

// reloadBoard reads a board-only camera's board calibration again; on an
// error the pipeline keeps the one it had.
func (p *Pipeline) reloadBoard() error {
	r, err := loadBoardReader(p.cfg.Board, p.cfg.Boards)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.board = r
	p.mu.Unlock()
	p.log.Info("camera: board calibration reloaded", "board", p.cfg.Board)
	return nil
}

// processBoardOnly is process for a board-only camera.
func (p *Pipeline) processBoardOnly(frame gocv.Mat, at time.Time) *Snapshot {
	b := p.board
	changed, moving := p.still.changed(frame)
	if changed { // no marker detection here: Stats.Detections stays 0
		p.still.accept(frame, true)
		b.stale = true
	} else {
		p.stats.StillFrames++
	}
	if changed || moving {
		b.still = 0
	} else {
		b.still++
	}
	p.readTray(frame, !changed)
	if b.stale && b.still+1 >= p.cfg.StillFrames {
		s := Snapshot{Time: at}
		p.countBoard(&s, frame)
		if p.haveSnap && slices.Equal(s.Pieces, p.lastSnap.Pieces) && slices.Equal(s.Warnings, p.lastSnap.Warnings) && (p.tray == nil || !p.tray.fresh) {
			return nil
		}
		return p.finishBoardOnly(&s, frame)
	}
	if p.tray != nil && p.tray.fresh && p.haveSnap {
		s := p.lastSnap
		s.Time, s.Image = at, ""
		return p.finishBoardOnly(&s, frame)
	}
	return nil
}

// finishBoardOnly numbers a board-only snapshot and keeps it with its
// frame and picture.
func (p *Pipeline) finishBoardOnly(s *Snapshot, frame gocv.Mat) *Snapshot {
	p.tracker.seq++
	s.Seq = p.tracker.seq
	s.KrokMM = p.cfg.KrokMM
	p.keep(s, frame, func() ([]byte, error) { return p.annotateBoardOnly(frame, *s) })
	return s
}

// annotateBoardOnly is the frame with the snapshot's number, how many
// pieces were counted and its warnings written over it.
func (p *Pipeline) annotateBoardOnly(frame gocv.Mat, s Snapshot) ([]byte, error) {
	img := bgrCopy(frame)
	defer img.Close()
	scale := math.Max(0.4, float64(img.Cols())/2400)
	pieces, unsure := 0, 0
	for _, c := range s.Pieces {
		pieces += c.Count
		if c.Reason != "" {
			unsure++
		}
	}
	line := int(36 * scale)
	text(&img, fmt.Sprintf("snapshot %d  pieces %d  unsure counts %d", s.Seq, pieces, unsure), image.Pt(line/2, line), scale, colText)
	for i, w := range s.Warnings {
		text(&img, w, image.Pt(line/2, line*(i+2)), 0.8*scale, colOccluded)
	}
	return p.encodeJPEG(img)
}

// countBoard fills the snapshot's pieces from the frame, or from the last
// count when the image has not changed since; a frame it cannot read
// leaves them out, with a warning.
func (p *Pipeline) countBoard(s *Snapshot, frame gocv.Mat) {
	b := p.board
	if b == nil {
		return
	}
	b.refresh(frame)
	s.Pieces = slices.Clone(b.pieces)
	s.Warnings = append(s.Warnings, b.warnings...)
}

// refresh counts the frame when the image changed since the last count.
func (b *boardReader) refresh(frame gocv.Mat) {
	if b.stale {
		b.pieces, b.warnings = b.count(frame)
		b.stale = false
	}
}

func (b *boardReader) count(frame gocv.Mat) ([]PieceCount, []string) {
	if frame.Type() != gocv.MatTypeCV8UC3 || !frame.IsContinuous() {
		return nil, []string{"board: the frame is not 8-bit BGR; pieces not counted"}
	}
	data, err := frame.DataPtrUint8()
	if err != nil {
		return nil, []string{"board: " + err.Error()}
	}
	res, err := b.counter.CountBGR(frame.Cols(), frame.Rows(), data)
	if err != nil {
		return nil, []string{err.Error()}
	}
	return pieceCounts(res), res.Warnings
}
