//go:build cgo

package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

var (
	colFrame    = color.RGBA{R: 255, G: 210, B: 0, A: 255}
	colModel    = color.RGBA{R: 0, G: 230, B: 0, A: 255}
	colOccluded = color.RGBA{R: 255, G: 40, B: 40, A: 255}
	colMeasure  = color.RGBA{R: 0, G: 200, B: 255, A: 255}
	colText     = color.RGBA{R: 255, G: 255, B: 255, A: 255}
	colShadow   = color.RGBA{A: 255}
)

func pt(p geom.Vec2) image.Point {
	return image.Point{X: int(math.Round(p.X)), Y: int(math.Round(p.Y))}
}

// text draws a label with a dark outline so it reads on any background.
func text(img *gocv.Mat, s string, at image.Point, scale float64, c color.RGBA) {
	gocv.PutText(img, s, at, gocv.FontHersheySimplex, scale, colShadow, 4)
	gocv.PutText(img, s, at, gocv.FontHersheySimplex, scale, c, 1)
}

// annotate draws the snapshot over the frame: the table frame, every model
// with its id (occluded ones in red), the distances of pairs, and a
// header. It returns the JPEG.
func (p *Pipeline) annotate(frame gocv.Mat, s Snapshot, pairs []Pair) ([]byte, error) {
	img := bgrCopy(frame)
	defer img.Close()
	cal, reg := p.cal, p.reg
	scale := math.Max(0.4, float64(img.Cols())/2400)
	// the table's outline, bent by the lens as the camera sees it
	w, d := reg.Table.WidthMM, reg.Table.DepthMM
	outline := []geom.Vec2{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: d}, {X: 0, Y: d}}
	for k := 0; k < 4; k++ {
		a, b := outline[k], outline[(k+1)%4]
		const n = 24
		prev := cal.ToImage(a.X, a.Y, 0)
		for i := 1; i <= n; i++ {
			q := a.Add(b.Sub(a).Scale(float64(i) / n))
			cur := cal.ToImage(q.X, q.Y, 0)
			gocv.Line(&img, pt(prev), pt(cur), colFrame, 2)
			prev = cur
		}
	}
	for _, f := range reg.Fiducials.Markers {
		c := f.Corners()
		for k := 0; k < 4; k++ {
			a := cal.ToImage(c[k].X, c[k].Y, reg.Fiducials.HeightMM)
			b := cal.ToImage(c[(k+1)%4].X, c[(k+1)%4].Y, reg.Fiducials.HeightMM)
			gocv.Line(&img, pt(a), pt(b), colFrame, 1)
		}
	}
	for _, m := range s.Models {
		spec, ok := reg.Model(m.Marker)
		h := reg.Defaults.HeightMM
		if ok {
			h = spec.HeightMM
		}
		c := cal.ToImage(m.X, m.Y, h)
		edge := cal.ToImage(m.X+m.BaseMM/2, m.Y, h)
		r := int(math.Max(3, c.Dist(edge)))
		col := colModel
		if m.Occluded {
			col = colOccluded
		}
		gocv.Circle(&img, pt(c), r, col, 2)
		text(&img, m.ID, pt(c.Add(geom.Vec2{X: float64(r) + 3, Y: -float64(r)})), 0.65*scale, col)
	}
	for _, pr := range pairs {
		a, b, dist, err := closestModels(s, pr)
		if err != nil {
			continue
		}
		pa, pb := edgePoints(a, b)
		ia := cal.ToImage(pa.X, pa.Y, 0)
		ib := cal.ToImage(pb.X, pb.Y, 0)
		gocv.Line(&img, pt(ia), pt(ib), colMeasure, 2)
		k, bk := dist.Kroki(p.cfg.KrokMM)
		label := fmt.Sprintf("%.1f mm +/- %.1f  (%.2f +/- %.2f kr)", dist.MM, dist.BoundMM, k, bk)
		text(&img, label, pt(ia.Add(ib).Scale(0.5).Add(geom.Vec2{X: 6, Y: -6})), 0.8*scale, colMeasure)
	}
	head := fmt.Sprintf("snapshot %d  models %d  missing %d  calibration %.2f mm", s.Seq, len(s.Models), len(s.Missing), s.CalibrationMM)
	text(&img, head, image.Point{X: 10, Y: int(34 * scale)}, 1.0*scale, colText)
	return p.encodeJPEG(img)
}

// bgrCopy is a BGR copy of the frame to draw on.
func bgrCopy(frame gocv.Mat) gocv.Mat {
	img := gocv.NewMat()
	if frame.Channels() == 1 {
		gocv.CvtColor(frame, &img, gocv.ColorGrayToBGR)
	} else {
		frame.CopyTo(&img)
	}
	return img
}

// encodeJPEG encodes an annotated image at the config's quality.
func (p *Pipeline) encodeJPEG(img gocv.Mat) ([]byte, error) {
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, img, []int{gocv.IMWriteJpegQuality, p.cfg.JPEGQuality})
	if err != nil {
		return nil, fmt.Errorf("vision: JPEG: %w", err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}

// closestModels finds the models a pair names (model ids or units).
func closestModels(s Snapshot, pr Pair) (ModelPosition, ModelPosition, Distance, error) {
	pick := func(name string) []ModelPosition {
		var out []ModelPosition
		for _, m := range s.Models {
			if m.ID == name {
				return []ModelPosition{m}
			}
			if m.Unit == name {
				out = append(out, m)
			}
		}
		return out
	}
	as, bs := pick(pr.A), pick(pr.B)
	if len(as) == 0 || len(bs) == 0 {
		return ModelPosition{}, ModelPosition{}, Distance{}, fmt.Errorf("vision: nothing called %q or %q in snapshot %d", pr.A, pr.B, s.Seq)
	}
	best := Distance{MM: math.Inf(1)}
	var ba, bb ModelPosition
	for _, a := range as {
		for _, b := range bs {
			if d := EdgeDistance(a, b); d.MM < best.MM {
				best, ba, bb = d, a, b
			}
		}
	}
	return ba, bb, best, nil
}

// edgePoints are the points of the two bases' edges that face each other.
func edgePoints(a, b ModelPosition) (geom.Vec2, geom.Vec2) {
	ca, cb := geom.Vec2{X: a.X, Y: a.Y}, geom.Vec2{X: b.X, Y: b.Y}
	d := cb.Sub(ca)
	n := d.Norm()
	if n == 0 {
		return ca, cb
	}
	u := d.Scale(1 / n)
	return ca.Add(u.Scale(a.BaseMM / 2)), cb.Sub(u.Scale(b.BaseMM / 2))
}
