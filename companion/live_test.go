package companion_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/brokertest"
)

// liveListener records what a broker carries on the table's .../live.
type liveListener struct {
	mu   sync.Mutex
	msgs []wire.StateMessage
	raw  map[int64][]byte
}

func listenLive(t *testing.T, url string) *liveListener {
	t.Helper()
	l := &liveListener{raw: map[int64][]byte{}}
	c := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("live-%d", time.Now().UnixNano())))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect %s: %v", url, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	tok := c.Subscribe(topicBase+"live", 1, func(_ paho.Client, m paho.Message) {
		var s wire.StateMessage
		if err := json.Unmarshal(m.Payload(), &s); err != nil {
			t.Errorf("live payload: %v", err)
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if m.Retained() {
			t.Errorf("a live state came retained")
		}
		l.msgs = append(l.msgs, s)
		l.raw[s.Seq] = append([]byte(nil), m.Payload()...)
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	return l
}

func (l *liveListener) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.msgs)
}

// A table given several brokers (a venue's cluster) sends its public
// state's headline also on .../live, not retained, over a connection to each
// of the first two nodes: the seq, game, headline and run of the retained
// state of the same seq, without the state; the third node gets none of
// its own, and with mqtt.live: false there are none.
func TestLiveCopiesOverTwoNodes(t *testing.T) {
	nodes := []*brokertest.Mosquitto{
		brokertest.StartMosquitto(t, "allow_anonymous true"),
		brokertest.StartMosquitto(t, "allow_anonymous true"),
		brokertest.StartMosquitto(t, "allow_anonymous true"),
	}
	list := nodes[0].URL() + "," + nodes[1].URL() + "," + nodes[2].URL()
	var lives []*liveListener
	for _, n := range nodes {
		lives = append(lives, listenLive(t, n.URL()))
	}
	d := open(t, demoConfig(t, t.TempDir(), "mqtt:\n  broker: "+list+"\n", true))
	first := subscribe(t, nodes[0].Addr)
	r := serve(d)
	first.waitFor(t, "a state with two wounded grenadiers", func() bool { return twoGrenadiersWounded(first) })
	r.stop(t)
	first.mu.Lock()
	last := first.state[len(first.state)-1]
	retained := first.raw[len(first.raw)-1]
	var run string
	for _, s := range first.status {
		if s.Status == "online" {
			run = s.Instance
		}
	}
	first.mu.Unlock()
	if run == "" {
		t.Fatal("no online status with the daemon's instance")
	}
	for i, l := range lives[:2] {
		l.mu.Lock()
		got, ok := l.raw[last.Seq]
		n := len(l.msgs)
		var runs []string
		for _, m := range l.msgs {
			if m.Instance != run {
				runs = append(runs, m.Instance)
			}
		}
		l.mu.Unlock()
		if !ok {
			t.Errorf("node %d: %d live states, none of the last seq %d", i+1, n, last.Seq)
		} else {
			var live, full map[string]any
			json.Unmarshal(got, &live)
			json.Unmarshal(retained, &full)
			for _, k := range []string{"seq", "venue", "table", "game", "headline", "instance"} {
				if fmt.Sprint(live[k]) != fmt.Sprint(full[k]) || live[k] == nil {
					t.Errorf("node %d: the live state's %s is %v, the retained state's %v", i+1, k, live[k], full[k])
				}
			}
			if _, ok := live["state"]; ok || len(got) > 600 {
				t.Errorf("node %d: the live copy carries the state (%d bytes, the retained %d): %.200s", i+1, len(got), len(retained), got)
			}
		}
		if len(runs) > 0 {
			t.Errorf("node %d: live states name runs %v, want the daemon's %q", i+1, runs, run)
		}
	}
	if n := lives[2].count(); n != 0 {
		t.Errorf("the third node carried %d live states; the table connects to two", n)
	}

	// mqtt.live: false: no copies.
	quiet := []*liveListener{listenLive(t, nodes[0].URL()), listenLive(t, nodes[1].URL())}
	d = open(t, demoConfig(t, t.TempDir(), "mqtt:\n  broker: "+list+"\n  live: false\n", true))
	sub := subscribe(t, nodes[0].Addr)
	r = serve(d)
	sub.waitFor(t, "a state with two wounded grenadiers", func() bool { return twoGrenadiersWounded(sub) })
	time.Sleep(1500 * time.Millisecond) // more than a live connection's resend
	r.stop(t)
	for i, l := range quiet {
		if n := l.count(); n != 0 {
			t.Errorf("mqtt.live false: node %d carried %d live states", i+1, n)
		}
	}
}
