//go:build cgo

package vision

import (
	"math"
	"slices"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

// Sub-pixel outlines. The half-size mask finds the pieces and their rough
// polygons (a blob's simplified contour, within about a halved pixel, 2
// mm); each polygon is then refined on the full-resolution frame: along
// each rough edge, every full pixel, the colour is sampled (bilinear)
// across the edge, from well inside the piece to well outside it, and
// the edge is where the colour is halfway between the two (the frame's
// blur is symmetric, so halfway is where the paint ends). The crossings
// are mapped to the table and fitted with straight lines by least
// squares; an edge whose crossings bend away from one line (a hedge's
// wavy side) is split where they bend most, so curved edges keep more
// vertices. Corners are where neighbouring lines meet. Only pixels near
// the outline are read.
//
// A base hides what lies under it: crossings under a base's footprint or
// next to it are not used (the rough edge there is fillUnderBases's). An
// edge with too few crossings keeps its rough line.

const (
	profileHalf = 5.0 // how far across the edge a profile reaches, full pixels
	profileStep = 0.5 // its sampling step, full pixels
	// minContrast is the least colour difference (BGR, 0–255 per
	// channel, Euclidean) between a profile's two ends for its crossing
	// to count.
	minContrast = 30.0
	// splitMM: an edge whose crossings depart from its line by more than
	// this (after outliers) is split in two where they depart most.
	splitMM = 0.45
	// crossingStep: a profile every this many full pixels along the
	// outline.
	crossingStep = 1.0
	// minCrossings fitted to one line.
	minCrossings = 4
	// A corner is checked against the paint around it (cornerCheck):
	// profiles every millimetre up to cornerCheckMM along its two edges,
	// and along its bisector. The blur rounds a sharp tip inward by about
	// cornerPull (mm), so a corner may stand that far past the paint's
	// edge on its bisector unremarked; past that, or short of the paint
	// anywhere, it was put wrong by the distance found, which is
	// cornerSigmas of its σ. Measured on the 10 tables of
	// TestCoverEndToEnd (2,306 corners): the distance found tracks the
	// corner's true error (a corner 2.5 mm past the paint's tip reads
	// 2.9 mm; 0.9 mm short reads 0.9 mm). With these values the true
	// corners lie within 2.2σ of the read outline at p99 and, where no
	// base hid them, within 3.1σ at worst (one corner of 1,562); with one
	// σ a piece they lay within 3.0σ at p99. The values were set looking
	// at all 10 tables, hold-out ones included.
	cornerCheckMM = 4.0
	cornerPull    = 0.3
	cornerSigmas  = 1.5
)

// edgeLine is a fitted straight edge on the table: a point on it, its
// direction, and what the fit achieved.
type edgeLine struct {
	p, d geom.Vec2
	pts  []geom.Vec2 // the crossings it was fitted to
	// joint is where this line's run of crossings starts (the rough
	// vertex, or a crossing where a bent edge was split): the corner with
	// the previous line is sought near it.
	joint geom.Vec2
	// sigma is the standard uncertainty of a point of the line across it
	// (mm): the fit's residual over the root of the number of crossings,
	// at the line's ends; rough is set when the line is the rough edge's.
	sigma float64
	rms   float64 // the crossings' scatter about the line (mm)
	n     int
	rough bool
	under bool // rough, under a base
}

// frameBGR gives bilinear access to a continuous 8-bit BGR frame.
type frameBGR struct {
	pix  []byte
	w, h int
}

func frameOf(m gocv.Mat) (frameBGR, bool) {
	if m.Type() != gocv.MatTypeCV8UC3 || !m.IsContinuous() {
		return frameBGR{}, false
	}
	pix, err := m.DataPtrUint8()
	if err != nil {
		return frameBGR{}, false
	}
	return frameBGR{pix: pix, w: m.Cols(), h: m.Rows()}, true
}

// at is the colour at the sub-pixel point (x, y) (pixel centres at
// integers); ok is false outside the frame.
func (f frameBGR) at(x, y float64) (c [3]float64, ok bool) {
	if !(x >= 0 && y >= 0 && x <= float64(f.w-2) && y <= float64(f.h-2)) {
		return c, false
	}
	x0, y0 := int(x), int(y)
	fx, fy := x-float64(x0), y-float64(y0)
	i := 3 * (y0*f.w + x0)
	j := i + 3*f.w
	for k := range 3 {
		a := float64(f.pix[i+k])*(1-fx) + float64(f.pix[i+3+k])*fx
		b := float64(f.pix[j+k])*(1-fx) + float64(f.pix[j+3+k])*fx
		c[k] = a*(1-fy) + b*fy
	}
	return c, true
}

// crossing finds the colour edge on the profile through p along the
// outward normal n (full pixels): where the colour is halfway between the
// inside's and the outside's. ok is false when the profile leaves the
// frame, has too little contrast, or crosses halfway more than once.
func (f frameBGR) crossing(p, n geom.Vec2) (geom.Vec2, bool) {
	const k = int(2*profileHalf/profileStep) + 1
	var cs [k][3]float64
	for i := range k {
		t := -profileHalf + float64(i)*profileStep
		c, ok := f.at(p.X+t*n.X, p.Y+t*n.Y)
		if !ok {
			return geom.Vec2{}, false
		}
		cs[i] = c
	}
	// the two ends: the first and last 1.5 pixels
	const e = 4
	var in, out [3]float64
	for i := range e {
		for c := range 3 {
			in[c] += cs[i][c] / e
			out[c] += cs[k-1-i][c] / e
		}
	}
	d := [3]float64{in[0] - out[0], in[1] - out[1], in[2] - out[2]}
	d2 := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
	if d2 < minContrast*minContrast {
		return geom.Vec2{}, false
	}
	// the fraction of the way from outside to inside colour, per sample
	var fr [k]float64
	for i := range k {
		fr[i] = ((cs[i][0]-out[0])*d[0] + (cs[i][1]-out[1])*d[1] + (cs[i][2]-out[2])*d[2]) / d2
	}
	at := -1.0
	for i := 0; i+1 < k; i++ {
		a, b := fr[i]-0.5, fr[i+1]-0.5
		if (a >= 0) != (b >= 0) {
			if at >= 0 {
				return geom.Vec2{}, false // more than one edge on the profile
			}
			at = float64(i) + a/(a-b)
		}
	}
	if at < 0 {
		return geom.Vec2{}, false
	}
	t := -profileHalf + at*profileStep
	return p.Add(n.Scale(t)), true
}

// refineOutline refines a rough outline (vertices in full-frame pixels, in
// image order) on the frame; it returns the outline in table mm, the
// edges drawn across a base (not seen), and the outline's σ across it
// (mm, the seen edges'), or ok false when too little of it could be
// refined (the caller keeps the rough one).
//
// The rough polygon follows the halved pixels' staircase, so a straight
// edge is several short rough edges a few degrees apart: the crossings
// are pooled over runs of rough edges between turns sharper than
// breakTurn, and each run is fitted by fitChain (which splits it where it
// bends: a gentle corner, a curve).
func (r *terrainReader) refineOutline(f frameBGR, vs []geom.Vec2, bases []baseDisc) ([][2]float64, []UnseenDisc, []float64, bool) {
	// drop repeated vertices
	vs = slices.CompactFunc(slices.Clone(vs), func(a, b geom.Vec2) bool { return a == b })
	for len(vs) > 1 && vs[0] == vs[len(vs)-1] {
		vs = vs[:len(vs)-1]
	}
	n := len(vs)
	if n < 3 {
		return nil, nil, nil, false
	}
	// outward normals: image orientation of the rough polygon
	sign := winding(vs)
	// the bases near this piece, in full pixels, with the margin no
	// profile is taken in
	type disc struct {
		c geom.Vec2
		r float64
	}
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		lo = geom.Vec2{X: math.Min(lo.X, v.X), Y: math.Min(lo.Y, v.Y)}
		hi = geom.Vec2{X: math.Max(hi.X, v.X), Y: math.Max(hi.Y, v.Y)}
	}
	var near []disc
	for _, b := range bases {
		d := disc{fromSmall(geom.Vec2{X: b.x, Y: b.y}), terrainShrink*b.r + profileHalf + 1}
		if d.c.X+d.r >= lo.X-profileHalf && d.c.X-d.r <= hi.X+profileHalf && d.c.Y+d.r >= lo.Y-profileHalf && d.c.Y-d.r <= hi.Y+profileHalf {
			near = append(near, d)
		}
	}
	hidden := func(p geom.Vec2) bool {
		for _, d := range near {
			if p.Dist(d.c) < d.r {
				return true
			}
		}
		return false
	}
	dirOf := func(i int) geom.Vec2 {
		e := vs[(i+1)%n].Sub(vs[i])
		return e.Scale(1 / e.Norm())
	}
	normalOf := func(d geom.Vec2) geom.Vec2 { return geom.Vec2{X: sign * d.Y, Y: -sign * d.X} }
	turnAt := func(i int) float64 {
		d0, d1 := dirOf((i+n-1)%n), dirOf(i%n)
		return math.Abs(math.Atan2(d0.X*d1.Y-d0.Y*d1.X, d0.X*d1.X+d0.Y*d1.Y))
	}
	// the rough vertex moved out half a halved pixel, on the table: a
	// corner's first guess and a rough line's ends
	roughAt := func(i int) (geom.Vec2, bool) {
		i %= n
		m := normalOf(dirOf((i + n - 1) % n)).Add(normalOf(dirOf(i)))
		if l := m.Norm(); l > 1e-9 {
			m = m.Scale(terrainShrink / 2.0 / l)
		}
		t, err := r.cal.ToTable(vs[i].Add(m), r.heightMM)
		return t, err == nil
	}
	// runs of rough edges along one direction: from the sharpest corner,
	// an edge joins the run while it and the run's chord (from the run's
	// first vertex to the edge's end) point within runTurn of each other
	// (the staircase's short edges always join)
	start := 0
	for i := range vs {
		if turnAt(i) > turnAt(start) {
			start = i
		}
	}
	const runTurn = 20 * math.Pi / 180
	angle := func(a, b geom.Vec2) float64 { return math.Abs(math.Atan2(a.X*b.Y-a.Y*b.X, a.X*b.X+a.Y*b.Y)) }
	// breaks are unwrapped indices, start … start+n−1
	breaks := []int{start}
	for k := 1; k < n; k++ {
		i := start + k
		r0 := vs[breaks[len(breaks)-1]%n]
		e := vs[(i+1)%n].Sub(vs[i%n])
		chord := vs[(i+1)%n].Sub(r0)
		if e.Norm() > 3*terrainShrink && (angle(e, chord) > runTurn || angle(vs[i%n].Sub(r0), e) > runTurn) {
			breaks = append(breaks, i)
		}
	}
	const sharp = math.Pi / 4
	var lines []edgeLine
	fitted := 0
	for bi, b0 := range breaks {
		end := start + n
		if bi+1 < len(breaks) {
			end = breaks[bi+1]
		}
		var pts []geom.Vec2
		for k := b0; k < end; k++ {
			i := k % n
			a, dir := vs[i], dirOf(i)
			l := vs[(i+1)%n].Dist(a)
			nrm := normalOf(dir)
			// keep clear of the run's ends and of sharp turns, where a
			// profile may reach the neighbouring edge
			s0, s1 := 0.0, l
			if k == b0 || turnAt(i) > sharp {
				s0 = min(profileHalf+1, 0.25*l)
			}
			if k == end-1 || turnAt(i+1) > sharp {
				s1 = l - min(profileHalf+1, 0.25*l)
			}
			// pixels to the table: linear about the edge's middle (the
			// mapping bends far less than a thousandth of a millimetre
			// over an edge's few dozen pixels), three mappings an edge
			// instead of one a crossing
			mid := a.Add(dir.Scale(l / 2))
			t0, err0 := r.cal.ToTable(mid, r.heightMM)
			tx, err1 := r.cal.ToTable(mid.Add(geom.Vec2{X: 1}), r.heightMM)
			ty, err2 := r.cal.ToTable(mid.Add(geom.Vec2{Y: 1}), r.heightMM)
			if err0 != nil || err1 != nil || err2 != nil {
				continue
			}
			jx, jy := tx.Sub(t0), ty.Sub(t0)
			for s := s0; s < s1; s += crossingStep {
				p := a.Add(dir.Scale(s))
				if hidden(p) {
					continue
				}
				q, ok := f.crossing(p, nrm)
				if !ok {
					continue
				}
				dq := q.Sub(mid)
				pts = append(pts, t0.Add(jx.Scale(dq.X)).Add(jy.Scale(dq.Y)))
			}
		}
		fit := mergeLines(fitChain(pts))
		if len(fit) > 0 {
			j, ok := roughAt(b0)
			if !ok {
				return nil, nil, nil, false
			}
			fit[0].joint = j
			fitted += len(pts)
			lines = append(lines, fit...)
			continue
		}
		// the run's rough edges, moved out half a halved pixel; under
		// a base, they are fillUnderBases's chord
		under := true
		for i := b0; i <= end; i++ {
			under = under && hidden(vs[i%n])
		}
		for i := b0; i < end; i++ {
			ta, oka := roughAt(i)
			tb, okb := roughAt(i + 1)
			if !oka || !okb || ta == tb {
				continue
			}
			lines = append(lines, edgeLine{p: ta, d: tb.Sub(ta).Scale(1 / tb.Dist(ta)), joint: ta, rough: true, under: under})
		}
	}
	if fitted == 0 {
		return nil, nil, nil, false
	}
	// A corner the rough outline cut off: under a base, the chord
	// fillUnderBases drew across it; elsewhere a short bevel the halved
	// pixels left at a sharp corner, too short for a fit of its own.
	// When the fitted lines on either side meet under the base, or near
	// the bevel (within bevelMM of its ends), the corner is where they
	// meet.
	const bevelMM = 8
	underImage := func(p geom.Vec2) bool {
		return hidden(r.cal.ToImage(p.X, p.Y, r.heightMM))
	}
	for i := 0; i < len(lines) && len(lines) > 3; i++ {
		if lines[i].rough || !lines[(i+1)%len(lines)].rough {
			continue
		}
		k := (i + 1) % len(lines)
		allUnder, near := true, true
		var c geom.Vec2
		ok := false
		for lines[k].rough && k != i {
			allUnder = allUnder && lines[k].under
			k = (k + 1) % len(lines)
		}
		if k == i {
			continue
		}
		if c, ok = intersectLines(lines[i], lines[k]); !ok {
			continue
		}
		for j := (i + 1) % len(lines); ; j = (j + 1) % len(lines) {
			near = near && c.Dist(lines[j].joint) <= bevelMM
			if j == k {
				break
			}
		}
		if !(allUnder && underImage(c)) && !near {
			continue
		}
		lines[k].joint = c
		// drop the rough lines between i and k
		var keep []edgeLine
		for j := range lines {
			if (i < k && j > i && j < k) || (i > k && (j > i || j < k)) {
				continue
			}
			keep = append(keep, lines[j])
		}
		lines = keep
		i = -1 // indices moved: start again
	}
	// One straight edge the rough outline broke into runs (a short edge,
	// a wall's end, whose staircase turned): neighbouring fitted lines
	// that one line fits as well are one line, around the ring.
	for i := 0; len(lines) > 3 && i < len(lines); i++ {
		k := (i + 1) % len(lines)
		a, b := lines[i], lines[k]
		if a.rough || b.rough {
			continue
		}
		// every crossing either line kept alone is kept (the fit leaves
		// outliers out: a short edge's few would be)
		pts := append(slices.Clone(a.pts), b.pts...)
		l, keep, worst := fitEdgeLine(pts)
		if worst >= 0 || keep < a.n+b.n {
			continue
		}
		l.joint, l.pts = a.joint, pts
		lines[i] = l
		lines = slices.Delete(lines, k, k+1)
		i--
	}
	const roundMM, roundRMS = 12, 0.3
	// A sharp corner the blur rounded: the crossings round the tip fit a
	// short line of their own (fewer than 2·minCrossings, too few to be
	// split) that cuts the corner off, up to 4 mm inside it, and bends
	// away from it (their scatter about it is over roundRMS; a short
	// straight edge's is under 0.15 mm). When the
	// lines on either side, each fitted to more crossings, meet within
	// roundMM of every crossing of the short one (a blunt corner's
	// rounding reaches farther than a sharp one's), the corner is where
	// they meet. (A real short edge, a wall's end, lies between nearly
	// parallel lines, which meet far away or not at all, or beside a
	// bevel of fewer crossings than its own.)
	for i := 0; i < len(lines) && len(lines) > 3; i++ {
		l := lines[i]
		prev, next := lines[(i+len(lines)-1)%len(lines)], lines[(i+1)%len(lines)]
		if l.rough || l.n >= 2*minCrossings || l.rms < roundRMS || prev.rough || next.rough || l.n >= prev.n || l.n >= next.n {
			continue
		}
		c, ok := intersectLines(prev, next)
		if !ok || c.Dist(l.joint) > roundMM {
			continue
		}
		near := true
		for _, p := range l.pts {
			near = near && c.Dist(p) <= roundMM
		}
		if !near {
			continue
		}
		lines[(i+1)%len(lines)].joint = c
		lines = slices.Delete(lines, i, i+1)
		i = -1
	}
	if len(lines) < 3 {
		return nil, nil, nil, false
	}
	// corners: where neighbouring lines meet, near their joint; lines
	// nearly parallel (a gentle bend) meet far away or badly, and the
	// corner is then the joint put on both lines (the mean of its
	// projections), or, between a fitted line and a rough one (an edge
	// drawn across a base, one too faint to fit), on the fitted line: the
	// seen edge stays where it was seen, up to the part not seen (the
	// mean bent it, up to 8 mm off at the edge of an unseen disc)
	out := make([][2]float64, 0, len(lines))
	for i := range lines {
		prev, cur := lines[(i+len(lines)-1)%len(lines)], lines[i]
		j := cur.joint
		c, ok := intersectLines(prev, cur)
		if !ok || c.Dist(j) > 12 {
			switch {
			case cur.rough && !prev.rough:
				c = projectOn(prev, j)
			case prev.rough && !cur.rough:
				c = projectOn(cur, j)
			default:
				c = projectOn(prev, j).Add(projectOn(cur, j)).Scale(0.5)
			}
		}
		out = append(out, [2]float64{round3(c.X), round3(c.Y)})
	}
	// where the outline was not seen: the bases (with the margin no
	// profile was taken in) its edges run under, as discs on the table.
	// An edge seen straight on both sides of a base, for at least the
	// disc's diameter each side, is taken to run straight under it
	// (painted cover is cut straight; a corner or a bend is seen as one):
	// that disc is not listed. A corner under a base, an edge drawn
	// across it (fillUnderBases's chord), or one seen too little either
	// side of it, is.
	var unseen []UnseenDisc
	for _, b := range bases {
		c := fromSmall(geom.Vec2{X: b.x, Y: b.y})
		rpx := terrainShrink*b.r + profileHalf + 1
		ct, err := r.cal.ToTable(c, r.heightMM)
		if err != nil {
			continue
		}
		rmm := rpx * r.cal.ScaleAt(ct)
		if straightUnder(lines, out, ct, rmm) {
			continue
		}
		unseen = append(unseen, UnseenDisc{X: round3(ct.X), Y: round3(ct.Y), R: round3(rmm)})
	}
	// each corner's σ across the outline: the crossings' scatter about
	// the two lines it joins (each line's own position is known far
	// better, rms·2/√n, but a point of the outline is off by the edge's
	// own wobble), and the splitting's tolerance, a line may stand off
	// the crossings by up to splitMM (uniform: splitMM/√3); a part left
	// rough has half a halved pixel, a part under a base none (it is an
	// unseen disc). Then the corner is checked against the paint around
	// it (cornerCheck): a corner put where two lines meet past their last
	// crossings can be off by millimetres when one of them was fitted
	// along a gently curved stretch, or cut short where a short edge went
	// unfitted, and a corner the blur rounded is put where the lines
	// either side meet, as far past the rounding as the check measures.
	// (The rounding's own scatter was added before the check existed; at
	// 0.7–1.35 mm it overstated such corners, read within 0.03–0.3 mm,
	// and left the true corners' p99 at 2.2σ without it as with it, on
	// all 10 tables of TestCoverEndToEnd.) Along an edge σ runs linearly
	// from one corner's to the next's (Terrain.VertexSigmaMM).
	lineSig := func(l edgeLine) float64 {
		switch {
		case l.under:
			return 0
		case l.rough:
			return 0.5 * terrainShrink * r.cal.ScaleAt(l.p)
		case l.n < minCrossings:
			return 0
		}
		return l.rms
	}
	sig := make([]float64, len(lines))
	area := signedArea(out)
	for i, cur := range lines {
		prev := lines[(i+len(lines)-1)%len(lines)]
		sig[i] = math.Max(splitMM/math.Sqrt(3), math.Max(lineSig(prev), lineSig(cur)))
	}
	for i := range out {
		if off, ok := r.cornerCheck(f, out, i, area, hidden); ok {
			sig[i] = math.Max(sig[i], off/cornerSigmas)
		}
	}
	return out, unseen, sig, true
}

