package display

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"hash"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	cookieName = "sztab_session"
	// sessionLifetime is how long a sign-in lasts.
	sessionLifetime = 12 * time.Hour
	// viewerLifetime is how long a display's sign-in lasts: a wall that
	// runs for days stays signed in (its token, not the clock, revokes it).
	viewerLifetime = 30 * 24 * time.Hour
	// maxCookie bounds what the parser looks at; a real cookie is under 100
	// bytes.
	maxCookie = 512
	// cookieAlphabet is every byte a session cookie may hold.
	cookieAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
)

// A session cookie is base64(body) "." base64(mac), where body is
// "audience|expiry" (expiry in Unix seconds) and
//
//	mac = HMAC-SHA256(key, "sztab session v2" ‖ body ‖ user ‖ password)
//
// with every field length-prefixed. The credential the session was signed in
// with is bound through the MAC only: the readable body holds nothing
// computed from the password, so a stolen or sniffed cookie gives no handle
// for guessing it, and a changed password (or a seat given to someone else)
// still signs the old holder out although the key survives restarts.

// credential is the credential of audience a, if the table has one.
func (s *Server) credential(a Audience) (Credential, bool) {
	if a == Referee {
		return s.Referee, s.Referee.User != "" && s.Referee.Password != ""
	}
	if name, ok := viewerName(a); ok {
		return s.displayCredential(name)
	}
	for _, p := range s.Players {
		if PlayerAudience(p.Seat) == a {
			return p.Credential, p.User != "" && p.Password != ""
		}
	}
	return Credential{}, false
}

func sessionMAC(key []byte, body string, c Credential) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("sztab session v2"))
	for _, f := range []string{body, c.User, c.Password} {
		writeField(m, f)
	}
	return m.Sum(nil)
}

func writeField(h hash.Hash, f string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(f)))
	h.Write(n[:])
	h.Write([]byte(f))
}

// sign returns the cookie value of a session for audience a, which must
// have a credential.
func (s *Server) sign(a Audience) string {
	c, _ := s.credential(a)
	life := sessionLifetime
	if _, ok := viewerName(a); ok {
		life = viewerLifetime
	}
	body := string(a) + "|" + strconv.FormatInt(s.now().Add(life).Unix(), 10)
	return base64.RawURLEncoding.EncodeToString([]byte(body)) + "." + base64.RawURLEncoding.EncodeToString(sessionMAC(s.key, body, c))
}

// session checks a cookie value: signed with this server's key, for an
// audience whose credential is still the one it was signed in with, not
// expired.
func (s *Server) session(value string) (Audience, bool) {
	if len(value) > maxCookie || strings.Trim(value, cookieAlphabet) != "" {
		return "", false // the decoder would skip \r and \n: one value, one session
	}
	b64, sig, ok := strings.Cut(value, ".")
	if !ok {
		return "", false
	}
	enc := base64.RawURLEncoding.Strict()
	body, err1 := enc.DecodeString(b64)
	got, err2 := enc.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return "", false
	}
	aud, exp, ok := strings.Cut(string(body), "|")
	if !ok {
		return "", false
	}
	c, ok := s.credential(Audience(aud))
	if !ok || !hmac.Equal(got, sessionMAC(s.key, string(body), c)) {
		return "", false
	}
	n, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || s.now().Unix() > n {
		return "", false
	}
	return Audience(aud), true
}

func (s *Server) sessionOf(r *http.Request) (Audience, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return "", false
	}
	return s.session(c.Value)
}

func (s *Server) now() time.Time {
	if s.Clock != nil {
		return s.Clock()
	}
	return time.Now()
}
