//go:build cgo

package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

// terrainShrink: the terrain is read on a half-size image (a quarter of
// the pixels; about 2 mm per pixel on a 180×120 cm table at 2304×1296),
// its outlines moved out by half a pixel to the colour edge.
const terrainShrink = 2

// terrainReader reads cover, template and objective markers from a frame
// by their calibrated colours.
type terrainReader struct {
	tc       *TerrainCalibration
	cal      *Calibration
	reg      *Registry
	heightMM float64

	small, hsv, mask, tmp, table, kernel gocv.Mat
	tableW, tableH                       int // the size table was drawn for
}

// terrainReading is what one frame showed.
type terrainReading struct {
	terrain  []Terrain
	markers  []TableMarker
	warnings []string
	// bad is why the frame could not be read (unlit, overexposed, colours
	// drifted); the last good reading stands.
	bad string
}

// baseDisc is a model's base as seen in the image: its footprint (top and
// side), which hides whatever it stands on.
type baseDisc struct{ x, y, r float64 } // pixels of the shrunk image

func newTerrainReader(tc *TerrainCalibration, cal *Calibration, reg *Registry, heightMM float64) (*terrainReader, error) {
	if tc.Width != cal.Width || tc.Height != cal.Height {
		return nil, fmt.Errorf("vision: the terrain calibration is for %d×%d frames, the table calibration for %d×%d: run `sztab calibrate terrain` again", tc.Width, tc.Height, cal.Width, cal.Height)
	}
	return &terrainReader{tc: tc, cal: cal, reg: reg, heightMM: heightMM,
		small: gocv.NewMat(), hsv: gocv.NewMat(), mask: gocv.NewMat(), tmp: gocv.NewMat(), table: gocv.NewMat(),
		kernel: gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(3, 3))}, nil
}

func (r *terrainReader) Close() {
	for _, m := range []*gocv.Mat{&r.small, &r.hsv, &r.mask, &r.tmp, &r.table, &r.kernel} {
		m.Close()
	}
}

// toSmall and fromSmall map full-frame pixels to the shrunk image and back
// (a shrunk pixel i covers full pixels f·i … f·i+f−1).
func toSmall(p geom.Vec2) geom.Vec2 {
	const f = terrainShrink
	return geom.Vec2{X: (p.X - (f-1)/2.0) / f, Y: (p.Y - (f-1)/2.0) / f}
}

func fromSmall(p geom.Vec2) geom.Vec2 {
	const f = terrainShrink
	return geom.Vec2{X: f*p.X + (f-1)/2.0, Y: f*p.Y + (f-1)/2.0}
}

// prepare shrinks the frame, converts it to HSV and draws the table's
// area (the registry's table, at the terrain's height) once.
func (r *terrainReader) prepare(frame gocv.Mat) {
	sz := image.Pt(frame.Cols()/terrainShrink, frame.Rows()/terrainShrink)
	gocv.Resize(frame, &r.small, sz, 0, 0, gocv.InterpolationArea)
	gocv.CvtColor(r.small, &r.hsv, gocv.ColorBGRToHSV)
	if r.tableW == sz.X && r.tableH == sz.Y {
		return
	}
	r.table.Close()
	r.table = gocv.NewMatWithSize(sz.Y, sz.X, gocv.MatTypeCV8UC1)
	r.table.SetTo(gocv.NewScalar(0, 0, 0, 0))
	w, d := r.reg.Table.WidthMM, r.reg.Table.DepthMM
	var pts []image.Point
	const n = 24
	edge := func(x0, y0, x1, y1 float64) {
		for k := 0; k < n; k++ {
			t := float64(k) / n
			p := toSmall(r.cal.ToImage(x0+t*(x1-x0), y0+t*(y1-y0), r.heightMM))
			pts = append(pts, image.Pt(int(math.Round(p.X)), int(math.Round(p.Y))))
		}
	}
	edge(0, 0, w, 0)
	edge(w, 0, w, d)
	edge(w, d, 0, d)
	edge(0, d, 0, 0)
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	gocv.FillPoly(&r.table, pv, color.RGBA{255, 255, 255, 0})
	pv.Close()
	r.tableW, r.tableH = sz.X, sz.Y
}

