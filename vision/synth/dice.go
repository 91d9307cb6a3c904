package synth

// Dice trays: a camera straight above a felt tray of six-sided dice with
// pips, for the dice reader's tests and benchmarks (vision/dicetray). The
// same seed gives the same tray, image and truth on one platform.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sztab/sztab/vision/geom"
)

// DieColour is a die's body and pip colour (linear reflectance, RGB).
type DieColour struct {
	Name string     `json:"name"`
	Body [3]float64 `json:"body"`
	Pips [3]float64 `json:"pips"`
}

// DieColours are the dice the generator paints: the reader names a die by
// the first part of Name (its body colour).
var DieColours = []DieColour{
	{Name: "white", Body: [3]float64{0.88, 0.87, 0.84}, Pips: [3]float64{0.04, 0.04, 0.05}},
	{Name: "white/red", Body: [3]float64{0.88, 0.87, 0.84}, Pips: [3]float64{0.55, 0.05, 0.05}},
	{Name: "black", Body: [3]float64{0.05, 0.05, 0.06}, Pips: [3]float64{0.88, 0.88, 0.86}},
	{Name: "red", Body: [3]float64{0.62, 0.07, 0.07}, Pips: [3]float64{0.88, 0.88, 0.86}},
	{Name: "blue", Body: [3]float64{0.06, 0.16, 0.55}, Pips: [3]float64{0.88, 0.88, 0.86}},
	{Name: "green", Body: [3]float64{0.07, 0.42, 0.12}, Pips: [3]float64{0.88, 0.88, 0.86}},
	{Name: "yellow", Body: [3]float64{0.80, 0.62, 0.05}, Pips: [3]float64{0.04, 0.04, 0.05}},
}

// BodyName is the colour of the die's body: Name up to a "/".
func (c DieColour) BodyName() string {
	n, _, _ := strings.Cut(c.Name, "/")
	return n
}

// TrayColour is a felt the tray is lined with, and the die colours that
// are too close to it to be told apart (the generator leaves them out:
// a reader separates dice from the tray by colour).
type TrayColour struct {
	Name    string     `json:"name"`
	RGB     [3]float64 `json:"rgb"`
	Exclude []string   `json:"exclude,omitempty"`
}

// TrayColours are the felts.
var TrayColours = []TrayColour{
	{Name: "green felt", RGB: [3]float64{0.16, 0.34, 0.19}, Exclude: []string{"green"}},
	{Name: "blue felt", RGB: [3]float64{0.14, 0.22, 0.42}, Exclude: []string{"blue"}},
	{Name: "burgundy felt", RGB: [3]float64{0.40, 0.10, 0.12}, Exclude: []string{"red"}},
	{Name: "grey felt", RGB: [3]float64{0.33, 0.33, 0.33}},
	{Name: "tan leather", RGB: [3]float64{0.50, 0.38, 0.24}, Exclude: []string{"yellow"}},
}

// Die is one d6 in the tray. A flat die rests on a face; a cocked one is
// tilted (leaning on another die or the tray's wall); a stacked one sits
// on the die below it (Below).
type Die struct {
	// X, Y: the die's centre on the tray, mm; Z the height of its centre.
	X, Y, Z float64
	Side    float64 `json:"side_mm"`
	// Yaw turns the die about the vertical, Tilt leans it about its own x
	// axis (0: flat), degrees.
	Yaw, Tilt float64
	// Value is the face up (the local +z face); Turn is which of the four
	// side pairs faces where (0–3).
	Value  int
	Turn   int
	Colour DieColour
	// Below is the index of the die this one stands on, or -1.
	Below int `json:"below"`
}

// Coin is a round token lying on the tray (a distractor).
type Coin struct {
	X, Y, R, H float64
	RGB        [3]float64
}

// Pencil is a pencil lying on the tray (a distractor): from A to B.
type Pencil struct {
	A, B  geom.Vec2
	Width float64
}

// Tray is a dice tray under a camera straight above it.
type Tray struct {
	Width, Height int
	// CameraMM is the camera's height above the tray; FocalPx its focal
	// length; the optical axis meets the tray at (CX, CY) mm, the image's
	// centre.
	CameraMM, FocalPx, CX, CY float64
	Felt                      TrayColour
	Dice                      []Die
	Coins                     []Coin
	Pencils                   []Pencil
	// Level is the light's brightness (grey levels for a white surface);
	// GradX, GradY its linear change across the image (fraction).
	Level, GradX, GradY float64
	// Shadow darkens the tray beyond a line (a hand, the tray's wall) to
	// ShadowGain; ShadowGain 0: no shadow.
	ShadowP, ShadowN geom.Vec2
	ShadowGain       float64
	Blur, Noise      float64
	Samples          int
	Seed             uint64
}

