package vision

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/rules/skirmish"
)

func rect(id, kind string, x0, y0, x1, y1 float64) Terrain {
	return Terrain{ID: id, Kind: kind, SigmaMM: 1, Outline: [][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}
}

func model(id, unit string, x, y float64) ModelPosition {
	return ModelPosition{ID: id, Unit: unit, X: x, Y: y, BaseMM: 25, SigmaMM: 0.5}
}

// The firer stands at (0, 0), the target at (300, 0); both bases are 25 mm
// across, so the band of lines of fire is 25 mm wide and the bound is
// 2·hypot(0.5, 1) ≈ 2.24 mm.
func TestSightCover(t *testing.T) {
	f, tg := model("f", "a", 0, 0), model("t", "b", 300, 0)
	tests := []struct {
		name      string
		terrain   []Terrain
		cover     string
		low, high string
	}{
		{"clear", nil, "", "", ""},
		{"wholly behind a light wall", []Terrain{rect("w", CoverLight, 250, -50, 260, 50)}, CoverLight, CoverLight, CoverLight},
		{"wholly behind a heavy wall", []Terrain{rect("w", CoverHeavy, 250, -50, 260, 50)}, CoverHeavy, CoverHeavy, CoverHeavy},
		{"half behind", []Terrain{rect("w", CoverHeavy, 250, 0, 260, 50)}, "", "", ""},
		{"two walls close the band together", []Terrain{rect("w1", CoverLight, 250, 0, 260, 50), rect("w2", CoverLight, 150, -50, 160, 10)}, CoverLight, CoverLight, CoverLight},
		{"light and heavy: light", []Terrain{rect("w1", CoverHeavy, 250, 0, 260, 50), rect("w2", CoverLight, 150, -50, 160, 10)}, CoverLight, CoverLight, CoverLight},
		{"grazing, just covering: close", []Terrain{rect("w", CoverLight, 250, -13, 260, 50)}, CoverLight, "", CoverLight},
		{"grazing, just clear: close", []Terrain{rect("w", CoverLight, 250, -12, 260, 50)}, "", "", CoverLight},
		{"heavy grazing in front of light", []Terrain{rect("w", CoverHeavy, 250, -13, 260, 50), rect("l", CoverLight, 200, -50, 210, 50)}, CoverHeavy, CoverLight, CoverHeavy},
		{"standing in a crater", []Terrain{rect("c", CoverLight, 280, -30, 330, 30)}, CoverLight, CoverLight, CoverLight},
		{"firing out of a crater", []Terrain{rect("c", CoverLight, -30, -30, 60, 30)}, "", "", ""},
		{"firer just inside the crater's edge: close", []Terrain{rect("c", CoverLight, -1, -30, 60, 30)}, "", "", CoverLight},
		{"firer just outside the crater's edge: close", []Terrain{rect("c", CoverLight, 1, -30, 60, 30)}, CoverLight, "", CoverLight},
		{"cover beside the band", []Terrain{rect("w", CoverHeavy, 100, 20, 200, 60)}, "", "", ""},
		{"cover behind the target", []Terrain{rect("w", CoverHeavy, 320, -50, 330, 50)}, "", "", ""},
		{"cover behind the firer", []Terrain{rect("w", CoverHeavy, -30, -50, -20, 50)}, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := LineOfFire(f, tg, tt.terrain)
			if s.Cover != tt.cover || s.Low != tt.low || s.High != tt.high || s.Close != (tt.low != tt.high) {
				t.Errorf("got cover %q low %q high %q close %v (any %.2f heavy %.2f mm, bound %.2f), want %q %q %q",
					s.Cover, s.Low, s.High, s.Close, s.AnyMM, s.HeavyMM, s.BoundMM, tt.cover, tt.low, tt.high)
			}
			// The truth on these exact positions agrees with the measured call.
			if want := truthCover(f, tg, tt.terrain); want != s.Cover {
				t.Errorf("truth by sampling %q, decision %q", want, s.Cover)
			}
		})
	}
}

