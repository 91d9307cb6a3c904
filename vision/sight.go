// Line of fire and cover over the terrain the camera reads (skirmish
// rulebook, "Faza strzału" and "Modyfikator przeszkód"). Pure Go, no
// OpenCV.
//
// What the rulebook says and how it is read here:
//
//   - Colours. Line 98 of the rulebook calls heavy cover yellow; lines
//     104–106 make rubble ("gruz") light cover and name heavy cover green,
//     and SPIS PRZESZKÓD lists rubble as light. We follow 104–106 (and the
//     issue): light cover is yellow, heavy cover green.
//   - Nothing blocks a line of fire. The rulebook only asks whether an
//     enemy model is "na linii ognia" within range; no obstacle or model
//     in the way is said to stop a shot, and every obstacle in SPIS
//     PRZESZKÓD is light or heavy cover. So a line of fire is clear, or
//     through light cover, or through heavy cover; never blocked. A table
//     that plays walls as blocking rules it by hand (the shooting unit's
//     models that see nothing are left out of the shot by the referee).
//   - Behind cover, from base edges. The lines of fire from a firing model
//     to a target model are the straight lines from the firer's base to the
//     target's base inside the band between the two bases' outer edges
//     (the lines of the pencil through both bases' matching edge points),
//     over the stretch between the firer's base front and the target's
//     base front. The target model is behind cover of a kind when every one
//     of those lines crosses terrain of that kind (heavy counts as cover
//     for "behind cover at all"), or when its base centre stands inside
//     such terrain (a crater, a blast area: "Dół", "Obszar po wybuchu").
//     Terrain the firer stands in (its base centre inside the outline) does
//     not cover its targets: it shoots out of the crater.
//   - What a unit's cover is (from every firing model, more than half of
//     the unit) is the rules' decision: rules/skirmish CoverFromSightings,
//     from the Sights measured here.
//
// Uncertainty: every decision has a margin in millimetres (how far the
// bases or outlines would have to move to change it) and a bound of two
// standard uncertainties of what moves; a decision whose margin is within
// its bound is too close to call, as distances are (Distance.Check).
//
// The bound, derived. What moves: each base centre (σ_b per axis, the
// models' SigmaMM) and each outline point (σ_o per axis, the terrain's
// SigmaMM: the largest of the outlines near the shot, see sigmaNear; but
// see pointScale for outlines with a σ per corner).
// Where the camera did not see an outline (Terrain.Unseen: a base stood
// over a corner or a bend of the piece) nothing bounds it: a base centre
// there, or a shadow's end there, has no margin and the call is too
// close. One point's σ is σ_p = √(σ_b² + σ_o²) with σ_b the larger of
// the two bases': a decision that turns on one outline point against the
// band's edge line (a wall's end grazing the band, a base centre near an
// outline) moves with the point's error (σ_o) and the band's, which at a
// fraction t of the way is σ_b·√((1−t)² + t²) ≤ σ_b. The margin is
// measured in millimetres at that point (lines: a shift du of a line's
// pencil parameter u is du·w(s)/√(1+u²k²) mm of sideways movement of the
// outline point at s, w the band's half-width there and k its slope; not
// the narrowest half-width of the band, which understated margins near a
// larger base). A decision that turns on two shadow ends meeting or
// parting (two walls that just close the band together, a gap between
// them) moves with both ends' errors, which are independent (different
// outline points; what the camera's outlines share, the calibration's
// offset, moves both ends alike and cancels in the gap, and the bases'
// errors too): the gap g has σ_p·√(1/wa² + 1/wb²) in u, so its margin is
// g/√(1/wa² + 1/wb²) mm (apart), g·w/√2 for equal widths, where half the
// gap (the largest each end alone could move) counted the two errors as
// a worst-case sum. Where a shadow's end is an edge crossing an end of
// the stretch rather than a vertex, it moves more than the point (see
// cutF in lines) and its margin is scaled down by the ratio. An outline
// whose σ varies along it (Terrain.VertexSigmaMM: a corner that stands
// off the paint around it is less certain than a straight edge) has each point's σ_o
// interpolated between its edge's two corners; a margin at a point is
// scaled by σ_p/σ_p' (pointScale, σ_p' that point's own), so that every
// margin compares with the one bound of the shot. Every margin is then
// compared with BoundMM = 2σ_p (k = 2, as every other check in vision).
// Why 2: the true margins are spread evenly near zero, about 1% of shots
// per σ_p on each side (TestSightProperty), so a margin just past
// kσ_p is crossed by a normal error with probability Q(k) and about
// 2%·∫_k^∞ Q shots in a hundred are decided wrong: ~2 in 10,000 at k = 2
// (measured 1 of 20,400), ~20 at k = 1, ~45 at k = 0.5; with errors kept
// within √2σ per point, as the property test's, none at k = 2. A smaller k
// flags fewer shots but decides some wrong; k = 3 flags half as many again.

