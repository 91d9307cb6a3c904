package brokertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Mosquitto is a real Mosquitto on a free loopback port.
type Mosquitto struct {
	// Addr is host:port of its listener.
	Addr string
	t    testing.TB
	p    *process
}

// StartMosquitto runs Mosquitto with settings: lines of mosquitto.conf that
// apply to the test's own listener, which comes first (allow_anonymous,
// password_file, acl_file, persistence …). It waits until Mosquitto takes
// MQTT clients; t.Cleanup stops it.
func StartMosquitto(t testing.TB, settings string) *Mosquitto {
	t.Helper()
	m, err := startMosquitto(t, MosquittoBinary(t), settings)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func startMosquitto(t testing.TB, bin, settings string) (*Mosquitto, error) {
	dir := t.TempDir()
	port := FreePorts(t, 1)[0]
	runAs := ""
	if os.Geteuid() == 0 {
		runAs = "user root\n" // Mosquitto drops root for "mosquitto" otherwise
	}
	conf := filepath.Join(dir, "mosquitto.conf")
	text := fmt.Sprintf("listener %d 127.0.0.1\n%s\n%s", port, settings, runAs)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		return nil, fmt.Errorf("brokertest: mosquitto: %w", err)
	}
	m := &Mosquitto{Addr: "127.0.0.1:" + strconv.Itoa(port), t: t,
		p: &process{t: t, name: "mosquitto", bin: bin, args: []string{"-c", conf}, log: filepath.Join(dir, "mosquitto.log")}}
	m.p.cleanup()
	m.p.start()
	if err := waitMQTT(m.p, m.Addr, 20*time.Second); err != nil {
		return nil, err
	}
	return m, nil
}

// URL is the broker's URL for a table's mqtt.broker.
func (m *Mosquitto) URL() string { return "tcp://" + m.Addr }

// Pid is the broker's process id (for its CPU time), 0 while it is stopped.
func (m *Mosquitto) Pid() int { return m.p.pid() }

// Stop stops Mosquitto as a service stop does (SIGTERM: it saves its
// sessions and retained messages when persistence is on).
func (m *Mosquitto) Stop() { m.p.signal(syscall.SIGTERM) }

// Start starts it again on the same port and waits until it takes clients.
func (m *Mosquitto) Start() {
	m.t.Helper()
	m.p.start()
	if err := waitMQTT(m.p, m.Addr, 20*time.Second); err != nil {
		m.t.Fatal(err)
	}
}

// Log is the tail of Mosquitto's log.
func (m *Mosquitto) Log() string { return m.p.tail(40) }
