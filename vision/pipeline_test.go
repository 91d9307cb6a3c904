//go:build cgo

package vision

import (
	"bytes"
	"context"
	"image/jpeg"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/internal/logbuf"
	"github.com/sztab/sztab/vision/synth"
)

// table is a small test table (90 × 60 cm, 12 models) seen at 1280×720,
// about 0.8 mm per pixel: quick to render, the same work per marker.
type table struct {
	scene *synth.Scene
	reg   *Registry
	cal   *Calibration
}

func newTable(t testing.TB, seed uint64) *table {
	t.Helper()
	l := synth.DefaultLayout(900, 600, 12)
	o := synth.Defaults(1280, 720, l)
	o.FrameFiducials = true
	o.MaxYaw = 2
	o.Blur = [2]float64{0.4, 0.7}
	o.Noise = [2]float64{2, 3}
	s, err := synth.Random(o, seed)
	if err != nil {
		t.Fatal(err)
	}
	reg := layoutRegistry(t, l)
	return &table{scene: s, reg: reg, cal: truthCalibration(t, s, reg)}
}

// frames renders a scene once and gives frames of it with fresh noise.
func frames(t testing.TB, s *synth.Scene) func(seed uint64) gocv.Mat {
	t.Helper()
	c, err := s.RenderClean()
	if err != nil {
		t.Fatal(err)
	}
	return func(seed uint64) gocv.Mat {
		im := c.Finish(s.Noise, seed)
		m, err := gocv.NewMatFromBytes(im.Height, im.Width, gocv.MatTypeCV8UC3, im.BGR)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

func quietLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
}

func TestPipelineSequence(t *testing.T) {
	tb := newTable(t, 21)
	base := tb.scene
	withHand := *base
	withHand.Hands = []synth.Hand{{A: vec(-150, 300), B: vec(330, 280), Width: 90, Palm: 60, Height: 150}}
	handMoving := withHand
	handMoving.Hands = []synth.Hand{{A: vec(-150, 300), B: vec(200, 250), Width: 90, Palm: 60, Height: 150}}
	moved := base.Moved(1, 77)
	var movedID string
	for i := range moved.Models {
		if moved.Models[i] != base.Models[i] {
			movedID = moved.Models[i].ID
		}
	}
	a, b, bm, c := frames(t, base), frames(t, &withHand), frames(t, &handMoving), frames(t, moved)

	cfg := testConfig()
	cfg.StillFrames = 3
	p, err := newPipeline(cfg, tb.reg, tb.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var images int
	p.OnImage(func(jpg []byte) {
		if _, err := jpeg.Decode(bytes.NewReader(jpg)); err != nil {
			t.Errorf("annotated image: %v", err)
		}
		images++
	})
	var snaps []Snapshot
	seq := 0
	feed := func(next func(uint64) gocv.Mat, n int) {
		for i := 0; i < n; i++ {
			seq++
			m := next(uint64(seq))
			s, err := p.Process(m, time.Unix(int64(seq), 0))
			m.Close()
			if err != nil {
				t.Fatal(err)
			}
			if s != nil {
				snaps = append(snaps, *s)
			}
		}
	}
	feed(a, 5)
	if len(snaps) != 1 || len(snaps[0].Models) != len(base.Models) {
		t.Fatalf("a still table: got %d snapshots, want 1 with all %d models", len(snaps), len(base.Models))
	}
	if st := p.Stats(); st.Detections != 1 || st.StillFrames != 4 {
		t.Errorf("a still table, 5 frames: got %d detections and %d still frames, want 1 and 4 (noise is no movement)", st.Detections, st.StillFrames)
	}
	first := snaps[0]
	feed(bm, 1)
	feed(b, 3)
	if len(snaps) != 2 {
		t.Fatalf("a hand over the table, then still: got %d snapshots, want 2", len(snaps))
	}
	hand := snaps[1]
	tr := withHand.Truth()
	if len(hand.Missing) == 0 {
		t.Fatal("the hand hides nothing")
	}
	for _, mt := range tr.Models {
		m := findModel(hand, mt.ID)
		switch {
		case mt.Visible == 0 && (m == nil || !m.Occluded):
			t.Errorf("%s is under the hand: got %+v, want it occluded", mt.ID, m)
		case mt.Visible == 1 && (m == nil || m.Occluded):
			t.Errorf("%s is in view: got %+v, want it seen", mt.ID, m)
		}
		if m != nil && m.Occluded {
			was := findModel(first, mt.ID)
			if was == nil || was.X != m.X || was.Y != m.Y {
				t.Errorf("%s occluded at (%g, %g), want its last position %+v", mt.ID, m.X, m.Y, was)
			}
		}
	}
	feed(c, 3)
	if len(snaps) != 3 {
		t.Fatalf("the hand gone, a model moved: got %d snapshots, want 3", len(snaps))
	}
	last := snaps[2]
	if len(last.Missing) != 0 || len(last.Models) != len(base.Models) {
		t.Errorf("got %d models, missing %v; want all, none missing", len(last.Models), last.Missing)
	}
	mt := truthOf(moved.Truth(), movedID)
	if m := findModel(last, movedID); m == nil || math.Hypot(m.X-mt.X, m.Y-mt.Y) > 2 {
		t.Errorf("moved %s: got %+v, want near (%.1f, %.1f)", movedID, m, mt.X, mt.Y)
	}
	feed(c, 3)
	if len(snaps) != 3 {
		t.Errorf("nothing changed: got a snapshot more")
	}
	if images != 3 {
		t.Errorf("annotated images: got %d, want one per snapshot", images)
	}
	for i, s := range snaps {
		if s.Seq != i+1 || s.KrokMM != 25.4 || len(s.Distances) == 0 {
			t.Errorf("snapshot %d: seq %d, krok %g, %d distances", i, s.Seq, s.KrokMM, len(s.Distances))
		}
	}
	jpg, err := p.Annotate(Pair{A: "u1", B: "u2"}, Pair{A: movedID, B: "m01"})
	if err != nil {
		t.Fatal(err)
	}
	if img, err := jpeg.Decode(bytes.NewReader(jpg)); err != nil || img.Bounds().Dx() != 1280 {
		t.Errorf("Annotate: %v", err)
	}

	// a frame of another size is refused; the state stays
	wrong := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	_, err = p.Process(wrong, time.Unix(100, 0))
	wrong.Close()
	if err == nil || !strings.Contains(err.Error(), "for 1280×720 frames, the camera gives 640×480") {
		t.Errorf("a 640×480 frame: got %v", err)
	}
	if s, ok := p.Last(); !ok || s.Seq != 3 {
		t.Errorf("after a bad frame: last snapshot %d, want 3", s.Seq)
	}
}

func findModel(s Snapshot, id string) *ModelPosition {
	for i := range s.Models {
		if s.Models[i].ID == id {
			return &s.Models[i]
		}
	}
	return nil
}

func truthOf(tr *synth.Truth, id string) synth.MarkerTruth {
	for _, m := range tr.Models {
		if m.ID == id {
			return m
		}
	}
	return synth.MarkerTruth{}
}

// writeTableFiles puts a registry and a calibration in dir and returns a
// config that reads them.
func writeTableFiles(t *testing.T, tb *table, dir string) Config {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "markers.yaml"), []byte(registryYAML(sceneLayout(tb.scene))), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tb.cal.Save(filepath.Join(dir, "calibration.yaml")); err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Source: filepath.Join(dir, "frames"), SourceKind: SourceDir, Loop: true, FPS: 20,
		Calibration: filepath.Join(dir, "calibration.yaml"), Markers: filepath.Join(dir, "markers.yaml"),
		Annotated: filepath.Join(dir, "table.jpg"), StillFrames: 3, ReopenAfter: 100 * time.Millisecond,
	}
	cfg.Defaults()
	return cfg
}

