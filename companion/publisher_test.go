package companion

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"
)

// OnConnect runs after every connect and reconnect, once the table's
// subscriptions are in place, and never holds paho up.
func TestPublisherOnConnect(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	commands := "sztab/v1/v/t1/referee/command"
	users := takeoverUsers
	users.Commands = commands
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
