package display

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// into dir and returns their paths and a pool that trusts it.
func selfSigned(t *testing.T, dir string) (TLSFiles, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sztab test table"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	keyDER, _ := x509.MarshalECPrivateKey(key)
	files := TLSFiles{CertFile: filepath.Join(dir, "screens.pem"), KeyFile: filepath.Join(dir, "screens.key")}
	if err := os.WriteFile(files.CertFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files.KeyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return files, pool
}

// serve starts o's server for h and stops it when the test ends.
func serve(t *testing.T, o HTTPOptions, h http.Handler) *HTTPServer {
	t.Helper()
	o.Addr = "127.0.0.1:0"
	srv, err := Listen(o, h)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	t.Cleanup(func() {
		srv.Server.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve: got %v, want http.ErrServerClosed", err)
		}
	})
	return srv
}

var noRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// The screens over HTTPS, through a real listener: pages served, the
// sign-in cookie Secure, the Origin check expecting https, no plain HTTP.
func TestScreensOverTLS(t *testing.T) {
	files, pool := selfSigned(t, t.TempDir())
	_, h, _ := testServer(t, newClock())
	srv := serve(t, HTTPOptions{TLS: files}, h)
	if srv.Scheme() != "https" {
		t.Errorf("Scheme: got %q, want https", srv.Scheme())
	}
	base := "https://" + srv.Addr()
	client := &http.Client{CheckRedirect: noRedirect, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}

	resp, err := client.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Fatalf("GET /healthz over TLS: got %d, TLS %+v, want 200 over TLS 1.2+", resp.StatusCode, resp.TLS)
	}
	if resp.ProtoMajor != 2 {
		t.Errorf("GET /healthz over TLS: got %s, want HTTP/2", resp.Proto)
	}

	login := func(origin string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", base+"/login", strings.NewReader(url.Values{"user": {"sedzia"}, "password": {"tajne"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp = login(base)
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 || !resp.Cookies()[0].Secure || !resp.Cookies()[0].HttpOnly {
		t.Errorf("sign-in over TLS: got %d with cookies %v, want 303 and one Secure HttpOnly cookie", resp.StatusCode, resp.Cookies())
	}
	if resp = login("http://" + srv.Addr()); resp.StatusCode != http.StatusForbidden {
		t.Errorf("sign-in over TLS with an http Origin: got %d, want 403", resp.StatusCode)
	}

	plain, err := http.Get("http://" + srv.Addr() + "/healthz")
	if err == nil {
		plain.Body.Close()
		if plain.StatusCode == http.StatusOK {
			t.Error("plain HTTP to the TLS port: got 200, want refused")
		}
	}
}

func TestPlainHTTPCookieIsNotSecure(t *testing.T) {
	_, h, _ := testServer(t, newClock())
	if c := signIn(t, h, "sedzia", "tajne"); c.Secure {
		t.Error("over plain HTTP the cookie is Secure: the browser would never send it back")
	}
}

func TestListenRefusesBadTLSFiles(t *testing.T) {
	dir := t.TempDir()
	good, _ := selfSigned(t, dir)
	other, _ := selfSigned(t, t.TempDir())
	tests := []struct {
		name string
		tls  TLSFiles
		want string
	}{
		{"certificate only", TLSFiles{CertFile: good.CertFile}, "go together"},
		{"key only", TLSFiles{KeyFile: good.KeyFile}, "go together"},
		{"missing file", TLSFiles{CertFile: filepath.Join(dir, "none.pem"), KeyFile: good.KeyFile}, "none.pem"},
		{"key of another certificate", TLSFiles{CertFile: good.CertFile, KeyFile: other.KeyFile}, "private key does not match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, err := Listen(HTTPOptions{Addr: "127.0.0.1:0", TLS: tt.tls}, http.NotFoundHandler())
			if err == nil {
				srv.listener.Close()
				t.Fatal("got a server, want an error")
			}
			if !strings.HasPrefix(err.Error(), "display: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want a display: error mentioning %q", err, tt.want)
			}
		})
	}
}