func writeFrames(t *testing.T, dir string, next func(uint64) gocv.Mat, n int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		m := next(uint64(i))
		ok := gocv.IMWrite(filepath.Join(dir, "f"+string(rune('a'+i))+".png"), m)
		m.Close()
		if !ok {
			t.Fatal("IMWrite failed")
		}
	}
}

// TestRunCameraDisappears: the source goes away and comes back; Run
// reports it, reopens it and carries on with the state it had.
func TestRunCameraDisappears(t *testing.T) {
	tb := newTable(t, 22)
	dir := t.TempDir()
	cfg := writeTableFiles(t, tb, dir)
	writeFrames(t, cfg.Source, frames(t, tb.scene), 3)
	moved := tb.scene.Moved(2, 5)
	writeFrames(t, filepath.Join(dir, "later"), frames(t, moved), 3)

	var logs logbuf.Buffer
	p, err := Open(cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	got := make(chan Snapshot, 10)
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, func(s Snapshot) { got <- s }) }()

	first := <-got
	if first.Seq != 1 || first.Image != cfg.Annotated {
		t.Errorf("first snapshot: seq %d, image %q", first.Seq, first.Image)
	}
	if _, err := os.Stat(cfg.Annotated); err != nil {
		t.Errorf("annotated image: %v", err)
	}
	// the camera goes: the frames vanish
	if err := os.Rename(cfg.Source, filepath.Join(dir, "gone")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &logs, "cannot open the source")
	// and comes back, seeing a changed table
	if err := os.Rename(filepath.Join(dir, "later"), cfg.Source); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s.Seq != 2 {
			t.Errorf("after the camera came back: snapshot %d, want 2", s.Seq)
		}
	case <-ctx.Done():
		t.Fatalf("no snapshot after the camera came back; log:\n%s", logs.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	if st := p.Stats(); st.Reopens < 1 || st.Errors < 1 {
		t.Errorf("stats: %+v, want a reopen and errors", st)
	}
	for _, want := range []string{"source stopped delivering frames", "cannot open the source"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, logs.String())
		}
	}
}

