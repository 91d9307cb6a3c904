//go:build cgo && matprofile

package vision

import (
	"bytes"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/synth"
)

// TestNoMatLeakTerrain runs 300 frames through a pipeline reading terrain
// (still stretches, terrain-only snapshots, unlit frames, a reload of the
// reader, calibration samples) and closes it: no live Mat.
func TestNoMatLeakTerrain(t *testing.T) {
	before := gocv.MatProfile.Count()
	tt := newTerrainTable(t, smallTerrainOptions(), 8300, synth.TerrainOptions{Pieces: 4, Templates: 1, Objectives: 1})
	cfg := testConfig()
	cfg.StillFrames = 2
	p, err := newPipeline(cfg, tt.reg, tt.cal, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.UseTerrain(tt.tc); err != nil {
		t.Fatal(err)
	}
	s2 := *tt.scene
	s2.Discs = append(append([]synth.Disc(nil), tt.scene.Discs...), freeDisc(t, tt.scene, synth.DiscTemplate, 76))
	var cleans []*synth.Clean
	for _, s := range []*synth.Scene{tt.scene, &s2} {
		c, err := s.RenderClean()
		if err != nil {
			t.Fatal(err)
		}
		cleans = append(cleans, c)
	}
	snaps := 0
	for i := 0; i < 300; i++ {
		k := (i / 20) % 2
		var f func(b, g, r float64) (float64, float64, float64)
		if i%100 == 50 {
			f = func(b, g, r float64) (float64, float64, float64) { return 0.05 * b, 0.05 * g, 0.05 * r }
		}
		m := imageMat(t, cleans[k], tt.scene, uint64(i), f)
		s, err := p.Process(m, time.Unix(int64(i), 0))
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		if s != nil {
			snaps++
		}
		if i == 150 {
			if err := p.UseTerrain(tt.tc); err != nil {
				t.Fatal(err)
			}
			m := imageMat(t, cleans[0], tt.scene, 1, nil)
			if _, err := TerrainSamplesOf(m, tt.cal, tt.reg, 0, map[string][4]float64{ClassLight: {10, 10, 30, 30}}); err != nil {
				t.Fatal(err)
			}
			m.Close()
		}
	}
	if snaps < 5 || p.ter.reads < 5 {
		t.Errorf("the run did not do what it should: %d snapshots, %d terrain reads", snaps, p.ter.reads)
	}
	p.Close()
	if n := gocv.MatProfile.Count() - before; n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("%d Mats alive:\n%s", n, b.String())
	}
}
