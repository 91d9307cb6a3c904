//go:build cgo

package vision

import (
	"math"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// terrainTable is a generated table with cover and markers, its marker
// registry, table calibration and terrain calibration (learnt, as
// `sztab calibrate terrain` does, from a frame of the same table under the
// same light with one sample of each class and no models).
type terrainTable struct {
	scene *synth.Scene
	reg   *Registry
	cal   *Calibration
	tc    *TerrainCalibration
}

func newTerrainTable(t testing.TB, o synth.Options, seed uint64, to synth.TerrainOptions) *terrainTable {
	t.Helper()
	s, err := synth.Random(o, seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddTerrain(to, seed+1); err != nil {
		t.Fatal(err)
	}
	reg := layoutRegistry(t, o.Layout)
	cal := truthCalibration(t, s, reg)
	// the calibration frame: the same table and light, one piece of each
	cs := *s
	cs.Models, cs.Terrain, cs.Discs, cs.Hands = nil, nil, nil, nil
	if err := cs.AddTerrain(synth.TerrainOptions{Pieces: 2, Templates: 1, Objectives: 1}, seed+2); err != nil {
		t.Fatal(err)
	}
	m := renderMat(t, &cs)
	defer m.Close()
	samples, err := TerrainSamplesOf(m, cal, reg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := LearnTerrain(samples)
	if err != nil {
		t.Fatal(err)
	}
	return &terrainTable{scene: s, reg: reg, cal: cal, tc: tc}
}

func renderMat(t testing.TB, s *synth.Scene) gocv.Mat {
	t.Helper()
	im, err := s.Render()
	if err != nil {
		t.Fatal(err)
	}
	return matOf(t, im)
}

// snapshotWithTerrain runs frames of the scene through a pipeline reading
// terrain until it gives a snapshot.
func snapshotWithTerrain(t testing.TB, tt *terrainTable, m gocv.Mat) Snapshot {
	t.Helper()
	cfg := testConfig()
	cfg.StillFrames = 1
	p, err := newPipeline(cfg, tt.reg, tt.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.UseTerrain(tt.tc); err != nil {
		t.Fatal(err)
	}
	s, err := p.Process(m, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		t.Fatal("no snapshot")
	}
	return *s
}

// boundaryDist is the distance from p to the polygon's boundary.
func boundaryDist(poly []geom.Vec2, p geom.Vec2) float64 {
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

// boundarySamples are points every step mm along the polygon's boundary.
func boundarySamples(poly []geom.Vec2, step float64) []geom.Vec2 {
	var out []geom.Vec2
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		n := int(math.Ceil(a.Dist(b) / step))
		for k := 0; k < n; k++ {
			out = append(out, a.Add(b.Sub(a).Scale(float64(k)/float64(n))))
		}
	}
	return out
}

func vecs(p [][2]float64) []geom.Vec2 {
	out := make([]geom.Vec2, len(p))
	for i, v := range p {
		out[i] = geom.Vec2{X: v[0], Y: v[1]}
	}
	return out
}

// terrainScore compares a snapshot's terrain and markers with the truth.
type terrainScore struct {
	errs                     []float64 // boundary errors, mm, both ways
	pieces, found, wrongKind int
	split, invented          int
	discs, discsFound        int
	discOff                  int // found farther than σ (per axis) from the truth
	discDiam                 []float64
	discCentre               []float64
	notes                    []string
}

func scoreTerrain(s *synth.Scene, snap Snapshot) *terrainScore {
	sc := &terrainScore{}
	hidden := func(p geom.Vec2) bool {
		for _, m := range s.Models {
			if math.Hypot(p.X-m.X, p.Y-m.Y) < m.Diameter/2+3 {
				return true
			}
		}
		px, ok := s.Camera.Pixel(p.X, p.Y, 0)
		return !ok || !s.Camera.InImage(px, 4)
	}
	// each detected piece goes to the true piece its boundary lies nearest
	owner := make([]int, len(snap.Terrain))
	perTrue := make([]int, len(s.Terrain))
	for i, d := range snap.Terrain {
		owner[i] = -1
		best := math.Inf(1)
		for j, tp := range s.Terrain {
			var ds []float64
			for _, q := range boundarySamples(vecs(d.Outline), 2) {
				ds = append(ds, boundaryDist(tp.Outline, q))
			}
			if m := geom.Percentile(ds, .5); m < best {
				best, owner[i] = m, j
			}
		}
		if best > 10 {
			sc.invented++
			owner[i] = -1
			continue
		}
		tp := s.Terrain[owner[i]]
		if d.Kind != tp.Kind {
			sc.wrongKind++
		}
		perTrue[owner[i]]++
		for _, q := range boundarySamples(vecs(d.Outline), 2) {
			sc.errs = append(sc.errs, boundaryDist(tp.Outline, q))
		}
	}
	for j, tp := range s.Terrain {
		sc.pieces++
		switch {
		case perTrue[j] == 1:
			sc.found++
		case perTrue[j] > 1:
			sc.split++
		}
		var mine [][]geom.Vec2
		for i, d := range snap.Terrain {
			if owner[i] == j {
				mine = append(mine, vecs(d.Outline))
			}
		}
		if len(mine) == 0 {
			continue
		}
		for _, q := range boundarySamples(tp.Outline, 2) {
			if hidden(q) {
				continue
			}
			best := math.Inf(1)
			for _, poly := range mine {
				best = math.Min(best, boundaryDist(poly, q))
			}
			sc.errs = append(sc.errs, best)
		}
	}
	for _, d := range s.Discs {
		sc.discs++
		for _, m := range snap.Markers {
			if m.Kind != d.Kind || math.Hypot(m.X-d.X, m.Y-d.Y) > 10 {
				continue
			}
			sc.discsFound++
			if math.Abs(m.X-d.X) > m.SigmaMM || math.Abs(m.Y-d.Y) > m.SigmaMM {
				sc.discOff++
			}
			sc.discCentre = append(sc.discCentre, math.Hypot(m.X-d.X, m.Y-d.Y))
			sc.discDiam = append(sc.discDiam, math.Abs(m.DiameterMM-d.Diameter))
			break
		}
	}
	return sc
}

func terrainOptions() synth.TerrainOptions {
	return synth.TerrainOptions{Pieces: 12, Templates: 2, Objectives: 2}
}

// TestTerrainAccuracy: generated 180×120 cm tables at 2304×1296 (tilt up
// to 20°, distortion, blur, noise, uneven light, 40 models standing where
// they fall, on cover too) with 12 pieces of cover (rubble, walls, hedges,
// ruins; yellow light, green heavy), two orange templates and two blue
// objectives: every piece found once with its kind, none invented,
// boundary error p95 ≤ 3 mm, every marker found within σ.
func TestTerrainAccuracy(t *testing.T) {
	var all []float64
	for _, seed := range []uint64{7100, 7200, 7300} {
		tt := newTerrainTable(t, accuracyOptions(2304, 1296), seed, terrainOptions())
		m := renderMat(t, tt.scene)
		snap := snapshotWithTerrain(t, tt, m)
		m.Close()
		sc := scoreTerrain(tt.scene, snap)
		p95 := geom.Percentile(sc.errs, .95)
		t.Logf("seed %d: %d/%d pieces found once (%d split, %d wrong kind, %d invented), boundary p95 %.2f mm max %.2f; markers %d/%d (%d off by more than σ), centre p95 %.2f mm, diameter p95 %.2f mm; warnings %v",
			seed, sc.found, sc.pieces, sc.split, sc.wrongKind, sc.invented, p95, geom.Percentile(sc.errs, 1), sc.discsFound, sc.discs, sc.discOff,
			geom.Percentile(sc.discCentre, .95), geom.Percentile(sc.discDiam, .95), snap.Warnings)
		if sc.found != sc.pieces || sc.wrongKind > 0 || sc.invented > 0 {
			t.Errorf("seed %d: %d of %d pieces found once, %d split, %d of the wrong kind, %d invented", seed, sc.found, sc.pieces, sc.split, sc.wrongKind, sc.invented)
		}
		if sc.discsFound != sc.discs || sc.discOff > 0 {
			t.Errorf("seed %d: %d of %d markers found, %d farther than σ", seed, sc.discsFound, sc.discs, sc.discOff)
		}
		if len(snap.Markers) != sc.discs {
			t.Errorf("seed %d: %d markers read, %d on the table", seed, len(snap.Markers), sc.discs)
		}
		all = append(all, sc.errs...)
	}
	if p95 := geom.Percentile(all, .95); p95 > 3 {
		t.Errorf("boundary error p95 %.2f mm, want ≤ 3", p95)
	}
}
