package companion_test

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/ops"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/logbuf"
)

// lockedBuffer is a log written by the daemon's goroutines.
type lockedBuffer = logbuf.Buffer

func scrapeDemo(t *testing.T, addr string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// sum adds the values (a histogram's count) of the series of name whose
// labels include every "k=v" given; -1 when the family is missing.
func sum(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
	total := 0.0
next:
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		for _, kv := range labels {
			k, v, _ := strings.Cut(kv, "=")
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Histogram != nil:
			total += float64(m.Histogram.GetSampleCount())
		}
	}
	return total
}

// TestDemoMetricsAndSecretFreeLogs plays the whole demo against a venue
// broker with a password, with the screens and their logins, logging JSON
// at debug level; then checks that the metrics counted the script's inputs,
// that every log line names the venue, table and game, and that no
// configured password (nor the screens' session key) is in any log line.
func TestDemoMetricsAndSecretFreeLogs(t *testing.T) {
	const (
		mqttSecret    = "mqtt-Secret-4b9e1f"
		refereeSecret = "referee-Secret-7c21aa"
		aniaSecret    = "ania-Secret-03d5e8"
		bartekSecret  = "bartek-Secret-99f0b2"
	)
	var daemonLog, brokerLog lockedBuffer
	log, err := ops.NewLogger(&daemonLog, "json", slog.LevelDebug, nil)
	if err != nil {
		t.Fatal(err)
	}
	blog, _ := ops.NewLogger(&brokerLog, "json", slog.LevelDebug, nil)
	venue, err := companion.StartBroker("127.0.0.1:0", companion.BrokerUsers{
		Daemon: display.Credential{User: "stol-1", Password: mqttSecret}, Topics: wire.TopicsFor("demo", "stol-1")}, blog)
	if err != nil {
		t.Fatal(err)
	}
	defer venue.Close()

	dir := t.TempDir()
	section := fmt.Sprintf("mqtt:\n  broker: \"tcp://%s\"\n  username: stol-1\n  password: %q\nmetrics:\n  listen: \"127.0.0.1:0\"\n"+
		"display:\n  listen: \"127.0.0.1:0\"\n  referee: {user: sedzia, password: %q}\n  players:\n"+
		"    - {seat: 1, user: ania, password: %q}\n    - {seat: 2, user: bartek, password: %q}\n",
		venue.Addr(), mqttSecret, refereeSecret, aniaSecret, bartekSecret)
	cfg := demoConfig(t, dir, section, true)
	d, err := companion.Open(context.Background(), cfg, companion.Options{Games: companion.Games{skirmishgame.Spec}, SimSpeed: 0, Log: log,
		Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	sub := subscribe(t, venue.Addr())
	r := serve(d)
	sub.waitFor(t, "a state with two wounded grenadiers", func() bool { return twoGrenadiersWounded(sub) })
	sub.waitFor(t, "the answers to the demo's 16 keys", func() bool { return sub.count(wire.ResultType, "") >= 16 })

	// Sign-ins on the screens: a wrong guess, then the referee and a player.
	for end := time.Now().Add(20 * time.Second); d.DisplayAddr() == "" && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, up := range [][2]string{{"sedzia", "wrong-guess"}, {"sedzia", refereeSecret}, {"ania", aniaSecret}} {
		resp, err := noRedirect.PostForm("http://"+d.DisplayAddr()+"/login", url.Values{"user": {up[0]}, "password": {up[1]}, "next": {"/referee"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	// And a wrong password on the venue broker.
	bad := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + venue.Addr()).SetClientID("guess").SetUsername("stol-1").SetPassword("not-" + mqttSecret))
	if tok := bad.Connect(); tok.WaitTimeout(10*time.Second) && tok.Error() == nil {
		t.Error("the venue broker let a wrong password in")
	}

	var m map[string]*dto.MetricFamily
	sub.waitFor(t, "the metrics to count the demo", func() bool {
		m = scrapeDemo(t, d.MetricsAddr())
		return sum(m, "sztab_publish_lag_seconds", "sink=mqtt") > 0 && sum(m, "sztab_login_failures_total", "where=screens") == 1
	})
	// The script: 16 keys, 5 cards laid and lifted, one camera snapshot.
	for _, tc := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"sztab_sensor_events_total", []string{"kind=key"}, 16},
		{"sztab_sensor_events_total", []string{"kind=tag"}, 5},
		{"sztab_sensor_events_total", []string{"kind=untag"}, 5},
		{"sztab_sensor_events_total", []string{"kind=snapshot", "device=camera"}, 1},
		{"sztab_login_failures_total", []string{"where=screens"}, 1},
		{"sztab_mqtt_connected", nil, 1},
		{"sztab_build_info", []string{"game=skirmish", "version=" + companion.Version}, 1},
	} {
		if got := sum(m, tc.name, tc.labels...); got != tc.want {
			t.Errorf("%s%v = %v, want %v", tc.name, tc.labels, got, tc.want)
		}
	}
	seq := float64(d.Seq())
	if got := sum(m, "sztab_journal_commit_seconds"); got != seq {
		t.Errorf("journal commits observed %v, want one per entry (%v)", got, seq)
	}
	if got := sum(m, "sztab_actions_accepted_total"); got < 10 || got >= seq {
		t.Errorf("actions accepted %v, want at least the 10 of the script and fewer than the %v entries", got, seq)
	}
	if sum(m, "sztab_rules_apply_seconds") < sum(m, "sztab_actions_accepted_total") {
		t.Error("fewer rules timings than accepted actions")
	}
	for _, name := range []string{"sztab_camera_snapshot_age_seconds", "sztab_screens_clients", "sztab_fairness_flagged_dice",
		"sztab_sink_queue_depth", "sztab_events_published_total", "sztab_events_republished_total", "sztab_mqtt_reconnects_total",
		"sztab_journal_disk_free_bytes"} {
		if m[name] == nil {
			t.Errorf("no %s", name)
		}
	}
	r.stop(t)

	key, _ := os.ReadFile(filepath.Join(dir, cfg.Journal) + ".session-key")
	secrets := []string{mqttSecret, refereeSecret, aniaSecret, bartekSecret}
	if len(key) > 0 {
		secrets = append(secrets, hex.EncodeToString(key))
	}
	for name, text := range map[string]string{"daemon": daemonLog.String(), "broker": brokerLog.String()} {
		if len(text) == 0 {
			t.Errorf("the %s logged nothing: the test would prove nothing", name)
		}
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("the %s's log holds a secret %q:\n%s", name, s, text)
			}
		}
	}
	if !strings.Contains(daemonLog.String(), "failed sign-in") || !strings.Contains(brokerLog.String(), "wrong password") {
		t.Errorf("the logs lack the failed sign-ins the test made:\n%s\n%s", daemonLog.String(), brokerLog.String())
	}
	sc := bufio.NewScanner(strings.NewReader(daemonLog.String()))
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Errorf("not a JSON line: %s", sc.Text())
			continue
		}
		if rec["venue"] != "demo" || rec["table"] != "stol-1" || rec["game"] != "skirmish" {
			t.Errorf("a line without venue, table and game: %s", sc.Text())
		}
	}
	if lines < 3 {
		t.Errorf("only %d log lines", lines)
	}
}
