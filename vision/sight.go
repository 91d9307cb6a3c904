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
//   - Against a shooting unit, a target model is behind cover only when it
//     is behind it from every firing model: a model that one firer sees in
//     the clear is not "za przeszkodą".
//   - The unit counts when more than half of it is behind cover ("ponad
//     połowa oddziału musi znajdować się za przeszkodą"); heavy when more
//     than half is behind heavy cover, else light when more than half is
//     behind any (rules/skirmish coverFor reads mixed cover the same way).
//
// Uncertainty: every decision has a margin in millimetres (how far the
// bases or outlines would have to move to change it) and a bound of two
// standard uncertainties of what moves; a decision whose margin is within
// its bound is too close to call, as distances are (Distance.Check).

package vision

import (
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
	// scratch
	all, heavy, buf, merged []interval
	cut0, cut1              []float64
}

type prepared struct {
	pts    []tp
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
		p := prepared{pts: outline(t), heavy: t.Kind == CoverHeavy}
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
		c.sigma = max(c.sigma, t.SigmaMM)
	}
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
	// "behind any cover": positive when it is, negative when it is not;
	// BoundMM is two standard uncertainties of what the margin depends on.
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
	anyIn, heavyIn := c.standsIn(target)
	return c.sight(firer, target, c.firerIn(firer), anyIn, heavyIn)
}

// firerIn is, for each outline, how deep the firer's base centre stands in
// it (negative: how far outside). Terrain the firer stands in does not
// cover its targets.
func (c *CoverMap) firerIn(m ModelPosition) []float64 {
	out := make([]float64, len(c.polys))
	p := modelVec(m)
	for i := range c.polys {
		pp := &c.polys[i]
		if d := p.dist(pp.centre) - pp.radius; d > 0 {
			out[i] = -d // at least this far outside: enough to decide
			continue
		}
		out[i] = signedDist(pp.pts, p)
	}
	return out
}

// standsIn is how deep the model's base centre stands inside any terrain
// and inside heavy terrain (negative: how far outside).
func (c *CoverMap) standsIn(m ModelPosition) (anyMM, heavyMM float64) {
	anyMM, heavyMM = math.Inf(-1), math.Inf(-1)
	p := modelVec(m)
	for i := range c.polys {
		pp := &c.polys[i]
		// Outside the circle around the outline by d, the centre is at
		// least d outside the outline: skip what cannot raise a margin.
		if d := p.dist(pp.centre) - pp.radius; -d <= anyMM && (!pp.heavy || -d <= heavyMM) {
			continue
		}
		sd := signedDist(pp.pts, p)
		anyMM = max(anyMM, sd)
		if pp.heavy {
			heavyMM = max(heavyMM, sd)
		}
	}
	return anyMM, heavyMM
}

// interval is a range of the pencil parameter u in [-1, 1] across the band.
type interval struct{ lo, hi float64 }

