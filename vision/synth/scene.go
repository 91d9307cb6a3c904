package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/geom"
)

// Fiducial is a marker that defines the table frame, printed on a white
// card lying on the table (its top at Height).
type Fiducial struct {
	Marker int     `json:"marker"`
	X      float64 `json:"x_mm"`
	Y      float64 `json:"y_mm"`
	Side   float64 `json:"side_mm"`
	Height float64 `json:"height_mm"`
	Rot    float64 `json:"rot_deg"`
}

// Model is a model's round base with its marker on top, on a white disc.
type Model struct {
	ID       string  `json:"id"`
	Unit     string  `json:"unit"`
	Marker   int     `json:"marker"`
	Diameter float64 `json:"base_mm"`
	// Height is the base's top (the marker) above the table.
	Height float64 `json:"height_mm"`
	Side   float64 `json:"marker_mm"`
}

// Placed is a model on the table.
type Placed struct {
	Model
	X   float64 `json:"x_mm"`
	Y   float64 `json:"y_mm"`
	Rot float64 `json:"rot_deg"`
}

// Hand is an arm reaching over the table: a forearm from A to B of the
// given width and a palm around B, held flat Height mm above the table.
type Hand struct {
	A      geom.Vec2 `json:"a"`
	B      geom.Vec2 `json:"b"`
	Width  float64   `json:"width_mm"`
	Palm   float64   `json:"palm_mm"`
	Height float64   `json:"height_mm"`
}

func (h *Hand) contains(x, y float64) bool { return h.containsGrown(x, y, 0) }

// containsGrown is contains for the hand grown by m mm on every side.
func (h *Hand) containsGrown(x, y, m float64) bool {
	dx, dy := x-h.B.X, y-h.B.Y
	if dx*dx+dy*dy <= (h.Palm+m)*(h.Palm+m) {
		return true
	}
	ax, ay := h.B.X-h.A.X, h.B.Y-h.A.Y
	l2 := ax*ax + ay*ay
	t := ((x-h.A.X)*ax + (y-h.A.Y)*ay) / l2
	if t < 0 || t > 1 {
		return false
	}
	px, py := h.A.X+t*ax-x, h.A.Y+t*ay-y
	return px*px+py*py <= (h.Width/2+m)*(h.Width/2+m)
}

// Lighting is the table's illumination: a level, a linear gradient across
// the table, a soft spot and the lens's vignetting.
type Lighting struct {
	Level     float64   `json:"level"`
	GradientX float64   `json:"gradient_x"`
	GradientY float64   `json:"gradient_y"`
	Spot      geom.Vec2 `json:"spot"`
	SpotMM    float64   `json:"spot_mm"`
	SpotGain  float64   `json:"spot_gain"`
	Vignette  float64   `json:"vignette"`
	// Shadow is the light's lean (mm sideways per mm down) for hand shadows.
	Shadow geom.Vec2 `json:"shadow"`
}

// Scene is everything needed to render one frame.
type Scene struct {
	Camera    Camera     `json:"camera"`
	TableW    float64    `json:"table_w_mm"`
	TableD    float64    `json:"table_d_mm"`
	Dict      string     `json:"dictionary"`
	Fiducials []Fiducial `json:"fiducials"`
	Models    []Placed   `json:"models"`
	Hands     []Hand     `json:"hands,omitempty"`
	Light     Lighting   `json:"lighting"`
	// Blur is the Gaussian blur's sigma in pixels (defocus, motion).
	Blur float64 `json:"blur_px"`
	// Noise is the sensor noise's sigma in grey levels.
	Noise float64 `json:"noise"`
	// Samples per pixel side for anti-aliasing (1–4).
	Samples int `json:"samples"`
	// Seed drives the table's texture and the noise.
	Seed uint64 `json:"seed"`
	// TerrainPatches is how many pieces of scenery are painted on the mat.
	TerrainPatches int `json:"terrain_patches"`
	// Terrain and Discs are the cover pieces and the template and
	// objective markers lying on the table (terrain.go; AddTerrain).
	Terrain []TerrainPiece `json:"terrain,omitempty"`
	Discs   []Disc         `json:"discs,omitempty"`
}

// Layout is the marker set of a table: fiducials and the models' markers.
type Layout struct {
	Dict      string
	TableW    float64
	TableD    float64
	Fiducials []Fiducial
	Models    []Model
}

// MarkerRatio is the marker's side as a fraction of the base diameter in
// the default layout: the marker's corners keep a white margin inside the
// round base.
const MarkerRatio = 0.64

