//go:build cgo

package vision

/*
#cgo pkg-config: opencv4
#include <stdlib.h>
#include "calib_cgo.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

// FindChessboard finds the inner corners of a chessboard in a frame.
// ok is false when the board is not (wholly) in view.
func FindChessboard(frame gocv.Mat, b Board) (corners []geom.Vec2, ok bool, err error) {
	n := b.Cols * b.Rows
	buf := make([]C.float, 2*n)
	var cerr *C.char
	r := C.Sztab_FindChessboard(unsafe.Pointer(frame.Ptr()), C.int(b.Cols), C.int(b.Rows), &buf[0], &cerr)
	if r < 0 {
		defer C.free(unsafe.Pointer(cerr))
		return nil, false, fmt.Errorf("vision: chessboard: %s", C.GoString(cerr))
	}
	if r == 0 {
		return nil, false, nil
	}
	corners = make([]geom.Vec2, n)
	for i := range corners {
		corners[i] = geom.Vec2{X: float64(buf[2*i]), Y: float64(buf[2*i+1])}
	}
	return corners, true, nil
}

// CalibrateLens fits the camera matrix and the distortion to chessboard
// corners found in views of width×height frames (OpenCV calibrateCamera).
// With fixK3 the sixth-order radial term is held at 0, which suits all
// but wide-angle lenses.
func CalibrateLens(views [][]geom.Vec2, b Board, width, height int, fixK3 bool) (*LensCalibration, error) {
	if len(views) < 3 {
		return nil, fmt.Errorf("vision: lens calibration: %d views of the chessboard; at least 3 are needed, 10–20 from different angles are better", len(views))
	}
	n := b.Cols * b.Rows
	obj := make([]C.float, 0, 3*n*len(views))
	img := make([]C.float, 0, 2*n*len(views))
	for _, v := range views {
		if len(v) != n {
			return nil, errors.New("vision: lens calibration: a view with the wrong number of corners")
		}
		for i, p := range v {
			obj = append(obj, C.float(float64(i%b.Cols)*b.SquareMM), C.float(float64(i/b.Cols)*b.SquareMM), 0)
			img = append(img, C.float(p.X), C.float(p.Y))
		}
	}
	var k [9]C.double
	var d [5]C.double
	var cerr *C.char
	fix := C.int(0)
	if fixK3 {
		fix = 1
	}
	rms := float64(C.Sztab_CalibrateCamera(C.int(len(views)), C.int(n), &obj[0], &img[0], C.int(width), C.int(height), fix, &k[0], &d[0], &cerr))
	if rms < 0 {
		defer C.free(unsafe.Pointer(cerr))
		return nil, fmt.Errorf("vision: calibrateCamera: %s", C.GoString(cerr))
	}
	return &LensCalibration{
		Version: CalibrationVersion, Width: width, Height: height, RMSPx: round3(rms), Views: len(views), Board: b.String(),
		Lens: geom.Lens{
			FX: float64(k[0]), FY: float64(k[4]), CX: float64(k[2]), CY: float64(k[5]),
			K1: float64(d[0]), K2: float64(d[1]), P1: float64(d[2]), P2: float64(d[3]), K3: float64(d[4]),
		},
	}, nil
}
