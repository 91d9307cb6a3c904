package display

import (
	"bufio"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

const (
	wallToken = "wall-0123456789abcdef0123"
	tvToken   = "tv_abcdefghijklmnopqrstuv"
)

// kioskServer is testServer with two displays, a wall and a TV.
func kioskServer(t testing.TB, clock *fakeClock) (*Server, http.Handler, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	s, _, _ := testServer(t, clock)
	s.Log = slog.New(slog.NewTextHandler(logs, nil))
	s.Displays = []DisplayToken{{Name: "wall", Token: wallToken}, {Name: "tv-bar", Token: tvToken}}
	return s, s.Handler(), logs
}

// kioskCookie opens path (a token URL) and returns where it leads and the
// session cookie it sets.
func kioskCookie(t testing.TB, h http.Handler, path string) (*http.Response, *http.Cookie) {
	t.Helper()
	resp := do(h, httptest.NewRequest("GET", path, nil), "192.0.2.20:40000")
	for _, c := range resp.Cookies() {
		if c.Name == cookieName && c.Value != "" {
			return resp, c
		}
	}
	return resp, nil
}

func body(resp *http.Response) string {
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// A display's token URL signs it in and leads to the public page without
// the token; the session opens what the public sees and nothing more.
func TestDisplayTokenOpensThePublicViewOnly(t *testing.T) {
	clock := newClock()
	s, h, logs := kioskServer(t, clock)
	for _, path := range []string{"/kiosk/" + wallToken, "/?display=" + tvToken} {
		t.Run(path[:7], func(t *testing.T) {
			resp, c := kioskCookie(t, h, path)
			if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || c == nil {
				t.Fatalf("GET %s: %d to %q, cookie %v; want 303 to / with a session", path, resp.StatusCode, resp.Header.Get("Location"), c)
			}
			if !c.HttpOnly || c.MaxAge <= 0 {
				t.Errorf("display cookie %+v: want HttpOnly and a lifetime that survives the browser's restart", c)
			}
			a, ok := s.session(c.Value)
			if _, viewer := viewerName(a); !ok || !viewer {
				t.Fatalf("session %q %v: want a viewer", a, ok)
			}
			public := do(h, httptest.NewRequest("GET", "/", nil), "192.0.2.30:40000")
			r := httptest.NewRequest("GET", "/", nil)
			r.AddCookie(c)
			signed := do(h, r, "192.0.2.20:40000")
			if pb, sb := body(public), body(signed); sb != pb || signed.StatusCode != 200 {
				t.Errorf("the display's / (%d) differs from the public's:\n%s\n---\n%s", signed.StatusCode, sb, pb)
			}
			for _, p := range []string{"/referee", "/player/1", "/player/2", "/stream?view=referee", "/stream?view=player/1"} {
				if code := get(h, p, c); code != http.StatusForbidden {
					t.Errorf("display GET %s: %d, want 403", p, code)
				}
			}
			for _, p := range []string{"/command", "/referee/command"} {
				r := httptest.NewRequest("POST", p, strings.NewReader(`{"name":"next"}`))
				r.Header.Set("Content-Type", "application/json")
				r.AddCookie(c)
				if resp := do(h, r, "192.0.2.20:40000"); resp.StatusCode != http.StatusForbidden {
					t.Errorf("display POST %s: %d, want 403", p, resp.StatusCode)
				}
			}
			r = httptest.NewRequest("GET", "/referee", nil)
			r.AddCookie(c)
			if b := body(do(h, r, "")); !strings.Contains(b, "public view only") || strings.Contains(b, "id=\"password\"") {
				t.Errorf("display on /referee: want a page naming the display and no password prompt:\n%s", b)
			}
		})
	}
	assertNoToken(t, logs)
}

// The live stream a display gets is, byte for byte, the public one, and
// not the referee's.
func TestDisplayStreamIsThePublicStream(t *testing.T) {
	s, _, _ := kioskServer(t, newClock())
	s.Clock = nil
	s.Heartbeat = 20e6
	s.Feed.SetMeta([]byte(`{"table":"t01"}`))
	s.Feed.SetState(Public, []byte(`{"score":"1:0"}`))
	s.Feed.SetState(Referee, []byte(`{"score":"1:0","hidden":"army list"}`))
	s.Feed.AddEvent(Public, []byte(`{"text":"public event"}`))
	s.Feed.AddEvent(Referee, []byte(`{"text":"referee event"}`))
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	first := func(c *http.Cookie, view string) string {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+"/stream"+view, nil)
		if c != nil {
			req.AddCookie(c)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			return resp.Status
		}
		var b strings.Builder
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil || line == "event: ping\n" {
				return b.String()
			}
			b.WriteString(line)
		}
	}
	_, c := kioskCookie(t, s.Handler(), "/kiosk/"+wallToken)
	public, viewer, referee := first(nil, ""), first(c, ""), first(signIn(t, s.Handler(), "sedzia", "tajne"), "?view=referee")
	if viewer != public || !strings.Contains(public, "public event") {
		t.Errorf("display's stream:\n%s\nwant the public one:\n%s", viewer, public)
	}
	if viewer == referee || strings.Contains(viewer, "army list") || strings.Contains(viewer, "referee event") {
		t.Errorf("display's stream holds the referee's view:\n%s", viewer)
	}
	if got := first(c, "?view=referee"); !strings.Contains(got, "403") {
		t.Errorf("display's referee stream: %s, want 403", got)
	}
}

