// Package ops is what an organiser running a hall of tables needs from a
// process: /healthz, /readyz and /metrics over HTTP (the metrics only for
// the addresses allowed), the systemd notify and watchdog protocol, and
// labels that stay few however long the table plays. The table daemon and
// the venue hub both use it; it knows nothing of games.
package ops

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Allow is the list of client addresses that may scrape /metrics.
type Allow []netip.Prefix

// Loopback is the default Allow: 127.0.0.0/8 and ::1, so a table's metrics
// stay off its public addresses until the config names who may read them.
var Loopback = Allow{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// ParseAllow reads CIDR prefixes ("10.0.0.0/8") or single addresses
// ("192.168.1.5"); an error names the entry's index.
func ParseAllow(list []string) (Allow, error) {
	var out Allow
	for i, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		return nil, fmt.Errorf("[%d]: %q is not an address or a CIDR prefix like 10.0.0.0/8", i, s)
	}
	return out, nil
}

// Permits says whether a request from remoteAddr (host:port, as
// http.Request.RemoteAddr) may read the metrics. Only the connection's own
// address counts: a forwarded-for header is anyone's to write.
func (a Allow) Permits(remoteAddr string) bool {
	ap, err := netip.ParseAddrPort(remoteAddr)
	var addr netip.Addr
	if err == nil {
		addr = ap.Addr()
	} else if addr, err = netip.ParseAddr(remoteAddr); err != nil {
		return false
	}
	addr = addr.Unmap()
	for _, p := range a {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// Readiness is the list of checks /readyz reports. A required check that
// fails makes the process not ready (503); the others are reported only.
type Readiness struct {
	mu     sync.Mutex
	checks []check
}

type check struct {
	name     string
	required bool
	ok       func() bool
}

// Add adds a check; ok is called on every /readyz and must not block.
func (r *Readiness) Add(name string, required bool, ok func() bool) {
	r.mu.Lock()
	r.checks = append(r.checks, check{name, required, ok})
	r.mu.Unlock()
}

// Report is /readyz's answer.
type Report struct {
	Ready bool `json:"ready"`
	// Checks are each check's result by name.
	Checks map[string]bool `json:"checks"`
	// Required names the checks readiness depends on.
	Required []string `json:"required"`
}

// Report runs the checks.
func (r *Readiness) Report() Report {
	r.mu.Lock()
	checks := append([]check(nil), r.checks...)
	r.mu.Unlock()
	rep := Report{Ready: true, Checks: map[string]bool{}}
	for _, c := range checks {
		ok := c.ok()
		rep.Checks[c.name] = ok
		if c.required {
			rep.Required = append(rep.Required, c.name)
			rep.Ready = rep.Ready && ok
		}
	}
	sort.Strings(rep.Required)
	return rep
}

// Endpoints serve /healthz, /readyz and /metrics.
type Endpoints struct {
	Registry *prometheus.Registry
	Ready    *Readiness
	Allow    Allow
	Log      *slog.Logger
	refused  *prometheus.CounterVec
	metrics  http.Handler
	// warned are the refused hosts already logged: each once, and at most
	// maxWarned of them, so a scan from many addresses (an IPv6 prefix
	// has plenty) cannot grow the daemon's memory or fill its log.
	warnMu sync.Mutex
	warned map[string]bool
}

// NewEndpoints builds the handlers; allow nil means Loopback. The
// registry gets sztab_scrapes_refused_total.
func NewEndpoints(reg *prometheus.Registry, ready *Readiness, allow Allow, log *slog.Logger) *Endpoints {
	if allow == nil {
		allow = Loopback
	}
	if log == nil {
		log = slog.Default()
	}
	e := &Endpoints{Registry: reg, Ready: ready, Allow: allow, Log: log,
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sztab_scrapes_refused_total",
			Help: "Requests for /metrics refused because the client's address is not in metrics.allow."}, nil)}
	reg.MustRegister(e.refused)
	e.metrics = promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)})
	return e
}

// Paths are the paths Endpoints answer.
var Paths = []string{"/healthz", "/readyz", "/metrics"}

// ServeHTTP answers /healthz (the process is up), /readyz (200 or 503,
// JSON with each check) and /metrics (403 to an address not allowed).
func (e *Endpoints) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	switch r.URL.Path {
	case "/healthz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	case "/readyz":
		rep := e.Ready.Report()
		w.Header().Set("Content-Type", "application/json")
		if !rep.Ready {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		json.NewEncoder(w).Encode(rep)
	case "/metrics":
		if !e.Allow.Permits(r.RemoteAddr) {
			e.refused.WithLabelValues().Inc()
			host, _, _ := net.SplitHostPort(r.RemoteAddr)
			e.warnRefused(host)
			http.Error(w, "metrics: "+host+" is not in metrics.allow", http.StatusForbidden)
			return
		}
		e.metrics.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// Wrap serves Paths with e and everything else with next (the screens'
// listener shared with the metrics).
func (e *Endpoints) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, p := range Paths {
			if r.URL.Path == p {
				e.ServeHTTP(w, r)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Server is a listener of its own for the endpoints.
type Server struct {
	srv *http.Server
	l   net.Listener
}

// ErrListen wraps a listener that could not be opened; the message names
// the address.
var ErrListen = errors.New("ops: cannot listen")

// Listen opens addr and serves h on it until Close.
func Listen(addr string, h http.Handler, log *slog.Logger) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%w for metrics on %s: %w", ErrListen, addr, err)
	}
	s := &Server{l: l, srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}}
	go func() {
		if err := s.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener stopped", "addr", addr, "err", err)
		}
	}()
	return s, nil
}

// Addr is the address listened on, with the real port.
func (s *Server) Addr() string { return s.l.Addr().String() }

// Close stops the server.
func (s *Server) Close() error {
	if s == nil {
		return nil
	}
	return s.srv.Close()
}

// NewLogger is the processes' logger: text on a terminal, JSON for
// journald and log collectors. format is "text", "json" or "auto" (JSON
// when systemd connected stderr to the journal, which it says in
// $JOURNAL_STREAM; text otherwise).
func NewLogger(w io.Writer, format string, level slog.Level, getenv func(string) string) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case "auto", "":
		if getenv != nil && getenv("JOURNAL_STREAM") != "" {
			return slog.New(slog.NewJSONHandler(w, opts)), nil
		}
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want auto, text or json", format)
}

// maxWarned bounds the refused hosts logged by name.
const maxWarned = 256

func (e *Endpoints) warnRefused(host string) {
	e.warnMu.Lock()
	defer e.warnMu.Unlock()
	if e.warned[host] || len(e.warned) > maxWarned {
		return
	}
	if e.warned == nil {
		e.warned = map[string]bool{}
	}
	e.warned[host] = true
	if len(e.warned) > maxWarned {
		e.Log.Warn("metrics: more scrapes refused from further addresses; they are counted in sztab_scrapes_refused_total, not logged")
		return
	}
	e.Log.Warn("metrics: scrape refused: the address is not in metrics.allow", "remote", host)
}