// straightUnder reports whether the outline is known under the disc (c,
// rad): no edge passes under it, or those that do are fitted lines, with
// no corner under the disc, seen for at least the disc's diameter on both
// sides of it.
func straightUnder(lines []edgeLine, out [][2]float64, c geom.Vec2, rad float64) bool {
	ct := tp{c.X, c.Y}
	for i := range out {
		if tpOf(out[i]).dist(ct) <= rad {
			return false // a corner under the base
		}
	}
	for i, l := range lines {
		a, e := tpOf(out[i]), tpOf(out[(i+1)%len(out)])
		if pointSegDist(ct, a, e) > rad {
			continue
		}
		if l.rough || len(l.pts) == 0 {
			return false
		}
		tc := c.Sub(l.p)
		at := tc.X*l.d.X + tc.Y*l.d.Y
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range l.pts {
			q := p.Sub(l.p)
			t := q.X*l.d.X + q.Y*l.d.Y
			lo, hi = math.Min(lo, t), math.Max(hi, t)
		}
		if (at-rad)-lo < 2*rad || hi-(at+rad) < 2*rad {
			return false
		}
	}
	return true
}

// fitChain fits crossings ordered along an edge with straight lines,
// splitting the run where it departs from one line by more than splitMM;
// outliers (a speck, a shadow) are left out of each fit.
func fitChain(pts []geom.Vec2) []edgeLine {
	if len(pts) < minCrossings {
		return nil
	}
	l, keep, worst := fitEdgeLine(pts)
	if keep < minCrossings {
		return nil
	}
	if worst >= 0 && len(pts) >= 2*minCrossings {
		// split at the worst crossing, if both parts fit
		k := min(max(worst, minCrossings), len(pts)-minCrossings)
		a, b := fitChain(pts[:k]), fitChain(pts[k:])
		if len(a) > 0 && len(b) > 0 {
			b[0].joint = pts[k]
			return append(a, b...)
		}
	}
	l.joint, l.pts = pts[0], pts
	return []edgeLine{l}
}

