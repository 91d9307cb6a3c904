package venueload

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
)

const venue = "turniej"

// load is one run: tables publishing through a broker to the hub.
type load struct {
	tables int
	// rate is each table's state updates a second.
	rate int
	// warm is how long the tables run before the measured window, dur the
	// window.
	warm, dur time.Duration
	// wallEvery is the hub's WallEvery.
	wallEvery time.Duration
	// spectators are live streams of the wall that look for one table's
	// update (the cheap reading of 2,000 pages); tv is one stream that
	// reads the whole wall, as the hall's TV does.
	spectators int
	tv         bool
	// compared marks a broker run only to be compared with the venue's
	// (Debian's nats-server 2.9.10): a wall left wrong at the end is
	// counted (wallWrong) and logged, not an error.
	compared bool
}

// result is what a run measured.
type result struct {
	sentPerSec               float64
	unacked                  int
	lost, bareLost           int
	venue, bare, wall, spect []time.Duration
	brokerCPU, venueCPU      float64 // % of one core
	heapPerStream            float64 // bytes
	stackPerStream           float64
	goroutinesPerStream      float64
	droppedStreams           int64
	// wallWrong counts the tables the TV's wall showed at another seq
	// than their last when the run ended (an error unless compared).
	wallWrong int
}

// sentTimes are the tables' send times by table and seq (unix ns).
type sentTimes [][]atomic.Int64

func (s sentTimes) at(table int, seq int64) int64 {
	if table < 0 || table >= len(s) || seq < 0 || seq >= int64(len(s[table])) {
		return 0
	}
	return s[table][seq].Load()
}

func tableID(i int) string { return fmt.Sprintf("t%03d", i) }

func tableIndex(id string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "t"))
	if err != nil {
		return -1
	}
	return n
}

// connect connects a paho client or fails the run.
func connect(tb testing.TB, o *paho.ClientOptions) paho.Client {
	tb.Helper()
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		tb.Fatalf("venueload: connect %s to %v: %v", o.ClientID, o.Servers, tok.Error())
	}
	return c
}

// simTable is a lightweight table: its retained status (online, with the
// last will offline) and its retained public state at QoS 1, rate times a
// second, each with its seq and its send time. A table does not wait for
// the broker's acknowledgement before its next state; acked records the
// acknowledged seqs, last the highest.
func simTable(ctx context.Context, tb testing.TB, url string, i int, l load, sent sentTimes, acked [][]atomic.Bool, last *atomic.Int64, unacked *atomic.Int64, wg *sync.WaitGroup) {
	id := tableID(i)
	topics := wire.TopicsFor(venue, id)
	offline, _ := json.Marshal(wire.StatusMessage{Status: "offline", Game: "skirmish", Venue: venue, Table: id})
	online, _ := json.Marshal(wire.StatusMessage{Status: "online", Game: "skirmish", Version: "venueload", Venue: venue, Table: id,
		Screen: "http://" + id + ".local:8080/"})
	c := connect(tb, paho.NewClientOptions().AddBroker(url).SetClientID("venueload-"+id).SetCleanSession(true).
		SetWill(topics.Status, string(offline), 1, true).SetAutoReconnect(true).SetConnectRetry(true))
	if tok := c.Publish(topics.Status, 1, true, online); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		tb.Errorf("venueload: %s status: %v", id, tok.Error())
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		var acks sync.WaitGroup
		defer func() {
			acks.Wait()
			c.Disconnect(100)
		}()
		period := time.Second / time.Duration(l.rate)
		// Spread the tables over the period, as real ones are.
		select {
		case <-time.After(period * time.Duration(i) / time.Duration(l.tables)):
		case <-ctx.Done():
			return
		}
		tick := time.NewTicker(period)
		defer tick.Stop()
		for seq := int64(1); seq < int64(len(sent[i])); seq++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			now := time.Now()
			sent[i][seq].Store(now.UnixNano())
			m := wire.StateMessage{Seq: seq, Venue: venue, Table: id, Game: "skirmish",
				Headline: &rules.Text{PL: fmt.Sprintf("Runda %d, ruch", 1+seq/600), EN: fmt.Sprintf("Round %d, movement", 1+seq/600)},
				State:    map[string]int64{"sent": now.UnixNano()}}
			payload, _ := json.Marshal(m)
			tok := c.Publish(topics.State, 1, true, payload)
			acks.Add(1)
			go func() {
				defer acks.Done()
				if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
					unacked.Add(1)
					return
				}
				acked[i][seq].Store(true)
				for {
					if l := last.Load(); l >= seq || last.CompareAndSwap(l, seq) {
						return
					}
				}
			}()
		}
	}()
}