func (c *CoverMap) sight(firer, target ModelPosition, firerIn []float64, anyIn, heavyIn float64) Sight {
	s := Sight{Firer: firer.ID, Target: target.ID,
		BoundMM: 2 * math.Sqrt(sq(max(firer.SigmaMM, target.SigmaMM))+sq(c.sigma))}
	b := s.BoundMM
	// The outlines the firer stands in are left out; one whose edge is
	// within the bound of the firer's centre may be in or out, and the
	// decision is taken both ways.
	sure := func(i int) bool { return firerIn[i] <= 0 }
	maybe := sure
	unsure := false
	for _, d := range firerIn {
		if math.Abs(d) <= b {
			unsure = true
		}
	}
	anyMM, heavyMM := c.lines(firer, target, b, sure)
	anyLo, anyHi, heavyLo, heavyHi := anyMM, anyMM, heavyMM, heavyMM
	if unsure {
		maybe = func(i int) bool { return firerIn[i] < -b }
		a2, h2 := c.lines(firer, target, b, maybe)
		maybe = func(i int) bool { return firerIn[i] <= b }
		a3, h3 := c.lines(firer, target, b, maybe)
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

// clampMM keeps margins finite for JSON: nothing near is "a metre away".
func clampMM(x float64) float64 { return max(-1000, min(1000, x)) }

// lines is the margin of "every line of fire crosses cover", for any cover
// and for heavy cover: positive (every line crosses; how much the outlines
// must shrink before one line gets through) or negative (minus the
// clearance of the best clear line). Touching or overlapping bases have no
// line between them: -Inf.
func (c *CoverMap) lines(firer, target ModelPosition, bound float64, use func(i int) bool) (anyMM, heavyMM float64) {
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
	all, heavy, buf := c.all[:0], c.heavy[:0], c.buf
	// Outlines farther from the band than this cannot change a decision;
	// nearer ones beside it bound the clearance of its edge lines. A
	// clearance beyond it is only "at least".
	reach := wmax + 2*bound + 1
	for i := range c.polys {
		p := &c.polys[i]
		if !use(i) {
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
		// Each edge's part inside the stretch, then where the polygon meets
		// the stretch's two ends: the u they cover is the polygon's shadow
		// on the band (the pencil maps lines to lines, so u is monotone
		// along an edge).
		cut0, cut1 := c.cut0[:0], c.cut1[:0]
		for j := range m {
			pa, pb := p.pts[(j+m-1)%m].sub(a), p.pts[j].sub(a)
			sa, ya := pa.dot(d), pa.dot(n)
			sb, yb := pb.dot(d), pb.dot(n)
			for _, e := range [2]float64{s0, s1} {
				if (sa < e) != (sb < e) {
					y := ya + (e-sa)/(sb-sa)*(yb-ya)
					if e == s0 {
						cut0 = append(cut0, y)
					} else {
						cut1 = append(cut1, y)
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
			u0 := (ya + t0*(yb-ya)) / w(sa+t0*(sb-sa))
			u1 := (ya + t1*(yb-ya)) / w(sa+t1*(sb-sa))
			iv := interval{min(u0, u1), max(u0, u1)}
			// Consecutive edges share a vertex: extend the last shadow
			// when they meet, so merge has little to sort.
			if l := len(buf) - 1; l >= 0 && iv.lo <= buf[l].hi && iv.hi >= buf[l].lo {
				buf[l] = interval{min(buf[l].lo, iv.lo), max(buf[l].hi, iv.hi)}
				continue
			}
			buf = append(buf, iv)
		}
		for k, ys := range [2][]float64{cut0, cut1} {
			e := s0
			if k == 1 {
				e = s1
			}
			slices.Sort(ys)
			for q := 0; q+1 < len(ys); q += 2 {
				buf = append(buf, interval{ys[q] / w(e), ys[q+1] / w(e)})
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
	// A shift of u by du moves a line by at least du·min(w)·cos(slope).
	scale := min(ra, rb) / math.Sqrt(1+k*k)
	c.all, c.heavy, c.buf = all, heavy, buf
	return c.coverDepth(all) * scale, c.coverDepth(heavy) * scale
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
			ivs[k].hi = max(ivs[k].hi, iv.hi)
			continue
		}
		k++
		ivs[k] = iv
	}
	return ivs[:k+1]
}

// coverDepth says how well the shadows cover [-1, 1]: when they cover it,
// the least amount every shadow must shrink at both ends before a gap
// opens (positive); when they do not, minus the clearance of the best line
// in [-1, 1]: its distance to the nearest shadow, shadows beside the band
// included.
func (c *CoverMap) coverDepth(ivs []interval) float64 {
	c.merged = append(c.merged[:0], ivs...)
	u := merge(c.merged)
	clearance := func(x float64) float64 {
		best := math.Inf(1)
		for _, iv := range u {
			switch {
			case x < iv.lo:
				best = min(best, iv.lo-x)
			case x > iv.hi:
				best = min(best, x-iv.hi)
			default:
				return 0
			}
		}
		return best
	}
	clear := max(clearance(-1), clearance(1))
	for i := 0; i+1 < len(u); i++ {
		clear = max(clear, clearance(max(-1, min(1, (u[i].hi+u[i+1].lo)/2))))
	}
	if clear > 0 {
		return -clear
	}
	// Covered: the depth is the smallest, over u in [-1, 1], of the
	// deepest shadow containing u; its minimum lies at ±1 or where one
	// shadow's falling side meets another's rising side.
	depthAt := func(x float64) float64 {
		best := 0.0
		for _, iv := range ivs {
			if iv.lo <= x && x <= iv.hi {
				best = max(best, min(x-iv.lo, iv.hi-x))
			}
		}
		return best
	}
	depth := min(depthAt(-1), depthAt(1))
	for _, p := range ivs {
		for _, q := range ivs {
			if x := (q.lo + p.hi) / 2; x > -1 && x < 1 {
				depth = min(depth, depthAt(x))
			}
		}
	}
	return depth
}

// ModelCover is one target model's cover from a shooting unit.
type ModelCover struct {
	Model string `json:"model"`
	// Low and High are the least and most cover it can have, within the
	// uncertainty, from every firing model (see the file's comment).
	Low  string `json:"low,omitempty"`
	High string `json:"high,omitempty"`
}

// UnitCover is the "more than half behind cover" decision for a target
// unit against a shooting unit's firing models.
type UnitCover struct {
	// Total is the target models counted.
	Total int `json:"total"`
	// Light and Heavy count the models surely behind light and heavy
	// cover; MaybeLight and MaybeHeavy count them on the most favourable
	// reading within the uncertainty (equal to Light and Heavy when no
	// model's call is close).
	Light      int `json:"light"`
	Heavy      int `json:"heavy"`
	MaybeLight int `json:"maybe_light"`
	MaybeHeavy int `json:"maybe_heavy"`
	// Cover is the unit's cover on the sure counts, Best on the favourable
	// ones; Close is set when they differ: the players or the referee
	// settle it.
	Cover string `json:"cover,omitempty"`
	Best  string `json:"best,omitempty"`
	Close bool   `json:"close,omitempty"`
	// Margin is 2·(models behind cover) − Total for the decided kind
	// (positive: more than half), counted surely for Cover; with no cover,
	// counted on the favourable reading (zero or less unless Close).
	Margin int          `json:"margin"`
	Models []ModelCover `json:"models"`
	Sights []Sight      `json:"sights,omitempty"`
}

// UnitCover decides the cover of the target models against the firing
// models.
func (c *CoverMap) UnitCover(firing, targets []ModelPosition) UnitCover {
	uc := UnitCover{Total: len(targets)}
	firerIn := make([][]float64, len(firing))
	for i, f := range firing {
		firerIn[i] = c.firerIn(f)
	}
	for _, t := range targets {
		anyIn, heavyIn := c.standsIn(t)
		lo, hi := levelHeavy, levelHeavy
		for i, f := range firing {
			s := c.sight(f, t, firerIn[i], anyIn, heavyIn)
			uc.Sights = append(uc.Sights, s)
			lo, hi = min(lo, coverLevel(s.Low)), min(hi, coverLevel(s.High))
		}
		if len(firing) == 0 {
			lo, hi = levelNone, levelNone
		}
		uc.Models = append(uc.Models, ModelCover{Model: t.ID, Low: coverName(lo), High: coverName(hi)})
		switch lo {
		case levelHeavy:
			uc.Heavy++
		case levelLight:
			uc.Light++
		}
		switch hi {
		case levelHeavy:
			uc.MaybeHeavy++
		case levelLight:
			uc.MaybeLight++
		}
	}
	decide := func(light, heavy int) int {
		switch {
		case 2*heavy > uc.Total:
			return levelHeavy
		case 2*(light+heavy) > uc.Total:
			return levelLight
		}
		return levelNone
	}
	low, best := decide(uc.Light, uc.Heavy), decide(uc.MaybeLight, uc.MaybeHeavy)
	uc.Cover, uc.Best, uc.Close = coverName(low), coverName(best), low != best
	switch low {
	case levelHeavy:
		uc.Margin = 2*uc.Heavy - uc.Total
	case levelLight:
		uc.Margin = 2*(uc.Light+uc.Heavy) - uc.Total
	default:
		uc.Margin = 2*(uc.MaybeLight+uc.MaybeHeavy) - uc.Total
	}
	return uc
}
