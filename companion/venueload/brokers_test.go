package venueload

import (
	"testing"

	"github.com/sztab/sztab/internal/brokertest"
)

// broker is a broker process (or several, a cluster) started for a run.
type broker struct {
	// urls are the MQTT URLs of its nodes (tcp://127.0.0.1:port).
	urls []string
	// pids are its processes, for their CPU time.
	pids []int
}

// startMosquitto starts Debian's Mosquitto on a free loopback port, as a
// venue's hall broker: anonymous, no persistence (the benchmark measures
// the live path), a deep queue for the subscribers of 100 tables.
func startMosquitto(tb testing.TB) broker {
	tb.Helper()
	m := brokertest.StartMosquitto(tb, "allow_anonymous true\nmax_queued_messages 10000\n")
	return broker{urls: []string{m.URL()}, pids: []int{m.Pid()}}
}

// startNATSCluster starts three nodes of server on loopback, clustered,
// each with JetStream and its MQTT interface, as firmware-config's venue
// cluster does.
func startNATSCluster(tb testing.TB, server brokertest.NATSServer) broker {
	tb.Helper()
	c := brokertest.StartNATSCluster(tb, brokertest.NATSOptions{Server: server})
	b := broker{urls: c.URLs()}
	for _, n := range c.Nodes {
		b.pids = append(b.pids, n.Pid())
	}
	return b
}
