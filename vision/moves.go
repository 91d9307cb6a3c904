// Moves between the snapshot at the start of a movement phase and the one
// at its end (skirmish rulebook, "Faza ruchu"): how far each model went in
// a straight line, whether that line crosses an obstacle ("Jeśli model ma
// wykonać ruch przez przeszkodę, musi go przeskoczyć": a jump), and how far
// past its allowance it went. Pure Go, no OpenCV.
//
// Our reading: the path is the straight line between the base centres at
// the start and at the end; it jumps when any point of it lies in terrain
// of either kind (every obstacle of SPIS PRZESZKÓD is light or heavy
// cover). The rulebook measures a move "tak aby podstawka skończyła ruch w
// limicie": the centre's displacement, as rules/skirmish measures it.

package vision

import "math"

// Move is one model's move between two snapshots.
type Move struct {
	Model string `json:"model"`
	Unit  string `json:"unit"`
	// Distance is the straight-line displacement of the base centre.
	Distance Distance `json:"distance"`
	// Jump: the straight path crosses terrain; JumpClose: it passes within
	// the uncertainty of an outline, too close to call. JumpMM is the
	// margin (how deep the path goes into terrain, or minus how far it
	// passes from it) and JumpBoundMM its bound.
	Jump        bool    `json:"jump,omitempty"`
	JumpClose   bool    `json:"jump_close,omitempty"`
	JumpMM      float64 `json:"jump_mm"`
	JumpBoundMM float64 `json:"jump_bound_mm"`
	// AllowanceMM is the model's move allowance (0: none given);
	// OvershootMM and OvershootKroki are how far past it the model went
	// (0 when within).
	AllowanceMM    float64 `json:"allowance_mm,omitempty"`
	OvershootMM    float64 `json:"overshoot_mm,omitempty"`
	OvershootKroki float64 `json:"overshoot_kroki,omitempty"`
}

// Moves compares the models seen in both snapshots, in the end snapshot's
// order. The terrain is the start snapshot's (the obstacles the models
// moved over), or the end's when the start has none. allowance gives a
// model's allowance in mm (nil or 0: none); krokMM converts overshoots to
// kroki (0: the end snapshot's KrokMM).
func Moves(start, end Snapshot, allowance func(ModelPosition) float64, krokMM float64) []Move {
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
	if krokMM == 0 {
		krokMM = end.KrokMM
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
			Distance:    Distance{MM: a.dist(b), BoundMM: 2 * math.Hypot(s.SigmaMM, m.SigmaMM)},
			JumpMM:      math.Inf(-1),
			JumpBoundMM: 2 * sm}
		// each piece against its own bound: the jump is the piece whose
		// depth is the most bounds past its edge (a piece far off with a
		// sloppy outline does not make every move close)
		best := math.Inf(-1)
		for _, p := range polys {
			d, bound := -segmentDepth(p.pts, a, b), 2*math.Hypot(sm, p.sigma)
			// (a bound of 0, exact positions, ranks by the depth's sign)
			if z := d / math.Max(bound, 1e-12); z > best {
				best, mv.JumpMM, mv.JumpBoundMM = z, d, bound
			}
		}
		mv.JumpMM = clampMM(mv.JumpMM)
		if mv.Distance.MM <= mv.Distance.BoundMM {
			// A model that did not move did not jump, whatever it stands in.
			mv.JumpMM = clampMM(math.Inf(-1))
		}
		mv.Jump = mv.JumpMM > 0
		mv.JumpClose = math.Abs(mv.JumpMM) <= mv.JumpBoundMM
		if allowance != nil {
			mv.AllowanceMM = allowance(m)
		}
		if mv.AllowanceMM > 0 && mv.Distance.MM > mv.AllowanceMM {
			mv.OvershootMM = mv.Distance.MM - mv.AllowanceMM
			if krokMM > 0 {
				mv.OvershootKroki = mv.OvershootMM / krokMM
			}
		}
		out = append(out, mv)
	}
	return out
}
