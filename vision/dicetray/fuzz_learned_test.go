//go:build cgo

package dicetray

import "testing"

// FuzzReadLearned feeds frames of any size and content to the learned
// reader the camera uses: dice or an error, never a panic, each die
// inside the frame with a value 0–6 and a confidence in 0–1.
func FuzzReadLearned(f *testing.F) {
	f.Add(uint8(40), uint8(30), []byte{0, 0, 0, 255, 255, 255}, 0.0)
	f.Add(uint8(96), uint8(64), []byte{30, 90, 40, 230, 230, 230, 10, 10, 10}, 20.0)
	f.Add(uint8(16), uint8(200), []byte{1}, 3.5)
	l, err := NewLearned(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { l.Close() })
	f.Fuzz(func(t *testing.T, w, h uint8, pattern []byte, side float64) {
		if len(pattern) == 0 || side > 1000 {
			return
		}
		// a side the options refuse (NaN, negative, under 12 px) never
		// reaches the reader
		if _, err := NewReader(Options{SidePx: side}); err != nil {
			return
		}
		fr := Frame{Width: int(w), Height: int(h), BGR: make([]byte, 3*int(w)*int(h))}
		for i := range fr.BGR {
			fr.BGR[i] = pattern[i%len(pattern)] ^ byte(i*7/len(pattern))
		}
		l.opt.SidePx = side
		got, err := l.Read(fr)
		if err != nil {
			return
		}
		for _, d := range got.Dice {
			if d.Value < 0 || d.Value > 6 || d.Confidence < 0 || d.Confidence > 1 || d.Centre.X < -1 || d.Centre.Y < -1 || d.Centre.X > float64(w) || d.Centre.Y > float64(h) {
				t.Fatalf("a die out of bounds: %+v in a %d×%d frame", d, w, h)
			}
		}
	})
}
