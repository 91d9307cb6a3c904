package display

import (
	"net/url"
	"strings"
)

// maxNext bounds the page a sign-in returns to.
const maxNext = 1024

// safeNext keeps redirects on this server: it returns next when it is a
// path of this origin, "/" otherwise. Browsers read "\" as "/" and drop
// tabs and newlines, so "/\evil.example" or "/\t/evil.example" would leave
// the site: a backslash or a control character anywhere refuses the value,
// as does a scheme, a host, user info or a leading "//".
func safeNext(next string) string {
	if len(next) > maxNext || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") {
		return "/"
	}
	for _, r := range next {
		if r == '\\' || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\uFFFD' {
			return "/"
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" ||
		!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	return next
}

// loginURL is the sign-in form that returns to next, with next escaped.
func loginURL(next string, failed bool) string {
	q := "?"
	if failed {
		q = "?failed&"
	}
	return "/login" + q + "next=" + url.QueryEscape(safeNext(next))
}
