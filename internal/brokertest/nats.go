package brokertest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// NATSNodeConfig is what one node's configuration is made from.
type NATSNodeConfig struct {
	// Index is the node's place in the cluster (0, 1, 2); Name its
	// server_name (n1, n2, n3).
	Index int
	Name  string
	// MQTTPort and ClusterPort are the node's free loopback ports; Routes
	// are every node's cluster address (host:port), its own included.
	MQTTPort, ClusterPort int
	Routes                []string
	// StoreDir is the node's JetStream store, kept across Stop and Start.
	StoreDir string
}

// DefaultNATSConfig is a cluster node with MQTT as the venue broker needs
// it: JetStream on the node's own store, the routes to every node, MQTT
// streams with three replicas, clients on a random loopback port.
func DefaultNATSConfig(c NATSNodeConfig) string {
	routes := make([]string, len(c.Routes))
	for i, r := range c.Routes {
		routes[i] = "nats-route://" + r
	}
	return fmt.Sprintf(`server_name: %s
host: 127.0.0.1
port: -1
jetstream {
  store_dir: %q
}
cluster {
  name: sztab
  listen: 127.0.0.1:%d
  routes: [%s]
}
mqtt {
  listen: 127.0.0.1:%d
  stream_replicas: %d
}
`, c.Name, c.StoreDir, c.ClusterPort, strings.Join(routes, ", "), c.MQTTPort, len(c.Routes))
}

// NATSOptions configure a cluster; the zero value is three nodes of
// DefaultNATSConfig.
type NATSOptions struct {
	// Nodes is the cluster's size (default 3).
	Nodes int
	// Config makes a node's configuration file (default DefaultNATSConfig).
	Config func(NATSNodeConfig) string
	// Within bounds the wait for the cluster to take MQTT clients
	// (default 60 s: JetStream elects its leaders first).
	Within time.Duration
	// Server is the nats-server program (default ModuleNATS).
	Server NATSServer
	// Hosts, when set, makes the nats-hosts.conf written beside each
	// node's configuration (the shipped node files include it).
	Hosts func(NATSNodeConfig) string
}

// NATSCluster is a real NATS cluster with MQTT on loopback.
type NATSCluster struct {
	Nodes []*NATSNode
	t     testing.TB
}

// NATSNode is one node of the cluster.
type NATSNode struct {
	Name string
	// MQTTAddr is host:port of its MQTT listener, the same after a restart.
	MQTTAddr string
	StoreDir string
	// ConfigFile is the node's configuration as written.
	ConfigFile string
	t          testing.TB
	within     time.Duration
	p          *process
}

