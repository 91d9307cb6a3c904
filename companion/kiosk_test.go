package companion

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// A display token in a table's config signs its screen in on the
// daemon's screens; deleted from the config, its session ends when the
// table restarts (the session key beside the journal stays the same).
func TestDisplayTokenOnTheDaemon(t *testing.T) {
	dir := t.TempDir()
	const token = "wall-6f1c0d2a9b8e47d3a5c1"
	base := "mqtt:\n  listen: 127.0.0.1:0\ndisplay:\n  listen: 127.0.0.1:0\n  referee: {user: sedzia, password: tajne}\n"
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(d *Daemon, path string, c *http.Cookie) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", "http://"+d.DisplayAddr()+path, nil)
		if c != nil {
			req.AddCookie(c)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	d, stop := serveTally(t, dir, base+"  displays:\n    - {name: wall, token: "+token+"}\n", Options{})
	resp, _ := get(d, "/kiosk/"+token, nil)
	var wall *http.Cookie
	for _, c := range resp.Cookies() {
		wall = c
	}
	if resp.StatusCode != http.StatusSeeOther || wall == nil {
		t.Fatalf("GET /kiosk/TOKEN: %d, cookie %v; want 303 and a session", resp.StatusCode, wall)
	}
	if resp, body := get(d, "/referee", wall); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "display wall") {
		t.Errorf("the display on /referee: %d, want 403 naming the display:\n%s", resp.StatusCode, body)
	}
	stop()

	d, stop = serveTally(t, dir, base, Options{})
	defer stop()
	if resp, _ := get(d, "/referee", wall); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Errorf("after the token's removal and a restart, /referee: %d to %q; want the sign-in form (no session)", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := get(d, "/kiosk/"+token, nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a removed token: %d, want 403", resp.StatusCode)
	}
}
