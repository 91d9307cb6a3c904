//go:build cgo

package vision

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

// frameDetector finds the registry's markers in a frame: OpenCV's
// detectMarkers, then the pipeline's own subpixel corner refinement.
type frameDetector struct {
	reg  *Registry
	det  *arucoDetector
	gray gocv.Mat
}

// detected is a marker found in a frame.
type detected struct {
	RawMarker
	refined bool
	// recovered: OpenCV rejected the candidate, our decoder read it
	recovered bool
}

// detection is what one frame holds.
type detection struct {
	fiducials []RawMarker
	models    []detected
	rejected  []RawMarker
	gray      Gray
}

func newFrameDetector(reg *Registry, p DetectorParams) (*frameDetector, error) {
	det, err := newArucoDetector(reg.Dict(), p)
	if err != nil {
		return nil, err
	}
	return &frameDetector{reg: reg, det: det, gray: gocv.NewMat()}, nil
}

func (d *frameDetector) Close() {
	d.det.Close()
	d.gray.Close()
}

// toGray converts the frame into d.gray and returns a view of it.
func (d *frameDetector) toGray(frame gocv.Mat) (Gray, error) {
	switch frame.Channels() {
	case 1:
		frame.CopyTo(&d.gray)
	case 3:
		gocv.CvtColor(frame, &d.gray, gocv.ColorBGRToGray)
	case 4:
		gocv.CvtColor(frame, &d.gray, gocv.ColorBGRAToGray)
	default:
		return Gray{}, fmt.Errorf("vision: a frame with %d channels", frame.Channels())
	}
	pix, err := d.gray.DataPtrUint8()
	if err != nil {
		return Gray{}, fmt.Errorf("vision: grey frame: %w", err)
	}
	return Gray{W: d.gray.Cols(), H: d.gray.Rows(), Stride: d.gray.Step(), Pix: pix}, nil
}

// detect runs detectMarkers and refines what it found. With
// wantRejected, the candidates that did not decode are kept for a second
// look.
func (d *frameDetector) detect(frame gocv.Mat, wantRejected bool) (detection, error) {
	return d.detectIn(frame, nil, wantRejected)
}

// detectIn is detect over the regions of the frame only (nil: all of it).
// A marker is found in a region when the whole marker lies inside it, so
// the regions must be grown by a marker's size around what they cover.
func (d *frameDetector) detectIn(frame gocv.Mat, regions []image.Rectangle, wantRejected bool) (detection, error) {
	g, err := d.toGray(frame)
	if err != nil {
		return detection{}, err
	}
	var raw, rej []RawMarker
	if regions == nil {
		raw, rej, err = d.det.detectWithRejected(d.gray, geom.Vec2{}, nil, nil, wantRejected)
	}
	for _, r := range regions {
		r = r.Intersect(image.Rect(0, 0, d.gray.Cols(), d.gray.Rows()))
		if r.Empty() {
			continue
		}
		crop := d.gray.Region(r)
		raw, rej, err = d.det.detectWithRejected(crop, geom.Vec2{X: float64(r.Min.X), Y: float64(r.Min.Y)}, raw, rej, wantRejected)
		crop.Close()
		if err != nil {
			break
		}
	}
	if err != nil {
		return detection{}, err
	}
	raw = dropNested(raw)
	cells := d.reg.Dict().Size + 2
	out := detection{rejected: rej, gray: g}
	var mine []RawMarker
	for _, m := range raw {
		_, fid := d.reg.Fiducial(m.ID)
		_, model := d.reg.Model(m.ID)
		if fid || model {
			mine = append(mine, m)
		}
	}
	refined := make([]bool, len(mine))
	parallel(len(mine), func(i int) {
		rc, _, ok := RefineCorners(&g, mine[i].Corners, cells)
		if ok {
			mine[i].Corners = rc
		}
		refined[i] = ok
	})
	for i, m := range mine {
		if _, fid := d.reg.Fiducial(m.ID); fid {
			if refined[i] {
				out.fiducials = append(out.fiducials, m)
			}
			continue
		}
		out.models = append(out.models, detected{RawMarker: m, refined: refined[i]})
	}
	return out, nil
}

// dropNested removes markers whose centre lies inside a larger marker: a
// pattern inside a big fiducial can read as a small marker.
func dropNested(ms []RawMarker) []RawMarker {
	out := ms[:0:0]
	for i, m := range ms {
		nested := false
		c := m.Centre()
		for j, o := range ms {
			if i != j && quadArea(o.Corners) > quadArea(m.Corners) && insideQuad(o.Corners, c) {
				nested = true
				break
			}
		}
		if !nested {
			out = append(out, m)
		}
	}
	return out
}
