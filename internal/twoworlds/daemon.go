package twoworlds

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/watch"
	"github.com/sztab/sztab/internal/wait"
)

// DaemonWorld is one side of a daemon pair: a table's config (its
// simulated script, if it names one, is played first) and inputs then
// submitted in order.
type DaemonWorld struct {
	Config *companion.Config
	Inputs []companion.Input
}

// DaemonPair is two tables that differ only in what a public viewer may
// not see, played on real daemons one after the other.
type DaemonPair struct {
	Name string
	Spec companion.GameSpec
	A, B DaemonWorld
}

// At is the time on both daemons' clocks: their journals' time stamps, and
// so their events', are the same.
var At = time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)

// instance is both daemons' instance id (companion.Options.Instance).
const instance = "twoworlds"

// CheckDaemons plays both worlds and fails t at the first thing a public
// viewer receives differently: on MQTT (every event and answer in order,
// the last message of every other topic), on the screens' public /stream
// (every event in order, the last state and meta), on `sztab watch`'s
// screen, or on the venue wall's line for the table.
func CheckDaemons(t testing.TB, p DaemonPair) {
	t.Helper()
	a := RecordDaemon(t, p.Spec, p.A)
	b := RecordDaemon(t, p.Spec, p.B)
	if d := Diff(a, b); d != "" {
		t.Errorf("%s: a public viewer of the real tables can tell the two worlds apart:\n%s", p.Name, d)
	}
}

// scriptOver is the narration appended to a world's script: once the
// simulator says it, every input of the script is queued.
const scriptOver = "twoworlds: the script is over"

// scriptStart is the narration put before a world's script: the simulator
// waits there until every recorder listens (the /stream connects once the
// daemon serves), so that none misses the script's first messages.
const scriptStart = "twoworlds: the recorders listen"

