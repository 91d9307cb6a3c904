//go:build cgo

package vision

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/internal/atomicfile"
	"github.com/sztab/sztab/vision/geom"
)

// Pipeline turns camera frames into table snapshots: it reads the source
// (reopening it when it stops), detects the markers, places the models on
// the table, waits for the table to be still and emits a snapshot with
// the distances and an annotated image.
type Pipeline struct {
	cfg Config
	log *slog.Logger

	mu      sync.Mutex
	reg     *Registry
	cal     *Calibration
	loc     *localiser
	det     *frameDetector
	tracker *tracker
	still   *stillness

	lastObs   []Observation
	haveObs   bool
	sinceFull int               // detections since the last full one
	lastPx    map[int]geom.Vec2 // where each model was last seen, pixels
	regions   []image.Rectangle // the last detection's regions (nil: full)
	drift     string
	snapFrame gocv.Mat
	haveSnap  bool
	lastSnap  Snapshot
	pairs     []Pair
	onImage   func([]byte)
	// pendingImage is the last snapshot's JPEG, for onImage
	pendingImage []byte
	stats        Stats
	lastErr      string
	lastErrAt    time.Time
	closed       bool
	// ter reads cover and table markers on still tables (terrain_pipeline_cgo.go)
	ter   terrainState
	board *boardReader // printed board counting (boards_cgo.go)
	tray  *trayState   // the dice tray (tray.go)
}

// Open loads the marker registry and the calibration the config names and
// prepares the detector. The source is opened by Run.
func Open(cfg Config, log *slog.Logger) (*Pipeline, error) {
	cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	if cfg.boardOnly() {
		return newBoardOnlyPipeline(cfg, log) // boards_cgo.go
	}
	reg, err := LoadRegistry(cfg.Markers)
	if err != nil {
		return nil, err
	}
	cal, err := LoadCalibration(cfg.Calibration)
	if err != nil {
		return nil, err
	}
	if why := cal.Outdated(); why != "" {
		log.Warn("camera: "+why, "calibration", cfg.Calibration)
	}
	p, err := newPipeline(cfg, reg, cal, log)
	if err != nil {
		return nil, err
	}
	// terrain (terrain_pipeline_cgo.go)
	if err := p.loadTerrain(); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// newPipeline builds a pipeline from a checked config, a registry and a
// calibration.
func newPipeline(cfg Config, reg *Registry, cal *Calibration, log *slog.Logger) (*Pipeline, error) {
	if err := checkPair(reg, cal); err != nil {
		return nil, err
	}
	det, err := newFrameDetector(reg, DefaultDetectorParams())
	if err != nil {
		return nil, err
	}
	p := &Pipeline{
		cfg: cfg, log: log, reg: reg, cal: cal, det: det,
		loc:       newLocaliser(cal, reg),
		tracker:   newTracker(cfg.StillMM, cfg.StillFrames, cfg.ForgetAfter),
		still:     newStillness(cfg.StillDiff),
		snapFrame: gocv.NewMat(),
		lastPx:    map[int]geom.Vec2{},
	}
	if err := p.openBoard(); err != nil { // printed boards (boards_cgo.go)
		p.snapFrame.Close()
		det.Close()
		return nil, err
	}
	if cfg.DiceTray != nil {
		if p.tray, err = newTrayState(*cfg.DiceTray); err != nil {
			p.snapFrame.Close()
			det.Close()
			return nil, err
		}
	}
	return p, nil
}

func checkPair(reg *Registry, cal *Calibration) error {
	if cal.Dictionary != "" && cal.Dictionary != reg.Dictionary {
		return fmt.Errorf("vision: the calibration was made with dictionary %s, the marker registry uses %s: recalibrate", cal.Dictionary, reg.Dictionary)
	}
	return nil
}

// Close frees the pipeline's OpenCV memory. Call it after Run returns.
func (p *Pipeline) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	if p.det != nil {
		p.det.Close()
	}
	p.still.Close()
	p.ter.close()
	if p.tray != nil {
		p.tray.reader.Close()
	}
	return p.snapFrame.Close()
}

