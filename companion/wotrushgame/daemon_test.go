package wotrushgame_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wotrushgame"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
)

// demoTable writes the embedded demo table into dir, on free loopback
// ports, with or without its simulated session.
func demoTable(t testing.TB, dir string, script bool) *companion.Config {
	t.Helper()
	err := fs.WalkDir(firmwareconfig.Demo, "demo", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := firmwareconfig.Demo.ReadFile(p)
		return os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "wot-rush.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `listen: "127.0.0.1:1884"`, `listen: "127.0.0.1:0"`, 1)
	text = strings.Replace(text, `listen: "127.0.0.1:8080"`, `listen: "127.0.0.1:0"`, 1)
	if !script {
		text = strings.Replace(text, "hardware:\n  simulated: wot-rush-demo.jsonl\n", "", 1)
	}
	cfg, err := companion.ParseConfig(filepath.Join(dir, "wot-rush.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

type running struct {
	d      *companion.Daemon
	cancel context.CancelFunc
	done   chan error
}

func start(t testing.TB, cfg *companion.Config) *running {
	t.Helper()
	d, err := companion.Open(context.Background(), cfg, companion.Options{
		Games: companion.Games{wotrushgame.Spec}, SimSpeed: 0, Heartbeat: 300 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{d: d, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- d.Serve(ctx) }()
	return r
}

func (r *running) stop(t testing.TB) {
	t.Helper()
	r.cancel()
	if err := <-r.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if err := r.d.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// watcher records the public state and events a real MQTT client sees.
type watcher struct {
	mu     sync.Mutex
	states []json.RawMessage
	events []string
}

func watch(t *testing.T, addr string) *watcher {
	t.Helper()
	w := &watcher{}
	c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("wot-%d", time.Now().UnixNano())))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect %s: %v", addr, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	base := "sztab/v1/demo/stol-1/"
	tok := c.Subscribe(base+"#", 1, func(_ paho.Client, m paho.Message) {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch strings.TrimPrefix(m.Topic(), base) {
		case "state":
			w.states = append(w.states, append(json.RawMessage(nil), m.Payload()...))
		case "events":
			w.events = append(w.events, string(m.Payload()))
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	return w
}

// until polls cond (under the lock) with a deadline.
func (w *watcher) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		w.mu.Lock()
		ok := cond()
		w.mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// publicState is the part of the published view the test reads.
type publicState struct {
	Seq   int64 `json:"seq"`
	State struct {
		Active  int      `json:"active"`
		Round   int      `json:"round"`
		Reserve []string `json:"reserve"`
		Players []struct {
			Seat   int      `json:"seat"`
			Hand   []string `json:"hand"`
			Garage []string `json:"garage"`
			Bases  []struct {
				Card    string `json:"card"`
				Damaged bool   `json:"damaged"`
			} `json:"bases"`
		} `json:"players"`
		Stats []struct {
			Seat  int `json:"seat"`
			Squad int `json:"squad"`
		} `json:"stats"`
		Leaders []json.RawMessage `json:"leaders"`
	} `json:"state"`
}

func (w *watcher) last() publicState {
	var ps publicState
	if len(w.states) > 0 {
		json.Unmarshal(w.states[len(w.states)-1], &ps)
	}
	return ps
}

func demoOver(ps publicState) bool {
	return ps.State.Round == 3 && len(ps.State.Players) == 2 && ps.State.Players[1].Bases[0].Damaged
}

// TestDemoEndToEnd plays the wot-rush demo table through the real daemon
// (simulated readers and buttons, embedded broker): a real MQTT client sees
// the state reach round 3 with Bartek's BASE-2-1 damaged, no step refused,
// the Garage order never published; after a restart on the same journal
// the state is the same.
func TestDemoEndToEnd(t *testing.T) {
	dir := t.TempDir()
	r := start(t, demoTable(t, dir, true))
	w := watch(t, r.d.BrokerAddr())
	w.until(t, "the demo's last step (BASE-2-1 damaged in round 3)", func() bool { return demoOver(w.last()) })
	w.until(t, "the answers to the demo's 7 keys", func() bool {
		n := 0
		for _, e := range w.events {
			if strings.Contains(e, `"command_result"`) {
				n++
			}
		}
		return n >= 7
	})
	w.mu.Lock()
	final := w.last()
	raw := w.states[len(w.states)-1]
	for _, e := range w.events {
		if strings.Contains(e, `"type":"rejected"`) || strings.Contains(e, `"ok":false`) {
			t.Errorf("the demo had a refusal: %s", e)
		}
	}
	joined := strings.Join(w.events, "\n")
	for _, want := range []string{"unknown_tag", "hand_shown", "reserve_shown", "bought", "attack", "damaged"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %s event", want)
		}
	}
	for _, p := range final.State.Players {
		if len(p.Garage) != 0 {
			t.Errorf("seat %d's Garage order published: %v", p.Seat, p.Garage)
		}
		if p.Seat != final.State.Active && len(p.Hand) != 0 {
			t.Errorf("seat %d's hidden hand published: %v", p.Seat, p.Hand)
		}
	}
	if len(final.State.Reserve) != 4 || len(final.State.Stats) != 2 || len(final.State.Leaders) != 3 {
		t.Errorf("reserve %v, stats %d, leaders %d", final.State.Reserve, len(final.State.Stats), len(final.State.Leaders))
	}
	w.mu.Unlock()
	seq := r.d.Seq()
	r.stop(t)

	// The same journal, no script: the same state.
	r2 := start(t, demoTable(t, dir, false))
	defer r2.stop(t)
	if r2.d.Seq() != seq {
		t.Errorf("after restart seq %d, want %d", r2.d.Seq(), seq)
	}
	w2 := watch(t, r2.d.BrokerAddr())
	w2.until(t, "the retained state after restart", func() bool { return len(w2.states) > 0 })
	w2.mu.Lock()
	defer w2.mu.Unlock()
	var a, b map[string]any
	json.Unmarshal(raw, &a)
	json.Unmarshal(w2.states[0], &b)
	delete(a, "at")
	delete(b, "at")
	if ja, jb := mustJSON(a["state"]), mustJSON(b["state"]); ja != jb {
		t.Errorf("the state after restart differs")
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }
