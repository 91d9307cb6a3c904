package display

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cookieBody is the readable part of a session cookie.
func cookieBody(t testing.TB, c *http.Cookie) string {
	t.Helper()
	b64, _, _ := strings.Cut(c.Value, ".")
	body, err := base64.RawURLEncoding.DecodeString(b64)
	if err != nil {
		t.Fatalf("cookie body %q: %v", b64, err)
	}
	return string(body)
}

// The readable part of the cookie must hold nothing an attacker can test a
// guessed password against: it is the same whatever the password, and
// holds none of the hashes a guess list would try.
func TestSessionCookieHoldsNothingFromThePassword(t *testing.T) {
	clock := newClock()
	_, h, _ := testServer(t, clock)
	c := signIn(t, h, "sedzia", "tajne")
	body := cookieBody(t, c)
	if want := "referee|" + strconv.FormatInt(clock.Now().Add(sessionLifetime).Unix(), 10); body != want {
		t.Errorf("cookie body: got %q, want %q", body, want)
	}

	other, _, _ := testServer(t, clock)
	other.Referee.Password = "zupelnie-inne"
	c2 := signIn(t, other.Handler(), "sedzia", "zupelnie-inne")
	if b2 := cookieBody(t, c2); b2 != body {
		t.Errorf("the readable part depends on the password: got %q and %q, want them equal", body, b2)
	}

	// What an attacker holding the cookie would compute from each guess:
	// none of it may appear in the cookie, encoded in any usual way.
	for _, guess := range []string{"haslo", "sedzia", "1234", "tajne"} {
		sum := sha256.Sum256([]byte("sedzia\x00" + guess))
		plain := sha256.Sum256([]byte(guess))
		for _, enc := range []string{
			base64.RawURLEncoding.EncodeToString(sum[:12]), hex.EncodeToString(sum[:6]),
			base64.RawURLEncoding.EncodeToString(plain[:12]), hex.EncodeToString(plain[:6]), guess,
		} {
			if strings.Contains(body, enc) || (guess != "sedzia" && strings.Contains(c.Value, enc)) {
				t.Errorf("cookie %q holds %q, computed from the guess %q without the key", c.Value, enc, guess)
			}
		}
	}
}

func TestSessionBindsKeyCredentialAndExpiry(t *testing.T) {
	tests := []struct {
		name   string
		change func(s *Server, clock *fakeClock)
		want   int
	}{
		{"same key and password (a restart)", func(*Server, *fakeClock) {}, http.StatusOK},
		{"11 hours later", func(_ *Server, c *fakeClock) { c.Add(11 * time.Hour) }, http.StatusOK},
		{"expired", func(_ *Server, c *fakeClock) { c.Add(sessionLifetime + time.Second) }, http.StatusSeeOther},
		{"the password changed", func(s *Server, _ *fakeClock) { s.Referee.Password = "nowe-haslo" }, http.StatusSeeOther},
		{"the user changed", func(s *Server, _ *fakeClock) { s.Referee.User = "inny" }, http.StatusSeeOther},
		{"no referee any more", func(s *Server, _ *fakeClock) { s.Referee = Credential{} }, http.StatusSeeOther},
		{"another key", func(s *Server, _ *fakeClock) { s.SessionKey = []byte("another key, another table......") }, http.StatusSeeOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newClock()
			_, h, _ := testServer(t, clock)
			c := signIn(t, h, "sedzia", "tajne")
			s2, _, _ := testServer(t, clock)
			tt.change(s2, clock)
			if got := get(s2.Handler(), "/referee", c); got != tt.want {
				t.Errorf("referee page: got %d, want %d", got, tt.want)
			}
		})
	}
}

// forgeries are cookie values an attacker might try, given a real one for
// seat 1.
func forgeries(t testing.TB, s *Server, player *http.Cookie) map[string]string {
	b64, sig, _ := strings.Cut(player.Value, ".")
	exp := strings.TrimPrefix(cookieBody(t, player), "player/1|")
	enc := base64.RawURLEncoding.EncodeToString
	// The format before v2: the credential's hash in the body, HMAC over the body.
	sum := sha256.Sum256([]byte("sedzia\x00tajne"))
	v1 := "referee|" + exp + "|" + enc(sum[:12])
	mac := hmac.New(sha256.New, s.key)
	mac.Write([]byte(v1))
	return map[string]string{
		"empty":                       "",
		"no signature":                b64,
		"body made referee":           enc([]byte("referee|"+exp)) + "." + sig,
		"expiry pushed":               enc([]byte("player/1|9999999999")) + "." + sig,
		"signature dropped":           b64 + ".",
		"signature cut":               b64 + "." + sig[:len(sig)-2],
		"padded base64":               b64 + "=." + sig,
		"three parts":                 player.Value + ".x",
		"unknown seat":                enc([]byte("player/7|"+exp)) + "." + sig,
		"v1 cookie with the same key": enc([]byte(v1)) + "." + enc(mac.Sum(nil)),
		"huge":                        strings.Repeat("A", 10000) + "." + sig,
	}
}

func TestSessionRefusesForgedCookies(t *testing.T) {
	clock := newClock()
	s, h, _ := testServer(t, clock)
	player := signIn(t, h, "ania", "a1")
	if got := get(h, "/player/1", player); got != http.StatusOK {
		t.Fatalf("seat 1 with its own cookie: got %d, want 200", got)
	}
	for name, v := range forgeries(t, s, player) {
		t.Run(name, func(t *testing.T) {
			if a, ok := s.session(v); ok {
				t.Errorf("cookie %q accepted as %q, want refused", v, a)
			}
		})
	}
}

// FuzzSessionCookie feeds arbitrary cookie values to the session parser: it
// must never panic and never accept a value this server did not sign.
func FuzzSessionCookie(f *testing.F) {
	clock := newClock()
	s, h, _ := testServer(f, clock)
	valid := map[string]bool{}
	for _, c := range []*http.Cookie{signIn(f, h, "sedzia", "tajne"), signIn(f, h, "ania", "a1"), signIn(f, h, "bartek", "b2")} {
		valid[c.Value] = true
		f.Add(c.Value)
	}
	for _, v := range forgeries(f, s, signIn(f, h, "ania", "a1")) {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		a, ok := s.session(v)
		if ok && !valid[v] {
			t.Fatalf("forged cookie %q accepted as %q", v, a)
		}
	})
}
