package display

import (
	"net"
	"net/http"
	"strconv"
	"unicode/utf8"
)

// logText makes a client's text fit for one log line: at most n bytes
// (cut at a rune), quoted so that newlines, control characters and invalid
// UTF-8 are escaped (Go syntax, without the outer quotes); Polish letters
// stay readable.
func logText(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// clientAddr is who a request comes from, for the brakes: the remote IP,
// an IPv6 address narrowed to its /64 (one household or device gets one).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}
