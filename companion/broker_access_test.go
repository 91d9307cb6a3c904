package companion

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/wire"
)

func TestEmbeddedBrokerRoles(t *testing.T) {
	users := BrokerUsers{
		Daemon:  display.Credential{User: "daemon", Password: "d"},
		Referee: display.Credential{User: "sedzia", Password: "r"},
		Players: []display.PlayerCredential{{Seat: 1, Credential: display.Credential{User: "ania", Password: "a"}}, {Seat: 2, Credential: display.Credential{User: "bartek", Password: "b"}}},
	}
	b, err := StartBroker("127.0.0.1:0", users, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	connect := func(user, pass string) (paho.Client, error) {
		o := paho.NewClientOptions().AddBroker("tcp://" + b.Addr()).SetClientID(fmt.Sprint(user, time.Now().UnixNano()))
		if user != "" {
			o.SetUsername(user).SetPassword(pass)
		}
		c := paho.NewClient(o)
		tok := c.Connect()
		tok.WaitTimeout(5 * time.Second)
		return c, tok.Error()
	}
	if _, err := connect("sedzia", "wrong"); err == nil {
		t.Error("a wrong referee password was accepted")
	}
	got := map[string]*recorder{}
	for _, who := range [][2]string{{"", ""}, {"sedzia", "r"}, {"ania", "a"}} {
		got[who[0]] = record(t, b.Addr(), "sztab/#", who[0], who[1])
		if who[0] == "" {
			got[""] = record(t, b.Addr(), "sztab/#")
		}
	}
	daemon, err := connect("daemon", "d")
	if err != nil {
		t.Fatal(err)
	}
	base := "sztab/v1/v/t1/"
	for _, topic := range []string{"state", "referee/state", "player/1/state", "player/2/state"} {
		daemon.Publish(base+topic, 1, true, topic).WaitTimeout(5 * time.Second)
	}
	// Late subscribers get the retained views at once, each only its own.
	for _, who := range [][2]string{{"", ""}, {"sedzia", "r"}, {"ania", "a"}} {
		got["late "+who[0]] = record(t, b.Addr(), "sztab/#", who[0], who[1])
	}
	// A spectator's own publish is refused: only the daemon speaks for the table.
	if spectator, err := connect("", ""); err == nil {
		spectator.Publish(base+"state", 1, true, "forged").WaitTimeout(5 * time.Second)
		spectator.Disconnect(50)
	}
	daemon.Publish(base+"events", 1, false, "last").WaitTimeout(5 * time.Second)
	for who, want := range map[string]string{"": "state", "sedzia": "player/1/state player/2/state referee/state state", "ania": "player/1/state state",
		"late ": "state", "late sedzia": "player/1/state player/2/state referee/state state", "late ania": "player/1/state state"} {
		r := got[who]
		// Retained messages reach a late subscriber after its SUBACK, in a
		// goroutine of the broker's, and may come after "last": wait for
		// each wanted one first; the unwanted ones would come with them.
		for _, tp := range strings.Fields(want) {
			r.wait(t, base+tp, tp)
		}
		r.wait(t, base+"events", "last")
		r.mu.Lock()
		var topics []string
		for _, tp := range []string{"player/1/state", "player/2/state", "referee/state", "state"} {
			if len(r.msgs[base+tp]) > 0 {
				topics = append(topics, tp)
			}
			if strings.Contains(strings.Join(r.msgs[base+tp], ""), "forged") {
				t.Errorf("%q received a spectator's forged state", who)
			}
		}
		r.mu.Unlock()
		if strings.Join(topics, " ") != want {
			t.Errorf("%q received %v, want %s", who, topics, want)
		}
	}
}

// The broker's log keeps its warnings but not the one mochi writes, with no
// message, every time a client's connection ends or is refused at connect
// (brokerAccess logs its refusals itself, and not each one of a guesser's).
func TestBrokerLogDropsEndedConnections(t *testing.T) {
	var out strings.Builder
	log := slog.New(brokerLog{slog.NewTextHandler(&out, nil)}).With("component", "broker")
	ended := &net.OpError{Op: "read", Net: "tcp", Err: net.ErrClosed}
	log.Warn("", "error", ended)
	log.Warn("", "error", fmt.Errorf("read: %w", io.EOF))
	log.Warn("", "error", fmt.Errorf("read connection: %w", &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}))
	log.Warn("", "error", packets.ErrBadUsernameOrPassword)
	log.Warn("", "error", packets.ErrClientIdentifierNotValid)
	log.Info("client connected", "client", "x")
	log.Warn("", "error", errors.New("packet too large"))
	got := out.String()
	if strings.Contains(got, "closed") || strings.Contains(got, "EOF") || strings.Contains(got, "client connected") ||
		strings.Contains(got, "timeout") || strings.Contains(got, "bad username") || strings.Contains(got, "identifier") {
		t.Errorf("the broker's chatter was logged:\n%s", got)
	}
	if !strings.Contains(got, "packet too large") || !strings.Contains(got, "component=broker") {
		t.Errorf("a real broker warning was lost:\n%s", got)
	}
}

// mochi publishes a client's will without an ACL check: a will is refused
// at connect unless the client could publish there itself, so nobody can
// plant a state, a status or a referee's command by disconnecting.
func TestEmbeddedBrokerRefusesForeignWills(t *testing.T) {
	base := "sztab/v1/v/t1/"
	users := BrokerUsers{
		Daemon:  display.Credential{User: "daemon", Password: "d"},
		Referee: display.Credential{User: "sedzia", Password: "r"},
		Players: []display.PlayerCredential{{Seat: 1, Credential: display.Credential{User: "ania", Password: "a"}}},
		Topics:  wire.TopicsFor("v", "t1"),
	}
	b, err := StartBroker("127.0.0.1:0", users, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, tc := range []struct {
		user, pass, will string
		ok               bool
	}{
		{"", "", base + "state", false},
		{"", "", base + "referee/command", false},
		{"ania", "a", base + "referee/command", false},
		{"ania", "a", base + "status", false},
		{"sedzia", "r", base + "state", false},
		{"sedzia", "r", "sztab/v1/v/t2/referee/command", false},
		{"sedzia", "r", base + "referee/command", true},
		// The pairing is the venue's word; on a table's own broker (no
		// venue) nobody but the daemon writes it.
		{"sedzia", "r", base + "pairing", false},
		{"", "", base + "pairing", false},
		{"daemon", "d", base + "status", true},
		{"", "", "", true},
	} {
		o := paho.NewClientOptions().AddBroker("tcp://" + b.Addr()).SetClientID(fmt.Sprint("will", time.Now().UnixNano())).SetConnectRetry(false)
		if tc.user != "" {
			o.SetUsername(tc.user).SetPassword(tc.pass)
		}
		if tc.will != "" {
			o.SetBinaryWill(tc.will, []byte(`{"name":"next"}`), 1, true)
		}
		c := paho.NewClient(o)
		tok := c.Connect()
		if !tok.WaitTimeout(5 * time.Second) {
			t.Fatalf("%q with a will on %q: no answer", tc.user, tc.will)
		}
		if got := tok.Error() == nil; got != tc.ok {
			t.Errorf("%q with a will on %q: connected %v, want %v (%v)", tc.user, tc.will, got, tc.ok, tok.Error())
		}
		c.Disconnect(10)
	}
}
