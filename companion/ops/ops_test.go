package ops

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

func TestAllow(t *testing.T) {
	for _, tc := range []struct {
		allow  []string
		remote string
		want   bool
	}{
		{nil, "127.0.0.1:5000", true},
		{nil, "[::1]:5000", true},
		{nil, "192.168.1.20:5000", false},
		{nil, "[::ffff:127.0.0.1]:5000", true},
		{[]string{"10.0.0.0/8"}, "10.1.2.3:80", true},
		{[]string{"10.0.0.0/8"}, "127.0.0.1:80", false},
		{[]string{"192.168.1.5"}, "192.168.1.5:1", true},
		{[]string{"192.168.1.5"}, "192.168.1.6:1", false},
		{[]string{"fd00::/8"}, "[fd12::1]:9", true},
		{[]string{"10.0.0.0/8"}, "garbage", false},
	} {
		allow, err := ParseAllow(tc.allow)
		if err != nil {
			t.Fatal(err)
		}
		if tc.allow == nil {
			allow = Loopback
		}
		if got := allow.Permits(tc.remote); got != tc.want {
			t.Errorf("allow %v permits %s = %v, want %v", tc.allow, tc.remote, got, tc.want)
		}
	}
}

func TestAllowBadEntryNamesIt(t *testing.T) {
	_, err := ParseAllow([]string{"10.0.0.0/8", "10.0.0.0/99"})
	if err == nil || !strings.Contains(err.Error(), "[1]") || !strings.Contains(err.Error(), "10.0.0.0/99") {
		t.Fatalf("got %v, want an error naming entry [1]", err)
	}
}

func TestEndpoints(t *testing.T) {
	reg := prometheus.NewRegistry()
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "sztab_test_total", Help: "t"})
	reg.MustRegister(c)
	c.Inc()
	ready := &Readiness{}
	journal := false
	ready.Add("journal", true, func() bool { return journal })
	ready.Add("broker", false, func() bool { return false })
	var logs bytes.Buffer
	e := NewEndpoints(reg, ready, Allow{}, slog.New(slog.NewTextHandler(&logs, nil)))
	e.Allow, _ = ParseAllow([]string{"10.0.0.0/8"})
	get := func(path, remote string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		r.RemoteAddr = remote
		w := httptest.NewRecorder()
		e.Wrap(http.NotFoundHandler()).ServeHTTP(w, r)
		return w
	}
	for _, tc := range []struct {
		path, remote string
		code         int
		body         string
	}{
		{"/healthz", "192.0.2.1:1", 200, "ok"},
		{"/readyz", "192.0.2.1:1", 503, `"journal":false`},
		{"/metrics", "10.9.9.9:1", 200, "sztab_test_total 1"},
		{"/metrics", "192.0.2.1:1", 403, "192.0.2.1 is not in metrics.allow"},
		{"/metrics", "127.0.0.1:1", 403, "not in metrics.allow"},
		{"/other", "10.9.9.9:1", 404, ""},
	} {
		w := get(tc.path, tc.remote)
		if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.body) {
			t.Errorf("GET %s from %s: %d %q, want %d with %q", tc.path, tc.remote, w.Code, w.Body, tc.code, tc.body)
		}
	}
	journal = true
	if w := get("/readyz", "192.0.2.1:1"); w.Code != 200 || !strings.Contains(w.Body.String(), `"broker":false`) {
		t.Errorf("readyz with the journal open and no broker: %d %s, want 200 (the broker is not required)", w.Code, w.Body)
	}
	if w := get("/metrics", "10.9.9.9:1"); !strings.Contains(w.Body.String(), "sztab_scrapes_refused_total 2") {
		t.Errorf("refusals not counted:\n%s", w.Body)
	}
	if n := strings.Count(logs.String(), "scrape refused"); n != 2 {
		t.Errorf("refusals logged %d times, want once per address (2):\n%s", n, logs.String())
	}
	// A scan from many addresses: each counted, at most maxWarned logged
	// by name, then one line saying the rest are not.
	for i := range 2 * maxWarned {
		get("/metrics", fmt.Sprintf("[2001:db8::%x]:1", i))
	}
	if n := strings.Count(logs.String(), "scrape refused: the address"); n != maxWarned {
		t.Errorf("%d refused addresses logged by name, want %d", n, maxWarned)
	}
	if n := strings.Count(logs.String(), "further addresses"); n != 1 {
		t.Errorf("the line saying further addresses go unlogged came %d times, want once", n)
	}
	if len(e.warned) > maxWarned+1 {
		t.Errorf("%d refused hosts remembered, want at most %d", len(e.warned), maxWarned+1)
	}
}

