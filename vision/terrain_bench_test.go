//go:build cgo

package vision

import (
	"testing"
	"time"

	"github.com/sztab/sztab/vision/geom"
)

// BenchmarkTerrainVsDetect is the cost bar for terrain: reading
// the terrain of a still table (12 pieces of cover, 2 templates, 2
// objectives, 40 models whose bases are filled) over OpenCV's default
// marker detection of the same frame, at 2304×1296, median over 40 frames
// (10 scenes × 4 noise draws), timed alternately: ≤ 0.5. The full
// pipeline's detection (every frame detected and placed) is reported
// beside it.
func BenchmarkTerrainVsDetect(b *testing.B) {
	for b.Loop() {
		var ratios, ratiosPipe, ter, raw, pipe []float64
		b.StopTimer()
		for i := 0; i < 10; i++ {
			o := accuracyOptions(2304, 1296)
			o.Samples = 1
			tt := newTerrainTable(b, o, 9000+uint64(100*i), terrainOptions())
			clean, err := tt.scene.RenderClean()
			if err != nil {
				b.Fatal(err)
			}
			det, err := newArucoDetector(tt.reg.Dict(), DefaultDetectorParams())
			if err != nil {
				b.Fatal(err)
			}
			tr, err := newTerrainReader(tt.tc, tt.cal, tt.reg, 0)
			if err != nil {
				b.Fatal(err)
			}
			cfg := testConfig()
			cfg.StillDiff = -1
			p, err := newPipeline(cfg, tt.reg, tt.cal, quietLog())
			if err != nil {
				b.Fatal(err)
			}
			var models []ModelPosition
			for _, m := range tt.scene.Models {
				spec, _ := tt.reg.Model(m.Marker)
				models = append(models, modelPosition(spec, geom.Vec2{X: m.X, Y: m.Y}, 0.3, false))
			}
			for k := 0; k < 4; k++ {
				m := matOf(b, clean.Finish(tt.scene.Noise, uint64(k)))
				runTerrain := func() time.Duration {
					t0 := time.Now()
					r := tr.read(m, models)
					d := time.Since(t0)
					if r.bad != "" || len(r.terrain) == 0 {
						b.Fatalf("terrain not read: %q", r.bad)
					}
					return d
				}
				runRaw := func() time.Duration {
					t0 := time.Now()
					if _, err := det.detect(m, geom.Vec2{}, nil); err != nil {
						b.Fatal(err)
					}
					return time.Since(t0)
				}
				runPipe := func() time.Duration {
					t0 := time.Now()
					if _, err := p.Process(m, time.Unix(int64(k), 0)); err != nil {
						b.Fatal(err)
					}
					return time.Since(t0)
				}
				b.StartTimer()
				var tt, tr, tp time.Duration
				if k%2 == 0 {
					tt, tr, tp = runTerrain(), runRaw(), runPipe()
				} else {
					tp, tr = runPipe(), runRaw()
					tt = runTerrain()
				}
				b.StopTimer()
				m.Close()
				ter, raw, pipe = append(ter, ms(tt)), append(raw, ms(tr)), append(pipe, ms(tp))
				ratios = append(ratios, ms(tt)/ms(tr))
				ratiosPipe = append(ratiosPipe, ms(tt)/ms(tp))
			}
			tr.Close()
			det.Close()
			p.Close()
		}
		b.StartTimer()
		b.ReportMetric(median(ratios), "terrain/detect")
		b.ReportMetric(median(ratiosPipe), "terrain/pipeline")
		b.ReportMetric(median(ter), "terrain-ms")
		b.ReportMetric(median(raw), "detect-ms")
		b.ReportMetric(median(pipe), "pipeline-ms")
		b.ReportMetric(float64(len(ratios)), "frames")
	}
}