// The margins' units (the file's derivation): two shadow ends meeting
// count both ends' errors in quadrature, a shadow end is measured at the
// band's width where it lies, and an edge crossing the target's base front
// at a shallow angle moves far for a small error.
func TestSightMargins(t *testing.T) {
	f, t25 := model("f", "a", 0, 0), model("t", "b", 300, 0)
	t40 := t25
	t40.BaseMM = 40
	tests := []struct {
		name    string
		target  ModelPosition
		terrain []Terrain
		cover   string
		close   bool
	}{
		// Shadows overlapping by 3.5 mm at the same distance: the ends must
		// part by 3.5 mm, 3.5/√2 = 2.47 mm of one point's error > 2.24
		// (half the overlap, 1.75 mm, was called too close).
		{"two walls overlapping 3.5 mm", t25, []Terrain{rect("w1", CoverLight, 150, -50, 160, 1.75), rect("w2", CoverLight, 150, -1.75, 160, 50)}, CoverLight, false},
		{"two walls overlapping 3 mm: close", t25, []Terrain{rect("w1", CoverLight, 150, -50, 160, 1.5), rect("w2", CoverLight, 150, -1.5, 160, 50)}, CoverLight, true},
		{"a gap of 3.5 mm between two walls", t25, []Terrain{rect("w1", CoverLight, 150, -50, 160, -1.75), rect("w2", CoverLight, 150, 1.75, 160, 50)}, "", false},
		// Near a 40 mm base the band is 19 mm wide each side: a wall 2.5 mm
		// inside its edge leaves a 2.5 mm clear line (at the firer's width,
		// 12.5 mm, it was counted as 1.6 mm).
		{"near a large base, 2.5 mm clear", t40, []Terrain{rect("w", CoverHeavy, 260, -16.5, 270, 50)}, "", false},
		// An edge running nearly along the target's base front (x = 287.5)
		// crosses it at y = 0: half a millimetre along the line moves the
		// crossing by 30 mm.
		{"an edge along the target's base front: close", t25, []Terrain{{ID: "s", Kind: CoverLight, SigmaMM: 1, Outline: [][2]float64{{287, -30}, {295, -30}, {295, 30}, {288, 30}}}}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := LineOfFire(f, tt.target, tt.terrain)
			if s.Cover != tt.cover || s.Close != tt.close {
				t.Errorf("got cover %q close %v (low %q high %q, any %.2f heavy %.2f mm, bound %.2f), want %q close %v",
					s.Cover, s.Close, s.Low, s.High, s.AnyMM, s.HeavyMM, s.BoundMM, tt.cover, tt.close)
			}
			if want := truthCover(f, tt.target, tt.terrain); want != s.Cover {
				t.Errorf("truth by sampling %q, decision %q", want, s.Cover)
			}
		})
	}
}

// A slanted band (bases of different sizes, a diagonal line) through a
// non-convex outline.
func TestSightSlantedNonConvex(t *testing.T) {
	f := ModelPosition{ID: "f", X: 100, Y: 100, BaseMM: 40, SigmaMM: 0.5}
	tg := ModelPosition{ID: "t", X: 400, Y: 350, BaseMM: 25, SigmaMM: 0.5}
	// A U-shaped outline whose notch the band passes through.
	u := Terrain{ID: "u", Kind: CoverHeavy, SigmaMM: 1, Outline: [][2]float64{{220, 160}, {330, 160}, {330, 330}, {300, 330}, {300, 200}, {250, 200}, {250, 330}, {220, 330}}}
	for _, tt := range []struct {
		name  string
		terr  []Terrain
		cover string
	}{
		{"through the U", []Terrain{u}, truthCover(f, tg, []Terrain{u})},
		{"a block across", []Terrain{{ID: "b", Kind: CoverLight, SigmaMM: 1, Outline: [][2]float64{{200, 300}, {300, 150}, {330, 170}, {230, 320}}}}, CoverLight},
	} {
		s := LineOfFire(f, tg, tt.terr)
		if !s.Close && s.Cover != tt.cover {
			t.Errorf("%s: got %q (any %.2f, heavy %.2f), want %q", tt.name, s.Cover, s.AnyMM, s.HeavyMM, tt.cover)
		}
		if tt.name == "a block across" && (s.Close || s.Cover != CoverLight) {
			t.Errorf("%s: %+v", tt.name, s)
		}
	}
}

