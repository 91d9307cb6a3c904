// Command benchreport turns the output of `go test -bench` into one report,
// Markdown and JSON, with every figure beside its goal and the machine it
// ran on. `make bench` runs it:
//
//	go test -run '^$' -bench . ./... | go run ./scripts/benchreport -out test-artifacts/bench
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Goal is a limit on one metric of one benchmark.
type Goal struct {
	Package, Benchmark, Metric string
	// Max is the largest value that meets the goal; Strict makes it "<".
	Max    float64
	Strict bool
	// What says what the figure measures.
	What string
}

// goals are the project's performance goals; README's Performance section
// explains each.
var goals = []Goal{
	{"rules/skirmish", "BenchmarkExactOverMonteCarlo", "exact/mc", 0.01, false, "exact odds of a 12-shot vs a 100,000-run Monte Carlo"},
	{"vision", "BenchmarkPipelineVsDetect", "pipeline/detect", 1.25, false, "full camera pipeline ÷ raw ArUco detection"},
	{"vision", "BenchmarkStillTable", "still/full", 0.3, false, "a still table ÷ full detection"},
	{"vision", "BenchmarkMovingTable", "pipeline/detect", 0.33, false, "a moving table (a model moved, an arm in view) ÷ OpenCV's default detection, 2304×1296"},
	{"rules/west1920", "BenchmarkSupply", "ns/op", 1e6, true, "How the West was Saved: supply and depot networks of the whole map after an action, < 1 ms"},
	{"rules/west1920", "BenchmarkReplay", "ns/op", 1e9, true, "How the West was Saved: a full 14-stage game replayed, < 1 s"},
	{"vision", "BenchmarkAccuracy", "centre-p95-mm", 2, false, "model centre error p95"},
	{"vision", "BenchmarkDiceTrayVsDetect", "tray/detect", 1, false, "reading a tray of 20 dice ÷ one ArUco detection on the same frame"},
	{"vision", "BenchmarkAccuracy", "distance-p95-mm", 2, false, "base-to-base distance error p95"},
	{"companion", "BenchmarkBrowserUpdateLatency", "median-ms", 100, false, "a die entered → the table screen in Chromium, median"},
	{"companion", "BenchmarkInputToSubscriber", "p99-ms", 50, true, "a key on the table → the new state at an MQTT subscriber, p99, journal synced"},
	{"companion", "BenchmarkInputToSubscriber", "overhead-p99-ms", 1, false, "what the daemon adds beyond the journal commit and a bare paho round trip, p99"},
	{"companion", "BenchmarkReplay10k", "first-key-ms", 2000, false, "start on a journal of 10,000 entries → the first key taken"},
	{"companion/venueload", "BenchmarkVenueLoadMosquitto", "venue/bare", 1.5, false, "100 tables × 10 retained QoS 1 states/s through Mosquitto: publish → the venue hub applied it, p99 ÷ a bare paho subscriber's p99 in the same run"},
	{"companion/venueload", "BenchmarkVenueLoadMosquitto", "lost", 0, false, "acknowledged QoS 1 states the venue hub never got (100 tables × 10/s, Mosquitto)"},
	{"companion/venueload", "BenchmarkVenueWallSpectators", "dropped-streams", 0, false, "spectators' wall streams the hub closed, 2,000 streams while 100 tables publish 10 states/s"},
}

// Figure is one metric of one benchmark run.
type Figure struct {
	Package   string   `json:"package"`
	Benchmark string   `json:"benchmark"`
	Metric    string   `json:"metric"`
	Value     float64  `json:"value"`
	Goal      *float64 `json:"goal,omitempty"`
	Strict    bool     `json:"strict,omitempty"`
	Met       *bool    `json:"met,omitempty"`
	What      string   `json:"what,omitempty"`
}

// Report is the whole run.
type Report struct {
	When    time.Time `json:"when"`
	Machine Machine   `json:"machine"`
	Figures []Figure  `json:"figures"`
	// Missing are goals whose benchmark did not run.
	Missing []string `json:"missing,omitempty"`
}

// Machine is what the benchmarks ran on.
type Machine struct {
	GOOS, GOARCH, CPU string
	Cores             int
	Go                string
}