// streamWall follows the wall's live stream as a page does. Each state
// (the whole wall) is handed to onWall with the time it arrived. It
// returns when ctx ends or the stream does (dropped is then counted).
func streamWall(ctx context.Context, client *http.Client, addr string, connected func(), onWall func(time.Time, []byte)) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/stream", nil)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("venueload: GET /stream: %s", resp.Status)
	}
	connected()
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	state := false
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A wall bigger than the buffer: read the rest of the line.
			rest, err2 := r.ReadBytes('\n')
			line, err = append(append([]byte(nil), line...), rest...), err2
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("venueload: stream ended: %w", err)
		}
		switch {
		case bytes.HasPrefix(line, []byte("event: ")):
			state = bytes.Equal(bytes.TrimSpace(line[7:]), []byte("state"))
		case state && bytes.HasPrefix(line, []byte("data: ")):
			onWall(time.Now(), line[6:])
			state = false
		}
	}
}

// probeSeq finds the seq of table id on a wall without reading the rest
// of it: `{"table":"<id>",…,"seq":N`.
func probeSeq(wall []byte, id string) int64 {
	i := bytes.Index(wall, []byte(`{"table":"`+id+`"`))
	if i < 0 {
		return 0
	}
	rest := wall[i:]
	end := bytes.IndexByte(rest, '}')
	j := bytes.Index(rest, []byte(`"seq":`))
	if j < 0 || (end >= 0 && j > end) {
		return 0
	}
	rest = rest[j+6:]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	v, _ := strconv.ParseInt(string(rest[:n]), 10, 64)
	return v
}

// cpuTicks is a process's user and system time in clock ticks (100 a
// second on Linux), from /proc/<pid>/stat.
func cpuTicks(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	n, _ := statTicks(string(data))
	return n
}

// statTicks reads utime and stime, fields 14 and 15 of a /proc/<pid>/stat
// line; the command (field 2) is in parentheses and may hold spaces and
// parentheses itself.
func statTicks(line string) (int64, bool) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 || i+2 > len(line) {
		return 0, false
	}
	f := strings.Fields(line[i+2:])
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	return u + st, err1 == nil && err2 == nil
}

func sumTicks(pids []int) int64 {
	var n int64
	for _, p := range pids {
		n += cpuTicks(p)
	}
	return n
}

