package companion_test

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/skirmishgame"
)

// withDisplay is cfg with lines added at the top of its display section.
func withDisplay(t *testing.T, cfg *companion.Config, lines string) (string, error) {
	t.Helper()
	text := strings.Replace(string(cfg.Raw()), "display:\n", "display:\n"+lines, 1)
	_, err := companion.ParseConfig(cfg.Path(), []byte(text))
	return text, err
}

// lineOf is the 1-based line of the first line of text holding s.
func lineOf(text, s string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	return 0
}

func TestDisplayTLSConfigErrorsNameFileLineAndKey(t *testing.T) {
	dir := t.TempDir()
	writeTestPKI(t, dir)
	cfg := screenTable(t, dir, "127.0.0.1:0")
	tests := []struct {
		name, lines, want, at string
	}{
		{"certificate without key", "  tls: {cert_file: server.pem}\n", "display.tls: cert_file and key_file go together", "tls:"},
		{"key without certificate", "  tls:\n    key_file: server.key\n", "display.tls: cert_file and key_file go together", "key_file"},
		{"missing certificate", "  tls:\n    cert_file: none.pem\n    key_file: server.key\n", "display.tls.cert_file: stat " + filepath.Join(dir, "none.pem"), "none.pem"},
		{"missing key", "  tls:\n    cert_file: server.pem\n    key_file: none.key\n", "display.tls.key_file: stat", "none.key"},
		{"key of another certificate", "  tls: {cert_file: ca.pem, key_file: server.key}\n", "display.tls: tls: private key does not match", "tls:"},
		{"unknown key", "  tls: {cert_file: server.pem, key_file: server.key, ca_file: ca.pem}\n", `unknown key "ca_file"`, "tls:"},
		{"negative connection cap", "  max_connections: -1\n", "display.max_connections: -1", "max_connections"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := withDisplay(t, cfg, tt.lines)
			var ce *companion.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a ConfigError", err)
			}
			if ce.File != cfg.Path() || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to name %s and say %q", err, cfg.Path(), tt.want)
			}
			if want := lineOf(text, tt.at); ce.Line != want {
				t.Errorf("got line %d, want %d (%v)", ce.Line, want, err)
			}
		})
	}
	if _, err := withDisplay(t, cfg, "  tls: {cert_file: server.pem, key_file: server.key}\n  max_connections: 32\n"); err != nil {
		t.Errorf("a good tls section: %v", err)
	}
}

// With display.tls the daemon serves the screens over HTTPS only, and the
// sign-in cookie is Secure.
func TestScreensServeHTTPSWithDisplayTLS(t *testing.T) {
	dir := t.TempDir()
	caPEM := writeTestPKI(t, dir)
	text, err := withDisplay(t, screenTable(t, dir, "127.0.0.1:0"), "  tls: {cert_file: server.pem, key_file: server.key}\n")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := companion.ParseConfig(filepath.Join(dir, "skirmish.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	r := startServing(t, cfg, skirmishgame.Spec)
	defer r.stop(t)
	base := "https://" + r.d.DisplayAddr()

	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(base+"/login", url.Values{"user": {"sedzia"}, "password": {"tajne"}, "next": {"/referee"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if cs := resp.Cookies(); resp.StatusCode != http.StatusSeeOther || len(cs) != 1 || !cs[0].Secure {
		t.Fatalf("sign-in over HTTPS: got %d with cookies %v, want 303 and a Secure cookie", resp.StatusCode, cs)
	}
	resp, err = client.Get(base + "/referee")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.TLS == nil {
		t.Errorf("the referee page over HTTPS: got %d (TLS %v), want 200 over TLS", resp.StatusCode, resp.TLS != nil)
	}
	if plain, err := http.Get("http://" + r.d.DisplayAddr() + "/"); err == nil {
		plain.Body.Close()
		if plain.StatusCode == http.StatusOK {
			t.Error("plain HTTP on the screens' TLS port: got 200, want refused")
		}
	}
}
