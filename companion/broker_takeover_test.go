package companion

import (
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mochi "github.com/mochi-mqtt/server/v2"

	"github.com/sztab/sztab/companion/display"
)

// takeoverUsers are the embedded broker's roles in the takeover tests.
var takeoverUsers = BrokerUsers{
	Daemon:  display.Credential{User: "daemon", Password: "d"},
	Referee: display.Credential{User: "sedzia", Password: "r"},
	Players: []display.PlayerCredential{{Seat: 1, Credential: display.Credential{User: "ania", Password: "a"}}},
}

// session connects to addr with a client id, a user (none: anonymous) and
// clean or persistent session; it returns the client, or the broker's
// refusal. Nothing reconnects on its own.
func session(t *testing.T, addr, id, user, pass string, clean bool, got chan<- string) (paho.Client, error) {
	t.Helper()
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(id).SetCleanSession(clean).
		SetAutoReconnect(false).SetConnectRetry(false).SetConnectTimeout(5 * time.Second)
	if user != "" {
		o.SetUsername(user).SetPassword(pass)
	}
	if got != nil {
		o.SetDefaultPublishHandler(func(_ paho.Client, m paho.Message) { got <- m.Topic() + " " + string(m.Payload()) })
	}
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(10 * time.Second) {
		t.Fatalf("%s as %q: no answer to CONNECT", id, user)
	}
	if tok.Error() != nil {
		return nil, tok.Error()
	}
	t.Cleanup(func() { c.Disconnect(10) })
	return c, nil
}

// holder is the broker's client holding id now.
func holder(b *Broker, id string) *mochi.Client {
	cl, _ := b.srv.Clients.Get(id)
	return cl
}

// A client id belongs to the user holding it: nobody else takes over a
// connection (the daemon's: its will would say the table is offline) or a
// stored session (the referee's: its queued hidden messages would go to
// the taker); anonymous clients get no session to keep.
func TestEmbeddedBrokerRefusesSessionTakeover(t *testing.T) {
	// The refusals all come from 127.0.0.1: a clock an hour further at each
	// connect keeps the brake (TestEmbeddedBrokerBrakesGuessing) out of it.
	b, err := startBroker("127.0.0.1:0", takeoverUsers, brokerConfig{limits: defaultBrokerLimits, clock: hourly()}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	base := "sztab/v1/v/t1/"
	daemon, err := session(t, b.Addr(), "sztab-v-t1", "daemon", "d", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The referee's tablet keeps a session and goes away; the table
	// publishes the referee's view meanwhile, queued for the tablet.
	tablet, err := session(t, b.Addr(), "tablet", "sedzia", "r", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tok := tablet.Subscribe(base+"referee/#", 1, nil); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("referee subscribe: %v", tok.Error())
	}
	tablet.Disconnect(50)
	if tok := daemon.Publish(base+"referee/state", 1, false, "hidden"); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("publish: %v", tok.Error())
	}
	if _, err := session(t, b.Addr(), "squatted", "", "", true, nil); err != nil {
		t.Fatalf("a spectator: %v", err)
	}

	for _, tc := range []struct {
		name, id, user, pass string
		clean                bool
		ok                   bool
	}{
		{"a stranger takes the daemon's id", "sztab-v-t1", "", "", true, false},
		{"a player takes the daemon's id", "sztab-v-t1", "ania", "a", true, false},
		{"a stranger resumes the referee's session", "tablet", "", "", false, false},
		{"a stranger takes the referee's id", "tablet", "", "", true, false},
		{"a player resumes the referee's session", "tablet", "ania", "a", false, false},
		{"a stranger keeps a session of its own", "fresh", "", "", false, false},
		{"a stranger with a clean session", "fresh", "", "", true, true},
		{"the referee displaces a squatting stranger", "squatted", "sedzia", "r", true, true},
		{"a player keeps a session of her own", "ania-phone", "ania", "a", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := holder(b, tc.id)
			got := make(chan string, 8)
			c, err := session(t, b.Addr(), tc.id, tc.user, tc.pass, tc.clean, got)
			if ok := err == nil; ok != tc.ok {
				t.Fatalf("connected %v (%v), want %v", ok, err, tc.ok)
			}
			if tc.ok {
				c.Disconnect(10)
				return
			}
			if err == nil || !strings.Contains(err.Error(), "identifier rejected") && !strings.Contains(err.Error(), "not Authorized") {
				t.Errorf("refusal %q, want identifier rejected or not authorized", err)
			}
			if after := holder(b, tc.id); after != before {
				t.Errorf("the holder of %q changed", tc.id)
			}
		})
	}
	if cl := holder(b, "sztab-v-t1"); cl == nil || cl.Closed() {
		t.Error("the daemon was disconnected")
	}
	// The referee gets the tablet's session back, queued message and all.
	got := make(chan string, 8)
	if _, err := session(t, b.Addr(), "tablet", "sedzia", "r", false, got); err != nil {
		t.Fatalf("the referee resuming: %v", err)
	}
	select {
	case m := <-got:
		if m != base+"referee/state hidden" {
			t.Errorf("the referee got %q, want the queued referee view", m)
		}
	case <-time.After(10 * time.Second):
		t.Error("the referee's queued message was lost")
	}
}

// hourly is a clock an hour further at each reading.
func hourly() func() time.Time {
	var mu sync.Mutex
	now := time.Date(2024, 8, 1, 17, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Hour)
		return now
	}
}

// A stranger connecting with the id the daemon used to have (sztab-{venue}-
// {table}) does not kick the table off: its will would announce "offline".
func TestDaemonClientIDCannotBeTakenOver(t *testing.T) {
	d, stop := tallyDaemon(t, t.TempDir())
	defer stop()
	rec := record(t, d.BrokerAddr(), "sztab/v1/v/t1/#")
	rec.wait(t, "sztab/v1/v/t1/state", `"seq":1`)
	opts := d.pub.client.OptionsReader()
	if id := opts.ClientID(); !regexp.MustCompile(`^sztab-v-t1-[0-9a-f]{12}$`).MatchString(id) {
		t.Errorf("the daemon's client id is %q, want sztab-v-t1- and 12 random hex digits", id)
	}
	for _, id := range []string{"sztab-v-t1", opts.ClientID()} {
		if c, err := session(t, d.BrokerAddr(), id, "", "", true, nil); err == nil {
			c.Disconnect(10)
		}
	}
	key(d, "kp", "4")
	rec.wait(t, "sztab/v1/v/t1/state", `"total":4`)
	if s := rec.all("sztab/v1/v/t1/status"); strings.Contains(s, "offline") {
		t.Errorf("a stranger kicked the table off; status:\n%s", s)
	}
	if !d.pub.client.IsConnectionOpen() {
		t.Error("the daemon lost its connection")
	}
}
