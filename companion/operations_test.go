package companion

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/sztab/sztab/hardware"
)

// scrape reads a daemon's /metrics as metric families.
func scrape(t testing.TB, addr string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /metrics: %s %s", resp.Status, b)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value is a counter's, gauge's or histogram's count of the series of
// family name with the labels given as "k=v" pairs (all of them matching);
// -1 when there is no such series.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
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
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return -1
}

// series counts the series of the daemon's own families (sztab_…).
func series(fams map[string]*dto.MetricFamily) (int, map[string]int) {
	total, per := 0, map[string]int{}
	for name, f := range fams {
		if strings.HasPrefix(name, "sztab_") {
			per[name] = len(f.Metric)
			total += len(f.Metric)
		}
	}
	return total, per
}

// eventually polls cond until it holds or 30 s pass (generous: the suite
// runs under load).
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func get(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const metricsOnItsOwn = "mqtt:\n  listen: 127.0.0.1:0\nmetrics:\n  listen: 127.0.0.1:0\n"

// TestMetricsMoveWithTheTable: each kind of input moves its counter by
// exactly what was sent, the histograms get observations, and a thousand
// actions from a thousand differently named keypads add no series.
func TestMetricsMoveWithTheTable(t *testing.T) {
	d, stop := serveTally(t, t.TempDir(), metricsOnItsOwn, Options{})
	defer stop()
	addr := d.MetricsAddr()
	eventually(t, "ready", func() bool { c, _ := get(t, "http://"+addr+"/readyz"); return c == 200 })
	before := scrape(t, addr)
	if v := value(before, "sztab_build_info", "game=tally", "version="+Version); v != 1 {
		t.Errorf("sztab_build_info{game=tally} = %v, want 1", v)
	}

	for range 10 {
		key(d, "kp", "3")
	}
	key(d, "kp", "7")
	key(d, "kp", "7")
	key(d, "kp", "next")
	d.inputs <- Input{Tag: &hardware.TagEvent{Reader: "r1", Fault: &hardware.Fault{Kind: hardware.FaultGarbled}}}
	var after map[string]*dto.MetricFamily
	delta := func(name string, labels ...string) float64 {
		return value(after, name, labels...) - max(0, value(before, name, labels...))
	}
	want := []struct {
		name   string
		labels []string
		want   float64
	}{
		{"sztab_actions_accepted_total", []string{"action=add"}, 10},
		{"sztab_actions_refused_total", []string{"code=bad_die"}, 2},
		{"sztab_actions_refused_total", []string{"code=nothing_next"}, 1},
		{"sztab_sensor_events_total", []string{"device=kp", "kind=key"}, 13},
		{"sztab_sensor_events_total", []string{"device=r1", "kind=fault"}, 1},
		// 10 actions + 2 refusals + the binder's refusal + the fault, each one entry.
		{"sztab_journal_commit_seconds", nil, 14},
		{"sztab_rules_apply_seconds", nil, 12},
		{"sztab_journal_seq", nil, 14},
	}
	// Each counter moves after its own step (a binder's refusal is counted
	// once its notice is journaled), and one scrape is no snapshot: the
	// registry reads one family after another while the table goes on.
	// So wait until every counter has reached its figure, then check that
	// none went past it.
	var short string // the first counter short of its figure, for a timeout
	defer func() {
		if short != "" && t.Failed() {
			t.Logf("still short: %s", short)
		}
	}()
	eventually(t, "the table to take every input", func() bool {
		after, short = scrape(t, addr), ""
		for _, tc := range want {
			if got := delta(tc.name, tc.labels...); got < tc.want {
				short = fmt.Sprintf("%s%v has moved by %v of %v", tc.name, tc.labels, got, tc.want)
				return false
			}
		}
		return true
	})
	for _, tc := range want {
		if got := delta(tc.name, tc.labels...); got != tc.want {
			t.Errorf("%s%v moved by %v, want %v", tc.name, tc.labels, got, tc.want)
		}
	}
	eventually(t, "the broker's acknowledgements", func() bool {
		m := scrape(t, addr)
		return value(m, "sztab_publish_lag_seconds", "sink=mqtt") > 0 && value(m, "sztab_events_published_total") >= 14 &&
			value(m, "sztab_sink_queue_depth", "sink=mqtt") == 0 && value(m, "sztab_mqtt_connected") == 1
	})

	// A thousand actions from a thousand keypad names: the device label
	// stops at labelLimit values and the rest are "other".
	for i := range 1000 {
		key(d, fmt.Sprintf("kp-%d", i), fmt.Sprint(1+i%6))
	}
	var first map[string]*dto.MetricFamily
	eventually(t, "1,000 more actions", func() bool {
		first = scrape(t, addr)
		return value(first, "sztab_actions_accepted_total", "action=add") == 1011
	})
	n1, per := series(first)
	if got := per["sztab_sensor_events_total"]; got > labelLimit+1 {
		t.Errorf("sztab_sensor_events_total has %d series after 1,000 keypad names, want at most %d", got, labelLimit+1)
	}
	if value(first, "sztab_sensor_events_total", "device=other", "kind=key") <= 0 {
		t.Error("no device=\"other\" series: were the names bounded?")
	}
	for i := range 1000 {
		key(d, fmt.Sprintf("more-%d", i), fmt.Sprint(1+i%6))
	}
	var second map[string]*dto.MetricFamily
	eventually(t, "another 1,000 actions", func() bool {
		second = scrape(t, addr)
		return value(second, "sztab_actions_accepted_total", "action=add") == 2011
	})
	if n2, per2 := series(second); n2 != n1 || n1 > 150 {
		t.Errorf("series: %d after 1,000 actions, %d after 2,000 (want the same, and under 150):\n%v\n%v", n1, n2, per, per2)
	}
}

// TestReadyzBeforeAndAfterTheJournalOpens: the metrics' own listener
// answers before the journal is open, not ready; ready once the table takes
// input.
func TestReadyzBeforeAndAfterTheJournalOpens(t *testing.T) {
	var code int
	var body string
	d, stop := serveTally(t, t.TempDir(), metricsOnItsOwn, Options{beforeJournal: func(d *Daemon) {
		code, body = get(t, "http://"+d.MetricsAddr()+"/readyz")
	}})
	defer stop()
	if code != http.StatusServiceUnavailable || !strings.Contains(body, `"journal":false`) || !strings.Contains(body, `"ready":false`) {
		t.Errorf("readyz before the journal opened: %d %s, want 503 with journal false", code, body)
	}
	if c, b := get(t, "http://"+d.MetricsAddr()+"/healthz"); c != 200 || b != "ok\n" {
		t.Errorf("healthz: %d %q", c, b)
	}
	eventually(t, "readyz 200", func() bool {
		code, body = get(t, "http://"+d.MetricsAddr()+"/readyz")
		return code == 200
	})
	for _, want := range []string{`"ready":true`, `"journal":true`, `"game":true`, `"sensors":true`, `"broker":`} {
		if !strings.Contains(body, want) {
			t.Errorf("readyz %s lacks %s", body, want)
		}
	}
}

// notifySocket is a fake systemd: a unixgram socket in dir whose datagrams
// arrive, in order, on the returned channel.
func notifySocket(t *testing.T, dir string) (string, <-chan string) {
	t.Helper()
	path := filepath.Join(dir, "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan string, 1024)
	go func() {
		defer close(ch)
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			ch <- string(buf[:n])
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return path, ch
}

// await reads datagrams until one equals or starts with want.
func await(t *testing.T, ch <-chan string, want string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case m := <-ch:
			if m == want || strings.HasPrefix(m, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no %q from the daemon", want)
		}
	}
}

// TestWatchdogStopsWhenTheLoopIsBlocked: READY=1 once the table takes
// input, then WATCHDOG=1 pings; with the loop that accepts actions held in
// a test hook the pings stop, and they resume when it is let go.
func TestWatchdogStopsWhenTheLoopIsBlocked(t *testing.T) {
	dir := t.TempDir()
	socket, got := notifySocket(t, dir)
	env := map[string]string{"NOTIFY_SOCKET": socket, "WATCHDOG_USEC": "100000"} // a ping every 50 ms
	var hold sync.Mutex
	holding := false
	entered, release := make(chan struct{}), make(chan struct{})
	d, stop := serveTally(t, dir, "mqtt:\n  listen: 127.0.0.1:0\n", Options{
		Getenv: func(k string) string { return env[k] },
		beforeHandle: func() {
			hold.Lock()
			h := holding
			hold.Unlock()
			if !h {
				return
			}
			// A marker after every ping this loop sent before it wedged:
			// datagrams arrive in the order they were sent.
			c, err := net.Dial("unixgram", socket)
			if err == nil {
				c.Write([]byte("MARK"))
				c.Close()
			}
			close(entered)
			<-release
		},
	})
	defer stop()
	await(t, got, "READY=1")
	await(t, got, "WATCHDOG=1")
	await(t, got, "WATCHDOG=1")

	hold.Lock()
	holding = true
	hold.Unlock()
	key(d, "kp", "3")
	<-entered
	await(t, got, "MARK")
	// Twenty ping periods with the loop wedged: systemd would have killed
	// the daemon after two.
	quiet := time.After(20 * 50 * time.Millisecond)
wait:
	for {
		select {
		case m := <-got:
			t.Errorf("the daemon sent %q while its loop was blocked", m)
		case <-quiet:
			break wait
		}
	}
	hold.Lock()
	holding = false
	hold.Unlock()
	close(release)
	await(t, got, "WATCHDOG=1")
	eventually(t, "the held key taken", func() bool { return d.Seq() == 2 })
}

// TestBadOperationsInputKeepsTheTableRunning: a metrics port in use and a
// watchdog without a notify socket are logged clearly, and the table plays
// on.
func TestBadOperationsInputKeepsTheTableRunning(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tc := range []struct {
		name, config string
		env          map[string]string
		log          []string
	}{
		{"metrics port in use", "mqtt:\n  listen: 127.0.0.1:0\nmetrics:\n  listen: " + busy.Addr().String() + "\n", nil,
			[]string{"metrics: not served", "addr=" + busy.Addr().String(), "address already in use"}},
		{"watchdog without notify socket", "mqtt:\n  listen: 127.0.0.1:0\n", map[string]string{"WATCHDOG_USEC": "30000000"},
			[]string{"WATCHDOG_USEC is set but NOTIFY_SOCKET is not"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs syncBuffer
			d, stop := serveTally(t, t.TempDir(), tc.config, Options{Log: slog.New(slog.NewTextHandler(&logs, nil)),
				Getenv: func(k string) string { return tc.env[k] }})
			defer stop()
			key(d, "kp", "4")
			eventually(t, "the key taken", func() bool { return d.Seq() == 2 })
			for _, want := range tc.log {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("log lacks %q:\n%s", want, logs.String())
				}
			}
			if d.MetricsAddr() != "" && tc.name == "metrics port in use" {
				t.Errorf("metrics address %q with the port taken", d.MetricsAddr())
			}
		})
	}
}

// TestMetricsOnTheScreensListener: by default the metrics share the
// screens' listener and answer loopback only; an allow list without the
// scraper's address refuses it (403) while /healthz, /readyz and the table
// go on.
func TestMetricsOnTheScreensListener(t *testing.T) {
	for _, tc := range []struct {
		name, metrics string
		code          int
	}{
		{"default: loopback allowed", "", 200},
		{"allow list without loopback", "metrics:\n  listen: screens\n  allow: [10.0.0.0/8, 192.168.7.7]\n", 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, stop := serveTally(t, t.TempDir(), "mqtt:\n  listen: 127.0.0.1:0\ndisplay:\n  listen: 127.0.0.1:0\n"+tc.metrics, Options{})
			defer stop()
			base := "http://" + d.DisplayAddr()
			if c, b := get(t, base+"/metrics"); c != tc.code {
				t.Errorf("/metrics from 127.0.0.1: %d, want %d: %.200s", c, tc.code, b)
			} else if c == 200 && !strings.Contains(b, "sztab_build_info") {
				t.Errorf("/metrics lacks sztab_build_info: %.300s", b)
			} else if c == 403 && !strings.Contains(b, "127.0.0.1 is not in metrics.allow") {
				t.Errorf("refusal %q does not say why", b)
			}
			eventually(t, "readyz 200 on the screens' listener", func() bool { c, _ := get(t, base+"/readyz"); return c == 200 })
			if c, _ := get(t, base+"/healthz"); c != 200 {
				t.Errorf("healthz %d", c)
			}
			if c, _ := get(t, base+"/"); c != 200 {
				t.Errorf("the table screen: %d", c)
			}
			key(d, "kp", "5")
			eventually(t, "the key taken", func() bool { return d.Seq() == 2 })
		})
	}
}

func TestMetricsConfigErrors(t *testing.T) {
	base := "venue: v\ntable: t1\ngame: tally\ntags: tags.yaml\n"
	for _, tc := range []struct{ config, want string }{
		{"metrics:\n  listen: nonsense\n", "t.yaml:6: metrics.listen: \"nonsense\" is not an address"},
		{"metrics:\n  listen: \":99999\"\n", "t.yaml:6: metrics.listen: port \"99999\""},
		{"metrics:\n  listen: screens\n", "metrics.listen: \"screens\" shares the screens' listener, but display.listen is not set"},
		{"metrics:\n  listen: \":9464\"\n  allow: [10.0.0.0/8, bogus]\n", "t.yaml:7: metrics.allow[1]: \"bogus\" is not an address"},
		{"metrics:\n  lisen: \":9464\"\n", "t.yaml:6: unknown key \"lisen\""},
		{"display:\n  listen: \":8080\"\nmetrics:\n  listen: \":8080\"\n", "metrics.listen: \":8080\" is already the screens'"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
		_, err := ParseConfig(filepath.Join(dir, "t.yaml"), []byte(base+tc.config))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.config, err, tc.want)
		}
	}
}
