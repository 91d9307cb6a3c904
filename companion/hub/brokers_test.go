package hub

import (
	"io"
	"log/slog"
	"strings"
	"testing"
)

// --broker takes one URL or several, comma-separated; a bad entry is
// refused by New with the entry.
func TestBrokerList(t *testing.T) {
	h, err := New(Options{Venue: "v", Broker: "tcp://n1:1883, tcp://n2:1883,tcp://n3:1883"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(h.brokers, " ") != "tcp://n1:1883 tcp://n2:1883 tcp://n3:1883" {
		t.Errorf("brokers %q", h.brokers)
	}
	for in, want := range map[string]string{
		"tcp://n1:1883,n2:1883": `hub: --broker: wire: broker list: entry 2 of 2 "n2:1883": not a URL`,
		"broker.venue":          `hub: --broker: wire: broker list: "broker.venue": scheme ""`,
		"":                      "hub: --broker: wire: broker list: empty",
	} {
		if _, err := New(Options{Venue: "v", Broker: in}); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %s…", in, err, want)
		}
	}
}

// message is a paho message as the broker hands it to the hub.
type message struct {
	topic    string
	payload  string
	retained bool
}

func (m message) Duplicate() bool   { return false }
func (m message) Qos() byte         { return 0 }
func (m message) Retained() bool    { return m.retained }
func (m message) Topic() string     { return m.topic }
func (m message) MessageID() uint16 { return 0 }
func (m message) Payload() []byte   { return []byte(m.payload) }
func (m message) Ack()              {}

// A retained state older than the wall's (a NATS node that came back
// serves the one it had before it went down) is ignored; a live one with
// a lower seq (a new game on the table) is taken.
func TestStaleRetainedStateIgnored(t *testing.T) {
	h, err := New(Options{Venue: "v", Broker: "tcp://127.0.0.1:1883", Log: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	seq := func() int64 {
		for _, tb := range h.Wall().Tables {
			if tb.Table == "t1" {
				return tb.Seq
			}
		}
		return -1
	}
	const topic = "sztab/v1/v/t1/state"
	for _, step := range []struct {
		m    message
		want int64
	}{
		{message{topic, `{"seq":32}`, true}, 32},
		{message{topic, `{"seq":46}`, false}, 46},
		{message{topic, `{"seq":32}`, true}, 46},
		{message{topic, `{"seq":47}`, true}, 47},
		{message{topic, `{"seq":1}`, false}, 1},
	} {
		h.onMessage(nil, step.m)
		if got := seq(); got != step.want {
			t.Errorf("after %+v the wall has seq %d, want %d", step.m, got, step.want)
		}
	}
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