func TestUnitCover(t *testing.T) {
	wall := rect("w", CoverLight, 250, -100, 260, 30)
	heavy := rect("h", CoverHeavy, 250, 30, 260, 100)
	cm := NewCoverMap([]Terrain{wall, heavy})
	firing := []ModelPosition{model("f1", "a", 0, -20), model("f2", "a", 0, 20)}
	at := func(ys ...float64) []ModelPosition {
		var out []ModelPosition
		for i, y := range ys {
			out = append(out, model(fmt.Sprintf("t%d", i+1), "b", 300, y))
		}
		return out
	}
	tests := []struct {
		name    string
		targets []ModelPosition
		want    skirmish.InCover
	}{
		{"all behind light", at(-80, -40, -10), skirmish.InCover{Light: 3}},
		{"two of three behind heavy", at(60, 80, 200), skirmish.InCover{Heavy: 2}},
		{"half behind: no cover", at(-80, -40, 200, 220), skirmish.InCover{Light: 2}},
		{"one of them grazing the wall's end: close", at(-80, -40, 31, 200),
			skirmish.InCover{Light: 2, AtMost: &skirmish.CoverCount{Light: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unitCover(cm, firing, tt.targets); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v (at most %+v), want %+v (at most %+v)", got, got.AtMost, tt.want, tt.want.AtMost)
			}
		})
	}
}

// unitCover is the rules' decision on the camera's sights.
func unitCover(cm *CoverMap, firing, targets []ModelPosition) skirmish.InCover {
	return skirmish.CoverFromSightings(sightings(cm.Sights(firing, targets)))
}

func sightings(sights [][]Sight) [][]skirmish.Sighting {
	out := make([][]skirmish.Sighting, len(sights))
	for t, from := range sights {
		for _, s := range from {
			out[t] = append(out[t], skirmish.Sighting{Low: s.Low, High: s.High})
		}
	}
	return out
}

// truthCover decides the cover by brute force on exact positions: 801
// lines across the band, each tested against every outline, and the
// target's centre tested for standing inside.
func truthCover(f, tg ModelPosition, terrain []Terrain) string {
	behind := func(heavyOnly bool) bool {
		a, b := modelVec(f), modelVec(tg)
		ra, rb := radiusOf(f.BaseMM), radiusOf(tg.BaseMM)
		// The band lies in this box; outlines outside it cannot meet a
		// line (a shortcut, not a decision: they are tested exactly).
		r := max(ra, rb)
		blo := tp{min(a.x, b.x) - r, min(a.y, b.y) - r}
		bhi := tp{max(a.x, b.x) + r, max(a.y, b.y) + r}
		var polys [][]tp
		for _, t := range terrain {
			if heavyOnly && t.Kind != CoverHeavy {
				continue
			}
			p := outline(t)
			if inside(p, b) {
				return true
			}
			plo, phi := p[0], p[0]
			for _, q := range p {
				plo, phi = tp{min(plo.x, q.x), min(plo.y, q.y)}, tp{max(phi.x, q.x), max(phi.y, q.y)}
			}
			if plo.x > bhi.x || plo.y > bhi.y || phi.x < blo.x || phi.y < blo.y {
				continue
			}
			if !inside(p, a) {
				polys = append(polys, p)
			}
		}
		D := a.dist(b)
		if D <= ra+rb || len(polys) == 0 {
			return false
		}
		d := b.sub(a).scale(1 / D)
		n := tp{-d.y, d.x}
		w := func(s float64) float64 { return ra + (rb-ra)*s/D }
		at := func(s, y float64) tp { return a.add(d.scale(s)).add(n.scale(y)) }
		for k := 0; k <= 800; k++ {
			u := -1 + 2*float64(k)/800
			p, q := at(ra, u*w(ra)), at(D-rb, u*w(D-rb))
			hit := false
			for _, poly := range polys {
				if segmentMeets(poly, p, q) {
					hit = true
					break
				}
			}
			if !hit {
				return false
			}
		}
		return true
	}
	switch {
	case behind(true):
		return CoverHeavy
	case behind(false):
		return CoverLight
	}
	return ""
}