// run runs l against broker b: the hub on its first node, the tables
// spread over its nodes, a bare paho subscriber to the venue's states on
// the hub's node; the hub and the bare subscriber each in its own process.
func (l load) run(tb testing.TB, b broker) result {
	tb.Helper()
	perTable := int(l.rate)*int((l.warm+l.dur+30*time.Second)/time.Second) + 2
	sent := make(sentTimes, l.tables)
	for i := range sent {
		sent[i] = make([]atomic.Int64, perTable)
	}
	h := startHub(tb, b.urls[0], l.wallEvery)
	// The hub follows the venue before the first table says a word.
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get("http://" + h.addr + "/readyz")
		if err == nil {
			var body bytes.Buffer
			body.ReadFrom(resp.Body)
			resp.Body.Close()
			if strings.Contains(body.String(), `"broker":true`) {
				break
			}
		}
		if time.Now().After(end) {
			tb.Fatal("venueload: the hub did not connect to the broker in 60 s")
		}
	}
	bare := startBare(tb, b.urls[0])
	time.Sleep(500 * time.Millisecond) // the subscriptions settle (NATS: its JetStream consumers)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var res result

	// The wall's streams: the spectators' and the TV's.
	var streams sync.WaitGroup
	var connected sync.WaitGroup
	var smu sync.Mutex
	var dropped atomic.Int64
	var windowStart, windowEnd atomic.Int64
	inWindow := func(sentNS int64) bool {
		s, e := windowStart.Load(), windowEnd.Load()
		return s != 0 && sentNS >= s && (e == 0 || sentNS < e)
	}
	var heap0, stack0, g0 int64
	if l.spectators > 0 {
		heap0, stack0, g0 = h.mem()
	}
	// As many spectators an address as the wall lets one address stream
	// (display.DefaultStreamsPerAddr): spectators each have their own.
	perSource := display.DefaultStreamsPerAddr
	sources := (l.spectators + perSource - 1) / perSource
	clients := make([]*http.Client, max(sources, 1))
	for i := range clients {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, byte(1+i/250), byte(2+i%250))}}
		clients[i] = &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: -1, DisableCompression: true}}
	}
	for s := range l.spectators {
		streams.Add(1)
		connected.Add(1)
		go func() {
			defer streams.Done()
			var mine []time.Duration
			var lastSeq int64
			once := sync.OnceFunc(connected.Done)
			defer once()
			err := streamWall(ctx, clients[s/perSource], h.addr, once, func(at time.Time, wall []byte) {
				seq := probeSeq(wall, tableID(0))
				// Every state of the table since the last wall is on
				// the page now, itself or a newer one.
				for k := lastSeq + 1; k <= seq; k++ {
					if ns := sent.at(0, k); ns != 0 && inWindow(ns) {
						mine = append(mine, time.Duration(at.UnixNano()-ns))
					}
				}
				lastSeq = max(lastSeq, seq)
			})
			if err != nil {
				dropped.Add(1)
			}
			smu.Lock()
			res.spect = append(res.spect, mine...)
			smu.Unlock()
		}()
	}
	tvSeqs := make([]atomic.Int64, l.tables)
	if l.tv {
		streams.Add(1)
		connected.Add(1)
		go func() {
			defer streams.Done()
			once := sync.OnceFunc(connected.Done)
			defer once()
			var mine []time.Duration
			err := streamWall(ctx, &http.Client{}, h.addr, once, func(at time.Time, data []byte) {
				var w struct {
					Tables []struct {
						Table string `json:"table"`
						Seq   int64  `json:"seq"`
					} `json:"tables"`
				}
				if json.Unmarshal(data, &w) != nil {
					return
				}
				for _, t := range w.Tables {
					i := tableIndex(t.Table)
					if i < 0 || i >= l.tables || t.Seq <= tvSeqs[i].Load() {
						continue
					}
					for k := tvSeqs[i].Load() + 1; k <= t.Seq; k++ {
						if ns := sent.at(i, k); ns != 0 && inWindow(ns) {
							mine = append(mine, time.Duration(at.UnixNano()-ns))
						}
					}
					tvSeqs[i].Store(t.Seq)
				}
			})
			if err != nil {
				dropped.Add(1)
			}
			smu.Lock()
			res.wall = append(res.wall, mine...)
			smu.Unlock()
		}()
	}
	connected.Wait()

	// The tables.
	tctx, stopTables := context.WithCancel(ctx)
	defer stopTables()
	var tables sync.WaitGroup
	last := make([]atomic.Int64, l.tables)
	acked := make([][]atomic.Bool, l.tables)
	for i := range acked {
		acked[i] = make([]atomic.Bool, perTable)
	}
	var unacked atomic.Int64
	for i := range l.tables {
		simTable(tctx, tb, b.urls[i%len(b.urls)], i, l, sent, acked, &last[i], &unacked, &tables)
	}
	time.Sleep(l.warm)
	if l.spectators > 0 {
		heap, stack, g := h.mem()
		res.heapPerStream = float64(heap-heap0) / float64(l.spectators)
		res.stackPerStream = float64(stack-stack0) / float64(l.spectators)
		res.goroutinesPerStream = float64(g-g0) / float64(l.spectators)
	}
	count := func() (n int64) {
		for i := range acked {
			for j := range acked[i] {
				if acked[i][j].Load() {
					n++
				}
			}
		}
		return n
	}
	sent0 := count()
	broker0, venue0 := sumTicks(b.pids), cpuTicks(h.cmd.Process.Pid)
	start := time.Now()
	windowStart.Store(start.UnixNano())
	time.Sleep(l.dur)
	windowEnd.Store(time.Now().UnixNano())
	took := time.Since(start).Seconds()
	broker1, venue1 := sumTicks(b.pids), cpuTicks(h.cmd.Process.Pid)
	res.brokerCPU = float64(broker1-broker0) / took // ticks of 10 ms a second = % of a core
	res.venueCPU = float64(venue1-venue0) / took
	stopTables()
	tables.Wait()
	sent1 := count()
	res.sentPerSec = float64(sent1-sent0) / took
	res.unacked = int(unacked.Load())

	// Every table's last acknowledged state reaches the bare subscriber
	// (and, QoS 1, the hub, which says so when it stops).
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if l.lostBy(bare.seqs(), acked) == 0 {
			break
		}
	}
	// and the hub.
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if l.lostBy(h.seqs(), acked) == 0 {
			break
		}
	}
	if l.tv {
		// and the TV's wall has every table at its last state.
		for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			behind := 0
			for i := range l.tables {
				if tvSeqs[i].Load() != last[i].Load() {
					behind++
				}
			}
			if behind == 0 {
				break
			}
		}
		for i := range l.tables {
			if got, want := tvSeqs[i].Load(), last[i].Load(); got != want {
				res.wallWrong++
				if l.compared {
					tb.Logf("venueload: the wall shows %s at seq %d, its last state is %d", tableID(i), got, want)
				} else {
					tb.Errorf("venueload: the wall shows %s at seq %d, its last state is %d", tableID(i), got, want)
				}
			}
		}
	}
	cancel()
	streams.Wait()
	res.droppedStreams = dropped.Load()
	hubRec := h.stop()
	bareRec := bare.stop()
	res.lost, res.bareLost = l.lostBy(hubRec, acked), l.lostBy(bareRec, acked)
	window := func(s []sample) []time.Duration {
		var out []time.Duration
		for _, x := range s {
			if inWindow(x.Sent) {
				out = append(out, time.Duration(x.Took))
			}
		}
		return out
	}
	res.venue, res.bare = window(hubRec.Samples), window(bareRec.Samples)
	return res
}

// lostBy counts the acknowledged states a subscriber never got.
func (l load) lostBy(r recordSnapshot, acked [][]atomic.Bool) int {
	lost := 0
	for i := range l.tables {
		got := map[int64]bool{}
		for _, q := range r.Seqs[tableID(i)] {
			got[q] = true
		}
		for q := range acked[i] {
			if acked[i][q].Load() && !got[int64(q)] {
				lost++
			}
		}
	}
	return lost
}

// pct is the p-th percentile in milliseconds.
func pct(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[int(p*float64(len(s)-1))].Microseconds()) / 1000
}
