package hub

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/brokertest"
	"github.com/sztab/sztab/internal/logbuf"
)

// A table of a newer contract (its status retained on sztab/v2/…) on the
// hub's broker is refused, once, with the version it speaks and the one
// needed, and the hub goes on following this contract's tables.
func TestHubOtherContract(t *testing.T) {
	broker := brokertest.StartMosquitto(t, "allow_anonymous true")
	pub := paho.NewClient(paho.NewClientOptions().AddBroker(broker.URL()).SetClientID("tables"))
	if tok := pub.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	defer pub.Disconnect(0)
	newer := "sztab/v2/klub/stol-2/status"
	for topic, payload := range map[string]string{
		wire.TopicsFor("klub", "stol-1").Status: `{"status":"online","venue":"klub","table":"stol-1"}`,
		newer:                                   `{"status":"online","venue":"klub","table":"stol-2","contract":"new"}`,
	} {
		if tok := pub.Publish(topic, 1, true, payload); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", topic, tok.Error())
		}
	}
	var logs logbuf.Buffer
	h, err := New(Options{Venue: "klub", Broker: broker.URL(), Listen: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	want := "this sztab speaks " + wire.Version + ": a sztab release that speaks v2 is needed"
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		w := h.Wall()
		if len(h.OtherContracts()) > 0 && len(w.Tables) > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("after 20 s: other contracts %v, wall %+v", h.OtherContracts(), w.Tables)
		}
	}
	if got := h.OtherContracts()[newer]; !strings.Contains(got, want) {
		t.Errorf("the v2 table's refusal: %q, want %q", got, want)
	}
	if w := h.Wall(); len(w.Tables) != 1 || w.Tables[0].Table != "stol-1" {
		t.Errorf("the wall: %+v, want stol-1 alone", w.Tables)
	}
	// The wall says it, in Polish and English.
	u := h.Wall().Unreadable
	if len(u) != 1 || u[0].Table != "stol-2" || u[0].Version != "v2" ||
		!strings.Contains(u[0].Text.EN, want) || !strings.Contains(u[0].Text.PL, "potrzebne wydanie sztab, które zna v2") {
		t.Errorf("the wall's unreadable tables: %+v, want stol-2's v2 in Polish and English", u)
	}
	// Said again, it is not logged again.
	if tok := pub.Publish(newer, 1, true, `{"status":"online"}`); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	if tok := pub.Publish(wire.TopicsFor("klub", "stol-1").Status, 1, true, `{"status":"offline","venue":"klub","table":"stol-1"}`); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	for end := time.Now().Add(20 * time.Second); h.Wall().Tables[0].Status != "offline"; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("stol-1's offline never reached the wall")
		}
	}
	if n := strings.Count(logs.String(), "a table this hub cannot follow"); n != 1 {
		t.Errorf("the refusal logged %d times, want once:\n%s", n, logs.String())
	}
	// A flood of made-up tables of another contract: the wall keeps
	// MaxOtherContracts of them, and says once that it drops the rest.
	for i := range MaxOtherContracts + 10 {
		if tok := pub.Publish(fmt.Sprintf("sztab/v3/klub/made-up-%03d/status", i), 1, false, `{}`); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	for end := time.Now().Add(20 * time.Second); !strings.Contains(logs.String(), "the rest are not shown"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the flood never filled the wall's list: %d kept", len(h.Wall().Unreadable))
		}
	}
	if n := len(h.OtherContracts()); n != MaxOtherContracts {
		t.Errorf("%d topics of another contract kept, want %d", n, MaxOtherContracts)
	}
	if n := strings.Count(logs.String(), "the rest are not shown"); n != 1 {
		t.Errorf("the overflow logged %d times, want once", n)
	}
}