func TestListenOnAPortInUseNamesTheAddress(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = Listen(l.Addr().String(), http.NotFoundHandler(), slog.Default())
	if err == nil || !strings.Contains(err.Error(), l.Addr().String()) {
		t.Fatalf("got %v, want an error naming %s", err, l.Addr())
	}
}

func TestBoundedLabels(t *testing.T) {
	b := Bounded{Max: 3}
	got := []string{}
	for _, v := range []string{"a", "b", "a", "c", "d", "e", "b", "", "x y\n"} {
		got = append(got, b.Value(v))
	}
	want := "a b a c other other b other other"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
	if v := (&Bounded{Max: 1}).Value(strings.Repeat("z", 100) + "\x00"); len(v) != 40 {
		t.Errorf("long value kept %d bytes, want 40", len(v))
	}
}

// fakeSystemd is a notify socket like systemd's: it records each datagram.
func fakeSystemd(t *testing.T, name string) (socket string, next func(time.Duration) (string, bool)) {
	t.Helper()
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return name, func(wait time.Duration) (string, bool) {
		buf := make([]byte, 4096)
		conn.SetReadDeadline(time.Now().Add(wait))
		n, err := conn.Read(buf)
		if err != nil {
			return "", false
		}
		return string(buf[:n]), true
	}
}

func TestNotifier(t *testing.T) {
	for _, tc := range []struct{ name, socket string }{
		{"path", filepath.Join(t.TempDir(), "notify")},
		{"abstract", fmt.Sprintf("@sztab-test-%d-%d", os.Getpid(), time.Now().UnixNano())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			socket, next := fakeSystemd(t, tc.socket)
			env := map[string]string{"NOTIFY_SOCKET": socket, "WATCHDOG_USEC": "2000000"}
			n := NewNotifier(func(k string) string { return env[k] }, 1, slog.Default())
			defer n.Close()
			if n.WatchdogInterval() != time.Second {
				t.Errorf("interval %v, want half of WATCHDOG_USEC (1s)", n.WatchdogInterval())
			}
			n.Ready("table t1\nplaying")
			n.Watchdog()
			n.Stopping()
			for _, want := range []string{"READY=1\nSTATUS=table t1 playing", "WATCHDOG=1", "STOPPING=1"} {
				got, ok := next(10 * time.Second)
				if !ok || got != want {
					t.Errorf("got %q (%v), want %q", got, ok, want)
				}
			}
		})
	}
}

func TestNotifierBadEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		warn string
	}{
		{"watchdog without socket", map[string]string{"WATCHDOG_USEC": "30000000"}, "NOTIFY_SOCKET is not"},
		{"watchdog not a number", map[string]string{"NOTIFY_SOCKET": "/nonexistent", "WATCHDOG_USEC": "soon"}, "not a positive number"},
		{"another process's watchdog", map[string]string{"NOTIFY_SOCKET": "/nonexistent", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "999999"}, ""},
		{"no systemd", map[string]string{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			n := NewNotifier(func(k string) string { return tc.env[k] }, 42, slog.New(slog.NewTextHandler(&logs, nil)))
			if n.WatchdogInterval() != 0 {
				t.Errorf("watchdog interval %v, want none", n.WatchdogInterval())
			}
			if tc.warn != "" && !strings.Contains(logs.String(), tc.warn) {
				t.Errorf("log %q, want a warning with %q", logs.String(), tc.warn)
			}
			if tc.warn == "" && logs.Len() > 0 {
				t.Errorf("unexpected log %q", logs.String())
			}
			n.Ready("x") // must not panic, socket or none
			n.Watchdog()
		})
	}
}

func TestNewLogger(t *testing.T) {
	for _, tc := range []struct {
		format, journal string
		json            bool
	}{
		{"auto", "", false}, {"auto", "8:1234", true}, {"text", "8:1234", false}, {"json", "", true},
	} {
		var out bytes.Buffer
		log, err := NewLogger(&out, tc.format, slog.LevelInfo, func(k string) string {
			if k == "JOURNAL_STREAM" {
				return tc.journal
			}
			return ""
		})
		if err != nil {
			t.Fatal(err)
		}
		log.Info("hello", "table", "t1")
		if got := strings.HasPrefix(out.String(), "{"); got != tc.json {
			t.Errorf("format %s, JOURNAL_STREAM %q: %q, want JSON %v", tc.format, tc.journal, out.String(), tc.json)
		}
	}
	if _, err := NewLogger(&bytes.Buffer{}, "xml", slog.LevelInfo, nil); err == nil || !strings.Contains(err.Error(), "--log-format") {
		t.Errorf("bad format: %v", err)
	}
}
