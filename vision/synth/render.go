package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/geom"
)

// Image is a rendered frame, 8-bit BGR like an OpenCV Mat.
type Image struct {
	Width, Height int
	BGR           []byte
}

// RGBA converts the frame for image/png and image/jpeg.
func (im *Image) RGBA() *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, im.Width, im.Height))
	for i := 0; i < im.Width*im.Height; i++ {
		out.Pix[4*i] = im.BGR[3*i+2]
		out.Pix[4*i+1] = im.BGR[3*i+1]
		out.Pix[4*i+2] = im.BGR[3*i]
		out.Pix[4*i+3] = 255
	}
	return out
}

// FromImage converts a decoded image to BGR.
func FromImage(m image.Image) *Image {
	b := m.Bounds()
	im := &Image{Width: b.Dx(), Height: b.Dy(), BGR: make([]byte, 3*b.Dx()*b.Dy())}
	for y := 0; y < im.Height; y++ {
		for x := 0; x < im.Width; x++ {
			c := color.RGBAModel.Convert(m.At(b.Min.X+x, b.Min.Y+y)).(color.RGBA)
			i := 3 * (y*im.Width + x)
			im.BGR[i], im.BGR[i+1], im.BGR[i+2] = c.B, c.G, c.R
		}
	}
	return im
}

// Clean is a rendered, blurred frame before sensor noise, in linear grey
// levels (0–255, float).
type Clean struct {
	Width, Height int
	RGB           []float32
}

// Render renders the scene with its noise.
func (s *Scene) Render() (*Image, error) {
	c, err := s.RenderClean()
	if err != nil {
		return nil, err
	}
	return c.Finish(s.Noise, s.Seed), nil
}

// Finish adds Gaussian sensor noise of sigma grey levels (seeded) and
// quantises to 8 bits.
func (c *Clean) Finish(sigma float64, seed uint64) *Image {
	im := &Image{Width: c.Width, Height: c.Height, BGR: make([]byte, 3*c.Width*c.Height)}
	parallelRows(c.Height, func(y0, y1 int) {
		rng := rand.New(rand.NewPCG(seed, uint64(y0)))
		for y := y0; y < y1; y++ {
			for x := 0; x < c.Width; x++ {
				i := 3 * (y*c.Width + x)
				for ch := 0; ch < 3; ch++ {
					v := float64(c.RGB[i+ch])
					if sigma > 0 {
						v += rng.NormFloat64() * sigma
					}
					im.BGR[i+2-ch] = clamp8(v)
				}
			}
		}
	})
	return im
}

func clamp8(v float64) byte {
	v = math.Round(v)
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return byte(v)
}

func parallelRows(h int, f func(y0, y1 int)) {
	workers := runtime.GOMAXPROCS(0)
	chunk := 16
	var wg sync.WaitGroup
	next := make(chan int, h/chunk+1)
	for y := 0; y < h; y += chunk {
		next <- y
	}
	close(next)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for y := range next {
				f(y, min(y+chunk, h))
			}
		}()
	}
	wg.Wait()
}

// object is a base or a fiducial card, prepared for ray casting.
type object struct {
	fiducial bool
	x, y, h  float64
	r        float64 // base radius, or half the card's side
	side     float64
	cos, sin float64
	marker   int
}

type renderer struct {
	s      *Scene
	dict   *aruco.Dictionary
	grid   *undistortGrid
	rt     geom.Mat3
	cz     float64
	tex    *texture
	paint  *painter
	objs   []object
	cell   float64
	cx0    float64
	cy0    float64
	cw, ch int
	cells  [][]int32
}

const fiducialCard = 1.5 // card side / marker side

