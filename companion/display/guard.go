package display

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// sameOrigin guards a request that changes something (sign-in, sign-out, a
// ruling, an error report): only this table's own pages may send it. A
// browser says where a request comes from in Sec-Fetch-Site (same-origin,
// or none for one the user typed; a page on another port of the same host is
// same-site and is refused too, as SameSite cookies would still go with it)
// and in Origin, which must be this server, scheme included. A client that
// sends neither (curl, a script) is no browser to trick and passes.
func (s *Server) sameOrigin(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if why := crossOrigin(r); why != "" {
			s.Log.Warn("display: cross-origin request refused", "path", r.URL.Path, "why", logText(why, 200), "remote", clientAddr(r))
			http.Error(w, "display: refused: this request did not come from this table's pages / żądanie nie pochodzi ze stron tego stołu", http.StatusForbidden)
			return
		}
		h(w, r)
	}
}

// crossOrigin says why r is not from this server's own pages, or "".
func crossOrigin(r *http.Request) string {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return "Sec-Fetch-Site: " + site
	}
	if _, sent := r.Header["Origin"]; sent {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		origin := r.Header.Get("Origin")
		u, err := url.Parse(origin)
		if err != nil || u.Scheme != scheme || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" ||
			!strings.EqualFold(hostPort(u.Host, scheme), hostPort(r.Host, scheme)) {
			return "Origin " + origin + " is not " + scheme + "://" + r.Host
		}
	}
	return ""
}

// hostPort writes the default port of scheme out, so that host and
// host:80 compare equal over http.
func hostPort(host, scheme string) string {
	if _, _, err := net.SplitHostPort(host); err == nil || host == "" {
		return host
	}
	if scheme == "https" {
		return net.JoinHostPort(strings.Trim(host, "[]"), "443")
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), "80")
}

// isJSON says whether r's body is declared application/json. A page of
// another origin cannot send that without the browser asking first (a CORS
// preflight this server never grants).
func isJSON(r *http.Request) bool {
	t, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && t == "application/json"
}
