//go:build cgo

package vision

import (
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/dicetray"
	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// BenchmarkDiceTrayVsDetect is the bar for the dice reader:
// reading a tray of 20 dice (two cocked, one stack, three touching pairs)
// over one run of the pipeline's ArUco detectMarkers on the same frame
// (1280×960, a tray camera's view), median over 20 trays × 3 noise
// draws, ≤ 1. The two are timed alternately on each frame.
func BenchmarkDiceTrayVsDetect(b *testing.B) {
	dict, err := aruco.Lookup("4x4_100")
	if err != nil {
		b.Fatal(err)
	}
	det, err := newArucoDetector(dict, DefaultDetectorParams())
	if err != nil {
		b.Fatal(err)
	}
	defer det.Close()
	type tray struct {
		tr    *synth.Tray
		clean *synth.Clean
		side  float64
	}
	var trays []tray
	for k := 0; k < 20; k++ {
		o := synth.DefaultTrayOptions(20)
		o.Cocked, o.Stacked, o.Touching, o.Coins = 2, 1, 3, 1
		o.Samples = 1
		tr, err := synth.RandomTray(o, uint64(5000+k))
		if err != nil {
			b.Fatal(err)
		}
		trays = append(trays, tray{tr: tr, clean: tr.RenderClean(), side: tr.Truth()[0].SidePx})
	}
	b.ResetTimer()
	for b.Loop() {
		var ratios, read, detect []float64
		for _, t := range trays {
			r, err := dicetray.NewReader(dicetray.Options{SidePx: t.side, Parallax: t.tr.Parallax(16)})
			if err != nil {
				b.Fatal(err)
			}
			for k := 0; k < 3; k++ {
				b.StopTimer()
				im := t.clean.Finish(t.tr.Noise, uint64(k))
				m, err := gocv.NewMatFromBytes(im.Height, im.Width, gocv.MatTypeCV8UC3, im.BGR)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				runRead := func() time.Duration {
					t0 := time.Now()
					got, err := r.Read(dicetray.Frame{Width: im.Width, Height: im.Height, BGR: im.BGR})
					if err != nil || len(got.Dice) == 0 {
						b.Fatalf("tray read: %v, %d dice", err, len(got.Dice))
					}
					return time.Since(t0)
				}
				runDetect := func() time.Duration {
					t0 := time.Now()
					if _, err := det.detect(m, geom.Vec2{}, nil); err != nil {
						b.Fatal(err)
					}
					return time.Since(t0)
				}
				var tr, td time.Duration
				if k%2 == 0 {
					tr, td = runRead(), runDetect()
				} else {
					td, tr = runDetect(), runRead()
				}
				b.StopTimer()
				m.Close()
				b.StartTimer()
				read, detect = append(read, ms(tr)), append(detect, ms(td))
				ratios = append(ratios, ms(tr)/ms(td))
			}
		}
		b.ReportMetric(median(ratios), "tray/detect")
		b.ReportMetric(median(read), "tray-ms")
		b.ReportMetric(median(detect), "detect-ms")
		b.ReportMetric(float64(len(ratios)), "frames")
	}
}
