package companion

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/internal/logbuf"
	"github.com/sztab/sztab/internal/testclock"
)

var t0 = time.Date(2024, 8, 1, 17, 0, 0, 0, time.UTC)

// After free failures each one locks the key, for twice as long as the
// last, up to max.
func TestBrakeLocksLongerAfterEachFailure(t *testing.T) {
	b := newBrake(3, time.Second, 8*time.Second, time.Hour, 16)
	now := t0
	for i, want := range []time.Duration{0, 0, 0, 1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second} {
		if _, locked := b.Locked("sedzia", now); locked {
			t.Fatalf("failure %d: locked before it", i+1)
		}
		until := b.Fail("sedzia", now)
		if got := until.Sub(now); want == 0 && !until.IsZero() || want != 0 && got != want {
			t.Errorf("failure %d: locked for %v, want %v", i+1, got, want)
		}
		if _, locked := b.Locked("sedzia", now.Add(want-time.Nanosecond)); want > 0 && !locked {
			t.Errorf("failure %d: not locked just before the lock ends", i+1)
		}
		if _, locked := b.Locked("ania", now); locked {
			t.Errorf("failure %d: another key is locked too", i+1)
		}
		now = now.Add(want)
	}
}

// A key quiet for forget starts afresh; a success does not clear it.
func TestBrakeForgets(t *testing.T) {
	b := newBrake(1, time.Second, time.Minute, time.Hour, 16)
	b.Fail("1.2.3.4", t0)
	if until := b.Fail("1.2.3.4", t0.Add(59*time.Minute)); until.IsZero() {
		t.Error("the second failure within the hour did not lock")
	}
	if until := b.Fail("1.2.3.4", t0.Add(59*time.Minute+61*time.Minute)); !until.IsZero() {
		t.Error("a failure after an hour of quiet locked: the key was not forgotten")
	}
}

// However many addresses fail, the brake keeps at most its number of keys,
// dropping the one quiet longest.
func TestBrakeMemoryIsBounded(t *testing.T) {
	b := newBrake(0, time.Second, time.Minute, time.Hour, 100)
	now := t0
	for i := range 10000 {
		now = now.Add(time.Millisecond)
		b.Fail(fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255), now)
		if n := b.Len(); n > 100 {
			t.Fatalf("%d keys kept after %d addresses, want at most 100", n, i+1)
		}
	}
	if _, locked := b.Locked("10.0.39.15", now); !locked { // the last one
		t.Error("the newest key was dropped")
	}
	if _, locked := b.Locked("10.0.0.0", now); locked {
		t.Error("the oldest key was kept")
	}
}

func TestAddressKey(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"192.0.2.7:50000", "192.0.2.7"},
		{"[2001:db8::1]:50000", "2001:db8::/64"},
		{"[2001:db8::9:1]:50001", "2001:db8::/64"},
		{"[2001:db8:0:1::1]:50001", "2001:db8:0:1::/64"},
		{"[::ffff:192.0.2.7]:1", "192.0.2.7"},
		{"pipe", "pipe"},
	} {
		if got := addressKey(tc.remote); got != tc.want {
			t.Errorf("addressKey(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}

// syncBuffer is a log both the broker and the test touch.
type syncBuffer = logbuf.Buffer

// connackFrom connects from a loopback address with a CONNECT and returns
// the broker's return code (0 accepted, 5 not authorised).
func connackFrom(t *testing.T, addr, from string, connect []byte) byte {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	c.Write(connect)
	ack := make([]byte, 4)
	if _, err := io.ReadFull(c, ack); err != nil || ack[0] != 0x20 {
		t.Fatalf("no CONNACK from %s: % x %v", from, ack, err)
	}
	return ack[3]
}

// After a few wrong passwords for a user, or from an address, the next
// attempts are refused without checking the password, for a growing time;
// the lock is logged once with the user and the address.
func TestEmbeddedBrokerBrakesGuessing(t *testing.T) {
	clock := testclock.New(t0)
	var log syncBuffer
	b, err := startBroker("127.0.0.1:0", takeoverUsers, brokerConfig{limits: defaultBrokerLimits, clock: clock.Now},
		slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const accepted, refused = 0, 5
	// The broker listens on 127.0.0.1; the other addresses of 127/8 reach it too.
	a, other := "127.0.0.1", "127.0.0.2"
	for i, st := range []struct {
		advance          time.Duration
		from, user, pass string
		want             byte
	}{
		{0, a, "sedzia", "1", refused},
		{0, a, "sedzia", "2", refused},
		{0, a, "sedzia", "3", refused},
		{0, a, "sedzia", "4", refused},
		{0, a, "sedzia", "5", refused},
		{0, a, "sedzia", "6", refused}, // locks sedzia and a for 1 s
		{0, other, "sedzia", "r", refused},
		{0, other, "", "", accepted},
		{0, a, "", "", refused},
		{0, a, "daemon", "d", accepted}, // the table's daemon is not held by its address
		{1500 * time.Millisecond, other, "sedzia", "r", accepted},
		{0, a, "ania", "x", refused}, // a's seventh failure: locked for 2 s
		{0, a, "ania", "a", refused},
		{1500 * time.Millisecond, a, "ania", "a", refused},
		{time.Second, a, "ania", "a", accepted},
	} {
		clock.Add(st.advance)
		if got := connackFrom(t, b.Addr(), st.from, rawConnect(fmt.Sprint("c", i), st.user, st.pass)); got != st.want {
			t.Errorf("step %d: %q from %s: return code %d, want %d", i+1, st.user, st.from, got, st.want)
		}
	}
	logged := log.String()
	for _, want := range []string{
		`too many wrong passwords for a user; refusing it unchecked for a while" component=broker user=sedzia remote=127.0.0.1:`,
		`too many refused connects from an address; refusing it unchecked for a while" component=broker user=sedzia remote=127.0.0.1:`,
	} {
		if !strings.Contains(logged, want) {
			t.Errorf("the log lacks %s:\n%s", want, logged)
		}
	}
	// Guessing on while locked costs no log line each.
	lines := strings.Count(log.String(), "\n")
	for i := range 50 {
		connackFrom(t, b.Addr(), a, rawConnect(fmt.Sprint("g", i), "sedzia", fmt.Sprint(i)))
	}
	if more := strings.Count(log.String(), "\n") - lines; more > 3 {
		t.Errorf("50 guesses while locked logged %d lines, want at most 3:\n%s", more, log.String())
	}
}
