package synth

import (
	"math"
	"math/rand/v2"
)

// texture is the mat and the floor around the table, baked at 2 mm per
// texel: a felt-like green with mottling, painted terrain patches, the
// table's edge and a darker floor.
type texture struct {
	x0, y0, mm float64
	w, h       int
	rgb        []float32
}

func hash2(x, y int, seed uint64) float64 {
	h := uint64(int64(x))*0x9E3779B97F4A7C15 ^ uint64(int64(y))*0xC2B2AE3D27D4EB4F ^ seed*0x165667B19E3779F9
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return float64(h>>11) / float64(1<<53)
}

func valueNoise(x, y float64, seed uint64) float64 {
	xi, yi := math.Floor(x), math.Floor(y)
	fx, fy := x-xi, y-yi
	ix, iy := int(xi), int(yi)
	sx, sy := fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	a := hash2(ix, iy, seed)
	b := hash2(ix+1, iy, seed)
	c := hash2(ix, iy+1, seed)
	d := hash2(ix+1, iy+1, seed)
	return (a*(1-sx)+b*sx)*(1-sy) + (c*(1-sx)+d*sx)*sy
}

func fbm(x, y float64, seed uint64, octaves int) float64 {
	v, amp, norm := 0.0, 1.0, 0.0
	for o := 0; o < octaves; o++ {
		v += amp * valueNoise(x, y, seed+uint64(o)*7919)
		norm += amp
		amp *= 0.5
		x, y = x*2.03, y*2.03
	}
	return v / norm
}

type patch struct {
	cx, cy, a, b, rot float64
	cos, sin, reach   float64
	col               [3]float64
	rect              bool
}

func newTexture(s *Scene) *texture {
	const pad, mm = 400.0, 2.0
	t := &texture{x0: -pad, y0: -pad, mm: mm}
	t.w = int((s.TableW+2*pad)/mm) + 2
	t.h = int((s.TableD+2*pad)/mm) + 2
	t.rgb = make([]float32, 3*t.w*t.h)
	rng := rand.New(rand.NewPCG(s.Seed, 0x7e47))
	mat := [3]float64{0.30 + 0.06*rng.Float64(), 0.40 + 0.06*rng.Float64(), 0.26 + 0.05*rng.Float64()}
	floor := [3]float64{0.22, 0.19, 0.16}
	colours := [][3]float64{{0.40, 0.32, 0.22}, {0.45, 0.45, 0.43}, {0.22, 0.30, 0.18}, {0.55, 0.50, 0.35}, {0.32, 0.28, 0.26}}
	var patches []patch
	for i := 0; i < s.TerrainPatches; i++ {
		patches = append(patches, patch{
			cx: rng.Float64() * s.TableW, cy: rng.Float64() * s.TableD,
			a: 60 + 160*rng.Float64(), b: 40 + 120*rng.Float64(), rot: rng.Float64() * math.Pi,
			col: colours[rng.IntN(len(colours))], rect: rng.IntN(2) == 0,
		})
	}
	for i := range patches {
		p := &patches[i]
		p.cos, p.sin = math.Cos(p.rot), math.Sin(p.rot)
		p.reach = math.Hypot(p.a, p.b) + 10
	}
	seed := s.Seed
	parallelRows(t.h, func(j0, j1 int) {
		for j := j0; j < j1; j++ {
			y := t.y0 + float64(j)*mm
			for i := 0; i < t.w; i++ {
				x := t.x0 + float64(i)*mm
				var c [3]float64
				onTable := x >= 0 && y >= 0 && x <= s.TableW && y <= s.TableD
				if onTable {
					n := fbm(x/60, y/60, seed, 3)
					c = [3]float64{mat[0] * (0.8 + 0.4*n), mat[1] * (0.8 + 0.4*n), mat[2] * (0.8 + 0.4*n)}
					for pi := range patches {
						p := &patches[pi]
						dx, dy := x-p.cx, y-p.cy
						if math.Abs(dx) > p.reach || math.Abs(dy) > p.reach {
							continue
						}
						lx := p.cos*dx + p.sin*dy
						ly := -p.sin*dx + p.cos*dy
						var d float64 // signed distance-ish, <0 inside
						if p.rect {
							d = math.Max(math.Abs(lx)-p.a, math.Abs(ly)-p.b)
						} else {
							d = (math.Hypot(lx/p.a, ly/p.b) - 1) * math.Min(p.a, p.b)
						}
						if d < 4 {
							k := math.Min(1, (4-d)/8) // soft 8 mm edge
							g := 0.85 + 0.3*fbm(x/25, y/25, seed+99, 2)
							for ch := 0; ch < 3; ch++ {
								c[ch] = c[ch]*(1-k) + p.col[ch]*g*k
							}
						}
					}
					// the table's edge: a darker band of frame
					e := math.Min(math.Min(x, y), math.Min(s.TableW-x, s.TableD-y))
					if e < 6 {
						for ch := range c {
							c[ch] *= 0.6
						}
					}
				} else {
					n := fbm(x/200, y/200, seed+5, 2)
					c = [3]float64{floor[0] * (0.7 + 0.6*n), floor[1] * (0.7 + 0.6*n), floor[2] * (0.7 + 0.6*n)}
				}
				k := 3 * (j*t.w + i)
				t.rgb[k], t.rgb[k+1], t.rgb[k+2] = float32(c[0]), float32(c[1]), float32(c[2])
			}
		}
	})
	return t
}

func (t *texture) at(x, y float64) [3]float64 {
	fx, fy := (x-t.x0)/t.mm, (y-t.y0)/t.mm
	i, j := int(math.Floor(fx)), int(math.Floor(fy))
	if i < 0 || j < 0 || i >= t.w-1 || j >= t.h-1 {
		return [3]float64{0.15, 0.13, 0.12}
	}
	ax, ay := fx-float64(i), fy-float64(j)
	k00 := 3 * (j*t.w + i)
	k10 := k00 + 3
	k01 := k00 + 3*t.w
	k11 := k01 + 3
	var c [3]float64
	for ch := 0; ch < 3; ch++ {
		c[ch] = (float64(t.rgb[k00+ch])*(1-ax)+float64(t.rgb[k10+ch])*ax)*(1-ay) +
			(float64(t.rgb[k01+ch])*(1-ax)+float64(t.rgb[k11+ch])*ax)*ay
	}
	return c
}
