// Plane geometry of terrain outlines: point in polygon, distances between
// points, segments and polygons. Pure Go, no OpenCV.

package vision

import (
	"fmt"
	"math"
)

// tp is a point (or vector) on the table, in millimetres.
type tp struct{ x, y float64 }

func (a tp) sub(b tp) tp        { return tp{a.x - b.x, a.y - b.y} }
func (a tp) add(b tp) tp        { return tp{a.x + b.x, a.y + b.y} }
func (a tp) scale(k float64) tp { return tp{a.x * k, a.y * k} }
func (a tp) dot(b tp) float64   { return a.x*b.x + a.y*b.y }
func (a tp) cross(b tp) float64 { return a.x*b.y - a.y*b.x }
func (a tp) dist(b tp) float64 {
	dx, dy := a.x-b.x, a.y-b.y
	return math.Sqrt(dx*dx + dy*dy)
}
func tpOf(p [2]float64) tp            { return tp{p[0], p[1]} }
func modelVec(m ModelPosition) tp     { return tp{m.X, m.Y} }
func markerVec(m TableMarker) tp      { return tp{m.X, m.Y} }
func lerp(a, b tp, t float64) tp      { return a.add(b.sub(a).scale(t)) }
func clamp01(t float64) float64       { return max(0, min(1, t)) }
func radiusOf(baseMM float64) float64 { return max(baseMM/2, 0.5) }

// inside reports whether p is inside the polygon (even-odd rule).
func inside(poly []tp, p tp) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[j], poly[i]
		if (a.y > p.y) != (b.y > p.y) && p.x < a.x+(p.y-a.y)/(b.y-a.y)*(b.x-a.x) {
			in = !in
		}
	}
	return in
}

// pointSegDist is the distance from p to the segment ab.
func pointSegDist(p, a, b tp) float64 {
	ab := b.sub(a)
	l2 := ab.dot(ab)
	if l2 == 0 {
		return p.dist(a)
	}
	return p.dist(lerp(a, b, clamp01(p.sub(a).dot(ab)/l2)))
}

// boundaryDist is the distance from p to the polygon's outline.
func boundaryDist(poly []tp, p tp) float64 {
	d, _, _, _ := nearestOnOutline(poly, p)
	return d
}

// segmentsCross reports whether the segments ab and cd meet.
func segmentsCross(a, b, c, d tp) bool {
	d1, d2 := b.sub(a).cross(c.sub(a)), b.sub(a).cross(d.sub(a))
	d3, d4 := d.sub(c).cross(a.sub(c)), d.sub(c).cross(b.sub(c))
	if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return true
	}
	return (d1 == 0 && pointSegDist(c, a, b) == 0) || (d2 == 0 && pointSegDist(d, a, b) == 0) ||
		(d3 == 0 && pointSegDist(a, c, d) == 0) || (d4 == 0 && pointSegDist(b, c, d) == 0)
}

func segSegDist(a, b, c, d tp) float64 {
	if segmentsCross(a, b, c, d) {
		return 0
	}
	return min(min(pointSegDist(a, c, d), pointSegDist(b, c, d)), min(pointSegDist(c, a, b), pointSegDist(d, a, b)))
}

// segmentMeets reports whether the segment ab has a point in the polygon.
func segmentMeets(poly []tp, a, b tp) bool {
	if inside(poly, a) || inside(poly, b) {
		return true
	}
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		if segmentsCross(a, b, poly[j], poly[i]) {
			return true
		}
	}
	return false
}

// segmentDepth is how far the segment ab is from meeting the polygon: its
// distance to the polygon when they do not meet, and minus the deepest a
// point of the segment lies inside it when they do (how much the outline
// must shrink before the segment misses it). The depth is found on 65
// points along the segment, so it is never more than the true depth: a
// decision it makes certain is certain.
func segmentDepth(poly []tp, a, b tp) float64 {
	if !segmentMeets(poly, a, b) {
		best := math.Inf(1)
		for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
			best = min(best, segSegDist(a, b, poly[j], poly[i]))
		}
		return best
	}
	deep := 0.0
	const n = 64
	for k := 0; k <= n; k++ {
		p := lerp(a, b, float64(k)/n)
		if inside(poly, p) {
			deep = max(deep, boundaryDist(poly, p))
		}
	}
	return -deep
}

