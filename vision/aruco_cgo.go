//go:build cgo

package vision

/*
#cgo pkg-config: opencv4
#include <stdlib.h>
#include "aruco_cgo.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/geom"
)

// arucoDetector is OpenCV's detectMarkers with one dictionary and one
// parameter set, kept between frames.
type arucoDetector struct {
	h    C.SztabDetector
	dict *aruco.Dictionary
}

func newArucoDetector(dict *aruco.Dictionary, p DetectorParams) (*arucoDetector, error) {
	cp := C.SztabArucoParams{
		winMin: C.int(p.AdaptiveWinMin), winMax: C.int(p.AdaptiveWinMax), winStep: C.int(p.AdaptiveWinStep),
		threshConst:      C.double(p.AdaptiveConstant),
		minPerimeterRate: C.double(p.MinPerimeterRate), maxPerimeterRate: C.double(p.MaxPerimeterRate),
		polyAccuracy: C.double(p.PolygonalAccuracy), minCornerDistRate: C.double(p.MinCornerDistanceRate),
		minDistToBorder: C.int(p.MinDistanceToBorder), minMarkerDistRate: C.double(p.MinMarkerDistanceRate),
		refine: C.int(p.CornerRefinement), refineWin: C.int(p.RefineWindow), refineMaxIter: C.int(p.RefineIterations),
		refineMinAcc: C.double(p.RefineAccuracy),
		pxPerCell:    C.int(p.PixelsPerCell), ignoredMargin: C.double(p.IgnoredMarginPerCell),
		maxErrBorder: C.double(p.MaxErroneousBorderRate), minOtsu: C.double(p.MinOtsuStdDev),
		errCorrection:    C.double(p.ErrorCorrectionRate),
		minSideCanonical: C.int(p.MinSideCanonical), minLenRatioOriginal: C.double(p.MinLengthRatioOriginal),
	}
	if p.Aruco3 {
		cp.aruco3 = 1
	}
	var cerr *C.char
	h := C.Sztab_NewDetector(C.int(dict.OpenCV), cp, &cerr)
	if h == nil {
		defer C.Sztab_Free(unsafe.Pointer(cerr))
		return nil, fmt.Errorf("vision: aruco detector: %s", C.GoString(cerr))
	}
	return &arucoDetector{h: h, dict: dict}, nil
}

func (d *arucoDetector) Close() {
	if d.h != nil {
		C.Sztab_FreeDetector(d.h)
		d.h = nil
	}
}

// detect finds the markers in img (grey or BGR); offset is added to the
// corners (for a region of a larger image).
func (d *arucoDetector) detect(img gocv.Mat, offset geom.Vec2, out []RawMarker) ([]RawMarker, error) {
	out, _, err := d.detectWithRejected(img, offset, out, nil, false)
	return out, err
}

// detectWithRejected is detect that also returns the candidate squares
// that did not decode (their ID is -1) when wantRejected.
func (d *arucoDetector) detectWithRejected(img gocv.Mat, offset geom.Vec2, out, rejected []RawMarker, wantRejected bool) ([]RawMarker, []RawMarker, error) {
	var ids *C.int
	var corners, rej *C.float
	var nrej C.int
	var cerr *C.char
	var rejp **C.float
	if wantRejected {
		rejp = &rej
	}
	n := int(C.Sztab_Detect(d.h, unsafe.Pointer(img.Ptr()), &ids, &corners, &nrej, rejp, &cerr))
	if n < 0 {
		defer C.Sztab_Free(unsafe.Pointer(cerr))
		return out, rejected, fmt.Errorf("vision: detectMarkers: %s", C.GoString(cerr))
	}
	if rej != nil {
		defer C.Sztab_Free(unsafe.Pointer(rej))
		rs := unsafe.Slice((*C.float)(rej), 8*int(nrej))
		for i := 0; i < int(nrej); i++ {
			m := RawMarker{ID: -1}
			for k := 0; k < 4; k++ {
				m.Corners[k] = geom.Vec2{X: float64(rs[8*i+2*k]) + offset.X, Y: float64(rs[8*i+2*k+1]) + offset.Y}
			}
			rejected = append(rejected, m)
		}
	}
	if n == 0 {
		return out, rejected, nil
	}
	defer C.Sztab_Free(unsafe.Pointer(ids))
	defer C.Sztab_Free(unsafe.Pointer(corners))
	is := unsafe.Slice((*C.int)(ids), n)
	cs := unsafe.Slice((*C.float)(corners), 8*n)
	for i := 0; i < n; i++ {
		m := RawMarker{ID: int(is[i])}
		for k := 0; k < 4; k++ {
			m.Corners[k] = geom.Vec2{X: float64(cs[8*i+2*k]) + offset.X, Y: float64(cs[8*i+2*k+1]) + offset.Y}
		}
		out = append(out, m)
	}
	return out, rejected, nil
}

// openCVMarkerBits is marker id's bits as OpenCV has them (1 = white).
func openCVMarkerBits(dict, id int) (size int, bits []byte) {
	var buf [64]C.uchar
	n := int(C.Sztab_MarkerBits(C.int(dict), C.int(id), &buf[0]))
	if n < 0 {
		return -1, nil
	}
	bits = make([]byte, n*n)
	for i := range bits {
		bits[i] = byte(buf[i])
	}
	return n, bits
}