package vision

import (
	"cmp"
	"math"
	"slices"
)

// Cover levels, ordered.
const (
	levelNone = iota
	levelLight
	levelHeavy
)

func coverName(level int) string {
	switch level {
	case levelLight:
		return CoverLight
	case levelHeavy:
		return CoverHeavy
	}
	return ""
}

// coverLevel maps a cover name to its level ("" and unknown: none).
func coverLevel(kind string) int {
	switch kind {
	case CoverLight:
		return levelLight
	case CoverHeavy:
		return levelHeavy
	}
	return levelNone
}

// CoverMap is the terrain prepared for many line-of-fire questions.
//
// A CoverMap keeps scratch space between questions: it is not safe for
// concurrent use.
type CoverMap struct {
	polys []prepared
	sigma float64 // the largest outline uncertainty
	least float64 // the smallest
	shot  float64 // the largest of the outlines near the shot being decided
	// scratch
	all, heavy, buf, merged []interval
	cut0, cut1              []cut
	firerScratch            []float64
	leftOut                 []bool  // per outline: left out of the shot's lines
	refP, sb2               float64 // the shot's σ_p and σ_b² (see pointScale)
}

type prepared struct {
	pts    []tp
	unseen []UnseenDisc // where the outline was not seen
	sigma  float64      // the largest of vsig
	vsig   []float64    // σ at each vertex (Terrain.VertexSigmaMM), nil: sigma everywhere
	heavy  bool
	centre tp
	radius float64 // of a circle around the outline
}

// NewCoverMap prepares the terrain of a snapshot. Outlines of fewer than
// three vertices are left out.
func NewCoverMap(terrain []Terrain) *CoverMap {
	c := &CoverMap{}
	for _, t := range terrain {
		if len(t.Outline) < 3 || coverLevel(t.Kind) == levelNone {
			continue
		}
		p := prepared{pts: outline(t), heavy: t.Kind == CoverHeavy, sigma: t.SigmaMM}
		p.unseen = t.Unseen
		if len(t.VertexSigmaMM) == len(t.Outline) {
			p.vsig = t.VertexSigmaMM
			p.sigma = max(p.sigma, slices.Max(p.vsig))
		}
		lo, hi := p.pts[0], p.pts[0]
		for _, q := range p.pts {
			lo = tp{min(lo.x, q.x), min(lo.y, q.y)}
			hi = tp{max(hi.x, q.x), max(hi.y, q.y)}
		}
		p.centre = lerp(lo, hi, 0.5)
		for _, q := range p.pts {
			p.radius = max(p.radius, q.dist(p.centre))
		}
		c.polys = append(c.polys, p)
		if len(c.polys) == 1 || p.sigma < c.least {
			c.least = p.sigma
		}
		c.sigma = max(c.sigma, p.sigma)
	}
	// the least certain first: sigmaNear stops at the first near the shot
	slices.SortStableFunc(c.polys, func(x, y prepared) int { return cmp.Compare(y.sigma, x.sigma) })
	return c
}

// Sight is the line of fire from one model to another.
type Sight struct {
	Firer  string `json:"firer"`
	Target string `json:"target"`
	// Cover is the cover the target has from the firer on the measured
	// positions: "", "light" or "heavy".
	Cover string `json:"cover,omitempty"`
	// Low and High are the least and the most cover the target can have
	// within the uncertainty; they differ when the call is too close.
	Low   string `json:"low,omitempty"`
	High  string `json:"high,omitempty"`
	Close bool   `json:"close,omitempty"`
	// HeavyMM and AnyMM are the margins of "behind heavy cover" and
	// "behind any cover": positive when it is, negative when it is not, in
	// millimetres of one point's uncertainty (see the file's comment);
	// BoundMM is two standard uncertainties of one point, 2·√(σ_b² + σ_o²).
	HeavyMM float64 `json:"heavy_mm"`
	AnyMM   float64 `json:"any_mm"`
	BoundMM float64 `json:"bound_mm"`
}

