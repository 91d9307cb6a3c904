package companion_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/skirmishgame"
)

// A referee signed in on a screen stays signed in when the daemon restarts
// (a power cut must not lock the referee out mid-ruling); a key file that
// cannot be read is refused by name.
func TestScreensSessionSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	r := startServing(t, screenTable(t, dir, "127.0.0.1:0"), skirmishgame.Spec)
	addr := r.d.DisplayAddr()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm("http://"+addr+"/login", url.Values{"user": {"sedzia"}, "password": {"tajne"}, "next": {"/referee"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != "/referee" {
		t.Fatalf("sign-in redirected to %q", loc)
	}
	refereePage := func(addr string) int {
		t.Helper()
		resp, err := client.Get("http://" + addr + "/referee")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := refereePage(addr); code != http.StatusOK {
		t.Fatalf("signed-in referee page: %d", code)
	}
	r.stop(t)

	r = startServing(t, screenTable(t, dir, addr), skirmishgame.Spec)
	if code := refereePage(r.d.DisplayAddr()); code != http.StatusOK {
		t.Errorf("after a restart the referee page answered %d, want 200 (still signed in)", code)
	}
	r.stop(t)

	// A new referee password signs the old session out.
	cfg := screenTable(t, dir, addr)
	changed, err := companion.ParseConfig(cfg.Path(), []byte(strings.Replace(string(cfg.Raw()), "password: tajne", "password: nowe-haslo", 1)))
	if err != nil {
		t.Fatal(err)
	}
	r = startServing(t, changed, skirmishgame.Spec)
	if code := refereePage(r.d.DisplayAddr()); code != http.StatusSeeOther {
		t.Errorf("after the referee's password changed the old session got %d, want 303 (sign in again)", code)
	}
	r.stop(t)

	keyFile := filepath.Join(dir, "demo.journal.db.session-key")
	// A key file cut short is replaced (sessionkey_test.go); one that cannot
	// be read, here a directory, is refused.
	if err := os.Remove(keyFile); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(keyFile, 0o700); err != nil {
		t.Fatal(err)
	}
	d, err := companion.Open(context.Background(), screenTable(t, dir, "127.0.0.1:0"), companion.Options{
		Games: companion.Games{skirmishgame.Spec}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = d.Serve(ctx)
	d.Close()
	if err == nil || ctx.Err() != nil {
		t.Fatalf("an unreadable session key was accepted: %v", err)
	}
	if !strings.Contains(err.Error(), keyFile) {
		t.Errorf("error does not name the key file: %v", err)
	}
}