// randomTable is a table of n outlines (walls at any angle and
// star-shaped, often non-convex, pieces) on w × h mm.
func randomTable(r *rand.Rand, n int, w, h float64) []Terrain {
	var out []Terrain
	for i := range n {
		kind := CoverLight
		if r.IntN(2) == 0 {
			kind = CoverHeavy
		}
		cx, cy := 100+r.Float64()*(w-200), 100+r.Float64()*(h-200)
		var pts [][2]float64
		switch r.IntN(3) {
		case 0: // a wall, any angle
			a, l, th := r.Float64()*math.Pi, 60+r.Float64()*140, 8+r.Float64()*12
			dx, dy := math.Cos(a), math.Sin(a)
			for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				pts = append(pts, [2]float64{cx + c[0]*l/2*dx - c[1]*th/2*dy, cy + c[0]*l/2*dy + c[1]*th/2*dx})
			}
		default: // a star-shaped piece of rubble, a crater, a hill
			m := 5 + r.IntN(6)
			base := 25 + r.Float64()*60
			for k := range m {
				a := 2 * math.Pi * (float64(k) + 0.3*r.Float64()) / float64(m)
				rr := base * (0.5 + r.Float64()*0.7)
				pts = append(pts, [2]float64{cx + rr*math.Cos(a), cy + rr*math.Sin(a)})
			}
		}
		out = append(out, Terrain{ID: fmt.Sprint("t", i), Kind: kind, Outline: pts, SigmaMM: 1})
	}
	return out
}

// jitter moves a point by a normal error of sigma per axis, kept within
// √2·sigma of the truth: the measured positions (bases and outlines each)
// stay within the bounds the decisions assume (their sum within
// 2·hypot(σ_base, σ_outline)).
func jitter(r *rand.Rand, x, y, sigma float64) (float64, float64) {
	for {
		dx, dy := r.NormFloat64()*sigma, r.NormFloat64()*sigma
		if math.Hypot(dx, dy) <= math.Sqrt2*sigma {
			return x + dx, y + dy
		}
	}
}

// normal moves a point by a normal error of sigma per axis, untruncated:
// the errors the σ describes.
func normal(r *rand.Rand, x, y, sigma float64) (float64, float64) {
	return x + r.NormFloat64()*sigma, y + r.NormFloat64()*sigma
}

