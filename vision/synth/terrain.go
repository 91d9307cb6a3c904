package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sztab/sztab/vision/geom"
)

// Terrain kinds and shapes of the generated cover (the skirmish rulebook,
// "Modyfikator przeszkód": light cover yellow, heavy cover green).
const (
	CoverLight = "light"
	CoverHeavy = "heavy"

	ShapeRubble = "rubble" // an irregular heap
	ShapeWall   = "wall"   // a thin straight strip
	ShapeHedge  = "hedge"  // a long strip with wavy sides
	ShapeRuin   = "ruin"   // an L of two walls
)

// Table marker kinds.
const (
	DiscTemplate  = "template"  // an orange template marker
	DiscObjective = "objective" // a blue objective marker
)

// Colours (linear reflectance) of the painted pieces: the yellow and green
// the rulebook asks for, the orange template and the blue objective disc.
var (
	YellowPaint = [3]float64{0.80, 0.66, 0.10}
	GreenPaint  = [3]float64{0.10, 0.44, 0.11}
	OrangePaint = [3]float64{0.92, 0.38, 0.05}
	BluePaint   = [3]float64{0.08, 0.22, 0.70}
)

// TerrainPiece is a piece of cover lying flat on the table, its top
// painted its kind's colour.
type TerrainPiece struct {
	Kind    string      `json:"kind"`
	Shape   string      `json:"shape"`
	Outline []geom.Vec2 `json:"outline"` // table mm, in order around it
	// Colour overrides the kind's paint (a table's own shade).
	Colour [3]float64 `json:"colour,omitzero"`

	minX, minY, maxX, maxY float64
}

// Disc is a template or objective marker: a flat disc on the table.
type Disc struct {
	Kind     string     `json:"kind"`
	X        float64    `json:"x_mm"`
	Y        float64    `json:"y_mm"`
	Diameter float64    `json:"diameter_mm"`
	Colour   [3]float64 `json:"colour,omitzero"`
}

func (p *TerrainPiece) bounds() {
	p.minX, p.minY = math.Inf(1), math.Inf(1)
	p.maxX, p.maxY = math.Inf(-1), math.Inf(-1)
	for _, v := range p.Outline {
		p.minX, p.maxX = math.Min(p.minX, v.X), math.Max(p.maxX, v.X)
		p.minY, p.maxY = math.Min(p.minY, v.Y), math.Max(p.maxY, v.Y)
	}
}

// Contains reports whether the table point (x, y) is on the piece.
func (p *TerrainPiece) Contains(x, y float64) bool { return InPolygon(p.Outline, x, y) }

