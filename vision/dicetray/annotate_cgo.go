//go:build cgo

package dicetray

import (
	"fmt"
	"image"
	"image/color"

	"gocv.io/x/gocv"
)

func openLearned(opt Options) (TrayReader, error) { return NewLearned(opt) }

// Annotate draws a reading on its frame and encodes it as a JPEG: each
// die's box, green with its value and confidence when read, red with a
// question mark when unreadable.
func Annotate(f Frame, r Reading) ([]byte, error) {
	m, err := gocv.NewMatFromBytes(f.Height, f.Width, gocv.MatTypeCV8UC3, f.BGR[:3*f.Width*f.Height])
	if err != nil {
		return nil, fmt.Errorf("dicetray: %w", err)
	}
	img := m.Clone()
	m.Close()
	defer img.Close()
	shadow := color.RGBA{A: 255}
	for _, d := range r.Dice {
		side := d.Side
		if side == 0 {
			side = r.SidePx
		}
		box := image.Rect(int(d.Centre.X-side/2), int(d.Centre.Y-side/2), int(d.Centre.X+side/2), int(d.Centre.Y+side/2))
		col, label := color.RGBA{G: 220, A: 255}, fmt.Sprintf("%d %.2f", d.Value, d.Confidence)
		if d.Value == 0 {
			col, label = color.RGBA{R: 255, B: 40, A: 255}, fmt.Sprintf("? %.2f", d.Confidence)
		}
		gocv.Rectangle(&img, box, col, 2)
		at := image.Pt(box.Min.X, max(box.Min.Y-4, 12))
		gocv.PutText(&img, label, at, gocv.FontHersheySimplex, 0.45, shadow, 3)
		gocv.PutText(&img, label, at, gocv.FontHersheySimplex, 0.45, col, 1)
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, img, []int{gocv.IMWriteJpegQuality, 90})
	if err != nil {
		return nil, fmt.Errorf("dicetray: %w", err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}