// classMask leaves the class's pixels on the table in r.mask.
func (r *terrainReader) classMask(cr ColourRange) {
	lo := func(h int) gocv.Scalar { return gocv.NewScalar(float64(h), float64(cr.Sat[0]), float64(cr.Val[0]), 0) }
	hi := func(h int) gocv.Scalar { return gocv.NewScalar(float64(h), float64(cr.Sat[1]), float64(cr.Val[1]), 0) }
	if cr.Hue[0] <= cr.Hue[1] {
		gocv.InRangeWithScalar(r.hsv, lo(cr.Hue[0]), hi(cr.Hue[1]), &r.mask)
	} else { // through red
		gocv.InRangeWithScalar(r.hsv, lo(cr.Hue[0]), hi(179), &r.mask)
		gocv.InRangeWithScalar(r.hsv, lo(0), hi(cr.Hue[1]), &r.tmp)
		gocv.BitwiseOr(r.mask, r.tmp, &r.mask)
	}
	gocv.BitwiseAnd(r.mask, r.table, &r.mask)
	gocv.MorphologyEx(r.mask, &r.tmp, gocv.MorphOpen, r.kernel)
	gocv.MorphologyEx(r.tmp, &r.mask, gocv.MorphClose, r.kernel)
}

// check measures the table's brightness, clipping and colour against the
// calibration; it says why the frame cannot be read, or "".
func (r *terrainReader) check() string {
	pix, err := r.hsv.DataPtrUint8()
	if err != nil {
		return "the frame cannot be read"
	}
	tab, err := r.table.DataPtrUint8()
	if err != nil {
		return "the frame cannot be read"
	}
	w, h := r.hsv.Cols(), r.hsv.Rows()
	var n, clipped, bare int
	var sumV float64
	var hueHist [180]int
	var satHist [256]int
	ranges := make([]ColourRange, len(TerrainClasses))
	for i, c := range TerrainClasses {
		ranges[i] = r.tc.Range(c)
	}
	// every 5th pixel of every 5th row: the table's brightness, clipping
	// and the bare table's colour (histograms: no sorting)
	for y := 0; y < h; y += 5 {
		for x := 0; x < w; x += 5 {
			if tab[y*w+x] == 0 {
				continue
			}
			i := 3 * (y*w + x)
			hh, s, v := int(pix[i]), int(pix[i+1]), int(pix[i+2])
			n++
			sumV += float64(v)
			if v >= 250 {
				clipped++
			}
			inClass := false
			for _, cr := range ranges {
				if cr.Contains(hh, s, v) {
					inClass = true
					break
				}
			}
			if !inClass {
				bare++
				hueHist[hh]++
				satHist[s]++
			}
		}
	}
	if n == 0 {
		return "the table is not in view"
	}
	mean := sumV / float64(n)
	ref := r.tc.Brightness
	switch {
	case mean < math.Max(20, 0.3*ref):
		return fmt.Sprintf("the table is too dark to read the terrain (brightness %.0f, %.0f when calibrated): is the light on?", mean, ref)
	case float64(clipped) > 0.2*float64(n):
		return fmt.Sprintf("the frame is overexposed (%.0f%% of the table clipped white): lower the camera's exposure or the light", 100*float64(clipped)/float64(n))
	case bare < n/4:
		return fmt.Sprintf("most of the table (%d%%) reads as cover or markers: the colours have drifted from the calibration; run `sztab calibrate terrain`", 100-100*bare/n)
	}
	// the bare table's own colour: hue only means something on a
	// coloured mat
	hue, sat := circularMedianHue(hueHist[:]), histMedian(satHist[:])
	if r.tc.Table[1] >= 30 && sat >= 20 {
		if d := hueDist(hue, r.tc.Table[0]); d > 8 {
			return fmt.Sprintf("the table's colours drifted from the terrain calibration (the mat's hue %d, %d when calibrated): the light changed; run `sztab calibrate terrain` under this light", hue, r.tc.Table[0])
		}
	}
	if math.Abs(float64(sat-r.tc.Table[1])) > 50 {
		return fmt.Sprintf("the table's colours drifted from the terrain calibration (the mat's saturation %d, %d when calibrated); run `sztab calibrate terrain` under this light", sat, r.tc.Table[1])
	}
	return ""
}

func hueDist(a, b int) int {
	d := a - b
	if d < 0 {
		d = -d
	}
	return min(d, 180-d)
}

// circularMedianHue is the median of a hue histogram (180 bins) taken
// around its mean direction.
func circularMedianHue(hist []int) int {
	var sx, sy float64
	total := 0
	for h, k := range hist {
		a := float64(h) * math.Pi / 90
		sx, sy = sx+float64(k)*math.Cos(a), sy+float64(k)*math.Sin(a)
		total += k
	}
	if total == 0 {
		return 0
	}
	c := int(math.Round(math.Atan2(sy, sx) * 90 / math.Pi))
	acc := 0
	for d := -90; d < 90; d++ {
		acc += hist[wrapHue(c+d)]
		if 2*acc >= total {
			return wrapHue(c + d)
		}
	}
	return wrapHue(c)
}

