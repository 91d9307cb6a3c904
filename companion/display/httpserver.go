package display

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// TLSFiles are a PEM certificate (chain) and its key; both set: HTTPS.
type TLSFiles struct {
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
}

// Enabled says whether TLS is asked for.
func (t TLSFiles) Enabled() bool { return t.CertFile != "" || t.KeyFile != "" }

// The defaults of HTTPOptions.
const (
	DefaultMaxConns          = 256
	DefaultMaxConnsPerAddr   = 16
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	// sseWriteTimeout is how long one write of a live stream may take; the
	// stream itself lasts as long as the page stays.
	sseWriteTimeout = 10 * time.Second
)

// HTTPOptions say how the screens (or the venue wall) are served. Zero
// values take the defaults.
type HTTPOptions struct {
	// Addr is the address to listen on (":8080").
	Addr string
	// TLS, when set, serves HTTPS (and HTTP/2) only.
	TLS TLSFiles
	// MaxConns caps the connections served at once (default 256); more wait
	// until one closes. MaxConnsPerAddr caps those of one client address
	// (default 16: a browser opens 6 at most to a server, so two or three
	// pages); more are closed at once, so that one client cannot hold
	// every connection with live streams. The live streams have limits of
	// their own (Server.Streams): the public ones together take half of
	// MaxConns at most.
	MaxConns, MaxConnsPerAddr int
	// Timeouts of the server (defaults 10s, 30s, 30s, 2m). The live
	// streams (/stream) set their own deadline on each write instead.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	Log                                                       *slog.Logger
}

// HTTPServer is a server listening as HTTPOptions say; Serve runs it, and
// Server.Shutdown or Server.Close stop it.
type HTTPServer struct {
	Server   *http.Server
	listener *limitListener
	tls      bool
}

// Listen opens the listener and builds the server for h.
func Listen(o HTTPOptions, h http.Handler) (*HTTPServer, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	def(&o.ReadTimeout, DefaultReadTimeout)
	def(&o.WriteTimeout, DefaultWriteTimeout)
	def(&o.IdleTimeout, DefaultIdleTimeout)
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxConnsPerAddr <= 0 {
		o.MaxConnsPerAddr = DefaultMaxConnsPerAddr
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(o.Log.Handler(), slog.LevelWarn),
	}
	if o.TLS.Enabled() {
		if o.TLS.CertFile == "" || o.TLS.KeyFile == "" {
			return nil, fmt.Errorf("display: tls: cert_file and key_file go together")
		}
		cert, err := tls.LoadX509KeyPair(o.TLS.CertFile, o.TLS.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("display: tls: %w", err)
		}
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	}
	l, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("display: listen on %s: %w", o.Addr, err)
	}
	ll := newLimitListener(l, o.MaxConns, o.MaxConnsPerAddr, o.Log)
	srv.ConnState = ll.connState
	return &HTTPServer{Server: srv, listener: ll, tls: srv.TLSConfig != nil}, nil
}

// Addr is the address listened on.
func (s *HTTPServer) Addr() string { return s.listener.Addr().String() }

// Scheme is https or http.
func (s *HTTPServer) Scheme() string {
	if s.tls {
		return "https"
	}
	return "http"
}

// Serve serves until the server is shut down (http.ErrServerClosed).
func (s *HTTPServer) Serve() error {
	if s.tls {
		return s.Server.ServeTLS(s.listener, "", "")
	}
	return s.Server.Serve(s.listener)
}

// limitListener serves at most max connections at once (Accept waits for
// one to close) and at most perAddr from one client address (more are
// closed at once). At the cap, a connection idle between requests (a
// browser's keep-alive, or a client that holds one open on purpose) is
// closed to make room, the longest idle first, rather than have a new
// one wait for IdleTimeout.
type limitListener struct {
	net.Listener
	log     *slog.Logger
	sem     chan struct{}
	done    chan struct{}
	perAddr int
	// waiting, when set, is called when Accept has to wait (for tests).
	waiting func()

	mu     sync.Mutex
	addrs  map[string]int
	idle   map[*limitConn]time.Time // connections idle between requests, since when
	full   bool                     // logged that the cap is reached, not yet that it is not
	closed bool
}

func newLimitListener(l net.Listener, max, perAddr int, log *slog.Logger) *limitListener {
	return &limitListener{Listener: l, log: log, sem: make(chan struct{}, max), done: make(chan struct{}), perAddr: perAddr,
		addrs: map[string]int{}, idle: map[*limitConn]time.Time{}}
}

// connState follows which connections are idle between requests (the
// server's ConnState hook).
func (l *limitListener) connState(c net.Conn, st http.ConnState) {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	lc, ok := c.(*limitConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if st == http.StateIdle {
		l.idle[lc] = time.Now()
	} else {
		delete(l.idle, lc)
	}
}

// shedIdle closes the connection idle the longest, if any.
func (l *limitListener) shedIdle() bool {
	l.mu.Lock()
	var oldest *limitConn
	var since time.Time
	for c, t := range l.idle {
		if oldest == nil || t.Before(since) {
			oldest, since = c, t
		}
	}
	delete(l.idle, oldest)
	l.mu.Unlock()
	if oldest == nil {
		return false
	}
	oldest.Close()
	return true
}

func (l *limitListener) acquire() bool {
	select {
	case l.sem <- struct{}{}:
		return true
	default:
	}
	l.shedIdle()
	l.mu.Lock()
	if !l.full {
		l.full = true
		l.log.Warn("display: connection cap reached; new connections wait", "max", cap(l.sem))
	}
	l.mu.Unlock()
	if l.waiting != nil {
		l.waiting()
	}
	// A connection that goes idle while this one waits gives its place.
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case l.sem <- struct{}{}:
			return true
		case <-l.done:
			return false
		case <-tick.C:
			l.shedIdle()
		}
	}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		// The connection is taken first and then waits for a place: only
		// a client that is there makes an idle one give its place up.
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := connAddr(c)
		l.mu.Lock()
		over := l.addrs[addr] >= l.perAddr
		l.mu.Unlock()
		if over {
			c.Close()
			l.log.Debug("display: too many connections from one address; closed", "remote", addr, "max", l.perAddr)
			continue
		}
		if !l.acquire() {
			c.Close()
			return nil, net.ErrClosed
		}
		l.mu.Lock()
		l.addrs[addr]++
		l.mu.Unlock()
		lc := &limitConn{Conn: c}
		lc.release = func() { l.release(lc, addr) }
		return lc, nil
	}
}

func (l *limitListener) release(c *limitConn, addr string) {
	l.mu.Lock()
	delete(l.idle, c)
	if l.addrs[addr]--; l.addrs[addr] <= 0 {
		delete(l.addrs, addr)
	}
	if l.full && len(l.sem) < cap(l.sem) {
		l.full = false
		l.log.Info("display: below the connection cap again", "max", cap(l.sem))
	}
	l.mu.Unlock()
	<-l.sem
}

func (l *limitListener) Close() error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.done)
	}
	l.mu.Unlock()
	return l.Listener.Close()
}

func connAddr(c net.Conn) string {
	r := &http.Request{RemoteAddr: c.RemoteAddr().String()}
	return clientAddr(r)
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
