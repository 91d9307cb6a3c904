package ops

import (
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Notifier speaks systemd's notify protocol (sd_notify(3)): datagrams of
// "KEY=value" lines to the unix socket named by $NOTIFY_SOCKET ("@name" an
// abstract one). Without the socket every call does nothing, so the daemon
// runs the same from a terminal.
type Notifier struct {
	socket string
	// interval is how often the watchdog wants a ping: half of
	// $WATCHDOG_USEC, as sd_watchdog_enabled(3) advises; 0 is no watchdog.
	interval time.Duration
	log      *slog.Logger

	mu   sync.Mutex
	conn *net.UnixConn
	warn bool // a send failure was logged
}

// NewNotifier reads $NOTIFY_SOCKET, $WATCHDOG_USEC and $WATCHDOG_PID
// through getenv (nil: no systemd). A watchdog asked for without a notify
// socket, or a $WATCHDOG_USEC that is not a number, is a warning: the
// process runs on without pinging.
func NewNotifier(getenv func(string) string, pid int, log *slog.Logger) *Notifier {
	if log == nil {
		log = slog.Default()
	}
	n := &Notifier{log: log}
	if getenv == nil {
		return n
	}
	n.socket = getenv("NOTIFY_SOCKET")
	usec := getenv("WATCHDOG_USEC")
	if usec == "" {
		return n
	}
	if p := getenv("WATCHDOG_PID"); p != "" && p != strconv.Itoa(pid) {
		return n // the watchdog is another process's
	}
	us, err := strconv.ParseInt(usec, 10, 64)
	if err != nil || us <= 0 {
		log.Warn("systemd: WATCHDOG_USEC is not a positive number of microseconds; no watchdog pings", "WATCHDOG_USEC", usec)
		return n
	}
	if n.socket == "" {
		log.Warn("systemd: WATCHDOG_USEC is set but NOTIFY_SOCKET is not, so the watchdog cannot be pinged; "+
			"run the daemon from a unit with Type=notify (firmware-config/systemd/sztab.service)", "WATCHDOG_USEC", usec)
		return n
	}
	n.interval = time.Duration(us) * time.Microsecond / 2
	return n
}

// Enabled says whether a notify socket is set.
func (n *Notifier) Enabled() bool { return n != nil && n.socket != "" }

// WatchdogInterval is how often Watchdog must be called (0: never).
func (n *Notifier) WatchdogInterval() time.Duration {
	if n == nil {
		return 0
	}
	return n.interval
}

// Ready says the service is up and takes input, with a status line.
func (n *Notifier) Ready(status string) { n.send("READY=1\nSTATUS=" + oneLine(status)) }

// Status updates the status line systemctl status shows.
func (n *Notifier) Status(status string) { n.send("STATUS=" + oneLine(status)) }

// Watchdog pings the watchdog.
func (n *Notifier) Watchdog() { n.send("WATCHDOG=1") }

// Stopping says the service is shutting down.
func (n *Notifier) Stopping() { n.send("STOPPING=1") }

// Close closes the socket.
func (n *Notifier) Close() {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conn != nil {
		n.conn.Close()
		n.conn = nil
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func (n *Notifier) send(msg string) {
	if !n.Enabled() {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conn == nil {
		// Go's net package makes a leading '@' an abstract socket name.
		c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: n.socket, Net: "unixgram"})
		if err != nil {
			n.failed(err)
			return
		}
		n.conn = c
	}
	n.conn.SetWriteDeadline(time.Now().Add(time.Second))
	if _, err := n.conn.Write([]byte(msg)); err != nil {
		n.conn.Close()
		n.conn = nil
		n.failed(err)
		return
	}
	n.warn = false
}

func (n *Notifier) failed(err error) {
	if !n.warn {
		n.log.Warn("systemd: cannot notify", "socket", n.socket, "err", err)
		n.warn = true
	}
}
