//go:build cgo

package dicetray

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU is the calling OS thread's CPU time (the goroutine locked to
// it): with OpenCV on one thread it is the reading's work, whatever else
// the machine runs.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLearned reads eight held-out real photographs (640×640) with
// the learned reader, OpenCV on one thread: ms a photo, wall and the
// thread's CPU (the ratio to an
// ArUco detection is vision's BenchmarkDiceTrayVsDetect).
func BenchmarkLearned(b *testing.B) {
	before := SetOpenCVThreads(1)
	b.Cleanup(func() { SetOpenCVThreads(before) })
	l, err := NewLearned(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	var frames []Frame
	for _, p := range realSplit(b, "test")[:8] {
		frames = append(frames, p.frame(b))
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var total, cpu time.Duration
	n := 0
	for b.Loop() {
		for _, f := range frames {
			t0, c0 := time.Now(), threadCPU(b)
			if _, err := l.Read(f); err != nil {
				b.Fatal(err)
			}
			total, cpu = total+time.Since(t0), cpu+threadCPU(b)-c0
			n++
		}
	}
	b.ReportMetric(float64(total)/float64(time.Millisecond)/float64(n), "ms/photo")
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/photo")
}
