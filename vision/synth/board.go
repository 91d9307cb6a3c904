package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/board"
	"github.com/sztab/sztab/vision/geom"
)

// BoardPiece is one piece on a printed board: its colour (a colour of the
// board definition) and the centre of its footprint, in board mm.
type BoardPiece struct {
	Colour string  `json:"colour"`
	X      float64 `json:"x_mm"`
	Y      float64 `json:"y_mm"`
}

// BoardLight is the light on a printed board: an overall gain, a colour
// cast (per channel, R G B) and a linear fall-off across the board (per
// mm, x and y from its centre).
type BoardLight struct {
	Gain     float64
	Tint     [3]float64
	Gradient [2]float64
}

// BoardScene is a printed board (a board definition drawn: paper, zone
// outlines, node discs, the corner markers) with pieces on it — blocks or
// pawns of the definition's shape — seen by a camera, board mm being the
// camera's table mm. Hidden lists corner markers left unprinted.
type BoardScene struct {
	Def    *board.Definition
	Pieces []BoardPiece
	Camera Camera
	Light  BoardLight
	Noise  float64
	Hidden []int
}

// TrueBoardCalibration is the board calibration of a camera that sees
// every corner marker exactly where cam puts it (a width×height frame):
// what `sztab calibrate board` finds on a noise-free frame.
func TrueBoardCalibration(d *board.Definition, cam Camera, width, height int) (*board.Calibration, error) {
	seen := map[int][4]geom.Vec2{}
	for _, m := range d.Markers {
		var c [4]geom.Vec2
		for k, p := range geom.SquareCorners(geom.Vec2{X: m.X, Y: m.Y}, m.SideMM, 0) {
			c[k], _ = cam.Pixel(p.X, p.Y, 0)
		}
		seen[m.ID] = c
	}
	return board.Calibrate(d, board.CalibrateInput{Width: width, Height: height, Seen: seen, Lens: cam.Lens})
}

// SavedBoard is a printed board seen by the tests' camera (960×720, 1 m
// above it, leaning 4°), with its true calibration saved at path.
func SavedBoard(d *board.Definition, path string) (Camera, error) {
	cam := BoardCamera(d, 960, 720, 1000, 4, 70, geom.Vec2{})
	cal, err := TrueBoardCalibration(d, cam, 960, 720)
	if err != nil {
		return Camera{}, err
	}
	return cam, cal.Save(path)
}

// BoardCamera is a camera heightMM above the board, leaning tiltDeg
// towards azDeg and aimed at the board's centre (moved by offset), whose focal length fits the
// board into the frame with a margin.
func BoardCamera(d *board.Definition, width, height int, heightMM, tiltDeg, azDeg float64, offset geom.Vec2) Camera {
	f := math.Min(float64(width)*0.8*heightMM/d.WidthMM, float64(height)*0.8*heightMM/d.DepthMM)
	lens := geom.Lens{FX: f, FY: f, CX: float64(width)/2 - 0.5, CY: float64(height)/2 - 0.5}
	// The optical axis meets the board at its centre (moved by offset).
	t, a := tiltDeg*math.Pi/180, azDeg*math.Pi/180
	cx := d.WidthMM/2 + offset.X - heightMM*math.Tan(t)*math.Cos(a)
	cy := d.DepthMM/2 + offset.Y - heightMM*math.Tan(t)*math.Sin(a)
	return LookDown(width, height, lens, geom.Vec3{cx, cy, heightMM}, tiltDeg, azDeg, 0)
}

type boardRender struct {
	s      *BoardScene
	dict   *aruco.Dictionary
	colour map[string][3]float64
	hidden map[int]bool
	bins   [][]int
	bw, bh int
	inv    geom.Mat3
	boxes  [][4]float64 // each zone's bounding box: x0, y0, x1, y1
}

const binPx = 32