// DefaultLayout is the standard table: fiducials 0–3 in the corners and,
// when a side is longer than 1.3 m, 4–7 at the edge midpoints; n models on
// markers 10, 11, … with bases cycling through 25, 32, 40, 25, 28, 50 mm.
func DefaultLayout(tableW, tableD float64, n int) Layout {
	const side, inset = 50.0, 45.0
	l := Layout{Dict: "4x4_100", TableW: tableW, TableD: tableD}
	corners := []geom.Vec2{{X: inset, Y: inset}, {X: tableW - inset, Y: inset}, {X: tableW - inset, Y: tableD - inset}, {X: inset, Y: tableD - inset}}
	for i, c := range corners {
		l.Fiducials = append(l.Fiducials, Fiducial{Marker: i, X: c.X, Y: c.Y, Side: side})
	}
	if tableW > 1300 {
		l.Fiducials = append(l.Fiducials,
			Fiducial{Marker: 4, X: tableW / 2, Y: inset, Side: side},
			Fiducial{Marker: 5, X: tableW / 2, Y: tableD - inset, Side: side})
	}
	if tableD > 1300 {
		l.Fiducials = append(l.Fiducials,
			Fiducial{Marker: 6, X: inset, Y: tableD / 2, Side: side},
			Fiducial{Marker: 7, X: tableW - inset, Y: tableD / 2, Side: side})
	}
	bases := []float64{25, 32, 40, 25, 28, 50}
	for i := 0; i < n; i++ {
		d := bases[i%len(bases)]
		h := 3.5
		if d >= 40 {
			h = 4.5
		}
		l.Models = append(l.Models, Model{
			ID:       fmt.Sprintf("m%02d", i+1),
			Unit:     fmt.Sprintf("u%d", i/5+1),
			Marker:   10 + i,
			Diameter: d,
			Height:   h,
			Side:     math.Round(d * MarkerRatio),
		})
	}
	return l
}

// Options choose a random scene.
type Options struct {
	Width, Height int
	Layout        Layout
	// Models is how many of the layout's models are placed (all if 0).
	Models int
	// CameraHeight is the range of camera heights, mm (1200–1800).
	CameraHeight [2]float64
	// MaxTilt is the largest lean of the optical axis from the vertical,
	// degrees (20), MinTilt the smallest; MaxYaw the camera's largest turn
	// from the table's axes (8); Flip allows the camera to be turned round
	// by 180°.
	MaxTilt, MaxYaw float64
	MinTilt         float64
	Flip            bool
	// Distortion gives the lens random radial and tangential distortion.
	Distortion bool
	// Blur and Noise are ranges (sigma in pixels, sigma in grey levels).
	Blur, Noise [2]float64
	// Uneven lights the table unevenly (gradient, spot, vignetting).
	Uneven bool
	// Hands is the largest number of arms over the table.
	Hands int
	// Samples per pixel side (default 2).
	Samples int
	// Margin is the table's distance from the image border, as a fraction
	// of the image (0.02).
	Margin float64
	// FrameFiducials frames the fiducial cards instead of the whole table:
	// the camera sees all the fiducials and the play area, and the table's
	// very edges may fall outside the image. It brings a 180×120 cm table
	// to about 0.9 mm per pixel at 2304×1296.
	FrameFiducials bool
}

// Defaults are the options of the accuracy tests at w×h.
func Defaults(w, h int, layout Layout) Options {
	return Options{
		Width: w, Height: h, Layout: layout,
		CameraHeight: [2]float64{1200, 1800},
		MaxTilt:      20, MaxYaw: 8, Flip: true,
		Distortion: true,
		Blur:       [2]float64{0.5, 1.0},
		Noise:      [2]float64{1, 4},
		Uneven:     true,
		Samples:    2,
		Margin:     0.02,
	}
}

func uniform(rng *rand.Rand, r [2]float64) float64 { return r[0] + rng.Float64()*(r[1]-r[0]) }

