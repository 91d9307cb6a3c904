//go:build cgo

package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/vision/board"
	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// runCalibrate runs `sztab calibrate` with args and returns what it printed.
func runCalibrate(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newCalibrateCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	cmd.SilenceUsage = true
	cmd.SilenceErrors = true
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// renderBoard writes a generated frame of a game's board with pieces.
func renderBoard(t *testing.T, path, game string, pieces []synth.BoardPiece, hidden ...int) {
	t.Helper()
	d, err := games.Boards().Builtin(game)
	if err != nil {
		t.Fatal(err)
	}
	cam := synth.BoardCamera(d, 1280, 960, 1000, 5, 40, geom.Vec2{})
	im, err := synth.RenderBoard(&synth.BoardScene{Def: d, Pieces: pieces, Camera: cam, Noise: 2, Hidden: hidden}, 1)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, im.RGBA()); err != nil {
		t.Fatal(err)
	}
}

// sztab calibrate board finds the corner markers with OpenCV in a frame,
// saves the calibration, and the calibration counts the pieces of that
// frame; a corner marker missing is refused (exit 3), naming it, and
// nothing is saved.
func TestCalibrateBoard(t *testing.T) {
	dir := t.TempDir()
	camera := write(t, dir, "camera.yaml", "source: /dev/video0\ncalibration: table.yaml\nmarkers: markers.yaml\ncamera_height_mm: 1000\n")
	frame := filepath.Join(dir, "bitwa.png")
	pieces := []synth.BoardPiece{{Colour: "wp", X: 60, Y: 130}, {Colour: "wp", X: 70, Y: 130}, {Colour: "acz", X: 300, Y: 250}, {Colour: "acz", X: 300, Y: 390}}
	renderBoard(t, frame, "bitwa-warszawska", pieces)
	out := filepath.Join(dir, "board.yaml")
	text, err := runCalibrate(t, "board", "--config", camera, "--game", "bitwa-warszawska", "--image", frame, "--out", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !strings.Contains(text, "corner markers [90 91 92 93]") || !strings.Contains(text, "saved "+out) {
		t.Errorf("output %q", text)
	}
	cal, err := board.LoadCalibration(out)
	if err != nil {
		t.Fatal(err)
	}
	if cal.RMSPx > 1 {
		t.Errorf("RMS %.2f px on a generated frame", cal.RMSPx)
	}
	d, _ := games.Boards().Builtin("bitwa-warszawska")
	k, err := board.NewCounter(d, cal)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(frame)
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	res, err := k.Count(img)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, c := range res.Counts {
		if c.Count > 0 {
			got[c.Node+"/"+c.Colour] = c.Count
		}
	}
	want := map[string]int{"N2/wp": 2, "C1/acz": 1, "reserve/acz": 1}
	if len(got) != len(want) || got["N2/wp"] != 2 || got["C1/acz"] != 1 || got["reserve/acz"] != 1 {
		t.Errorf("counted %v, want %v", got, want)
	}

	hidden := filepath.Join(dir, "hidden.png")
	renderBoard(t, hidden, "bitwa-warszawska", pieces, 92)
	out2 := filepath.Join(dir, "board2.yaml")
	text, err = runCalibrate(t, "board", "--config", camera, "--game", "bitwa-warszawska", "--image", hidden, "--out", out2)
	if exitCode(err) != 3 || !strings.Contains(err.Error(), "[92] not seen") {
		t.Errorf("a corner marker covered: %v (exit %d)\n%s", err, exitCode(err), text)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Error("a refused calibration was saved")
	}
	if _, err := runCalibrate(t, "board", "--config", camera, "--game", "skirmish", "--image", frame, "--out", out2); err == nil || !strings.Contains(err.Error(), "no built-in board") {
		t.Errorf("a game without a board: %v", err)
	}
}
