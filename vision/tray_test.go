package vision

import (
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/vision/synth"
)

// trayFrame renders a tray of n dice (cocked of them cocked) and puts it
// into a larger frame at (ox, oy); it returns the frame, its width and
// height, the tray's region and its truth.
func trayFrame(t *testing.T, n, cocked int, seed uint64, ox, oy int) ([]byte, int, int, [4]int, *synth.Tray) {
	t.Helper()
	o := synth.DefaultTrayOptions(n)
	o.Width, o.Height, o.Cocked, o.Samples = 640, 480, cocked, 1
	tr, err := synth.RandomTray(o, seed)
	if err != nil {
		t.Fatal(err)
	}
	im := tr.Render()
	w, h := im.Width+2*ox, im.Height+2*oy
	frame := make([]byte, 3*w*h)
	for i := range frame {
		frame[i] = 40
	}
	for y := 0; y < im.Height; y++ {
		copy(frame[3*((y+oy)*w+ox):], im.BGR[3*y*im.Width:3*(y+1)*im.Width])
	}
	return frame, w, h, [4]int{ox, oy, im.Width, im.Height}, tr
}

func values(t Tray) (vals []int, unreadable int) {
	for _, d := range t.Dice {
		if d.Value == 0 {
			unreadable++
		} else {
			vals = append(vals, d.Value)
		}
	}
	slices.Sort(vals)
	return vals, unreadable
}

func truthValues(tr *synth.Tray) (vals []int, unreadable int) {
	for _, d := range tr.Truth() {
		if d.Readable() {
			vals = append(vals, d.Value)
		} else {
			unreadable++
		}
	}
	slices.Sort(vals)
	return vals, unreadable
}

// TestTraySettles: the tray in a region of the frame is read; a throw
// counts after settle_frames frames reading the same, once; another throw
// settles anew; a throw with a cocked die is carried with the die
// unreadable.
func TestTraySettles(t *testing.T) {
	f1, w, h, region, tr1 := trayFrame(t, 6, 0, 11, 50, 40)
	f2, _, _, _, tr2 := trayFrame(t, 5, 1, 12, 50, 40)
	// rendered trays: the classical reader's, pure Go
	cfg := TrayConfig{Region: region, DieSidePx: tr1.Truth()[0].SidePx, Parallax: tr1.Parallax(16), Reader: "classical"}
	cfg.defaults()
	ts, err := newTrayState(cfg)
	if err != nil {
		t.Fatal(err)
	}
	check := func(frame []byte, same bool, wantFresh bool, truth *synth.Tray) {
		t.Helper()
		ts.observe(w, h, 3*w, frame, same)
		if ts.fresh != wantFresh {
			t.Fatalf("fresh %v, want %v (err %q)", ts.fresh, wantFresh, ts.err)
		}
		if !wantFresh {
			return
		}
		var s Snapshot
		ts.fill(&s)
		if s.Tray == nil || s.Tray.Device != "tray" {
			t.Fatalf("snapshot tray %+v", s.Tray)
		}
		gv, gu := values(*s.Tray)
		tv, tu := truthValues(truth)
		if !slices.Equal(gv, tv) || gu != tu {
			t.Errorf("tray read %v and %d unreadable, truth %v and %d unreadable", gv, gu, tv, tu)
		}
		if ts.fresh {
			t.Error("still fresh after a snapshot carried it")
		}
	}
	check(f1, false, false, nil)
	check(f1, false, false, nil)
	check(f1, false, true, tr1)
	check(f1, true, false, nil) // still: the same throw, not new
	check(f1, false, false, nil)
	check(f2, false, false, nil)
	check(f2, true, false, nil)
	check(f2, true, true, tr2)
	var s Snapshot
	ts.fill(&s)
	if _, u := values(*s.Tray); u != 1 {
		t.Errorf("the cocked die: %d unreadable, want 1", u)
	}

	// a region off the frame: a warning, the last settled reading kept
	bad := cfg
	bad.Region = [4]int{w - 100, 0, 200, 200}
	ts2, err := newTrayState(bad)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		ts2.observe(w, h, 3*w, f1, false)
	}
	var s2 Snapshot
	ts2.fill(&s2)
	if s2.Tray != nil || len(s2.Warnings) != 1 || !strings.Contains(s2.Warnings[0], "outside") {
		t.Errorf("region off the frame: tray %v, warnings %q", s2.Tray, s2.Warnings)
	}
}

func TestTrayConfig(t *testing.T) {
	base := func() Config {
		c := Config{Source: "/dev/video0", Calibration: "c.yaml", Markers: "m.yaml", DiceTray: &TrayConfig{Region: [4]int{10, 10, 400, 300}}}
		c.Defaults()
		return c
	}
	if err := base().Validate(); err != nil {
		t.Fatal(err)
	}
	if c := base(); c.DiceTray.SettleFrames != 3 || c.DiceTray.Device != "tray" || c.DiceTray.Reader != "learned" {
		t.Errorf("defaults: %+v", *c.DiceTray)
	}
	for _, c := range []struct {
		key string
		set func(*TrayConfig)
	}{
		{"dice_tray.region", func(t *TrayConfig) { t.Region = [4]int{0, 0, 10, 300} }},
		{"dice_tray.region", func(t *TrayConfig) { t.Region = [4]int{-1, 0, 100, 300} }},
		{"dice_tray.die_side_px", func(t *TrayConfig) { t.DieSidePx = 5 }},
		{"dice_tray.parallax", func(t *TrayConfig) { t.Parallax = 0.5 }},
		{"dice_tray.settle_frames", func(t *TrayConfig) { t.SettleFrames = 1 }},
		{"dice_tray.reader", func(t *TrayConfig) { t.Reader = "neural" }},
	} {
		cfg := base()
		c.set(cfg.DiceTray)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), "camera."+c.key) {
			t.Errorf("%s: %v", c.key, err)
		}
	}
	if _, err := ParseConfig("t.yaml", []byte("source: /dev/video0\ncalibration: c.yaml\nmarkers: m.yaml\ndice_tray:\n  region: [0, 0, 640, 480]\n  die_side_px: 60\n  colour: red\n")); err == nil || !strings.Contains(err.Error(), "colour") {
		t.Errorf("an unknown key in dice_tray: %v", err)
	}
}
