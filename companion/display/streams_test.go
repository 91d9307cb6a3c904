package display

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/wire"
)

// eventually polls cond until it holds or 30 s pass (generous: the suite
// runs under load).
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// dialFrom opens a TCP connection to addr from the loopback address ip.
func dialFrom(ip, addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: 10 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return d.Dial("tcp", addr)
}

// neverReading asks for path on a connection from ip and never reads the
// answer; the test closes it at the end.
func neverReading(t *testing.T, ip, addr, path string, cookie *http.Cookie) net.Conn {
	t.Helper()
	c, err := dialFrom(ip, addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", ip, err)
	}
	t.Cleanup(func() { c.Close() })
	req := "GET " + path + " HTTP/1.1\r\nHost: table\r\n"
	if cookie != nil {
		req += "Cookie: " + cookie.String() + "\r\n"
	}
	// A connection the listener closed at once (over its address's cap)
	// fails here or later: either way it holds nothing.
	io.WriteString(c, req+"\r\n")
	return c
}

// clientFrom is an HTTP client whose connections come from ip, with a
// generous timeout: the test checks that pages answer, not how fast.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{Timeout: 20 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Timeout: 20 * time.Second, CheckRedirect: noRedirect,
		Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// getAs asks for path from ip with cookie and returns the status and the
// body's start.
func getAs(t *testing.T, ip, base, path string, cookie *http.Cookie) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	resp, err := clientFrom(ip).Do(req)
	if err != nil {
		t.Fatalf("GET %s from %s: %v", path, ip, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	return resp.StatusCode, string(b)
}

// firstEvent opens a stream from ip and reads up to its first event: the
// stream was given a place.
func firstEvent(t *testing.T, ip, base, path string, cookie *http.Cookie) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	resp, err := clientFrom(ip).Do(req)
	if err != nil {
		t.Fatalf("GET %s from %s: %v", path, ip, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, ""
	}
	r := bufio.NewReader(resp.Body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream %s from %s ended before its first event: %v", path, ip, err)
		}
		if strings.HasPrefix(line, "event: ") {
			return resp.StatusCode, strings.TrimSpace(strings.TrimPrefix(line, "event: "))
		}
	}
}

// 256 never-reading streams, 64 from each of 4 addresses, then 16 from
// each of 32, with the screens' default limits: every public place is
// taken, and still the referee's page, a player's page, their streams
// and /healthz answer; a new public stream is refused at once, not left
// waiting.
func TestStreamFloodLeavesRoomForTheRefereeAndPlayers(t *testing.T) {
	s, h, _ := testServer(t, newClock())
	s.Feed.SetMeta([]byte(`{"table":"stol-1"}`))
	s.Feed.SetState(Public, []byte(`{"view":"public"}`))
	s.Feed.SetState(Referee, []byte(`{"view":"referee"}`))
	s.Feed.SetState(PlayerAudience(1), []byte(`{"view":"player"}`))
	logs := &logBuffer{}
	srv := serve(t, HTTPOptions{Log: slog.New(slog.NewTextHandler(logs, nil))}, h)
	addr, base := srv.Addr(), "http://"+srv.Addr()
	referee := signIn(t, h, "sedzia", "tajne")
	player := signIn(t, h, "ania", "a1")

	var wg sync.WaitGroup
	var mu sync.Mutex
	flood := func(ips []string, each int) {
		for _, ip := range ips {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					c, err := dialFrom(ip, addr)
					if err != nil {
						t.Errorf("dial from %s: %v", ip, err)
						return
					}
					mu.Lock()
					t.Cleanup(func() { c.Close() })
					mu.Unlock()
					io.WriteString(c, "GET /stream HTTP/1.1\r\nHost: table\r\n\r\n")
				}
			}()
		}
	}
	var four, many []string
	for i := range 4 {
		four = append(four, fmt.Sprintf("127.0.0.%d", 10+i))
	}
	for i := range 32 {
		many = append(many, fmt.Sprintf("127.0.1.%d", 10+i))
	}
	flood(four, 64)
	flood(many, 16)
	wg.Wait()
	eventually(t, fmt.Sprintf("the flood to hold every public place (%d)", DefaultPublicStreams), func() bool {
		return s.Feed.Subscribers() == DefaultPublicStreams
	})

	for _, tc := range []struct {
		who, ip, path string
		cookie        *http.Cookie
		want          string
	}{
		{"the referee's page", "127.0.0.2", "/referee", referee, `data-page="referee"`},
		{"a player's page", "127.0.0.3", "/player/1", player, `data-page="player"`},
		{"/healthz", "127.0.0.4", "/healthz", nil, "ok"},
		{"the table screen's page", "127.0.0.4", "/", nil, `data-page="table"`},
	} {
		if code, body := getAs(t, tc.ip, base, tc.path, tc.cookie); code != http.StatusOK || !strings.Contains(body, tc.want) {
			t.Errorf("%s during the flood: got %d %q, want 200 with %s", tc.who, code, body, tc.want)
		}
	}
	if code, ev := firstEvent(t, "127.0.0.2", base, "/stream?view=referee", referee); code != http.StatusOK || ev != "meta" {
		t.Errorf("the referee's stream during the flood: got %d, first event %q, want 200 and meta", code, ev)
	}
	if code, ev := firstEvent(t, "127.0.0.3", base, "/stream?view=player/1", player); code != http.StatusOK || ev != "meta" {
		t.Errorf("a player's stream during the flood: got %d, first event %q, want 200 and meta", code, ev)
	}
	if code, _ := firstEvent(t, "127.0.0.5", base, "/stream", nil); code != http.StatusServiceUnavailable {
		t.Errorf("a public stream with every public place taken: got %d, want 503 at once", code)
	}
	// The signed-in streams gone, the flood holds the public places and no more.
	eventually(t, fmt.Sprintf("the flood to hold %d streams, no more", DefaultPublicStreams), func() bool {
		return s.Feed.Subscribers() == DefaultPublicStreams
	})
}

