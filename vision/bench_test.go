//go:build cgo

package vision

import (
	"fmt"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchScenes renders scenes at w×h (one sample per pixel; blur and noise
// as in the accuracy frames) and hands each, with its calibration, to f.
func benchScenes(b *testing.B, w, h, n int, seed uint64, f func(s *synth.Scene, clean *synth.Clean, reg *Registry, cal *Calibration)) {
	o := accuracyOptions(w, h)
	o.Samples = 1
	reg := layoutRegistry(b, o.Layout)
	for i := 0; i < n; i++ {
		s, err := synth.Random(o, seed+uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		clean, err := s.RenderClean()
		if err != nil {
			b.Fatal(err)
		}
		f(s, clean, reg, truthCalibration(b, s, reg))
	}
}

func matOf(b testing.TB, im *synth.Image) gocv.Mat {
	m, err := gocv.NewMatFromBytes(im.Height, im.Width, gocv.MatTypeCV8UC3, im.BGR)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkPipelineVsDetect is the cost bar: the full pipeline
// (undistortion of the corners, detection, localisation, distances of all
// pairs of the 40 models) over OpenCV's detectMarkers alone on the same
// frames, median over 200 frames (50 scenes × 4 noise draws), ≤ 1.25.
// The two are timed alternately on each frame.
func BenchmarkPipelineVsDetect(b *testing.B) {
	for _, res := range [][2]int{{1920, 1080}, {2304, 1296}} {
		b.Run(fmt.Sprintf("%dx%d", res[0], res[1]), func(b *testing.B) {
			for b.Loop() {
				var ratios, raw, pipe []float64
				b.StopTimer()
				benchScenes(b, res[0], res[1], 50, 3000, func(s *synth.Scene, clean *synth.Clean, reg *Registry, cal *Calibration) {
					det, err := newArucoDetector(reg.Dict(), DefaultDetectorParams())
					if err != nil {
						b.Fatal(err)
					}
					defer det.Close()
					cfg := testConfig()
					cfg.StillDiff = -1 // every frame through detection
					cfg.Distances = DistancesAll
					p, err := newPipeline(cfg, reg, cal, quietLog())
					if err != nil {
						b.Fatal(err)
					}
					defer p.Close()
					for k := 0; k < 4; k++ {
						m := matOf(b, clean.Finish(s.Noise, uint64(k)))
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
							snap := Snapshot{}
							for _, o := range p.lastObs {
								snap.Models = append(snap.Models, modelPosition(o.Model, o.Pos, o.SigmaMM, false))
							}
							if d := snap.ModelDistances(cfg.KrokMM); len(d) != len(snap.Models)*(len(snap.Models)-1)/2 {
								b.Fatal("distances missing")
							}
							return time.Since(t0)
						}
						b.StartTimer()
						var tr, tp time.Duration
						if k%2 == 0 {
							tr, tp = runRaw(), runPipe()
						} else {
							tp, tr = runPipe(), runRaw()
						}
						b.StopTimer()
						m.Close()
						raw, pipe = append(raw, ms(tr)), append(pipe, ms(tp))
						ratios = append(ratios, ms(tp)/ms(tr))
					}
				})
				b.StartTimer()
				b.ReportMetric(median(ratios), "pipeline/detect")
				b.ReportMetric(median(raw), "detect-ms")
				b.ReportMetric(median(pipe), "pipeline-ms")
				b.ReportMetric(float64(len(ratios)), "frames")
			}
		})
	}
}

// BenchmarkStillTable: a frame of a table where nothing moved (new sensor
// noise only) costs the comparison with the last detected frame; its
// time over a full detection of the same frame, median over 200 frames
// (20 scenes × 10), should be ≤ 0.3.
func BenchmarkStillTable(b *testing.B) {
	for b.Loop() {
		var ratios, still, full []float64
		b.StopTimer()
		benchScenes(b, 2304, 1296, 20, 4000, func(s *synth.Scene, clean *synth.Clean, reg *Registry, cal *Calibration) {
			cfg := testConfig()
			fast, err := newPipeline(cfg, reg, cal, quietLog())
			if err != nil {
				b.Fatal(err)
			}
			defer fast.Close()
			cfg.StillDiff = -1
			slow, err := newPipeline(cfg, reg, cal, quietLog())
			if err != nil {
				b.Fatal(err)
			}
			defer slow.Close()
			for k := 0; k <= 10; k++ {
				m := matOf(b, clean.Finish(s.Noise, uint64(k)))
				b.StartTimer()
				t0 := time.Now()
				if _, err := fast.Process(m, time.Unix(int64(k), 0)); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := slow.Process(m, time.Unix(int64(k), 0)); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				b.StopTimer()
				m.Close()
				if k > 0 { // the first frame is detected by both
					still, full = append(still, ms(t1.Sub(t0))), append(full, ms(t2.Sub(t1)))
					ratios = append(ratios, ms(t1.Sub(t0))/ms(t2.Sub(t1)))
				}
			}
			if st := fast.Stats(); st.Detections != 1 {
				b.Errorf("a still table was detected %d times in 11 frames, want once", st.Detections)
			}
		})
		b.StartTimer()
		b.ReportMetric(median(ratios), "still/full")
		b.ReportMetric(median(still), "still-ms")
		b.ReportMetric(median(full), "full-ms")
		b.ReportMetric(float64(len(ratios)), "frames")
	}
}

// BenchmarkAccuracy measures the accuracy over more generated frames than
// TestAccuracy (40 × 40 models) and reports it.
func BenchmarkAccuracy(b *testing.B) {
	for b.Loop() {
		a := measureAccuracy(b, accuracyOptions(2304, 1296), 6000, 40)
		b.ReportMetric(geom.Percentile(a.centre, .95), "centre-p95-mm")
		b.ReportMetric(geom.Percentile(a.dist, .95), "distance-p95-mm")
		b.ReportMetric(a.recall(), "recall")
		b.ReportMetric(float64(a.falses), "false")
		b.ReportMetric(geom.Percentile(a.mmPerPx, .5), "mm/px")
		b.ReportMetric(a.distCover(), "within-bound")
		b.ReportMetric(geom.Percentile(a.bounds, .5), "bound-p50-mm")
	}
}
