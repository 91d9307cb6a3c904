//go:build cgo

package dicetray

import (
	"cmp"
	"fmt"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

// Learned is the reader of real dice (model.go): two small nets trained
// on photographs of real dice, run by OpenCV's dnn module. It keeps its
// nets between frames and is not safe for concurrent use.
type Learned struct {
	opt    Options
	model  Model
	finder gocv.Net
	face   gocv.Net
}

// NewLearned loads the committed model (model/).
func NewLearned(opt Options) (*Learned, error) {
	if _, err := NewReader(opt); err != nil {
		return nil, err
	}
	m, err := loadModel()
	if err != nil {
		return nil, err
	}
	finder, err := gocv.ReadNetFromONNXBytes(finderONNX)
	if err != nil {
		return nil, fmt.Errorf("dicetray: the finder net: %w", err)
	}
	face, err := gocv.ReadNetFromONNXBytes(faceONNX)
	if err != nil {
		finder.Close()
		return nil, fmt.Errorf("dicetray: the face net: %w", err)
	}
	return &Learned{opt: opt, model: m, finder: finder, face: face}, nil
}

// Close frees the nets.
func (l *Learned) Close() error {
	l.finder.Close()
	l.face.Close()
	return nil
}

// Read reads the dice in one frame.
func (l *Learned) Read(f Frame) (Reading, error) {
	cands, err := l.look(f, l.model.Find)
	if err != nil {
		return Reading{}, err
	}
	out := Reading{Dice: []Die{}}
	var sides []float64
	var kept []peak
	for _, c := range cands {
		if _, ok := l.model.decide(c); ok {
			kept = append(kept, c)
		}
	}
	for _, c := range kept {
		d, _ := l.model.decide(c)
		if d.Unreadable == reasonUnsure {
			d.Unreadable = whyUnsure(f, c, kept)
		}
		d.Side = c.side
		d.Colour = colourOf(f, c.centre, c.side)
		if l.opt.Table != nil {
			p := l.opt.Table.Apply(d.Centre)
			d.Table = &p
		}
		out.Dice = append(out.Dice, d)
		sides = append(sides, c.side)
	}
	switch {
	case l.opt.SidePx > 0:
		out.SidePx = l.opt.SidePx
	case len(sides) > 0:
		slices.Sort(sides)
		out.SidePx = sides[len(sides)/2]
	default:
		return out, ErrNoDieSize
	}
	return out, nil
}

// whyUnsure names what most likely hid the face of a die the face net
// is not sure of: another die touching it (centres closer than 1.15 of
// the larger side), glare (more than 4% of its face's middle burnt out,
// every channel at least 245), or, for neither, a face not clear.
func whyUnsure(f Frame, c peak, dice []peak) string {
	for _, o := range dice {
		if o.centre != c.centre && o.centre.Dist(c.centre) < 1.15*math.Max(o.side, c.side) {
			return reasonTouching
		}
	}
	r := 0.35 * c.side
	burnt, n := 0, 0
	for y := max(int(c.centre.Y-r), 0); y <= min(int(c.centre.Y+r), f.Height-1); y++ {
		for x := max(int(c.centre.X-r), 0); x <= min(int(c.centre.X+r), f.Width-1); x++ {
			p := f.BGR[3*(y*f.Width+x):]
			if p[0] >= 245 && p[1] >= 245 && p[2] >= 245 {
				burnt++
			}
			n++
		}
	}
	if n > 0 && float64(burnt) > 0.04*float64(n) {
		return reasonGlare
	}
	return reasonUnsure
}

// look finds the candidates (finder's peaks at least find) and reads each
// one's face.
func (l *Learned) look(f Frame, find float64) ([]peak, error) {
	if f.Width < 16 || f.Height < 16 || len(f.BGR) < 3*f.Width*f.Height {
		return nil, fmt.Errorf("dicetray: a frame of %d×%d with %d bytes (want ≥16×16 and 3 bytes a pixel)", f.Width, f.Height, len(f.BGR))
	}
	mat, err := gocv.NewMatFromBytes(f.Height, f.Width, gocv.MatTypeCV8UC3, f.BGR[:3*f.Width*f.Height])
	if err != nil {
		return nil, fmt.Errorf("dicetray: %w", err)
	}
	defer mat.Close()
	// the finder sees the frame at half the size the dice had in
	// training (a die of Model.SidePx pixels), or at half size
	scale := 0.5
	if l.opt.SidePx > 0 {
		scale = 0.5 * l.model.SidePx / l.opt.SidePx
	}
	fw, fh := max(4*int(math.Round(float64(f.Width)*scale/4)), 16), max(4*int(math.Round(float64(f.Height)*scale/4)), 16)
	sx, sy := float64(fw)/float64(f.Width), float64(fh)/float64(f.Height)
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(mat, &small, image.Pt(fw, fh), 0, 0, gocv.InterpolationArea)
	blob := gocv.BlobFromImage(small, 1, image.Pt(fw, fh), gocv.NewScalar(0, 0, 0, 0), false, false)
	defer blob.Close()
	l.finder.SetInput(blob, "")
	maps := l.finder.Forward("")
	defer maps.Close()
	m, err := maps.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("dicetray: the finder's output: %w", err)
	}
	gw, gh := fw/finderStride, fh/finderStride
	if len(m) < 4*gw*gh {
		return nil, fmt.Errorf("dicetray: the finder gave %d values for %d×%d cells", len(m), gw, gh)
	}
	heat := func(x, y int) float64 { return sigmoid(float64(m[y*gw+x])) }
	var cands []peak
	for y := 0; y < gh; y++ {
		for x := 0; x < gw; x++ {
			h := heat(x, y)
			if h < find {
				continue
			}
			top := true
			for dy := -1; dy <= 1 && top; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if (dx != 0 || dy != 0) && x+dx >= 0 && x+dx < gw && y+dy >= 0 && y+dy < gh && heat(x+dx, y+dy) > h {
						top = false
						break
					}
				}
			}
			if !top {
				continue
			}
			k := y*gw + x
			c := geom.Vec2{X: (float64(x) + float64(m[gw*gh+k])) * finderStride / sx, Y: (float64(y) + float64(m[2*gw*gh+k])) * finderStride / sy}
			side := 16 * math.Exp(float64(m[3*gw*gh+k])) / math.Sqrt(sx*sy)
			// more than a fifth of the die outside the frame
			edge := min(c.X, c.Y, float64(f.Width-1)-c.X, float64(f.Height-1)-c.Y) < 0.3*side
			cands = append(cands, peak{centre: c, side: side, heat: h, edge: edge})
		}
	}
	slices.SortFunc(cands, func(a, b peak) int { return cmp.Compare(b.heat, a.heat) })
	kept := cands[:0]
	for _, c := range cands {
		if !slices.ContainsFunc(kept, func(k peak) bool { return k.centre.Dist(c.centre) < 0.5*math.Max(k.side, c.side) }) {
			kept = append(kept, c)
		}
	}
	cands = kept
	if len(cands) == 0 {
		return cands, nil
	}
	views := l.model.Views
	wins := make([]gocv.Mat, 0, views*len(cands))
	defer func() {
		for _, w := range wins {
			w.Close()
		}
	}()
	for _, c := range cands {
		w := window(f, c.centre, c.side, l.model.Crop)
		wins = append(wins, w)
		if views == 8 {
			for _, turn := range []gocv.RotateFlag{gocv.Rotate90Clockwise, gocv.Rotate180Clockwise, gocv.Rotate90CounterClockwise} {
				t := gocv.NewMat()
				gocv.Rotate(w, &t, turn)
				wins = append(wins, t)
			}
			for _, k := range wins[len(wins)-4:] {
				m := gocv.NewMat()
				gocv.Flip(k, &m, 1)
				wins = append(wins, m)
			}
		}
	}
	fb := gocv.NewMat()
	defer fb.Close()
	gocv.BlobFromImages(wins, &fb, 1, image.Pt(l.model.Crop, l.model.Crop), gocv.NewScalar(0, 0, 0, 0), false, false, gocv.MatTypeCV32F)
	l.face.SetInput(fb, "")
	logits := l.face.Forward("")
	defer logits.Close()
	lg, err := logits.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("dicetray: the face net's output: %w", err)
	}
	if len(lg) < 7*len(wins) {
		return nil, fmt.Errorf("dicetray: the face net gave %d values for %d windows", len(lg), len(wins))
	}
	for i := range cands {
		cands[i].logits = make([][7]float64, views)
		for v := range views {
			for k := range 7 {
				cands[i].logits[v][k] = float64(lg[7*(views*i+v)+k])
			}
		}
	}
	return cands, nil
}

// window is the face net's input around c: faceWindow sides square, the
// frame's edge repeated outside it, resized to crop² (as train.py's
// crop).
func window(f Frame, c geom.Vec2, side float64, crop int) gocv.Mat {
	half := faceWindow * side / 2
	x0, y0 := int(math.Round(c.X-half)), int(math.Round(c.Y-half))
	n := max(int(math.Round(2*half)), 4)
	buf := make([]byte, 3*n*n)
	for y := 0; y < n; y++ {
		sy := min(max(y0+y, 0), f.Height-1)
		for x := 0; x < n; x++ {
			sx := min(max(x0+x, 0), f.Width-1)
			copy(buf[3*(y*n+x):3*(y*n+x)+3], f.BGR[3*(sy*f.Width+sx):])
		}
	}
	src, err := gocv.NewMatFromBytes(n, n, gocv.MatTypeCV8UC3, buf)
	if err != nil {
		return gocv.NewMat()
	}
	defer src.Close()
	dst := gocv.NewMat()
	interp := gocv.InterpolationLinear
	if n > crop {
		interp = gocv.InterpolationArea
	}
	gocv.Resize(src, &dst, image.Pt(crop, crop), 0, 0, interp)
	return dst
}
