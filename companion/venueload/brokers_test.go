package venueload

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// broker is a broker process (or several, a cluster) started for a run.
type broker struct {
	// urls are the MQTT URLs of its nodes (tcp://127.0.0.1:port).
	urls []string
	// pids are its processes, for their CPU time.
	pids []int
}

// binary finds a broker's Debian binary. A missing one fails the run,
// never skips it: `make bench` and `make test` install them (scripts/deps.sh).
func binary(tb testing.TB, name string) string {
	tb.Helper()
	if bin, err := exec.LookPath(name); err == nil {
		return bin
	}
	for _, dir := range []string{"/usr/sbin", "/usr/local/sbin", "/usr/bin"} {
		if p := filepath.Join(dir, name); fileExists(p) {
			return p
		}
	}
	tb.Fatalf("venueload: %s is not installed; `make bench` installs it (apt-get install %s)", name, name)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// freePorts returns n loopback ports free a moment ago.
func freePorts(tb testing.TB, n int) []int {
	tb.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// startProcess starts a broker process, stopped when the test ends; out
// collects what it says, for the failure message.
func startProcess(tb testing.TB, bin string, args ...string) (*exec.Cmd, *strings.Builder) {
	tb.Helper()
	out := &strings.Builder{}
	cmd := exec.Command(bin, args...)
	w := &lockedWriter{b: out}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		tb.Fatalf("venueload: start %s: %v", bin, err)
	}
	tb.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, out
}

func waitListening(tb testing.TB, addr, what string, out *strings.Builder) {
	tb.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
	}
	tb.Fatalf("venueload: %s did not listen on %s: %s", what, addr, out.String())
}

// startMosquitto starts Debian's Mosquitto on a free loopback port, as a
// venue's hall broker: anonymous, no persistence (the benchmark measures
// the live path).
func startMosquitto(tb testing.TB) broker {
	tb.Helper()
	bin := binary(tb, "mosquitto")
	port := freePorts(tb, 1)[0]
	dir := tb.TempDir()
	conf := fmt.Sprintf("listener %d 127.0.0.1\nallow_anonymous true\nmax_queued_messages 10000\n", port)
	if os.Geteuid() == 0 {
		conf += "user root\n"
	}
	path := filepath.Join(dir, "mosquitto.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd, out := startProcess(tb, bin, "-c", path)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	waitListening(tb, addr, "mosquitto", out)
	return broker{urls: []string{"tcp://" + addr}, pids: []int{cmd.Process.Pid}}
}

// startNATSCluster starts three nats-server nodes on loopback, clustered,
// each with JetStream and its MQTT interface, as firmware-config's venue
// cluster does. (internal/brokertest has the project's starter; this one
// is the benchmark's own, small one.)
func startNATSCluster(tb testing.TB) broker {
	tb.Helper()
	bin := binary(tb, "nats-server")
	const nodes = 3
	ports := freePorts(tb, 3*nodes) // client, cluster, mqtt per node
	dir := tb.TempDir()
	var b broker
	var routes []string
	for i := range nodes {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[nodes+i]))
	}
	var outs []*strings.Builder
	for i := range nodes {
		conf := fmt.Sprintf(`server_name: n%d
listen: 127.0.0.1:%d
jetstream { store_dir: %q }
cluster { name: sztab-venue, listen: 127.0.0.1:%d, routes: [%s] }
mqtt { listen: 127.0.0.1:%d }
`, i+1, ports[i], filepath.Join(dir, fmt.Sprintf("n%d", i+1)), ports[nodes+i], strings.Join(routes, ", "), ports[2*nodes+i])
		path := filepath.Join(dir, fmt.Sprintf("n%d.conf", i+1))
		if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
			tb.Fatal(err)
		}
		cmd, out := startProcess(tb, bin, "-c", path)
		outs = append(outs, out)
		b.pids = append(b.pids, cmd.Process.Pid)
		b.urls = append(b.urls, fmt.Sprintf("tcp://127.0.0.1:%d", ports[2*nodes+i]))
	}
	for i := range nodes {
		waitListening(tb, fmt.Sprintf("127.0.0.1:%d", ports[2*nodes+i]), fmt.Sprintf("nats-server n%d (mqtt)", i+1), outs[i])
	}
	return b
}
