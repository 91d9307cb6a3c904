package companion_test

import (
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion/skirmishgame"
)

// BenchmarkBrowserUpdateLatency is the screens' speed goal: from an input
// reaching the daemon to the table screen in headless Chromium showing the new
// state (journal, views, SSE, drawing the skirmish panel with its odds chart).
// Each op is one die entered or taken back during a shot; the goal is a
// median of at most 100 ms (reported as median-ms).
func BenchmarkBrowserUpdateLatency(b *testing.B) {
	ctx := browser(b)
	r := startServing(b, screenTable(b, b.TempDir(), "127.0.0.1:0"), skirmishgame.Spec)
	defer r.stop(b)
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+r.d.DisplayAddr()+"/")); err != nil {
		b.Fatal(err)
	}
	deploy(b, r.d, 20)
	submit(b, r.d, key("next"))
	submit(b, r.d, tag("04A1B2C3"))
	submit(b, r.d, tag("04D4E5F6"))
	until(b, ctx, time.Now(), text("[data-testid=stage]", "(0/5)"))

	latencies := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		in, shows := key("3"), "(1/5)"
		if i%2 == 1 {
			in, shows = key("undo"), "(0/5)"
		}
		latencies = append(latencies, until(b, ctx, submit(b, r.d, in), text("[data-testid=stage]", shows)))
	}
	b.StopTimer()
	slices.Sort(latencies)
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(latencies[len(latencies)-1].Microseconds())/1000, "max-ms")
}
