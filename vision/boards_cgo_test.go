//go:build cgo

package vision

import (
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/board"
	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// A pipeline whose config names a board calibration counts the board's
// pieces into each snapshot from the camera's BGR frame.
func TestPipelineCountsBoard(t *testing.T) {
	d, err := board.Builtin("bitwa-warszawska")
	if err != nil {
		t.Fatal(err)
	}
	cam := synth.BoardCamera(d, 960, 720, 1000, 4, 70, geom.Vec2{})
	im, err := synth.RenderBoard(&synth.BoardScene{Def: d, Camera: cam, Noise: 2, Pieces: []synth.BoardPiece{
		{Colour: "wp", X: 100, Y: 130}, {Colour: "acz", X: 500, Y: 300}, {Colour: "acz", X: 510, Y: 300},
	}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int][4]geom.Vec2{}
	for _, m := range d.Markers {
		var c [4]geom.Vec2
		for k, p := range geom.SquareCorners(geom.Vec2{X: m.X, Y: m.Y}, m.SideMM, 0) {
			c[k], _ = cam.Pixel(p.X, p.Y, 0)
		}
		seen[m.ID] = c
	}
	cal, err := board.Calibrate(d, board.CalibrateInput{Width: 960, Height: 720, Seen: seen, Lens: cam.Lens})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "board.yaml")
	if err := cal.Save(path); err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{cfg: Config{Board: path}}
	if err := p.openBoard(); err != nil {
		t.Fatal(err)
	}
	frame, err := gocv.NewMatFromBytes(720, 960, gocv.MatTypeCV8UC3, im.BGR)
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	var s Snapshot
	p.countBoard(&s, frame)
	got := map[string]int{}
	for _, c := range s.Pieces {
		got[c.Node+"/"+c.Colour] = c.Count
	}
	if len(s.Pieces) != 14 || got["N2/wp"] != 1 || got["S2/acz"] != 2 || len(s.Warnings) != 0 {
		t.Errorf("pieces %+v, warnings %v", s.Pieces, s.Warnings)
	}
	small := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV8UC3)
	defer small.Close()
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