// Random builds a random scene from opt; the same seed gives the same scene.
func Random(opt Options, seed uint64) (*Scene, error) {
	if _, err := aruco.Lookup(opt.Layout.Dict); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x7ab1e))
	l := opt.Layout
	s := &Scene{
		TableW: l.TableW, TableD: l.TableD, Dict: l.Dict,
		Fiducials: append([]Fiducial(nil), l.Fiducials...),
		Samples:   opt.Samples, Seed: seed,
		Blur:           uniform(rng, opt.Blur),
		Noise:          uniform(rng, opt.Noise),
		TerrainPatches: 4 + rng.IntN(6),
	}
	if s.Samples <= 0 {
		s.Samples = 2
	}
	cam, err := randomCamera(rng, opt)
	if err != nil {
		return nil, err
	}
	s.Camera = cam
	s.Light = Lighting{Level: 0.8 + 0.2*rng.Float64(), Shadow: geom.Vec2{X: 0.3 * (rng.Float64() - 0.5), Y: 0.3 * (rng.Float64() - 0.5)}}
	if opt.Uneven {
		s.Light.GradientX = 0.5 * (rng.Float64() - 0.5)
		s.Light.GradientY = 0.5 * (rng.Float64() - 0.5)
		s.Light.Spot = geom.Vec2{X: rng.Float64() * l.TableW, Y: rng.Float64() * l.TableD}
		s.Light.SpotMM = 200 + 400*rng.Float64()
		s.Light.SpotGain = 0.5 * (rng.Float64() - 0.4)
		s.Light.Vignette = 0.3 * rng.Float64()
	}
	n := opt.Models
	if n <= 0 || n > len(l.Models) {
		n = len(l.Models)
	}
	s.Models = placeModels(rng, l, n)
	if opt.Hands > 0 {
		for k := rng.IntN(opt.Hands + 1); k > 0; k-- {
			s.Hands = append(s.Hands, randomHand(rng, l.TableW, l.TableD))
		}
	}
	return s, nil
}

// Moved returns a copy of s with k models moved to new free places and a
// fresh noise seed, for sequences.
func (s *Scene) Moved(k int, seed uint64) *Scene {
	rng := rand.New(rand.NewPCG(seed, 0xbeef))
	c := *s
	c.Models = append([]Placed(nil), s.Models...)
	c.Seed = seed
	for ; k > 0 && len(c.Models) > 0; k-- {
		i := rng.IntN(len(c.Models))
		others := append(append([]Placed(nil), c.Models[:i]...), c.Models[i+1:]...)
		if p, ok := freeSpot(rng, s.TableW, s.TableD, s.Fiducials, others, c.Models[i].Model); ok {
			c.Models[i] = p
		}
	}
	return &c
}

func randomCamera(rng *rand.Rand, opt Options) (Camera, error) {
	l := opt.Layout
	w, h := opt.Width, opt.Height
	if w <= 0 || h <= 0 {
		return Camera{}, fmt.Errorf("synth: image size %d×%d", w, h)
	}
	height := uniform(rng, opt.CameraHeight)
	if height <= 0 {
		height = 1500
	}
	tilt := opt.MinTilt + rng.Float64()*(opt.MaxTilt-opt.MinTilt)
	az := rng.Float64() * 360
	yaw := (2*rng.Float64() - 1) * opt.MaxYaw
	if opt.Flip && rng.IntN(2) == 1 {
		yaw += 180
	}
	aim := geom.Vec2{X: l.TableW * (0.5 + 0.03*(2*rng.Float64()-1)), Y: l.TableD * (0.5 + 0.03*(2*rng.Float64()-1))}
	t := tilt * math.Pi / 180
	a := az * math.Pi / 180
	off := height * math.Tan(t)
	centre := geom.Vec3{aim.X - off*math.Cos(a), aim.Y - off*math.Sin(a), height}
	lens := geom.Lens{CX: float64(w)/2 - 0.5 + 0.01*float64(w)*(2*rng.Float64()-1), CY: float64(h)/2 - 0.5 + 0.01*float64(h)*(2*rng.Float64()-1)}
	if opt.Distortion {
		lens.K1 = -0.15 + 0.2*rng.Float64()
		lens.K2 = -0.05 + 0.12*rng.Float64()
		lens.P1 = 0.002 * (2*rng.Float64() - 1)
		lens.P2 = 0.002 * (2*rng.Float64() - 1)
	}
	// frame the table: the largest focal length that keeps it inside the
	// image with the margin
	lens.FX, lens.FY = 1, 1
	cam := LookDown(w, h, lens, centre, tilt, az, yaw)
	margin := opt.Margin * math.Max(float64(w), float64(h))
	outline := tableOutline(l.TableW, l.TableD)
	if opt.FrameFiducials && len(l.Fiducials) > 0 {
		outline = fiducialOutline(l.Fiducials)
	}
	f := math.Inf(1)
	for _, p := range outline {
		q := cam.camPoint(p.X, p.Y, 0)
		xn, yn := q[0]/q[2], q[1]/q[2]
		f = math.Min(f, bound(xn, lens.CX, float64(w), margin))
		f = math.Min(f, bound(yn, lens.CY, float64(h), margin))
	}
	if !(f > 0) || math.IsInf(f, 1) {
		return Camera{}, fmt.Errorf("synth: cannot frame the table")
	}
	aspect := 1 + 0.002*(2*rng.Float64()-1)
	fits := func(f float64) bool {
		cam.Lens.FX, cam.Lens.FY = f, f*aspect
		for _, p := range outline {
			px, ok := cam.Pixel(p.X, p.Y, 0)
			if !ok || !cam.InImage(px, margin) {
				return false
			}
		}
		return true
	}
	// the pinhole framing, then the largest focal length that still fits
	// with the distortion
	for try := 0; try < 100 && !fits(f); try++ {
		f *= 0.99
	}
	if !fits(f) {
		return Camera{}, fmt.Errorf("synth: cannot frame the table with this lens")
	}
	for try := 0; try < 100 && fits(f*1.005); try++ {
		f *= 1.005
	}
	fits(f)
	return cam, nil
}

