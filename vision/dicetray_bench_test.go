//go:build cgo

package vision

import (
	"errors"
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
// draws, ≤ 1. The two are timed alternately on each frame, OpenCV on one
// thread for both (oneOpenCVThread). The reader is the camera's
// (dicetray.Open, the learned one); tray-classical-ms is the pure-Go
// classical reader's time on the same frames.
func BenchmarkDiceTrayVsDetect(b *testing.B) {
	oneOpenCVThread(b)
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
		var ratios, read, detect, classical []float64
		found := 0
		for _, t := range trays {
			opt := dicetray.Options{SidePx: t.side, Parallax: t.tr.Parallax(16)}
			r, err := dicetray.Open(opt)
			if err != nil {
				b.Fatal(err)
			}
			cr, err := dicetray.NewReader(opt)
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
					if err != nil && !errors.Is(err, dicetray.ErrNoDieSize) {
						b.Fatalf("tray read: %v", err)
					}
					found += len(got.Dice)
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
				t0 := time.Now()
				if _, err := cr.Read(dicetray.Frame{Width: im.Width, Height: im.Height, BGR: im.BGR}); err != nil {
					b.Fatal(err)
				}
				classical = append(classical, ms(time.Since(t0)))
				b.StopTimer()
				m.Close()
				b.StartTimer()
				read, detect = append(read, ms(tr)), append(detect, ms(td))
				ratios = append(ratios, ms(tr)/ms(td))
			}
			r.Close()
		}
		b.ReportMetric(median(ratios), "tray/detect")
		b.ReportMetric(median(read), "tray-ms")
		b.ReportMetric(median(detect), "detect-ms")
		b.ReportMetric(median(classical), "tray-classical-ms")
		b.ReportMetric(float64(len(ratios)), "frames")
		b.ReportMetric(float64(found)/float64(len(ratios)), "dice-found")
	}
}

// oneOpenCVThread runs OpenCV's parallel loops on one thread for the
// benchmark (both sides of its ratio), as a Raspberry Pi's core budget
// for the camera would, and restores the count after.
func oneOpenCVThread(b *testing.B) {
	before := dicetray.SetOpenCVThreads(1)
	b.Cleanup(func() { dicetray.SetOpenCVThreads(before) })
}
