//go:build cgo

package vision

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/board"
	"github.com/sztab/sztab/vision/synth"
)

// testBoard is the camera tests' printed board (testdata/zones-board.yaml)
// seen by a synthetic camera at 960×720, with its calibration saved in a
// temporary file; boards are the printed boards the config hands in.
type testBoard struct {
	def    *board.Definition
	cam    synth.Camera
	path   string
	boards board.Printed
}

func newTestBoard(t *testing.T) testBoard {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "zones-board.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	boards := board.Printed{"zones": data}
	d, err := boards.Builtin("zones")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "board.yaml")
	cam, err := synth.SavedBoard(d, path)
	if err != nil {
		t.Fatal(err)
	}
	return testBoard{def: d, cam: cam, path: path, boards: boards}
}

// frame renders the board with the pieces (noise drawn from seed).
func (b testBoard) frame(t *testing.T, seed uint64, pieces ...synth.BoardPiece) gocv.Mat {
	t.Helper()
	im, err := synth.RenderBoard(&synth.BoardScene{Def: b.def, Camera: b.cam, Noise: 2, Pieces: pieces}, seed)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gocv.NewMatFromBytes(im.Height, im.Width, gocv.MatTypeCV8UC3, im.BGR)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func pieceMap(s Snapshot) map[string]int {
	got := map[string]int{}
	for _, c := range s.Pieces {
		got[c.Node+"/"+c.Colour] = c.Count
	}
	return got
}

// feeder runs frames through the pipeline, a second apart, and gives the
// snapshots they made.
func feeder(t *testing.T, p *Pipeline) func(frames ...gocv.Mat) []Snapshot {
	clock := 0
	return func(frames ...gocv.Mat) []Snapshot {
		t.Helper()
		var out []Snapshot
		for _, m := range frames {
			clock++
			s, err := p.Process(m, time.Unix(int64(clock), 0))
			if err != nil {
				t.Fatalf("frame %d: %v", clock, err)
			}
			if s != nil {
				out = append(out, *s)
			}
		}
		return out
	}
}

func TestPipelineCountsBoard(t *testing.T) {
	bb := newTestBoard(t)
	path := bb.path
	p := &Pipeline{cfg: Config{Board: path, Boards: bb.boards}}
	if err := p.openBoard(); err != nil {
		t.Fatal(err)
	}
	frame := bb.frame(t, 3, synth.BoardPiece{Colour: "wp", X: 100, Y: 130}, synth.BoardPiece{Colour: "acz", X: 500, Y: 300}, synth.BoardPiece{Colour: "acz", X: 510, Y: 300})
	defer frame.Close()
	var s Snapshot
	p.countBoard(&s, frame)
	got := pieceMap(s)
	if len(s.Pieces) != 14 || got["N2/wp"] != 1 || got["S2/acz"] != 2 || len(s.Warnings) != 0 {
		t.Errorf("pieces %+v, warnings %v", s.Pieces, s.Warnings)
	}
	small := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV8UC3)
	defer small.Close()
	// the same image: the last count stands, not counted again
	s = Snapshot{}
	p.countBoard(&s, small)
	if got := pieceMap(s); got["S2/acz"] != 2 || len(s.Warnings) != 0 {
		t.Errorf("no change since the last count: %+v", s)
	}
	p.board.stale = true // as the pipeline marks a changed image
	s = Snapshot{}
	p.countBoard(&s, small)
	if len(s.Pieces) != 0 || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "10×10") {
		t.Errorf("a frame of another size: %+v", s)
	}
	bad := &Pipeline{cfg: Config{Board: filepath.Join(t.TempDir(), "none.yaml")}}
	if err := bad.openBoard(); err == nil || !strings.Contains(err.Error(), "board: calibration") {
		t.Errorf("a missing board calibration: %v", err)
	}
}

