package dicetray

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // photographs
	_ "image/png"
	"io"
	"os"
)

// TrayReader reads the dice in frames.
type TrayReader interface {
	Read(Frame) (Reading, error)
	Close() error
}

// ErrNoOpenCV is returned by Open in a build without OpenCV (cgo off).
var ErrNoOpenCV = errors.New("dicetray: this build has no OpenCV (cgo off): the learned reader cannot run")

// Open is the dice reader the camera (vision's dice tray) and `sztab
// dice read` use: the learned reader (learned.go), trained on
// photographs of real dice; with opt.Classical the classical one.
func Open(opt Options) (TrayReader, error) {
	if opt.Classical {
		return NewReader(opt)
	}
	return openLearned(opt)
}

// MaxImagePixels is the largest image LoadImage and DecodeImage read:
// twice a 12-megapixel phone photo; more is refused before it is decoded.
const MaxImagePixels = 24_000_000

// LoadImage reads a JPEG or PNG file as a frame.
func LoadImage(path string) (Frame, error) {
	fh, err := os.Open(path)
	if err != nil {
		return Frame{}, fmt.Errorf("dicetray: %w", err)
	}
	defer fh.Close()
	f, err := DecodeImage(fh)
	if err != nil {
		return Frame{}, fmt.Errorf("dicetray: %s: %w", path, err)
	}
	return f, nil
}

// DecodeImage reads a JPEG or PNG image as a frame; an image of more than
// MaxImagePixels is refused from its header, before it is decoded.
func DecodeImage(r io.Reader) (Frame, error) {
	var head bytes.Buffer
	cfg, _, err := image.DecodeConfig(io.TeeReader(r, &head))
	if err != nil {
		return Frame{}, fmt.Errorf("not a JPEG or PNG image: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return Frame{}, fmt.Errorf("an image of %d×%d pixels: want at most %d megapixels", cfg.Width, cfg.Height, MaxImagePixels/1_000_000)
	}
	img, _, err := image.Decode(io.MultiReader(&head, r))
	if err != nil {
		return Frame{}, fmt.Errorf("not a JPEG or PNG image: %w", err)
	}
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Rect, img, b.Min, draw.Src)
	f := Frame{Width: b.Dx(), Height: b.Dy(), BGR: make([]byte, 3*b.Dx()*b.Dy())}
	for i := 0; i < b.Dx()*b.Dy(); i++ {
		f.BGR[3*i], f.BGR[3*i+1], f.BGR[3*i+2] = rgba.Pix[4*i+2], rgba.Pix[4*i+1], rgba.Pix[4*i]
	}
	return f, nil
}
