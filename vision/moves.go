// Moves between the snapshot at the start of a movement phase and the one
// at its end: how far each model's base centre went in a straight line,
// and how deep that straight line runs into terrain (rules/skirmish
// decides from it whether the model jumped an obstacle: skirmish.Jumped).
// Pure Go, no OpenCV.

package vision

import "math"

// Move is one model's move between two snapshots.
type Move struct {
	Model string `json:"model"`
	Unit  string `json:"unit"`
	// Distance is the straight-line displacement of the base centre.
	Distance Distance `json:"distance"`
	// DepthMM is how deep the straight path goes into terrain of either
	// kind (negative: minus how far it passes from the nearest piece);
	// DepthBoundMM is its bound, two standard uncertainties of the path
	// and of that piece's outline.
	DepthMM      float64 `json:"depth_mm"`
	DepthBoundMM float64 `json:"depth_bound_mm"`
}

// Moves compares the models seen in both snapshots, in the end snapshot's
// order. The terrain is the start snapshot's (the obstacles the models
// moved over), or the end's when the start has none.
func Moves(start, end Snapshot) []Move {
	terrain := start.Terrain
	if len(terrain) == 0 {
		terrain = end.Terrain
	}
	type poly struct {
		pts   []tp
		sigma float64
	}
	var polys []poly
	for _, t := range terrain {
		if len(t.Outline) >= 3 {
			polys = append(polys, poly{outline(t), t.SigmaMM})
		}
	}
	was := map[string]ModelPosition{}
	for _, m := range start.Models {
		was[m.ID] = m
	}
	var out []Move
	for _, m := range end.Models {
		s, ok := was[m.ID]
		if !ok {
			continue
		}
		a, b := modelVec(s), modelVec(m)
		sm := math.Max(s.SigmaMM, m.SigmaMM)
		mv := Move{Model: m.ID, Unit: m.Unit,
			Distance:     Distance{MM: a.dist(b), BoundMM: 2 * math.Hypot(s.SigmaMM, m.SigmaMM)},
			DepthMM:      math.Inf(-1),
			DepthBoundMM: 2 * sm}
		// each piece against its own bound: the depth reported is the
		// piece's whose depth is the most bounds past its edge (a piece far
		// off with a sloppy outline does not make every move close)
		best := math.Inf(-1)
		for _, p := range polys {
			d, bound := -segmentDepth(p.pts, a, b), 2*math.Hypot(sm, p.sigma)
			// (a bound of 0, exact positions, ranks by the depth's sign)
			if z := d / math.Max(bound, 1e-12); z > best {
				best, mv.DepthMM, mv.DepthBoundMM = z, d, bound
			}
		}
		mv.DepthMM = clampMM(mv.DepthMM)
		out = append(out, mv)
	}
	return out
}
