package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/sztab/sztab/companion
cpu: Some CPU
BenchmarkInputToSubscriber-2   	     300	   1323518 ns/op	         0.4490 bare-p99-ms	         4.521 p99-ms	         1.496 overhead-p99-ms
BenchmarkReplay10k-2           	     200	 155148084 ns/op	       2129.4 first-key-ms
PASS
pkg: github.com/sztab/sztab/rules/skirmish
BenchmarkExactOverMonteCarlo-2 	       3	 1 ns/op	         0.0010 exact/mc
`

func TestParseAndJudge(t *testing.T) {
	figs, m := parse(strings.NewReader(sample), "github.com/sztab/sztab")
	if m.CPU != "Some CPU" || m.GOOS != "linux" {
		t.Errorf("machine %+v", m)
	}
	figs, missing := judge(figs)
	got := map[string]Figure{}
	for _, f := range figs {
		got[f.Package+" "+f.Benchmark+" "+f.Metric] = f
	}
	for key, want := range map[string]bool{
		"companion BenchmarkInputToSubscriber p99-ms":          true,
		"companion BenchmarkInputToSubscriber overhead-p99-ms": false,
		"companion BenchmarkReplay10k first-key-ms":            false,
		"rules/skirmish BenchmarkExactOverMonteCarlo exact/mc": true,
	} {
		f, ok := got[key]
		if !ok || f.Met == nil || *f.Met != want {
			t.Errorf("%s: got %+v, want met=%v", key, f, want)
		}
	}
	if f := got["companion BenchmarkInputToSubscriber bare-p99-ms"]; f.Goal != nil || f.Value != 0.449 {
		t.Errorf("a figure without a goal: %+v", f)
	}
	if len(missing) == 0 || !strings.Contains(strings.Join(missing, ","), "BenchmarkBrowserUpdateLatency") {
		t.Errorf("missing %v, want the benchmarks that did not run", missing)
	}
	var md strings.Builder
	markdown(&md, Report{Figures: figs, Missing: missing})
	if !strings.Contains(md.String(), "| companion | BenchmarkReplay10k | first-key-ms | 2129 | ≤ 2000 | **no** |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}
