package companion_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// The venue broker of firmware-config/mosquitto/acl.example, run by a real
// Mosquitto: a spectator reads the public state but neither the referee's
// view nor the command topic's effect; the referee reads the hidden view and
// rules by MQTT; the table's daemon hears the referee.
func TestMosquittoVenueACL(t *testing.T) {
	dir := t.TempDir()
	acl, err := os.ReadFile("../firmware-config/mosquitto/acl.example")
	if err != nil {
		t.Fatal(err)
	}
	// The demo table is demo/stol-1; the example's venue is klub.
	os.WriteFile(filepath.Join(dir, "acl"), []byte(strings.ReplaceAll(string(acl), "/klub/", "/demo/")), 0o644)
	writePasswd(t, filepath.Join(dir, "passwd"), [2]string{"stol-1", "haslo stolu"}, [2]string{"sedzia", "tajne"}, [2]string{"ania", "a1"})
	addr := startMosquittoWith(t, fmt.Sprintf("allow_anonymous true\npassword_file %s\nacl_file %s\n", filepath.Join(dir, "passwd"), filepath.Join(dir, "acl")))
	cfg := demoConfig(t, t.TempDir(), fmt.Sprintf("mqtt:\n  broker: \"tcp://%s\"\n  username: stol-1\n  password: \"haslo stolu\"\n", addr), false)
	r := serve(open(t, cfg))
	defer r.stop(t)

	spectator := subscribe(t, addr)
	deploy(t, r.d, 30)
	inPhase := spectator.inPhase
	spectator.waitFor(t, "the movement phase over Mosquitto", inPhase("movement phase"))

	// The referee's view, retained: the referee gets it, a spectator never.
	watchHidden := func(c paho.Client) chan string {
		got := make(chan string, 16)
		c.Subscribe(topicBase+"referee/state", 1, func(_ paho.Client, m paho.Message) { got <- string(m.Payload()) }).WaitTimeout(5 * time.Second)
		return got
	}
	anonymous := mqttClient(t, addr, "", "")
	spectatorSaw := watchHidden(anonymous)
	referee := mqttClient(t, addr, "sedzia", "tajne")
	refereeSaw := watchHidden(referee)
	select {
	case <-refereeSaw:
	case <-time.After(10 * time.Second):
		t.Fatal("the referee did not receive the retained referee view")
	}
	// A spectator's command is dropped by the broker; the referee's is carried out.
	anonymous.Publish(topicBase+"referee/command", 1, false, `{"name":"next"}`).WaitTimeout(5 * time.Second)
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