// StartNATSCluster starts the nodes and waits until every one takes MQTT
// clients (which needs the JetStream cluster formed: a node's MQTT CONNECT
// looks its session up in a replicated stream). t.Cleanup kills them.
func StartNATSCluster(t testing.TB, o NATSOptions) *NATSCluster {
	t.Helper()
	if o.Server.Binary == nil {
		o.Server = ModuleNATS
	}
	c, err := startNATSCluster(t, o.Server.Binary(t), o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func startNATSCluster(t testing.TB, bin string, o NATSOptions) (*NATSCluster, error) {
	if o.Nodes == 0 {
		o.Nodes = 3
	}
	if o.Config == nil {
		o.Config = DefaultNATSConfig
	}
	if o.Within == 0 {
		o.Within = 60 * time.Second
	}
	dir := t.TempDir()
	ports := FreePorts(t, 2*o.Nodes)
	routes := make([]string, o.Nodes)
	for i := range routes {
		routes[i] = "127.0.0.1:" + strconv.Itoa(ports[2*i+1])
	}
	c := &NATSCluster{t: t}
	for i := range o.Nodes {
		name := fmt.Sprintf("n%d", i+1)
		nc := NATSNodeConfig{Index: i, Name: name, MQTTPort: ports[2*i], ClusterPort: ports[2*i+1], Routes: routes,
			StoreDir: filepath.Join(dir, name, "jetstream")}
		// Each node's files in a folder of their own: a file's includes
		// are read beside it.
		conf := filepath.Join(dir, name, "nats-server.conf")
		if err := os.MkdirAll(nc.StoreDir, 0o755); err != nil {
			return nil, fmt.Errorf("brokertest: nats %s: %w", name, err)
		}
		if err := os.WriteFile(conf, []byte(o.Config(nc)), 0o644); err != nil {
			return nil, fmt.Errorf("brokertest: nats %s: %w", name, err)
		}
		if o.Hosts != nil {
			if err := os.WriteFile(filepath.Join(dir, name, "nats-hosts.conf"), []byte(o.Hosts(nc)), 0o644); err != nil {
				return nil, fmt.Errorf("brokertest: nats %s: %w", name, err)
			}
		}
		n := &NATSNode{Name: name, MQTTAddr: "127.0.0.1:" + strconv.Itoa(nc.MQTTPort), StoreDir: nc.StoreDir, ConfigFile: conf, t: t, within: o.Within,
			p: &process{t: t, name: "nats " + name, bin: bin, args: []string{"-c", conf}, log: filepath.Join(dir, name+".log")}}
		n.p.cleanup()
		c.Nodes = append(c.Nodes, n)
	}
	for _, n := range c.Nodes {
		n.p.start()
	}
	if err := c.waitReady(o.Within); err != nil {
		return nil, err
	}
	return c, nil
}

// waitReady waits for every running node at once; the first node to fail
// (its process ended, or the time is up) is the error.
func (c *NATSCluster) waitReady(within time.Duration) error {
	stop := make(chan struct{})
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	for _, n := range c.Nodes {
		if !n.p.running() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := waitMQTTOr(n.p, n.MQTTAddr, within, stop); err != nil {
				once.Do(func() { first = err; close(stop) })
			}
		}()
	}
	wg.Wait()
	return first
}

// Pid is the node's process id (for its CPU time), 0 while it is down.
func (n *NATSNode) Pid() int { return n.p.pid() }

// URLs are the nodes' MQTT URLs (tcp://127.0.0.1:port), in node order.
func (c *NATSCluster) URLs() []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = n.URL()
	}
	return out
}

// BrokerList is URLs as one comma-separated mqtt.broker value.
func (c *NATSCluster) BrokerList() string { return strings.Join(c.URLs(), ",") }

// URL is the node's MQTT URL.
func (n *NATSNode) URL() string { return "tcp://" + n.MQTTAddr }

// Kill kills the node (SIGKILL), as a power cut or a crash would; its
// store stays for Start.
func (n *NATSNode) Kill() { n.p.signal(syscall.SIGKILL) }

// Stop shuts the node down cleanly (SIGTERM); its store stays for Start.
func (n *NATSNode) Stop() { n.p.signal(syscall.SIGTERM) }

// Start starts the node again on its ports and its store and waits until
// it takes MQTT clients.
func (n *NATSNode) Start() {
	n.t.Helper()
	n.p.start()
	if err := waitMQTT(n.p, n.MQTTAddr, n.within); err != nil {
		n.t.Fatal(err)
	}
}

// Running says whether the node's process runs.
func (n *NATSNode) Running() bool { return n.p.running() && !n.p.exited() }

// Log is the tail of the node's log.
func (n *NATSNode) Log() string { return n.p.tail(40) }

// StreamLeader is the node that leads a JetStream stream ("$MQTT_sess",
// "$MQTT_rmsgs", "$MQTT_msgs": the MQTT interface's sessions, retained
// messages and QoS 1 messages), read from the nodes' logs (the last node
// to log that it became its leader), or nil when none has said so yet.
// While a stream's leader is down, what needs that stream waits for the
// election of a new one (nats-server 2.9: 4 s or more): an MQTT CONNECT
// needs $MQTT_sess, a retained publication $MQTT_rmsgs.
func (c *NATSCluster) StreamLeader(stream string) *NATSNode {
	return c.lastLogged("new stream leader for '$G > " + stream + "'")
}

