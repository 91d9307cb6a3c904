//go:build cgo

package vision

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	p := terrainPipeline(t, tt)
	defer p.Close()
	s, err := p.Process(m, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		t.Fatal("no snapshot")
	}
	return *s
}

// terrainPipeline is a pipeline reading the table's terrain, a snapshot
// from every still frame.
func terrainPipeline(t testing.TB, tt *terrainTable) *Pipeline {
	t.Helper()
	cfg := testConfig()
	cfg.StillFrames = 1
	p, err := newPipeline(cfg, tt.reg, tt.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.UseTerrain(tt.tc); err != nil {
		p.Close()
		t.Fatal(err)
	}
	return p
}

// terrainSequence runs the frames, in order, through one pipeline reading
// terrain (each frame a still table) and returns the snapshot each gave,
// and the last frame's terrain read afresh, without the memory of the
// earlier frames (what a pipeline started on that frame would read).
func terrainSequence(t testing.TB, tt *terrainTable, frames ...gocv.Mat) (snaps []Snapshot, fresh []Terrain) {
	t.Helper()
	p := terrainPipeline(t, tt)
	defer p.Close()
	for i, m := range frames {
		s, err := p.Process(m, time.Unix(int64(i), 0))
		if err != nil {
			t.Fatal(err)
		}
		if s == nil {
			t.Fatalf("frame %d: no snapshot", i)
		}
		snaps = append(snaps, *s)
	}
	last := snaps[len(snaps)-1]
	r := p.ter.reader.read(frames[len(frames)-1], last.Models)
	if r.bad != "" {
		t.Fatalf("the last frame read afresh: %s", r.bad)
	}
	return snaps, r.terrain
}

// bareScene is the scene without its models: the table as set before
// the models are deployed.
func bareScene(s *synth.Scene) *synth.Scene {
	b := *s
	b.Models = nil
	return &b
}

// terrainScore compares a snapshot's terrain and markers with the truth.
type terrainScore struct {
	errs []float64 // boundary errors, mm, both ways
	// withinSigma counts the detected outlines' boundary samples within
	// 2·SigmaMM of the true outline, of sigmaSamples
	withinSigma, sigmaSamples int
	pieces, found, wrongKind  int
	split, invented           int
	discs, discsFound         int
	discOff                   int // found farther than σ (per axis) from the truth
	discDiam                  []float64
	discCentre                []float64
	notes                     []string
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
				ds = append(ds, outlineDist(tp.Outline, q))
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
		near := nearestOn(d)
		for _, q := range boundarySamples(vecs(d.Outline), 2) {
			e := outlineDist(tp.Outline, q)
			sc.errs = append(sc.errs, e)
			sc.sigmaSamples++
			if _, s := near(q); e <= 2*s {
				sc.withinSigma++
			}
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
				best = math.Min(best, outlineDist(poly, q))
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
// boundary error p95 ≤ 3 mm, 95% of each outline within 2σ of the σ
// reported there (the corners' VertexSigmaMM, linear along each edge),
// every marker found within σ.
func TestTerrainAccuracy(t *testing.T) {
	var all []float64
	var within, samples int
	for _, seed := range []uint64{7100, 7200, 7300} {
		tt := newTerrainTable(t, accuracyOptions(2304, 1296), seed, terrainOptions())
		m := renderMat(t, tt.scene)
		snap := snapshotWithTerrain(t, tt, m)
		m.Close()
		sc := scoreTerrain(tt.scene, snap)
		p95 := geom.Percentile(sc.errs, .95)
		var sig []float64
		for _, tr := range snap.Terrain {
			sig = append(sig, tr.SigmaMM)
		}
		t.Logf("seed %d: σ reported %v; %d of %d outline samples within 2σ of the truth", seed, sig, sc.withinSigma, sc.sigmaSamples)
		within += sc.withinSigma
		samples += sc.sigmaSamples
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
	// the σ reported is honest: 95% of the outline within 2σ
	if float64(within) < 0.95*float64(samples) {
		t.Errorf("%d of %d outline samples within 2σ of the truth, want at least 95%%", within, samples)
	}
}

// smallTerrainOptions: the pipeline tests' 90×60 cm table at 1280×720.
func smallTerrainOptions() synth.Options {
	o := synth.Defaults(1280, 720, synth.DefaultLayout(900, 600, 12))
	o.FrameFiducials = true
	o.MaxYaw = 2
	o.Blur = [2]float64{0.4, 0.7}
	o.Noise = [2]float64{2, 3}
	return o
}

// imageMat renders a scene with noise seed and passes its pixels through
// f (nil: as they are).
func imageMat(t testing.TB, c *synth.Clean, s *synth.Scene, seed uint64, f func(b, g, r float64) (float64, float64, float64)) gocv.Mat {
	t.Helper()
	im := c.Finish(s.Noise, seed)
	if f != nil {
		for i := 0; i < len(im.BGR); i += 3 {
			b, g, r := f(float64(im.BGR[i]), float64(im.BGR[i+1]), float64(im.BGR[i+2]))
			im.BGR[i], im.BGR[i+1], im.BGR[i+2] = clampByte(b), clampByte(g), clampByte(r)
		}
	}
	return matOf(t, im)
}

func clampByte(v float64) byte { return byte(math.Max(0, math.Min(255, math.Round(v)))) }

// run feeds n frames and returns the snapshots they gave.
func runFrames(t testing.TB, p *Pipeline, m gocv.Mat, n int, clock *int) []Snapshot {
	t.Helper()
	var out []Snapshot
	for i := 0; i < n; i++ {
		*clock++
		s, err := p.Process(m, time.Unix(int64(*clock), 0))
		if err != nil {
			t.Logf("frame %d: %v", *clock, err)
			continue
		}
		if s != nil {
			out = append(out, *s)
		}
	}
	return out
}

func hasWarning(s Snapshot, text string) bool {
	for _, w := range s.Warnings {
		if strings.Contains(w, text) {
			return true
		}
	}
	return false
}

// TestTerrainBadInput: an unlit frame, an overexposed one and one whose
// colours drifted (the light's colour changed) are reported with their
// reason and the last good terrain is kept; good light again reads the
// terrain again without the warning.
func TestTerrainBadInput(t *testing.T) {
	tt := newTerrainTable(t, smallTerrainOptions(), 8100, synth.TerrainOptions{Pieces: 5, Templates: 1, Objectives: 1})
	clean, err := tt.scene.RenderClean()
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.StillFrames = 2
	p, err := newPipeline(cfg, tt.reg, tt.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.UseTerrain(tt.tc); err != nil {
		t.Fatal(err)
	}
	clock := 0
	good := imageMat(t, clean, tt.scene, 1, nil)
	defer good.Close()
	snaps := runFrames(t, p, good, 4, &clock)
	if len(snaps) != 1 || len(snaps[0].Terrain) != 5 || len(snaps[0].Markers) != 2 || len(snaps[0].Warnings) != 0 {
		t.Fatalf("the good table: %d snapshots, want 1 with 5 pieces, 2 markers, no warning: %+v", len(snaps), snaps)
	}
	first := snaps[0]
	for _, c := range []struct {
		name, want string
		f          func(b, g, r float64) (float64, float64, float64)
	}{
		{"unlit", "too dark", func(b, g, r float64) (float64, float64, float64) { return 0.07 * b, 0.07 * g, 0.07 * r }},
		{"overexposed", "overexposed", func(b, g, r float64) (float64, float64, float64) { return 4 * b, 4 * g, 4 * r }},
		{"drifted", "drifted", func(b, g, r float64) (float64, float64, float64) { return 0.7 * b, g, 1.3 * r }},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := imageMat(t, clean, tt.scene, 2, c.f)
			defer bad.Close()
			snaps := runFrames(t, p, bad, 4, &clock)
			var warned *Snapshot
			for i := range snaps {
				if hasWarning(snaps[i], c.want) {
					warned = &snaps[i]
				}
			}
			if warned == nil {
				t.Fatalf("no snapshot says %q: %+v", c.want, snaps)
			}
			t.Logf("%s: %v", c.name, warned.Warnings)
			if !sameTerrain(first.Terrain, warned.Terrain) || !sameMarkers(first.Markers, warned.Markers) {
				t.Errorf("the last good terrain was not kept: %d pieces, %d markers", len(warned.Terrain), len(warned.Markers))
			}
			// the light comes back
			snaps = runFrames(t, p, good, 4, &clock)
			if len(snaps) == 0 {
				t.Fatal("no snapshot when the light came back")
			}
			last := snaps[len(snaps)-1]
			if hasWarning(last, "terrain") || len(last.Terrain) != 5 || len(last.Markers) != 2 {
				t.Errorf("after the light came back: %d pieces, %d markers, warnings %v", len(last.Terrain), len(last.Markers), last.Warnings)
			}
		})
	}
}

// TestTerrainOnlySnapshot: on a still table where no model moves, a
// template laid down, a template half off the table, and a piece of cover
// taken away each give a snapshot (terrain is read once per still period:
// a still table is not read again).
func TestTerrainOnlySnapshot(t *testing.T) {
	tt := newTerrainTable(t, smallTerrainOptions(), 8200, synth.TerrainOptions{Pieces: 5, Objectives: 1})
	cfg := testConfig()
	cfg.StillFrames = 2
	p, err := newPipeline(cfg, tt.reg, tt.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.UseTerrain(tt.tc); err != nil {
		t.Fatal(err)
	}
	clock := 0
	frameOf := func(s *synth.Scene) gocv.Mat {
		c, err := s.RenderClean()
		if err != nil {
			t.Fatal(err)
		}
		return imageMat(t, c, s, 1, nil)
	}
	m := frameOf(tt.scene)
	snaps := runFrames(t, p, m, 10, &clock)
	m.Close()
	if len(snaps) != 1 || len(snaps[0].Terrain) != 5 || len(snaps[0].Markers) != 1 {
		t.Fatalf("want one snapshot with 5 pieces and the objective: %+v", snaps)
	}
	if reads := p.ter.reads; reads != 1 {
		t.Errorf("a still table read %d times, want once", reads)
	}
	seq := snaps[0].Seq

	// a 76 mm template laid in a free spot
	s2 := *tt.scene
	s2.Discs = append(append([]synth.Disc(nil), tt.scene.Discs...), freeDisc(t, tt.scene, synth.DiscTemplate, 76))
	m = frameOf(&s2)
	snaps = runFrames(t, p, m, 5, &clock)
	m.Close()
	if len(snaps) != 1 || snaps[0].Seq != seq+1 || len(snaps[0].Markers) != 2 || len(snaps[0].Models) != len(tt.scene.Models) {
		t.Fatalf("a template laid: want one snapshot %d with 2 markers and every model: %+v", seq+1, snaps)
	}
	var tmpl *TableMarker
	for i := range snaps[0].Markers {
		if snaps[0].Markers[i].Kind == MarkerTemplate {
			tmpl = &snaps[0].Markers[i]
		}
	}
	want := s2.Discs[len(s2.Discs)-1]
	if tmpl == nil || math.Hypot(tmpl.X-want.X, tmpl.Y-want.Y) > tmpl.SigmaMM || math.Abs(tmpl.DiameterMM-76) > 2 || tmpl.Confidence < 0.8 {
		t.Errorf("template at (%.1f, %.1f) 76 mm read as %+v", want.X, want.Y, tmpl)
	}

	// the template pushed half off the table's far edge: reported, not guessed
	s3 := s2
	s3.Discs = append([]synth.Disc(nil), s2.Discs...)
	s3.Discs[len(s3.Discs)-1] = synth.Disc{Kind: synth.DiscTemplate, X: 450, Y: s3.TableD - 5, Diameter: 127}
	m = frameOf(&s3)
	snaps = runFrames(t, p, m, 5, &clock)
	m.Close()
	if len(snaps) != 1 || !hasWarning(snaps[0], "runs off the table") {
		t.Fatalf("a template half off the table: want a snapshot with a warning: %+v", snaps)
	}
	t.Logf("half off: %+v %v", snaps[0].Markers, snaps[0].Warnings)
	for _, mk := range snaps[0].Markers {
		if mk.Kind == MarkerTemplate && mk.Confidence > 0.3 {
			t.Errorf("a template half off the table read with confidence %.2f: %+v", mk.Confidence, mk)
		}
	}

	// a piece of cover taken away
	s4 := s3
	s4.Terrain = tt.scene.Terrain[1:]
	m = frameOf(&s4)
	snaps = runFrames(t, p, m, 5, &clock)
	m.Close()
	if len(snaps) != 1 || len(snaps[0].Terrain) != 4 {
		t.Fatalf("a piece taken away: want one snapshot with 4 pieces: %+v", snaps)
	}
}

// freeDisc is a disc of diameter d clear of everything on the scene.
func freeDisc(t testing.TB, s *synth.Scene, kind string, d float64) synth.Disc {
	t.Helper()
	for y := 100.0; y < s.TableD-100; y += 20 {
		for x := 100.0; x < s.TableW-100; x += 20 {
			ok := true
			for _, m := range s.Models {
				ok = ok && math.Hypot(x-m.X, y-m.Y) > d/2+m.Diameter/2+10
			}
			for _, f := range s.Fiducials {
				ok = ok && math.Hypot(x-f.X, y-f.Y) > d/2+f.Side+10
			}
			for _, o := range s.Discs {
				ok = ok && math.Hypot(x-o.X, y-o.Y) > d/2+o.Diameter/2+10
			}
			for i := range s.Terrain {
				for _, v := range boundarySamples(s.Terrain[i].Outline, 5) {
					ok = ok && math.Hypot(x-v.X, y-v.Y) > d/2+10
				}
				ok = ok && !s.Terrain[i].Contains(x, y)
			}
			if ok {
				return synth.Disc{Kind: kind, X: x, Y: y, Diameter: d}
			}
		}
	}
	t.Fatal("no free spot for a disc")
	return synth.Disc{}
}

// TestOpenWithTerrain: Open reads the terrain calibration camera.terrain
// names; a damaged one, or one for another frame size, is an error that
// names it, and Reload keeps what it had.
func TestOpenWithTerrain(t *testing.T) {
	tb := newTable(t, 41)
	dir := t.TempDir()
	cfg := writeTableFiles(t, tb, dir)
	tc, err := LoadTerrainCalibration(terrainCalFile)
	if err != nil {
		t.Fatal(err)
	}
	tc.Width, tc.Height = tb.cal.Width, tb.cal.Height
	cfg.Terrain = filepath.Join(dir, "terrain.yaml")
	if err := tc.Save(cfg.Terrain); err != nil {
		t.Fatal(err)
	}
	p, err := Open(cfg, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.ter.reader == nil {
		t.Fatal("no terrain reader")
	}
	data, _ := os.ReadFile(cfg.Terrain)
	if err := os.WriteFile(cfg.Terrain, []byte(strings.Replace(string(data), "objective_mm: 40", "objective_mm: 0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.Reload(); err == nil || !strings.Contains(err.Error(), "terrain.yaml:") || !strings.Contains(err.Error(), "objective_mm") {
		t.Errorf("a damaged terrain calibration reloaded: %v", err)
	}
	if p.ter.reader == nil {
		t.Error("a failed reload dropped the terrain reader")
	}
	if _, err := Open(cfg, quietLog()); err == nil || !strings.Contains(err.Error(), "objective_mm") {
		t.Errorf("opened with a damaged terrain calibration: %v", err)
	}
	tc.Width = 640
	if err := tc.Save(cfg.Terrain); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(cfg, quietLog()); err == nil || !strings.Contains(err.Error(), "the terrain calibration is for 640×") {
		t.Errorf("opened with a terrain calibration for another size: %v", err)
	}
}

// TestTerrainHandOverCover: an arm held still across a piece of cover
// (the table still, so it is read) does not cut it in two: the last
// outline is kept, with a warning; when the arm goes, the piece reads
// whole again.
func TestTerrainHandOverCover(t *testing.T) {
	tt := newTerrainTable(t, smallTerrainOptions(), 8400, synth.TerrainOptions{Pieces: 4})
	// a wall or hedge, and an arm across its middle, low over the table
	long := -1
	for i, p := range tt.scene.Terrain {
		if p.Shape == synth.ShapeWall || p.Shape == synth.ShapeHedge {
			long = i
		}
	}
	if long < 0 {
		t.Fatal("no wall or hedge on the table: pick another seed")
	}
	piece := tt.scene.Terrain[long].Outline
	var a, b geom.Vec2
	for _, u := range piece {
		for _, v := range piece {
			if u.Dist(v) > a.Dist(b) {
				a, b = u, v
			}
		}
	}
	c := a.Add(b).Scale(0.5)
	axis := b.Sub(a).Scale(1 / a.Dist(b))
	perp := geom.Vec2{X: -axis.Y, Y: axis.X}
	withHand := *tt.scene
	withHand.Hands = []synth.Hand{{A: c.Sub(perp.Scale(400)), B: c.Add(perp.Scale(90)), Width: 80, Palm: 45, Height: 40}}
	cfg := testConfig()
	cfg.StillFrames = 2
	p, err := newPipeline(cfg, tt.reg, tt.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.UseTerrain(tt.tc); err != nil {
		t.Fatal(err)
	}
	clock := 0
	frameOf := func(s *synth.Scene) gocv.Mat {
		cl, err := s.RenderClean()
		if err != nil {
			t.Fatal(err)
		}
		return imageMat(t, cl, s, 1, nil)
	}
	m := frameOf(tt.scene)
	snaps := runFrames(t, p, m, 4, &clock)
	if len(snaps) != 1 || len(snaps[0].Terrain) != 4 {
		t.Fatalf("the bare table: want a snapshot with 4 pieces: %+v", snaps)
	}
	h := frameOf(&withHand)
	// without the rule the arm cuts the piece in two
	raw := p.ter.reader.read(h, snaps[0].Models)
	if len(raw.terrain) <= 4 {
		t.Fatalf("the arm does not cut a piece (%d pieces read): the test shows nothing", len(raw.terrain))
	}
	snaps = runFrames(t, p, h, 6, &clock)
	h.Close()
	if len(snaps) == 0 {
		t.Fatal("no snapshot with the arm held still")
	}
	last := snaps[len(snaps)-1]
	if len(last.Terrain) != 4 || !hasWarning(last, "reads as") {
		t.Errorf("with the arm over a piece: %d pieces, warnings %v", len(last.Terrain), last.Warnings)
	}
	snaps = runFrames(t, p, m, 6, &clock)
	m.Close()
	if len(snaps) == 0 {
		t.Fatal("no snapshot after the arm went")
	}
	last = snaps[len(snaps)-1]
	if len(last.Terrain) != 4 || hasWarning(last, "reads as") {
		t.Errorf("after the arm went: %d pieces, warnings %v", len(last.Terrain), last.Warnings)
	}
}

// TestTerrainMemory: the table read bare first, then with its models
// deployed: the places where a base stands over a piece's corner or bend
// (unseen when the table is read with its models alone) are filled from
// the bare table's outlines, within the bound of the truth. A piece moved
// between the two frames (slid 2 or 10 mm, or turned 1° about the hidden
// corner) is not filled from memory: it keeps its unseen discs or reads
// where it is now, never where it was.
func TestTerrainMemory(t *testing.T) {
	tt := newTerrainTable(t, accuracyOptions(2304, 1296), 7300, terrainOptions())
	bare := renderMat(t, bareScene(tt.scene))
	defer bare.Close()
	m := renderMat(t, tt.scene)
	snaps, fresh := terrainSequence(t, tt, bare, m)
	m.Close()
	// the pieces a base hides part of, without memory
	type hiddenPiece struct {
		truth int
		discs []UnseenDisc
	}
	var hid []hiddenPiece
	nearestTruth := func(tr Terrain, truth []synth.TerrainPiece) int {
		best, bi := math.Inf(1), -1
		for j, tp := range truth {
			var ds []float64
			for _, q := range boundarySamples(vecs(tr.Outline), 4) {
				ds = append(ds, outlineDist(tp.Outline, q))
			}
			if d := geom.Percentile(ds, .5); d < best {
				best, bi = d, j
			}
		}
		return bi
	}
	for _, tr := range fresh {
		if len(tr.Unseen) > 0 {
			hid = append(hid, hiddenPiece{nearestTruth(tr, tt.scene.Terrain), tr.Unseen})
		}
	}
	if len(hid) < 3 {
		t.Fatalf("%d pieces with a base over a corner or bend: the test shows little", len(hid))
	}
	withMemory := snaps[1].Terrain
	if len(withMemory) != len(tt.scene.Terrain) {
		t.Fatalf("%d pieces read, %d on the table", len(withMemory), len(tt.scene.Terrain))
	}
	for _, tr := range withMemory {
		if len(tr.Unseen) > 0 {
			t.Errorf("%s: unseen discs %v kept though the bare table was read", tr.ID, tr.Unseen)
		}
	}
	// the outlines under the bases, against the truth
	var errs []float64
	within, n := 0, 0
	for _, h := range hid {
		tp := tt.scene.Terrain[h.truth]
		var read *Terrain
		for i := range withMemory {
			if nearestTruth(withMemory[i], tt.scene.Terrain) == h.truth {
				read = &withMemory[i]
			}
		}
		if read == nil {
			t.Fatalf("truth piece %d not read", h.truth)
		}
		near := nearestOn(*read)
		for _, q := range boundarySamples(tp.Outline, 1) {
			in := false
			for _, u := range h.discs {
				in = in || math.Hypot(q.X-u.X, q.Y-u.Y) <= u.R
			}
			if !in {
				continue
			}
			e, s := near(q)
			errs = append(errs, e)
			n++
			if e <= 2*s {
				within++
			}
		}
	}
	t.Logf("%d pieces with unseen places without memory; the true outline under the bases (%d points) is off the remembered one by p50 %.2f p95 %.2f max %.2f mm, %d within 2σ",
		len(hid), n, geom.Percentile(errs, .5), geom.Percentile(errs, .95), geom.Percentile(errs, 1), within)
	if p95 := geom.Percentile(errs, .95); p95 > 3 || float64(within) < 0.95*float64(n) {
		t.Errorf("under the bases: p95 %.2f mm (want ≤ 3), %d of %d within 2σ (want 95%%)", p95, within, n)
	}

	// a piece moved between the bare table and the models'
	h := hid[0]
	u := h.discs[0]
	for _, c := range []struct {
		name string
		move func(p geom.Vec2) geom.Vec2
	}{
		{"slid 2 mm", func(p geom.Vec2) geom.Vec2 { return p.Add(geom.Vec2{X: 1.6, Y: 1.2}) }},
		{"slid 10 mm", func(p geom.Vec2) geom.Vec2 { return p.Add(geom.Vec2{X: 6, Y: -8}) }},
		{"turned 1°", func(p geom.Vec2) geom.Vec2 {
			a := math.Pi / 180
			d := p.Sub(geom.Vec2{X: u.X, Y: u.Y})
			return geom.Vec2{X: u.X + d.X*math.Cos(a) - d.Y*math.Sin(a), Y: u.Y + d.X*math.Sin(a) + d.Y*math.Cos(a)}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			moved := *tt.scene
			moved.Terrain = slices.Clone(tt.scene.Terrain)
			piece := &moved.Terrain[h.truth]
			old := piece.Outline
			piece.Outline = nil
			for _, v := range old {
				piece.Outline = append(piece.Outline, c.move(v))
			}
			mm := renderMat(t, &moved)
			snaps, _ := terrainSequence(t, tt, bare, mm)
			mm.Close()
			var read *Terrain
			for i, tr := range snaps[1].Terrain {
				if nearestTruth(tr, moved.Terrain) == h.truth {
					read = &snaps[1].Terrain[i]
				}
			}
			if read == nil {
				t.Fatal("the moved piece is not read")
			}
			// the remembered outline is the old one: the read one must
			// keep its unseen discs, or be where the piece is now
			dNew, dOld := 0.0, 0.0
			qs := boundarySamples(vecs(read.Outline), 2)
			for _, q := range qs {
				dNew += outlineDist(piece.Outline, q) / float64(len(qs))
				dOld += outlineDist(old, q) / float64(len(qs))
			}
			t.Logf("%s: %d unseen discs; the read outline's mean distance from where the piece is %.2f mm, from where it was %.2f mm", c.name, len(read.Unseen), dNew, dOld)
			if len(read.Unseen) == 0 && dNew >= dOld {
				t.Errorf("the piece moved but its remembered outline was used")
			}
		})
	}
}
