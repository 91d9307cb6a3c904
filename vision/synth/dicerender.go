package synth

import (
	"math"

	"github.com/sztab/sztab/vision/geom"
)

// pipSpots are the pips of each face, in units of the pip spacing from
// the face's centre.
var pipSpots = [7][][2]float64{
	1: {{0, 0}},
	2: {{-1, -1}, {1, 1}},
	3: {{-1, -1}, {0, 0}, {1, 1}},
	4: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	5: {{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
	6: {{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 0}, {1, 1}},
}

// Die proportions, as fractions of the side: the pip spacing, the pips'
// radius (the one-pip face's is larger) and the rounding of the corners.
const (
	pipSpacing = 0.26
	pipRadius  = 0.085
	onePip     = 0.12
	cornerR    = 0.10
)

// lightDir points towards the lamp (mostly overhead).
var lightDir = geom.Vec3{-0.25, -0.35, 1}.Unit()

type rdie struct {
	c     geom.Vec3
	r, rt geom.Mat3
	a     float64
	faces [3][2]int // value of the +/− face of each local axis
	col   DieColour
}

type trayObj struct {
	die  *rdie
	coin *Coin
	pen  *Pencil
}

type trayRenderer struct {
	t      *Tray
	dice   []rdie
	tile   int
	tw, th int
	tiles  [][]trayObj
	wMM    float64
	hMM    float64
}

func newTrayRenderer(t *Tray) *trayRenderer {
	r := &trayRenderer{t: t, tile: 32}
	r.wMM, r.hMM = 2*t.CX, 2*t.CY
	r.tw, r.th = (t.Width+r.tile-1)/r.tile, (t.Height+r.tile-1)/r.tile
	r.tiles = make([][]trayObj, r.tw*r.th)
	r.dice = make([]rdie, len(t.Dice))
	add := func(o trayObj, pts []geom.Vec2) {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range pts {
			x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
		}
		// room for the drop shadow, which falls away from the lamp
		x0, y0, x1, y1 = x0-4, y0-4, x1+60, y1+60
		for j := max(0, int(y0)/r.tile); j <= min(r.th-1, int(y1)/r.tile); j++ {
			for i := max(0, int(x0)/r.tile); i <= min(r.tw-1, int(x1)/r.tile); i++ {
				r.tiles[j*r.tw+i] = append(r.tiles[j*r.tw+i], o)
			}
		}
	}
	for i, d := range t.Dice {
		rd := &r.dice[i]
		rd.c = geom.Vec3{d.X, d.Y, d.Z}
		rd.r = d.rot()
		rd.rt = rd.r.T()
		rd.a = d.Side / 2
		rd.col = d.Colour
		pairs := [][2]int{{1, 6}, {2, 5}, {3, 4}}
		var rest [][2]int
		for _, p := range pairs {
			switch d.Value {
			case p[0]:
				rd.faces[2] = [2]int{p[0], p[1]}
			case p[1]:
				rd.faces[2] = [2]int{p[1], p[0]}
			default:
				rest = append(rest, p)
			}
		}
		if d.Turn&1 != 0 {
			rest[0], rest[1] = rest[1], rest[0]
		}
		if d.Turn&2 != 0 {
			rest[0][0], rest[0][1] = rest[0][1], rest[0][0]
		}
		rd.faces[0], rd.faces[1] = rest[0], rest[1]
		var pts []geom.Vec2
		for _, sx := range []float64{-1, 1} {
			for _, sy := range []float64{-1, 1} {
				for _, sz := range []float64{-1, 1} {
					p := rd.c.Add(rd.r.MulVec(geom.Vec3{sx, sy, sz}.Scale(rd.a)))
					pts = append(pts, t.Project(p[0], p[1], p[2]))
				}
			}
		}
		add(trayObj{die: rd}, pts)
	}
	for i := range t.Coins {
		c := &t.Coins[i]
		add(trayObj{coin: c}, []geom.Vec2{t.Project(c.X-c.R, c.Y-c.R, c.H), t.Project(c.X+c.R, c.Y+c.R, c.H)})
	}
	for i := range t.Pencils {
		p := &t.Pencils[i]
		w := p.Width
		add(trayObj{pen: p}, []geom.Vec2{t.Project(p.A.X-w, p.A.Y-w, w), t.Project(p.A.X+w, p.A.Y+w, w),
			t.Project(p.B.X-w, p.B.Y-w, w), t.Project(p.B.X+w, p.B.Y+w, w)})
	}
	return r
}

// hitBox intersects the ray o + t·d with a die: the distance, the local
// axis and side of the face hit, and the hit point in local coordinates.
func (d *rdie) hitBox(o, dir geom.Vec3) (t float64, axis int, sign float64, p geom.Vec3, ok bool) {
	lo := d.rt.MulVec(o.Sub(d.c))
	ld := d.rt.MulVec(dir)
	tmin, tmax := math.Inf(-1), math.Inf(1)
	for i := 0; i < 3; i++ {
		if math.Abs(ld[i]) < 1e-12 {
			if math.Abs(lo[i]) > d.a {
				return 0, 0, 0, p, false
			}
			continue
		}
		t1, t2 := (-d.a-lo[i])/ld[i], (d.a-lo[i])/ld[i]
		s := -1.0
		if t1 > t2 {
			t1, t2 = t2, t1
			s = 1
		}
		if t1 > tmin {
			tmin, axis, sign = t1, i, s
		}
		tmax = math.Min(tmax, t2)
	}
	if tmin > tmax || tmin <= 0 {
		return 0, 0, 0, p, false
	}
	p = lo.Add(ld.Scale(tmin))
	// rounded corners: the corner of the face beyond the rounding is air
	u, v := math.Abs(p[(axis+1)%3]), math.Abs(p[(axis+2)%3])
	rc := cornerR * 2 * d.a
	if u > d.a-rc && v > d.a-rc {
		du, dv := u-(d.a-rc), v-(d.a-rc)
		if du*du+dv*dv > rc*rc {
			return 0, 0, 0, p, false
		}
	}
	return tmin, axis, sign, p, true
}

// faceColour is the die's colour at local point p on face (axis, sign).
func (d *rdie) faceColour(axis int, sign float64, p geom.Vec3) [3]float64 {
	k := 0
	if sign < 0 {
		k = 1
	}
	val := d.faces[axis][k]
	u, v := p[(axis+1)%3], p[(axis+2)%3]
	s := 2 * d.a
	rad := pipRadius * s
	if val == 1 {
		rad = onePip * s
	}
	for _, sp := range pipSpots[val] {
		du, dv := u-sp[0]*pipSpacing*s, v-sp[1]*pipSpacing*s
		if r2 := du*du + dv*dv; r2 <= rad*rad {
			// a pip is a shallow dish: a little darker at its rim
			f := 0.85 + 0.15*(1-r2/(rad*rad))
			return [3]float64{d.col.Pips[0] * f, d.col.Pips[1] * f, d.col.Pips[2] * f}
		}
	}
	return d.col.Body
}

func (r *trayRenderer) light(x, y float64) float64 {
	t := r.t
	l := t.Level * (1 + t.GradX*(2*x/r.wMM-1) + t.GradY*(2*y/r.hMM-1))
	if t.ShadowGain > 0 {
		d := (x-t.ShadowP.X)*t.ShadowN.X + (y-t.ShadowP.Y)*t.ShadowN.Y
		k := math.Min(1, math.Max(0, (d+3)/6)) // a 6 mm soft edge
		l *= 1 - k*(1-t.ShadowGain)
	}
	return l
}

// sample traces the ray through pixel (u, v).
func (r *trayRenderer) sample(u, v float64, objs []trayObj) [3]float64 {
	t := r.t
	o := geom.Vec3{t.CX, t.CY, t.CameraMM}
	dir := geom.Vec3{(u - float64(t.Width-1)/2) / t.FocalPx, (v - float64(t.Height-1)/2) / t.FocalPx, -1}
	best := math.Inf(1)
	var col [3]float64
	var hx, hy float64
	for _, ob := range objs {
		switch {
		case ob.die != nil:
			d := ob.die
			tt, axis, sign, p, ok := d.hitBox(o, dir)
			if !ok || tt >= best {
				continue
			}
			best = tt
			c := d.faceColour(axis, sign, p)
			var ln geom.Vec3
			ln[axis] = sign
			n := d.r.MulVec(ln)
			shade := 0.3 + 0.7*math.Max(0, n.Dot(lightDir))
			// the rounded edges turn away from the lamp
			e := math.Max(math.Abs(p[(axis+1)%3]), math.Abs(p[(axis+2)%3])) - d.a*(1-2*cornerR)
			if e > 0 {
				shade *= 1 - 0.35*e/(2*cornerR*d.a)
			}
			col = [3]float64{c[0] * shade, c[1] * shade, c[2] * shade}
			hx, hy = o[0]+tt*dir[0], o[1]+tt*dir[1]
		case ob.coin != nil:
			c := ob.coin
			tt := t.CameraMM - c.H
			x, y := o[0]+tt*dir[0], o[1]+tt*dir[1]
			rr := math.Hypot(x-c.X, y-c.Y)
			if rr > c.R || tt >= best {
				continue
			}
			best = tt
			f := 1.0
			if rr > 0.85*c.R {
				f = 0.7
			}
			f *= 0.9 + 0.1*math.Cos(rr/c.R*3)
			col = [3]float64{c.RGB[0] * f, c.RGB[1] * f, c.RGB[2] * f}
			hx, hy = x, y
		case ob.pen != nil:
			p := ob.pen
			tt := t.CameraMM - p.Width
			x, y := o[0]+tt*dir[0], o[1]+tt*dir[1]
			ab := p.B.Sub(p.A)
			k := ((x-p.A.X)*ab.X + (y-p.A.Y)*ab.Y) / (ab.X*ab.X + ab.Y*ab.Y)
			k = math.Max(0, math.Min(1, k))
			q := p.A.Add(ab.Scale(k))
			dd := math.Hypot(x-q.X, y-q.Y)
			if dd > p.Width/2 || tt >= best {
				continue
			}
			best = tt
			c := [3]float64{0.80, 0.62, 0.10}
			if k > 0.92 {
				c = [3]float64{0.60, 0.45, 0.30}
			}
			f := 0.75 + 0.25*math.Cos(dd/p.Width*math.Pi)
			col = [3]float64{c[0] * f, c[1] * f, c[2] * f}
			hx, hy = x, y
		}
	}
	if math.IsInf(best, 1) {
		tt := t.CameraMM
		x, y := o[0]+tt*dir[0], o[1]+tt*dir[1]
		n := fbm(x/3, y/3, t.Seed, 2)
		f := 0.88 + 0.24*n
		col = [3]float64{t.Felt.RGB[0] * f, t.Felt.RGB[1] * f, t.Felt.RGB[2] * f}
		// the dice's own shadows
		p := geom.Vec3{x, y, 0}
		for _, ob := range objs {
			if ob.die != nil {
				if _, _, _, _, ok := ob.die.hitBox(p, lightDir); ok {
					col = [3]float64{col[0] * 0.8, col[1] * 0.8, col[2] * 0.8}
					break
				}
			}
		}
		hx, hy = x, y
	}
	l := r.light(hx, hy)
	return [3]float64{col[0] * l, col[1] * l, col[2] * l}
}

// RenderClean ray-traces the tray and blurs it, without noise.
func (t *Tray) RenderClean() *Clean {
	r := newTrayRenderer(t)
	w, h := t.Width, t.Height
	c := &Clean{Width: w, Height: h, RGB: make([]float32, 3*w*h)}
	ns := max(t.Samples, 1)
	parallelRows(h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < w; x++ {
				objs := r.tiles[(y/r.tile)*r.tw+x/r.tile]
				var acc [3]float64
				n := 1
				if len(objs) == 0 || ns == 1 {
					acc = r.sample(float64(x), float64(y), objs)
				} else {
					n = ns * ns
					for sy := 0; sy < ns; sy++ {
						for sx := 0; sx < ns; sx++ {
							col := r.sample(float64(x)+(float64(sx)+0.5)/float64(ns)-0.5, float64(y)+(float64(sy)+0.5)/float64(ns)-0.5, objs)
							acc[0] += col[0]
							acc[1] += col[1]
							acc[2] += col[2]
						}
					}
				}
				i := 3 * (y*w + x)
				c.RGB[i] = float32(acc[0] / float64(n))
				c.RGB[i+1] = float32(acc[1] / float64(n))
				c.RGB[i+2] = float32(acc[2] / float64(n))
			}
		}
	})
	if t.Blur > 0 {
		gaussianBlur(c, t.Blur)
	}
	return c
}

// Render renders the tray with its sensor noise.
func (t *Tray) Render() *Image { return t.RenderClean().Finish(t.Noise, t.Seed) }
