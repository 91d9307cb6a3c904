package vision

import (
	"math"
	"slices"

	"github.com/sztab/sztab/vision/geom"
)

// Terrain remembered from before the models stood on it. At a table the
// terrain is set first, read on a still table, and the models are
// deployed on it after: a base that stands over a piece's corner or bend
// hides it then (Terrain.Unseen), but the camera saw it before. Each
// piece's last outline read with nothing hiding it is kept (remember);
// a new reading of a piece with unseen places takes the remembered outline
// instead (recall) when the two agree wherever both were seen: the same
// kind, the points of the new outline outside its unseen discs within
// memoryAgree of the remembered outline and those of the remembered one
// outside them within memoryAgree of the new, but for a few
// (memoryOutliers), and those within memoryAgreeRMSMM of the other in
// root mean square (see sameSeenPiece). The piece did not move,
// and what the base hides now is what was seen then; its unseen discs are
// dropped. A piece that does not agree (moved, turned, another piece laid
// over it) is read as it is now, its unseen discs kept: the safe path. A
// piece moved while a model stands over its corner is therefore read
// fresh, and a piece moved and read again with nothing on it replaces its
// memory.

// memoryAgree is how far (in σ of the two outlines together, per sample)
// a seen part of the outline may lie from the remembered one for the two
// to be the same piece where it was. Outline points are off by about σ,
// so 3σ is rarely passed by a piece that did not move (measured in
// TestTerrainMemory) while a piece moved by more than about a millimetre
// is told apart. memoryAgreeMinMM is the least tolerance (the outline's σ
// is at least a quarter of a millimetre).
const (
	memoryAgree      = 3.0
	memoryAgreeMinMM = 0.75
	// memoryAgreeRMSMM: the seen parts' distances from the remembered
	// outline, root mean square, at most this: a piece slid or turned a
	// little moves most of its outline alike, which one bad stretch of a
	// sloppy reading (σ over a millimetre, so a wide tolerance above) does
	// not. Pieces that did not move measure 0.002–0.22 mm
	// (TestCoverEndToEnd's 7 tables); one turned 1° about a hidden corner
	// 1.1 mm (TestTerrainMemory).
	memoryAgreeRMSMM = 0.4
	// memoryStepMM: the outlines are compared at points this far apart.
	memoryStepMM = 2.0
	// memoryOutliers: the share of the seen points that may lie beyond
	// the tolerance. A reading with a base near a hedge's wavy side
	// fits the side to fewer crossings there, up to 3 mm off the
	// remembered outline for a few centimetres beside the unseen disc
	// (TestCoverEndToEnd, seed 7500). A piece is rigid: slid or turned,
	// most of its outline moves, which the root mean square of the rest
	// (memoryAgreeRMSMM) and this share catch.
	memoryOutliers = 0.05
	// memorySeen: at least this share of the new outline must be seen
	// (outside its unseen discs) for the comparison to mean anything.
	memorySeen = 0.5
)

// remember is the memory after a reading: the pieces read with nothing
// hiding them (or whose hidden parts memory filled). A piece not read
// now is forgotten: it was taken away or moved.
func remember(terrain []Terrain) []Terrain {
	var out []Terrain
	for _, t := range terrain {
		if len(t.Unseen) == 0 && len(t.Outline) >= 3 {
			t.Outline = slices.Clone(t.Outline)
			out = append(out, t)
		}
	}
	return out
}

// recall fills what bases hide in cur from memory: each piece with unseen
// discs that agrees with a remembered piece where both were seen takes the
// remembered outline (with its σ, at least the new reading's least) and
// loses its unseen discs.
func recall(memory, cur []Terrain) []Terrain {
	if len(memory) == 0 {
		return cur
	}
	out := slices.Clone(cur)
	used := make([]bool, len(memory))
	for i, c := range out {
		if len(c.Unseen) == 0 {
			continue
		}
		for j, m := range memory {
			if used[j] || !sameSeenPiece(m, c) {
				continue
			}
			used[j] = true
			out[i].Outline = slices.Clone(m.Outline)
			// the remembered outline's σ, at least the least the new
			// reading has anywhere
			least := c.leastSigma()
			out[i].VertexSigmaMM = nil
			if len(m.VertexSigmaMM) == len(m.Outline) {
				out[i].VertexSigmaMM = make([]float64, len(m.VertexSigmaMM))
				for k, s := range m.VertexSigmaMM {
					out[i].VertexSigmaMM[k] = math.Max(s, least)
				}
			}
			out[i].SigmaMM = math.Max(m.SigmaMM, least)
			out[i].Unseen = nil
			break
		}
	}
	return out
}

