package display

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// hostileNexts leave the site in some browser if echoed as a Location.
var hostileNexts = []string{
	"/\\evil.example/phish",
	"\\\\evil.example",
	"/\\/evil.example",
	"//evil.example",
	"///evil.example",
	"/\t/evil.example",
	"/\n/evil.example",
	"/\r\n/evil.example",
	"\t//evil.example",
	" //evil.example",
	"https://evil.example/",
	"http:evil.example",
	"javascript:alert(1)",
	"evil.example",
	"/%0a/evil.example\n",
	"/x\x00/evil",
	"/\x7f/evil",
	"/\u0085/evil",
	"/\xff/evil",
	"https:\\\\evil.example",
	"/login?next=//evil.example\\",
	"/" + strings.Repeat("a", maxNext),
}

// browserResolve resolves a Location the way a lenient browser does: tabs
// and newlines dropped, leading spaces and controls trimmed, "\" read as "/".
func browserResolve(base *url.URL, loc string) (*url.URL, error) {
	loc = strings.NewReplacer("\t", "", "\n", "", "\r", "", "\\", "/").Replace(loc)
	loc = strings.TrimLeftFunc(loc, func(r rune) bool { return r <= ' ' })
	return base.Parse(loc)
}

// sameOrigin says whether loc, followed from base, stays on base's origin.
func sameOrigin(base *url.URL, loc string) bool {
	u, err := browserResolve(base, loc)
	return err == nil && u.Scheme == base.Scheme && u.Host == base.Host && u.User == nil
}

func TestSafeNext(t *testing.T) {
	for _, next := range hostileNexts {
		t.Run(fmt.Sprintf("%.40q", next), func(t *testing.T) {
			if got := safeNext(next); got != "/" {
				t.Errorf("safeNext(%q): got %q, want /", next, got)
			}
		})
	}
	for _, next := range []string{"/", "/referee", "/player/2", "/player/1?big=1", "/a/b#c", "/%5Cx", "/ścieżka"} {
		t.Run(next, func(t *testing.T) {
			if got := safeNext(next); got != next {
				t.Errorf("safeNext(%q): got %q, want it kept", next, got)
			}
		})
	}
}

var nextField = regexp.MustCompile(`name="next" value="([^"]*)"`)

// Whatever next a link carries, every Location the sign-in answers with,
// and the form's hidden next, stay on the table's origin.
func TestLoginRedirectsStayOnTheOrigin(t *testing.T) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// start serves a fresh table (each case its own sign-in brake).
	start := func(t *testing.T) (*httptest.Server, *url.URL) {
		_, h, _ := testServer(t, newClock())
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		base, _ := url.Parse(srv.URL + "/login")
		return srv, base
	}
	formNext := func(t *testing.T, u string) string {
		t.Helper()
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		m := nextField.FindSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no next field in the form:\n%s", u, body)
		}
		return html.UnescapeString(string(m[1]))
	}
	check := func(t *testing.T, srv *httptest.Server, base *url.URL, what string, resp *http.Response) string {
		t.Helper()
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode != http.StatusSeeOther || !sameOrigin(base, loc) {
			t.Errorf("%s: got %d to %q, want 303 within %s", what, resp.StatusCode, loc, srv.URL)
		}
		return loc
	}
	for _, next := range hostileNexts {
		t.Run(fmt.Sprintf("%.40q", next), func(t *testing.T) {
			srv, base := start(t)
			for _, pass := range []string{"zle", "tajne"} {
				resp, err := client.PostForm(srv.URL+"/login", url.Values{"user": {"sedzia"}, "password": {pass}, "next": {next}})
				if err != nil {
					t.Fatal(err)
				}
				loc := check(t, srv, base, "sign-in with password "+pass, resp)
				if pass == "zle" {
					// Back to the form, which keeps next on the origin too.
					if !strings.HasPrefix(loc, "/login?failed&next=") {
						t.Fatalf("a wrong password: got Location %q, want the form again", loc)
					}
					if got := formNext(t, srv.URL+loc); got != "/" {
						t.Errorf("the form behind %q holds next %q, want /", loc, got)
					}
				} else if loc != "/" {
					t.Errorf("signed in: got Location %q, want /", loc)
				}
			}
			if got := formNext(t, srv.URL+"/login?next="+url.QueryEscape(next)); got != "/" {
				t.Errorf("the form for next %q holds %q, want /", next, got)
			}
		})
	}
	t.Run("the redirect to the form escapes next", func(t *testing.T) {
		srv, base := start(t)
		resp, err := client.Get(srv.URL + "/player/1")
		if err != nil {
			t.Fatal(err)
		}
		if loc := check(t, srv, base, "seat 1 signed out", resp); loc != "/login?next=%2Fplayer%2F1" {
			t.Errorf("got Location %q, want /login?next=%%2Fplayer%%2F1", loc)
		}
		resp, err = client.PostForm(srv.URL+"/login", url.Values{"user": {"ania"}, "password": {"zle"}, "next": {"/player/1?big=1&x=/\\y"}})
		if err != nil {
			t.Fatal(err)
		}
		if loc := check(t, srv, base, "wrong password", resp); loc != "/login?failed&next=%2F" {
			t.Errorf("got Location %q, want /login?failed&next=%%2F", loc)
		}
		resp, err = client.PostForm(srv.URL+"/login", url.Values{"user": {"ania"}, "password": {"zle"}, "next": {"/player/1?big=1&lang=en"}})
		if err != nil {
			t.Fatal(err)
		}
		loc := check(t, srv, base, "wrong password", resp)
		if got := formNext(t, srv.URL+loc); got != "/player/1?big=1&lang=en" {
			t.Errorf("the form behind %q holds next %q, want /player/1?big=1&lang=en (one value, not split at &)", loc, got)
		}
	})
}

// FuzzSafeNext: whatever safeNext returns is a path of this origin, and the
// sign-in form's address carries it intact.
func FuzzSafeNext(f *testing.F) {
	for _, s := range append(hostileNexts, "/", "/referee", "/player/1?big=1", "/a#b", "/..//x", "/.%2e/x") {
		f.Add(s)
	}
	base, _ := url.Parse("https://table.local:8443/login")
	f.Fuzz(func(t *testing.T, next string) {
		got := safeNext(next)
		if got != "/" && got != next {
			t.Fatalf("safeNext(%q) = %q, want the input or /", next, got)
		}
		if !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") || strings.ContainsAny(got, "\\\t\r\n") {
			t.Fatalf("safeNext(%q) = %q, not a same-origin path", next, got)
		}
		if !sameOrigin(base, got) {
			t.Fatalf("safeNext(%q) = %q leaves %s", next, got, base.Host)
		}
		// What http.Redirect makes of it stays too.
		w := httptest.NewRecorder()
		http.Redirect(w, httptest.NewRequest("GET", "/login", nil), got, http.StatusSeeOther)
		if loc := w.Header().Get("Location"); !sameOrigin(base, loc) {
			t.Fatalf("safeNext(%q) = %q: Location %q leaves %s", next, got, loc, base.Host)
		}
		u, err := url.Parse(loginURL(next, true))
		if err != nil || u.Query().Get("next") != got {
			t.Fatalf("loginURL(%q) = %q does not carry %q: %v", next, loginURL(next, true), got, err)
		}
	})
}