// InPolygon is the even-odd point-in-polygon test.
func InPolygon(poly []geom.Vec2, x, y float64) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a.Y > y) != (b.Y > y) && x < (b.X-a.X)*(y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

func (p *TerrainPiece) paint() [3]float64 {
	if p.Colour != ([3]float64{}) {
		return p.Colour
	}
	if p.Kind == CoverHeavy {
		return GreenPaint
	}
	return YellowPaint
}

func (d *Disc) paint() [3]float64 {
	if d.Colour != ([3]float64{}) {
		return d.Colour
	}
	if d.Kind == DiscObjective {
		return BluePaint
	}
	return OrangePaint
}

// TerrainOptions choose the generated cover and markers.
type TerrainOptions struct {
	// Pieces is how many pieces of cover (both kinds, all shapes).
	Pieces int
	// Templates and Objectives are how many discs of each; template
	// diameters are drawn from TemplateMM (76 and 127 mm: 3" and 5"),
	// objectives are ObjectiveMM (40).
	Templates, Objectives int
	TemplateMM            []float64
	ObjectiveMM           float64
}

// AddTerrain places random cover pieces and markers on the scene, apart
// from each other, the fiducials and the models' bases' centres (a base
// may stand on a piece's edge or on it, as on a real table; not on a
// marker). The same seed gives the same terrain.
func (s *Scene) AddTerrain(o TerrainOptions, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x7e77a1))
	if len(o.TemplateMM) == 0 {
		o.TemplateMM = []float64{76, 127}
	}
	if o.ObjectiveMM == 0 {
		o.ObjectiveMM = 40
	}
	shapes := []string{ShapeRubble, ShapeWall, ShapeHedge, ShapeRuin}
	type circle struct{ x, y, r float64 }
	var taken []circle
	for _, f := range s.Fiducials {
		taken = append(taken, circle{f.X, f.Y, f.Side * fiducialCard})
	}
	free := func(x, y, r, gap float64) bool {
		if x-r < 15 || y-r < 15 || x+r > s.TableW-15 || y+r > s.TableD-15 {
			return false
		}
		for _, c := range taken {
			if math.Hypot(x-c.x, y-c.y) < r+c.r+gap {
				return false
			}
		}
		return true
	}
	for i := 0; i < o.Pieces; i++ {
		kind := CoverLight
		if i%2 == 1 {
			kind = CoverHeavy
		}
		shape := shapes[(i/2+rng.IntN(2))%len(shapes)]
		placed := false
		for try := 0; try < 500 && !placed; try++ {
			outline, r := randomShape(rng, shape)
			x, y := rng.Float64()*s.TableW, rng.Float64()*s.TableD
			if !free(x, y, r, 40) {
				continue
			}
			for k := range outline {
				outline[k] = outline[k].Add(geom.Vec2{X: x, Y: y})
			}
			s.Terrain = append(s.Terrain, TerrainPiece{Kind: kind, Shape: shape, Outline: outline})
			taken = append(taken, circle{x, y, r})
			placed = true
		}
		if !placed {
			return fmt.Errorf("synth: no room for terrain piece %d", i+1)
		}
	}
	// markers keep clear of bases (a marker under a model is only partly seen)
	var bases []circle
	for _, m := range s.Models {
		bases = append(bases, circle{m.X, m.Y, m.Diameter / 2})
	}
	addDisc := func(kind string, d float64) error {
		for try := 0; try < 1000; try++ {
			x, y := rng.Float64()*s.TableW, rng.Float64()*s.TableD
			if !free(x, y, d/2, 20) {
				continue
			}
			ok := true
			for _, b := range bases {
				if math.Hypot(x-b.x, y-b.y) < d/2+b.r+8 {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			s.Discs = append(s.Discs, Disc{Kind: kind, X: x, Y: y, Diameter: d})
			taken = append(taken, circle{x, y, d / 2})
			return nil
		}
		return fmt.Errorf("synth: no room for a %s marker", kind)
	}
	for i := 0; i < o.Templates; i++ {
		if err := addDisc(DiscTemplate, o.TemplateMM[rng.IntN(len(o.TemplateMM))]); err != nil {
			return err
		}
	}
	for i := 0; i < o.Objectives; i++ {
		if err := addDisc(DiscObjective, o.ObjectiveMM); err != nil {
			return err
		}
	}
	return nil
}

// randomShape is an outline around (0, 0) and the radius of a circle
// holding it.
func randomShape(rng *rand.Rand, shape string) ([]geom.Vec2, float64) {
	rot := rng.Float64() * 2 * math.Pi
	var pts []geom.Vec2
	switch shape {
	case ShapeRubble:
		r := 50 + 60*rng.Float64()
		n := 9 + rng.IntN(6)
		for k := 0; k < n; k++ {
			a := 2 * math.Pi * (float64(k) + 0.3*rng.Float64()) / float64(n)
			rr := r * (0.7 + 0.3*rng.Float64())
			pts = append(pts, geom.Vec2{X: rr * math.Cos(a), Y: rr * math.Sin(a)})
		}
	case ShapeWall:
		l, w := 120+130*rng.Float64(), 15+10*rng.Float64()
		pts = []geom.Vec2{{X: -l / 2, Y: -w / 2}, {X: l / 2, Y: -w / 2}, {X: l / 2, Y: w / 2}, {X: -l / 2, Y: w / 2}}
	case ShapeHedge:
		l, w := 150+150*rng.Float64(), 25+15*rng.Float64()
		n := int(l / 12)
		ph := rng.Float64() * 6
		for k := 0; k <= n; k++ {
			x := -l/2 + l*float64(k)/float64(n)
			pts = append(pts, geom.Vec2{X: x, Y: -w/2 + 3*math.Sin(x/17+ph)})
		}
		for k := n; k >= 0; k-- {
			x := -l/2 + l*float64(k)/float64(n)
			pts = append(pts, geom.Vec2{X: x, Y: w/2 + 3*math.Sin(x/13+ph)})
		}
	default: // ruin: an L
		a, b, t := 100+80*rng.Float64(), 80+80*rng.Float64(), 20+15*rng.Float64()
		pts = []geom.Vec2{{X: 0, Y: 0}, {X: a, Y: 0}, {X: a, Y: t}, {X: t, Y: t}, {X: t, Y: b}, {X: 0, Y: b}}
		for k := range pts {
			pts[k] = pts[k].Sub(geom.Vec2{X: a / 3, Y: b / 3})
		}
	}
	c, sn := math.Cos(rot), math.Sin(rot)
	r := 0.0
	for k, p := range pts {
		pts[k] = geom.Vec2{X: c*p.X - sn*p.Y, Y: sn*p.X + c*p.Y}
		r = math.Max(r, math.Hypot(pts[k].X, pts[k].Y))
	}
	return pts, r
}

// painter colours the table where the cover and the markers are.
type painter struct {
	pieces []TerrainPiece
	discs  []Disc
	seed   uint64
	tw, td float64
}

func newPainter(s *Scene) *painter {
	p := &painter{pieces: append([]TerrainPiece(nil), s.Terrain...), discs: s.Discs, seed: s.Seed, tw: s.TableW, td: s.TableD}
	for i := range p.pieces {
		p.pieces[i].bounds()
	}
	return p
}

// at is the paint at table point (x, y), if any; near says the point is
// close enough to a piece for its pixel to need anti-aliasing.
func (p *painter) at(x, y float64) (col [3]float64, ok, near bool) {
	if x < 0 || y < 0 || x > p.tw || y > p.td {
		return col, false, false
	}
	for i := range p.discs {
		d := &p.discs[i]
		r := math.Hypot(x-d.X, y-d.Y)
		if r < d.Diameter/2+3 {
			near = true
			if r <= d.Diameter/2 {
				return p.mottle(d.paint(), x, y), true, true
			}
		}
	}
	for i := range p.pieces {
		t := &p.pieces[i]
		if x < t.minX-3 || x > t.maxX+3 || y < t.minY-3 || y > t.maxY+3 {
			continue
		}
		near = true
		if t.Contains(x, y) {
			return p.mottle(t.paint(), x, y), true, true
		}
	}
	return col, false, near
}

// mottle varies the paint's brightness a little, as on a painted model.
func (p *painter) mottle(c [3]float64, x, y float64) [3]float64 {
	g := 0.85 + 0.3*fbm(x/20, y/20, p.seed+1234, 2)
	return [3]float64{c[0] * g, c[1] * g, c[2] * g}
}
