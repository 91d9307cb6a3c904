package companion

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/wire"
)

// OnConnect runs after every connect and reconnect, once the table's
// subscriptions are in place, and never holds paho up.
func TestPublisherOnConnect(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	commands := wire.TopicsFor("v", "t1").RefereeCommand
	users := takeoverUsers
	users.Topics = wire.TopicsFor("v", "t1")
	b, err := StartBroker("127.0.0.1:0", users, log)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	heard := make(chan string, 4)
	connected := make(chan struct{}, 4)
	release := make(chan struct{})
	p, err := Connect(context.Background(), PublisherOptions{
		URL: "tcp://" + b.Addr(), ClientID: "table", Username: "daemon", Password: "d", Log: log,
		Subscriptions: map[string]func(Message){commands: func(m Message) { heard <- string(m.Payload) }},
		OnConnect: func() {
			connected <- struct{}{}
			<-release
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitConnect := func(what string) {
		t.Helper()
		select {
		case <-connected:
		case <-time.After(15 * time.Second):
			t.Fatalf("OnConnect did not run after the %s", what)
		}
	}
	waitConnect("connect")
	// While OnConnect runs the table publishes, and the subscription is
	// already there.
	if err := p.Publish("sztab/v1/v/t1/state", []byte("during OnConnect"), true); err != nil {
		t.Errorf("publish while OnConnect runs: %v", err)
	}
	referee, err := session(t, b.Addr(), "ref", "sedzia", "r", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	referee.Publish(commands, 1, false, "next").WaitTimeout(5 * time.Second)
	select {
	case got := <-heard:
		if got != "next" {
			t.Errorf("heard %q, want next", got)
		}
	case <-time.After(10 * time.Second):
		t.Error("the subscription was not in place when OnConnect ran")
	}
	release <- struct{}{}

	// The broker drops the table: paho reconnects, OnConnect runs again.
	cl, ok := b.srv.Clients.Get("table")
	if !ok {
		t.Fatal("the table is not connected")
	}
	cl.Stop(errors.New("dropped by the test"))
	waitConnect("reconnect")
	close(release)
}

// A message over the broker's packet limit is refused before it is sent:
// sent, it would cost the connection, and paho would send it again after
// every reconnect.
func TestPublishRefusesOversizedMessages(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	b, err := StartBroker("127.0.0.1:0", takeoverUsers, log)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := Connect(context.Background(), PublisherOptions{URL: "tcp://" + b.Addr(), ClientID: "table", Username: "daemon", Password: "d", Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	topic := "sztab/v1/v/t1/image"
	fits := MaxPacketSize - 1 - 4 - (2 + len(topic) + 2) // the largest payload: 4 bytes of length
	for _, tc := range []struct {
		size int
		ok   bool
	}{{1 << 20, true}, {fits, true}, {fits + 1, false}, {2 * MaxPacketSize, false}} {
		err := p.Publish(topic, make([]byte, tc.size), true)
		if (err == nil) != tc.ok {
			t.Errorf("publish of %d bytes: %v, want ok %v", tc.size, err, tc.ok)
		}
		if err != nil && (!strings.HasPrefix(err.Error(), "companion: ") || !strings.Contains(err.Error(), "over the limit")) {
			t.Errorf("publish of %d bytes: error %q, want companion: … over the limit", tc.size, err)
		}
	}
	if !p.client.IsConnectionOpen() {
		t.Error("the table lost its connection")
	}
}

// publishSize is the PUBLISH packet's size as a broker counts it.
func TestPublishSize(t *testing.T) {
	for _, tc := range []struct {
		topic   string
		payload int
		want    int
	}{
		{"a", 0, 1 + 1 + 2 + 1 + 2},
		{"a", 122, 1 + 1 + 127},
		{"a", 123, 1 + 2 + 128},
		{"t", 16384 - 5, 1 + 3 + 16384},
	} {
		if got := publishSize(tc.topic, make([]byte, tc.payload)); got != tc.want {
			t.Errorf("publishSize(%q, %d bytes) = %d, want %d", tc.topic, tc.payload, got, tc.want)
		}
	}
}