// TestSightProperty compares the decisions on measured (jittered)
// positions and outlines with the truth sampled on the exact ones, over
// random tables with 20 pieces of terrain (10,200 shots each; 3,600 with
// -short), at the uncertainties the camera pipeline reports (bases σ 0.23
// mm, sub-pixel outlines 0.26 mm: the medians of TestCoverEndToEnd's
// snapshots) and at the older, larger ones (bases 0.5 mm, outlines 1 mm).
//
// With errors kept within √2σ of the truth per point (jitter) none may be
// wrong and unflagged. The goal is 99% agreeing; it is not met in
// pure geometry even at the pipeline's σ (σ_p 0.35 mm): the exact
// geometry's own margins are spread evenly near zero, and the shots whose
// true margin lies within ±kσ_p of a change of decision are about 2.1% per
// unit of k per mm of σ_p… on a 6 × 4 ft table: 1.5% within ±2σ_p at the
// pipeline's σ (98.6% agree, 1.4% flagged), 4.2% at σ_p 1.12 mm (95.9%
// agree). At 0.5/1 mm, with the bound at kσ_p (bounded errors, then
// normal ones): k = 0.5 agrees on 98.8% and decides 14 (normal: 41) of
// 10,200 wrong and unflagged; k = 1 97.8%, 2 (19) wrong; k = 2 95.9%, 0
// (1) wrong; k = 3 93.7%, 0 (0). With a σ of its own at each corner (as
// the camera reports outlines, Terrain.VertexSigmaMM), each corner off by
// its own σ, the margins are taken at each point's σ: 97.1% agree against
// 96.0% at the largest σ everywhere, none wrong. The thresholds below are
// today's figures less a little, so a looser decision fails the test.
//
// With untruncated normal errors ("normal") a few wrong decisions are
// expected (2σ is crossed with probability 2.3%): the test bounds them at
// 4 in 10,000, about twice the expected rate.
func TestSightProperty(t *testing.T) {
	tables := 170
	if testing.Short() {
		tables = 60
	}
	for _, tc := range []struct {
		name      string
		w, h      float64
		sb, so    float64 // σ of the bases and of the outlines
		noise     func(r *rand.Rand, x, y, sigma float64) (float64, float64)
		wantAgree float64
		maxWrong  float64 // of the shots
	}{
		{"pipeline σ 6x4 ft", 1800, 1200, 0.23, 0.26, jitter, 0.98, 0},
		{"pipeline σ 6x4 ft normal", 1800, 1200, 0.23, 0.26, normal, 0.98, 4e-4},
		{"6x4 ft", 1800, 1200, 0.5, 1, jitter, 0.955, 0},
		{"crowded 1200x900", 1200, 900, 0.5, 1, jitter, 0.925, 0},
		{"6x4 ft normal", 1800, 1200, 0.5, 1, normal, 0.95, 4e-4},
		{"crowded 1200x900 normal", 1200, 900, 0.5, 1, normal, 0.92, 4e-4},
		// a σ of its own at each corner (so is the largest; each corner's
		// is drawn between a tenth of it and all of it), as the camera
		// reports outlines: each corner is off by its own σ
		{"corner σ 6x4 ft", 1800, 1200, 0.5, -1, jitter, 0.965, 0},
		{"corner σ 6x4 ft normal", 1800, 1200, 0.5, -1, normal, 0.965, 4e-4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := sightProperty(t, tc.w, tc.h, tc.sb, tc.so, tables, tc.noise)
			t.Logf("%d shots (%d behind cover): %d agree (%.2f%%), %d too close to call, %d wrong and unflagged; flagged by %v",
				st.total, st.covered, st.agree, 100*float64(st.agree)/float64(st.total), st.close, st.wrong, st.why)
			t.Logf("truth within ±0.5σ_p, ±1σ_p, ±2σ_p of a change: %.2f%%, %.2f%%, %.2f%%",
				100*float64(st.within[0])/float64(st.total), 100*float64(st.within[1])/float64(st.total), 100*float64(st.within[2])/float64(st.total))
			if float64(st.agree) < tc.wantAgree*float64(st.total) {
				t.Errorf("%d of %d shots agree with the truth, want at least %.1f%%", st.agree, st.total, 100*tc.wantAgree)
			}
			if float64(st.wrong) > tc.maxWrong*float64(st.total) {
				t.Errorf("%d of %d shots decided wrong and unflagged, want at most %.2f%%", st.wrong, st.total, 100*tc.maxWrong)
			}
		})
	}
}

type sightStats struct {
	total, agree, close, covered, wrong int
	// within counts the shots whose exact geometry is itself within
	// ±0.5, ±1 and ±2 σ_p of a change of decision.
	within [3]int
	// why counts the flagged shots by the decisions within their bound.
	why map[string]int
}

// scaled is the terrain with its uncertainty (and its corners') times f.
func scaled(ts []Terrain, f float64) []Terrain {
	out := slices.Clone(ts)
	for i := range out {
		out[i].SigmaMM *= f
		if out[i].VertexSigmaMM != nil {
			out[i].VertexSigmaMM = slices.Clone(out[i].VertexSigmaMM)
			for k := range out[i].VertexSigmaMM {
				out[i].VertexSigmaMM[k] *= f
			}
		}
	}
	return out
}