// LineOfFire decides the target's cover from the firer over the terrain.
func LineOfFire(firer, target ModelPosition, terrain []Terrain) Sight {
	return NewCoverMap(terrain).Sight(firer, target)
}

// Sight decides the target's cover from the firer.
func (c *CoverMap) Sight(firer, target ModelPosition) Sight {
	return c.sight(firer, target, c.standsIn(firer), c.standsIn(target))
}

// depth is how deep a base centre stands in an outline (negative: how far
// outside) in millimetres, and the outline's σ at the point of it nearest
// the centre.
type depth struct{ mm, sigma float64 }

// sigmaOn is the outline's σ at the fraction t of the way from vertex i
// to vertex j.
func (pp *prepared) sigmaOn(i, j int, t float64) float64 {
	if pp.vsig == nil {
		return pp.sigma
	}
	return pp.vsig[i] + t*(pp.vsig[j]-pp.vsig[i])
}

// inOrOut is how deep the model's base centre stands in the outline, or
// 0, a call too close to make, when the centre is in a disc where the
// camera did not see the outline (Terrain.Unseen: a base, usually this
// model's, stood over the piece's edge): the piece may run anywhere
// there, the centre in it or not.
func (pp *prepared) inOrOut(m ModelPosition) depth {
	p := modelVec(m)
	if pp.unseenAt(p, 2*math.Hypot(m.SigmaMM, pp.sigma)) {
		return depth{0, pp.sigma}
	}
	d, i, j, t := nearestOnOutline(pp.pts, p)
	if !inside(pp.pts, p) {
		d = -d
	}
	return depth{d, pp.sigmaOn(i, j, t)}
}

// unseenAt reports whether p is within grow of a disc where the outline
// was not seen.
func (pp *prepared) unseenAt(p tp, grow float64) bool {
	for _, u := range pp.unseen {
		if p.dist(tp{u.X, u.Y}) <= u.R+grow {
			return true
		}
	}
	return false
}

// standsIn is, for each outline, how deep the model's base centre stands
// in it. Terrain the firer stands in does not cover its targets; terrain
// the target stands in covers it.
func (c *CoverMap) standsIn(m ModelPosition) []depth {
	out := make([]depth, len(c.polys))
	p := modelVec(m)
	for i := range c.polys {
		pp := &c.polys[i]
		if d := p.dist(pp.centre) - pp.radius; d > farMM {
			out[i] = depth{-d, pp.sigma} // at least this far outside
			continue
		}
		out[i] = pp.inOrOut(m)
	}
	return out
}

// farMM: a centre this far outside the circle around an outline is
// outside it beyond any bound; its depth is not measured nearer, nor
// scaled (see pointScale).
const farMM = 50

// interval is a range of the pencil parameter u in [-1, 1] across the band
// (a polygon's shadow), with, at each end, how many millimetres of
// sideways movement of the outline point that makes it move u by one
// (wlo, whi: the band's half-width there, times the cosine of the line's
// slope; see lines).
type interval struct{ lo, hi, wlo, whi float64 }

// cut is where an outline's edge crosses an end of the stretch: y across
// the band and f, the factor of its scale (see lines).
type cut struct{ y, f float64 }