// OnImage sets the function handed each snapshot's annotated JPEG (to
// publish it for displays). Call it before Run.
func (p *Pipeline) OnImage(f func(jpeg []byte)) {
	p.mu.Lock()
	p.onImage = f
	p.mu.Unlock()
}

// Measure sets the pairs (model ids or unit names) whose distances are
// drawn on the next snapshots' images, replacing the previous ones.
func (p *Pipeline) Measure(pairs ...Pair) {
	p.mu.Lock()
	p.pairs = append([]Pair(nil), pairs...)
	p.mu.Unlock()
}

// Annotate draws the last snapshot again with the given pairs' distances
// and returns the JPEG.
func (p *Pipeline) Annotate(pairs ...Pair) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.haveSnap {
		return nil, errors.New("vision: no snapshot yet")
	}
	if p.reg == nil {
		return p.annotateBoardOnly(p.snapFrame, p.lastSnap)
	}
	return p.annotate(p.snapFrame, p.lastSnap, pairs)
}

// Last is the last snapshot emitted.
func (p *Pipeline) Last() (Snapshot, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastSnap, p.haveSnap
}

// Stats are the pipeline's counters.
func (p *Pipeline) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// Reload reads the marker registry and the calibration again (after
// `sztab calibrate`). On any error the pipeline keeps what it had.
func (p *Pipeline) Reload() error {
	if p.cfg.boardOnly() {
		return p.reloadBoard() // boards_cgo.go
	}
	reg, err := LoadRegistry(p.cfg.Markers)
	if err != nil {
		return err
	}
	cal, err := LoadCalibration(p.cfg.Calibration)
	if err != nil {
		return err
	}
	if err := checkPair(reg, cal); err != nil {
		return err
	}
	tr, err := p.terrainReaderFor(reg, cal)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if reg.Dictionary != p.reg.Dictionary {
		det, err := newFrameDetector(reg, DefaultDetectorParams())
		if err != nil {
			if tr != nil {
				tr.Close()
			}
			return err
		}
		p.det.Close()
		p.det = det
	} else {
		p.det.reg = reg
	}
	p.reg, p.cal, p.loc = reg, cal, newLocaliser(cal, reg)
	p.useTerrainReader(tr) // terrain (terrain_pipeline_cgo.go)
	p.haveObs = false
	if why := cal.Outdated(); why != "" {
		p.log.Warn("camera: "+why, "calibration", p.cfg.Calibration)
	}
	p.log.Info("camera: calibration and markers reloaded", "calibration_rms_mm", cal.Error.RMSMM, "calibration_holdout_mm", cal.Error.HoldoutMM, "models", len(reg.Models))
	return nil
}