func sightProperty(t *testing.T, w, h, sb, so float64, tables int, noise func(r *rand.Rand, x, y, sigma float64) (float64, float64)) sightStats {
	st := sightStats{why: map[string]int{}}
	r := rand.New(rand.NewPCG(16, 2026))
	for table := range tables {
		truthT := scaled(randomTable(r, 20, w, h), math.Abs(so))
		if so < 0 { // a σ per corner
			for i := range truthT {
				for range truthT[i].Outline {
					truthT[i].VertexSigmaMM = append(truthT[i].VertexSigmaMM, -so*(0.1+0.9*r.Float64()))
				}
			}
		}
		seen := make([]Terrain, len(truthT))
		for i, tr := range truthT {
			seen[i] = tr
			seen[i].Outline = nil
			for k, p := range tr.Outline {
				sigma := tr.SigmaMM
				if tr.VertexSigmaMM != nil {
					sigma = tr.VertexSigmaMM[k]
				}
				x, y := noise(r, p[0], p[1], sigma)
				seen[i].Outline = append(seen[i].Outline, [2]float64{x, y})
			}
		}
		cm := NewCoverMap(seen)
		var exact [3]*CoverMap
		for k, f := range []float64{0.25, 0.5, 1} {
			exact[k] = NewCoverMap(scaled(truthT, f))
		}
		for range 60 {
			// Two models anywhere on the table, within 30 kroki.
			var f, g ModelPosition
			for {
				f = ModelPosition{ID: "f", X: r.Float64() * w, Y: r.Float64() * h, BaseMM: 25, SigmaMM: sb}
				g = ModelPosition{ID: "t", X: r.Float64() * w, Y: r.Float64() * h, BaseMM: []float64{25, 32, 40}[r.IntN(3)], SigmaMM: sb}
				if d := modelVec(f).dist(modelVec(g)); d > 60 && d < 760 {
					break
				}
			}
			want := truthCover(f, g, truthT)
			if want != "" {
				st.covered++
			}
			for k, f2 := range []float64{0.25, 0.5, 1} {
				ef, eg := f, g
				ef.SigmaMM, eg.SigmaMM = f.SigmaMM*f2, g.SigmaMM*f2
				if exact[k].Sight(ef, eg).Close {
					st.within[k]++
				}
			}
			mf, mg := f, g
			mf.X, mf.Y = noise(r, f.X, f.Y, f.SigmaMM)
			mg.X, mg.Y = noise(r, g.X, g.Y, g.SigmaMM)
			s := cm.Sight(mf, mg)
			st.total++
			switch {
			case s.Close:
				st.close++
				st.why[flagReason(cm, mf, mg, s)]++
				if lo, hi, w := coverLevel(s.Low), coverLevel(s.High), coverLevel(want); w < lo || w > hi {
					st.wrong++
					t.Logf("table %d: truth %q outside the flagged range %q..%q (%+v)", table, want, s.Low, s.High, s)
				}
			case s.Cover == want:
				st.agree++
			default:
				st.wrong++
				t.Logf("table %d: %v → %v: decided %q unflagged, truth %q (any %.2f heavy %.2f bound %.2f)", table, f, g, s.Cover, want, s.AnyMM, s.HeavyMM, s.BoundMM)
			}
		}
	}
	return st
}

// flagReason names the decisions within their bound in a flagged sight:
// the target's centre near an outline (stands-in), the firer's (firer-in),
// the lines of fire against any or heavy cover (lines-any, lines-heavy).
func flagReason(cm *CoverMap, f, g ModelPosition, s Sight) string {
	b := s.BoundMM
	anyIn, heavyIn := math.Inf(-1), math.Inf(-1)
	for i, d := range cm.standsIn(g) {
		anyIn = max(anyIn, d.mm)
		if cm.polys[i].heavy {
			heavyIn = max(heavyIn, d.mm)
		}
	}
	fi := cm.standsIn(f)
	var why []string
	if math.Abs(anyIn) <= b || math.Abs(heavyIn) <= b {
		why = append(why, "stands-in")
	}
	if slices.ContainsFunc(fi, func(d depth) bool { return math.Abs(d.mm) <= b }) {
		why = append(why, "firer-in")
	}
	out := make([]bool, len(fi))
	for i, d := range fi {
		out[i] = d.mm > 0
	}
	a, h := cm.lines(f, g, b, out)
	if math.Abs(a) <= b && anyIn < -b {
		why = append(why, "lines-any")
	}
	if math.Abs(h) <= b && heavyIn < -b {
		why = append(why, "lines-heavy")
	}
	return strings.Join(why, "+")
}

// BenchmarkSightSnapshot: 40 firing models against 40 targets over 20
// outlines, every pair, per snapshot (the goal: under 1 ms).
func BenchmarkSightSnapshot(b *testing.B) {
	b.Run("same σ", func(b *testing.B) { benchSight(b, false) })
	// outlines of different σ, as the camera reports them: each shot's
	// bound takes the σ of the outlines near it, each shadow end its own
	// corner's
	b.Run("camera σ", func(b *testing.B) { benchSight(b, true) })
}

