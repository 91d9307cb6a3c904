package venueload

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/wire"
)

// The venue hub runs in its own process, as `sztab hub` does at a venue,
// so that its CPU time is its own: the test binary started again with
// childEnv=hub runs hub.New + Run and nothing else (childEnv=bare: a bare
// paho subscriber to the same states, in its own process likewise). It says "ADDR <wall
// address>" once it listens; on stdin, "mem" answers "MEM <heap in use>
// <stacks in use> <goroutines>" after a GC, "seqs" answers "SEQS <json of
// a record without its samples>", and "stop" ends it with "RESULT <json of
// a record>".
const childEnv = "SZTAB_VENUELOAD_HUB"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(runChild())
	}
	os.Exit(m.Run())
}

func runChild() int {
	if os.Getenv(childEnv) == "bare" {
		return runBare()
	}
	every, _ := time.ParseDuration(os.Getenv("SZTAB_VENUELOAD_WALL_EVERY"))
	rec := newRecord()
	h, err := hub.New(hub.Options{Broker: os.Getenv("SZTAB_VENUELOAD_BROKER"), Venue: venue, Listen: "127.0.0.1:0",
		Log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), WallEvery: every,
		Applied: func(topic string, payload []byte) { rec.take(time.Now(), topic, payload) }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, a ...any) {
		fmt.Fprintf(out, format+"\n", a...)
		out.Flush()
	}
	say("ADDR %s", h.Addr())
	return serveChild(say, rec, func() error {
		cancel()
		return <-done
	})
}

// runBare is the bare paho subscriber to the venue's states, in a process
// of its own as the hub is, so that the two are compared alike.
func runBare() int {
	rec := newRecord()
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, a ...any) {
		fmt.Fprintf(out, format+"\n", a...)
		out.Flush()
	}
	c := paho.NewClient(paho.NewClientOptions().AddBroker(os.Getenv("SZTAB_VENUELOAD_BROKER")).
		SetClientID(fmt.Sprintf("venueload-bare-%d", os.Getpid())).SetCleanSession(true).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			fmt.Fprintln(os.Stderr, "venueload: the bare subscriber lost the broker:", err)
		}))
	if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		fmt.Fprintln(os.Stderr, "venueload: bare subscriber:", tok.Error())
		return 2
	}
	if tok := c.Subscribe(wire.VenueFilter(venue, "state"), 1, func(_ paho.Client, m paho.Message) {
		rec.take(time.Now(), m.Topic(), m.Payload())
	}); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		fmt.Fprintln(os.Stderr, "venueload: bare subscriber:", tok.Error())
		return 2
	}
	say("ADDR -")
	return serveChild(say, rec, func() error {
		c.Disconnect(100)
		return nil
	})
}

// serveChild answers the parent's questions on stdin until "stop".
func serveChild(say func(string, ...any), rec *record, stop func() error) int {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch in.Text() {
		case "mem":
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			say("MEM %d %d %d", ms.HeapInuse, ms.StackInuse, runtime.NumGoroutine())
		case "seqs":
			r := rec.snapshot()
			r.Samples = nil
			data, _ := json.Marshal(r)
			say("SEQS %s", data)
		case "stop":
			if err := stop(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			data, _ := json.Marshal(rec.snapshot())
			say("RESULT %s", data)
			return 0
		}
	}
	return 1
}

// venueHub is the parent's handle on the hub's process (or the bare
// subscriber's).
type venueHub struct {
	tb    testing.TB
	cmd   *exec.Cmd
	addr  string
	in    io.WriteCloser
	lines chan string
}

func startHub(tb testing.TB, brokerURL string, wallEvery time.Duration) *venueHub {
	return startChild(tb, "hub", brokerURL, wallEvery)
}

// startBare starts the bare subscriber's process.
func startBare(tb testing.TB, brokerURL string) *venueHub {
	return startChild(tb, "bare", brokerURL, 0)
}