// Run reads frames until ctx ends and calls emit with each snapshot (on
// Run's goroutine). A source that fails to open or stops delivering frames
// is reported and reopened, with backoff; a bad frame is reported and
// skipped, the last good state is kept. Run returns nil when ctx ends or
// when a file or directory source without loop has been read to its end.
func (p *Pipeline) Run(ctx context.Context, emit func(Snapshot)) error {
	frame := gocv.NewMat()
	defer frame.Close()
	backoff := 500 * time.Millisecond
	for ctx.Err() == nil {
		src, err := openSource(p.cfg)
		if err != nil {
			p.count(func(s *Stats) { s.Errors++ })
			p.log.Warn("camera: cannot open the source; trying again", "source", p.cfg.Source, "err", err, "in", backoff)
			if !sleep(ctx, backoff) {
				return nil
			}
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		p.log.Info("camera: source open", "source", src.Name())
		delivered, err := p.readAll(ctx, src, &frame, emit)
		src.Close()
		if delivered {
			backoff = 500 * time.Millisecond
		}
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, io.EOF):
			p.log.Info("camera: source ended", "source", src.Name())
			return nil
		}
		p.count(func(s *Stats) { s.Reopens++ })
		p.log.Warn("camera: the source stopped delivering frames; reopening it", "source", src.Name(), "err", err, "in", backoff)
		if !sleep(ctx, backoff) {
			return nil
		}
		backoff = min(2*backoff, 30*time.Second)
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (p *Pipeline) count(f func(*Stats)) {
	p.mu.Lock()
	f(&p.stats)
	p.mu.Unlock()
}

// readAll processes frames until the source fails; delivered says whether
// any frame came.
func (p *Pipeline) readAll(ctx context.Context, src frameSource, frame *gocv.Mat, emit func(Snapshot)) (delivered bool, err error) {
	last := time.Now()
	for ctx.Err() == nil {
		err := src.Read(frame)
		if errors.Is(err, io.EOF) {
			return delivered, err
		}
		if err != nil {
			if time.Since(last) > p.cfg.ReopenAfter {
				return delivered, fmt.Errorf("no frame for %v: %w", time.Since(last).Round(time.Millisecond), err)
			}
			sleep(ctx, 20*time.Millisecond)
			continue
		}
		delivered, last = true, time.Now()
		snap, err := p.Process(*frame, src.Time())
		if err != nil {
			p.report(err)
			continue
		}
		if snap != nil && emit != nil {
			emit(*snap)
		}
	}
	return delivered, nil
}

// report logs a frame error, once per minute for the same error.
func (p *Pipeline) report(err error) {
	p.mu.Lock()
	p.stats.Errors++
	msg := err.Error()
	again := msg == p.lastErr && time.Since(p.lastErrAt) < time.Minute
	if !again {
		p.lastErr, p.lastErrAt = msg, time.Now()
	}
	p.mu.Unlock()
	if !again {
		p.log.Warn("camera: frame skipped", "err", err)
	}
}

// Process takes one frame (BGR) taken at at and returns the snapshot it
// completes, if any. Run calls it for every frame; tests and tools can
// feed frames directly. The OnImage function is called before Process
// returns, outside the pipeline's lock.
func (p *Pipeline) Process(frame gocv.Mat, at time.Time) (*Snapshot, error) {
	p.mu.Lock()
	snap, err := p.process(frame, at)
	onImage, jpg := p.onImage, p.pendingImage
	p.pendingImage = nil
	p.mu.Unlock()
	if onImage != nil && jpg != nil {
		onImage(jpg)
	}
	return snap, err
}

func (p *Pipeline) process(frame gocv.Mat, at time.Time) (*Snapshot, error) {
	if p.closed {
		return nil, errors.New("vision: pipeline closed")
	}
	p.stats.Frames++
	p.stats.LastFrame = at
	if frame.Empty() {
		return nil, errors.New("vision: empty frame")
	}
	if p.reg == nil {
		return p.processBoardOnly(frame, at), nil // boards_cgo.go
	}
	if err := p.cal.CheckSize(frame.Cols(), frame.Rows()); err != nil {
		return nil, err
	}
	changed, shrunk, moving := true, false, false
	if p.cfg.StillDiff > 0 {
		changed, moving = p.still.changed(frame)
		shrunk = true
		if !p.haveObs {
			changed = true
		}
	}
	obs := p.lastObs
	if changed {
		p.ter.stale = true // terrain: read again once the table is still
		if p.board != nil {
			p.board.stale = true // and the printed board counted again
		}
		regions := p.changedRegions(frame, shrunk)
		p.regions = regions
		var err error
		obs, err = p.detectFrame(frame, regions)
		if err != nil {
			p.haveObs = false
			return nil, err
		}
		if regions == nil {
			p.sinceFull = 0
		} else {
			p.sinceFull++
			p.stats.RegionDetections++
		}
		if p.cfg.StillDiff > 0 {
			p.still.accept(frame, shrunk)
		}
		p.lastObs, p.haveObs = obs, true
		for _, o := range obs {
			p.lastPx[o.Model.Marker] = quadCentre(o.Corners)
		}
		p.stats.Detections++
	} else {
		p.stats.StillFrames++
	}
	p.readTray(frame, !changed)
	snap, ok := p.tracker.observe(obs, at, moving)
	if !ok {
		if s := p.trayOnly(frame, at); s != nil {
			return s, nil
		}
		// only the terrain, the table markers or the board may have
		// changed
		return p.stillTableChange(frame, at, moving), nil
	}
	p.finish(&snap, frame)
	return &snap, nil
}

// readTray reads the dice tray in the frame, if the camera has one; same
// says the frame did not change since the last one read.
func (p *Pipeline) readTray(frame gocv.Mat, same bool) {
	if p.tray == nil {
		return
	}
	if frame.Type() != gocv.MatTypeCV8UC3 || !frame.IsContinuous() {
		p.tray.err = "dice tray: the frame is not 8-bit BGR; the tray is not read"
		return
	}
	data, err := frame.DataPtrUint8()
	if err != nil {
		p.tray.err = "dice tray: " + err.Error()
		return
	}
	p.tray.observe(frame.Cols(), frame.Rows(), 3*frame.Cols(), data, same)
}

// trayOnly is the last snapshot again with the tray's new settled reading,
// when the tray settled on a new throw and the table's models did not
// move (a throw does not move them).
func (p *Pipeline) trayOnly(frame gocv.Mat, at time.Time) *Snapshot {
	if p.tray == nil || !p.tray.fresh || !p.haveSnap {
		return nil
	}
	return p.lastAgain(frame, at)
}

// lastAgain is the last snapshot again, numbered anew and finished on the
// frame: its models did not move, what else it carries is read again.
func (p *Pipeline) lastAgain(frame gocv.Mat, at time.Time) *Snapshot {
	s := p.lastSnap
	s.Models = slices.Clone(s.Models)
	s.Warnings, s.Image, s.Time = nil, "", at
	p.tracker.seq++
	s.Seq = p.tracker.seq
	p.finish(&s, frame)
	return &s
}

// stillTableChange is the snapshot of a still table where no model moved
// but the image changed: cover moved, a template or objective marker laid
// or taken away, a piece moved on the printed board, the light changed.
// It is nil when the terrain and the board read as they did.
func (p *Pipeline) stillTableChange(frame gocv.Mat, at time.Time, moving bool) *Snapshot {
	t, b := &p.ter, p.board
	terrain := t.reader != nil && t.stale
	board := b != nil && b.stale
	if !terrain && !board || !p.haveSnap || moving || p.tracker.run < p.tracker.stillFrames {
		return nil
	}
	before, beforeM, beforeW := t.terrain, t.markers, t.warnings
	p.readTerrain(frame, p.lastSnap.Models)
	same := sameTerrain(before, t.terrain) && sameMarkers(beforeM, t.markers) && slices.Equal(beforeW, t.warnings)
	if board {
		pieces, warnings := b.pieces, b.warnings
		b.refresh(frame)
		same = same && slices.Equal(pieces, b.pieces) && slices.Equal(warnings, b.warnings)
	}
	if same {
		return nil
	}
	return p.lastAgain(frame, at)
}

// regionInset: a marker nearer a region's edge than this is not looked
// for in the region; it keeps its last observation (it did not change: a
// region reaches far beyond every change).
const regionInset = 16

// changedRegions are the parts of the frame worth a detection when only
// they changed since the last detected frame, or nil for a full detection:
// the first frames, every FullEvery-th detection (a marker the change
// mask missed is found again), or when the changes cover more than half
// the frame (then a region search saves nothing).
func (p *Pipeline) changedRegions(frame gocv.Mat, shrunk bool) []image.Rectangle {
	if !shrunk || !p.haveObs || p.cfg.FullEvery < 0 || p.sinceFull+1 >= p.cfg.FullEvery {
		return nil
	}
	// a region holds, at least regionInset pixels inside, every marker a
	// changed block touches: grow the blocks by the largest marker's
	// diagonal (1.42 sides) where the table is seen largest (up to 1.3 ×
	// its scale at the centre with a 20° tilt), and by the inset
	px := p.cal.MMPerPx
	if px <= 0 {
		return nil
	}
	margin := int(2*p.reg.maxSide/px) + regionInset
	rs, ok := p.still.changedRegions(margin, frame.Cols(), frame.Rows())
	if !ok || len(rs) == 0 {
		return nil
	}
	// a model the last detection missed (noise, glare) is looked for again
	// where it was last seen, as a full detection would
	seen := map[int]bool{}
	for _, o := range p.lastObs {
		seen[o.Model.Marker] = true
	}
	frameRect := image.Rect(0, 0, frame.Cols(), frame.Rows())
	for id, c := range p.lastPx {
		if !seen[id] {
			x, y := int(c.X), int(c.Y)
			rs = append(rs, image.Rect(x-margin, y-margin, x+margin, y+margin).Intersect(frameRect))
		}
	}
	rs = mergeOverlapping(rs)
	if 2*regionsArea(rs) > frame.Cols()*frame.Rows() {
		return nil
	}
	return rs
}

// detectFrame finds and places every registered model in the frame, or
// only in regions when they are given: then the models seen last time
// and not wholly inside a region keep their observations (a region holds
// every marker a change touched, grown by a marker's size, so a marker
// not wholly inside did not change; and only one wholly inside can be
// found again there),
// the fiducials are not looked at, and the camera-drift warning stands.
func (p *Pipeline) detectFrame(frame gocv.Mat, regions []image.Rectangle) ([]Observation, error) {
	det, err := p.det.detectIn(frame, regions, true)
	if err != nil {
		return nil, err
	}
	byMarker := map[int][]Observation{}
	var placed []RawMarker
	place := func(ms []detected) {
		for _, m := range ms {
			o, err := p.loc.locate(m.RawMarker, m.refined)
			if err != nil {
				p.log.Debug("camera: marker dropped", "marker", m.ID, "err", err)
				continue
			}
			byMarker[m.ID] = append(byMarker[m.ID], o)
			placed = append(placed, m.RawMarker)
		}
	}
	place(det.models)
	rec := p.recover(&det, placed, byMarker)
	p.stats.Recovered += len(rec)
	place(rec)
	if regions != nil {
		for _, o := range p.lastObs {
			if _, found := byMarker[o.Model.Marker]; found || quadInRegions(regions, o.Corners, regionInset) {
				continue
			}
			byMarker[o.Model.Marker] = []Observation{o}
		}
	}
	var markers []int
	for id := range byMarker {
		markers = append(markers, id)
	}
	sort.Ints(markers)
	obs := make([]Observation, 0, len(markers))
	for _, id := range markers {
		os := byMarker[id]
		best := os[0]
		if len(os) > 1 {
			// the same marker twice: keep the one nearest where it was
			if prev, ok := p.tracker.known[id]; ok {
				for _, o := range os[1:] {
					if o.Pos.Dist(geom.Vec2{X: prev.X, Y: prev.Y}) < best.Pos.Dist(geom.Vec2{X: prev.X, Y: prev.Y}) {
						best = o
					}
				}
			}
			p.log.Warn("camera: a marker is seen twice; is it printed twice?", "marker", id, "model", best.Model.ID)
		}
		obs = append(obs, best)
	}
	if regions != nil {
		return obs, nil
	}
	// has the camera moved?
	p.drift = ""
	if rms, n := p.loc.fiducialDrift(det.fiducials); n >= 2 && rms > 3*p.cfg.MaxErrorPx {
		p.drift = fmt.Sprintf("the fiducials are %.1f px from where the calibration puts them: has the camera moved? Recalibrate (`sztab calibrate table`)", rms)
	}
	return obs, nil
}

// recover reads the candidates OpenCV rejected with the pipeline's own
// decoder: blurred small markers OpenCV's bit reader gives up on. Only
// candidates of a registered marker's size on the table, not on top of a
// marker already placed, and only registered models not yet seen.
func (p *Pipeline) recover(det *detection, placed []RawMarker, seen map[int][]Observation) []detected {
	if len(det.rejected) == 0 {
		return nil
	}
	have := map[int]bool{}
	for id := range seen {
		have[id] = true
	}
	reg := p.reg
	inv, err := p.loc.inverse(reg.Defaults.HeightMM)
	if err != nil {
		return nil
	}
	minS, maxS := 0.75*reg.minSide, 1.3*reg.maxSide
	allowed := func(id int) bool {
		_, ok := reg.Model(id)
		return ok && !have[id]
	}
	cells := reg.Dict().Size + 2
	// pick the candidates worth a look (sequentially: cheap), read them in
	// parallel, then take them in order
	type cand struct {
		corners [4]geom.Vec2
		inside  bool
	}
	var cands []cand
	var tried [][4]geom.Vec2
	for _, r := range det.rejected {
		side := 0.0
		var tc [4]geom.Vec2
		for k := range r.Corners {
			tc[k] = inv.Apply(p.cal.Lens.Ideal(r.Corners[k]))
		}
		for k := 0; k < 4; k++ {
			side += tc[k].Dist(tc[(k+1)%4]) / 4
		}
		if side < minS || side > maxS {
			continue
		}
		c := r.Centre()
		overlap := false
		for _, m := range placed {
			if insideQuad(m.Corners, c) || insideQuad(r.Corners, m.Centre()) {
				overlap = true
				break
			}
		}
		// OpenCV finds the same blob at several threshold windows
		for _, q := range tried {
			if insideQuad(q, c) {
				overlap = true
				break
			}
		}
		if overlap {
			continue
		}
		tried = append(tried, r.Corners)
		cands = append(cands, cand{corners: r.Corners, inside: side > 1.15*reg.minSide})
	}
	if len(have) >= len(reg.Models) || len(cands) == 0 {
		return nil
	}
	type result struct {
		d       Decoded
		refined bool
		ok      bool
	}
	res := make([]result, len(cands))
	parallel(len(cands), func(i int) {
		d, refined, ok := readCandidate(&det.gray, cands[i].corners, cells, reg.Dict(), allowed, cands[i].inside)
		res[i] = result{d, refined, ok}
	})
	var out []detected
	for _, r := range res {
		if !r.ok || have[r.d.ID] {
			continue
		}
		overlap := false
		for _, m := range out {
			if insideQuad(m.Corners, diagonalCross(r.d.Corners)) {
				overlap = true
				break
			}
		}
		if overlap {
			continue
		}
		have[r.d.ID] = true
		out = append(out, detected{RawMarker: RawMarker{ID: r.d.ID, Corners: r.d.Corners}, refined: r.refined, recovered: true})
	}
	return out
}

// finish completes a snapshot: distances, warnings, the annotated image.
func (p *Pipeline) finish(s *Snapshot, frame gocv.Mat) {
	s.KrokMM = p.cfg.KrokMM
	s.CalibrationMM = p.cal.Error.PositionMM()
	p.applyTerrain(s, frame)
	switch p.cfg.Distances {
	case DistancesAll:
		s.Distances = s.ModelDistances(p.cfg.KrokMM)
	case DistancesUnits:
		s.Distances = s.UnitDistances(p.cfg.KrokMM)
	}
	if p.drift != "" {
		s.Warnings = append(s.Warnings, p.drift)
	}
	if len(s.Missing) > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("not seen: %v; kept at their last known positions", s.Missing))
	}
	p.countBoard(s, frame) // printed boards (boards_cgo.go)
	p.keep(s, frame, func() ([]byte, error) { return p.annotate(frame, *s, p.pairs) })
}

