package dicetray

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // photographs
	_ "image/png"
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

// LoadImage reads a JPEG or PNG file as a frame.
func LoadImage(path string) (Frame, error) {
	fh, err := os.Open(path)
	if err != nil {
		return Frame{}, fmt.Errorf("dicetray: %w", err)
	}
	defer fh.Close()
	img, _, err := image.Decode(fh)
	if err != nil {
		return Frame{}, fmt.Errorf("dicetray: %s: %w", path, err)
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
