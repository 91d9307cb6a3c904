package dicetray

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"strings"
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

// FuzzDecodeImage feeds any bytes to the image loader of `sztab dice
// read` (a user's file): a frame or an error, never a panic, and never
// a frame larger than MaxImagePixels.
func FuzzDecodeImage(f *testing.F) {
	for _, enc := range []func(*bytes.Buffer, image.Image) error{
		func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) },
		func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) },
	} {
		var b bytes.Buffer
		m := image.NewRGBA(image.Rect(0, 0, 5, 3))
		m.Pix[0], m.Pix[7] = 200, 90
		if err := enc(&b, m); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01\x00\x00\x00\x01\x00\x00\x08\x02\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := DecodeImage(bytes.NewReader(data))
		if err != nil {
			return
		}
		if fr.Width <= 0 || fr.Height <= 0 || fr.Width*fr.Height > MaxImagePixels || len(fr.BGR) != 3*fr.Width*fr.Height {
			t.Fatalf("a frame of %d×%d with %d bytes", fr.Width, fr.Height, len(fr.BGR))
		}
	})
}

// TestDecodeImageRefusesAHugeImageFromItsHeader: a PNG whose header
// claims 65,536 × 65,536 pixels is refused before anything is decoded,
// with its size in the message.
func TestDecodeImageRefusesAHugeImageFromItsHeader(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	// IHDR's width and height follow the 8-byte signature, the chunk's
	// length and its type; its checksum (over the type and the 13 bytes
	// of data) follows them
	copy(data[16:24], []byte{0, 1, 0, 0, 0, 1, 0, 0})
	binary.BigEndian.PutUint32(data[29:33], crc32.ChecksumIEEE(data[12:29]))
	_, err := DecodeImage(bytes.NewReader(data))
	if err == nil || !strings.Contains(err.Error(), "65536×65536") {
		t.Fatalf("a 65536×65536 image: %v, want refused with its size", err)
	}
	if _, err := DecodeImage(strings.NewReader("not an image")); err == nil || !strings.Contains(err.Error(), "not a JPEG or PNG") {
		t.Fatalf("text: %v, want \"not a JPEG or PNG image\"", err)
	}
}
