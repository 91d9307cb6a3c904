package review

import (
	"net"
	"testing"
)

// The address the page is served on is its own, also when it is not a
// loopback one (sztab review --serve 0.0.0.0:8090, reached by its LAN
// address).
func TestReviewHostIsOwn(t *testing.T) {
	lan := &net.TCPAddr{IP: net.ParseIP("192.168.1.5"), Port: 8090}
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"192.168.1.5:8090", true},
		{"localhost:8090", true},
		{"[::1]:8090", true},
		{"192.168.1.6:8090", false},
		{"192.168.1.5:8091", false},
		{"stol.local:8090", false},
		{"", false},
	} {
		if got := hostIsOwn(tc.host, lan); got != tc.want {
			t.Errorf("hostIsOwn(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}
