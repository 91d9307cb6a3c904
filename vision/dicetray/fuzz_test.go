package dicetray

import (
	"errors"
	"testing"
)

// FuzzRead feeds frames of any size and content to the reader (a frame is
// the camera's input from outside): it returns dice or an error, never
// panics, and every die it reports is within the frame with a value 0–6
// and a confidence in 0–1.
func FuzzRead(f *testing.F) {
	f.Add(uint8(40), uint8(30), []byte{0, 0, 0, 255, 255, 255}, 0.0)
	f.Add(uint8(64), uint8(64), []byte{30, 90, 40, 230, 230, 230, 10, 10, 10}, 20.0)
	f.Add(uint8(16), uint8(200), []byte{1}, 12.5)
	f.Fuzz(func(t *testing.T, w, h uint8, pattern []byte, side float64) {
		if len(pattern) == 0 {
			return
		}
		fr := Frame{Width: int(w), Height: int(h), BGR: make([]byte, 3*int(w)*int(h))}
		for i := range fr.BGR {
			fr.BGR[i] = pattern[i%len(pattern)] ^ byte(i*7/len(pattern))
		}
		r, err := NewReader(Options{SidePx: side})
		if err != nil {
			return
		}
		got, err := r.Read(fr)
		if err != nil {
			if w >= 16 && h >= 16 && !errors.Is(err, ErrNoDieSize) {
				t.Fatalf("a %d×%d frame refused: %v", w, h, err)
			}
			return
		}
		for _, d := range got.Dice {
			if d.Value < 0 || d.Value > 6 || d.Confidence < 0 || d.Confidence > 1 || d.Centre.X < -1 || d.Centre.Y < -1 || d.Centre.X > float64(w) || d.Centre.Y > float64(h) {
				t.Fatalf("a die out of bounds: %+v in a %d×%d frame", d, w, h)
			}
		}
	})
}