func (c *CoverMap) sight(firer, target ModelPosition, firerAt, targetAt []depth) Sight {
	c.shot = c.sigmaNear(firer, target)
	sb := max(firer.SigmaMM, target.SigmaMM)
	c.refP, c.sb2 = math.Hypot(sb, c.shot), sb*sb
	s := Sight{Firer: firer.ID, Target: target.ID, BoundMM: 2 * c.refP}
	b := s.BoundMM
	// depths in millimetres of the shot's reference point (see
	// pointScale)
	firerIn := c.firerScratch[:0]
	scaled := func(d depth) float64 {
		if d.mm < -farMM {
			return d.mm
		}
		return d.mm * c.pointScale(d.sigma)
	}
	for _, d := range firerAt {
		firerIn = append(firerIn, scaled(d))
	}
	c.firerScratch = firerIn
	anyIn, heavyIn := math.Inf(-1), math.Inf(-1)
	for i, d := range targetAt {
		x := scaled(d)
		anyIn = max(anyIn, x)
		if c.polys[i].heavy {
			heavyIn = max(heavyIn, x)
		}
	}
	// The outlines the firer stands in are left out; one whose edge is
	// within the bound of the firer's centre may be in or out, and the
	// decision is taken both ways.
	if cap(c.leftOut) < len(firerIn) {
		c.leftOut = make([]bool, len(firerIn))
	}
	out := c.leftOut[:len(firerIn)]
	unsure := false
	for i, d := range firerIn {
		out[i] = d > 0
		if math.Abs(d) <= b {
			unsure = true
		}
	}
	anyMM, heavyMM := c.lines(firer, target, b, out)
	anyLo, anyHi, heavyLo, heavyHi := anyMM, anyMM, heavyMM, heavyMM
	if unsure {
		for i, d := range firerIn {
			out[i] = d >= -b // in, or maybe in
		}
		a2, h2 := c.lines(firer, target, b, out)
		for i, d := range firerIn {
			out[i] = d > b // surely in
		}
		a3, h3 := c.lines(firer, target, b, out)
		anyLo, anyHi = min(anyLo, a2, a3), max(anyHi, a2, a3)
		heavyLo, heavyHi = min(heavyLo, h2, h3), max(heavyHi, h2, h3)
	}
	s.AnyMM, s.HeavyMM = clampMM(max(anyIn, anyMM)), clampMM(max(heavyIn, heavyMM))
	level := func(heavy, anyc float64) int {
		switch {
		case heavy > 0:
			return levelHeavy
		case anyc > 0:
			return levelLight
		}
		return levelNone
	}
	s.Cover = coverName(level(s.HeavyMM, s.AnyMM))
	s.Low = coverName(level(max(heavyIn, heavyLo)-b, max(anyIn, anyLo)-b))
	// A margin of exactly minus the bound is still too close.
	s.High = coverName(level(max(heavyIn, heavyHi)+b+1e-9, max(anyIn, anyHi)+b+1e-9))
	s.Close = s.Low != s.High
	return s
}

func sq(x float64) float64 { return x * x }

// pointScale turns a margin at an outline point of σ so into
// millimetres of the shot's reference point, σ_p = √(σ_b² + shot²) with
// σ_b the larger base σ and shot the largest outline σ near the shot,
// which BoundMM is two of: a margin of x mm at a point whose own σ_p' is
// smaller is x·σ_p/σ_p' of the reference's, as far past the bound as x is
// past 2σ_p'. (sight sets refP = σ_p and sb2 = σ_b² for the shot.)
func (c *CoverMap) pointScale(so float64) float64 {
	own := math.Sqrt(c.sb2 + so*so)
	if own == 0 || c.refP == 0 {
		return 1
	}
	return c.refP / own
}

// unknownW is the scale of a shadow's end on an edge not seen: a margin
// that turns on it is (nearly) zero, within any bound.
const unknownW = 1e-9

// sigmaNear is the largest uncertainty of the outlines that can change
// the shot's decisions: those within reach of the stretch between the two
// bases (the reach lines uses, with the largest σ of all; the others are
// too far from the band for any error within the bound to matter).
func (c *CoverMap) sigmaNear(firer, target ModelPosition) float64 {
	if c.least == c.sigma {
		return c.sigma // all alike
	}
	a, b := modelVec(firer), modelVec(target)
	reach := max(radiusOf(firer.BaseMM), radiusOf(target.BaseMM)) +
		4*math.Sqrt(sq(max(firer.SigmaMM, target.SigmaMM))+sq(c.sigma)) + 1
	for i := range c.polys { // by σ, largest first
		p := &c.polys[i]
		if pointSegDist(p.centre, a, b) <= p.radius+reach {
			return p.sigma
		}
	}
	return c.least
}

// clampMM keeps margins finite for JSON: nothing near is "a metre away".
func clampMM(x float64) float64 { return max(-1000, min(1000, x)) }

