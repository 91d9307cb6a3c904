package display

import (
	"crypto/subtle"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DisplayToken is the sign-in of one read-only screen (a wall, a TV): a
// name, for the logs and its session, and a secret token carried in the
// screen's URL (/kiosk/TOKEN or /?display=TOKEN). It signs in as a viewer,
// who sees exactly what the public sees and nothing more.
type DisplayToken struct {
	Name  string `yaml:"name"`
	Token string `yaml:"token"`
}

// The bounds of a display's name and token (CheckDisplayTokens).
const (
	MinDisplayToken = 20
	maxDisplayToken = 128
	maxDisplayName  = 32
	// displayTokenAlphabet is what a token may hold: URL-safe as it is, so
	// it is the same in a URL, a config and a shell command.
	displayTokenAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	displayNameAlphabet  = "abcdefghijklmnopqrstuvwxyz0123456789-"
	viewerPrefix         = "display/"
)

// CheckDisplayTokens says what is wrong with a config's display tokens, or
// "": each has a name of a-z, 0-9 and "-" (at most 32), a token of
// MinDisplayToken to 128 letters, digits, "-" or "_", and no name or token
// is listed twice.
func CheckDisplayTokens(ds []DisplayToken) string {
	names, tokens := map[string]bool{}, map[string]bool{}
	for i, d := range ds {
		at := "displays[" + strconv.Itoa(i) + "]"
		switch {
		case d.Name == "" || len(d.Name) > maxDisplayName || strings.Trim(d.Name, displayNameAlphabet) != "":
			return at + ": name " + strconv.Quote(d.Name) + ", want 1 to 32 of a-z, 0-9 and -"
		case len(d.Token) < MinDisplayToken || len(d.Token) > maxDisplayToken || strings.Trim(d.Token, displayTokenAlphabet) != "":
			return at + " (" + d.Name + "): the token must be " + strconv.Itoa(MinDisplayToken) + " to 128 of A-Z, a-z, 0-9, - and _ (openssl rand -hex 16 makes one)"
		case names[d.Name]:
			return at + ": name " + d.Name + " listed twice"
		case tokens[d.Token]:
			return at + " (" + d.Name + "): the same token as another display"
		}
		names[d.Name], tokens[d.Token] = true, true
	}
	return ""
}

// viewerName is the display a viewer's audience names, if a is one.
func viewerName(a Audience) (string, bool) {
	return strings.CutPrefix(string(a), viewerPrefix)
}

// displayCredential is display name's credential, binding its sessions to
// its token: a token changed or removed from the config ends them at their
// next request.
func (s *Server) displayCredential(name string) (Credential, bool) {
	for _, d := range s.Displays {
		if d.Name == name && d.Token != "" {
			return Credential{User: viewerPrefix + d.Name, Password: d.Token}, true
		}
	}
	return Credential{}, false
}

// displayFor is the display whose token is token, comparing every one in
// constant time.
func (s *Server) displayFor(token string) (string, bool) {
	if len(token) > maxDisplayToken {
		return "", false
	}
	found := ""
	for _, d := range s.Displays {
		if d.Token != "" && subtle.ConstantTimeCompare([]byte(d.Token), []byte(token)) == 1 {
			found = d.Name
		}
	}
	return found, found != ""
}

// kiosk signs a display in with its token and sends it to next without
// the token in its address; a wrong token gets a page that says so, and
// counts against the address as a wrong password does. The token is never
// logged.
func (s *Server) kiosk(w http.ResponseWriter, r *http.Request, token, next string) {
	addr := clientAddr(r)
	// The brake's user is the address too: a stranger failing on purpose
	// locks only themselves out, not every display.
	user := "display token from " + addr
	if ok, wait := s.Backoff.Allow(user, addr); !ok {
		s.loginFailed()
		s.Log.Warn("display: display sign-in refused while locked out", "remote", addr, "wait", wait.Round(time.Second).String())
		w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
		s.errorPage(w, http.StatusTooManyRequests,
			"Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za "+waitText(wait)+".",
			"Too many failed sign-ins. Try again in "+waitText(wait)+".", r.URL.Path)
		return
	}
	name, ok := s.displayFor(token)
	if !ok {
		lock := s.Backoff.Fail(user, addr)
		s.loginFailed()
		s.Log.Warn("display: unknown display token", "remote", addr, "locked_out_for", lock.String())
		s.errorPage(w, http.StatusForbidden,
			"Nieznany token ekranu: nie ma go w konfiguracji stołu (błędny albo usunięty). Ekran nie jest zalogowany.",
			"Unknown display token: it is not in the table's config (wrong or removed). This screen is not signed in.", "")
		return
	}
	s.Backoff.Succeed(user, addr)
	s.Log.Info("display: screen signed in", "display", name, "remote", addr)
	// SameSite Lax: a kiosk opened from its autostart file or a bookmark
	// keeps its session; it holds no power to be stolen cross-site.
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: s.sign(Audience(viewerPrefix + name)), Path: "/",
		MaxAge: int(viewerLifetime / time.Second), HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode})
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// kioskPath serves GET /kiosk/{token}.
func (s *Server) kioskPath(w http.ResponseWriter, r *http.Request) {
	s.kiosk(w, r, r.PathValue("token"), "/")
}