// DieTruth is what a reader should report for one die (or one stack).
type DieTruth struct {
	// Kind is "flat", "cocked" or "stacked" (a stack is one item).
	Kind string `json:"kind"`
	// Value is the face up of a flat die; 0 for the unreadable ones.
	Value int `json:"value"`
	// Colour is the die's colour name (DieColour.Name).
	Colour string `json:"colour"`
	// Centre is the top face's centre in the image; X, Y on the tray, mm.
	Centre geom.Vec2 `json:"centre_px"`
	X      float64   `json:"x_mm"`
	Y      float64   `json:"y_mm"`
	// SidePx is the top face's side in the image.
	SidePx float64 `json:"side_px"`
}

// Readable says whether the die shows one face squarely to the camera.
func (d DieTruth) Readable() bool { return d.Kind == "flat" }

// TrayOptions choose a random tray.
type TrayOptions struct {
	Width, Height int
	// Dice is the number of items (a stack is one); Cocked and Stacked how
	// many of them are cocked or stacked; Touching how many pairs of flat
	// dice touch.
	Dice, Cocked, Stacked, Touching int
	// Coins and Pencils are distractors.
	Coins, Pencils int
	// SideMM is the dice's side (16).
	SideMM float64
	// CameraMM is the range of camera heights (700–1000).
	CameraMM [2]float64
	// MMPerPx is the tray's scale at the image centre (0.25).
	MMPerPx     float64
	Blur, Noise [2]float64
	Shadow      bool
	Uneven      bool
	Samples     int
}

// DefaultTrayOptions is a 1280×960 view of a 32×24 cm tray holding n dice.
func DefaultTrayOptions(n int) TrayOptions {
	return TrayOptions{Width: 1280, Height: 960, Dice: n, SideMM: 16, CameraMM: [2]float64{700, 1000},
		MMPerPx: 0.25, Blur: [2]float64{0.4, 1.3}, Noise: [2]float64{1, 4}, Shadow: true, Uneven: true, Samples: 2}
}

// Project is the image point of tray point (x, y) at height z.
func (t *Tray) Project(x, y, z float64) geom.Vec2 {
	d := t.CameraMM - z
	return geom.Vec2{X: float64(t.Width-1)/2 + t.FocalPx*(x-t.CX)/d, Y: float64(t.Height-1)/2 + t.FocalPx*(y-t.CY)/d}
}

// Parallax is a die's height over the camera's: how far a die's bottom
// edge shows beside its top face (the reader's Options.Parallax).
func (t *Tray) Parallax(side float64) float64 { return side / t.CameraMM }

// rot is the die's rotation: local to tray coordinates.
func (d *Die) rot() geom.Mat3 {
	y, tl := d.Yaw*math.Pi/180, d.Tilt*math.Pi/180
	rz := geom.Mat3{math.Cos(y), -math.Sin(y), 0, math.Sin(y), math.Cos(y), 0, 0, 0, 1}
	rx := geom.Mat3{1, 0, 0, 0, math.Cos(tl), -math.Sin(tl), 0, math.Sin(tl), math.Cos(tl)}
	return rz.Mul(rx)
}

