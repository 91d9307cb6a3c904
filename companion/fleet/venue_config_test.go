package fleet_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
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
//
// The tables and the hub log into logs: none of them may lose a
// connection ("reconnecting") while they play.
func playThrough(t *testing.T, brokers string, o fleet.Options, user, pass string, logs *lockedBuffer) {
	t.Helper()
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	defer func() {
		if n := strings.Count(logs.String(), "reconnecting"); n > 0 {
			t.Errorf("the tables and the hub lost a connection %d times:\n%s", n, logs.String())
		}
	}()
	h, err := hub.New(hub.Options{Broker: brokers, Venue: "klub", Listen: "127.0.0.1:0", Username: user, Password: pass, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() { cancel(); <-done }()
	o.Tables, o.Broker, o.Venue, o.Dir, o.Games, o.Demo, o.Log = 5, brokers, "klub", t.TempDir(), games, firmwareconfig.Demo, log
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

// firmware-config/venue's three NATS node files, unchanged, run by real
// nats-server processes (the venue's, built from the Go module), each
// beside an addresses file of the test's (brokertest.StartShippedNATSCluster):
// the five games' tables and the hub play through the cluster they form.
func TestVenueNATSConfigFiles(t *testing.T) {
	cluster := brokertest.StartShippedNATSCluster(t, brokertest.ModuleNATS)
	var logs lockedBuffer
	playThrough(t, cluster.BrokerList(), fleet.Options{}, "", "", &logs)
}

// firmware-config/mosquitto's hall config and ACL, run by a real
// Mosquitto with only its listener and paths rewritten
// (brokertest.StartShippedMosquitto): every table logs in as its table id
// (the ACL's one pattern line for all tables) and the hub as a spectator,
// each connection with the login the ACL allows (the broker makes it the
// client id), and none of them is pushed off or reconnects.
func TestVenueMosquittoConfigFiles(t *testing.T) {
	logins := []brokertest.Login{{User: "widz-1", Password: "haslo-widz-1"}}
	// sztab sim logs every table in with the same password.
	for _, user := range []string{"t001", "t002", "t003", "t004", "t005"} {
		logins = append(logins, brokertest.Login{User: user, Password: "stoly"})
	}
	m := brokertest.StartShippedMosquitto(t, "klub", logins...)
	var logs lockedBuffer
	playThrough(t, m.URL(), fleet.Options{TableLogins: true, Password: "stoly"}, "widz-1", "haslo-widz-1", &logs)
	log := m.FullLog()
	if n := strings.Count(log, "already connected"); n > 0 {
		t.Errorf("Mosquitto closed a connection for another of the same login %d times:\n%s", n, m.Log())
	}
	for _, l := range logins {
		if n := strings.Count(log, " u'"+l.User+"'"); n != 1 {
			t.Errorf("%s connected %d times, want once:\n%s", l.User, n, m.Log())
		}
	}
	for _, line := range strings.Split(log, "\n") {
		// (brokertest's readiness probe has no login)
		if strings.Contains(line, "not authorised") && !strings.Contains(line, "brokertest-probe") {
			t.Errorf("the shipped files refused a client: %s", line)
		}
	}
}

// lockedBuffer is the tables' and the hub's log, read by the test while
// they write it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