func fiducialOutline(fs []Fiducial) []geom.Vec2 {
	var pts []geom.Vec2
	for _, f := range fs {
		for _, c := range geom.SquareCorners(geom.Vec2{X: f.X, Y: f.Y}, f.Side*fiducialCard, f.Rot) {
			pts = append(pts, c)
		}
	}
	return pts
}

func bound(xn, c, size, margin float64) float64 {
	switch {
	case xn > 1e-9:
		return (size - 1 - margin - c) / xn
	case xn < -1e-9:
		return (margin - c) / xn
	}
	return math.Inf(1)
}

func tableOutline(w, d float64) []geom.Vec2 {
	var pts []geom.Vec2
	const n = 8
	for i := 0; i <= n; i++ {
		f := float64(i) / n
		pts = append(pts, geom.Vec2{X: f * w, Y: 0}, geom.Vec2{X: f * w, Y: d}, geom.Vec2{X: 0, Y: f * d}, geom.Vec2{X: w, Y: f * d})
	}
	return pts
}

func placeModels(rng *rand.Rand, l Layout, n int) []Placed {
	var out []Placed
	for i := 0; i < n; i++ {
		if p, ok := freeSpot(rng, l.TableW, l.TableD, l.Fiducials, out, l.Models[i]); ok {
			out = append(out, p)
		}
	}
	return out
}

func freeSpot(rng *rand.Rand, w, d float64, fids []Fiducial, others []Placed, m Model) (Placed, bool) {
	r := m.Diameter / 2
	for try := 0; try < 2000; try++ {
		x := r + 10 + rng.Float64()*(w-2*r-20)
		y := r + 10 + rng.Float64()*(d-2*r-20)
		ok := true
		for _, f := range fids {
			if math.Abs(x-f.X) < f.Side*0.75+r+5 && math.Abs(y-f.Y) < f.Side*0.75+r+5 {
				ok = false
				break
			}
		}
		for _, o := range others {
			if !ok {
				break
			}
			if math.Hypot(x-o.X, y-o.Y) < r+o.Diameter/2+4 {
				ok = false
			}
		}
		if ok {
			return Placed{Model: m, X: x, Y: y, Rot: rng.Float64() * 360}, true
		}
	}
	return Placed{}, false
}

func randomHand(rng *rand.Rand, w, d float64) Hand {
	// enter from a random edge, reach 150–500 mm in
	var a, dir geom.Vec2
	switch rng.IntN(4) {
	case 0:
		a, dir = geom.Vec2{X: rng.Float64() * w, Y: -150}, geom.Vec2{X: 0, Y: 1}
	case 1:
		a, dir = geom.Vec2{X: rng.Float64() * w, Y: d + 150}, geom.Vec2{X: 0, Y: -1}
	case 2:
		a, dir = geom.Vec2{X: -150, Y: rng.Float64() * d}, geom.Vec2{X: 1, Y: 0}
	default:
		a, dir = geom.Vec2{X: w + 150, Y: rng.Float64() * d}, geom.Vec2{X: -1, Y: 0}
	}
	ang := (rng.Float64() - 0.5) * 0.8
	c, s := math.Cos(ang), math.Sin(ang)
	dir = geom.Vec2{X: c*dir.X - s*dir.Y, Y: s*dir.X + c*dir.Y}
	reach := 300 + 350*rng.Float64()
	return Hand{A: a, B: a.Add(dir.Scale(reach)), Width: 75 + 25*rng.Float64(), Palm: 45 + 15*rng.Float64(), Height: 60 + 200*rng.Float64()}
}