// lines is the margin of "every line of fire crosses cover", for any cover
// and for heavy cover: positive (every line crosses; how much the outlines
// must shrink before one line gets through) or negative (minus the
// clearance of the best clear line). Touching or overlapping bases have no
// line between them: -Inf.
//
// leftOut[i] leaves outline i out (terrain the firer stands in).
func (c *CoverMap) lines(firer, target ModelPosition, bound float64, leftOut []bool) (anyMM, heavyMM float64) {
	a, b := modelVec(firer), modelVec(target)
	ra, rb := radiusOf(firer.BaseMM), radiusOf(target.BaseMM)
	D := a.dist(b)
	s0, s1 := ra, D-rb
	if s1 <= s0 {
		return math.Inf(-1), math.Inf(-1)
	}
	d := b.sub(a).scale(1 / D)
	n := tp{-d.y, d.x}
	wmax := max(ra, rb)
	// The band's lines are y = u·w(s), w(s) = ra + (rb−ra)·s/D, in the
	// frame with a at the origin, s along d and y along n; u in [-1, 1].
	k := (rb - ra) / D
	w := func(s float64) float64 { return ra + k*s }
	// An outline point (s, y) has u = y/w(s); moved by (ds, dy), u moves
	// by (dy − u·k·ds)/w(s), whose standard deviation for an error σ per
	// axis is σ·√(1+u²k²)/w(s): a margin of du in u is du·w(s)/√(1+u²k²)
	// in millimetres of the point's own uncertainty. The shadows keep w(s)
	// at their ends; the slope's factor is applied to the few that reach
	// coverDepth (none when the bases are alike, k = 0).
	// Where an edge crosses an end of the stretch (the firer's base front
	// s0, the target's s1) the shadow's end is that crossing, not a
	// vertex. It moves with the edge (σ_o across the edge: σ_o·L/|Δs| in
	// y for an edge of length L spanning Δs along the line) and with the
	// stretch's end along the line (the bases' errors along it, √2·σ_b
	// for s1 = D − rb: |Δy|/|Δs| in y per mm), besides the band's σ_b
	// across: an edge nearly parallel to the stretch's end moves its
	// crossing far for a small error, and its margin shrinks by f, the
	// ratio of one point's σ to the crossing's. An outline's σ varies
	// along it (Terrain.VertexSigmaMM): each shadow end's scale is taken
	// at its own σ, so, relative to the shot's reference σ_p (the largest
	// outline σ near the shot; see pointScale).
	sb0 := max(firer.SigmaMM, target.SigmaMM)
	sp, ss := c.refP, math.Sqrt2*sb0
	cutF := func(ds, dy, so float64) float64 {
		den := math.Sqrt((so*so*(ds*ds+dy*dy)+dy*dy*ss*ss)/(ds*ds) + sb0*sb0)
		if den == 0 || math.IsNaN(den) {
			return c.pointScale(so)
		}
		return sp / den
	}
	all, heavy, buf := c.all[:0], c.heavy[:0], c.buf
	// Outlines farther from the band than this cannot change a decision;
	// nearer ones beside it bound the clearance of its edge lines. A
	// clearance beyond it is only "at least".
	reach := wmax + 2*bound + 1
	for i := range c.polys {
		p := &c.polys[i]
		if leftOut[i] {
			continue
		}
		rel := p.centre.sub(a)
		// Outlines far from the band cannot matter; those beside it bound
		// the clearance of its edge lines.
		if ry := rel.x*n.x + rel.y*n.y; ry > p.radius+reach || -ry > p.radius+reach {
			continue
		}
		if rs := rel.x*d.x + rel.y*d.y; rs < s0-p.radius || rs > s1+p.radius {
			continue
		}
		buf = buf[:0]
		m := len(p.pts)
		// a point's scale (pointScale): one for the whole outline when
		// its σ is one
		uniform := c.pointScale(p.sigma)
		scaleAt := func(so float64) float64 {
			if p.vsig == nil {
				return uniform
			}
			return c.pointScale(so)
		}
		// Each edge's part inside the stretch, then where the polygon meets
		// the stretch's two ends: the u they cover is the polygon's shadow
		// on the band (the pencil maps lines to lines, so u is monotone
		// along an edge).
		cut0, cut1 := c.cut0[:0], c.cut1[:0]
		for j := range m {
			i := (j + m - 1) % m
			pa, pb := p.pts[i].sub(a), p.pts[j].sub(a)
			sa, sb := pa.dot(d), pb.dot(d)
			if (sa < s0 && sb < s0) || (sa > s1 && sb > s1) {
				continue // wholly before the stretch or past it
			}
			ya, yb := pa.dot(n), pb.dot(n)
			// An edge not seen (drawn across a base) may lie anywhere
			// under it: the ends of its shadow are not known, a margin
			// that turns on them is none.
			unseen := len(p.unseen) > 0
			for _, e := range [2]float64{s0, s1} {
				if (sa < e) != (sb < e) {
					te := (e - sa) / (sb - sa)
					x := cut{ya + te*(yb-ya), cutF(sb-sa, yb-ya, p.sigmaOn(i, j, te))}
					if unseen && p.unseenAt(a.add(d.scale(e)).add(n.scale(x.y)), 0) {
						x.f = unknownW
					}
					if e == s0 {
						cut0 = append(cut0, x)
					} else {
						cut1 = append(cut1, x)
					}
				}
			}
			t0, t1 := 0.0, 1.0
			if sa != sb {
				ta, tb := (s0-sa)/(sb-sa), (s1-sa)/(sb-sa)
				if ta > tb {
					ta, tb = tb, ta
				}
				t0, t1 = max(t0, ta), min(t1, tb)
			} else if sa < s0 || sa > s1 {
				continue
			}
			if t0 > t1 {
				continue
			}
			w0, w1 := w(sa+t0*(sb-sa)), w(sa+t1*(sb-sa))
			u0 := (ya + t0*(yb-ya)) / w0
			u1 := (ya + t1*(yb-ya)) / w1
			// an end clipped by the stretch is a crossing
			so0, so1 := p.sigmaOn(i, j, t0), p.sigmaOn(i, j, t1)
			iv := interval{u0, u1, w0 * scaleAt(so0), w1 * scaleAt(so1)}
			if t0 > 0 {
				iv.wlo = w0 * cutF(sb-sa, yb-ya, so0)
			}
			if t1 < 1 {
				iv.whi = w1 * cutF(sb-sa, yb-ya, so1)
			}
			if unseen {
				// the shadow's ends, where they lie in an unseen disc
				if p.unseenAt(a.add(pa.add(pb.sub(pa).scale(t0))), 0) {
					iv.wlo = unknownW
				}
				if p.unseenAt(a.add(pa.add(pb.sub(pa).scale(t1))), 0) {
					iv.whi = unknownW
				}
			}
			if u1 < u0 {
				iv = interval{u1, u0, iv.whi, iv.wlo}
			}
			// Consecutive edges share a vertex: extend the last shadow
			// when they meet, so merge has little to sort.
			if l := len(buf) - 1; l >= 0 && iv.lo <= buf[l].hi && iv.hi >= buf[l].lo {
				buf[l] = join(buf[l], iv)
				continue
			}
			buf = append(buf, iv)
		}
		for k, ys := range [2][]cut{cut0, cut1} {
			e := s0
			if k == 1 {
				e = s1
			}
			slices.SortFunc(ys, func(x, y cut) int { return cmp.Compare(x.y, y.y) })
			we := w(e)
			for q := 0; q+1 < len(ys); q += 2 {
				lo, hi := ys[q].y/we, ys[q+1].y/we
				buf = append(buf, interval{lo, hi, we * ys[q].f, we * ys[q+1].f})
			}
		}
		c.cut0, c.cut1 = cut0, cut1
		for _, iv := range merge(buf) {
			all = append(all, iv)
			if p.heavy {
				heavy = append(heavy, iv)
			}
		}
	}
	c.all, c.heavy, c.buf = all, heavy, buf
	if k != 0 {
		for _, ivs := range [2][]interval{all, heavy} {
			for i := range ivs {
				ivs[i].wlo /= math.Sqrt(1 + sq(ivs[i].lo*k))
				ivs[i].whi /= math.Sqrt(1 + sq(ivs[i].hi*k))
			}
		}
	}
	return c.coverDepth(all), c.coverDepth(heavy)
}

