package companion

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// MaxPacketSize is the largest MQTT packet the table sends (and its
// embedded broker takes from the daemon): the annotated table image,
// published retained on .../image, is a JPEG of a 1080p camera frame,
// 0.3–2 MiB at the qualities a camera gives; 4 MiB leaves room. Publish
// refuses a larger message rather than have the broker cut the connection
// and the client send it again at every reconnect. An outside broker needs
// at least this (max_packet_size in firmware-config/mosquitto).
const MaxPacketSize = 4 << 20

// brokerLimits bound what strangers can make the embedded broker hold.
type brokerLimits struct {
	// clientPacket is the largest packet from anyone but the daemon, and
	// of any CONNECT (read before the password is checked): subscriptions
	// and a referee's command are small. mochi allocates a packet's whole
	// announced length before reading it, so this is what one connection
	// can make it allocate; daemonPacket is the daemon's, once it has
	// authenticated.
	clientPacket, daemonPacket int
	// connections is the cap on open connections; reserve more are kept
	// for the loopback address, where the table's own daemon connects
	// from, so that strangers filling the cap cannot keep it out.
	connections, reserve int
	// perAddress caps the connections from one address, so that one host
	// cannot take every place; the loopback address gets reserve more.
	perAddress int
	// connect is how long a new connection has to send its CONNECT.
	connect time.Duration
	// sessionExpiry (seconds) is how long a persistent session outlives
	// its connection (a referee's tablet losing the Wi-Fi for a while).
	sessionExpiry uint32
	// pending is how many outgoing packets may wait for a slow client,
	// inflight how many QoS 1/2 messages to it may wait for its
	// acknowledgement, receive how many of its own may be unacknowledged.
	// mochi drops a QoS 1 message to a client over its in-flight limit, so
	// that limit is well above a burst the table sends (a catch-up after
	// an outage goes out in windows of publishWindow messages).
	pending  int32
	inflight uint16
	receive  uint16
	// commandBurst commands at once, then one every commandEvery, is what
	// the broker passes on from one role (a player's seat; the referee
	// twice that): the rest are acknowledged and dropped, so that one
	// role's flood cannot fill the daemon's queue at the broker (pending),
	// where mochi would drop everyone's commands alike. The table's own
	// rate per sender (commandLimits) is well below this.
	commandBurst int
	commandEvery time.Duration
}

// DefaultBrokerConnsPerAddr is how many connections the embedded broker
// takes from one address (mqtt.max_connections_per_address): a referee's
// tablet, a watch and a few screens, with room to spare.
const DefaultBrokerConnsPerAddr = 32

var defaultBrokerLimits = brokerLimits{
	clientPacket:  64 << 10,
	daemonPacket:  MaxPacketSize,
	connections:   512,
	reserve:       8,
	perAddress:    DefaultBrokerConnsPerAddr,
	connect:       10 * time.Second,
	sessionExpiry: 5 * 60,
	pending:       512,
	inflight:      512,
	receive:       32,
	commandBurst:  100,
	commandEvery:  20 * time.Millisecond,
}

// limitListener caps the open connections, gives each one a deadline for
// its CONNECT and checks the size of every packet before mochi reads it.
type limitListener struct {
	net.Listener
	limits   brokerLimits
	reserved func(net.Addr) bool // may use the reserve
	log      *slog.Logger

	mu    sync.Mutex
	open  int
	full  bool           // the cap is reached (logged once)
	addrs map[string]int // open connections per address
	// crowded are the addresses at their cap (each logged once until
	// one of its connections closes).
	crowded map[string]bool
}

func newLimitListener(l net.Listener, limits brokerLimits, log *slog.Logger) *limitListener {
	return &limitListener{Listener: l, limits: limits, reserved: isLoopback, log: log, addrs: map[string]int{}, crowded: map[string]bool{}}
}

func isLoopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// Accept returns the next connection within the cap; those over it are
// closed at once. mochi stops listening for good when Accept fails, so an
// error other than a closed listener (out of file descriptors) is waited
// out, not returned.
func (l *limitListener) Accept() (net.Conn, error) {
	wait := 5 * time.Millisecond
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil, err
			}
			l.log.Warn("embedded broker: accept failed; retrying", "err", err, "in", wait)
			time.Sleep(wait)
			wait = min(2*wait, time.Second)
			continue
		}
		wait = 5 * time.Millisecond
		if !l.admit(c.RemoteAddr()) {
			c.Close()
			continue
		}
		c.SetReadDeadline(time.Now().Add(l.limits.connect))
		addr := brokerAddrKey(c.RemoteAddr())
		lc := &limitConn{Conn: c, release: func() { l.release(addr) }, remote: c.RemoteAddr().String()}
		lc.limit.Store(int64(l.limits.clientPacket))
		return lc, nil
	}
}

// brokerAddrKey is the address a connection counts against: its host
// (IPv6: its /64, as the sign-in brakes count it).
func brokerAddrKey(a net.Addr) string { return addressKey(a.String()) }

func (l *limitListener) admit(a net.Addr) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	max, perAddr := l.limits.connections, l.limits.perAddress
	if l.reserved(a) {
		max += l.limits.reserve
		perAddr += l.limits.reserve
	}
	key := brokerAddrKey(a)
	if l.limits.perAddress > 0 && l.addrs[key] >= perAddr {
		if !l.crowded[key] {
			l.crowded[key] = true
			l.log.Warn("embedded broker: too many connections from one address; refusing its new ones", "remote", key, "max", perAddr)
		}
		return false
	}
	if l.open >= max {
		if !l.full {
			l.full = true
			l.log.Warn("embedded broker: too many connections; refusing new ones", "open", l.open, "remote", a.String())
		}
		return false
	}
	l.open++
	l.addrs[key]++
	return true
}

func (l *limitListener) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.addrs[key]--; l.addrs[key] <= 0 {
		delete(l.addrs, key)
	}
	delete(l.crowded, key)
	if l.full && l.open < l.limits.connections {
		l.full = false
		l.log.Warn("embedded broker: taking connections again", "open", l.open)
	}
}

// Open is the number of connections open.
func (l *limitListener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// limitConn is one accepted connection: it frees its place under the cap
// once closed and refuses a packet over its limit as soon as the packet's
// fixed header announces it, before mochi allocates the rest.
type limitConn struct {
	net.Conn
	release func()
	remote  string
	once    sync.Once
	limit   atomic.Int64
	frames  frameScanner // only Read touches it
}

func (c *limitConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if size, over := c.frames.scan(p[:n], c.limit.Load()); over {
		c.Conn.Close()
		return 0, fmt.Errorf("companion: broker: %s announced a packet of %d bytes, over its limit of %d", c.remote, size, c.limit.Load())
	}
	return n, err
}

func (c *limitConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// allow sets the largest packet the connection may send from now on.
func (c *limitConn) allow(n int) { c.limit.Store(int64(n)) }

// frameScanner follows the MQTT packets in a byte stream: a fixed header
// (a type byte, then the remaining length in 1–4 bytes of 7 bits each)
// and a body of that length.
type frameScanner struct {
	header int   // bytes of the fixed header seen: 0 before a packet
	length int64 // the remaining length decoded so far
	body   int64 // bytes of the current body still to come
}

// scan reads p and reports the size of the first packet whose fixed header
// announces more than limit bytes in all (or a malformed length, as -1).
func (f *frameScanner) scan(p []byte, limit int64) (int64, bool) {
	for i := 0; i < len(p); {
		if f.body > 0 {
			n := min(f.body, int64(len(p)-i))
			f.body -= n
			i += int(n)
			continue
		}
		b := p[i]
		i++
		if f.header == 0 {
			f.header, f.length = 1, 0
			continue
		}
		f.length |= int64(b&0x7f) << (7 * (f.header - 1))
		f.header++
		if b&0x80 != 0 {
			if f.header > 4 {
				return -1, true // a fifth length byte: malformed
			}
			continue
		}
		if size := int64(f.header) + f.length; size > limit {
			return size, true
		}
		f.body, f.header = f.length, 0
	}
	return 0, false
}
