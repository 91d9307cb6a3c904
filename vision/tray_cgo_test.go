//go:build cgo

package vision

import (
	"slices"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/synth"
)

// TestPipelineTray: a dice tray in a corner of the table's frame. The
// first snapshot carries the settled throw; a new throw, the models not
// moving, makes a snapshot of its own carrying it; the tray lying still
// makes no more.
func TestPipelineTray(t *testing.T) {
	tb := newTable(t, 21)
	c, err := tb.scene.RenderClean()
	if err != nil {
		t.Fatal(err)
	}
	throw := func(seed uint64) *synth.Tray {
		o := synth.DefaultTrayOptions(4)
		o.Width, o.Height, o.Samples = 480, 360, 1 // 0.25 mm a pixel: 64 px a die, as the reader is tested at
		tr, err := synth.RandomTray(o, seed)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	t1, t2 := throw(31), throw(32)
	im1, im2 := t1.Render(), t2.Render()
	const ox, oy = 0, 0
	frame := func(tray *synth.Image, seed uint64) gocv.Mat {
		im := c.Finish(tb.scene.Noise, seed)
		for y := 0; y < tray.Height; y++ {
			copy(im.BGR[3*((y+oy)*im.Width+ox):], tray.BGR[3*y*tray.Width:3*(y+1)*tray.Width])
		}
		m, err := gocv.NewMatFromBytes(im.Height, im.Width, gocv.MatTypeCV8UC3, im.BGR)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	cfg := testConfig()
	cfg.StillFrames = 3
	// rendered trays: the classical reader's (the learned one is trained
	// and tested on real photographs, vision/dicetray's TestRealPhotos)
	cfg.DiceTray = &TrayConfig{Region: [4]int{ox, oy, im1.Width, im1.Height}, DieSidePx: t1.Truth()[0].SidePx, Parallax: t1.Parallax(16), Reader: "classical"}
	cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	p, err := newPipeline(cfg, tb.reg, tb.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	seq := 0
	feed := func(tray *synth.Image, n int) []Snapshot {
		var out []Snapshot
		for i := 0; i < n; i++ {
			seq++
			m := frame(tray, uint64(seq))
			s, err := p.Process(m, time.Unix(int64(seq), 0))
			m.Close()
			if err != nil {
				t.Fatal(err)
			}
			if s != nil {
				out = append(out, *s)
			}
		}
		return out
	}
	check := func(what string, s Snapshot, tr *synth.Tray) {
		t.Helper()
		if s.Tray == nil {
			t.Fatalf("%s: no tray in the snapshot (warnings %q)", what, s.Warnings)
		}
		gv, gu := values(*s.Tray)
		tv, tu := truthValues(tr)
		if !slices.Equal(gv, tv) || gu != tu {
			t.Errorf("%s: tray read %v and %d unreadable, truth %v and %d unreadable: %+v", what, gv, gu, tv, tu, s.Tray.Dice)
		}
	}
	snaps := feed(im1, 5)
	if len(snaps) != 1 {
		t.Fatalf("a still table with a settled tray: %d snapshots, want 1", len(snaps))
	}
	check("the first snapshot", snaps[0], t1)
	models := len(snaps[0].Models)
	snaps = feed(im2, 5)
	if len(snaps) != 1 {
		t.Fatalf("a new throw: %d snapshots, want 1", len(snaps))
	}
	check("the new throw", snaps[0], t2)
	if len(snaps[0].Models) != models {
		t.Errorf("the throw's snapshot has %d models, the table %d", len(snaps[0].Models), models)
	}
	if snaps = feed(im2, 4); len(snaps) != 0 {
		t.Errorf("the tray lying still: %d more snapshots, want none", len(snaps))
	}
}