// startChild starts the test binary again as the hub or the bare
// subscriber.
func startChild(tb testing.TB, mode, brokerURL string, wallEvery time.Duration) *venueHub {
	tb.Helper()
	var in io.WriteCloser
	var stdout io.ReadCloser
	start := func(argv ...string) (*exec.Cmd, error) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), childEnv+"="+mode, "SZTAB_VENUELOAD_BROKER="+brokerURL, "SZTAB_VENUELOAD_WALL_EVERY="+wallEvery.String())
		cmd.Stderr = os.Stderr
		in, _ = cmd.StdinPipe()
		stdout, _ = cmd.StdoutPipe()
		return cmd, cmd.Start()
	}
	// os.Args[0], not os.Executable: under qemu-user that is qemu.
	cmd, err := start(os.Args[0])
	if errors.Is(err, syscall.ENOEXEC) {
		// The arm64 run under qemu-user without binfmt: through qemu.
		qemu := map[string]string{"arm64": "qemu-aarch64", "arm": "qemu-arm", "riscv64": "qemu-riscv64"}[runtime.GOARCH]
		if emu, lerr := exec.LookPath(qemu); qemu != "" && lerr == nil {
			cmd, err = start(emu, os.Args[0])
		}
	}
	if err != nil {
		tb.Fatalf("venueload: start the hub: %v", err)
	}
	h := &venueHub{tb: tb, cmd: cmd, in: in, lines: make(chan string, 16)}
	tb.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
	}()
	h.addr = strings.TrimPrefix(h.expect("ADDR "), "ADDR ")
	if h.addr == "" {
		tb.Fatalf("venueload: the %s could not listen", mode)
	}
	return h
}

func (h *venueHub) expect(prefix string) string {
	h.tb.Helper()
	select {
	case l, ok := <-h.lines:
		if !ok || !strings.HasPrefix(l, prefix) {
			h.tb.Fatalf("venueload: the hub said %q, want %s…", l, prefix)
		}
		return l
	case <-time.After(60 * time.Second):
		h.tb.Fatalf("venueload: the hub did not say %s in 60 s", prefix)
	}
	return ""
}

// mem is the hub's heap and stacks in use (bytes) and its goroutines,
// after a GC.
func (h *venueHub) mem() (heap, stack, goroutines int64) {
	h.tb.Helper()
	fmt.Fprintln(h.in, "mem")
	f := strings.Fields(h.expect("MEM "))
	heap, _ = strconv.ParseInt(f[1], 10, 64)
	stack, _ = strconv.ParseInt(f[2], 10, 64)
	goroutines, _ = strconv.ParseInt(f[3], 10, 64)
	return
}

// seqs are the seqs the hub has applied so far, by table.
func (h *venueHub) seqs() recordSnapshot {
	h.tb.Helper()
	fmt.Fprintln(h.in, "seqs")
	var r recordSnapshot
	if err := json.Unmarshal([]byte(strings.TrimPrefix(h.expect("SEQS "), "SEQS ")), &r); err != nil {
		h.tb.Fatal(err)
	}
	return r
}

// stop ends the hub and returns what it applied.
func (h *venueHub) stop() recordSnapshot {
	h.tb.Helper()
	fmt.Fprintln(h.in, "stop")
	var r recordSnapshot
	if err := json.Unmarshal([]byte(strings.TrimPrefix(h.expect("RESULT "), "RESULT ")), &r); err != nil {
		h.tb.Fatal(err)
	}
	h.cmd.Wait()
	return r
}

// record keeps what a subscriber (the hub or the bare one) got of the
// tables' states: each one's latency from the send time in its payload,
// and the seqs seen per table, to count losses.
type record struct {
	mu      sync.Mutex
	samples []sample
	seqs    map[string]map[int64]bool
}

// sample is one state message: when it was sent and how long it took
// (nanoseconds).
type sample struct {
	Sent int64 `json:"s"`
	Took int64 `json:"t"`
}

type recordSnapshot struct {
	Samples []sample `json:"samples"`
	// Seqs are the distinct seqs seen per table.
	Seqs map[string][]int64 `json:"seqs"`
}

func newRecord() *record { return &record{seqs: map[string]map[int64]bool{}} }

// take records a state message received at now.
func (r *record) take(now time.Time, topic string, payload []byte) {
	tp, ok := wire.ParseTopic(topic)
	if !ok || tp.Suffix != "state" {
		return
	}
	var m struct {
		Seq   int64 `json:"seq"`
		State struct {
			Sent int64 `json:"sent"`
		} `json:"state"`
	}
	if json.Unmarshal(payload, &m) != nil || m.State.Sent == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.samples = append(r.samples, sample{Sent: m.State.Sent, Took: now.UnixNano() - m.State.Sent})
	s := r.seqs[tp.Table]
	if s == nil {
		s = map[int64]bool{}
		r.seqs[tp.Table] = s
	}
	s[m.Seq] = true
}

func (r *record) snapshot() recordSnapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := recordSnapshot{Samples: append([]sample(nil), r.samples...), Seqs: map[string][]int64{}}
	for t, s := range r.seqs {
		for q := range s {
			out.Seqs[t] = append(out.Seqs[t], q)
		}
	}
	return out
}

// lockedWriter lets a process's stdout and stderr share a builder.
type lockedWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
