package synth

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/sztab/sztab/vision/geom"
)

func small() Options {
	o := Defaults(320, 180, DefaultLayout(600, 400, 6))
	o.Hands = 2
	return o
}

func TestDeterministic(t *testing.T) {
	a, err := Random(small(), 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Random(small(), 5)
	ia, _ := a.Render()
	ib, _ := b.Render()
	if !bytes.Equal(ia.BGR, ib.BGR) {
		t.Error("the same seed rendered two different frames")
	}
	c, _ := Random(small(), 6)
	ic, _ := c.Render()
	if bytes.Equal(ia.BGR, ic.BGR) {
		t.Error("two seeds rendered the same frame")
	}
}

func TestFraming(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		o := Defaults(2304, 1296, DefaultLayout(1800, 1200, 40))
		s, err := Random(o, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tableOutline(1800, 1200) {
			px, ok := s.Camera.Pixel(p.X, p.Y, 0)
			if !ok || !s.Camera.InImage(px, 0) {
				t.Errorf("seed %d: table point %v at %v is out of the image", seed, p, px)
			}
		}
		tilt := math.Acos(s.Camera.R[8]) * 180 / math.Pi
		if tilt > 20+1e-9 || s.Camera.Centre[2] < 1200 || s.Camera.Centre[2] > 1800 {
			t.Errorf("seed %d: tilt %.1f°, height %.0f mm", seed, tilt, s.Camera.Centre[2])
		}
		if len(s.Models) != 40 {
			t.Errorf("seed %d: %d models placed, want 40", seed, len(s.Models))
		}
	}
}

func TestUndistortGrid(t *testing.T) {
	cam := LookDown(1920, 1080, geom.Lens{FX: 1000, FY: 1000, CX: 960, CY: 540, K1: -0.15, K2: 0.07, P1: 0.002, P2: -0.002}, geom.Vec3{0, 0, 1000}, 0, 0, 0)
	g := newUndistortGrid(&cam, 8)
	worst := 0.0
	for y := 0.0; y < 1080; y += 7.3 {
		for x := 0.0; x < 1920; x += 11.1 {
			want := cam.Lens.Undistort(cam.Lens.Normalize(geom.Vec2{X: x, Y: y}))
			gx, gy := g.at(x, y)
			worst = math.Max(worst, math.Hypot(gx-want.X, gy-want.Y)*1000)
		}
	}
	if worst > 0.01 {
		t.Errorf("grid interpolation: got %.4f px worst, want ≤ 0.01", worst)
	}
}

func TestTruth(t *testing.T) {
	s, _ := Random(small(), 1)
	s.Hands = []Hand{{A: geom.Vec2{X: -100, Y: 200}, B: geom.Vec2{X: 300, Y: 200}, Width: 400, Palm: 50, Height: 150}}
	tr := s.Truth()
	under, clear := 0, 0
	for _, m := range tr.Models {
		c, _ := s.Camera.Pixel(m.X, m.Y, m.Height)
		if c.Dist(m.Centre) > 1e-9 {
			t.Errorf("%s: centre %v, projected %v", m.ID, m.Centre, c)
		}
		switch {
		case m.X < 250 && math.Abs(m.Y-200) < 150:
			if m.Visible == 1 {
				t.Errorf("%s at (%.0f, %.0f) is under the arm but visible", m.ID, m.X, m.Y)
			}
			under++
		case m.X > 400:
			if m.Visible != 1 {
				t.Errorf("%s at (%.0f, %.0f) is clear but %.2f visible", m.ID, m.X, m.Y, m.Visible)
			}
			clear++
		}
	}
	t.Logf("%d under the arm, %d clear", under, clear)
	// truth files round-trip
	im, _ := s.Render()
	path := filepath.Join(t.TempDir(), "f.png")
	if err := Save(path, im, tr, 0); err != nil {
		t.Fatal(err)
	}
	back, err := LoadTruth(TruthPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Models) != len(tr.Models) || back.Models[0] != tr.Models[0] {
		t.Error("the truth does not round-trip")
	}
}

func TestChessboardCornersInView(t *testing.T) {
	cam := LookDown(1280, 720, geom.Lens{FX: 900, FY: 900, CX: 640, CY: 360, K1: -0.1}, geom.Vec3{0, 0, 1000}, 0, 0, 0)
	for i, b := range RandomChessboards(&cam, 9, 6, 25, 5, 1) {
		cs := b.Corners(&cam)
		if len(cs) != 54 {
			t.Fatalf("board %d: %d corners", i, len(cs))
		}
		for _, c := range cs {
			if !cam.InImage(c, 10) {
				t.Errorf("board %d: corner %v out of view", i, c)
			}
		}
	}
}

func BenchmarkRender2304(b *testing.B) {
	o := Defaults(2304, 1296, DefaultLayout(1800, 1200, 40))
	o.Samples = 1
	s, _ := Random(o, 1)
	for b.Loop() {
		if _, err := s.Render(); err != nil {
			b.Fatal(err)
		}
	}
}
