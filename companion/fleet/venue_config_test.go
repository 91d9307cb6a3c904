package fleet_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/fleet"
	"github.com/sztab/sztab/companion/hub"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
	"github.com/sztab/sztab/internal/brokertest"
)

// playThrough runs one table of each game on brokers (logged in by
// opts), with the venue hub following them (as user, pass), until every
// table has played its script to the end and the hub shows its last seq.
func playThrough(t *testing.T, brokers string, o fleet.Options, user, pass string) {
	t.Helper()
	h, err := hub.New(hub.Options{Broker: brokers, Venue: "klub", Listen: "127.0.0.1:0", Username: user, Password: pass, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() { cancel(); <-done }()
	o.Tables, o.Broker, o.Venue, o.Dir, o.Games, o.Demo, o.Log = 5, brokers, "klub", t.TempDir(), games, firmwareconfig.Demo, quiet
	f, err := fleet.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Failed) > 0 {
		t.Fatalf("tables did not start: %v", f.Failed)
	}
	stop := serving(t, f)
	seqs := map[string]int64{}
	for end := time.Now().Add(90 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		wall := map[string]int64{}
		for _, tb := range h.Wall().Tables {
			wall[tb.Table] = tb.Seq
		}
		settled := true
		for _, tb := range f.Tables {
			s := tb.Daemon.Seq()
			settled = settled && s >= 5 && s == seqs[tb.ID] && wall[tb.ID] == s
			seqs[tb.ID] = s
		}
		if settled {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the hub did not follow the tables to the ends of their scripts: tables %v, hub %v", seqs, wall)
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// firmware-config/venue's three NATS node files, run by real nats-server
// processes with only their ports, routes and store paths rewritten: the
// five games' tables and the hub play through the cluster they form.
func TestVenueNATSConfigFiles(t *testing.T) {
	cluster := brokertest.StartNATSCluster(t, brokertest.NATSOptions{Config: func(c brokertest.NATSNodeConfig) string {
		data, err := os.ReadFile(fmt.Sprintf("../../firmware-config/venue/nats-%d.conf", c.Index+1))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		r := []string{
			"listen: 0.0.0.0:4222", "listen: 127.0.0.1:-1",
			"listen: 0.0.0.0:6222", "listen: 127.0.0.1:" + strconv.Itoa(c.ClusterPort),
			"listen: 0.0.0.0:1883", "listen: 127.0.0.1:" + strconv.Itoa(c.MQTTPort),
			fmt.Sprintf("store_dir: /var/lib/nats/sztab-%d", c.Index+1), fmt.Sprintf("store_dir: %q", c.StoreDir),
		}
		for i := range c.Routes {
			r = append(r, fmt.Sprintf("broker-%d.venue:6222", i+1), c.Routes[i])
		}
		for i := 0; i < len(r); i += 2 {
			if !strings.Contains(text, r[i]) {
				t.Fatalf("nats-%d.conf no longer has %q, which this test rewrites", c.Index+1, r[i])
			}
			text = strings.ReplaceAll(text, r[i], r[i+1])
		}
		return text
	}})
	playThrough(t, cluster.BrokerList(), fleet.Options{}, "", "")
}

// firmware-config/mosquitto's hall config and ACL, run by a real
// Mosquitto with only its listener and paths rewritten: every table logs
// in as its table id (the ACL's one pattern line for all tables) and the
// hub as a spectator.
func TestVenueMosquittoConfigFiles(t *testing.T) {
	dir := t.TempDir()
	acl, err := os.ReadFile("../../firmware-config/mosquitto/acl.example")
	if err != nil {
		t.Fatal(err)
	}
	conf, err := os.ReadFile("../../firmware-config/mosquitto/mosquitto.conf.example")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "acl"), acl, 0o644); err != nil {
		t.Fatal(err)
	}
	passwd := filepath.Join(dir, "passwd")
	bin, err := exec.LookPath("mosquitto_passwd")
	if err != nil {
		bin = "/usr/bin/mosquitto_passwd"
	}
	for i, user := range []string{"t001", "t002", "t003", "t004", "t005", "widz-1"} {
		args := []string{"-b", passwd, user, "haslo-" + user}
		if i == 0 {
			args = append([]string{"-c"}, args...)
		}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_passwd: %v %s", err, out)
		}
	}
	// The tables' password is one here (sim logs every table in with the
	// same one): give each the same.
	for _, user := range []string{"t001", "t002", "t003", "t004", "t005"} {
		if out, err := exec.Command(bin, "-b", passwd, user, "stoly").CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_passwd: %v %s", err, out)
		}
	}
	settings := strings.NewReplacer("listener 1883\n", "",
		"/etc/mosquitto/passwd", passwd, "/etc/mosquitto/sztab.acl", filepath.Join(dir, "acl")).Replace(string(conf))
	if !strings.Contains(settings, passwd) || strings.Contains(settings, "listener 1883") {
		t.Fatalf("mosquitto.conf.example no longer has the listener and paths this test replaces:\n%s", conf)
	}
	m := brokertest.StartMosquitto(t, settings)
	playThrough(t, m.URL(), fleet.Options{TableLogins: true, Password: "stoly"}, "widz-1", "haslo-widz-1")
}