func benchSight(b *testing.B, mixed bool) {
	r := rand.New(rand.NewPCG(1, 2))
	terrain := randomTable(r, 20, 1800, 1200)
	if mixed {
		for i := range terrain {
			terrain[i].SigmaMM = 0.26 + 0.1*float64(i%4)
			// and a σ per corner, the largest at one
			for k := range terrain[i].Outline {
				terrain[i].VertexSigmaMM = append(terrain[i].VertexSigmaMM, 0.26+0.1*float64((i+k)%4))
			}
		}
	}
	var firing, targets []ModelPosition
	for i := range 40 {
		firing = append(firing, model(fmt.Sprint("f", i), "a", 50+r.Float64()*1100, 20+r.Float64()*200))
		targets = append(targets, model(fmt.Sprint("t", i), "b", 50+r.Float64()*1100, 680+r.Float64()*200))
	}
	b.ReportAllocs()
	for b.Loop() {
		cm := NewCoverMap(terrain)
		var in [40][]depth
		for i, t := range targets {
			in[i] = cm.standsIn(t)
		}
		for _, f := range firing {
			fi := cm.standsIn(f)
			for i, t := range targets {
				_ = cm.sight(f, t, fi, in[i])
			}
		}
	}
}

// BenchmarkUnitCover: the binder's question, a 40-model unit firing at a
// 40-model unit over 20 outlines.
func BenchmarkUnitCover(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	terrain := randomTable(r, 20, 1800, 1200)
	var firing, targets []ModelPosition
	for i := range 40 {
		firing = append(firing, model(fmt.Sprint("f", i), "a", 50+r.Float64()*1100, 20+r.Float64()*200))
		targets = append(targets, model(fmt.Sprint("t", i), "b", 50+r.Float64()*1100, 680+r.Float64()*200))
	}
	for b.Loop() {
		unitCover(NewCoverMap(terrain), firing, targets)
	}
}

// TestSightUnseen: where a base hid a corner of a piece (Terrain.Unseen),
// whether the centre under it stands in the piece is too close to call,
// and so is a shadow whose end lies there; away from it, decisions stand.
func TestSightUnseen(t *testing.T) {
	f := model("f", "a", 0, 0)
	// the target's centre 5 mm inside a light piece's corner
	piece := rect("r", CoverLight, 295, 5, 400, 200)
	tg := model("t", "b", 300, 10)
	seen := LineOfFire(f, tg, []Terrain{piece})
	if seen.Cover != CoverLight || seen.Close {
		t.Fatalf("seen: %+v, want light and decided", seen)
	}
	hid := piece
	hid.Unseen = []UnseenDisc{{X: 300, Y: 10, R: 20}}
	got := LineOfFire(f, tg, []Terrain{hid})
	if !got.Close || got.Low != "" || got.High != CoverLight {
		t.Errorf("unseen: %+v, want too close to call between none and light", got)
	}
	// a wall across the line whose end, where the band's edge passes,
	// was under a base: the shadow's end is not known
	wall := rect("w", CoverHeavy, 150, -20, 160, 20)
	tg2 := model("t", "b", 300, 0)
	if s := LineOfFire(f, tg2, []Terrain{wall}); s.Cover != CoverHeavy || s.Close {
		t.Fatalf("seen wall: %+v, want heavy and decided", s)
	}
	wall.Unseen = []UnseenDisc{{X: 155, Y: 20, R: 8}}
	if s := LineOfFire(f, tg2, []Terrain{wall}); !s.Close {
		t.Errorf("unseen wall end: %+v, want too close to call", s)
	}
	// an unseen disc far from the shot changes nothing
	wall.Unseen = []UnseenDisc{{X: 900, Y: 900, R: 20}}
	if s := LineOfFire(f, tg2, []Terrain{wall}); s.Cover != CoverHeavy || s.Close {
		t.Errorf("far unseen disc: %+v, want heavy and decided", s)
	}
	bad := Snapshot{Terrain: []Terrain{{ID: "x", Kind: CoverLight, Outline: [][2]float64{{0, 0}, {1, 0}, {0, 1}}, Unseen: []UnseenDisc{{X: 1, Y: 1, R: -2}}}}}
	if err := bad.CheckTable(); err == nil || !strings.Contains(err.Error(), "unseen disc") {
		t.Errorf("a negative unseen disc: %v, want an error naming it", err)
	}
}