func newRenderer(s *Scene) (*renderer, error) {
	d, err := aruco.Lookup(s.Dict)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	r := &renderer{s: s, dict: d, rt: s.Camera.R.T(), cz: s.Camera.Centre[2]}
	r.grid = newUndistortGrid(&s.Camera, 8)
	r.tex = newTexture(s)
	r.paint = newPainter(s)
	for _, f := range s.Fiducials {
		if f.Marker >= d.Len() {
			return nil, fmt.Errorf("synth: fiducial marker %d is not in dictionary %s", f.Marker, d.Name)
		}
		a := f.Rot * math.Pi / 180
		r.objs = append(r.objs, object{fiducial: true, x: f.X, y: f.Y, h: f.Height, r: f.Side * fiducialCard / 2, side: f.Side, cos: math.Cos(a), sin: math.Sin(a), marker: f.Marker})
	}
	for _, m := range s.Models {
		if m.Marker >= d.Len() {
			return nil, fmt.Errorf("synth: model marker %d is not in dictionary %s", m.Marker, d.Name)
		}
		a := m.Rot * math.Pi / 180
		r.objs = append(r.objs, object{x: m.X, y: m.Y, h: m.Height, r: m.Diameter / 2, side: m.Side, cos: math.Cos(a), sin: math.Sin(a), marker: m.Marker})
	}
	// spatial grid over the table (and a margin) for candidate lookups
	r.cell = 50
	r.cx0, r.cy0 = -100, -100
	r.cw = int((s.TableW+200)/r.cell) + 1
	r.ch = int((s.TableD+200)/r.cell) + 1
	r.cells = make([][]int32, r.cw*r.ch)
	for i, o := range r.objs {
		// a ray reaching the table at p0 can hit a top at height h up to
		// h·lean away; leans are < 1 here
		ext := o.r*math.Sqrt2 + o.h + 2
		x0, x1 := int((o.x-ext-r.cx0)/r.cell), int((o.x+ext-r.cx0)/r.cell)
		y0, y1 := int((o.y-ext-r.cy0)/r.cell), int((o.y+ext-r.cy0)/r.cell)
		for cy := max(y0, 0); cy <= min(y1, r.ch-1); cy++ {
			for cx := max(x0, 0); cx <= min(x1, r.cw-1); cx++ {
				r.cells[cy*r.cw+cx] = append(r.cells[cy*r.cw+cx], int32(i))
			}
		}
	}
	return r, nil
}

// Reflectances (linear, 0–1) of the painted and printed surfaces.
var (
	white    = [3]float64{0.90, 0.90, 0.88}
	black    = [3]float64{0.05, 0.05, 0.06}
	baseSide = [3]float64{0.18, 0.17, 0.16}
	skin     = [3]float64{0.78, 0.58, 0.47}
)

func (r *renderer) light(x, y float64) float64 {
	l := r.s.Light
	v := l.Level * (1 + l.GradientX*(2*x/r.s.TableW-1) + l.GradientY*(2*y/r.s.TableD-1))
	if l.SpotGain != 0 && l.SpotMM > 0 {
		dx, dy := x-l.Spot.X, y-l.Spot.Y
		v *= 1 + l.SpotGain*math.Exp(-(dx*dx+dy*dy)/(2*l.SpotMM*l.SpotMM))
	}
	return v
}

// shadow is the fraction of light reaching (x, y) at height h past the
// hands; edge is set near a shadow's edge.
func (r *renderer) shadow(x, y, h float64) (frac float64, edge bool) {
	frac = 1
	for i := range r.s.Hands {
		hd := &r.s.Hands[i]
		if hd.Height <= h {
			continue
		}
		d := hd.Height - h
		sx, sy := x+r.s.Light.Shadow.X*d, y+r.s.Light.Shadow.Y*d
		if hd.containsGrown(sx, sy, 8) {
			edge = true
			if hd.contains(sx, sy) {
				frac = 0.55
			}
		}
	}
	return frac, edge
}

// pixelLight is the illumination seen through normalised coordinates
// (xn, yn), taken where the ray meets the table.
func (r *renderer) pixelLight(xn, yn float64) float64 {
	rt := &r.rt
	dx := rt[0]*xn + rt[1]*yn + rt[2]
	dy := rt[3]*xn + rt[4]*yn + rt[5]
	dz := rt[6]*xn + rt[7]*yn + rt[8]
	if dz <= 1e-6 {
		return 1
	}
	t := r.cz / dz
	return r.light(r.s.Camera.Centre[0]+t*dx, r.s.Camera.Centre[1]+t*dy)
}