// RecordDaemon plays w on a real daemon and returns what a public viewer
// received, one line per message: "mqtt TOPIC PAYLOAD" and "stream KIND
// DATA", events in the order they came, then the last message of each
// retained topic and the stream's last state.
func RecordDaemon(t testing.TB, spec companion.GameSpec, w DaemonWorld) []string {
	t.Helper()
	cfg := w.Config
	over := make(chan struct{})
	if cfg.Hardware.Simulated != "" {
		script, err := os.ReadFile(cfg.Resolve(cfg.Hardware.Simulated))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "script.jsonl")
		script = fmt.Appendf(fmt.Appendf(nil, "{\"say\": %q}\n", scriptStart), "%s\n{\"say\": %q}\n", script, scriptOver)
		if err := os.WriteFile(path, script, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg.Hardware.Simulated = path
	} else {
		close(over)
	}
	var once, heard sync.Once
	listening := make(chan struct{})
	listen := func() { heard.Do(func() { close(listening) }) }
	defer listen()
	d, err := companion.Open(context.Background(), cfg, companion.Options{
		Games: companion.Games{spec}, Clock: func() time.Time { return At }, Instance: instance,
		Heartbeat: time.Hour, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Narrate: func(text string) {
			switch text {
			case scriptStart:
				select {
				case <-listening:
				case <-time.After(wait.Timeout):
				}
			case scriptOver:
				once.Do(func() { close(over) })
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	mq := subscribe(t, d.BrokerAddr())
	ctx, cancel := context.WithCancel(context.Background())
	wall := followWall(t, ctx, d.BrokerAddr(), cfg.Venue)
	served := make(chan error, 1)
	go func() { served <- d.Serve(ctx) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	wait.Until(t, "the screens to listen", func() bool { return cfg.Display.Listen == "" || d.DisplayAddr() != "" })
	var st *streamRecorder
	if cfg.Display.Listen != "" {
		st = readStream(t, ctx, "http://"+d.DisplayAddr()+"/stream")
	}
	listen()
	wait.Until(t, "the end of the simulated script", func() bool {
		select {
		case <-over:
			return true
		default:
			return false
		}
	})
	for _, in := range w.Inputs {
		if err := d.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	wait.Until(t, "every input handled", func() bool { return d.Backlog() == 0 })
	seq := d.Seq()
	wait.Until(t, fmt.Sprintf("the state of entry %d on MQTT, on the stream and on the wall", seq), func() bool {
		return mq.seq() == seq && (st == nil || st.seq() == seq) && wallSeq(wall, cfg.Table) == seq
	})
	// The events and answers come on their own paths: once nothing new has
	// come for a while after the last state, they are in.
	settle(mq, st)
	out := mq.lines()
	if st != nil {
		out = append(out, st.lines()...)
	}
	for _, line := range strings.Split(mq.watch.Render(), "\n") {
		out = append(out, "watch "+line)
	}
	for _, tb := range wall.Wall().Tables {
		b, _ := json.Marshal(tb)
		out = append(out, "wall "+string(blindHead(b)))
	}
	return out
}

// followWall runs a venue hub on the table's broker, as the venue's wall.
func followWall(t testing.TB, ctx context.Context, broker, venue string) *hub.Hub {
	t.Helper()
	h, err := hub.New(hub.Options{Broker: "tcp://" + broker, Venue: venue, Listen: "127.0.0.1:0", WallEvery: -1,
		Clock: func() time.Time { return At }, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	t.Cleanup(func() {
		if err := <-done; err != nil {
			t.Errorf("hub: %v", err)
		}
	})
	return h
}

// wallSeq is the seq the wall shows for table (-1: none yet).
func wallSeq(h *hub.Hub, table string) int64 {
	for _, tb := range h.Wall().Tables {
		if tb.Table == table {
			return tb.Seq
		}
	}
	return -1
}

// settle waits until neither recorder has taken a message for 300 ms.
func settle(mq *mqttRecorder, st *streamRecorder) {
	last, quiet := -1, 0
	wait.For(wait.Timeout, func() bool {
		n := mq.count()
		if st != nil {
			n += st.count()
		}
		if n == last {
			quiet++
		} else {
			last, quiet = n, 0
		}
		if quiet >= 6 {
			return true
		}
		time.Sleep(50 * time.Millisecond)
		return false
	})
}

// blindHead replaces a status's (or a wall line's) journal head's mark and journal digest
// with their lengths. Both are keyed with the journal's own random key
// (wire.ChainHead): to anyone without it they are random, so they tell a
// viewer nothing, but they differ between any two journals. The head's seq
// stays compared.
func blindHead(status []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(status, &m) != nil || m["head"] == nil {
		return status
	}
	var head map[string]any
	if json.Unmarshal(m["head"], &head) != nil {
		return status
	}
	for _, k := range []string{"mark", "journal"} {
		if s, ok := head[k].(string); ok {
			head[k] = fmt.Sprintf("<%d keyed bytes>", len(s))
		}
	}
	m["head"], _ = json.Marshal(head)
	out, _ := json.Marshal(m)
	return out
}

// seqOf is a state message's seq.
func seqOf(data []byte) int64 {
	var m struct {
		Seq int64 `json:"seq"`
	}
	json.Unmarshal(data, &m)
	return m.Seq
}

// mqttRecorder is an anonymous MQTT client's record of sztab/#. The
// journal's events, the answers to commands ("r…" ids) and the loose
// events ("n…") reach a topic by paths of their own, each in order but not
// in order with the others: each is a list of its own.
type mqttRecorder struct {
	mu     sync.Mutex
	events map[string][]string
	last   map[string]string
	n      int
	// watch is `sztab watch`'s screen, fed every message.
	watch *watch.Screen
}

// path is which of the table's paths an event message came by.
func path(payload []byte) string {
	var m struct {
		ID string `json:"id"`
	}
	json.Unmarshal(payload, &m)
	switch {
	case strings.HasPrefix(m.ID, "r"):
		return "answers"
	case strings.HasPrefix(m.ID, "n"):
		return "loose"
	}
	return "journal"
}

func subscribe(t testing.TB, addr string) *mqttRecorder {
	t.Helper()
	r := &mqttRecorder{events: map[string][]string{}, last: map[string]string{}, watch: watch.NewScreen("pl")}
	c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("twoworlds-%d", time.Now().UnixNano())).SetOrderMatters(true))
	if tok := c.Connect(); !tok.WaitTimeout(wait.Timeout) || tok.Error() != nil {
		t.Fatalf("connect %s: %v", addr, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	tok := c.Subscribe("sztab/#", 1, func(_ paho.Client, m paho.Message) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.n++
		if parts := strings.SplitN(m.Topic(), "/", 5); len(parts) == 5 {
			r.watch.Apply(parts[4], m.Payload())
		}
		payload := m.Payload()
		if strings.HasSuffix(m.Topic(), "/status") {
			payload = blindHead(payload)
		}
		line := m.Topic() + " " + string(payload)
		if strings.HasSuffix(m.Topic(), "/events") {
			p := path(m.Payload())
			r.events[p] = append(r.events[p], line)
			return
		}
		r.last[m.Topic()] = line
	})
	if !tok.WaitTimeout(wait.Timeout) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	return r
}

func (r *mqttRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// seq is the seq of the last public state.
func (r *mqttRecorder) seq() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	for topic, line := range r.last {
		if strings.HasSuffix(topic, "/state") && !strings.Contains(topic, "/player/") && !strings.Contains(topic, "/referee/") {
			return seqOf([]byte(strings.TrimPrefix(line, topic+" ")))
		}
	}
	return -1
}

func (r *mqttRecorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, p := range []string{"journal", "answers", "loose"} {
		for _, e := range r.events[p] {
			out = append(out, "mqtt "+p+" "+e)
		}
	}
	topics := make([]string, 0, len(r.last))
	for topic := range r.last {
		topics = append(topics, topic)
	}
	slices.Sort(topics)
	for _, topic := range topics {
		out = append(out, "mqtt last "+r.last[topic])
	}
	return out
}

// streamRecorder is a public screen's record of /stream, its events by
// path as on MQTT.
type streamRecorder struct {
	mu     sync.Mutex
	events map[string][]string
	last   map[string]string
	n      int
}

func readStream(t testing.TB, ctx context.Context, url string) *streamRecorder {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	r := &streamRecorder{events: map[string][]string{}, last: map[string]string{}}
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<16), 1<<24)
		kind := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				data := strings.TrimPrefix(line, "data: ")
				r.mu.Lock()
				switch kind {
				case "ping":
				case "event":
					r.n++
					p := path([]byte(data))
					r.events[p] = append(r.events[p], data)
				default:
					r.n++
					r.last[kind] = data
				}
				r.mu.Unlock()
			}
		}
	}()
	return r
}

func (r *streamRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

func (r *streamRecorder) seq() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.last["state"]
	if !ok {
		return -1
	}
	return seqOf([]byte(s))
}

func (r *streamRecorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, p := range []string{"journal", "answers", "loose"} {
		for _, e := range r.events[p] {
			out = append(out, "stream "+p+" "+e)
		}
	}
	kinds := make([]string, 0, len(r.last))
	for k := range r.last {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		out = append(out, "stream last "+k+" "+r.last[k])
	}
	return out
}
