package display

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/logbuf"
	"github.com/sztab/sztab/internal/testclock"
)

// fakeClock is a clock a test moves by hand.
type fakeClock = testclock.Clock

func newClock() *fakeClock { return testclock.New(time.Date(2026, 8, 1, 18, 0, 0, 0, time.UTC)) }

// logBuffer collects a server's log lines.
type logBuffer = logbuf.Buffer

var testKey = []byte("0123456789abcdef0123456789abcdef")

// testServer is a table's screens with a referee (sedzia/tajne) and two
// players (ania/a1, bartek/b2), on a clock the test moves.
func testServer(t testing.TB, clock *fakeClock) (*Server, http.Handler, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	s := &Server{
		Feed: NewFeed(), Kind: "table",
		Referee: Credential{User: "sedzia", Password: "tajne"},
		Players: []PlayerCredential{
			{Seat: 1, Credential: Credential{User: "ania", Password: "a1"}},
			{Seat: 2, Credential: Credential{User: "bartek", Password: "b2"}},
		},
		Log:        slog.New(slog.NewTextHandler(logs, nil)),
		SessionKey: testKey,
		Clock:      clock.Now,
		Command:    func(Audience, wire.Command) error { return nil },
		Commands:   wire.Vocabulary{{Name: "next", From: wire.Anyone}},
	}
	return s, s.Handler(), logs
}

// do serves one request from remote (host:port) and returns the response.
func do(h http.Handler, r *http.Request, remote string) *http.Response {
	if remote != "" {
		r.RemoteAddr = remote
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func loginRequest(user, pass, next string) *http.Request {
	form := url.Values{"user": {user}, "password": {pass}}
	if next != "" {
		form.Set("next", next)
	}
	r := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

// signIn signs in through the form and returns the session cookie.
func signIn(t testing.TB, h http.Handler, user, pass string) *http.Cookie {
	t.Helper()
	resp := do(h, loginRequest(user, pass, "/"), "192.0.2.10:40000")
	for _, c := range resp.Cookies() {
		if c.Name == cookieName && c.Value != "" {
			return c
		}
	}
	body, _ := io.ReadAll(resp.Body)
	t.Fatalf("signing in as %s: got %d and no session cookie, want one\n%s", user, resp.StatusCode, body)
	return nil
}

// get asks for path with cookie (if any) and returns the status.
func get(h http.Handler, path string, c *http.Cookie) int {
	r := httptest.NewRequest("GET", path, nil)
	if c != nil {
		r.AddCookie(c)
	}
	return do(h, r, "192.0.2.10:40000").StatusCode
}
