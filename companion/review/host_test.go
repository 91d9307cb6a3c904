package review_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The review page answers only to its own address: a request whose Host
// is another name (a page that made its name resolve to this machine, DNS
// rebinding) is refused with 421 and says why, before any moment is read;
// the listener's address, localhost and the loopback addresses with the
// listener's port are served.
func TestReviewRefusesAForeignHost(t *testing.T) {
	path, cfg := demoJournal(t)
	r := reviewer(t, path, cfg)
	srv := httptest.NewServer(r.Handler())
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	get := func(host string) (int, string) {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/api/moment?seq=last", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST:" + port, "[::1]:" + port, "127.0.0.2:" + port} {
		if code, body := get(host); code != http.StatusOK || !strings.Contains(body, `"Seq":23`) {
			t.Errorf("Host %s: %d %.80s, want the moment", host, code, body)
		}
	}
	for _, host := range []string{"rebind.example:" + port, "rebind.example", "localhost.rebind.example:" + port, "127.0.0.1:1", "localhost", "10.0.0.7:" + port} {
		code, body := get(host)
		if code != http.StatusMisdirectedRequest || !strings.Contains(body, "answers only to its own address") || strings.Contains(body, `"Seq"`) {
			t.Errorf("Host %s: %d %.120s, want 421 and no moment", host, code, body)
		}
	}
}