// A camera over a printed board and nothing else needs no table
// calibration or marker registry: the board is counted each time it has
// changed and then stood still, a new count makes a snapshot of its own
// (no model moved: there are none), a hand moving over it makes none, and
// the same count again makes none.
func TestBoardOnlyPipeline(t *testing.T) {
	bb := newTestBoard(t)
	p, err := Open(Config{Source: "unused", Board: bb.path, Boards: bb.boards, StillFrames: 3}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var imgs int
	p.OnImage(func([]byte) { imgs++ })
	run := feeder(t, p)
	one := []synth.BoardPiece{{Colour: "wp", X: 100, Y: 130}, {Colour: "acz", X: 500, Y: 300}}
	moved := []synth.BoardPiece{{Colour: "wp", X: 100, Y: 130}, {Colour: "acz", X: 500, Y: 300}, {Colour: "acz", X: 510, Y: 300}}
	a1, a2, a3, a4 := bb.frame(t, 1, one...), bb.frame(t, 2, one...), bb.frame(t, 3, one...), bb.frame(t, 4, one...)
	b1, b2, b3 := bb.frame(t, 5, moved...), bb.frame(t, 6, moved...), bb.frame(t, 7, moved...)
	for _, m := range []gocv.Mat{a1, a2, a3, a4, b1, b2, b3} {
		defer m.Close()
	}

	snaps := run(a1, a2, a3, a4, a1, a2)
	if len(snaps) != 1 || snaps[0].Seq != 1 || pieceMap(snaps[0])["S2/acz"] != 1 || pieceMap(snaps[0])["N2/wp"] != 1 {
		t.Fatalf("a still board: want one snapshot with its count, got %+v", snaps)
	}
	if imgs != 1 {
		t.Errorf("annotated images: %d, want 1", imgs)
	}
	// a board flickering between two states (a hand over it) is not still
	if snaps := run(b1, a1, b2, a2, b3, a3); len(snaps) != 0 {
		t.Errorf("a moving board made snapshots: %+v", snaps)
	}
	// the piece stays: counted once it is still
	snaps = run(b1, b2, b3, b1, b2)
	if len(snaps) != 1 || snaps[0].Seq != 2 || pieceMap(snaps[0])["S2/acz"] != 2 {
		t.Fatalf("a piece added: want snapshot 2 with 2 in S2, got %+v", snaps)
	}
	// taken away again, and put back exactly: a snapshot each time
	if snaps := run(a1, a2, a3); len(snaps) != 1 || pieceMap(snaps[0])["S2/acz"] != 1 {
		t.Errorf("the piece taken away: %+v", snaps)
	}
	if err := p.UseTerrain(&TerrainCalibration{}); err == nil || !strings.Contains(err.Error(), "board-only") {
		t.Errorf("terrain on a board-only camera: %v", err)
	}
	if jpg, err := p.Annotate(); err != nil || len(jpg) < 100 {
		t.Errorf("Annotate: %d bytes, %v", len(jpg), err)
	}
	// a frame of another size: a warning in the next snapshot, nothing lost
	small := gocv.NewMatWithSize(720/2, 960/2, gocv.MatTypeCV8UC3)
	defer small.Close()
	snaps = run(small, small, small)
	if len(snaps) != 1 || len(snaps[0].Pieces) != 0 || !hasWarning(snaps[0], "480×360") {
		t.Errorf("a frame of another size: %+v", snaps)
	}
	if st := p.Stats(); st.Detections != 0 || st.Snapshots != 4 || st.StillFrames == 0 {
		t.Errorf("stats %+v: a board-only camera detects no markers", st)
	}
	last, _ := p.Last()
	if last.Seq != 4 {
		t.Errorf("last snapshot %d, want 4", last.Seq)
	}
	// a damaged board file on reload: refused, the board kept
	if err := os.WriteFile(bb.path, []byte("game: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.Reload(); err == nil {
		t.Error("a damaged board calibration reloaded")
	}
	if snaps := run(a1, a2, a3); len(snaps) != 1 || pieceMap(snaps[0])["S2/acz"] != 1 {
		t.Errorf("after a refused reload: %+v", snaps)
	}
}

func TestBoardOnlyConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"board alone", Config{Source: "x", Board: "b.yaml"}, ""},
		{"board with the table's files", Config{Source: "x", Board: "b.yaml", Calibration: "c.yaml", Markers: "m.yaml"}, ""},
		{"nothing", Config{Source: "x"}, "camera.calibration: is empty"},
		{"calibration without markers", Config{Source: "x", Calibration: "c.yaml"}, "camera.markers: is empty"},
		{"markers without calibration", Config{Source: "x", Board: "b.yaml", Markers: "m.yaml"}, "camera.calibration: is empty"},
		{"terrain on a board-only camera", Config{Source: "x", Board: "b.yaml", Terrain: "t.yaml"}, "camera.terrain: needs the table calibration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.cfg
			c.Defaults()
			err := c.Validate()
			if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Validate: %v, want %q", err, tc.want)
			}
		})
	}
}

// A camera over both the skirmish table (its calibration and markers) and
// a printed board: a piece moved on the board while no model moves makes a
// snapshot of its own once the frame is still, and the same count again
// makes none. (The frames here show the board alone: no model is seen.)
func TestTableCameraCountsBoardChange(t *testing.T) {
	bb := newTestBoard(t)
	l := synth.DefaultLayout(900, 600, 12)
	o := synth.Defaults(960, 720, l)
	o.FrameFiducials = true
	s, err := synth.Random(o, 5)
	if err != nil {
		t.Fatal(err)
	}
	reg := layoutRegistry(t, l)
	cfg := testConfig()
	cfg.Board, cfg.Boards, cfg.StillFrames = bb.path, bb.boards, 2
	p, err := newPipeline(cfg, reg, truthCalibration(t, s, reg), quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.openBoard(); err != nil {
		t.Fatal(err)
	}
	one := []synth.BoardPiece{{Colour: "wp", X: 100, Y: 130}, {Colour: "acz", X: 500, Y: 300}}
	moved := append(slices.Clone(one), synth.BoardPiece{Colour: "acz", X: 510, Y: 300})
	var frames []gocv.Mat
	for i := range 4 {
		frames = append(frames, bb.frame(t, uint64(i+1), one...))
	}
	for i := range 4 {
		frames = append(frames, bb.frame(t, uint64(i+11), moved...))
	}
	defer func() {
		for _, m := range frames {
			m.Close()
		}
	}()
	run := feeder(t, p)
	snaps := run(frames[:4]...)
	if len(snaps) == 0 || pieceMap(snaps[len(snaps)-1])["S2/acz"] != 1 {
		t.Fatalf("the table still: want a snapshot with the board's count, got %+v", snaps)
	}
	counts := 0
	snaps = run(frames[4:]...)
	for _, s := range snaps {
		if pieceMap(s)["S2/acz"] == 2 {
			counts++
		}
	}
	if counts != 1 {
		t.Errorf("a piece added on the board, no model moved: want one snapshot with 2 in S2, got %+v", snaps)
	}
	if snaps := run(frames[5], frames[6], frames[7]); len(snaps) != 0 {
		t.Errorf("the same board again made snapshots: %+v", snaps)
	}
}
