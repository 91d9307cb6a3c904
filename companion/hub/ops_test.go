package hub

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHubHealthAndMetrics: the wall's listener answers /healthz, /readyz
// (ready without the broker, which is reported) and /metrics (loopback by
// default), and counts the tables by status.
func TestHubHealthAndMetrics(t *testing.T) {
	h, err := New(Options{Broker: "tcp://127.0.0.1:1", Venue: "v", Listen: "127.0.0.1:0", Version: "9.9"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() { cancel(); <-done }()
	base := "http://" + h.Addr()
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	h.apply("sztab/v1/v/stol-1/status", []byte(`{"status":"online","game":"skirmish"}`))
	h.apply("sztab/v1/v/stol-2/status", []byte(`{"status":"offline"}`))
	h.apply("sztab/v1/v/stol-3/status", []byte(`{"status":"`+strings.Repeat("x", 500)+`"}`))
	h.apply("sztab/v1/v/stol-3/state", []byte(`not json`))
	for _, tc := range []struct {
		path string
		code int
		want []string
	}{
		{"/healthz", 200, []string{"ok"}},
		{"/readyz", 200, []string{`"listening":true`, `"broker":false`}},
		{"/metrics", 200, []string{`sztab_hub_tables{status="online"} 1`, `sztab_hub_tables{status="offline"} 1`,
			`sztab_hub_tables{status="unknown"} 1`, `sztab_hub_messages_total{kind="unreadable"} 1`, `sztab_mqtt_connected 0`,
			`version="9.9"`}},
	} {
		var code int
		var body string
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if code, body = get(tc.path); code == tc.code || time.Now().After(end) {
				break
			}
		}
		if code != tc.code {
			t.Errorf("GET %s: %d, want %d", tc.path, code, tc.code)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s lacks %s:\n%s", tc.path, w, body)
			}
		}
	}
}