func histMedian(hist []int) int {
	total := 0
	for _, k := range hist {
		total += k
	}
	acc := 0
	for v, k := range hist {
		acc += k
		if 2*acc >= total {
			return v
		}
	}
	return 0
}

// read reads the frame; bases are the models' footprints.
func (r *terrainReader) read(frame gocv.Mat, models []ModelPosition) terrainReading {
	r.prepare(frame)
	var out terrainReading
	if why := r.check(); why != "" {
		out.bad = why
		return out
	}
	bases := r.footprints(models)
	calMM := r.cal.Error.PositionMM()
	fr, full := frameOf(frame)
	for _, class := range []string{ClassLight, ClassHeavy} {
		r.classMask(r.tc.Range(class))
		fillUnderBases(&r.mask, bases)
		polys, roughs := r.outlines(r.tc.MinPieceMM2)
		for k, poly := range polys {
			// the half-size outline's σ: half a halved pixel
			sigma := 0.5 * terrainShrink * r.cal.ScaleAt(polygonCentroid(poly))
			var unseen []UnseenDisc
			var vsig []float64
			if full {
				if fine, us, vs, ok := r.refineOutline(fr, roughs[k], bases); ok {
					poly, unseen, sigma = fine, us, slices.Max(vs)
					vsig = make([]float64, len(vs))
					for i, s := range vs {
						vsig[i] = round3(math.Hypot(calMM, s))
					}
					if signedArea(poly) < 0 {
						slices.Reverse(poly)
						slices.Reverse(vsig)
					}
				}
			}
			out.terrain = append(out.terrain, Terrain{Kind: class, Outline: poly, Unseen: unseen,
				SigmaMM: round3(math.Hypot(calMM, sigma)), VertexSigmaMM: vsig})
		}
	}
	numberTerrain(out.terrain)
	for _, class := range []string{ClassTemplate, ClassObjective} {
		r.classMask(r.tc.Range(class))
		minD := 15.0
		polys, _ := r.outlines(math.Pi / 4 * minD * minD)
		for _, poly := range polys {
			m, warn := r.marker(class, poly, calMM)
			out.markers = append(out.markers, m)
			if warn != "" {
				out.warnings = append(out.warnings, warn)
			}
		}
	}
	return out
}

// marker measures one blob of a marker's colour.
func (r *terrainReader) marker(class string, poly [][2]float64, calMM float64) (TableMarker, string) {
	area, perim := polygonArea(poly), polygonPerimeter(poly)
	c := polygonCentroid(poly)
	d := 2 * math.Sqrt(area/math.Pi)
	px := terrainShrink * r.cal.ScaleAt(c)
	m := TableMarker{Kind: class, X: round3(c.X), Y: round3(c.Y), DiameterMM: round3(d),
		SigmaMM: round3(math.Hypot(calMM, 0.5*px))}
	circ := 4 * math.Pi * area / (perim * perim)
	m.Confidence = math.Max(0, math.Min(0.99, (circ-0.55)/0.35))
	var warn string
	// a marker at the table's edge or the image's border is only partly
	// seen: its centre and size are not guessed from the part
	w, dd := r.reg.Table.WidthMM, r.reg.Table.DepthMM
	edge := 2*px + 1
	partial := false
	for _, v := range poly {
		if v[0] < edge || v[1] < edge || v[0] > w-edge || v[1] > dd-edge {
			partial = true
			break
		}
		ip := toSmall(r.cal.ToImage(v[0], v[1], r.heightMM))
		if ip.X < 2 || ip.Y < 2 || ip.X > float64(r.hsv.Cols()-3) || ip.Y > float64(r.hsv.Rows()-3) {
			partial = true
			break
		}
	}
	switch {
	case partial:
		m.Confidence = math.Min(m.Confidence, 0.3)
		warn = fmt.Sprintf("a %s marker at (%.0f, %.0f) mm runs off the table or out of view: only part of it is seen, its centre and size are not known; put it wholly on the table", class, c.X, c.Y)
	case m.Confidence < 0.5:
		warn = fmt.Sprintf("a %s-coloured shape at (%.0f, %.0f) mm is not round (roundness %.2f): a marker partly covered, or something else of its colour?", class, c.X, c.Y, circ)
	case class == ClassObjective && math.Abs(d-r.tc.ObjectiveMM) > 0.2*r.tc.ObjectiveMM:
		m.Confidence *= 0.5
		warn = fmt.Sprintf("an objective-coloured disc at (%.0f, %.0f) mm measures %.0f mm, objective markers are %.0f mm: partly covered?", c.X, c.Y, d, r.tc.ObjectiveMM)
	}
	m.Confidence = round3(m.Confidence)
	return m, warn
}