// sample traces the ray through normalised ideal coordinates (xn, yn).
// busy is set when the ray came near an edge of anything but the mat (a
// base, a card, a hand or its shadow), where the pixel needs
// anti-aliasing; light is the illumination, computed once per pixel.
func (r *renderer) sample(xn, yn float64, light float64) (col [3]float64, busy bool) {
	rt := &r.rt
	dx := rt[0]*xn + rt[1]*yn + rt[2]
	dy := rt[3]*xn + rt[4]*yn + rt[5]
	dz := rt[6]*xn + rt[7]*yn + rt[8]
	if dz <= 1e-6 {
		return [3]float64{0.1, 0.1, 0.1}, false
	}
	ox, oy := r.s.Camera.Centre[0], r.s.Camera.Centre[1]
	// hands: the highest one hit
	best := -1.0
	for i := range r.s.Hands {
		hd := &r.s.Hands[i]
		t := (r.cz - hd.Height) / dz
		x, y := ox+t*dx, oy+t*dy
		if hd.containsGrown(x, y, 8) {
			busy = true
			if hd.Height > best && hd.contains(x, y) {
				best = hd.Height
			}
		}
	}
	if best >= 0 {
		t := (r.cz - best) / dz
		x, y := ox+t*dx, oy+t*dy
		l := light * (0.85 + 0.15*math.Sin(x*0.05)*math.Cos(y*0.04))
		return [3]float64{skin[0] * l, skin[1] * l, skin[2] * l}, busy
	}
	t0 := r.cz / dz
	x0, y0 := ox+t0*dx, oy+t0*dy
	ci, cj := int(math.Floor((x0-r.cx0)/r.cell)), int(math.Floor((y0-r.cy0)/r.cell))
	if ci >= 0 && cj >= 0 && ci < r.cw && cj < r.ch {
		topH, top := -1.0, -1
		side := -1
		for _, k := range r.cells[cj*r.cw+ci] {
			busy = true
			o := &r.objs[k]
			t := (r.cz - o.h) / dz
			x, y := ox+t*dx-o.x, oy+t*dy-o.y
			var inside bool
			if o.fiducial {
				lx, ly := o.cos*x+o.sin*y, -o.sin*x+o.cos*y
				inside = math.Abs(lx) <= o.r && math.Abs(ly) <= o.r
			} else {
				inside = x*x+y*y <= o.r*o.r
				if !inside && side < 0 {
					bx, by := x0-o.x, y0-o.y
					if bx*bx+by*by <= o.r*o.r {
						side = int(k)
					}
				}
			}
			if inside && o.h > topH {
				topH, top = o.h, int(k)
			}
		}
		if top >= 0 {
			o := &r.objs[top]
			t := (r.cz - o.h) / dz
			x, y := ox+t*dx, oy+t*dy
			refl := r.markerColor(o, x-o.x, y-o.y)
			sh, edge := r.shadow(x, y, o.h)
			l := light * sh
			return [3]float64{refl[0] * l, refl[1] * l, refl[2] * l}, busy || edge
		}
		if side >= 0 {
			o := &r.objs[side]
			// shade the wall by which way it faces
			nx, ny := x0-o.x, y0-o.y
			n := math.Hypot(nx, ny) + 1e-9
			shade := 0.7 + 0.3*(nx*0.6+ny*0.8)/n
			l := light * shade
			return [3]float64{baseSide[0] * l, baseSide[1] * l, baseSide[2] * l}, busy
		}
	}
	refl := r.tex.at(x0, y0)
	if c, ok, near := r.paint.at(x0, y0); near {
		busy = true
		if ok {
			refl = c
		}
	}
	sh, edge := r.shadow(x0, y0, 0)
	l := light * sh
	return [3]float64{refl[0] * l, refl[1] * l, refl[2] * l}, busy || edge
}

func (r *renderer) markerColor(o *object, dx, dy float64) [3]float64 {
	lx, ly := o.cos*dx+o.sin*dy, -o.sin*dx+o.cos*dy
	n := float64(r.dict.Size + 2)
	u := (lx/o.side + 0.5) * n
	v := (ly/o.side + 0.5) * n
	if u < 0 || v < 0 || u >= n || v >= n {
		return white
	}
	if r.dict.Cell(o.marker, int(v), int(u)) {
		return white
	}
	return black
}

