package brokertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Root is the repository's top, found from the test's working directory
// (a package's folder) by its go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("brokertest: no go.mod above the test's folder")
		}
		dir = up
	}
}

// Login is a user name and password in the broker's password file.
type Login struct{ User, Password string }

// StartShippedMosquitto runs Mosquitto with the very files the README tells
// an organiser to copy, firmware-config/mosquitto/mosquitto.conf.example
// and acl.example, changed only where a test must: its listener is the
// test's free loopback port, the password and ACL files are in the test's
// folder (the password file made by mosquitto_passwd with logins), and the
// example's venue "klub" is venue.
func StartShippedMosquitto(t testing.TB, venue string, logins ...Login) *Mosquitto {
	t.Helper()
	root := Root(t)
	conf, err := os.ReadFile(filepath.Join(root, "firmware-config/mosquitto/mosquitto.conf.example"))
	if err != nil {
		t.Fatal(err)
	}
	acl, err := os.ReadFile(filepath.Join(root, "firmware-config/mosquitto/acl.example"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	aclFile, passwd := filepath.Join(dir, "acl"), filepath.Join(dir, "passwd")
	if err := os.WriteFile(aclFile, []byte(strings.ReplaceAll(string(acl), "/klub/", "/"+venue+"/")), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := exec.LookPath("mosquitto_passwd")
	if err != nil {
		bin = "/usr/bin/mosquitto_passwd" // make test installs mosquitto
	}
	for i, l := range logins {
		args := []string{"-b", passwd, l.User, l.Password}
		if i == 0 {
			args = append([]string{"-c"}, args...)
		}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("brokertest: mosquitto_passwd: %v %s", err, out)
		}
	}
	// The test's own listener comes first: the example's settings after
	// it apply to it.
	settings := strings.NewReplacer("listener 1883\n", "", "/etc/mosquitto/passwd", passwd, "/etc/mosquitto/sztab.acl", aclFile).Replace(string(conf))
	if !strings.Contains(settings, aclFile) || !strings.Contains(settings, passwd) || strings.Contains(settings, "listener 1883") {
		t.Fatalf("brokertest: mosquitto.conf.example no longer has the listener and paths this replaces:\n%s", conf)
	}
	return StartMosquitto(t, settings)
}

// FullLog is all Mosquitto has logged so far.
func (m *Mosquitto) FullLog() string {
	data, err := os.ReadFile(m.p.log)
	if err != nil {
		m.t.Fatalf("brokertest: mosquitto's log: %v", err)
	}
	return string(data)
}

// ShippedNATSHosts is the test's nats-hosts.conf for a node: the shipped
// one's variables (firmware-config/venue/nats-hosts.conf), each an
// address on loopback or the node's own store.
func ShippedNATSHosts(c NATSNodeConfig) string {
	routes := make([]string, len(c.Routes))
	for i, r := range c.Routes {
		routes[i] = "  nats-route://" + r
	}
	return fmt.Sprintf("SZTAB_CLIENTS: \"127.0.0.1:-1\"\nSZTAB_CLUSTER: \"127.0.0.1:%d\"\nSZTAB_ROUTES: [\n%s\n]\nSZTAB_MQTT: \"127.0.0.1:%d\"\nSZTAB_STORE: %q\n",
		c.ClusterPort, strings.Join(routes, "\n"), c.MQTTPort, c.StoreDir)
}

// hostsVariables are the variables a nats-hosts.conf defines, in order.
func hostsVariables(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if k, _, ok := strings.Cut(line, ":"); ok && strings.HasPrefix(k, "SZTAB_") && !strings.ContainsAny(k, " \t#") {
			out = append(out, k)
		}
	}
	return out
}

// StartShippedNATSCluster runs the venue's three-node cluster on server
// from the very files docs/venue-brokers.md tells an organiser to
// install, firmware-config/venue/nats-1.conf, nats-2.conf and nats-3.conf,
// unchanged: each node's file in a folder of its own beside the test's
// nats-hosts.conf (ShippedNATSHosts), which the node files include for
// every address and path. The shipped nats-hosts.conf must define the
// same variables, and nats-server must take the node files beside it
// (`nats-server -t`).
func StartShippedNATSCluster(t testing.TB, server NATSServer) *NATSCluster {
	t.Helper()
	if server.Binary == nil {
		server = ModuleNATS
	}
	dir := filepath.Join(Root(t), "firmware-config/venue")
	hosts, err := os.ReadFile(filepath.Join(dir, "nats-hosts.conf"))
	if err != nil {
		t.Fatal(err)
	}
	got, want := hostsVariables(string(hosts)), hostsVariables(ShippedNATSHosts(NATSNodeConfig{}))
	if !slices.Equal(got, want) {
		t.Fatalf("brokertest: firmware-config/venue/nats-hosts.conf defines %v; the test's addresses file %v", got, want)
	}
	bin := server.Binary(t)
	files := make([]string, 3)
	for i := range files {
		files[i] = filepath.Join(dir, fmt.Sprintf("nats-%d.conf", i+1))
		if out, err := exec.Command(bin, "-t", "-c", files[i]).CombinedOutput(); err != nil {
			t.Fatalf("brokertest: nats-server -t -c %s: %v\n%s", files[i], err, out)
		}
	}
	return StartNATSCluster(t, NATSOptions{Server: server, Hosts: ShippedNATSHosts, Config: func(c NATSNodeConfig) string {
		data, err := os.ReadFile(files[c.Index])
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}})
}
