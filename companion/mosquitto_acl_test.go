package companion_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
)

// startVenueMosquitto runs a real Mosquitto with firmware-config/mosquitto's
// very files, mosquitto.conf.example and acl.example, on a free loopback
// port, with the demo table's venue and these logins: the table stol-1,
// the referee sedzia, the player ania, the spectators widz-1 and widz-2,
// the venue.
func startVenueMosquitto(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	acl, err := os.ReadFile("../firmware-config/mosquitto/acl.example")
	if err != nil {
		t.Fatal(err)
	}
	conf, err := os.ReadFile("../firmware-config/mosquitto/mosquitto.conf.example")
	if err != nil {
		t.Fatal(err)
	}
	// The demo table is demo/stol-1; the example's venue is klub.
	os.WriteFile(filepath.Join(dir, "acl"), []byte(strings.ReplaceAll(string(acl), "/klub/", "/demo/")), 0o644)
	writePasswd(t, filepath.Join(dir, "passwd"), [2]string{"stol-1", "haslo stolu"}, [2]string{"sedzia", "tajne"}, [2]string{"ania", "a1"},
		[2]string{"widz-1", "w1"}, [2]string{"widz-2", "w2"}, [2]string{"venue", "v1"})
	// The test's own listener, on a free port, comes first: the example's
	// listener settings then apply to it.
	settings := strings.NewReplacer("listener 1883\n", "",
		"/etc/mosquitto/passwd", filepath.Join(dir, "passwd"), "/etc/mosquitto/sztab.acl", filepath.Join(dir, "acl")).Replace(string(conf))
	if !strings.Contains(settings, filepath.Join(dir, "acl")) || strings.Contains(settings, "listener 1883") {
		t.Fatalf("mosquitto.conf.example no longer has the listener and paths this test replaces:\n%s", conf)
	}
	return startMosquittoWith(t, settings)
}

// stranger connects with a login and a client id of its choosing, once
// (no reconnecting): false if the broker refuses it.
func stranger(t *testing.T, addr, id, user, pass string) bool {
	t.Helper()
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(id).SetAutoReconnect(false).SetConnectRetry(false)
	if user != "" {
		o.SetUsername(user).SetPassword(pass)
	}
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(10 * time.Second) {
		t.Fatalf("%q with client id %q: no answer", user, id)
	}
	if tok.Error() != nil {
		return false
	}
	c.Disconnect(10)
	return true
}