func outline(t Terrain) []tp {
	out := make([]tp, len(t.Outline))
	for i, p := range t.Outline {
		out[i] = tpOf(p)
	}
	return out
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// CheckTable checks the terrain and markers of a snapshot that came from
// outside (a simulated table's script, a file): kinds known, outlines of
// three or more finite vertices, sizes and uncertainties not negative.
func (s Snapshot) CheckTable() error {
	for i, t := range s.Terrain {
		switch {
		case t.Kind != CoverLight && t.Kind != CoverHeavy:
			return fmt.Errorf("vision: terrain %d (%q): kind %q, want %q or %q", i, t.ID, t.Kind, CoverLight, CoverHeavy)
		case len(t.Outline) < 3:
			return fmt.Errorf("vision: terrain %d (%q): %d vertices, a polygon needs 3 or more", i, t.ID, len(t.Outline))
		case !finite(t.SigmaMM) || t.SigmaMM < 0:
			return fmt.Errorf("vision: terrain %d (%q): sigma_mm %v", i, t.ID, t.SigmaMM)
		}
		for _, p := range t.Outline {
			if !finite(p[0], p[1]) || math.Abs(p[0]) > 1e6 || math.Abs(p[1]) > 1e6 {
				return fmt.Errorf("vision: terrain %d (%q): vertex %v is not a point on a table", i, t.ID, p)
			}
		}
		if len(t.VertexSigmaMM) != 0 && len(t.VertexSigmaMM) != len(t.Outline) {
			return fmt.Errorf("vision: terrain %d (%q): %d vertex_sigma_mm for %d vertices", i, t.ID, len(t.VertexSigmaMM), len(t.Outline))
		}
		for _, s := range t.VertexSigmaMM {
			if !finite(s) || s < 0 || s > 1e4 {
				return fmt.Errorf("vision: terrain %d (%q): vertex_sigma_mm %v", i, t.ID, s)
			}
		}
		for _, u := range t.Unseen {
			if !finite(u.X, u.Y, u.R) || math.Abs(u.X) > 1e6 || math.Abs(u.Y) > 1e6 || u.R < 0 || u.R > 1e4 {
				return fmt.Errorf("vision: terrain %d (%q): unseen disc %+v is not a disc on a table", i, t.ID, u)
			}
		}
	}
	for i, m := range s.Markers {
		switch {
		case m.Kind != MarkerTemplate && m.Kind != MarkerObjective:
			return fmt.Errorf("vision: marker %d: kind %q, want %q or %q", i, m.Kind, MarkerTemplate, MarkerObjective)
		case !finite(m.X, m.Y) || math.Abs(m.X) > 1e6 || math.Abs(m.Y) > 1e6:
			return fmt.Errorf("vision: marker %d: centre (%v, %v) is not a point on a table", i, m.X, m.Y)
		case !finite(m.DiameterMM, m.SigmaMM, m.Confidence) || m.DiameterMM < 0 || m.DiameterMM > 1e4 || m.SigmaMM < 0 || m.Confidence < 0 || m.Confidence > 1:
			return fmt.Errorf("vision: marker %d: diameter_mm %v, sigma_mm %v, confidence %v", i, m.DiameterMM, m.SigmaMM, m.Confidence)
		case m.Kind == MarkerTemplate && m.DiameterMM == 0:
			return fmt.Errorf("vision: marker %d: a template marker needs its diameter_mm", i)
		}
	}
	for i, m := range s.Models {
		if !finite(m.X, m.Y, m.BaseMM, m.SigmaMM) || m.BaseMM < 0 || m.SigmaMM < 0 {
			return fmt.Errorf("vision: model %d (%q): position (%v, %v), base %v, sigma %v", i, m.ID, m.X, m.Y, m.BaseMM, m.SigmaMM)
		}
	}
	return nil
}

// nearestOnOutline is the distance from p to the polygon's outline and
// where on it the nearest point is: the fraction t of the way from vertex
// i to vertex j.
func nearestOnOutline(poly []tp, p tp) (d float64, i, j int, t float64) {
	d = math.Inf(1)
	for b, a := 0, len(poly)-1; b < len(poly); a, b = b, b+1 {
		ab := poly[b].sub(poly[a])
		u := 0.0
		if l2 := ab.dot(ab); l2 > 0 {
			u = clamp01(p.sub(poly[a]).dot(ab) / l2)
		}
		if e := p.dist(lerp(poly[a], poly[b], u)); e < d {
			d, i, j, t = e, a, b, u
		}
	}
	return d, i, j, t
}