// keep completes a snapshot of the frame: the dice tray's reading, the
// counters, the frame kept for Annotate, the annotated image drawn (when
// wanted), and the snapshot kept as the last.
func (p *Pipeline) keep(s *Snapshot, frame gocv.Mat, draw func() ([]byte, error)) {
	if p.tray != nil {
		p.tray.fill(s)
	}
	p.stats.Snapshots++
	frame.CopyTo(&p.snapFrame)
	p.haveSnap = true
	if p.cfg.Annotated != "" || p.onImage != nil {
		p.keepImage(s, draw)
	}
	p.lastSnap = *s
}

// keepImage draws the snapshot's annotated image, writes it where the
// config says and keeps it for OnImage.
func (p *Pipeline) keepImage(s *Snapshot, draw func() ([]byte, error)) {
	jpg, err := draw()
	if err != nil {
		p.log.Warn("camera: annotated image", "err", err)
		return
	}
	if p.cfg.Annotated != "" {
		if err := atomicfile.Write(p.cfg.Annotated, jpg, 0o644); err != nil {
			p.log.Warn("camera: annotated image", "err", err)
		} else {
			s.Image = p.cfg.Annotated
		}
	}
	p.pendingImage = jpg
}

// stillness compares each frame, shrunk eightfold, with the last frame that
// went through detection (no block changed by more than thr grey levels:
// nothing on the table moved, the detection stands) and with the frame
// before (something moving in view: a hand).
type stillness struct {
	thr                         float64
	small, gray, ref, prev, tmp gocv.Mat
	have, havePrev              bool
}

