package companion

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
)

// fullDrills is set by `make drills`: the drills at their full length.
var fullDrills = os.Getenv("SZTAB_DRILLS") == "full"

// mosquittoBroker is a Mosquitto the test can stop and start again on the
// same port, keeping its sessions and retained messages (persistence), as
// a venue broker that restarts does.
type mosquittoBroker struct {
	t         *testing.T
	bin, conf string
	addr      string
	cmd       *exec.Cmd
	out       strings.Builder
}

// MosquittoBinary finds Debian's mosquitto for the tests of this package
// and of companion_test. Under CI a missing binary fails the test: `make
// test` installs it.
func MosquittoBinary(t testing.TB) string {
	t.Helper()
	if bin, err := exec.LookPath("mosquitto"); err == nil {
		return bin
	}
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("mosquitto is not installed; `make test` installs it (apt-get install mosquitto)")
	}
	t.Skip("mosquitto is not installed; run `make test`, which installs it")
	return ""
}

func newMosquittoBroker(t *testing.T) *mosquittoBroker {
	t.Helper()
	bin := MosquittoBinary(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	dir := t.TempDir()
	user := ""
	if os.Geteuid() == 0 {
		user = "user root\n"
	}
	conf := filepath.Join(dir, "mosquitto.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf("listener %s 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location %s/\n%s", port, dir, user)), 0o644)
	m := &mosquittoBroker{t: t, bin: bin, conf: conf, addr: addr}
	m.start()
	t.Cleanup(func() {
		if m.cmd != nil {
			m.cmd.Process.Kill()
			m.cmd.Wait()
		}
	})
	return m
}

func (m *mosquittoBroker) start() {
	m.t.Helper()
	m.cmd = exec.Command(m.bin, "-c", m.conf)
	m.cmd.Stdout, m.cmd.Stderr = &m.out, &m.out
	if err := m.cmd.Start(); err != nil {
		m.t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", m.addr); err == nil {
			c.Close()
			return
		}
	}
	m.t.Fatalf("mosquitto did not start on %s: %s", m.addr, m.out.String())
}

// stop shuts the broker down as a service stop would (it saves its
// sessions and retained messages).
func (m *mosquittoBroker) stop() {
	m.t.Helper()
	m.cmd.Process.Signal(syscall.SIGTERM)
	m.cmd.Wait()
	m.cmd = nil
}

// venueFollower is a screen across the venue: a persistent MQTT session
// that reconnects by itself and records each event once by its id.
type venueFollower struct {
	mu     sync.Mutex
	ids    map[string]int
	states []wire.StateMessage
}

func followVenue(t *testing.T, addr string) *venueFollower {
	t.Helper()
	f := &venueFollower{ids: map[string]int{}}
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("venue-screen-%d", time.Now().UnixNano())).
		SetCleanSession(false).SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(200 * time.Millisecond).
		SetMaxReconnectInterval(500 * time.Millisecond)
	o.SetOnConnectHandler(func(c paho.Client) {
		c.Subscribe(wire.TableFilter("v", "t1"), 1, func(_ paho.Client, m paho.Message) {
			tp, _ := wire.ParseTopic(m.Topic())
			f.mu.Lock()
			defer f.mu.Unlock()
			switch tp.Suffix {
			case "state":
				var sm wire.StateMessage
				if json.Unmarshal(m.Payload(), &sm) == nil {
					f.states = append(f.states, sm)
				}
			case "events":
				var em wire.EventMessage
				if json.Unmarshal(m.Payload(), &em) == nil {
					f.ids[em.ID]++
				}
			}
		})
	})
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return f
}

func (f *venueFollower) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		f.mu.Lock()
		ok := cond()
		f.mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatalf("the venue's screen never saw %s", what)
}

