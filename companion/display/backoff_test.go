package display

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestBackoffSchedule(t *testing.T) {
	// The lock-out each failure starts, all from one user and address,
	// trying again as soon as allowed.
	want := []time.Duration{0, 0, 0, 0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second,
		16 * time.Second, 32 * time.Second, 64 * time.Second, 128 * time.Second, 256 * time.Second,
		5 * time.Minute, 5 * time.Minute, 5 * time.Minute}
	clock := newClock()
	b := &Backoff{Clock: clock.Now}
	for i, w := range want {
		t.Run(fmt.Sprintf("failure %d", i+1), func(t *testing.T) {
			if ok, wait := b.Allow("sedzia", "192.0.2.1"); !ok {
				t.Fatalf("before the failure: refused for %v, want allowed", wait)
			}
			if got := b.Fail("sedzia", "192.0.2.1"); got != w {
				t.Errorf("got a lock-out of %v, want %v", got, w)
			}
			if w == 0 {
				return
			}
			if ok, wait := b.Allow("sedzia", "192.0.2.1"); ok || wait != w {
				t.Errorf("right after: got allowed=%v wait %v, want refused for %v", ok, wait, w)
			}
			clock.Add(w - time.Millisecond)
			if ok, _ := b.Allow("sedzia", "192.0.2.1"); ok {
				t.Errorf("a moment before the end: allowed, want refused")
			}
			clock.Add(time.Millisecond)
		})
	}
}

func TestBackoffKeys(t *testing.T) {
	tests := []struct {
		name, user, addr string
		allowed          bool
	}{
		{"the same user and address", "sedzia", "192.0.2.1", false},
		{"the same user from elsewhere", "sedzia", "192.0.2.99", false},
		{"another user from the same address", "ania", "192.0.2.1", false},
		{"another user from elsewhere", "ania", "192.0.2.99", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Backoff{Clock: newClock().Now}
			for range DefaultBackoffFree {
				b.Fail("sedzia", "192.0.2.1")
			}
			if ok, _ := b.Allow(tt.user, tt.addr); ok != tt.allowed {
				t.Errorf("got allowed=%v, want %v", ok, tt.allowed)
			}
		})
	}
}

func TestBackoffSuccessAndTimeForget(t *testing.T) {
	tests := []struct {
		name  string
		after func(b *Backoff, c *fakeClock)
	}{
		{"a success", func(b *Backoff, _ *fakeClock) { b.Succeed("sedzia", "192.0.2.1") }},
		{"an hour of quiet", func(_ *Backoff, c *fakeClock) { c.Add(DefaultBackoffForget) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newClock()
			b := &Backoff{Clock: clock.Now}
			for range DefaultBackoffFree - 1 {
				b.Fail("sedzia", "192.0.2.1")
			}
			tt.after(b, clock)
			// Free failures again before a lock-out.
			for i := range DefaultBackoffFree - 1 {
				if d := b.Fail("sedzia", "192.0.2.1"); d != 0 {
					t.Fatalf("failure %d after %s: locked out for %v, want none", i+1, tt.name, d)
				}
			}
		})
	}
}

// A flood of made-up names and addresses keeps the memory bounded and does
// not push out the key of an account under attack.
func TestBackoffBoundedMemory(t *testing.T) {
	clock := newClock()
	b := &Backoff{Clock: clock.Now, MaxKeys: 100}
	for range 8 {
		b.Fail("sedzia", "192.0.2.1")
	}
	for i := range 10000 {
		b.Fail(fmt.Sprintf("user-%d-%s", i, strings.Repeat("x", 1000)), fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255))
		clock.Add(time.Microsecond)
	}
	if n := b.Len(); n > 100 {
		t.Errorf("got %d keys, want at most 100", n)
	}
	if ok, _ := b.Allow("sedzia", "203.0.113.5"); ok {
		t.Error("the flood freed the attacked account, want it still locked out")
	}
}

// 2,000 wrong passwords as fast as the server answers, then the right one:
// locked out, without the password looked at, until the lock-out ends.
func TestLoginBackoff(t *testing.T) {
	clock := newClock()
	_, h, logs := testServer(t, clock)
	const attacker = "198.51.100.7:50000"
	codes := map[int]int{}
	for i := range 2000 {
		resp := do(h, loginRequest("sedzia", fmt.Sprintf("zgadniete-%d", i), "/referee"), attacker)
		codes[resp.StatusCode]++
	}
	if codes[http.StatusSeeOther] != DefaultBackoffFree || codes[http.StatusTooManyRequests] != 2000-DefaultBackoffFree {
		t.Errorf("2000 wrong passwords: got %v, want %d refusals (303) then 429s", codes, DefaultBackoffFree)
	}

	tests := []struct {
		name, user, pass, remote string
	}{
		{"the right password from the attacker's address", "sedzia", "tajne", attacker},
		{"the right password from elsewhere", "sedzia", "tajne", "192.0.2.10:1234"},
		{"another account from the attacker's address", "ania", "a1", attacker},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(h, loginRequest(tt.user, tt.pass, "/referee"), tt.remote)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusTooManyRequests || len(resp.Cookies()) != 0 {
				t.Fatalf("got %d with cookies %v, want 429 and no cookie", resp.StatusCode, resp.Cookies())
			}
			if ra := resp.Header.Get("Retry-After"); ra != "1" {
				t.Errorf("Retry-After: got %q, want 1", ra)
			}
			for _, want := range []string{"Zbyt wiele nieudanych prób logowania", "Too many failed sign-ins", "1 s"} {
				if !strings.Contains(string(body), want) {
					t.Errorf("the page does not say %q:\n%s", want, body)
				}
			}
		})
	}
	for _, want := range []string{`msg="display: sign-in refused while locked out" user=sedzia remote=198.51.100.7 wait=1s`,
		`msg="display: failed sign-in" user=sedzia remote=198.51.100.7 locked_out_for=1s`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not hold %s", want)
		}
	}

	// Refused attempts did not count: one second on, the right password works.
	clock.Add(time.Second)
	if c := signIn(t, h, "sedzia", "tajne"); c == nil {
		t.Error("after the lock-out: no session")
	}
}
