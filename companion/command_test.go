package companion_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/skirmishgame"
)

// inPhase is a waitFor condition: the last public state's headline names
// the phase (in English).
func (s *subscriber) inPhase(en string) func() bool {
	return func() bool {
		n := len(s.state)
		return n > 0 && s.state[n-1].Headline != nil && strings.Contains(s.state[n-1].Headline.EN, en)
	}
}

// count is how many events of type (and code, if given) arrived; call it
// with s.mu held (as waitFor does).
func (s *subscriber) count(typ, code string) (n int) {
	for _, e := range s.events {
		if ev, ok := e.Event.(map[string]any); ok && ev["type"] == typ && (code == "" || ev["code"] == code) {
			n++
		}
	}
	return n
}

func mqttClient(t *testing.T, addr, user, pass string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("%s-%d", user, time.Now().UnixNano()))
	if user != "" {
		o.SetUsername(user).SetPassword(pass)
	}
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect as %q: %v", user, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c
}

// The referee can rule over MQTT (a tablet, `mosquitto_pub`) through the same
// path as the page's buttons; a garbled, forged or repeated command changes
// nothing, and a refusal says why while the journal keeps what was sent.
func TestRefereeCommandsOverMQTT(t *testing.T) {
	dir := t.TempDir()
	r := startServing(t, screenTable(t, dir, "127.0.0.1:0"), skirmishgame.Spec)
	spectator := subscribe(t, r.d.BrokerAddr())
	deploy(t, r.d, 30)
	inPhase := spectator.inPhase
	spectator.waitFor(t, "the movement phase", inPhase("movement phase"))
	rejections := func(code string) int { return spectator.count("command_rejected", code) }

	topic := topicBase + "referee/command"
	send := func(c paho.Client, payload string, retained bool) {
		t.Helper()
		c.Publish(topic, 1, retained, payload).WaitTimeout(5 * time.Second)
	}
	// A spectator may not rule: the broker drops the forged command.
	send(mqttClient(t, r.d.BrokerAddr(), "", ""), `{"name":"next"}`, false)
	referee := mqttClient(t, r.d.BrokerAddr(), "sedzia", "tajne")
	for _, garbled := range []string{"not json", `{"name":"nxt"}`, `{"name":"next","extra":1}`} {
		send(referee, garbled, false)
	}
	spectator.waitFor(t, "three garbled commands refused", func() bool { return rejections("garbled") == 3 })
	spectator.mu.Lock()
	for _, e := range spectator.events {
		if ev, _ := e.Event.(map[string]any); ev["type"] == "command_rejected" {
			text, _ := json.Marshal(ev["text"])
			if !strings.Contains(string(text), topic) || !strings.Contains(string(text), `{\"name\":\"next\"}`) {
				t.Errorf("the refusal does not say where or what to send: %s", text)
			}
		}
	}
	if !inPhase("movement phase")() {
		t.Error("a forged or garbled command changed the phase")
	}
	spectator.mu.Unlock()

	// The same command delivered twice (same id) counts once.
	send(referee, `{"name":"next","id":"r-1"}`, false)
	send(referee, `{"name":"next","id":"r-1"}`, false)
	spectator.waitFor(t, "the shooting phase", inPhase("shooting phase"))
	send(referee, "marker", false) // commands are handled in order: once this is refused, both were
	spectator.waitFor(t, "the marker refused", func() bool { return rejections("garbled") == 4 })
	spectator.mu.Lock()
	if !inPhase("shooting phase")() {
		t.Error("a command sent twice with the same id was carried out twice")
	}
	spectator.mu.Unlock()

	// A command sent with retain is carried out once and cleared, so that it
	// does not run again when the table restarts.
	send(referee, `{"name":"next","id":"r-2"}`, true)
	spectator.waitFor(t, "the phase after shooting", func() bool { return !inPhase("shooting phase")() })
	// A late subscriber to the command topic, then to the status, gets their
	// retained messages in that order on its one connection: once the status
	// is there, a retained command would have come first.
	late := make(chan string, 4)
	lateRef := mqttClient(t, r.d.BrokerAddr(), "sedzia", "tajne")
	for _, filter := range []string{topic, topicBase + "status"} {
		lateRef.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) {
			if len(m.Payload()) > 0 {
				late <- m.Topic()
			}
		}).WaitTimeout(5 * time.Second)
	}
	select {
	case got := <-late:
		if got != topicBase+"status" {
			t.Errorf("the retained command is still on the broker (%s)", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no retained status for a late subscriber")
	}
	r.stop(t)

	// The journal keeps each refused command as it was sent.
	j, err := companion.OpenJournal(filepath.Join(dir, "demo.journal.db"),
		companion.JournalIdentity{Venue: "demo", Table: "stol-1", Game: "skirmish"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var kept []string
	j.Entries(context.Background(), 0, func(e companion.Entry) error {
		if strings.Contains(string(e.Body), "command_rejected") {
			var b struct{ Refused struct{ Payload string } }
			json.Unmarshal(e.Body, &b)
			kept = append(kept, b.Refused.Payload)
		}
		return nil
	})
	if want := []string{"not json", `{"name":"nxt"}`, `{"name":"next","extra":1}`, "marker"}; strings.Join(kept, "|") != strings.Join(want, "|") {
		t.Errorf("journal kept %q, want %q", kept, want)
	}
}
