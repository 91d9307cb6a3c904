package companion

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/hardware"
)

// TestMonitoringFilesUseRealMetrics: the Grafana dashboard, the alert rules
// and the Prometheus example in firmware-config/monitoring parse, the file
// discovery example gives each table its venue and table labels, and every
// sztab_ metric they name is one a daemon or the hub exports.
func TestMonitoringFilesUseRealMetrics(t *testing.T) {
	const dir = "../firmware-config/monitoring/"
	d, stop := serveTally(t, t.TempDir(), "mqtt:\n  listen: 127.0.0.1:0\ndisplay:\n  listen: 127.0.0.1:0\nmetrics:\n  listen: 127.0.0.1:0\n", Options{})
	defer stop()
	// The label vectors appear once they have a series.
	key(d, "kp", "9")
	d.inputs <- Input{Tag: &hardware.TagEvent{Reader: "r", Fault: &hardware.Fault{Kind: hardware.FaultGarbled}}}
	exported := map[string]bool{}
	eventually(t, "a refusal and a fault counted", func() bool {
		fams := scrape(t, d.MetricsAddr())
		for n := range fams {
			exported[n] = true
		}
		return value(fams, "sztab_device_faults_total", "device=r") == 1 && value(fams, "sztab_actions_refused_total") == 1
	})
	// A scrape is no snapshot (one family after another while the table
	// goes on): one more, now both inputs are counted, for a family read
	// just before its first series in the last.
	for n := range scrape(t, d.MetricsAddr()) {
		exported[n] = true
	}
	h, err := hub.New(hub.Options{Broker: "tcp://127.0.0.1:1", Venue: "v"})
	if err != nil {
		t.Fatal(err)
	}
	hubFams, err := h.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range hubFams {
		exported[f.GetName()] = true
	}

	read := func(name string) []byte {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(read("grafana-dashboard.json"), &dash); err != nil {
		t.Fatalf("grafana-dashboard.json: %v", err)
	}
	var exprs []string
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, q := range p.Targets {
			exprs = append(exprs, q.Expr)
		}
	}
	var alerts struct {
		Groups []struct {
			Rules []struct {
				Alert string `yaml:"alert"`
				Expr  string `yaml:"expr"`
			} `yaml:"rules"`
		} `yaml:"groups"`
	}
	if err := yaml.Unmarshal(read("alerts.yml"), &alerts); err != nil {
		t.Fatalf("alerts.yml: %v", err)
	}
	names := map[string]bool{}
	for _, g := range alerts.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" || r.Expr == "" {
				t.Errorf("alert rule %+v lacks a name or an expression", r)
			}
			names[r.Alert] = true
			exprs = append(exprs, r.Expr)
		}
	}
	for _, want := range []string{"SztabTableOffline", "SztabJournalCommitSlow", "SztabCameraSnapshotStale", "SztabDeviceFaults", "SztabDiskAlmostFull"} {
		if !names[want] {
			t.Errorf("alerts.yml lacks %s", want)
		}
	}
	if !strings.Contains(string(read("alerts.yml")), "> 0.05") || !strings.Contains(string(read("alerts.yml")), "> 30") {
		t.Error("alerts.yml: the issue's thresholds (commit p99 50 ms, snapshot 30 s) are not there")
	}
	metric := regexp.MustCompile(`\bsztab_[a-z0-9_]+`)
	var unknown []string
	for _, e := range exprs {
		for _, m := range metric.FindAllString(e, -1) {
			base := m
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if b, ok := strings.CutSuffix(m, suffix); ok && exported[b] {
					base = b
				}
			}
			if !exported[base] {
				unknown = append(unknown, m)
			}
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("the monitoring files name metrics nobody exports: %v", unknown)
	}

	var prom struct {
		RuleFiles     []string `yaml:"rule_files"`
		ScrapeConfigs []struct {
			JobName     string                     `yaml:"job_name"`
			FileSD      []struct{ Files []string } `yaml:"file_sd_configs"`
			MetricsPath string                     `yaml:"metrics_path"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(read("prometheus.yml"), &prom); err != nil {
		t.Fatalf("prometheus.yml: %v", err)
	}
	found := false
	for _, sc := range prom.ScrapeConfigs {
		if sc.JobName == "sztab-tables" && len(sc.FileSD) > 0 && sc.FileSD[0].Files[0] == "tables/*.yml" {
			found = true
		}
	}
	if !found || len(prom.RuleFiles) == 0 || prom.RuleFiles[0] != "alerts.yml" {
		t.Errorf("prometheus.yml: want job sztab-tables with file_sd_configs on tables/*.yml and rule_files alerts.yml: %+v", prom)
	}
	var targets []struct {
		Targets []string          `yaml:"targets"`
		Labels  map[string]string `yaml:"labels"`
	}
	if err := yaml.Unmarshal(read("tables/klub-pod-wieza.yml"), &targets); err != nil {
		t.Fatalf("tables/klub-pod-wieza.yml: %v", err)
	}
	for _, tg := range targets {
		if len(tg.Targets) != 1 || tg.Labels["venue"] == "" || tg.Labels["table"] == "" {
			t.Errorf("file_sd entry %+v: want one target with venue and table labels", tg)
		}
	}
}