// The venue broker of firmware-config/mosquitto, run by a real Mosquitto: a
// spectator reads the public state but neither the referee's view nor the
// command topic's effect; the referee reads the hidden view and rules by
// MQTT; the table's daemon hears the referee. Nobody connects anonymously,
// and nobody takes the table's client id or the referee's: the table is
// never kicked off (its will would say "offline"), even with a client id
// anyone can guess.
func TestMosquittoVenueACL(t *testing.T) {
	addr := startVenueMosquitto(t)
	cfg := demoConfig(t, t.TempDir(), fmt.Sprintf("mqtt:\n  broker: \"tcp://%s\"\n  username: stol-1\n  password: \"haslo stolu\"\n  client_id: sztab-demo-stol-1\n", addr), false)
	r := serve(open(t, cfg))
	defer r.stop(t)

	spectator := subscribe(t, addr, "widz-1", "w1")
	if stranger(t, addr, "anonymous", "", "") {
		t.Error("an anonymous client connected")
	}
	refereeLost := make(chan error, 1)
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("sedzia-tablet").SetUsername("sedzia").SetPassword("tajne").
		SetAutoReconnect(false).SetConnectionLostHandler(func(_ paho.Client, err error) { refereeLost <- err })
	referee := paho.NewClient(o)
	if tok := referee.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("the referee: %v", tok.Error())
	}
	defer referee.Disconnect(50)
	// Strangers with the ids of the table and the referee, as configured
	// or as the broker names them: each connects, under its own login's id.
	for _, s := range []struct{ id, user, pass string }{
		{"sztab-demo-stol-1", "widz-2", "w2"}, {"stol-1", "widz-2", "w2"},
		{"sedzia-tablet", "ania", "a1"}, {"sedzia", "ania", "a1"}, {"stol-1", "ania", "a1"},
	} {
		if !stranger(t, addr, s.id, s.user, s.pass) {
			t.Errorf("%q with client id %q was refused: the login is good", s.user, s.id)
		}
	}
	deploy(t, r.d, 30)
	inPhase := spectator.inPhase
	spectator.waitFor(t, "the movement phase over Mosquitto", inPhase("movement phase"))

	// The referee's view, retained: the referee gets it, a spectator never.
	watchHidden := func(c paho.Client) chan string {
		got := make(chan string, 16)
		c.Subscribe(topicBase+"referee/state", 1, func(_ paho.Client, m paho.Message) { got <- string(m.Payload()) }).WaitTimeout(5 * time.Second)
		return got
	}
	watcher := mqttClient(t, addr, "widz-2", "w2")
	spectatorSaw := watchHidden(watcher)
	refereeSaw := watchHidden(referee)
	select {
	case <-refereeSaw:
	case <-time.After(10 * time.Second):
		t.Fatal("the referee did not receive the retained referee view")
	}
	// A spectator's command is dropped by the broker; the referee's is carried out.
	watcher.Publish(topicBase+"referee/command", 1, false, `{"name":"next"}`).WaitTimeout(5 * time.Second)
	// Commands are handled in order: once the referee's garbled marker is
	// refused, the spectator's would have been carried out.
	referee.Publish(topicBase+"referee/command", 1, false, "marker").WaitTimeout(5 * time.Second)
	spectator.waitFor(t, "the marker refused", func() bool { return spectator.count("command_rejected", "garbled") == 1 })
	spectator.mu.Lock()
	if !inPhase("movement phase")() {
		t.Error("a spectator's command was carried out")
	}
	spectator.mu.Unlock()
	referee.Publish(topicBase+"referee/command", 1, false, `{"name":"next"}`).WaitTimeout(5 * time.Second)
	spectator.waitFor(t, "the shooting phase after the referee's command", inPhase("shooting phase"))
	// The referee's view changed with the phase; once the referee has it,
	// a spectator would have it too.
	select {
	case <-refereeSaw:
	case <-time.After(10 * time.Second):
		t.Fatal("the referee did not follow the referee view")
	}
	select {
	case p := <-spectatorSaw:
		t.Errorf("a spectator received the referee's view: %.80s", p)
	default:
	}
	// A player sends her own seat's commands and hears their answers; the
	// broker drops one for another seat (it would have been refused, not
	// her turn, with a public notice).
	ania := mqttClient(t, addr, "ania", "a1")
	answers := make(chan string, 4)
	ania.Subscribe(topicBase+"player/1/events", 1, func(_ paho.Client, m paho.Message) { answers <- string(m.Payload()) }).WaitTimeout(5 * time.Second)
	ania.Publish(topicBase+"player/2/command", 1, false, `{"name":"next","id":"a-2"}`).WaitTimeout(5 * time.Second)
	ania.Publish(topicBase+"player/1/command", 1, false, `{"name":"next","id":"a-1"}`).WaitTimeout(5 * time.Second)
	select {
	case a := <-answers:
		if !strings.Contains(a, `"id":"a-1"`) || !strings.Contains(a, `"ok":true`) {
			t.Errorf("Ania's answer: %s", a)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ania's command for her seat was not answered")
	}
	spectator.mu.Lock()
	if n := spectator.count("rejected", "not_your_turn"); n != 0 {
		t.Errorf("a command Ania sent for seat 2 reached the table (%d refusals)", n)
	}
	spectator.mu.Unlock()
	select {
	case err := <-refereeLost:
		t.Errorf("the referee was kicked off: %v", err)
	default:
	}
	spectator.mu.Lock()
	defer spectator.mu.Unlock()
	for _, st := range spectator.status {
		if st.Status != "online" {
			t.Errorf("the table's status went %q: a stranger kicked it off", st.Status)
		}
	}
}