// TestRunFiniteSource: a directory without loop ends Run.
func TestRunFiniteSource(t *testing.T) {
	tb := newTable(t, 23)
	dir := t.TempDir()
	cfg := writeTableFiles(t, tb, dir)
	cfg.Loop = false
	writeFrames(t, cfg.Source, frames(t, tb.scene), 4)
	p, err := Open(cfg, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var n int
	if err := p.Run(context.Background(), func(Snapshot) { n++ }); err != nil {
		t.Fatal(err)
	}
	if n != 1 || p.Stats().Frames != 4 {
		t.Errorf("got %d snapshots from %d frames, want 1 from 4", n, p.Stats().Frames)
	}
}

func TestOpenAndReloadErrors(t *testing.T) {
	tb := newTable(t, 24)
	dir := t.TempDir()
	cfg := writeTableFiles(t, tb, dir)
	good, _ := os.ReadFile(cfg.Calibration)

	bad := []struct {
		name  string
		setup func()
		err   string
	}{
		{"garbled calibration", func() { os.WriteFile(cfg.Calibration, []byte("homography: {{{"), 0o644) }, "does not parse"},
		{"no calibration", func() { os.Remove(cfg.Calibration) }, "run `sztab calibrate table`"},
		{"other dictionary", func() {
			os.WriteFile(cfg.Calibration, bytes.Replace(good, []byte("dictionary: 4x4_100"), []byte("dictionary: 5x5_100"), 1), 0o644)
		}, "dictionary 5x5_100"},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			b.setup()
			defer os.WriteFile(cfg.Calibration, good, 0o644)
			if _, err := Open(cfg, quietLog()); err == nil || !strings.Contains(err.Error(), b.err) {
				t.Errorf("Open: got %v, want an error containing %q", err, b.err)
			}
		})
	}
	c := cfg
	c.StillFrames = -1
	if _, err := Open(c, quietLog()); err == nil || !strings.Contains(err.Error(), "still_frames") {
		t.Errorf("bad config: got %v", err)
	}

	// Reload with a broken file keeps what the pipeline had
	p, err := Open(cfg, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	os.WriteFile(cfg.Calibration, []byte("nonsense: ["), 0o644)
	if err := p.Reload(); err == nil {
		t.Error("Reload of a broken calibration: no error")
	}
	next := frames(t, tb.scene)
	for i := 0; i < cfg.StillFrames; i++ {
		m := next(uint64(i))
		s, err := p.Process(m, time.Unix(int64(i), 0))
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i == cfg.StillFrames-1 && (s == nil || len(s.Models) != len(tb.scene.Models)) {
			t.Errorf("after a failed reload: got %+v, want a full snapshot", s)
		}
	}
	os.WriteFile(cfg.Calibration, good, 0o644)
	if err := p.Reload(); err != nil {
		t.Errorf("Reload: %v", err)
	}
}

func waitFor(t *testing.T, b *logbuf.Buffer, text string) {
	t.Helper()
	for i := 0; i < 600; i++ {
		if strings.Contains(b.String(), text) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the log never said %q:\n%s", text, b.String())
}
