package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/internal/brokertest"
	"github.com/sztab/sztab/internal/wait"
)

// `sztab venue --username venue` on Mosquitto run with the shipped
// mosquitto.conf.example (use_username_as_clientid true) and acl.example,
// the shipped tournament file beside it: the venue connects once and stays
// connected. Before, its wall and its pairings had a connection each under
// the one login, and Mosquitto closed one for the other every second.
func TestVenueStaysConnectedOnTheShippedMosquitto(t *testing.T) {
	broker := brokertest.StartShippedMosquitto(t, "hala-kolejowa", brokertest.Login{User: "venue", Password: "v1"})
	dir := t.TempDir()
	tournament, err := os.ReadFile(filepath.Join(brokertest.Root(t), "firmware-config/venue/tournament.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "tournament.yaml")
	if err := os.WriteFile(file, tournament, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "keys"), 0o755)
	for _, table := range []string{"t01", "t02"} {
		_, pub, err := record.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "keys", table+".key.pub"), pub, 0o644) // what keygen --out keys/t01.key writes
	}
	t.Setenv(organiserEnv, "orga-haslo")
	root := newRoot()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"venue", "--broker", broker.URL(), "--username", "venue", "--password", "v1", "--venue", "hala-kolejowa",
		"--tournament", file, "--db", filepath.Join(dir, "venue.db"), "--listen", "127.0.0.1:0"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("sztab venue: %v", err)
		}
	}()
	wait.Until(t, "the venue's login on Mosquitto", func() bool { return strings.Contains(broker.FullLog(), " u'venue'") })
	// A venue pushed off comes back within a second (paho's retry): three
	// seconds show a loop many times over.
	time.Sleep(3 * time.Second)
	log := broker.FullLog()
	if n := strings.Count(log, "already connected"); n > 0 {
		t.Errorf("Mosquitto closed a connection of the venue's login for another %d times:\n%s", n, broker.Log())
	}
	if n := strings.Count(log, " u'venue'"); n != 1 {
		t.Errorf("the venue connected %d times, want once:\n%s", n, broker.Log())
	}
}