// A wrong token is refused with a page that says so; failures are braked
// as wrong passwords are; the token never reaches the log.
func TestWrongDisplayTokenIsRefused(t *testing.T) {
	clock := newClock()
	_, h, logs := kioskServer(t, clock)
	wrong := "wall-0123456789abcdef0124"
	for i := range DefaultBackoffFree {
		path := "/kiosk/" + wrong
		if i%2 == 1 {
			path = "/?display=" + wrong
		}
		resp, c := kioskCookie(t, h, path)
		b := body(resp)
		if resp.StatusCode != http.StatusForbidden || c != nil || !strings.Contains(b, "Unknown display token") || !strings.Contains(b, "Nieznany token ekranu") {
			t.Fatalf("attempt %d, GET %s: %d, cookie %v:\n%s\nwant 403, no session and a page in Polish and English", i+1, path, resp.StatusCode, c, b)
		}
	}
	resp, _ := kioskCookie(t, h, "/kiosk/"+wallToken)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("after %d wrong tokens: %d, want 429 with Retry-After even for the right one", DefaultBackoffFree, resp.StatusCode)
	}
	// Another address is not locked out.
	other := do(h, httptest.NewRequest("GET", "/kiosk/"+tvToken, nil), "198.51.100.7:5000")
	if other.StatusCode != http.StatusSeeOther {
		t.Errorf("another address: %d, want 303", other.StatusCode)
	}
	if !strings.Contains(logs.String(), "unknown display token") {
		t.Errorf("no log line for the wrong token:\n%s", logs)
	}
	assertNoToken(t, logs, wrong)
}

// A token removed from (or changed in) the config ends its sessions at
// their next request, although the key is the same.
func TestRemovedDisplayTokenEndsItsSessions(t *testing.T) {
	clock := newClock()
	s, h, _ := kioskServer(t, clock)
	_, wall := kioskCookie(t, h, "/kiosk/"+wallToken)
	_, tv := kioskCookie(t, h, "/kiosk/"+tvToken)
	s.Displays = s.Displays[1:] // the wall's line deleted
	if a, ok := s.session(wall.Value); ok {
		t.Errorf("a removed display's session still works as %q", a)
	}
	if _, ok := s.session(tv.Value); !ok {
		t.Error("the other display's session ended too")
	}
	s.Displays[0].Token = "tv_changed0123456789abcdef"
	if _, ok := s.session(tv.Value); ok {
		t.Error("a display whose token changed keeps its session")
	}
	resp, c := kioskCookie(t, h, "/kiosk/"+wallToken)
	if resp.StatusCode != http.StatusForbidden || c != nil {
		t.Errorf("removed token: %d, cookie %v; want 403 and none", resp.StatusCode, c)
	}
	// A viewer cookie signed for a display, not from its token, cannot
	// be made from a player's password either.
	if _, ok := s.session(s.sign(Audience("display/nobody"))); ok {
		t.Error("a display missing from the config signs in")
	}
}

func assertNoToken(t *testing.T, logs *logBuffer, more ...string) {
	t.Helper()
	for _, tok := range append([]string{wallToken, tvToken}, more...) {
		if strings.Contains(logs.String(), tok) || strings.Contains(logs.String(), tok[:12]) {
			t.Errorf("the log holds a display token:\n%s", logs)
		}
	}
}

func TestCheckDisplayTokens(t *testing.T) {
	ok := DisplayToken{Name: "wall", Token: wallToken}
	for _, c := range []struct {
		name string
		ds   []DisplayToken
		want string
	}{
		{"none", nil, ""},
		{"two", []DisplayToken{ok, {Name: "tv-1", Token: tvToken}}, ""},
		{"short token", []DisplayToken{{Name: "wall", Token: "abc"}}, "the token must be 20 to 128"},
		{"token with a space", []DisplayToken{{Name: "wall", Token: "abcdefghij klmnopqrstu"}}, "the token must be"},
		{"token with an ampersand", []DisplayToken{{Name: "wall", Token: "abcdefghij&klmnopqrstu"}}, "the token must be"},
		{"no name", []DisplayToken{{Token: wallToken}}, `name ""`},
		{"name with a slash", []DisplayToken{{Name: "a/b", Token: wallToken}}, "want 1 to 32 of a-z"},
		{"name twice", []DisplayToken{ok, {Name: "wall", Token: tvToken}}, "listed twice"},
		{"token twice", []DisplayToken{ok, {Name: "tv", Token: wallToken}}, "the same token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := CheckDisplayTokens(c.ds)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("CheckDisplayTokens = %q, want %q", got, c.want)
			}
		})
	}
}

// Whatever a client puts where a token goes, only a listed token signs in,
// as its own display; nothing panics and the log never repeats it.
func FuzzDisplayToken(f *testing.F) {
	for _, s := range []string{wallToken, tvToken, "", wallToken + "x", wallToken[:len(wallToken)-1], "%00", "a\r\nb", strings.Repeat("a", 200), "../referee"} {
		f.Add(s)
	}
	s, h, _ := kioskServer(f, newClock())
	s.Backoff = &Backoff{Free: 1 << 30}
	try := func(token string) (*http.Response, string) {
		logs := &logBuffer{}
		s.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.RawQuery = "display=" + url.QueryEscape(token)
		return do(h, r, "192.0.2.40:1"), logs.String()
	}
	_, baseline := try("-")
	f.Fuzz(func(t *testing.T, token string) {
		resp, logs := try(token)
		var got Audience
		for _, c := range resp.Cookies() {
			if c.Name == cookieName {
				a, ok := s.session(c.Value)
				if !ok {
					t.Fatalf("token %q: a cookie that does not verify", token)
				}
				got = a
			}
		}
		want := map[string]Audience{wallToken: "display/wall", tvToken: "display/tv-bar"}[token]
		if got != want {
			t.Fatalf("token %q signs in as %q, want %q", token, got, want)
		}
		if len(token) >= 4 && strings.Contains(logs, token) && !strings.Contains(baseline, token) {
			t.Fatalf("token %q in the log:\n%s", token, logs)
		}
	})
}
