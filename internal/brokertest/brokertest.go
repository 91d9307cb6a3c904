// Package brokertest starts real venue brokers for tests: Debian's
// Mosquitto, and a three-node NATS cluster with its MQTT interface
// (nats-server built from the Go module go.mod pins, or Debian's for a
// comparison), each on free loopback ports, with readiness
// waits, nodes that stop and start again on their own store, the brokers'
// logs in failure messages, and cleanup through t.Cleanup.
//
// Under CI (CI=true) a missing Debian binary fails the test, never skips
// it: `make test` installs both (scripts/deps.sh test).
package brokertest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// Binary finds one of Debian's broker programs (mosquitto, nats-server) on
// PATH or in the sbin directories Debian puts them in. Under CI a missing
// binary fails t; elsewhere t is skipped with how to install it.
func Binary(t testing.TB, name, pkg string) string {
	t.Helper()
	if bin, err := exec.LookPath(name); err == nil {
		return bin
	}
	for _, dir := range []string{"/usr/sbin", "/usr/local/sbin", "/usr/bin", "/usr/local/bin"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed; `make test` installs it (apt-get install %s)", name, pkg)
	}
	t.Skipf("%s is not installed; run `make test`, which installs it (apt-get install %s)", name, pkg)
	return ""
}

// MosquittoBinary is Debian's mosquitto (see Binary).
func MosquittoBinary(t testing.TB) string { return Binary(t, "mosquitto", "mosquitto") }

// FreePorts returns n distinct free loopback TCP ports, all held open until
// every one is chosen (so the n differ), then released.
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	ports := make([]int, n)
	ls := make([]net.Listener, n)
	for i := range ls {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("brokertest: a free port: %v", err)
		}
		ls[i] = l
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// process is one broker program the test runs, stops and starts again,
// its output appended to a log file kept for failure messages.
type process struct {
	t    testing.TB
	name string // for messages: "mosquitto", "nats n2"
	bin  string
	args []string
	log  string // file

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

func (p *process) start() {
	p.t.Helper()
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		p.t.Fatalf("brokertest: %s: log: %v", p.name, err)
	}
	fmt.Fprintf(f, "---- brokertest: %s started %s\n", p.name, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(p.bin, p.args...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		p.t.Fatalf("brokertest: start %s: %v", p.name, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); f.Close(); close(done) }()
	p.mu.Lock()
	p.cmd, p.done = cmd, done
	p.mu.Unlock()
}

// signal ends the process with sig and waits for it.
func (p *process) signal(sig os.Signal) {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.cmd = nil
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(sig)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

func (p *process) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil
}

// tail is the last lines of the log, for a failure message.
func (p *process) tail(lines int) string {
	data, err := os.ReadFile(p.log)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	ls := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(ls) > lines {
		ls = ls[len(ls)-lines:]
	}
	return strings.Join(ls, "\n")
}

// cleanup kills the process at the end of the test and, if the test
// failed, logs the tail of its log.
func (p *process) cleanup() {
	p.t.Cleanup(func() {
		p.signal(syscall.SIGKILL)
		if p.t.Failed() {
			p.t.Logf("%s's log (%s), last lines:\n%s", p.name, p.log, p.tail(40))
		}
	})
}

// probeMQTT connects once to addr as a fresh clean session and
// disconnects: nil once the broker takes MQTT clients.
func probeMQTT(addr string, timeout time.Duration) error {
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).
		SetClientID(fmt.Sprintf("brokertest-probe-%d", time.Now().UnixNano())).
		SetCleanSession(true).SetAutoReconnect(false).SetConnectRetry(false).SetConnectTimeout(timeout).
		SetProtocolVersion(4) // no fallback to 3.1, which NATS refuses

	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(timeout + time.Second) {
		return fmt.Errorf("no CONNACK within %v", timeout)
	}
	if err := tok.Error(); err != nil {
		// A broker that refuses an anonymous client has answered: it is up.
		if errors.Is(err, packets.ErrorRefusedNotAuthorised) || errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) {
			return nil
		}
		return err
	}
	c.Disconnect(0)
	return nil
}

// exited says whether the process has ended by itself.
func (p *process) exited() bool {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done == nil {
		return false
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// waitMQTT waits until the broker at addr takes an MQTT client, for
// within at most, or until the process ends; the error says which, why,
// and ends with the broker's log.
func waitMQTT(p *process, addr string, within time.Duration) error {
	return waitMQTTOr(p, addr, within, nil)
}

// waitMQTTOr is waitMQTT that gives up, returning nil, once stop closes.
func waitMQTTOr(p *process, addr string, within time.Duration, stop <-chan struct{}) error {
	var err error
	for end := time.Now().Add(within); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		select {
		case <-stop:
			return nil
		default:
		}
		if p.exited() {
			return fmt.Errorf("brokertest: %s exited before taking MQTT clients on %s; its log, last lines:\n%s", p.name, addr, p.tail(40))
		}
		if err = probeMQTT(addr, 2*time.Second); err == nil {
			return nil
		}
	}
	return fmt.Errorf("brokertest: %s on %s took no MQTT client within %v: %v; its log, last lines:\n%s", p.name, addr, within, err, p.tail(40))
}

// pid is the running process's id, 0 when it is not running.
func (p *process) pid() int {
	if p.exited() {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}