// The limits' defaults: 16 connections per address, half of the
// connections for public streams.
func TestStreamLimitDefaults(t *testing.T) {
	srv, err := Listen(HTTPOptions{Addr: "127.0.0.1:0"}, http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.listener.Close()
	if srv.listener.perAddr != 16 {
		t.Errorf("connections per address: got %d, want 16", srv.listener.perAddr)
	}
	got := StreamLimits{}.withDefaults()
	want := StreamLimits{Public: 128, PerAddr: 8, PerRole: 8, Lifetime: 10 * time.Minute}
	if got != want {
		t.Errorf("stream limits: got %+v, want %+v", got, want)
	}
	if n := PublicStreamsFor(4096); n != 2048 {
		t.Errorf("PublicStreamsFor(4096): got %d, want 2048", n)
	}
}

// readsClosed says whether the server ends c (EOF or reset) within 20 s,
// reading and dropping whatever comes first.
func readsClosed(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err := io.Copy(io.Discard, c)
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

// A signed-in role's streams have their own places: with the public ones
// all taken the referee and a player still stream, and the referee's
// newest stream ends the oldest rather than being turned away.
func TestSignedInStreamsHaveTheirOwnPlaces(t *testing.T) {
	s, h, _ := testServer(t, newClock())
	s.Streams = StreamLimits{Public: 2, PerAddr: 2, PerRole: 2}
	h = s.Handler()
	s.Feed.SetMeta([]byte(`{}`))
	srv := serve(t, HTTPOptions{}, h)
	addr, base := srv.Addr(), "http://"+srv.Addr()
	referee := signIn(t, h, "sedzia", "tajne")
	player := signIn(t, h, "bartek", "b2")
	neverReading(t, "127.0.0.20", addr, "/stream", nil)
	neverReading(t, "127.0.0.21", addr, "/stream", nil)
	eventually(t, "two public streams", func() bool { return s.Feed.Subscribers() == 2 })
	if code, _ := firstEvent(t, "127.0.0.22", base, "/stream", nil); code != http.StatusServiceUnavailable {
		t.Errorf("a third public stream at 2 public places: got %d, want 503", code)
	}
	if code, ev := firstEvent(t, "127.0.0.3", base, "/stream?view=player/2", player); code != http.StatusOK || ev != "meta" {
		t.Errorf("a player's stream with the public places taken: got %d %q, want 200 and meta", code, ev)
	}
	eventually(t, "the player's stream to end", func() bool { return s.Feed.Subscribers() == 2 })
	// The referee's old tabs: two that never read. The third ends the
	// first, which the server closes.
	old := neverReading(t, "127.0.0.2", addr, "/stream?view=referee", referee)
	eventually(t, "the referee's first stream", func() bool { return s.Feed.Subscribers() == 3 })
	neverReading(t, "127.0.0.2", addr, "/stream?view=referee", referee)
	eventually(t, "the referee's two streams", func() bool { return s.Feed.Subscribers() == 4 })
	if code, ev := firstEvent(t, "127.0.0.2", base, "/stream?view=referee", referee); code != http.StatusOK || ev != "meta" {
		t.Errorf("the referee's third stream: got %d %q, want 200 and meta", code, ev)
	}
	if !readsClosed(old) {
		t.Error("the referee's oldest stream was still open after a third took its place")
	}
}

// A public stream's client that never reads does not keep its place for
// ever: the stream ends at its lifetime and the connection is closed, and
// the page of a client that does read reconnects (the stream says so).
func TestIdlePublicStreamsEnd(t *testing.T) {
	s, h, _ := testServer(t, newClock())
	s.Streams = StreamLimits{Lifetime: 200 * time.Millisecond}
	s.Heartbeat = time.Hour // nothing but the lifetime ends it
	h = s.Handler()
	srv := serve(t, HTTPOptions{}, h)
	c := neverReading(t, "127.0.0.30", srv.Addr(), "/stream", nil)
	eventually(t, "the never-reading stream to end", func() bool { return s.Feed.Subscribers() == 0 })
	if !readsClosed(c) {
		t.Error("the connection of an ended stream was left open")
	}
}

// A page's command over its sender's rate is answered 429 with
// Retry-After ("slow down"), not 503 as a table that is busy.
func TestCommandOverTheRateIsTooManyRequests(t *testing.T) {
	s, _, _ := testServer(t, newClock())
	s.Command = func(Audience, wire.Command) error { return fmt.Errorf("companion: too many commands: %w", ErrSlowDown) }
	h := s.Handler()
	player := signIn(t, h, "ania", "a1")
	r := httptest.NewRequest("POST", "/command", strings.NewReader(`{"name":"next"}`))
	r.Header.Set("Content-Type", "application/json")
	r.AddCookie(player)
	resp := do(h, r, "192.0.2.10:40000")
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a command over the rate: got %d (Retry-After %q), want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	s.Command = func(Audience, wire.Command) error { return errors.New("companion: the table is busy") }
	r = httptest.NewRequest("POST", "/command", strings.NewReader(`{"name":"next"}`))
	r.Header.Set("Content-Type", "application/json")
	r.AddCookie(player)
	if resp := do(h, r, "192.0.2.10:40000"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a command while the table is busy: got %d, want 503", resp.StatusCode)
	}
}

// At the connection cap, a connection idle between requests is closed to
// make room (the longest idle first): clients holding keep-alive
// connections open do not keep /healthz and the pages waiting.
func TestIdleConnectionsMakeRoomAtTheCap(t *testing.T) {
	_, h, _ := testServer(t, newClock())
	logs := &logBuffer{}
	srv := serve(t, HTTPOptions{MaxConns: 4, Log: slog.New(slog.NewTextHandler(logs, nil))}, h)
	var held []net.Conn
	for i := range 4 {
		c, err := dialFrom(fmt.Sprintf("127.0.0.%d", 40+i), srv.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: table\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("keep-alive connection %d: %v", i, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		held = append(held, c)
		// The server marks a connection idle just after the client has
		// its answer: wait for it, so that the first is idle the longest.
		eventually(t, fmt.Sprintf("%d idle connections", i+1), func() bool {
			srv.listener.mu.Lock()
			defer srv.listener.mu.Unlock()
			return len(srv.listener.idle) == i+1
		})
	}
	if code, body := getAs(t, "127.0.0.50", "http://"+srv.Addr(), "/healthz", nil); code != http.StatusOK || !strings.Contains(body, "ok") {
		t.Errorf("/healthz with the cap held by idle connections: got %d %q, want 200", code, body)
	}
	if !readsClosed(held[0]) {
		t.Error("the connection idle the longest was not closed to make room")
	}
}