// RenderClean ray-traces the scene and blurs it, without noise.
func (s *Scene) RenderClean() (*Clean, error) {
	r, err := newRenderer(s)
	if err != nil {
		return nil, err
	}
	w, h := s.Camera.Width, s.Camera.Height
	c := &Clean{Width: w, Height: h, RGB: make([]float32, 3*w*h)}
	ns := s.Samples
	if ns <= 0 {
		ns = 1
	}
	cxImg, cyImg := float64(w)/2, float64(h)/2
	rmax2 := cxImg*cxImg + cyImg*cyImg
	// the illumination is smooth: exact every 8 pixels, interpolated between
	const ls = 8
	lw, lh := w/ls+2, h/ls+2
	lights := make([]float64, lw*lh)
	for j := 0; j < lh; j++ {
		for i := 0; i < lw; i++ {
			xn, yn := r.grid.at(float64(i*ls), float64(j*ls))
			lights[j*lw+i] = r.pixelLight(xn, yn)
		}
	}
	lightAt := func(x, y int) float64 {
		i, j := x/ls, y/ls
		fx, fy := float64(x%ls)/ls, float64(y%ls)/ls
		a := lights[j*lw+i]*(1-fx) + lights[j*lw+i+1]*fx
		b := lights[(j+1)*lw+i]*(1-fx) + lights[(j+1)*lw+i+1]*fx
		return a*(1-fy) + b*fy
	}
	parallelRows(h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < w; x++ {
				xc, yc := r.grid.at(float64(x), float64(y))
				light := lightAt(x, y)
				acc, busy := r.sample(xc, yc, light)
				n := 1
				if busy && ns > 1 {
					acc, n = [3]float64{}, ns*ns
					for sy := 0; sy < ns; sy++ {
						for sx := 0; sx < ns; sx++ {
							u := float64(x) + (float64(sx)+0.5)/float64(ns) - 0.5
							v := float64(y) + (float64(sy)+0.5)/float64(ns) - 0.5
							xn, yn := r.grid.at(u, v)
							col, _ := r.sample(xn, yn, light)
							acc[0] += col[0]
							acc[1] += col[1]
							acc[2] += col[2]
						}
					}
				}
				dx, dy := float64(x)-cxImg, float64(y)-cyImg
				vig := 1 - s.Light.Vignette*(dx*dx+dy*dy)/rmax2
				k := 255 * vig / float64(n)
				i := 3 * (y*w + x)
				c.RGB[i] = float32(acc[0] * k)
				c.RGB[i+1] = float32(acc[1] * k)
				c.RGB[i+2] = float32(acc[2] * k)
			}
		}
	})
	if s.Blur > 0 {
		gaussianBlur(c, s.Blur)
	}
	return c, nil
}

func gaussianBlur(c *Clean, sigma float64) {
	rad := int(math.Ceil(3 * sigma))
	k := make([]float32, 2*rad+1)
	sum := float32(0)
	for i := -rad; i <= rad; i++ {
		k[i+rad] = float32(math.Exp(-float64(i*i) / (2 * sigma * sigma)))
		sum += k[i+rad]
	}
	for i := range k {
		k[i] /= sum
	}
	w, h := c.Width, c.Height
	tmp := make([]float32, len(c.RGB))
	parallelRows(h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < w; x++ {
				var a0, a1, a2 float32
				for i := -rad; i <= rad; i++ {
					xx := min(max(x+i, 0), w-1)
					j := 3 * (y*w + xx)
					kk := k[i+rad]
					a0 += kk * c.RGB[j]
					a1 += kk * c.RGB[j+1]
					a2 += kk * c.RGB[j+2]
				}
				j := 3 * (y*w + x)
				tmp[j], tmp[j+1], tmp[j+2] = a0, a1, a2
			}
		}
	})
	parallelRows(h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < w; x++ {
				var a0, a1, a2 float32
				for i := -rad; i <= rad; i++ {
					yy := min(max(y+i, 0), h-1)
					j := 3 * (yy*w + x)
					kk := k[i+rad]
					a0 += kk * tmp[j]
					a1 += kk * tmp[j+1]
					a2 += kk * tmp[j+2]
				}
				j := 3 * (y*w + x)
				c.RGB[j], c.RGB[j+1], c.RGB[j+2] = a0, a1, a2
			}
		}
	})
}
