// Package tabletest runs a game's demo table through the real daemon for
// that game's tests: the embedded demo files on free loopback ports, the
// daemon serving, and a real MQTT client recording what the table
// publishes.
package tabletest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
)

// DemoConfig writes the embedded demo files into dir and reads the demo
// table file (e.g. "wot-rush.yaml") with its broker and screens on free
// loopback ports; without script, the simulated session is left out.
func DemoConfig(t testing.TB, dir, file string, script bool) *companion.Config {
	t.Helper()
	return DemoConfigEdited(t, dir, file, script)
}

// OnClubBox are the edits (for DemoConfigEdited) that play game's demo
// table on the club's test box, companion/box/testdata/<game>: a pack that
// differs from the shipped data (docs/box.md).
func OnClubBox(t testing.TB, game string) []string {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("tabletest: no caller to find the club's box from")
	}
	dir := filepath.Join(filepath.Dir(here), "..", "..", "companion", "box", "testdata", game)
	if _, err := os.Stat(filepath.Join(dir, "pack.yaml")); err != nil {
		t.Fatalf("tabletest: the club's box of %s: %v", game, err)
	}
	return []string{"game: " + game + "\n", "game: " + game + "\nbox: " + dir + "\n"}
}

// DemoConfigEdited is DemoConfig with the config's text edited first:
// edits are pairs of an old text, which must be there, and its
// replacement (the first place it stands), for a twin of the demo table.
func DemoConfigEdited(t testing.TB, dir, file string, script bool, edits ...string) *companion.Config {
	t.Helper()
	if len(edits)%2 != 0 {
		t.Fatalf("tabletest: edits come in pairs (old, new), got %d", len(edits))
	}
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
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `listen: "127.0.0.1:1884"`, `listen: "127.0.0.1:0"`, 1)
	text = strings.Replace(text, `listen: "127.0.0.1:8080"`, `listen: "127.0.0.1:0"`, 1)
	if !script {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), "simulated:") {
				lines[i] = ""
			}
		}
		text = strings.Join(lines, "\n")
		text = strings.Replace(text, "hardware:\n\n", "", 1)
	}
	for i := 0; i < len(edits); i += 2 {
		if !strings.Contains(text, edits[i]) {
			t.Fatalf("the demo config %s has no %q", file, edits[i])
		}
		text = strings.Replace(text, edits[i], edits[i+1], 1)
	}
	cfg, err := companion.ParseConfig(filepath.Join(dir, file), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// GameConfig is a table config for spec in dir without its script: its
// demo table's (DemoConfig), or, for a game without a demo, a bare table
// with the spec's TestSection.
func GameConfig(t testing.TB, dir string, spec companion.GameSpec) *companion.Config {
	t.Helper()
	if spec.Demo != "" {
		return DemoConfig(t, dir, spec.Demo, false)
	}
	if err := os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "venue: test\ntable: t1\ngame: " + spec.ID + "\njournal: journal.db\ntags: tags.yaml\nmqtt:\n  listen: \"127.0.0.1:0\"\ndice:\n  seed: 1\n" + spec.TestSection
	cfg, err := companion.ParseConfig(filepath.Join(dir, "table.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Running is a daemon serving in the background.
type Running struct {
	D      *companion.Daemon
	cfg    *companion.Config
	cancel context.CancelFunc
	done   chan error
}

// Start opens the daemon for cfg playing spec and serves it; the simulated
// session, if any, runs without pauses.
func Start(t testing.TB, cfg *companion.Config, spec companion.GameSpec) *Running {
	t.Helper()
	r := Open(t, cfg, spec)
	r.Serve(t)
	return r
}

// StartWatched is Start with a Watcher subscribed before the daemon
// serves, so it sees every event of a simulated session from the first
// (events are not retained: a later subscriber misses them).
func StartWatched(t testing.TB, cfg *companion.Config, spec companion.GameSpec) (*Running, *Watcher) {
	t.Helper()
	r := Open(t, cfg, spec)
	w := Watch(t, r.D.BrokerAddr(), cfg.Venue, cfg.Table)
	r.Serve(t)
	return r, w
}

// Open opens the daemon for cfg playing spec, not serving yet.
func Open(t testing.TB, cfg *companion.Config, spec companion.GameSpec) *Running {
	t.Helper()
	return open(t, cfg, spec, nil)
}

// endOfDemo is the narration PlayDemo appends to a demo's script.
const endOfDemo = "tabletest: end of the script"

// PlayDemo serves the demo table file (e.g. "wot-rush.yaml") playing
// spec with its simulated session cut to its first part (a fraction of
// its lines; 1 plays it whole), and returns once every input of it is
// handled: the game in the middle, or at the demo's end. edits are
// DemoConfigEdited's (OnClubBox's, to play on a box pack).
func PlayDemo(t testing.TB, dir, file string, spec companion.GameSpec, part float64, edits ...string) *Running {
	t.Helper()
	cfg := DemoConfigEdited(t, dir, file, true, edits...)
	script := cfg.Resolve(cfg.Hardware.Simulated)
	data, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	lines = append(lines[:int(part*float64(len(lines)))], fmt.Sprintf(`{"say": %q}`, endOfDemo))
	if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	r := open(t, cfg, spec, func(text string) {
		if text == endOfDemo {
			close(ended)
		}
	})
	r.Serve(t)
	select {
	case <-ended:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the demo %s did not play to its end within 2 minutes", file)
	}
	// The narration comes after the script's last input is queued: once
	// the queue is empty, every input is handled.
	for end := time.Now().Add(time.Minute); r.D.Backlog() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the demo %s's inputs were not handled within a minute", file)
		}
	}
	return r
}

// DemoBefore is the part of the demo session (for PlayDemo) that ends
// just before the first line of script (the demo table's session file)
// holding text: the session played up to a moment its narration names.
func DemoBefore(t testing.TB, script, text string) float64 {
	t.Helper()
	data, err := fs.ReadFile(firmwareconfig.Demo, "demo/"+script)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i, l := range lines {
		if strings.Contains(l, text) {
			return (float64(i) + 0.5) / float64(len(lines))
		}
	}
	t.Fatalf("tabletest: no line of %s holds %q", script, text)
	return 0
}

func open(t testing.TB, cfg *companion.Config, spec companion.GameSpec, narrate func(string)) *Running {
	t.Helper()
	d, err := companion.Open(context.Background(), cfg, companion.Options{
		Games: companion.Games{spec}, SimSpeed: 0, Heartbeat: 300 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Narrate: narrate,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &Running{D: d, cfg: cfg}
}

// Topics are the running table's MQTT topics.
func (r *Running) Topics() wire.Topics { return wire.TopicsFor(r.cfg.Venue, r.cfg.Table) }

// JournalPath is the journal file of the running table.
func (r *Running) JournalPath() string { return r.cfg.Resolve(r.cfg.Journal) }

// Serve serves the opened daemon in the background and waits for its
// screens' listener, if it has one.
func (r *Running) Serve(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.done = cancel, make(chan error, 1)
	go func() { r.done <- r.D.Serve(ctx) }()
	// The screens listen once Serve has started them: on a loaded machine
	// that may take a while; a Serve that returned at once says why.
	for end := time.Now().Add(30 * time.Second); r.cfg.Display.Listen != "" && r.D.DisplayAddr() == ""; time.Sleep(10 * time.Millisecond) {
		select {
		case err := <-r.done:
			r.D.Close()
			t.Fatalf("Serve returned before the screens listened: %v", err)
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("the screens did not listen within 30 s")
		}
	}
}

// Stop stops serving and closes the daemon. A daemon that does not stop
// within a minute fails the test with every goroutine's stack, instead of
// hanging it until the test binary's timeout.
func (r *Running) Stop(t testing.TB) {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("Serve did not return a minute after its context ended; the goroutines:\n%s", Goroutines())
	}
	closed := make(chan error, 1)
	go func() { closed <- r.D.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("Close did not return within a minute; the goroutines:\n%s", Goroutines())
	}
}

// Goroutines is every goroutine's stack, for a test that found the daemon
// stuck.
func Goroutines() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Watcher records the public state and events of one table as a real MQTT
// client sees them. Read its fields under Mu (Until holds it for cond).
type Watcher struct {
	Mu     sync.Mutex
	States []json.RawMessage
	Events []string
}

// Watch subscribes to the table venue/table at the broker addr.
func Watch(t testing.TB, addr, venue, table string) *Watcher {
	t.Helper()
	w := &Watcher{}
	c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("watch-%d", time.Now().UnixNano())))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect %s: %v", addr, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	base := "sztab/v1/" + venue + "/" + table + "/"
	tok := c.Subscribe(base+"#", 1, func(_ paho.Client, m paho.Message) {
		w.Mu.Lock()
		defer w.Mu.Unlock()
		switch strings.TrimPrefix(m.Topic(), base) {
		case "state":
			w.States = append(w.States, append(json.RawMessage(nil), m.Payload()...))
		case "events":
			w.Events = append(w.Events, string(m.Payload()))
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	return w
}

// Until polls cond (under Mu) for 30 s at most.
func (w *Watcher) Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		w.Mu.Lock()
		ok := cond()
		w.Mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// Count is how many events (under Mu) contain substr.
func (w *Watcher) Count(substr string) int {
	n := 0
	for _, e := range w.Events {
		if strings.Contains(e, substr) {
			n++
		}
	}
	return n
}

// CheckRestart starts a daemon on cfg's journal with no script, as after a
// power cut, and checks that it is at entry seq and that the state it
// publishes (retained) is the one published before (the message's "state"
// part, before): nothing lost, nothing added.
func CheckRestart(t *testing.T, cfg *companion.Config, spec companion.GameSpec, seq int64, before json.RawMessage) {
	t.Helper()
	r := Start(t, cfg, spec)
	defer r.Stop(t)
	if r.D.Seq() != seq {
		t.Errorf("after restart seq %d, want %d", r.D.Seq(), seq)
	}
	w := Watch(t, r.D.BrokerAddr(), cfg.Venue, cfg.Table)
	w.Until(t, "the retained state after restart", func() bool { return len(w.States) > 0 })
	w.Mu.Lock()
	defer w.Mu.Unlock()
	var a, b struct {
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(before, &a); err != nil {
		t.Fatalf("the state before: %v", err)
	}
	if err := json.Unmarshal(w.States[0], &b); err != nil {
		t.Fatalf("the state after restart: %v", err)
	}
	if string(a.State) != string(b.State) {
		t.Errorf("the state after restart differs:\n got %s\nwant %s", b.State, a.State)
	}
}