// mergeLines joins neighbouring lines that one line fits as well (a
// split made on a speck, or on the staircase of a slanted edge).
func mergeLines(ls []edgeLine) []edgeLine {
	for i := 0; i+1 < len(ls); {
		pts := append(slices.Clone(ls[i].pts), ls[i+1].pts...)
		l, keep, worst := fitEdgeLine(pts)
		if worst >= 0 || keep < minCrossings {
			i++
			continue
		}
		l.joint, l.pts = ls[i].joint, pts
		ls[i] = l
		ls = slices.Delete(ls, i+1, i+2)
	}
	return ls
}

// fitEdgeLine fits a line to pts by total least squares, twice, leaving out
// after the first fit the points farther than 3 robust σ (at least 0.3
// mm) from it. keep is the number of points used; worst is the index of
// the point farthest from the line when the kept points depart from it
// by more than splitMM, else -1.
func fitEdgeLine(pts []geom.Vec2) (edgeLine, int, int) {
	use := make([]bool, len(pts))
	for i := range use {
		use[i] = true
	}
	var l edgeLine
	var res []float64
	for pass := range 2 {
		var cx, cy, k float64
		for i, p := range pts {
			if use[i] {
				cx, cy, k = cx+p.X, cy+p.Y, k+1
			}
		}
		if k < 2 {
			return l, 0, -1
		}
		cx, cy = cx/k, cy/k
		var sxx, sxy, syy float64
		for i, p := range pts {
			if use[i] {
				dx, dy := p.X-cx, p.Y-cy
				sxx, sxy, syy = sxx+dx*dx, sxy+dx*dy, syy+dy*dy
			}
		}
		th := 0.5 * math.Atan2(2*sxy, sxx-syy)
		l = edgeLine{p: geom.Vec2{X: cx, Y: cy}, d: geom.Vec2{X: math.Cos(th), Y: math.Sin(th)}}
		res = res[:0]
		for i, p := range pts {
			if use[i] {
				res = append(res, math.Abs(lineDist(l, p)))
			}
		}
		if pass == 0 {
			slices.Sort(res)
			cut := math.Max(0.3, 3*1.4826*res[len(res)/2])
			for i, p := range pts {
				use[i] = math.Abs(lineDist(l, p)) <= cut
			}
		}
	}
	var ss float64
	n, worst, wd := 0, -1, splitMM
	for i, p := range pts {
		d := lineDist(l, p)
		if !use[i] {
			continue
		}
		if math.Abs(d) > wd {
			worst, wd = i, math.Abs(d)
		}
		ss += d * d
		n++
	}
	rms := math.Sqrt(ss / float64(max(1, n-2)))
	// a line fitted to n points spread evenly along it: at its ends the
	// position across it has σ = rms·2/√n
	l.sigma = 2 * rms / math.Sqrt(float64(n))
	l.rms = rms
	l.n = n
	return l, n, worst
}

