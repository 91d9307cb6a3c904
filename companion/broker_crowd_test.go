package companion

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/testclock"
)

// pahoFrom connects a paho client to addr from the local address ip (any
// of 127.0.0.0/8 on loopback), as user (anonymous when ""); it returns the
// client and the CONNECT's error.
func pahoFrom(t *testing.T, addr, ip, user, pass string) (paho.Client, error) {
	t.Helper()
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("crowd-%s-%d", ip, time.Now().UnixNano())).
		SetDialer(&net.Dialer{Timeout: 10 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}).
		SetConnectTimeout(10 * time.Second).SetAutoReconnect(false)
	if user != "" {
		o.SetUsername(user).SetPassword(pass)
	}
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(15 * time.Second) {
		return c, fmt.Errorf("connect from %s: no answer in 15 s", ip)
	}
	if tok.Error() == nil {
		t.Cleanup(func() { c.Disconnect(50) })
	}
	return c, tok.Error()
}

// One host may not take every place on the embedded broker: past its
// per-address cap its connections are refused, while another address
// still gets in, and a place it frees is its own again.
func TestEmbeddedBrokerCapsConnectionsPerAddress(t *testing.T) {
	lim := defaultBrokerLimits
	lim.perAddress, lim.reserve = 3, 0
	b := testBroker(t, lim)
	var held []paho.Client
	for i := range lim.perAddress {
		c, err := pahoFrom(t, b.Addr(), "127.0.0.2", "", "")
		if err != nil {
			t.Fatalf("connection %d from 127.0.0.2, within its cap: %v", i, err)
		}
		held = append(held, c)
	}
	if _, err := pahoFrom(t, b.Addr(), "127.0.0.2", "", ""); err == nil {
		t.Errorf("connection %d from 127.0.0.2 was taken, want it refused at a cap of %d per address", lim.perAddress+1, lim.perAddress)
	}
	if _, err := pahoFrom(t, b.Addr(), "127.0.0.3", "sedzia", "r"); err != nil {
		t.Errorf("the referee from 127.0.0.3 was refused while 127.0.0.2 was at its cap: %v", err)
	}
	held[0].Disconnect(50)
	eventually(t, "127.0.0.2's closed connection to free its place", func() bool {
		b.listen.mu.Lock()
		defer b.listen.mu.Unlock()
		return b.listen.addrs["127.0.0.2"] < lim.perAddress
	})
	if _, err := pahoFrom(t, b.Addr(), "127.0.0.2", "", ""); err != nil {
		t.Errorf("a place freed by 127.0.0.2 was not given back to it: %v", err)
	}
}

