package hub

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/internal/testclock"
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

// Which state the wall keeps, by seq and run: a retained state older than
// the wall's (a NATS node that came back serves the one it had before it
// went down) is ignored; a live one with a lower seq is a new game when it
// is of another run (or names none), and late when it is of the same run
// (a copy that took the slower way through the cluster); the same seq of
// the same run again on .../live only says the table was heard.
func TestStaleStateIgnored(t *testing.T) {
	clock := testclock.New(time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC))
	h, err := New(Options{Venue: "v", Broker: "tcp://127.0.0.1:1883", Log: quietLog(), Clock: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	wall := func() (int64, time.Time) {
		for _, tb := range h.Wall().Tables {
			if tb.Table == "t1" {
				return tb.Seq, tb.Updated
			}
		}
		return -1, time.Time{}
	}
	const state, live = "sztab/v1/v/t1/state", "sztab/v1/v/t1/live"
	for i, step := range []struct {
		m    message
		want int64
		// heard: the table's Updated moves (false: it stays)
		heard bool
	}{
		{message{state, `{"seq":32}`, true}, 32, true},
		{message{state, `{"seq":46}`, false}, 46, true},
		{message{state, `{"seq":32}`, true}, 46, false},
		{message{state, `{"seq":47}`, true}, 47, true},
		{message{state, `{"seq":1}`, false}, 1, true}, // no run named: a new game
		{message{live, `{"seq":5,"instance":"a"}`, false}, 5, true},
		{message{live, `{"seq":5,"instance":"a"}`, false}, 5, true},   // the copy over the other node
		{message{state, `{"seq":4,"instance":"a"}`, false}, 5, false}, // late: held up by an election
		{message{live, `{"seq":3,"instance":"a"}`, false}, 5, false},
		{message{state, `{"seq":5,"instance":"a"}`, true}, 5, true}, // the retained one, as before
		{message{live, `{"seq":9,"instance":"a"}`, false}, 9, true},
		{message{live, `{"seq":2,"instance":"b"}`, false}, 2, true},  // a new run's journal
		{message{state, `{"seq":1,"instance":"a"}`, true}, 2, false}, // the old run's, retained
		{message{state, `{"seq":8,"instance":"a"}`, true}, 8, true},  // across runs a higher seq is taken
		{message{live, `not json`, false}, 8, false},
		{message{"sztab/v1/w/t1/live", `{"seq":20,"instance":"b"}`, false}, 8, false}, // another venue
		{message{"sztab/v1/w/t1/live", `{"seq":8,"instance":"a"}`, false}, 8, false},  // another venue's copy: not heard
	} {
		now := clock.Add(time.Second)
		h.onMessage(nil, step.m)
		got, updated := wall()
		if got != step.want {
			t.Errorf("step %d: after %+v the wall has seq %d, want %d", i, step.m, got, step.want)
		}
		if heard := updated.Equal(now); heard != step.heard {
			t.Errorf("step %d: after %+v the table's updated moved: %v, want %v", i, step.m, heard, step.heard)
		}
	}
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