// RandomTray draws a tray from the options and a seed.
func RandomTray(o TrayOptions, seed uint64) (*Tray, error) {
	if o.Width <= 0 || o.Height <= 0 || o.Dice < 0 || o.Cocked+o.Stacked+2*o.Touching > o.Dice {
		return nil, fmt.Errorf("synth: tray options: %d dice cannot hold %d cocked, %d stacked and %d touching pairs", o.Dice, o.Cocked, o.Stacked, o.Touching)
	}
	if o.SideMM == 0 {
		o.SideMM = 16
	}
	if o.MMPerPx == 0 {
		o.MMPerPx = 0.25
	}
	if o.CameraMM == [2]float64{} {
		o.CameraMM = [2]float64{700, 1000}
	}
	rng := rand.New(rand.NewPCG(seed, 0xd1ce))
	between := func(r [2]float64) float64 { return r[0] + (r[1]-r[0])*rng.Float64() }
	t := &Tray{Width: o.Width, Height: o.Height, CameraMM: between(o.CameraMM), Seed: seed, Samples: o.Samples,
		Blur: between(o.Blur), Noise: between(o.Noise), Level: 190 + 50*rng.Float64()}
	t.FocalPx = t.CameraMM / o.MMPerPx
	wMM, hMM := float64(o.Width)*o.MMPerPx, float64(o.Height)*o.MMPerPx
	t.CX, t.CY = wMM/2, hMM/2
	t.Felt = TrayColours[rng.IntN(len(TrayColours))]
	if o.Uneven {
		t.GradX, t.GradY = 0.25*(2*rng.Float64()-1), 0.25*(2*rng.Float64()-1)
	}
	if o.Shadow && rng.IntN(3) > 0 {
		a := rng.Float64() * 2 * math.Pi
		t.ShadowN = geom.Vec2{X: math.Cos(a), Y: math.Sin(a)}
		t.ShadowP = geom.Vec2{X: t.CX + (rng.Float64()-0.5)*wMM*0.6, Y: t.CY + (rng.Float64()-0.5)*hMM*0.6}
		t.ShadowGain = 0.72 + 0.12*rng.Float64()
	}
	var colours []DieColour
	for _, c := range DieColours {
		if !slices.Contains(t.Felt.Exclude, c.BodyName()) {
			colours = append(colours, c)
		}
	}
	s, a := o.SideMM, o.SideMM/2
	margin := 1.2 * s
	// footprints already placed: centre, radius (circumscribed), rotation
	type foot struct {
		c   geom.Vec2
		r   float64
		yaw float64
		sq  bool // a flat square footprint (for exact touching tests)
	}
	var feet []foot
	free := func(c geom.Vec2, r, gap float64) bool {
		if c.X < margin || c.Y < margin || c.X > wMM-margin || c.Y > hMM-margin {
			return false
		}
		for _, f := range feet {
			if c.Dist(f.c) < r+f.r+gap {
				return false
			}
		}
		return true
	}
	randPos := func() geom.Vec2 {
		return geom.Vec2{X: margin + rng.Float64()*(wMM-2*margin), Y: margin + rng.Float64()*(hMM-2*margin)}
	}
	newDie := func(c geom.Vec2, z, yaw, tilt float64) Die {
		return Die{X: c.X, Y: c.Y, Z: z, Side: s, Yaw: yaw, Tilt: tilt, Value: 1 + rng.IntN(6), Turn: rng.IntN(4),
			Colour: colours[rng.IntN(len(colours))], Below: -1}
	}
	circ := a * math.Sqrt2
	place := func(r float64) (geom.Vec2, bool) {
		for try := 0; try < 400; try++ {
			if c := randPos(); free(c, r, 2) {
				return c, true
			}
		}
		return geom.Vec2{}, false
	}
	// touching pairs: two flat dice, turned independently, moved together
	// until their squares touch
	for i := 0; i < o.Touching; i++ {
		c, ok := place(2.2 * circ)
		if !ok {
			return nil, fmt.Errorf("synth: no room in the tray for %d dice", o.Dice)
		}
		ya, yb := rng.Float64()*90, rng.Float64()*90
		if rng.IntN(3) == 0 {
			yb = ya + 4*(2*rng.Float64()-1) // nearly square to each other
		}
		dir := rng.Float64() * 2 * math.Pi
		u := geom.Vec2{X: math.Cos(dir), Y: math.Sin(dir)}
		lo, hi := 0.0, 2*circ
		for k := 0; k < 40; k++ {
			mid := (lo + hi) / 2
			if squaresOverlap(geom.Vec2{}, ya, u.Scale(mid), yb, a) {
				lo = mid
			} else {
				hi = mid
			}
		}
		d := hi + 0.15*rng.Float64()
		ca, cb := c.Sub(u.Scale(d/2)), c.Add(u.Scale(d/2))
		t.Dice = append(t.Dice, newDie(ca, a, ya, 0), newDie(cb, a, yb, 0))
		feet = append(feet, foot{c: c, r: d/2 + circ})
	}
	for i := 0; i < o.Stacked; i++ {
		c, ok := place(circ + 3)
		if !ok {
			return nil, fmt.Errorf("synth: no room in the tray for %d dice", o.Dice)
		}
		yaw := rng.Float64() * 90
		t.Dice = append(t.Dice, newDie(c, a, yaw, 0))
		// a die landing on another rarely lands square on it: 2–4 mm off
		// its centre, turned 35–45° (a stack hidden almost wholly under
		// its upper die is not generated: see the README)
		oa := rng.Float64() * 2 * math.Pi
		off := geom.Vec2{X: math.Cos(oa), Y: math.Sin(oa)}.Scale(2 + 2*rng.Float64())
		top := newDie(c.Add(off), 3*a, yaw+35+10*rng.Float64(), 0)
		top.Below = len(t.Dice) - 1
		t.Dice = append(t.Dice, top)
		feet = append(feet, foot{c: c, r: circ + 3})
	}
	for i := 0; i < o.Cocked; i++ {
		c, ok := place(1.6 * circ)
		if !ok {
			return nil, fmt.Errorf("synth: no room in the tray for %d dice", o.Dice)
		}
		tilt := 28 + 17*rng.Float64()
		if rng.IntN(2) == 0 {
			tilt = -tilt
		}
		d := newDie(c, 0, rng.Float64()*360, tilt)
		r := d.rot()
		ext := a * (math.Abs(r[6]) + math.Abs(r[7]) + math.Abs(r[8]))
		d.Z = ext + rng.Float64()*0.25*s // resting on an edge, or propped up
		t.Dice = append(t.Dice, d)
		feet = append(feet, foot{c: c, r: 1.6 * circ})
	}
	for len(t.Dice) < o.Dice+o.Stacked {
		c, ok := place(circ)
		if !ok {
			return nil, fmt.Errorf("synth: no room in the tray for %d dice", o.Dice)
		}
		t.Dice = append(t.Dice, newDie(c, a, rng.Float64()*90, 0))
		feet = append(feet, foot{c: c, r: circ})
	}
	for i := 0; i < o.Coins; i++ {
		r := s * (0.55 + 0.25*rng.Float64())
		c, ok := place(r + 2)
		if !ok {
			return nil, fmt.Errorf("synth: no room in the tray for %d coins", o.Coins)
		}
		col := [3]float64{0.72, 0.58, 0.30}
		if rng.IntN(2) == 0 {
			col = [3]float64{0.62, 0.62, 0.64}
		}
		t.Coins = append(t.Coins, Coin{X: c.X, Y: c.Y, R: r, H: 2, RGB: col})
		feet = append(feet, foot{c: c, r: r + 2})
	}
	for i := 0; i < o.Pencils; i++ {
		for try := 0; try < 400; try++ {
			c := randPos()
			dir := rng.Float64() * math.Pi
			u := geom.Vec2{X: math.Cos(dir), Y: math.Sin(dir)}.Scale(40 + 20*rng.Float64())
			pa, pb := c.Sub(u), c.Add(u)
			ok := true
			for k := 0.0; k <= 1; k += 0.1 {
				if !free(pa.Add(pb.Sub(pa).Scale(k)), 5, 3) {
					ok = false
				}
			}
			if ok {
				t.Pencils = append(t.Pencils, Pencil{A: pa, B: pb, Width: 7})
				for k := 0.0; k <= 1; k += 0.1 {
					feet = append(feet, foot{c: pa.Add(pb.Sub(pa).Scale(k)), r: 5})
				}
				break
			}
		}
	}
	return t, nil
}

// squaresOverlap: do two squares of half-side a, turned ya and yb degrees,
// centred at p and q, overlap (separating axis test)?
func squaresOverlap(p geom.Vec2, ya float64, q geom.Vec2, yb, a float64) bool {
	corners := func(c geom.Vec2, yaw float64) [4]geom.Vec2 {
		r := yaw * math.Pi / 180
		u := geom.Vec2{X: math.Cos(r), Y: math.Sin(r)}.Scale(a)
		v := geom.Vec2{X: -math.Sin(r), Y: math.Cos(r)}.Scale(a)
		return [4]geom.Vec2{c.Add(u).Add(v), c.Add(u).Sub(v), c.Sub(u).Sub(v), c.Sub(u).Add(v)}
	}
	pa, pb := corners(p, ya), corners(q, yb)
	for _, yaw := range []float64{ya, ya + 90, yb, yb + 90} {
		r := yaw * math.Pi / 180
		ax := geom.Vec2{X: math.Cos(r), Y: math.Sin(r)}
		lo1, hi1, lo2, hi2 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for k := 0; k < 4; k++ {
			d1 := pa[k].X*ax.X + pa[k].Y*ax.Y
			d2 := pb[k].X*ax.X + pb[k].Y*ax.Y
			lo1, hi1 = math.Min(lo1, d1), math.Max(hi1, d1)
			lo2, hi2 = math.Min(lo2, d2), math.Max(hi2, d2)
		}
		if hi1 < lo2 || hi2 < lo1 {
			return false
		}
	}
	return true
}

// Truth is what a reader should report: one item per die, a stack as one.
func (t *Tray) Truth() []DieTruth {
	var out []DieTruth
	stacked := map[int]bool{}
	for _, d := range t.Dice {
		if d.Below >= 0 {
			stacked[d.Below] = true
		}
	}
	for i, d := range t.Dice {
		if stacked[i] {
			continue
		}
		r := d.rot()
		a := d.Side / 2
		top := geom.Vec3{d.X, d.Y, d.Z}.Add(r.Col(2).Scale(a))
		dt := DieTruth{Kind: "flat", Value: d.Value, Colour: d.Colour.BodyName(), X: d.X, Y: d.Y,
			Centre: t.Project(top[0], top[1], top[2]), SidePx: t.FocalPx * d.Side / (t.CameraMM - top[2])}
		switch {
		case d.Below >= 0:
			dt.Kind, dt.Value = "stacked", 0
		case d.Tilt != 0:
			dt.Kind, dt.Value = "cocked", 0
		}
		out = append(out, dt)
	}
	return out
}