// sameSeenPiece reports whether the new reading cur (with unseen discs)
// shows the remembered piece mem where it was: the same kind, enough of
// cur seen, and both outlines within the tolerance of each other wherever
// neither is in one of cur's unseen discs.
func sameSeenPiece(mem, cur Terrain) bool {
	if mem.Kind != cur.Kind || len(mem.Outline) < 3 || len(cur.Outline) < 3 {
		return false
	}
	tol := math.Max(memoryAgreeMinMM, memoryAgree*math.Hypot(mem.SigmaMM, cur.SigmaMM))
	mv, cv := vecs(mem.Outline), vecs(cur.Outline)
	// cheap first: the two must overlap
	if !boxesMeet(mv, cv, tol) {
		return false
	}
	hidden := func(p geom.Vec2) bool {
		for _, u := range cur.Unseen {
			if math.Hypot(p.X-u.X, p.Y-u.Y) <= u.R {
				return true
			}
		}
		return false
	}
	var ss float64
	inliers := 0
	// check compares from's seen points with to: ok when at most
	// memoryOutliers of them lie beyond the tolerance
	check := func(from, to []geom.Vec2) (seen, all int, ok bool) {
		out := 0
		for _, p := range boundarySamples(from, memoryStepMM) {
			all++
			if hidden(p) {
				continue
			}
			seen++
			d := outlineDist(to, p)
			if d > tol {
				out++
				continue
			}
			ss += d * d
			inliers++
		}
		return seen, all, float64(out) <= memoryOutliers*float64(seen)
	}
	seen, all, ok := check(cv, mv)
	if !ok || float64(seen) < memorySeen*float64(all) {
		return false
	}
	_, _, ok = check(mv, cv)
	return ok && inliers > 0 && math.Sqrt(ss/float64(inliers)) <= memoryAgreeRMSMM
}

func vecs(p [][2]float64) []geom.Vec2 {
	out := make([]geom.Vec2, len(p))
	for i, v := range p {
		out[i] = geom.Vec2{X: v[0], Y: v[1]}
	}
	return out
}

func boxesMeet(a, b []geom.Vec2, grow float64) bool {
	box := func(ps []geom.Vec2) (lo, hi geom.Vec2) {
		lo, hi = ps[0], ps[0]
		for _, p := range ps {
			lo = geom.Vec2{X: math.Min(lo.X, p.X), Y: math.Min(lo.Y, p.Y)}
			hi = geom.Vec2{X: math.Max(hi.X, p.X), Y: math.Max(hi.Y, p.Y)}
		}
		return lo, hi
	}
	alo, ahi := box(a)
	blo, bhi := box(b)
	return alo.X <= bhi.X+grow && blo.X <= ahi.X+grow && alo.Y <= bhi.Y+grow && blo.Y <= ahi.Y+grow
}

// boundarySamples are points every step mm (or closer) along the closed
// polygon's boundary, its vertices among them.
func boundarySamples(poly []geom.Vec2, step float64) []geom.Vec2 {
	var out []geom.Vec2
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		n := max(1, int(math.Ceil(a.Dist(b)/step)))
		for k := range n {
			out = append(out, a.Add(b.Sub(a).Scale(float64(k)/float64(n))))
		}
	}
	return out
}

// outlineDist is the distance from p to the closed polygon's boundary.
func outlineDist(poly []geom.Vec2, p geom.Vec2) float64 {
	best := math.Inf(1)
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		e := b.Sub(a)
		l2 := e.X*e.X + e.Y*e.Y
		u := 0.0
		if l2 > 0 {
			u = math.Max(0, math.Min(1, ((p.X-a.X)*e.X+(p.Y-a.Y)*e.Y)/l2))
		}
		best = math.Min(best, p.Dist(a.Add(e.Scale(u))))
	}
	return best
}