// footprints are the models' bases in the shrunk image: the top and the
// side down to the table (the parallax), and a pixel of blur.
func (r *terrainReader) footprints(models []ModelPosition) []baseDisc {
	var out []baseDisc
	for _, m := range models {
		h := r.reg.Defaults.HeightMM
		if spec, ok := r.reg.Model(m.Marker); ok && spec.HeightMM > 0 {
			h = spec.HeightMM
		}
		a := toSmall(r.cal.ToImage(m.X, m.Y, 0))
		b := toSmall(r.cal.ToImage(m.X, m.Y, h))
		s := r.cal.ScaleAt(geom.Vec2{X: m.X, Y: m.Y}) * terrainShrink
		if !(s > 0) {
			continue
		}
		out = append(out, baseDisc{x: (a.X + b.X) / 2, y: (a.Y + b.Y) / 2, r: (m.BaseMM/2+2*m.SigmaMM)/s + a.Dist(b)/2 + 1.5})
	}
	return out
}

// fillUnderBases gives the pixels a base hides the colour around them: the
// convex hull of the mask's pixels in a ring just outside the base,
// clipped to the base. A base on a piece's straight edge is filled up to
// the edge's line, one standing on it wholly, one across a wall bridges
// it; a base beside a piece adds nothing.
func fillUnderBases(mask *gocv.Mat, bases []baseDisc) {
	pix, err := mask.DataPtrUint8()
	if err != nil {
		return
	}
	w, h := mask.Cols(), mask.Rows()
	for _, b := range bases {
		const ring = 3
		x0, x1 := max(0, int(b.x-b.r-ring)), min(w-1, int(b.x+b.r+ring+1))
		y0, y1 := max(0, int(b.y-b.r-ring)), min(h-1, int(b.y+b.r+ring+1))
		var pts []geom.Vec2
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				d := math.Hypot(float64(x)-b.x, float64(y)-b.y)
				if d > b.r && d <= b.r+ring && pix[y*w+x] != 0 {
					pts = append(pts, geom.Vec2{X: float64(x), Y: float64(y)})
				}
			}
		}
		if len(pts) < 3 {
			continue
		}
		hull := hullCCW(pts)
		if len(hull) < 3 {
			continue
		}
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				p := geom.Vec2{X: float64(x), Y: float64(y)}
				if math.Hypot(p.X-b.x, p.Y-b.y) <= b.r+0.5 && inConvex(hull, p) {
					pix[y*w+x] = 255
				}
			}
		}
	}
}