// parse reads `go test -bench` output: "pkg: …" lines and benchmark lines
// of value-unit pairs.
func parse(r io.Reader, module string) ([]Figure, Machine) {
	var figs []Figure
	var m Machine
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimPrefix(strings.TrimPrefix(line, "pkg: "), module+"/")
		case strings.HasPrefix(line, "cpu: "):
			m.CPU = strings.TrimSpace(strings.TrimPrefix(line, "cpu: "))
		case strings.HasPrefix(line, "goos: "):
			m.GOOS = strings.TrimPrefix(line, "goos: ")
		case strings.HasPrefix(line, "goarch: "):
			m.GOARCH = strings.TrimPrefix(line, "goarch: ")
		case strings.HasPrefix(line, "Benchmark"):
			f := strings.Fields(line)
			if len(f) < 4 {
				continue
			}
			name := f[0]
			if i := strings.LastIndex(name, "-"); i > 0 {
				if _, err := strconv.Atoi(name[i+1:]); err == nil {
					name = name[:i]
				}
			}
			for i := 2; i+1 < len(f); i += 2 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					break
				}
				figs = append(figs, Figure{Package: pkg, Benchmark: name, Metric: f[i+1], Value: v})
			}
		}
	}
	return figs, m
}

// judge puts each goal beside its figure; a benchmark run several times
// (-count) is judged by its worst run.
func judge(figs []Figure) ([]Figure, []string) {
	var missing []string
	for _, g := range goals {
		found := false
		for i := range figs {
			f := &figs[i]
			if f.Package != g.Package || !strings.HasPrefix(f.Benchmark, g.Benchmark) || f.Metric != g.Metric {
				continue
			}
			found = true
			max, met := g.Max, f.Value <= g.Max
			if g.Strict {
				met = f.Value < g.Max
			}
			f.Goal, f.Strict, f.Met, f.What = &max, g.Strict, &met, g.What
		}
		if !found {
			missing = append(missing, g.Package+" "+g.Benchmark+" "+g.Metric)
		}
	}
	sort.SliceStable(figs, func(i, j int) bool { return figs[i].Goal != nil && figs[j].Goal == nil })
	return figs, missing
}

func markdown(w io.Writer, r Report) {
	fmt.Fprintf(w, "# Sztab benchmarks, %s\n\n", r.When.Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(w, "Machine: %s, %d cores, %s/%s, %s.\n\n", r.Machine.CPU, r.Machine.Cores, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.Go)
	fmt.Fprintln(w, "| package | benchmark | metric | value | goal | met | what |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, f := range r.Figures {
		goal, met := "", ""
		if f.Goal != nil {
			op := "≤"
			if f.Strict {
				op = "<"
			}
			goal = fmt.Sprintf("%s %g", op, *f.Goal)
			met = "yes"
			if !*f.Met {
				met = "**no**"
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %.4g | %s | %s | %s |\n", f.Package, f.Benchmark, f.Metric, f.Value, goal, met, f.What)
	}
	for _, m := range r.Missing {
		fmt.Fprintf(w, "\nNot run: %s.\n", m)
	}
}

func main() {
	out := flag.String("out", "test-artifacts/bench", "report path without extension (.md and .json are written)")
	module := flag.String("module", "github.com/sztab/sztab", "module path to strip from package names")
	flag.Parse()
	tee := io.TeeReader(os.Stdin, os.Stdout)
	figs, m := parse(tee, *module)
	m.Cores, m.Go = runtime.NumCPU(), runtime.Version()
	if m.GOOS == "" {
		m.GOOS, m.GOARCH = runtime.GOOS, runtime.GOARCH
	}
	figs, missing := judge(figs)
	r := Report{When: time.Now(), Machine: m, Figures: figs, Missing: missing}
	if err := os.MkdirAll(dirOf(*out), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	j, _ := json.MarshalIndent(r, "", "  ")
	if err := os.WriteFile(*out+".json", j, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	var md strings.Builder
	markdown(&md, r)
	if err := os.WriteFile(*out+".md", []byte(md.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	fmt.Print("\n" + md.String())
	fmt.Printf("\nbenchreport: wrote %s.md and %s.json\n", *out, *out)
}

func dirOf(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return "."
}
