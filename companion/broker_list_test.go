package companion

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/wire"
)

// A table given several brokers connects to the first that answers and,
// when that one goes away, to the next: it publishes there and hears its
// commands there.
func TestPublisherFailsOverToTheNextBroker(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	users := takeoverUsers
	users.Topics = wire.TopicsFor("v", "t1")
	first, err := StartBroker("127.0.0.1:0", users, log)
	if err != nil {
		t.Fatal(err)
	}
	firstClosed := false
	defer func() {
		if !firstClosed {
			first.Close()
		}
	}()
	second, err := StartBroker("127.0.0.1:0", users, log)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	heard := make(chan string, 4)
	connected := make(chan struct{}, 4)
	p, err := Connect(context.Background(), PublisherOptions{
		URL: "tcp://" + first.Addr() + ", tcp://" + second.Addr(), ClientID: "table", Username: "daemon", Password: "d", Log: log,
		Subscriptions: map[string]func(Message){users.Topics.RefereeCommand: func(m Message) { heard <- string(m.Payload) }},
		OnConnect:     func() { connected <- struct{}{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitConnected := func(what string) {
		t.Helper()
		select {
		case <-connected:
		case <-time.After(20 * time.Second):
			t.Fatalf("no connection %s", what)
		}
	}
	waitConnected("to the first broker")
	if n := len(first.srv.Clients.GetAll()); n != 1 {
		t.Fatalf("the first broker has %d clients, want the table", n)
	}
	first.Close()
	firstClosed = true
	waitConnected("to the second broker after the first went away")
	got := make(chan string, 4)
	if _, err := session(t, second.Addr(), "screen", "", "", true, got); err != nil {
		t.Fatal(err)
	}
	if err := p.Publish(users.Topics.State, []byte("on the second"), true); err != nil {
		t.Fatalf("publish after the failover: %v", err)
	}
	referee, err := session(t, second.Addr(), "ref", "sedzia", "r", true, got)
	if err != nil {
		t.Fatal(err)
	}
	if tok := referee.Subscribe(users.Topics.State, 1, nil); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	select {
	case m := <-got:
		if m != users.Topics.State+" on the second" {
			t.Errorf("the second broker holds %q", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the state is not retained on the second broker")
	}
	referee.Publish(users.Topics.RefereeCommand, 1, false, "next").WaitTimeout(5 * time.Second)
	select {
	case m := <-heard:
		if m != "next" {
			t.Errorf("the table heard %q", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the table did not hear the referee through the second broker")
	}
}

// A broker list with a bad entry is refused at Connect with the entry.
func TestConnectRefusesABadBrokerList(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	_, err := Connect(context.Background(), PublisherOptions{URL: "tcp://127.0.0.1:1883,tcp:/127.0.0.1:1884", ClientID: "x", Log: log})
	if err == nil || !strings.Contains(err.Error(), `companion: mqtt: wire: broker list: entry 2 of 2 "tcp:/127.0.0.1:1884"`) {
		t.Errorf("got %v", err)
	}
}