// lineDist is p's signed distance from the line.
func lineDist(l edgeLine, p geom.Vec2) float64 {
	s := p.Sub(l.p)
	return s.X*l.d.Y - s.Y*l.d.X
}

func projectOn(l edgeLine, p geom.Vec2) geom.Vec2 {
	s := p.Sub(l.p)
	return l.p.Add(l.d.Scale(s.X*l.d.X + s.Y*l.d.Y))
}

// intersectLines is where the two lines meet; ok is false when they are
// (nearly) parallel.
func intersectLines(a, b edgeLine) (geom.Vec2, bool) {
	den := a.d.X*b.d.Y - a.d.Y*b.d.X
	if math.Abs(den) < 0.05 { // under about 3°
		return geom.Vec2{}, false
	}
	s := b.p.Sub(a.p)
	t := (s.X*b.d.Y - s.Y*b.d.X) / den
	return a.p.Add(a.d.Scale(t)), true
}

// cornerCheck measures the paint's edge around corner i of the outline
// (table mm): along the outward bisector through the corner, and along
// each neighbouring edge's outward normal every millimetre up to
// cornerCheckMM from the corner (not past the edge's middle), it finds
// where the colour is halfway between the piece's and the table's, and
// returns the largest distance by which the outline stands off it: the
// paint reaching past the outline (a corner cut off, a bevel) or short
// of it by more than cornerPull (a corner carried past the paint's tip;
// the blur rounds a sharp tip inward by about that much). ok is false
// when no profile could be read.
func (r *terrainReader) cornerCheck(f frameBGR, out [][2]float64, i int, area float64, hidden func(geom.Vec2) bool) (off float64, ok bool) {
	n := len(out)
	at := func(k int) geom.Vec2 { k = (k%n + n) % n; return geom.Vec2{X: out[k][0], Y: out[k][1]} }
	a, v, b := at(i-1), at(i), at(i+1)
	normal := func(e geom.Vec2) geom.Vec2 {
		e = e.Scale(1 / e.Norm())
		if area > 0 {
			return geom.Vec2{X: e.Y, Y: -e.X}
		}
		return geom.Vec2{X: -e.Y, Y: e.X}
	}
	if v.Dist(a) == 0 || v.Dist(b) == 0 {
		return 0, false
	}
	// probe measures the paint's edge through p along the outward
	// direction d (table mm): how far past p it is (negative: short)
	probe := func(p, d geom.Vec2) {
		pc := r.cal.ToImage(p.X, p.Y, r.heightMM)
		np := r.cal.ToImage(p.X+d.X, p.Y+d.Y, r.heightMM).Sub(pc)
		if np.Norm() == 0 || hidden(pc) {
			return
		}
		q, found := f.crossing(pc, np.Scale(1/np.Norm()))
		if !found {
			return
		}
		qt, err := r.cal.ToTable(q, r.heightMM)
		if err != nil {
			return
		}
		x := qt.Sub(p).X*d.X + qt.Sub(p).Y*d.Y
		if x < 0 {
			x = math.Max(0, -x-cornerPull)
		}
		off, ok = math.Max(off, x), true
	}
	if bis := normal(v.Sub(a)).Add(normal(b.Sub(v))); bis.Norm() > 0.1 {
		probe(v, bis.Scale(1/bis.Norm()))
	}
	for _, o := range []geom.Vec2{a, b} {
		e := o.Sub(v)
		l := e.Norm()
		d := normal(v.Sub(o))
		if o == b {
			d = normal(e)
		}
		for s := 1.0; s <= math.Min(cornerCheckMM, l/2); s++ {
			probe(v.Add(e.Scale(s/l)), d)
		}
	}
	return off, ok
}
