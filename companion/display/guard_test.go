package display

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sztab/sztab/companion/wire"
)

// The state-changing requests, each as its own page sends it, with what it
// answers when let through.
func stateChanging(t *testing.T, h http.Handler, base string) []struct {
	name string
	req  func() *http.Request
	ok   int
} {
	referee := signIn(t, h, "sedzia", "tajne")
	withCookie := func(r *http.Request) *http.Request { r.AddCookie(referee); return r }
	return []struct {
		name string
		req  func() *http.Request
		ok   int
	}{
		{"login", func() *http.Request {
			r := httptest.NewRequest("POST", base+"/login", strings.NewReader(url.Values{"user": {"sedzia"}, "password": {"tajne"}}.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		}, http.StatusSeeOther},
		{"logout", func() *http.Request { return withCookie(httptest.NewRequest("POST", base+"/logout", nil)) }, http.StatusSeeOther},
		{"referee/command", func() *http.Request {
			r := withCookie(httptest.NewRequest("POST", base+"/referee/command", strings.NewReader(`{"name":"next"}`)))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, http.StatusAccepted},
		{"command", func() *http.Request {
			r := withCookie(httptest.NewRequest("POST", base+"/command", strings.NewReader(`{"name":"next","id":"p-1"}`)))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, http.StatusAccepted},
		{"client-error", func() *http.Request {
			r := httptest.NewRequest("POST", base+"/client-error", strings.NewReader(`{"page":"/","error":"x"}`))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, http.StatusNoContent},
	}
}

func TestStateChangingRequestsComeFromOwnPages(t *testing.T) {
	headers := []struct {
		name        string
		tls         bool
		site        string
		origin      *string
		wantRefused bool
	}{
		{"no browser headers (curl)", false, "", nil, false},
		{"same-origin", false, "same-origin", ptr("http://table.local:8080"), false},
		{"typed by the user", false, "none", nil, false},
		{"Origin with a trailing slash", false, "", ptr("http://table.local:8080/"), false},
		{"cross-site", false, "cross-site", ptr("http://evil.example"), true},
		{"cross-site without Origin", false, "cross-site", nil, true},
		{"same-site: another port of the table", false, "same-site", ptr("http://table.local:8090"), true},
		{"an old browser: foreign Origin only", false, "", ptr("http://evil.example"), true},
		{"Origin on another port", false, "", ptr("http://table.local:8090"), true},
		{"Origin null", false, "", ptr("null"), true},
		{"Origin empty", false, "", ptr(""), true},
		{"Origin https to an http server", false, "", ptr("https://table.local:8080"), true},
		{"TLS: same-origin", true, "same-origin", ptr("https://table.local:8080"), false},
		{"TLS: Origin http", true, "", ptr("http://table.local:8080"), true},
	}
	for _, hd := range headers {
		scheme := "http"
		if hd.tls {
			scheme = "https"
		}
		var commands atomic.Int32
		s, h, logs := testServer(t, newClock())
		s.Command = func(Audience, wire.Command) error { commands.Add(1); return nil }
		for _, sc := range stateChanging(t, h, scheme+"://table.local:8080") {
			t.Run(hd.name+"/"+sc.name, func(t *testing.T) {
				r := sc.req()
				if hd.site != "" {
					r.Header.Set("Sec-Fetch-Site", hd.site)
				}
				if hd.origin != nil {
					r.Header.Set("Origin", *hd.origin)
				}
				before := commands.Load()
				resp := do(h, r, "192.0.2.10:40000")
				if !hd.wantRefused {
					if resp.StatusCode != sc.ok {
						t.Errorf("got %d, want %d", resp.StatusCode, sc.ok)
					}
					return
				}
				if resp.StatusCode != http.StatusForbidden {
					t.Errorf("got %d, want 403", resp.StatusCode)
				}
				if len(resp.Cookies()) != 0 || commands.Load() != before {
					t.Errorf("a refused request changed something: cookies %v, commands %d → %d", resp.Cookies(), before, commands.Load())
				}
				if !strings.Contains(logs.String(), `msg="display: cross-origin request refused" path=/`+sc.name) {
					t.Errorf("the refusal is not logged:\n%s", logs)
				}
			})
		}
	}
}

func ptr(s string) *string { return &s }

// A ruling is JSON: a form or text/plain body (what another site's page can
// send without asking) is refused before it is read.
func TestRefereeCommandWantsJSON(t *testing.T) {
	tests := []struct {
		contentType string
		want        int
	}{
		{"application/json", http.StatusAccepted},
		{"application/json; charset=utf-8", http.StatusAccepted},
		{"", http.StatusUnsupportedMediaType},
		{"text/plain", http.StatusUnsupportedMediaType},
		{"text/plain; x=application/json", http.StatusUnsupportedMediaType},
		{"application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"multipart/form-data; boundary=x", http.StatusUnsupportedMediaType},
	}
	for _, tt := range tests {
		t.Run(tt.contentType, func(t *testing.T) {
			var got []wire.Command
			s, h, _ := testServer(t, newClock())
			s.Command = func(_ Audience, c wire.Command) error { got = append(got, c); return nil }
			r := httptest.NewRequest("POST", "/referee/command", strings.NewReader(`{"name":"next"}`))
			r.AddCookie(signIn(t, h, "sedzia", "tajne"))
			if tt.contentType != "" {
				r.Header.Set("Content-Type", tt.contentType)
			}
			resp := do(h, r, "")
			if resp.StatusCode != tt.want {
				t.Errorf("got %d, want %d", resp.StatusCode, tt.want)
			}
			if ran := len(got) == 1; ran != (tt.want == http.StatusAccepted) {
				t.Errorf("got commands %v, want the command run only when accepted", got)
			}
		})
	}
}

func reportError(h http.Handler, remote, body string) int {
	r := httptest.NewRequest("POST", "/client-error", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return do(h, r, remote).StatusCode
}

// Anyone may report a page's failure, but reports cannot flood the log: a
// few per address, a few more from all together, each one short line.
func TestClientErrorsAreBoundedAndRateLimited(t *testing.T) {
	countLogged := func(logs *logBuffer) int { return strings.Count(logs.String(), "a page failed to render") }
	// What app.js sends at most: 2,000 characters of the error.
	big, _ := json.Marshal(map[string]string{"page": "/referee\nFAKE LOG LINE", "error": strings.Repeat("zażółć\n\x1b[31m", 170)})
	report := string(big)

	t.Run("one address", func(t *testing.T) {
		clock := newClock()
		_, h, logs := testServer(t, clock)
		codes := map[int]int{}
		for range 1000 {
			codes[reportError(h, "198.51.100.7:1", report)]++
		}
		if n := countLogged(logs); n != clientErrorBurst || codes[http.StatusNoContent] != clientErrorBurst || codes[http.StatusTooManyRequests] != 1000-clientErrorBurst {
			t.Errorf("1000 reports: got %d logged and answers %v, want %d logged, the rest 429", n, codes, clientErrorBurst)
		}
		clock.Add(clientErrorEvery)
		if got := reportError(h, "198.51.100.7:1", report); got != http.StatusNoContent {
			t.Errorf("after %v: got %d, want 204", clientErrorEvery, got)
		}
		if !strings.Contains(logs.String(), "reports_dropped=995") {
			t.Errorf("the log does not count the dropped reports:\n%s", logs)
		}
		for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			if !strings.HasPrefix(line, "time=") || len(line) > 700 || strings.Contains(line, "\x1b") {
				t.Errorf("a log line is not one short clean line (%d bytes): %q", len(line), line)
			}
		}
		if !strings.Contains(logs.String(), `zażółć\n\x1b[31m`) {
			t.Errorf("the report is not in the log, escaped:\n%s", logs)
		}
	})
	t.Run("many addresses", func(t *testing.T) {
		_, h, logs := testServer(t, newClock())
		for i := range 1000 {
			reportError(h, fmt.Sprintf("10.0.%d.%d:1", i/256, i%256), report)
		}
		if n := countLogged(logs); n != clientErrorGlobalBurst {
			t.Errorf("1000 reports from 1000 addresses: got %d logged, want %d", n, clientErrorGlobalBurst)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		_, h, logs := testServer(t, newClock())
		r := httptest.NewRequest("POST", "/client-error", strings.NewReader("TypeError: x"))
		if got := do(h, r, "").StatusCode; got != http.StatusUnsupportedMediaType || countLogged(logs) != 0 {
			t.Errorf("a text/plain report: got %d and %d logged, want 415 and none", got, countLogged(logs))
		}
	})
}

func TestLogText(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"sedzia", 64, "sedzia"},
		{"a\nb\r\x1b[0m\x00", 64, `a\nb\r\x1b[0m\x00`},
		{"zażółć", 64, "zażółć"},
		{"\xff\xfe", 64, `\xff\xfe`},
		{"żółw", 2, "ż…"},
		{"żółw", 3, "ż…"},
		{strings.Repeat("x", 10), 4, "xxxx…"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := logText(tt.in, tt.n); got != tt.want {
				t.Errorf("logText(%q, %d): got %q, want %q", tt.in, tt.n, got, tt.want)
			}
		})
	}
}
