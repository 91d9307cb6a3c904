package synth

import (
	"math"
	"math/rand/v2"

	"github.com/sztab/sztab/vision/geom"
)

// Chessboard is a printed calibration board held in front of the camera:
// Cols × Rows inner corners, Square mm squares, posed by R (board →
// camera) and T (the first inner corner in camera coordinates, mm).
type Chessboard struct {
	Cols, Rows int
	Square     float64
	R          geom.Mat3
	T          geom.Vec3
}

// Corners are the inner corners' true pixels (distorted), row by row.
func (b Chessboard) Corners(c *Camera) []geom.Vec2 {
	var out []geom.Vec2
	for j := 0; j < b.Rows; j++ {
		for i := 0; i < b.Cols; i++ {
			p := b.R.MulVec(geom.Vec3{float64(i) * b.Square, float64(j) * b.Square, 0}).Add(b.T)
			n := geom.Vec2{X: p[0] / p[2], Y: p[1] / p[2]}
			out = append(out, c.Lens.Denormalize(c.Lens.Distort(n)))
		}
	}
	return out
}

// RandomChessboards poses n boards at random distances and angles, each
// wholly in view.
func RandomChessboards(c *Camera, cols, rows int, square float64, n int, seed uint64) []Chessboard {
	rng := rand.New(rand.NewPCG(seed, 0xc4e55))
	var out []Chessboard
	for len(out) < n {
		ax := (rng.Float64()*2 - 1) * 0.6
		ay := (rng.Float64()*2 - 1) * 0.6
		az := (rng.Float64()*2 - 1) * 0.5
		r := rotX(ax).Mul(rotY(ay)).Mul(rotZ(az))
		w, h := float64(cols-1)*square, float64(rows-1)*square
		dist := 450 + 500*rng.Float64()
		// put the board's centre somewhere in the middle of the view
		xn := (rng.Float64()*2 - 1) * 0.42 * float64(c.Width) / c.Lens.FX
		yn := (rng.Float64()*2 - 1) * 0.42 * float64(c.Height) / c.Lens.FY
		centre := geom.Vec3{xn * dist, yn * dist, dist}
		t := centre.Sub(r.MulVec(geom.Vec3{w / 2, h / 2, 0}))
		b := Chessboard{Cols: cols, Rows: rows, Square: square, R: r, T: t}
		ok := true
		// the outer squares too must be in view
		for _, q := range [][2]float64{{-1, -1}, {float64(cols), -1}, {float64(cols), float64(rows)}, {-1, float64(rows)}} {
			p := r.MulVec(geom.Vec3{q[0] * square, q[1] * square, 0}).Add(t)
			if p[2] <= 0 {
				ok = false
				break
			}
			px := c.Lens.Denormalize(c.Lens.Distort(geom.Vec2{X: p[0] / p[2], Y: p[1] / p[2]}))
			if !c.InImage(px, 10) {
				ok = false
			}
		}
		if ok {
			out = append(out, b)
		}
	}
	return out
}

func rotX(a float64) geom.Mat3 {
	c, s := math.Cos(a), math.Sin(a)
	return geom.Mat3{1, 0, 0, 0, c, -s, 0, s, c}
}

func rotY(a float64) geom.Mat3 {
	c, s := math.Cos(a), math.Sin(a)
	return geom.Mat3{c, 0, s, 0, 1, 0, -s, 0, c}
}

func rotZ(a float64) geom.Mat3 {
	c, s := math.Cos(a), math.Sin(a)
	return geom.Mat3{c, -s, 0, s, c, 0, 0, 0, 1}
}

// RenderChessboard renders the board in front of a plain wall.
func RenderChessboard(c *Camera, b Chessboard, blur, noise float64, samples int, seed uint64) *Image {
	grid := newUndistortGrid(c, 8)
	rt := b.R.T()
	nrm := b.R.Col(2)
	nt := nrm.Dot(b.T)
	w, h := c.Width, c.Height
	cl := &Clean{Width: w, Height: h, RGB: make([]float32, 3*w*h)}
	if samples <= 0 {
		samples = 2
	}
	shade := func(xn, yn float64) float64 {
		d := geom.Vec3{xn, yn, 1}
		den := nrm.Dot(d)
		if math.Abs(den) < 1e-9 {
			return 0.3
		}
		t := nt / den
		if t <= 0 {
			return 0.3
		}
		q := rt.MulVec(d.Scale(t).Sub(b.T))
		u, v := q[0]/b.Square, q[1]/b.Square
		// the squares run from −1 to Cols (Rows), with half a square of
		// white paper around them
		if u < -1.5 || v < -1.5 || u > float64(b.Cols)+0.5 || v > float64(b.Rows)+0.5 {
			return 0.3 + 0.05*math.Sin(xn*40)*math.Cos(yn*30)
		}
		if u < -1 || v < -1 || u >= float64(b.Cols) || v >= float64(b.Rows) {
			return 0.9
		}
		if (int(math.Floor(u))+int(math.Floor(v)))%2 == 0 {
			return 0.06
		}
		return 0.9
	}
	parallelRows(h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < w; x++ {
				acc := 0.0
				for sy := 0; sy < samples; sy++ {
					for sx := 0; sx < samples; sx++ {
						u := float64(x) + (float64(sx)+0.5)/float64(samples) - 0.5
						v := float64(y) + (float64(sy)+0.5)/float64(samples) - 0.5
						xn, yn := grid.at(u, v)
						acc += shade(xn, yn)
					}
				}
				g := float32(255 * acc / float64(samples*samples))
				i := 3 * (y*w + x)
				cl.RGB[i], cl.RGB[i+1], cl.RGB[i+2] = g, g, g
			}
		}
	})
	if blur > 0 {
		gaussianBlur(cl, blur)
	}
	return cl.Finish(noise, seed)
}