// RenderBoard ray-casts the scene (2×2 samples a pixel), then adds the
// light and the sensor noise (deterministic for a seed).
func RenderBoard(s *BoardScene, seed uint64) (*Image, error) {
	dict, err := aruco.Lookup(s.Def.Dictionary)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	r := &boardRender{s: s, dict: dict, colour: map[string][3]float64{}, hidden: map[int]bool{}}
	for _, c := range s.Def.Colours {
		r.colour[c.Name] = [3]float64{float64(c.RGB[0]) / 255, float64(c.RGB[1]) / 255, float64(c.RGB[2]) / 255}
	}
	for _, p := range s.Pieces {
		if _, ok := r.colour[p.Colour]; !ok {
			return nil, fmt.Errorf("synth: piece colour %q is not the board's", p.Colour)
		}
	}
	for _, id := range s.Hidden {
		r.hidden[id] = true
	}
	for _, z := range s.Def.Zones {
		b := [4]float64{z.Polygon[0][0], z.Polygon[0][1], z.Polygon[0][0], z.Polygon[0][1]}
		for _, p := range z.Polygon {
			b = [4]float64{math.Min(b[0], p[0]), math.Min(b[1], p[1]), math.Max(b[2], p[0]), math.Max(b[3], p[1])}
		}
		r.boxes = append(r.boxes, b)
	}
	cam := &s.Camera
	r.inv, err = cam.R.Inv()
	if err != nil {
		return nil, err
	}
	r.bw, r.bh = (cam.Width+binPx-1)/binPx, (cam.Height+binPx-1)/binPx
	r.bins = make([][]int, r.bw*r.bh)
	half := s.Def.Piece.SizeMM/2 + 0.5
	for i, p := range s.Pieces {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, h := range []float64{0, s.Def.Piece.HeightMM} {
			for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				q, ok := cam.Ideal(p.X+c[0]*half, p.Y+c[1]*half, h)
				if !ok {
					continue
				}
				x0, y0, x1, y1 = math.Min(x0, q.X), math.Min(y0, q.Y), math.Max(x1, q.X), math.Max(y1, q.Y)
			}
		}
		for by := max(0, int(y0)/binPx-1); by <= min(r.bh-1, int(y1)/binPx+1); by++ {
			for bx := max(0, int(x0)/binPx-1); bx <= min(r.bw-1, int(x1)/binPx+1); bx++ {
				r.bins[by*r.bw+bx] = append(r.bins[by*r.bw+bx], i)
			}
		}
	}
	im := &Image{Width: cam.Width, Height: cam.Height, BGR: make([]byte, 3*cam.Width*cam.Height)}
	light := s.Light
	if light.Gain == 0 {
		light.Gain = 1
	}
	if light.Tint == ([3]float64{}) {
		light.Tint = [3]float64{1, 1, 1}
	}
	parallelRows(cam.Height, func(y0, y1 int) {
		rng := rand.New(rand.NewPCG(seed, uint64(y0)))
		for y := y0; y < y1; y++ {
			for x := 0; x < cam.Width; x++ {
				var acc [3]float64
				for _, o := range [4][2]float64{{-0.25, -0.25}, {0.25, -0.25}, {-0.25, 0.25}, {0.25, 0.25}} {
					c, bx, by := r.ray(float64(x)+o[0], float64(y)+o[1], x/binPx, y/binPx)
					g := light.Gain * (1 + light.Gradient[0]*(bx-s.Def.WidthMM/2) + light.Gradient[1]*(by-s.Def.DepthMM/2))
					for ch := range 3 {
						acc[ch] += c[ch] * g * light.Tint[ch] * 255 / 4
					}
				}
				i := 3 * (y*cam.Width + x)
				for ch := range 3 {
					v := acc[ch]
					if s.Noise > 0 {
						v += rng.NormFloat64() * s.Noise
					}
					im.BGR[i+2-ch] = clamp8(v)
				}
			}
		}
	})
	return im, nil
}

// ray is the colour seen through ideal pixel (u, v) and the board point
// it falls on (for the light).
func (r *boardRender) ray(u, v float64, bx, by int) ([3]float64, float64, float64) {
	cam := &r.s.Camera
	n := cam.Lens.Normalize(geom.Vec2{X: u, Y: v})
	d := r.inv.MulVec(geom.Vec3{n.X, n.Y, 1}) // x, y, z down
	ox, oy, oh := cam.Centre[0], cam.Centre[1], cam.Centre[2]
	dx, dy, dh := d[0], d[1], -d[2]
	best := math.Inf(1)
	var col [3]float64
	if bx >= 0 && by >= 0 && bx < r.bw && by < r.bh {
		def := r.s.Def
		hs, ht := def.Piece.SizeMM/2, def.Piece.HeightMM
		for _, pi := range r.bins[by*r.bw+bx] {
			p := r.s.Pieces[pi]
			var t, shade float64
			var ok bool
			if def.Piece.Shape == "block" {
				t, shade, ok = hitBox(ox-p.X, oy-p.Y, oh, dx, dy, dh, hs, ht)
			} else {
				t, shade, ok = hitCylinder(ox-p.X, oy-p.Y, oh, dx, dy, dh, hs, ht)
			}
			if ok && t < best {
				best = t
				// The board file's colours are as seen on a white-balanced
				// frame: relative to the paper.
				c := r.colour[p.Colour]
				col = [3]float64{c[0] * shade * paper[0], c[1] * shade * paper[1], c[2] * shade * paper[2]}
			}
		}
	}
	t0 := oh / -dh
	x, y := ox+t0*dx, oy+t0*dy
	if best < math.Inf(1) {
		return col, ox + best*dx, oy + best*dy
	}
	return r.print(x, y), x, y
}

