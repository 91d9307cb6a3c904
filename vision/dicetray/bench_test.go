package dicetray

import (
	"testing"

	"github.com/sztab/sztab/vision/synth"
)

// BenchmarkRead reads a 1280×960 tray of 20 dice (the figure beside
// vision's BenchmarkDiceTrayVsDetect, which holds it to the ArUco
// detection's time).
func BenchmarkRead(b *testing.B) {
	o := synth.DefaultTrayOptions(20)
	o.Cocked, o.Stacked, o.Touching, o.Coins = 2, 1, 3, 1
	o.Samples = 1
	tr, err := synth.RandomTray(o, 5000)
	if err != nil {
		b.Fatal(err)
	}
	f := frameOf(tr.Render())
	r, err := NewReader(Options{SidePx: tr.Truth()[0].SidePx, Parallax: tr.Parallax(16)})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Read(f); err != nil {
			b.Fatal(err)
		}
	}
}
