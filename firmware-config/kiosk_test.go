package firmwareconfig

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/display"
)

// desktopEntry reads the keys of a .desktop file's [Desktop Entry] group.
func desktopEntry(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys, group := map[string]string{}, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			group = line
		case group == "[Desktop Entry]":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("%s: %q is no key=value", path, line)
			}
			if _, dup := keys[k]; dup {
				t.Fatalf("%s: %s twice", path, k)
			}
			keys[k] = v
		default:
			t.Fatalf("%s: %q before [Desktop Entry]", path, line)
		}
	}
	return keys
}

// The shipped autostart file launches Chromium in kiosk mode at a token
// URL that the screens accept as it is written, once its token is listed
// in display.displays: signed in as a display, led to the public page.
func TestKioskAutostartFile(t *testing.T) {
	e := desktopEntry(t, "kiosk/sztab-kiosk.desktop")
	if e["Type"] != "Application" || e["Name"] == "" || e["X-GNOME-Autostart-enabled"] != "true" {
		t.Errorf("entry %v: want an Application with a Name, autostart enabled", e)
	}
	args := strings.Fields(e["Exec"])
	if len(args) < 2 || args[0] != "chromium-browser" {
		t.Fatalf("Exec %q: want chromium-browser and its flags", e["Exec"])
	}
	for _, flag := range []string{"--kiosk", "--noerrdialogs", "--disable-infobars", "--incognito"} {
		if !slices.Contains(args, flag) {
			t.Errorf("Exec lacks %s", flag)
		}
	}
	u, err := url.Parse(args[len(args)-1])
	if err != nil || u.Scheme != "https" || u.Host == "" {
		t.Fatalf("Exec's last word %q: want the table's https address (%v)", args[len(args)-1], err)
	}
	token, ok := strings.CutPrefix(u.Path, "/kiosk/")
	if !ok {
		t.Fatalf("URL %s: want /kiosk/TOKEN", u)
	}
	displays := []display.DisplayToken{{Name: "wall", Token: token}}
	if why := display.CheckDisplayTokens(displays); why != "" {
		t.Fatalf("the example token is not one a config takes: %s", why)
	}
	s := &display.Server{Feed: display.NewFeed(), Kind: "table", Displays: displays}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", u.RequestURI(), nil))
	resp := w.Result()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || len(resp.Cookies()) != 1 {
		t.Errorf("GET %s: %d to %q with %d cookies; want 303 to / with the display's session", u.RequestURI(), resp.StatusCode, resp.Header.Get("Location"), len(resp.Cookies()))
	}
}
