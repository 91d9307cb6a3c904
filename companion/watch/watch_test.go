package watch

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/display"
)

const state = `{"seq":21,"venue":"demo","table":"stol-1","game":"skirmish","headline":{"pl":"runda 1 · strzał","en":"round 1 · shooting"},
"state":{"units":[{"name":"AK pluton Zośka","models":[{"id":"ak-1","lives":1,"wounds":0},{"id":"ak-2","lives":1,"wounds":1,"removed":true}]},
{"name":"Grenadierzy","models":[{"id":"gren-1","lives":2,"wounds":1},{"id":"gren-2","lives":2,"wounds":0}]}],
"last_shot":{"shooter":"ak","target":"gren","hits":5,"wounds":5,"saved":3,"wounded":["gren-1"],"killed":[]},
"call":{"question":{"pl":"czy cel jest w zasięgu?","en":"is the target in range?"}}}}`

func TestRender(t *testing.T) {
	s := NewScreen("en")
	for _, m := range []struct{ topic, payload string }{
		{"status", `{"status":"online","game":"skirmish","venue":"demo","table":"stol-1"}`},
		{"state", state},
		{"events", `{"seq":20,"event":{"type":"stage_resolved","text":{"pl":"obrona","en":"saves on 4+"}}}`},
		{"events", `{"seq":21,"event":{"type":"rejected","text":{"pl":"kość 7","en":"a die showing 7"}}}`},
		{"nonsense", `{}`},
		{"state", `not json`},
	} {
		s.Apply(m.topic, []byte(m.payload))
	}
	got := s.Render()
	for _, want := range []string{
		"Sztab · demo / stol-1 · skirmish · ONLINE · seq 21",
		"round 1 · shooting",
		"AK pluton Zośka", "●✕ 1/2",
		"Grenadierzy", "◐● 2/2 (1 wounded)",
		"RULE: is the target in range?",
		"Last shot: ak → gren: 5/5/3 · wounded 1 · killed 0",
		"#21 a die showing 7  ◀",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("render lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "#21") > strings.Index(got, "#20") {
		t.Errorf("events not newest first:\n%s", got)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunFollowsATableOnABroker(t *testing.T) {
	daemon := display.Credential{User: "d", Password: "p"}
	b, err := companion.StartBroker("127.0.0.1:0", companion.BrokerUsers{Daemon: daemon}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pub := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + b.Addr()).SetUsername("d").SetPassword("p").SetClientID("pub"))
	if tok := pub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	pub.Publish("sztab/v1/demo/stol-1/status", 1, true, `{"status":"online","game":"skirmish","venue":"demo","table":"stol-1"}`).Wait()
	pub.Publish("sztab/v1/demo/stol-1/state", 1, true, state).Wait()
	pub.Publish("sztab/v1/demo/stol-9/state", 1, true, `{"seq":99,"state":{}}`).Wait()

	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, Options{Broker: "tcp://" + b.Addr(), Table: "stol-1", Lang: "pl", Out: out}) }()
	waitFor := func(want string) {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if strings.Contains(out.String(), want) {
				return
			}
		}
		t.Fatalf("the watch never showed %q:\n%s", want, out.String())
	}
	waitFor("runda 1 · strzał")
	pub.Publish("sztab/v1/demo/stol-1/events", 1, false, `{"seq":22,"event":{"type":"phase","text":{"pl":"Bartek: faza ruchu","en":"Bartek: movement"}}}`).Wait()
	waitFor("#22 Bartek: faza ruchu")
	if strings.Contains(out.String(), "seq 99") {
		t.Error("the watch showed another table")
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
	if err := Run(context.Background(), Options{Broker: "tcp://x", Table: "a/b"}); err == nil {
		t.Error("a table id with a slash was accepted")
	}
}

// A referee with a laptop rules from the watch: typed keys go to the table's
// command topic through the broker, an unknown key is answered on screen.
func TestRunSendsTheRefereesKeys(t *testing.T) {
	daemon := display.Credential{User: "d", Password: "p"}
	referee := display.Credential{User: "sedzia", Password: "tajne"}
	b, err := companion.StartBroker("127.0.0.1:0", companion.BrokerUsers{Daemon: daemon, Referee: referee, Commands: "sztab/v1/demo/stol-1/referee/command"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	table := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + b.Addr()).SetUsername("d").SetPassword("p").SetClientID("table"))
	if tok := table.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	got := make(chan string, 4)
	table.Subscribe("sztab/v1/demo/stol-1/referee/command", 1, func(_ paho.Client, m paho.Message) { got <- string(m.Payload()) }).Wait()
	table.Publish("sztab/v1/demo/stol-1/status", 1, true, `{"status":"online","game":"skirmish","venue":"demo","table":"stol-1"}`).Wait()

	keys, typing := io.Pipe()
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Broker: "tcp://" + b.Addr(), Table: "stol-1", Lang: "en", Out: out,
			Username: "sedzia", Password: "tajne", Commands: keys})
	}()
	for end := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "ONLINE") && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
	}
	io.WriteString(typing, "7\n")
	io.WriteString(typing, "n\n")
	select {
	case p := <-got:
		if !strings.Contains(p, `"name":"next"`) || !strings.Contains(p, `"id":"sztab-watch-stol-1-`) {
			t.Errorf("the table received %s", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the table never received the referee's key:\n%s", out.String())
	}
	for end := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "sent: next") && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
	}
	if !strings.Contains(out.String(), `unknown key "7"`) || !strings.Contains(out.String(), "sent: next") || !strings.Contains(out.String(), "Referee: n next phase") {
		t.Errorf("the watch did not answer the keys:\n%s", out.String())
	}
	select {
	case p := <-got:
		t.Errorf("an unknown key reached the table: %s", p)
	default:
	}
	typing.Close()
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}
