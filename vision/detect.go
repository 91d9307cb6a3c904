package vision

import "github.com/sztab/sztab/vision/geom"

// RawMarker is one ArUco marker as the detector reports it: its id and
// its corners in the camera image (pixels, distorted), in ArUco order
// (the marker's top-left, top-right, bottom-right, bottom-left).
type RawMarker struct {
	ID      int
	Corners [4]geom.Vec2
}

// Centre is where the marker's diagonals cross: the image of its centre
// under any perspective.
func (m RawMarker) Centre() geom.Vec2 { return diagonalCross(m.Corners) }

func diagonalCross(c [4]geom.Vec2) geom.Vec2 {
	// p = c0 + s·(c2−c0) = c1 + t·(c3−c1)
	d1 := c[2].Sub(c[0])
	d2 := c[3].Sub(c[1])
	den := d1.X*d2.Y - d1.Y*d2.X
	if den == 0 {
		return c[0].Add(c[1]).Add(c[2]).Add(c[3]).Scale(0.25)
	}
	w := c[1].Sub(c[0])
	s := (w.X*d2.Y - w.Y*d2.X) / den
	return c[0].Add(d1.Scale(s))
}

// DetectorParams tune OpenCV's ArUco detector. The defaults are chosen for
// markers of 12–60 pixels: small markers are allowed (perimeter 1.2% of
// the image's larger side); OpenCV does not refine the corners, the
// pipeline does (RefineCorners, which is more accurate on small markers).
type DetectorParams struct {
	AdaptiveWinMin, AdaptiveWinMax, AdaptiveWinStep int
	AdaptiveConstant                                float64
	MinPerimeterRate, MaxPerimeterRate              float64
	PolygonalAccuracy                               float64
	MinCornerDistanceRate                           float64
	MinDistanceToBorder                             int
	MinMarkerDistanceRate                           float64
	// CornerRefinement: 0 none, 1 subpixel, 2 contour, 3 AprilTag.
	CornerRefinement                      int
	RefineWindow, RefineIterations        int
	RefineAccuracy                        float64
	PixelsPerCell                         int
	IgnoredMarginPerCell                  float64
	MaxErroneousBorderRate, MinOtsuStdDev float64
	ErrorCorrectionRate                   float64
	Aruco3                                bool
	MinSideCanonical                      int
	MinLengthRatioOriginal                float64
}

// DefaultDetectorParams are the pipeline's detector settings.
func DefaultDetectorParams() DetectorParams {
	return DetectorParams{
		AdaptiveWinMin: 3, AdaptiveWinMax: 23, AdaptiveWinStep: 10, AdaptiveConstant: 7,
		MinPerimeterRate: 0.012, MaxPerimeterRate: 4,
		PolygonalAccuracy:     0.05,
		MinCornerDistanceRate: 0.05,
		MinDistanceToBorder:   3,
		MinMarkerDistanceRate: 0.05,
		CornerRefinement:      0,
		RefineWindow:          3, RefineIterations: 30, RefineAccuracy: 0.01,
		PixelsPerCell:          4,
		IgnoredMarginPerCell:   0.13,
		MaxErroneousBorderRate: 0.35,
		MinOtsuStdDev:          5,
		ErrorCorrectionRate:    0.6,
		MinSideCanonical:       32,
		MinLengthRatioOriginal: 0,
	}
}
