package skirmish

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkExactOverMonteCarlo measures the goal in one run: the
// exact 12-shot distribution (hit, d6 wounds, save, models killed) against a
// 100,000-run Monte Carlo of the same shot, interleaved so both see the same
// machine. The "exact/mc" metric must stay ≤ 0.01.
func BenchmarkExactOverMonteCarlo(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var exact, mc time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := benchSeq.Exact(&benchTarget); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := benchSeq.MonteCarlo(rng, &benchTarget, 100_000); err != nil {
			b.Fatal(err)
		}
		exact += t1.Sub(t0)
		mc += time.Since(t1)
	}
	b.ReportMetric(float64(exact)/float64(mc), "exact/mc")
}