// A table's pairing (.../pairing) is the venue's word: the venue writes
// it, the table and everyone read it, and neither the table nor anyone
// else may write it, the table's other topics staying the table's.
func TestMosquittoVenueACLPairing(t *testing.T) {
	addr := startVenueMosquitto(t)
	topic := wire.TopicsFor("demo", "stol-1").Pairing
	venue := mqttClient(t, addr, "venue", "v1")
	table := mqttClient(t, addr, "stol-1", "haslo stolu")
	heard := func(c paho.Client, topic string) chan string {
		got := make(chan string, 16)
		if tok := c.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) { got <- string(m.Payload()) }); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("subscribe %s: %v", topic, tok.Error())
		}
		return got
	}
	tableHeard := heard(table, topic)
	spectatorHeard := heard(mqttClient(t, addr, "widz-1", "w1"), topic)
	want := `{"venue":"demo","table":"stol-1","round":1,"players":["Ania","Bartek"]}`
	for _, who := range []struct {
		c       paho.Client
		payload string
	}{{table, `{"venue":"demo","table":"stol-1","round":9,"players":["the table"]}`}, {mqttClient(t, addr, "ania", "a1"), "ania"},
		{mqttClient(t, addr, "sedzia", "tajne"), "sedzia"}, {venue, want}} {
		who.c.Publish(topic, 1, true, who.payload).WaitTimeout(5 * time.Second)
	}
	for name, got := range map[string]chan string{"the table": tableHeard, "a spectator": spectatorHeard} {
		select {
		case p := <-got:
			if p != want {
				t.Errorf("%s heard %q first: someone but the venue wrote the pairing", name, p)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not hear the venue's pairing", name)
		}
	}
	// Retained: a table that comes later hears the venue's, and only it.
	first := func(got chan string) string {
		select {
		case p := <-got:
			return p
		case <-time.After(10 * time.Second):
			t.Fatal("nothing heard")
			return ""
		}
	}
	// (One login is one client id on this broker: the table's first
	// connection goes before its next.)
	table.Disconnect(50)
	table = mqttClient(t, addr, "stol-1", "haslo stolu")
	if p := first(heard(table, topic)); p != want {
		t.Errorf("retained pairing %q, want the venue's", p)
	}
	// The venue writes no other topic of the table; the table still
	// writes its own.
	stateHeard := heard(mqttClient(t, addr, "widz-2", "w2"), topicBase+"state")
	venue.Publish(topicBase+"state", 1, false, "venue").WaitTimeout(5 * time.Second)
	table.Publish(topicBase+"state", 1, false, "table").WaitTimeout(5 * time.Second)
	if p := first(stateHeard); p != "table" {
		t.Errorf("the table's state topic carried %q first", p)
	}
}

// On a broker that lets anyone in with any client id (Mosquitto with
// anonymous access, no use_username_as_clientid), the table's own client id
// is what keeps it on: sztab-{venue}-{table} and random digits, so the id
// anyone could guess takes nothing from it.
func TestMosquittoDaemonClientIDIsNotGuessable(t *testing.T) {
	addr := startMosquitto(t)
	cfg := demoConfig(t, t.TempDir(), fmt.Sprintf("mqtt:\n  broker: \"tcp://%s\"\n", addr), false)
	r := serve(open(t, cfg))
	defer r.stop(t)
	spectator := subscribe(t, addr)
	spectator.waitFor(t, "the table online", func() bool { return len(spectator.status) > 0 })
	if !stranger(t, addr, "sztab-demo-stol-1", "", "") {
		t.Fatal("the stranger was refused")
	}
	deploy(t, r.d, 30)
	spectator.waitFor(t, "the movement phase", spectator.inPhase("movement phase"))
	spectator.mu.Lock()
	defer spectator.mu.Unlock()
	for _, st := range spectator.status {
		if st.Status != "online" {
			t.Errorf("the table's status went %q: a stranger kicked it off", st.Status)
		}
	}
}
