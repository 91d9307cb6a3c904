package vision

import (
	"fmt"
	"math"

	"github.com/sztab/sztab/vision/geom"
)

// Observation is a model seen in one frame.
type Observation struct {
	Model *ModelSpec
	// Pos is the base's centre on the table, mm.
	Pos geom.Vec2
	// SigmaMM is the standard uncertainty of Pos per axis: calibration,
	// detection and parallax together.
	SigmaMM float64
	// Corners are the marker's corners in the camera image.
	Corners [4]geom.Vec2
}

// localiser turns detected markers into table positions.
type localiser struct {
	cal   *Calibration
	reg   *Registry
	inv   map[float64]geom.Homography
	fidOK map[int]bool
}

func newLocaliser(cal *Calibration, reg *Registry) *localiser {
	return &localiser{cal: cal, reg: reg, inv: map[float64]geom.Homography{}}
}

// inverse is the ideal-pixel → table mapping for the plane at height h.
func (l *localiser) inverse(h float64) (geom.Homography, error) {
	if m, ok := l.inv[h]; ok {
		return m, nil
	}
	m, err := l.cal.frame.HomographyAt(h).Inv()
	if err != nil {
		return m, fmt.Errorf("vision: table frame at %g mm: %w", h, err)
	}
	l.inv[h] = m
	return m, nil
}

// locate places a model's marker on the table. refined says whether the
// corners were refined to subpixel accuracy.
func (l *localiser) locate(m RawMarker, refined bool) (Observation, error) {
	spec, ok := l.reg.Model(m.ID)
	if !ok {
		return Observation{}, fmt.Errorf("vision: marker %d is in no model's registry entry", m.ID)
	}
	inv, err := l.inverse(spec.HeightMM)
	if err != nil {
		return Observation{}, err
	}
	var ideal, tc [4]geom.Vec2
	for k, c := range m.Corners {
		ideal[k] = l.cal.Lens.Ideal(c)
		tc[k] = inv.Apply(ideal[k])
	}
	centre := inv.Apply(diagonalCross(ideal))
	// the marker's size and squareness on the table
	side := 0.0
	for k := 0; k < 4; k++ {
		side += tc[k].Dist(tc[(k+1)%4]) / 4
	}
	if r := side / spec.MarkerMM; r < 0.8 || r > 1.25 {
		return Observation{}, fmt.Errorf("vision: marker %d (model %s) measures %.1f mm, the registry says %.1f mm", m.ID, spec.ID, side, spec.MarkerMM)
	}
	w, d := l.reg.Table.WidthMM, l.reg.Table.DepthMM
	if centre.X < -spec.BaseMM || centre.Y < -spec.BaseMM || centre.X > w+spec.BaseMM || centre.Y > d+spec.BaseMM {
		return Observation{}, fmt.Errorf("vision: marker %d (model %s) is off the table at (%.0f, %.0f) mm", m.ID, spec.ID, centre.X, centre.Y)
	}
	// the turn of the marker, averaged over its four edges
	var sx, sy float64
	for k := 0; k < 4; k++ {
		e := tc[(k+1)%4].Sub(tc[k])
		a := math.Atan2(e.Y, e.X) - float64(k)*math.Pi/2
		sx += math.Cos(a)
		sy += math.Sin(a)
	}
	rot := math.Atan2(sy, sx) * 180 / math.Pi
	want := geom.SquareCorners(centre, spec.MarkerMM, rot)
	shape := 0.0
	for k := 0; k < 4; k++ {
		// the corners' spread about a true square, scaled out
		shape += math.Pow(tc[k].Sub(centre).Scale(spec.MarkerMM/side).Dist(want[k].Sub(centre)), 2)
	}
	shape = math.Sqrt(shape / 4)
	scale := l.cal.ScaleAt(centre)
	floorPx := 0.1
	if !refined {
		floorPx = 0.5
	}
	det := math.Max(shape/2, floorPx*scale)
	// parallax: how well the height is known, at this distance from the
	// camera's foot
	cam := l.cal.frame.Camera
	par := l.reg.Defaults.HeightToleranceMM * math.Hypot(centre.X-cam[0], centre.Y-cam[1]) / cam[2]
	// calibration: its error between the fiducials, where models stand
	calib := l.cal.Error.PositionMM()
	sigma := math.Sqrt(calib*calib + det*det + par*par)
	return Observation{Model: spec, Pos: centre, SigmaMM: sigma, Corners: m.Corners}, nil
}

// fiducialDrift is the RMS distance (pixels) between where the fiducials
// are seen and where the calibration puts them.
func (l *localiser) fiducialDrift(ms []RawMarker) (rms float64, n int) {
	var e []float64
	for _, m := range ms {
		f, ok := l.reg.Fiducial(m.ID)
		if !ok {
			continue
		}
		tc := f.Corners()
		for k := 0; k < 4; k++ {
			p := l.cal.ToImage(tc[k].X, tc[k].Y, l.cal.FiducialHeightMM)
			e = append(e, p.Dist(m.Corners[k]))
		}
		n++
	}
	return geom.RMS(e), n
}
