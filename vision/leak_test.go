//go:build cgo && matprofile

package vision

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/synth"
)

// TestNoMatLeak runs 1,000 frames (moves, still stretches, hands, a frame
// of the wrong size, annotated images) through a pipeline, and Run over a
// directory, then closes it: gocv's Mat profile must count no live Mat.
// Run it with -tags matprofile.
func TestNoMatLeak(t *testing.T) {
	before := gocv.MatProfile.Count()
	tb := newTable(t, 31)
	cfg := testConfig()
	cfg.StillFrames = 3
	p, err := newPipeline(cfg, tb.reg, tb.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	images := 0
	p.OnImage(func([]byte) { images++ })
	scenes := []*synth.Scene{tb.scene}
	for i := 1; i < 8; i++ {
		s := scenes[len(scenes)-1].Moved(1, uint64(i))
		s.Seed = tb.scene.Seed // the same table cloth: moves are searched in regions
		if i%3 == 0 {
			s.Hands = []synth.Hand{{A: vec(-150, 300), B: vec(300, 280), Width: 90, Palm: 60, Height: 150}}
		}
		scenes = append(scenes, s)
	}
	var cleans []*synth.Clean
	for _, s := range scenes {
		c, err := s.RenderClean()
		if err != nil {
			t.Fatal(err)
		}
		cleans = append(cleans, c)
	}
	for i := 0; i < 1000; i++ {
		k := (i / 25) % len(scenes)
		im := cleans[k].Finish(scenes[k].Noise, uint64(i))
		m, err := gocv.NewMatFromBytes(im.Height, im.Width, gocv.MatTypeCV8UC3, im.BGR)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Process(m, time.Unix(int64(i), 0)); err != nil {
			t.Fatal(err)
		}
		m.Close()
		if i%250 == 0 {
			wrong := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV8UC3)
			if _, err := p.Process(wrong, time.Unix(int64(i), 0)); err == nil {
				t.Error("a 10×10 frame was taken")
			}
			wrong.Close()
			if _, err := p.Annotate(Pair{A: "u1", B: "u2"}); err != nil && i > 0 {
				t.Error(err)
			}
		}
	}
	if images == 0 || p.Stats().Detections < 10 || p.Stats().RegionDetections == 0 || p.Stats().StillFrames < 100 {
		t.Errorf("the run did not do what it should: %d images, %+v", images, p.Stats())
	}
	p.Close()

	// Run over a directory: source, frames, reopen
	dir := t.TempDir()
	rcfg := writeTableFiles(t, tb, dir)
	rcfg.Loop = false
	writeFrames(t, rcfg.Source, frames(t, tb.scene), 4)
	rp, err := Open(rcfg, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	if err := rp.Run(context.Background(), func(Snapshot) {}); err != nil {
		t.Fatal(err)
	}
	rp.Close()
	os.RemoveAll(filepath.Join(dir, "frames"))

	if n := gocv.MatProfile.Count() - before; n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("%d Mats alive after 1,000 frames and Close:\n%s", n, b.String())
	}
}

// TestNoMatLeakBoardOnly: a board-only camera's frames (still, changed,
// a frame of another size, annotated images) leave no live Mat.
func TestNoMatLeakBoardOnly(t *testing.T) {
	before := gocv.MatProfile.Count()
	bb := newTestBoard(t)
	p, err := Open(Config{Source: "unused", Board: bb.path, Boards: bb.boards, StillFrames: 2, Annotated: filepath.Join(t.TempDir(), "board.jpg")}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	frames := []gocv.Mat{bb.frame(t, 1), bb.frame(t, 2, synth.BoardPiece{Colour: "wp", X: 100, Y: 130}), gocv.NewMatWithSize(10, 10, gocv.MatTypeCV8UC3)}
	snaps := 0
	for i := 0; i < 60; i++ {
		s, err := p.Process(frames[(i/4)%3], time.Unix(int64(i), 0))
		if err != nil {
			t.Fatal(err)
		}
		if s != nil {
			snaps++
		}
	}
	if _, err := p.Annotate(); err != nil {
		t.Error(err)
	}
	for _, m := range frames {
		m.Close()
	}
	p.Close()
	if snaps < 3 {
		t.Errorf("%d snapshots, want the board's changes", snaps)
	}
	if n := gocv.MatProfile.Count() - before; n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Fatalf("%d Mats left alive:\n%s", n, b.String())
	}
}
