//go:build cgo

package dicetray

import (
	"testing"

	"github.com/sztab/sztab/vision/geom"
)

// TestWhyUnsure: an unsure die touching another says so; one whose
// face's middle is burnt out says glare; any other, that its face is
// not clear.
func TestWhyUnsure(t *testing.T) {
	grey := func() Frame {
		f := Frame{Width: 200, Height: 200, BGR: make([]byte, 3*200*200)}
		for i := range f.BGR {
			f.BGR[i] = 128
		}
		return f
	}
	burnt := grey()
	for y := 95; y < 105; y++ {
		for x := 95; x < 105; x++ {
			copy(burnt.BGR[3*(y*200+x):], []byte{255, 255, 255})
		}
	}
	die := peak{centre: geom.Vec2{X: 100, Y: 100}, side: 40}
	near := peak{centre: geom.Vec2{X: 140, Y: 100}, side: 40}
	apart := peak{centre: geom.Vec2{X: 150, Y: 100}, side: 40}
	for _, c := range []struct {
		name   string
		f      Frame
		others []peak
		want   string
	}{
		{"another die's centre at one side", grey(), []peak{die, near}, reasonTouching},
		{"another die at 1.25 sides, a grey face", grey(), []peak{die, apart}, reasonUnsure},
		{"alone, the middle burnt out", burnt, []peak{die}, reasonGlare},
		{"alone, a grey face", grey(), []peak{die}, reasonUnsure},
	} {
		if got := whyUnsure(c.f, die, c.others); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