// The default cap per address, and the config key that changes it.
func TestEmbeddedBrokerConnectionsPerAddressDefault(t *testing.T) {
	b, err := StartBroker("127.0.0.1:0", takeoverUsers, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := b.listen.limits.perAddress; got != 32 {
		t.Errorf("per-address cap: got %d, want 32", got)
	}
	users := takeoverUsers
	users.MaxConnsPerAddr = 5
	b2, err := StartBroker("127.0.0.1:0", users, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if got := b2.listen.limits.perAddress; got != 5 {
		t.Errorf("per-address cap with MaxConnsPerAddr 5: got %d, want 5", got)
	}
	cfg, err := ParseConfig("t.yaml", []byte(strings.Replace(goodConfig, "mqtt:\n", "mqtt:\n  max_connections_per_address: 7\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MQTT.MaxConnectionsPerAddress != 7 {
		t.Errorf("mqtt.max_connections_per_address: got %d, want 7", cfg.MQTT.MaxConnectionsPerAddress)
	}
	if _, err := ParseConfig("t.yaml", []byte(strings.Replace(goodConfig, "mqtt:\n", "mqtt:\n  max_connections_per_address: -1\n", 1))); err == nil ||
		!strings.Contains(err.Error(), "max_connections_per_address") {
		t.Errorf("a negative mqtt.max_connections_per_address: got %v, want an error naming the key", err)
	}
}

// The broker's $SYS topics (its clients, traffic, memory and version) are
// not for anonymous clients: their subscription to $SYS/# is refused and
// they receive none, while a login reads them.
func TestEmbeddedBrokerSysTopicsNeedALogin(t *testing.T) {
	b := testBroker(t, defaultBrokerLimits)
	type inbox struct {
		mu   sync.Mutex
		sys  int
		last string
	}
	subscribe := func(user, pass string) (*inbox, byte) {
		t.Helper()
		c, err := pahoFrom(t, b.Addr(), "127.0.0.1", user, pass)
		if err != nil {
			t.Fatal(err)
		}
		in := &inbox{}
		tok := c.Subscribe("$SYS/#", 0, func(_ paho.Client, m paho.Message) {
			in.mu.Lock()
			defer in.mu.Unlock()
			if strings.HasPrefix(m.Topic(), "$SYS/") {
				in.sys++
				in.last = m.Topic()
			}
		})
		if !tok.WaitTimeout(10 * time.Second) {
			t.Fatalf("no SUBACK for %q in 10 s", user)
		}
		return in, tok.(*paho.SubscribeToken).Result()["$SYS/#"]
	}
	anon, anonCode := subscribe("", "")
	if anonCode != 0x80 {
		t.Errorf("an anonymous subscription to $SYS/#: granted (code %#x), want refused (0x80)", anonCode)
	}
	referee, refCode := subscribe("sedzia", "r")
	if refCode == 0x80 {
		t.Fatal("the referee's subscription to $SYS/# was refused, want granted")
	}
	// mochi publishes $SYS every second and once at the subscription (the
	// retained ones): once the referee has had two rounds, so has anyone.
	eventually(t, "the referee to read $SYS twice over", func() bool {
		referee.mu.Lock()
		defer referee.mu.Unlock()
		return referee.sys >= 40
	})
	anon.mu.Lock()
	defer anon.mu.Unlock()
	if anon.sys != 0 {
		t.Errorf("an anonymous client received %d $SYS messages (last %s), want none", anon.sys, anon.last)
	}
}

// A role's commands pass the embedded broker at its rate: the rest of a
// flood is dropped there (acknowledged), in front of the daemon's queue at
// the broker, where mochi would otherwise drop everyone's commands alike.
func TestEmbeddedBrokerPassesCommandsAtTheirRate(t *testing.T) {
	users := takeoverUsers
	users.Topics = wire.TopicsFor("v", "t1")
	clock := testclock.New(time.Date(2026, 8, 1, 18, 0, 0, 0, time.UTC)) // stands still: no token comes back
	b, err := startBroker("127.0.0.1:0", users, brokerConfig{limits: defaultBrokerLimits, clock: clock.Now}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	topic := users.Topics.PlayerCommand(1)
	var mu sync.Mutex
	got, marker := 0, false
	watcher, err := pahoFrom(t, b.Addr(), "127.0.0.1", "daemon", "d")
	if err != nil {
		t.Fatal(err)
	}
	watcher.Subscribe(topic, 0, func(_ paho.Client, m paho.Message) {
		mu.Lock()
		defer mu.Unlock()
		if string(m.Payload()) == "marker" {
			marker = true
		} else if !marker {
			got++
		}
	}).WaitTimeout(10 * time.Second)
	player, err := pahoFrom(t, b.Addr(), "127.0.0.2", "ania", "a")
	if err != nil {
		t.Fatal(err)
	}
	const flood = 2000
	for i := range flood {
		player.Publish(topic, 0, false, fmt.Sprintf(`{"name":"x","id":"%d"}`, i))
	}
	// The broker handles a client's packets in order: once this one is
	// acknowledged, the flood has been through it.
	if tok := player.Publish(topic, 1, false, "last"); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("the flood's last command: %v", tok.Error())
	}
	watcher.Publish(topic, 1, false, "marker").WaitTimeout(10 * time.Second)
	eventually(t, "the marker after the flood", func() bool { mu.Lock(); defer mu.Unlock(); return marker })
	mu.Lock()
	defer mu.Unlock()
	if want := defaultBrokerLimits.commandBurst; got != want {
		t.Errorf("%d of a flood of %d commands passed the broker on a standing clock, want its burst, %d", got, flood+1, want)
	}
}