// lastLogged is the node whose log has the latest line containing mark,
// and that line's time ("2026/11/23 19:38:02.891752": it sorts as text).
func (c *NATSCluster) lastLogged(mark string) *NATSNode {
	var leader *NATSNode
	var latest string
	for _, n := range c.Nodes {
		data, err := os.ReadFile(n.p.log)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if !strings.Contains(line, mark) {
				continue
			}
			if _, rest, ok := strings.Cut(line, "] "); ok && len(rest) >= 26 && rest[:26] > latest {
				latest, leader = rest[:26], n
			}
		}
	}
	return leader
}

// MetaLeader is the JetStream metadata leader, from the nodes' logs, or
// nil. While it is down, JetStream API requests (an MQTT CONNECT's lookup
// of the sessions' stream among them) wait for the election of another.
func (c *NATSCluster) MetaLeader() *NATSNode {
	return c.lastLogged("Self is new JetStream cluster metadata leader")
}

// clientAddr is the node's NATS client address, from its log.
func (n *NATSNode) clientAddr() string {
	data, _ := os.ReadFile(n.p.log)
	const mark = "Listening for client connections on "
	addr := ""
	for _, line := range strings.Split(string(data), "\n") {
		if _, rest, ok := strings.Cut(line, mark); ok {
			addr = strings.TrimSpace(rest)
		}
	}
	return addr
}

// MoveStreamLeader asks the stream's leader to step down until another
// node than away leads it (a JetStream API request over the NATS
// protocol), within 30 s.
func (c *NATSCluster) MoveStreamLeader(stream string, away *NATSNode) error {
	return c.stepDownUntil(stream, func(n *NATSNode) bool { return n != away }, "still led by "+away.Name)
}

// MoveStreamLeaderTo asks the stream's leader to step down until to leads
// it (each election picks one of the others), within 30 s: the drill puts
// every leader on the node it kills.
func (c *NATSCluster) MoveStreamLeaderTo(stream string, to *NATSNode) error {
	return c.stepDownUntil(stream, func(n *NATSNode) bool { return n == to }, "not led by "+to.Name)
}

func (c *NATSCluster) stepDownUntil(stream string, done func(*NATSNode) bool, failure string) error {
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); {
		leader := c.StreamLeader(stream)
		if leader != nil && done(leader) {
			return nil
		}
		if leader != nil {
			if err := natsPublish(leader.clientAddr(), "$JS.API.STREAM.LEADER.STEPDOWN."+stream); err != nil {
				return fmt.Errorf("brokertest: step down %s on %s: %w", stream, leader.Name, err)
			}
		}
		for wait := time.Now().Add(5 * time.Second); time.Now().Before(wait) && c.StreamLeader(stream) == leader; {
			time.Sleep(50 * time.Millisecond)
		}
	}
	return fmt.Errorf("brokertest: %s %s after 30 s", stream, failure)
}

// natsPublish sends one empty message on subject to a NATS server and
// waits for its PONG (the request is then taken).
func natsPublish(addr, subject string) error {
	if addr == "" {
		return fmt.Errorf("no client address in the node's log")
	}
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintf(conn, "CONNECT {\"verbose\":false,\"pedantic\":false}\r\nPUB %s _INBOX.brokertest 0\r\n\r\nPING\r\n", subject); err != nil {
		return err
	}
	buf := make([]byte, 4096)
	var got strings.Builder
	for !strings.Contains(got.String(), "PONG") {
		n, err := conn.Read(buf)
		if err != nil {
			return fmt.Errorf("%w (read %q)", err, got.String())
		}
		got.Write(buf[:n])
		if strings.Contains(got.String(), "-ERR") {
			return fmt.Errorf("server: %q", got.String())
		}
	}
	return nil
}