// The broker goes away during play and comes back: the table takes every
// key throughout and its screens follow; once the broker is back, a venue
// screen has the current retained state and every event it missed, each
// once (one in flight when the broker went may come twice, with its id). With SZTAB_DRILLS=full: 10 minutes of outage at 10 actions a
// second, and the daemon's heap stays bounded.
func TestDrillBrokerOutage(t *testing.T) {
	broker := newMosquittoBroker(t)
	d, stop := serveTally(t, t.TempDir(), fmt.Sprintf("mqtt:\n  broker: tcp://%s\ndisplay:\n  listen: 127.0.0.1:0\n", broker.addr), Options{})
	defer stop()
	screen := openStream(t, &http.Client{}, d.DisplayAddr(), "public")
	venue := followVenue(t, broker.addr)
	press := func(k string) {
		d.inputs <- Input{Key: &hardware.KeyEvent{Keypad: "kp", Key: k}, From: Sender{Kind: wire.Keys, Audience: wire.Public}}
	}
	for range 5 {
		press("1")
	}
	venue.waitFor(t, "the total of 5", func() bool { n := len(venue.states); return n > 0 && venue.states[n-1].Seq == 6 })

	broker.stop()
	keys, every := 30, time.Duration(0)
	if fullDrills {
		keys, every = 6000, 100*time.Millisecond // 10 minutes at 10 a second
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keys {
		press("2")
		if every > 0 {
			time.Sleep(every)
		}
		if i%1000 == 999 {
			screen.until(t, fmt.Sprintf(`"seq":%d,`, 7+i))
		}
	}
	// The table took every key with the broker gone, and its screens follow.
	want := int64(6 + keys)
	screen.until(t, fmt.Sprintf(`"seq":%d,`, want))
	if d.Seq() != want {
		t.Errorf("during the outage the table reached seq %d, want %d", d.Seq(), want)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 32<<20 {
		t.Errorf("the heap grew by %d MiB over %d actions with the broker gone", grew>>20, keys)
	}

	broker.start()
	venue.waitFor(t, "the state after the outage", func() bool {
		n := len(venue.states)
		return n > 0 && venue.states[n-1].Seq == want
	})
	venue.waitFor(t, "every event of the outage", func() bool {
		for seq := int64(2); seq <= want; seq++ {
			if venue.ids[wire.EventID(seq, 0)] == 0 {
				return false
			}
		}
		return true
	})
	// QoS 1 is at least once: an event whose acknowledgement the broker
	// took down with it is sent again, with its id (a screen keeps one).
	// The events of the outage itself were never sent before: each once.
	venue.mu.Lock()
	defer venue.mu.Unlock()
	for seq := int64(7); seq <= want; seq++ {
		if n := venue.ids[wire.EventID(seq, 0)]; n != 1 {
			t.Errorf("event %s of the outage reached the venue's screen %d times", wire.EventID(seq, 0), n)
		}
	}
}

// Faults during play: the disk fills, a reader returns garbage. The table
// keeps running, says what happened, loses nothing it acknowledged and
// takes keys again once the fault is gone. (A camera that stalls and comes
// back is vision's TestSourceReopens… family.)
func TestDrillFaults(t *testing.T) {
	dir := t.TempDir()
	d, stop := tallyTable(t, dir)
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	topics := wire.TopicsFor("v", "t1")
	rec := record(t, d.BrokerAddr(), "sztab/#")
	rec.wait(t, topics.State, `"seq":1`)
	press := func(k string) {
		d.inputs <- Input{Key: &hardware.KeyEvent{Keypad: "kp", Key: k}, From: Sender{Kind: wire.Keys, Audience: wire.Public}}
	}
	press("2")
	rec.wait(t, topics.State, `"total":2`)

	// The disk is full: SQLite may grow the journal no more.
	db := d.table.journal.db
	var pages int
	if err := db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA max_page_count = %d", pages)); err != nil {
		t.Fatal(err)
	}
	for range 40 { // enough to fill the last free page
		press("3")
	}
	failed := rec.wait(t, topics.Events, "journal_failed")
	if !strings.Contains(failed, "not saved") {
		t.Errorf("journal_failed says %s", failed)
	}
	refused := rec.wait(t, topics.Events, `"code":"not_saved"`)
	if !strings.Contains(refused, `"ok":false`) {
		t.Errorf("the key's answer: %s", refused)
	}
	// Every one of the 40 keys is answered (taken or refused) before the
	// disk gets space again, so none of them lands after it.
	for end := time.Now().Add(30 * time.Second); strings.Count(rec.all(topics.Events), `"name":"3"`) < 40; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("only %d of the 40 keys were answered", strings.Count(rec.all(topics.Events), `"name":"3"`))
		}
	}
	seq := d.Seq()
	// Space again: the table goes on from where it was.
	if _, err := db.Exec("PRAGMA max_page_count = 1073741823"); err != nil {
		t.Fatal(err)
	}
	press("4")
	rec.wait(t, topics.State, fmt.Sprintf(`"seq":%d,`, seq+1))
	// A reader returning garbage is reported and changes nothing.
	d.inputs <- Input{Tag: &hardware.TagEvent{Reader: "front-1", Fault: &hardware.Fault{Kind: hardware.FaultGarbled}}}
	rec.wait(t, topics.Events, `"code":"garbled"`)
	press("1")
	rec.wait(t, topics.State, fmt.Sprintf(`"seq":%d,`, seq+3))

	// Every key the table acknowledged is in the state after a restart.
	want := d.Game().View(Public).(map[string]int)
	stop()
	stopped = true
	d2, stop2 := tallyTable(t, dir)
	defer stop2()
	if got := d2.Game().View(Public).(map[string]int); got["total"] != want["total"] || got["count"] != want["count"] {
		t.Errorf("after the faults and a restart: %v, want %v", got, want)
	}
}
