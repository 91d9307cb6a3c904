package venue

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
)

// retained follows every table's pairing topic of venue demo on broker:
// the last message of each (an empty one is a cleared topic).
type retained struct {
	mu   sync.Mutex
	last map[string][]byte
}

func followPairings(t *testing.T, broker string) *retained {
	t.Helper()
	r := &retained{last: map[string][]byte{}}
	c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("test-pairings-" + time.Now().Format("150405.000000")))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	tok := c.Subscribe(wire.VenueFilter("demo", "pairing"), 1, func(_ paho.Client, m paho.Message) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.last[m.Topic()] = append([]byte{}, m.Payload()...)
	})
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	return r
}

// of is table's pairing as last heard (ok false: none, or cleared).
func (r *retained) of(t *testing.T, table string) (wire.PairingMessage, bool) {
	r.mu.Lock()
	b := r.last[wire.TopicsFor("demo", table).Pairing]
	r.mu.Unlock()
	m, ok, err := wire.ParsePairing(b, "demo", table)
	if err != nil {
		t.Fatalf("table %s's pairing: %v", table, err)
	}
	return m, ok
}

// The venue tells each table its pairing, retained on the table's
// .../pairing: when a round is paired, when the table's result comes in or
// is corrected (a table that starts its next game early must not take the
// round just played), and again after the venue's connection comes back.
func TestVenuePublishesPairings(t *testing.T) {
	broker := startMosquitto(t)
	pub, err := companion.Connect(context.Background(), companion.PublisherOptions{URL: "tcp://" + broker, ClientID: "venue-pairings",
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pub.Close)
	var published sync.Mutex
	count := 0
	tv := startVenueWith(t, broker, func(o *Options) {
		o.Pairings = func(topic string, payload []byte) error {
			published.Lock()
			count++
			published.Unlock()
			return pub.Publish(topic, payload, true)
		}
	})
	seen := followPairings(t, broker)
	c := tv.client(t)
	if code, _ := post(t, c, tv.base+"/organiser/pair", nil); code != http.StatusSeeOther {
		t.Fatalf("pair: %d", code)
	}
	vw := tv.tour.View()
	for _, p := range vw.Pairings[0].Tables {
		until(t, "the pairing of "+p.Table, func() bool {
			m, ok := seen.of(t, p.Table)
			return ok && m.Round == 1 && len(m.Players) == 2 && m.Players[0] == p.Players[0] && m.Result == "awaiting"
		})
	}
	// stol-1's result comes in: its pairing says so.
	publisher(t, broker)(wire.TopicsFor("demo", "stol-1").Result, resultMessage(tv.keys["stol-1"], "demo", "stol-1", win(1, 3), loss(2, 1)))
	until(t, "stol-1's pairing says its result is in", func() bool { m, ok := seen.of(t, "stol-1"); return ok && m.Counted() })
	// stol-2's is entered by the organiser.
	if code, page := post(t, c, tv.base+"/organiser/correct", url.Values{"round": {"1"}, "table": {"stol-2"},
		"outcome1": {"win"}, "score1": {"2"}, "outcome2": {"loss"}, "reason": {"karta"}}); code != http.StatusSeeOther {
		t.Fatalf("correct: %d %s", code, page)
	}
	until(t, "stol-2's pairing says corrected", func() bool { m, ok := seen.of(t, "stol-2"); return ok && m.Result == wire.PairingCorrected })

	// Round 2 is imported with stol-2 alone: stol-1's topic is cleared.
	form := url.Values{"round": {"2"}, "csv": {"table,seat1,seat2\nstol-2,Ania,Darek\n"}}
	if code, page := post(t, c, tv.base+"/organiser/import", form); code != http.StatusSeeOther {
		t.Fatalf("import: %d %s", code, page)
	}
	until(t, "round 2 at stol-2", func() bool { m, ok := seen.of(t, "stol-2"); return ok && m.Round == 2 && m.Result == "awaiting" })
	until(t, "stol-1 cleared", func() bool {
		seen.mu.Lock()
		defer seen.mu.Unlock()
		b, ok := seen.last[wire.TopicsFor("demo", "stol-1").Pairing]
		return ok && len(b) == 0
	})
	// Round 3 is forced without stol-2's round-2 result: stol-2's pairing
	// says round 2 is missing (a table away then names no round).
	if code, page := post(t, c, tv.base+"/organiser/force", url.Values{"reason": {"stol-2 milczy"}}); code != http.StatusSeeOther {
		t.Fatalf("force: %d %s", code, page)
	}
	until(t, "round 3 at stol-2, round 2 missing", func() bool {
		m, ok := seen.of(t, "stol-2")
		return ok && m.Round == 3 && len(m.Missing) == 1 && m.Missing[0] == 2
	})
	until(t, "round 3 at stol-1, nothing missing", func() bool { m, ok := seen.of(t, "stol-1"); return ok && m.Round == 3 && m.Missing == nil })
	// Nothing changes: nothing is published again; a reconnect publishes all.
	published.Lock()
	n := count
	published.Unlock()
	tv.v.refresh()
	time.Sleep(100 * time.Millisecond)
	tv.v.RepublishPairings()
	until(t, "both topics published again", func() bool { published.Lock(); defer published.Unlock(); return count == n+2 })
	m, _ := seen.of(t, "stol-2")
	if b, _ := json.Marshal(m); m.Round != 3 {
		t.Fatalf("after republishing: %s", b)
	}
}
