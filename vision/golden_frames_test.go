package vision

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/sztab/sztab/vision/synth"
)

var (
	update = flag.Bool("update", false, "rewrite the golden files in testdata (expected snapshots, the ArUco table)")
	regen  = flag.Bool("regen", false, "render the golden frames in testdata/golden again (slow)")
)

// goldenFrame is one committed frame: how it was made and what it shows.
type goldenFrame struct {
	name string
	make func() (*synth.Scene, error)
	// pinhole: calibrate without a lens calibration (camera height only)
	pinhole bool
	// noFiducials: the calibration must fail
	noFiducials bool
	quality     int // JPEG quality; 0 writes PNG
	// minRecall is the share of fully visible markers that must be found:
	// all at about 1 mm per pixel; at 1920×1080 the 25 mm bases' markers
	// on the far side are 9–12 pixels wide, at the edge of what can be
	// read, so another OpenCV build may lose one or two.
	minRecall float64
}

func goldenOptions(w, h int) synth.Options {
	o := synth.Defaults(w, h, synth.DefaultLayout(1800, 1200, 40))
	o.FrameFiducials = true
	o.MaxYaw = 2
	o.Flip = false
	o.Blur = [2]float64{0.4, 0.8}
	return o
}

var goldenFrames = []goldenFrame{
	{name: "clean-2304x1296.png", minRecall: 1, make: func() (*synth.Scene, error) {
		o := goldenOptions(2304, 1296)
		o.MinTilt, o.MaxTilt = 10, 12
		o.Noise = [2]float64{0, 0}
		o.Samples = 3
		return synth.Random(o, 101)
	}},
	{name: "tilt20-2304x1296.jpg", quality: 92, minRecall: 1, make: func() (*synth.Scene, error) {
		o := goldenOptions(2304, 1296)
		o.MinTilt, o.MaxTilt = 19, 20
		o.Noise = [2]float64{3, 4}
		return synth.Random(o, 102)
	}},
	{name: "hands-2304x1296.jpg", quality: 92, minRecall: 1, make: func() (*synth.Scene, error) {
		o := goldenOptions(2304, 1296)
		o.MaxTilt = 15
		s, err := synth.Random(o, 103)
		if err != nil {
			return nil, err
		}
		// two arms reaching in over the models
		s.Hands = []synth.Hand{
			{A: vec(300, 1350), B: vec(520, 800), Width: 90, Palm: 55, Height: 120},
			{A: vec(1950, 300), B: vec(1350, 420), Width: 85, Palm: 50, Height: 220},
		}
		return s, nil
	}},
	{name: "turned-1920x1080.jpg", quality: 92, minRecall: 0.95, make: func() (*synth.Scene, error) {
		o := goldenOptions(1920, 1080)
		o.MaxYaw = 6
		o.Flip = true
		for seed := uint64(104); ; seed++ {
			s, err := synth.Random(o, seed)
			if err != nil || isTurned(s) {
				return s, err
			}
		}
	}},
	{name: "pinhole-2304x1296.jpg", quality: 92, minRecall: 1, pinhole: true, make: func() (*synth.Scene, error) {
		o := goldenOptions(2304, 1296)
		o.Distortion = false
		o.MinTilt, o.MaxTilt = 8, 15
		return synth.Random(o, 105)
	}},
	{name: "nofiducials-1920x1080.jpg", quality: 90, minRecall: 0.95, noFiducials: true, make: func() (*synth.Scene, error) {
		o := goldenOptions(1920, 1080)
		s, err := synth.Random(o, 106)
		if err != nil {
			return nil, err
		}
		s.Fiducials = nil
		return s, nil
	}},
}

// isTurned: the camera is turned round, the table's origin at the image's
// bottom right.
func isTurned(s *synth.Scene) bool { return s.Camera.R[0] < 0 }

const goldenDir = "testdata/golden"

// TestRegenerateGoldenFrames renders the committed frames again when run
// with -regen.
func TestRegenerateGoldenFrames(t *testing.T) {
	if !*regen {
		return
	}
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, g := range goldenFrames {
		s, err := g.make()
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		im, err := s.Render()
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if err := synth.Save(filepath.Join(goldenDir, g.name), im, s.Truth(), g.quality); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: tilt-ish R[8]=%.3f, %d models, %d hands", g.name, s.Camera.R[8], len(s.Models), len(s.Hands))
	}
}