func TestHTTPServerSettings(t *testing.T) {
	type settings struct{ readHeader, read, write, idle time.Duration }
	tests := []struct {
		name string
		o    HTTPOptions
		want settings
		max  int
	}{
		{"defaults", HTTPOptions{}, settings{10 * time.Second, 30 * time.Second, 30 * time.Second, 2 * time.Minute}, 256},
		{"set", HTTPOptions{ReadHeaderTimeout: time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 3 * time.Second,
			IdleTimeout: 4 * time.Second, MaxConns: 7}, settings{time.Second, 2 * time.Second, 3 * time.Second, 4 * time.Second}, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Addr = "127.0.0.1:0"
			srv, err := Listen(tt.o, http.NotFoundHandler())
			if err != nil {
				t.Fatal(err)
			}
			defer srv.listener.Close()
			s := srv.Server
			if got := (settings{s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout}); got != tt.want {
				t.Errorf("got timeouts %+v, want %+v", got, tt.want)
			}
			if got := cap(srv.listener.sem); got != tt.max {
				t.Errorf("connection cap: got %d, want %d", got, tt.max)
			}
		})
	}
}

// A client that sends its headers slowly is cut off after
// ReadHeaderTimeout, freeing its connection.
func TestSlowHeadersAreCutOff(t *testing.T) {
	srv := serve(t, HTTPOptions{ReadHeaderTimeout: 100 * time.Millisecond}, http.NotFoundHandler())
	c, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n")
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = io.ReadAll(c) // returns once the server closes the connection
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("a client stuck in its headers was still connected after 10 s, want it closed after 100 ms")
	}
}

// A live stream outlasts the server's read and write timeouts, over
// HTTP/1.1 and over HTTP/2 with TLS: its writes have their own deadline.
func TestStreamOutlivesServerTimeouts(t *testing.T) {
	for _, withTLS := range []bool{false, true} {
		t.Run(map[bool]string{false: "http", true: "https"}[withTLS], func(t *testing.T) {
			s, h, _ := testServer(t, newClock())
			s.Heartbeat = 20 * time.Millisecond
			o := HTTPOptions{ReadTimeout: 100 * time.Millisecond, WriteTimeout: 100 * time.Millisecond}
			client := http.DefaultClient
			if withTLS {
				files, pool := selfSigned(t, t.TempDir())
				o.TLS = files
				client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
			}
			srv := serve(t, o, h)
			resp, err := client.Get(srv.Scheme() + "://" + srv.Addr() + "/stream")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			start := time.Now()
			r := bufio.NewReader(resp.Body)
			pings := 0
			for pings < 25 {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("the %s stream ended after %v and %d pings: %v; want it to outlast the 100 ms timeouts", resp.Proto, time.Since(start), pings, err)
				}
				if line == "event: ping\n" {
					pings++
				}
			}
			if d := time.Since(start); d < 300*time.Millisecond {
				t.Errorf("25 pings in %v, want them to span well past the timeouts", d)
			}
		})
	}
}

// At the cap a new connection waits until one closes; more than the
// per-address cap from one address are closed at once.
func TestConnectionCap(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	logs := &logBuffer{}
	ll := newLimitListener(l, 2, 100, slog.New(slog.NewTextHandler(logs, nil)))
	defer ll.Close()
	waiting := make(chan struct{}, 1)
	ll.waiting = func() { waiting <- struct{}{} }
	for range 3 {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	var served []net.Conn
	for range 2 {
		c, err := ll.Accept()
		if err != nil {
			t.Fatal(err)
		}
		served = append(served, c)
	}
	third := make(chan net.Conn)
	go func() {
		c, err := ll.Accept()
		if err != nil {
			t.Error(err)
		}
		third <- c
	}()
	<-waiting // Accept waits at the cap
	select {
	case <-third:
		t.Fatal("a third connection was accepted at a cap of 2")
	default:
	}
	served[0].Close()
	c := <-third
	c.Close()
	served[1].Close()
	if !strings.Contains(logs.String(), "connection cap reached") {
		t.Errorf("reaching the cap was not logged:\n%s", logs)
	}

	// Per address: one client may not hold every connection.
	ll2 := newLimitListener(l, 10, 2, slog.New(slog.NewTextHandler(io.Discard, nil)))
	var kept []net.Conn
	for i := range 3 {
		d, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if i < 2 {
			c, err := ll2.Accept()
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, c)
			continue
		}
		// The third from 127.0.0.1 is closed by the listener: its client reads EOF.
		go ll2.Accept()
		d.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := d.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("a third connection from one address: read got %v, want EOF (closed)", err)
		}
	}
	for _, c := range kept {
		c.Close()
	}
}