// hullCCW is the hull of pts, counter-clockwise (monotone chain).
func hullCCW(pts []geom.Vec2) []geom.Vec2 {
	sort.Slice(pts, func(i, j int) bool {
		if pts[i].X != pts[j].X {
			return pts[i].X < pts[j].X
		}
		return pts[i].Y < pts[j].Y
	})
	cross := func(o, a, b geom.Vec2) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var hull []geom.Vec2
	for _, p := range pts {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		p := pts[i]
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull[:len(hull)-1]
}

func inConvex(hull []geom.Vec2, p geom.Vec2) bool {
	for i := range hull {
		a, b := hull[i], hull[(i+1)%len(hull)]
		if (b.X-a.X)*(p.Y-a.Y)-(b.Y-a.Y)*(p.X-a.X) < -0.5 {
			return false
		}
	}
	return true
}

// outlines are the mask's blobs of at least minMM2 as polygons in table
// mm (counter-clockwise on the table), simplified to within 0.6 pixel
// and moved out half a pixel: a blob's border pixels lie half a pixel
// inside the colour's edge. rough are the same polygons, simplified but
// not moved out, in full-frame pixels (for refineOutline).
func (r *terrainReader) outlines(minMM2 float64) (out [][][2]float64, rough [][]geom.Vec2) {
	cs := gocv.FindContours(r.mask, gocv.RetrievalExternal, gocv.ChainApproxNone)
	defer cs.Close()
	for i := 0; i < cs.Size(); i++ {
		c := cs.At(i)
		if c.Size() < 4 {
			continue
		}
		ap := gocv.ApproxPolyDP(c, 0.6, true)
		pts := ap.ToPoints()
		ap.Close()
		if len(pts) < 3 {
			continue
		}
		vs := make([]geom.Vec2, len(pts))
		for k, p := range pts {
			vs[k] = geom.Vec2{X: float64(p.X), Y: float64(p.Y)}
		}
		fullVs := make([]geom.Vec2, len(vs))
		for k, v := range vs {
			fullVs[k] = fromSmall(v)
		}
		vs = offsetPolygon(vs, 0.5)
		poly := make([][2]float64, 0, len(vs))
		ok := true
		for _, v := range vs {
			t, err := r.cal.ToTable(fromSmall(v), r.heightMM)
			if err != nil {
				ok = false
				break
			}
			poly = append(poly, [2]float64{round3(t.X), round3(t.Y)})
		}
		if !ok || polygonArea(poly) < minMM2 {
			continue
		}
		if signedArea(poly) < 0 {
			for a, b := 0, len(poly)-1; a < b; a, b = a+1, b-1 {
				poly[a], poly[b] = poly[b], poly[a]
			}
		}
		out = append(out, poly)
		rough = append(rough, fullVs)
	}
	return out, rough
}

// winding is 1 for a polygon whose shoelace area is positive (counter-
// clockwise with y up; clockwise in image coordinates), −1 otherwise.
func winding(vs []geom.Vec2) float64 {
	sa := 0.0
	for i := range vs {
		a, b := vs[i], vs[(i+1)%len(vs)]
		sa += a.X*b.Y - b.X*a.Y
	}
	if sa < 0 {
		return -1
	}
	return 1
}

// offsetPolygon moves each vertex d outwards (along the bisector of its
// edges' normals, at most 2d).
func offsetPolygon(vs []geom.Vec2, d float64) []geom.Vec2 {
	n := len(vs)
	sign := winding(vs)
	normal := func(a, b geom.Vec2) geom.Vec2 {
		e := b.Sub(a)
		l := math.Hypot(e.X, e.Y)
		if l == 0 {
			return geom.Vec2{}
		}
		// outward for a counter-clockwise polygon (positive signed area)
		return geom.Vec2{X: sign * e.Y / l, Y: -sign * e.X / l}
	}
	out := make([]geom.Vec2, n)
	for i := range vs {
		n1, n2 := normal(vs[(i+n-1)%n], vs[i]), normal(vs[i], vs[(i+1)%n])
		m := n1.Add(n2)
		l := math.Hypot(m.X, m.Y)
		if l < 1e-9 {
			out[i] = vs[i]
			continue
		}
		cosHalf := l / 2
		k := math.Min(d/math.Max(cosHalf, 1e-9), 2*d)
		out[i] = vs[i].Add(m.Scale(k / l))
	}
	return out
}

func signedArea(p [][2]float64) float64 {
	s := 0.0
	for i := range p {
		a, b := p[i], p[(i+1)%len(p)]
		s += a[0]*b[1] - b[0]*a[1]
	}
	return s / 2
}

func polygonArea(p [][2]float64) float64 { return math.Abs(signedArea(p)) }

func polygonPerimeter(p [][2]float64) float64 {
	s := 0.0
	for i := range p {
		a, b := p[i], p[(i+1)%len(p)]
		s += math.Hypot(b[0]-a[0], b[1]-a[1])
	}
	return s
}

func polygonCentroid(p [][2]float64) geom.Vec2 {
	var cx, cy, a float64
	for i := range p {
		u, v := p[i], p[(i+1)%len(p)]
		cr := u[0]*v[1] - v[0]*u[1]
		a += cr
		cx += (u[0] + v[0]) * cr
		cy += (u[1] + v[1]) * cr
	}
	if a == 0 {
		return geom.Vec2{X: p[0][0], Y: p[0][1]}
	}
	return geom.Vec2{X: cx / (3 * a), Y: cy / (3 * a)}
}

// numberTerrain orders the pieces (by kind, then from the origin corner)
// and names them light-1, light-2, …, heavy-1, ….
func numberTerrain(ts []Terrain) {
	sort.SliceStable(ts, func(i, j int) bool {
		a, b := ts[i], ts[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		ca, cb := polygonCentroid(a.Outline), polygonCentroid(b.Outline)
		return ca.X+ca.Y < cb.X+cb.Y
	})
	counts := map[string]int{}
	for i := range ts {
		counts[ts[i].Kind]++
		ts[i].ID = fmt.Sprintf("%s-%d", ts[i].Kind, counts[ts[i].Kind])
	}
}