func newStillness(thr float64) *stillness {
	return &stillness{thr: thr, small: gocv.NewMat(), gray: gocv.NewMat(), ref: gocv.NewMat(), prev: gocv.NewMat(), tmp: gocv.NewMat()}
}

func (s *stillness) Close() {
	s.small.Close()
	s.gray.Close()
	s.ref.Close()
	s.prev.Close()
	s.tmp.Close()
}

// differs reports whether any block of a and b differs by more than thr.
func (s *stillness) differs(a, b gocv.Mat) bool {
	if a.Cols() != b.Cols() || a.Rows() != b.Rows() {
		return true
	}
	gocv.AbsDiff(a, b, &s.tmp)
	gocv.Threshold(s.tmp, &s.tmp, float32(s.thr), 255, gocv.ThresholdBinary)
	return gocv.CountNonZero(s.tmp) > 0
}

func (s *stillness) shrink(frame gocv.Mat) {
	sz := image.Point{X: max(frame.Cols()/8, 1), Y: max(frame.Rows()/8, 1)}
	gocv.Resize(frame, &s.small, sz, 0, 0, gocv.InterpolationArea)
	if s.small.Channels() == 1 {
		s.small.CopyTo(&s.gray)
	} else {
		gocv.CvtColor(s.small, &s.gray, gocv.ColorBGRToGray)
	}
}

