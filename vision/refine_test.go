package vision

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// grayOf is the luminance of a rendered frame (OpenCV's BGR→grey weights).
func grayOf(im *synth.Image) *Gray {
	g := &Gray{W: im.Width, H: im.Height, Stride: im.Width, Pix: make([]byte, im.Width*im.Height)}
	for i := range g.Pix {
		b, gr, r := float64(im.BGR[3*i]), float64(im.BGR[3*i+1]), float64(im.BGR[3*i+2])
		g.Pix[i] = clamp(0.114*b + 0.587*gr + 0.299*r)
	}
	return g
}

func clamp(v float64) byte {
	if v < 0 {
		return 0
	}
	if v > 254.5 {
		return 255
	}
	return byte(v + 0.5)
}

func smallScene(t testing.TB, seed uint64) (*synth.Scene, *Gray, *synth.Truth) {
	t.Helper()
	l := synth.DefaultLayout(400, 300, 6)
	o := synth.Defaults(800, 600, l)
	o.Blur = [2]float64{0.6, 0.6}
	o.Noise = [2]float64{2, 2}
	s, err := synth.Random(o, seed)
	if err != nil {
		t.Fatal(err)
	}
	im, err := s.Render()
	if err != nil {
		t.Fatal(err)
	}
	return s, grayOf(im), s.Truth()
}

func TestRefineAndDecode(t *testing.T) {
	_, g, tr := smallScene(t, 1)
	dict, _ := aruco.Lookup("4x4_100")
	rng := rand.New(rand.NewPCG(4, 4))
	var errs []float64
	for _, m := range append(tr.Fiducials, tr.Models...) {
		if m.Visible < 1 {
			continue
		}
		var rough [4]geom.Vec2
		for k, c := range m.Corners {
			rough[k] = c.Add(geom.Vec2{X: 1.5 * (2*rng.Float64() - 1), Y: 1.5 * (2*rng.Float64() - 1)})
		}
		got, _, err := refineCorners(g, rough, dict.Size+2)
		if err != nil {
			t.Errorf("marker %d: %v", m.Marker, err)
			continue
		}
		for k := range got {
			errs = append(errs, got[k].Dist(m.Corners[k]))
		}
		for shift := 0; shift < 4; shift++ {
			var c [4]geom.Vec2
			for k := range c {
				c[k] = got[(k+shift)%4]
			}
			d, err := decodeMarker(g, c, dict, nil, 0.1)
			if err != nil || d.ID != m.Marker || d.Corners[0] != got[0] {
				t.Errorf("marker %d read from corner %d: got id %d, first corner %v, %v; want %d, %v", m.Marker, shift, d.ID, d.Corners[0], err, m.Marker, got[0])
			}
		}
		for shift := 0; shift < 4; shift++ {
			var c [4]geom.Vec2
			for k := range c {
				c[k] = got[(k+shift)%4]
			}
			d, err := matchMarker(g, c, dict, nil)
			if err != nil || d.ID != m.Marker || d.Corners[0] != got[0] {
				t.Errorf("marker %d matched from corner %d: got id %d, first corner %v, %v; want %d, %v", m.Marker, shift, d.ID, d.Corners[0], err, m.Marker, got[0])
			}
		}
		// an id that is not allowed is not read
		if _, err := decodeMarker(g, got, dict, func(id int) bool { return id != m.Marker }, 0.1); !errors.Is(err, errNoCode) {
			t.Errorf("marker %d, not allowed: got %v, want errNoCode", m.Marker, err)
		}
	}
	if rms := geom.RMS(errs); rms > 0.1 || len(errs) == 0 {
		t.Errorf("refined corners: got %.3f px RMS from the truth over %d corners, want ≤ 0.1", rms, len(errs))
	}
	// a patch of mat is no marker
	mat := [4]geom.Vec2{{X: 390, Y: 290}, {X: 410, Y: 290}, {X: 410, Y: 310}, {X: 390, Y: 310}}
	if d, err := decodeMarker(g, mat, dict, nil, 0.05); err == nil {
		t.Errorf("a patch of mat read as marker %d", d.ID)
	}
	if d, err := matchMarker(g, mat, dict, nil); err == nil {
		t.Errorf("a patch of mat matched marker %d", d.ID)
	}
}

func TestRotateCode(t *testing.T) {
	dict, _ := aruco.Lookup("5x5_50")
	for id := 0; id < dict.Len(); id++ {
		c := dict.Code(id)
		r := c
		for k := 0; k < 4; k++ {
			r = rotateCode(r, dict.Size)
		}
		if r != c {
			t.Fatalf("marker %d: four quarter turns give %x, want %x", id, r, c)
		}
		if rotateCode(c, dict.Size) == c && c != 0 {
			t.Logf("marker %d is symmetric", id)
		}
	}
}

func TestGeometryHelpers(t *testing.T) {
	sq := [4]geom.Vec2{{X: 0, Y: 0}, {X: 4, Y: 0}, {X: 4, Y: 4}, {X: 0, Y: 4}}
	if a := quadArea(sq); a != 16 {
		t.Errorf("area: got %g, want 16", a)
	}
	if !insideQuad(sq, geom.Vec2{X: 1, Y: 3}) || insideQuad(sq, geom.Vec2{X: 5, Y: 1}) {
		t.Error("insideQuad wrong")
	}
	if c := diagonalCross(sq); c != (geom.Vec2{X: 2, Y: 2}) {
		t.Errorf("centre: got %v", c)
	}
	l, _ := fitLine([]geom.Vec2{{X: 0, Y: 1}, {X: 1, Y: 2}, {X: 2, Y: 3}})
	m, _ := fitLine([]geom.Vec2{{X: 0, Y: 3}, {X: 1, Y: 2}, {X: 2, Y: 1}})
	if p, ok := l.intersect(m); !ok || p.Dist(geom.Vec2{X: 1, Y: 2}) > 1e-12 {
		t.Errorf("lines cross at %v, want (1, 2)", p)
	}
}

func BenchmarkRefineAndDecode(b *testing.B) {
	_, g, tr := smallScene(b, 1)
	dict, _ := aruco.Lookup("4x4_100")
	m := tr.Models[0]
	b.ResetTimer()
	for b.Loop() {
		c, _, err := refineCorners(g, m.Corners, 6)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := decodeMarker(g, c, dict, nil, 0.05); err != nil {
			b.Fatal(err)
		}
	}
}