// join is the smallest interval holding both, with the scales of the ends
// it keeps.
func join(x, y interval) interval {
	if y.lo < x.lo {
		x.lo, x.wlo = y.lo, y.wlo
	}
	if y.hi > x.hi {
		x.hi, x.whi = y.hi, y.whi
	}
	return x
}

// merge sorts intervals and joins those that overlap or touch, in place.
func merge(ivs []interval) []interval {
	if len(ivs) == 0 {
		return ivs
	}
	slices.SortFunc(ivs, func(x, y interval) int {
		switch {
		case x.lo < y.lo:
			return -1
		case x.lo > y.lo:
			return 1
		}
		return 0
	})
	k := 0
	for _, iv := range ivs[1:] {
		if iv.lo <= ivs[k].hi {
			ivs[k] = join(ivs[k], iv)
			continue
		}
		k++
		ivs[k] = iv
	}
	return ivs[:k+1]
}

// apart is the margin, in millimetres of one point's uncertainty, of two
// shadow ends g apart in u whose scales are wa and wb: the ends are
// different outline points with independent errors, so g's standard
// deviation is σ·√(1/wa² + 1/wb²), and g / √(1/wa² + 1/wb²) compares with
// the same bound as one point's margin. (The bases' errors move both ends
// the same way and cancel in g; counting them in each end's σ as well
// overstates g's σ, the safe side.)
func apart(g, wa, wb float64) float64 { return g * wa * wb / math.Hypot(wa, wb) }