// changedRegions are the frame's rectangles (frame size fw×fh) around the
// blocks of the last shrunk frame that differ from the reference, each
// grown by margin pixels; false when the two cannot be compared.
func (s *stillness) changedRegions(margin, fw, fh int) ([]image.Rectangle, bool) {
	if !s.have || s.gray.Cols() != s.ref.Cols() || s.gray.Rows() != s.ref.Rows() {
		return nil, false
	}
	gocv.AbsDiff(s.gray, s.ref, &s.tmp)
	gocv.Threshold(s.tmp, &s.tmp, float32(s.thr), 255, gocv.ThresholdBinary)
	pix, err := s.tmp.DataPtrUint8()
	if err != nil {
		return nil, false
	}
	scale := max(fw/max(s.tmp.Cols(), 1), 1)
	return changedRegions(pix, s.tmp.Cols(), s.tmp.Rows(), s.tmp.Step(), scale, 4, margin, fw, fh), true
}

// changed reports whether frame differs from the reference (the last
// detected frame) and whether it moved since the previous frame.
func (s *stillness) changed(frame gocv.Mat) (changed, moving bool) {
	s.shrink(frame)
	changed = !s.have || s.differs(s.gray, s.ref)
	moving = s.havePrev && s.differs(s.gray, s.prev)
	s.gray.CopyTo(&s.prev)
	s.havePrev = true
	return changed, moving
}

// accept makes frame the reference; shrunk says changed just shrank it.
func (s *stillness) accept(frame gocv.Mat, shrunk bool) {
	if !shrunk {
		s.shrink(frame)
	}
	s.gray.CopyTo(&s.ref)
	s.have = true
}
