//go:build cgo

package main

import (
	"errors"

	"gocv.io/x/gocv"
)

func openCVVersion() string { return gocv.OpenCVVersion() }

// readFrame decodes an image as the camera's file source does (OpenCV's
// imread) and returns its size.
func readFrame(path string) (w, h int, err error) {
	m := gocv.IMRead(path, gocv.IMReadColor)
	defer m.Close()
	if m.Empty() {
		return 0, 0, errors.New("OpenCV read no image")
	}
	return m.Cols(), m.Rows(), nil
}
