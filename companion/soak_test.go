package companion

import (
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
)

// rssBytes is this process's resident set.
func rssBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// A table played without a pause, with a screen and an MQTT subscriber
// following it: memory and goroutines stay flat. 5 minutes in CI, 30 with
// SZTAB_DRILLS=full, 20 s in a developer's go test.
func TestDrillSoak(t *testing.T) {
	length := 20 * time.Second
	switch {
	case fullDrills:
		length = 30 * time.Minute
	case os.Getenv("CI") == "true":
		length = 5 * time.Minute
	}
	d, stop := serveTally(t, t.TempDir(), "mqtt:\n  listen: 127.0.0.1:0\ndisplay:\n  listen: 127.0.0.1:0\n", Options{Heartbeat: 200 * time.Millisecond})
	defer stop()
	screen := openStream(t, &http.Client{}, d.DisplayAddr(), "public")
	go func() {
		for range screen.lines {
		}
	}()
	received := make(chan struct{}, 1)
	sub := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + d.BrokerAddr()).SetClientID("soak"))
	if tok := sub.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer sub.Disconnect(50)
	sub.Subscribe(wire.TableFilter("v", "t1"), 1, func(paho.Client, paho.Message) {
		select {
		case received <- struct{}{}:
		default:
		}
	}).Wait()

	play := func(until time.Time, pause time.Duration) int {
		n := 0
		for time.Now().Before(until) {
			d.inputs <- Input{Key: &hardware.KeyEvent{Keypad: "kp", Key: fmt.Sprint(1 + n%6)}, From: Sender{Kind: wire.Keys, Audience: wire.Public}}
			n++
			time.Sleep(pause)
		}
		return n
	}
	settle := func() (int64, int) {
		time.Sleep(time.Second) // the fan-out and the screens catch up
		runtime.GC()
		debug.FreeOSMemory()
		return rssBytes(t), runtime.NumGoroutine()
	}
	// The warm-up plays flat out so that the journal outgrows SQLite's
	// page cache (2 MiB) before the first measure: the cache filling up is
	// bounded, not a leak.
	warm := length / 5
	play(time.Now().Add(warm), 0)
	rss0, g0 := settle()
	n := play(time.Now().Add(length-warm), 20*time.Millisecond)
	rss1, g1 := settle()
	select {
	case <-received:
	default:
		t.Error("the subscriber heard nothing")
	}
	t.Logf("%d actions in %v; RSS %d → %d KiB; goroutines %d → %d", n, length-warm, rss0>>10, rss1>>10, g0, g1)
	if rss1 > rss0+rss0/20 {
		t.Errorf("RSS grew from %d to %d KiB (over 5%%) in %v of play", rss0>>10, rss1>>10, length-warm)
	}
	if g1 > g0 {
		t.Errorf("goroutines grew from %d to %d", g0, g1)
	}
}