// FuzzSight: any snapshot that passes CheckTable (as a simulated script's
// does) gives decisions without NaN, with Low ≤ Cover ≤ High, and the
// template and move readers do not fail on it.
func FuzzSight(f *testing.F) {
	f.Add([]byte(`{"models": [{"id": "f", "unit": "a", "x_mm": 0, "y_mm": 0, "base_mm": 25, "sigma_mm": 0.5}, {"id": "t", "unit": "b", "x_mm": 300, "y_mm": 0, "base_mm": 25, "sigma_mm": 0.5}], "terrain": [{"id": "w", "kind": "heavy", "outline": [[250, -50], [260, -50], [260, 50], [250, 50]], "sigma_mm": 1}], "markers": [{"kind": "template", "x_mm": 300, "y_mm": 0, "diameter_mm": 76}]}`))
	f.Add([]byte(`{"models": [{"id": "f", "unit": "a"}, {"id": "t", "unit": "b"}], "terrain": [{"kind": "light", "outline": [[0, 0], [0, 0], [0, 0]]}]}`))
	f.Add([]byte(`{"models": [{"id": "f", "unit": "a", "x_mm": 0, "y_mm": 0, "base_mm": 25, "sigma_mm": 0.2}, {"id": "t", "unit": "b", "x_mm": 300, "y_mm": 0, "base_mm": 32, "sigma_mm": 0.2}], "terrain": [{"id": "r", "kind": "light", "outline": [[280, -40], [330, -40], [330, 40], [280, 40]], "sigma_mm": 0.3, "unseen": [{"x_mm": 300, "y_mm": 0, "r_mm": 22}]}]}`))
	f.Add([]byte(`{"models": [{"id": "f", "unit": "a", "x_mm": 0, "y_mm": 0, "base_mm": 25, "sigma_mm": 0.2}, {"id": "t", "unit": "b", "x_mm": 300, "y_mm": 0, "base_mm": 32, "sigma_mm": 0}], "terrain": [{"id": "r", "kind": "heavy", "outline": [[280, -40], [330, -40], [330, 40], [280, 40]], "sigma_mm": 0.3, "vertex_sigma_mm": [0, 1e4, 0.3, 0.26]}]}`))
	f.Add([]byte(`{"models": [{"id": "f", "unit": "a", "x_mm": 1e6}, {"id": "t", "unit": "b", "x_mm": -1e6, "base_mm": 1e9}], "terrain": [{"kind": "light", "outline": [[1, 0], [0, 1], [-1, 0], [0, -1], [1, 0]]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Snapshot
		if json.Unmarshal(data, &s) != nil || s.CheckTable() != nil {
			return
		}
		var a, b []ModelPosition
		for _, m := range s.Models {
			if m.Unit == "a" {
				a = append(a, m)
			} else {
				b = append(b, m)
			}
		}
		sights := NewCoverMap(s.Terrain).Sights(a, b)
		for _, from := range sights {
			for _, sg := range from {
				if math.IsNaN(sg.AnyMM) || math.IsNaN(sg.HeavyMM) || math.IsNaN(sg.BoundMM) {
					t.Fatalf("NaN in %+v", sg)
				}
				if lo, c, hi := coverLevel(sg.Low), coverLevel(sg.Cover), coverLevel(sg.High); lo > c || c > hi {
					t.Fatalf("low %q, cover %q, high %q", sg.Low, sg.Cover, sg.High)
				}
			}
		}
		if _, err := json.Marshal(sights); err != nil {
			t.Fatal(err)
		}
		uc := skirmish.CoverFromSightings(sightings(sights))
		if at := uc.AtMost; at != nil && (uc.Light+uc.Heavy > at.Light+at.Heavy || uc.Heavy > at.Heavy) {
			t.Fatalf("counts %+v, at most %+v", uc, *at)
		}
		for _, mk := range s.Markers {
			if _, err := json.Marshal(MarkerGaps(mk, s.Models)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := json.Marshal(Moves(s, s)); err != nil {
			t.Fatal(err)
		}
	})
}