// hitBox intersects the ray (origin relative to the box's centre) with an
// upright box of half side hs and height ht; shade is the lit face's.
func hitBox(ox, oy, oh, dx, dy, dh, hs, ht float64) (float64, float64, bool) {
	tmin, tmax := math.Inf(-1), math.Inf(1)
	face := -1
	for ax, lim := range [3][2]float64{{-hs, hs}, {-hs, hs}, {0, ht}} {
		o, d := [3]float64{ox, oy, oh}[ax], [3]float64{dx, dy, dh}[ax]
		if math.Abs(d) < 1e-12 {
			if o < lim[0] || o > lim[1] {
				return 0, 0, false
			}
			continue
		}
		t1, t2 := (lim[0]-o)/d, (lim[1]-o)/d
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		if t1 > tmin {
			tmin, face = t1, ax
		}
		tmax = math.Min(tmax, t2)
	}
	if tmin > tmax || tmin <= 0 {
		return 0, 0, false
	}
	return tmin, [3]float64{0.62, 0.72, 1}[face], true
}

// hitCylinder intersects the ray with an upright cylinder of radius rad
// and height ht centred at the origin.
func hitCylinder(ox, oy, oh, dx, dy, dh, rad, ht float64) (float64, float64, bool) {
	if dh < 0 && oh > ht {
		t := (ht - oh) / dh
		x, y := ox+t*dx, oy+t*dy
		if x*x+y*y <= rad*rad {
			return t, 1, true
		}
	}
	a := dx*dx + dy*dy
	b := 2 * (ox*dx + oy*dy)
	c := ox*ox + oy*oy - rad*rad
	disc := b*b - 4*a*c
	if a < 1e-12 || disc < 0 {
		return 0, 0, false
	}
	t := (-b - math.Sqrt(disc)) / (2 * a)
	h := oh + t*dh
	if t <= 0 || h < 0 || h > ht {
		return 0, 0, false
	}
	nx, ny := (ox+t*dx)/rad, (oy+t*dy)/rad
	return t, 0.6 + 0.15*(nx*0.5-ny*0.8), true
}

// paper is the board's paper's reflectance.
var paper = [3]float64{0.9, 0.89, 0.84}

// print is the printed board's reflectance at (x, y) mm; off the board,
// the table's. Zones are drawn as their bounding rectangles (the built-in
// boards' zones are rectangles).
func (r *boardRender) print(x, y float64) [3]float64 {
	d := r.s.Def
	if x < 0 || y < 0 || x > d.WidthMM || y > d.DepthMM {
		return [3]float64{0.32, 0.22, 0.14}
	}
	for _, m := range d.Markers {
		if r.hidden[m.ID] {
			continue
		}
		n := float64(r.dict.Size + 2)
		u := ((x-m.X)/m.SideMM + 0.5) * n
		v := ((y-m.Y)/m.SideMM + 0.5) * n
		if u >= 0 && v >= 0 && u < n && v < n {
			if r.dict.Cell(m.ID, int(v), int(u)) {
				return [3]float64{0.9, 0.9, 0.88}
			}
			return [3]float64{0.06, 0.06, 0.06}
		}
	}
	tint := [3]float64{0.86, 0.84, 0.74}
	line := [3]float64{0.5, 0.48, 0.45}
	for _, b := range r.boxes {
		x0, y0, x1, y1 := b[0], b[1], b[2], b[3]
		if x >= x0 && x <= x1 && y >= y0 && y <= y1 {
			if x-x0 < 1.2 || x1-x < 1.2 || y-y0 < 1.2 || y1-y < 1.2 {
				return line
			}
			return tint
		}
	}
	for _, nd := range d.Nodes {
		dist := math.Hypot(x-nd.X, y-nd.Y)
		if dist <= nd.RadiusMM {
			if nd.RadiusMM-dist < 1.2 {
				return line
			}
			return tint
		}
	}
	return paper
}