// coverDepth is the margin, in millimetres of one point's uncertainty (see
// lines and apart), of "the shadows cover [-1, 1]". When they cover it
// (positive): the least movement of shadow ends that opens a gap, at ±1
// (one end must move past it) or where one shadow's end lies inside
// another's (the two ends must part, unless a third shadow holds the
// stretch between them). When they do not (negative): minus the least
// movement that closes the widest free stretch of [-1, 1] (its two ends
// meeting, or one end crossing to the far side of the band).
func (c *CoverMap) coverDepth(ivs []interval) float64 {
	c.merged = append(c.merged[:0], ivs...)
	u := merge(c.merged)
	clear, free := math.Inf(-1), false
	for i := 0; i <= len(u); i++ {
		l, wl, r, wr := math.Inf(-1), 0.0, math.Inf(1), 0.0
		if i > 0 {
			l, wl = u[i-1].hi, u[i-1].whi
		}
		if i < len(u) {
			r, wr = u[i].lo, u[i].wlo
		}
		if max(l, -1) >= min(r, 1) {
			continue
		}
		free = true
		m := math.Inf(1)
		if i > 0 {
			m = min(m, (1-l)*wl)
		}
		if i < len(u) {
			m = min(m, (r+1)*wr)
		}
		if i > 0 && i < len(u) {
			m = min(m, apart(r-l, wl, wr))
		}
		clear = max(clear, m)
	}
	if free {
		return -clear
	}
	// Covered. One shadow holds x by min((x−lo)·wlo, (hi−x)·whi); a gap
	// opens at x only when every shadow holding it moves off, so the
	// deepest one bounds the margin there.
	single := func(iv interval, x float64) float64 { return min((x-iv.lo)*iv.wlo, (iv.hi-x)*iv.whi) }
	at := func(x float64) float64 {
		best := 0.0
		for _, iv := range ivs {
			if iv.lo <= x && x <= iv.hi {
				best = max(best, single(iv, x))
			}
		}
		return best
	}
	depth := min(at(-1), at(1))
	for _, p := range ivs {
		for _, q := range ivs {
			// p's high end inside q: the seam [q.lo, p.hi] opens when the
			// two ends part, or when every shadow holding the whole seam
			// leaves one of its ends (a tent's least is at an end).
			if !(p.lo < q.lo && q.lo <= p.hi && p.hi < q.hi) || p.hi <= -1 || q.lo >= 1 {
				continue
			}
			m := apart(p.hi-q.lo, p.whi, q.wlo)
			for _, o := range ivs {
				if o.lo <= q.lo && p.hi <= o.hi {
					m = max(m, min(single(o, q.lo), single(o, p.hi)))
				}
			}
			depth = min(depth, m)
		}
	}
	return depth
}

// Sights measures every firing model's lines of fire to every target
// model: sights[t][f] is target t from firer f. rules/skirmish decides the
// unit's cover from them (skirmish.CoverFromSightings).
func (c *CoverMap) Sights(firing, targets []ModelPosition) [][]Sight {
	firerIn := make([][]depth, len(firing))
	for i, f := range firing {
		firerIn[i] = c.standsIn(f)
	}
	out := make([][]Sight, len(targets))
	for ti, t := range targets {
		in := c.standsIn(t)
		out[ti] = make([]Sight, len(firing))
		for i, f := range firing {
			out[ti][i] = c.sight(f, t, firerIn[i], in)
		}
	}
	return out
}
