package fleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/fleet"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/wire"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
	"github.com/sztab/sztab/internal/brokertest"
)

// fullDrills is set by `make drills`: the drills at their full length.
var fullDrills = os.Getenv("SZTAB_DRILLS") == "full"

// acked is a command a referee's client sent and the table answered OK.
type acked struct {
	table, id, text string
	seq             int64
}

// referee is a referee's (and a player's) client across the venue: for
// every table, in turn, seat 1 calls the referee and the referee answers
// the call, each command with its id and text, sent again with the same
// id until the table answers it (the table carries a command out once and
// answers it again). It keeps what the tables acknowledged.
type referee struct {
	c       paho.Client
	venue   string
	mu      sync.Mutex
	answers map[string]wire.CommandResult // by command id
	acked   []acked
	resent  int
}

func newReferee(t *testing.T, brokers []string, venue string) *referee {
	t.Helper()
	r := &referee{venue: venue, answers: map[string]wire.CommandResult{}}
	o := paho.NewClientOptions().SetClientID(fmt.Sprintf("drill-referee-%d", time.Now().UnixNano())).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(200 * time.Millisecond).
		SetMaxReconnectInterval(time.Second).SetConnectTimeout(3 * time.Second)
	for _, b := range brokers {
		o.AddBroker(b)
	}
	filters := []string{"sztab/v1/" + venue + "/+/referee/events", "sztab/v1/" + venue + "/+/player/1/events"}
	o.SetOnConnectHandler(func(c paho.Client) {
		go func() {
			// A cluster electing a leader refuses a subscription (0x80)
			// for a while: subscribe until it is taken.
			for _, f := range filters {
				for {
					tok := c.Subscribe(f, 1, r.onAnswer)
					if tok.WaitTimeout(5*time.Second) && tok.Error() == nil && tok.(*paho.SubscribeToken).Result()[f] != 0x80 {
						break
					}
					if !c.IsConnectionOpen() {
						return
					}
					time.Sleep(200 * time.Millisecond)
				}
			}
		}()
	})
	r.c = paho.NewClient(o)
	if tok := r.c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("the referee's client: %v", tok.Error())
	}
	t.Cleanup(func() { r.c.Disconnect(50) })
	return r
}

func (r *referee) onAnswer(_ paho.Client, m paho.Message) {
	var ev struct {
		wire.CommandResult
		Event *wire.CommandResult `json:"event"`
	}
	if json.Unmarshal(m.Payload(), &ev) != nil {
		return
	}
	res := ev.CommandResult
	if ev.Event != nil {
		res = *ev.Event
	}
	if res.Type != wire.ResultType || res.ID == "" {
		return
	}
	r.mu.Lock()
	r.answers[res.ID] = res
	r.mu.Unlock()
}

// send sends one command until it is answered (or ctx ends); an OK answer
// is kept as acknowledged.
func (r *referee) send(ctx context.Context, table, topic string, cmd wire.Command) (ok bool) {
	data, _ := json.Marshal(cmd)
	for first := true; ctx.Err() == nil; first = false {
		if !first {
			r.mu.Lock()
			r.resent++
			r.mu.Unlock()
		}
		r.c.Publish(topic, 1, false, data)
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end) && ctx.Err() == nil; time.Sleep(20 * time.Millisecond) {
			r.mu.Lock()
			res, answered := r.answers[cmd.ID]
			if answered && res.OK {
				r.acked = append(r.acked, acked{table: table, id: cmd.ID, text: cmd.Text, seq: res.Seq})
			}
			r.mu.Unlock()
			if answered {
				return res.OK
			}
		}
	}
	return false
}

// play calls and answers at table until ctx ends.
func (r *referee) play(ctx context.Context, t *testing.T, table string) {
	topics := wire.TopicsFor(r.venue, table)
	for i := 1; ctx.Err() == nil; i++ {
		call := wire.Command{Name: companion.CmdCall, ID: fmt.Sprintf("%s-call-%d", table, i), Text: fmt.Sprintf("drill %s call %d", table, i)}
		if !r.send(ctx, table, topics.PlayerCommand(1), call) {
			if ctx.Err() == nil {
				t.Errorf("%s refused call %d", table, i)
			}
			return
		}
		answer := wire.Command{Name: companion.CmdAnswer, ID: fmt.Sprintf("%s-answer-%d", table, i), Text: fmt.Sprintf("drill %s answer %d", table, i)}
		if !r.send(ctx, table, topics.RefereeCommand, answer) {
			if ctx.Err() == nil {
				t.Errorf("%s refused answer %d", table, i)
			}
			return
		}
		// A referee's pace, not a load test's: a cluster starved of CPU
		// elects leaders again and stalls everyone's publications.
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// Failover drill: simulated tables of all five games on a three-node NATS
// cluster (MQTT streams with three replicas), every table and the venue
// hub given the three nodes, a referee calling and answering at every
// table throughout. The node everyone is connected to first, made the
// leader of everything JetStream holds for MQTT (see below), is killed
// mid-round and restarted. Within 5 s of the kill every
// table's retained state is current at the hub (its seq the table's);
// every command the referee's client got an OK for is in the table's
// journal, and the table's state is at or after it; the tables played on
// while the node was down. The time to current is logged.
//
// make test: 6 tables, scripts at 4× speed, the node down 6 s, on the kept
// nats-server with the live copies. make drills (SZTAB_DRILLS=full): 20
// tables at real speed, the node down 20 s, on both nats-servers
// (SZTAB_NATS=both: the Go module's and Debian's 2.9.10), each with and
// without the tables' live copies (SZTAB_DRILL_LIVE=both), in one run.
func TestDrillVenueFailover(t *testing.T) {
	lives := []bool{true}
	switch os.Getenv("SZTAB_DRILL_LIVE") {
	case "off":
		lives = []bool{false}
	case "both":
		lives = []bool{true, false}
	}
	for _, server := range brokertest.NATSServers() {
		for _, live := range lives {
			name := "server=" + server.Name + "/live=on"
			if !live {
				name = "server=" + server.Name + "/live=off"
			}
			t.Run(name, func(t *testing.T) { drillVenueFailover(t, server, !live) })
		}
	}
}

func drillVenueFailover(t *testing.T, server brokertest.NATSServer, noLive bool) {
	// The scripts' pauses are stretched (speed > 1) so that every table
	// still plays its script while the node is down (the shortest, the
	// skirmish's, takes 13.5 s at speed 1).
	tables, speed, before, down, after := 6, 1.5, 2*time.Second, 6*time.Second, 3*time.Second
	if fullDrills {
		tables, speed, before, down, after = 20, 3, 5*time.Second, 20*time.Second, 10*time.Second
	}
	const venue = "drill"
	cluster := brokertest.StartNATSCluster(t, brokertest.NATSOptions{Server: server})
	// The node killed is the one every table and the hub are connected
	// to (the first of their lists), and the one that leads everything
	// JetStream holds for MQTT: the metadata (an MQTT CONNECT's lookups),
	// the MQTT sessions' and the retained messages' streams (moved onto it).
	// With nats-server 2.9.10 that stops every MQTT CONNECT and retained
	// publication in the cluster for the election of new leaders, 4 to
	// 10 s (docs/venue-brokers.md); the tables' live copies over two nodes
	// and the hub's live connections carry the states meanwhile.
	// SZTAB_DRILL_KILL=follower kills a node that leads none of them, the
	// easy case.
	follower := os.Getenv("SZTAB_DRILL_KILL") == "follower"
	// noLive (SZTAB_DRILL_LIVE=off or both) turns the tables' live copies
	// off: the control, whose time to current is logged, not asserted (9 s
	// on nats-server 2.9.10 when the node killed leads everything, 11 s on
	// 2.15.3). On a server only compared with the venue's (Debian's
	// 2.9.10) the times are logged too: with 20 tables and no live copies
	// its wall fell behind before the kill. What is asserted on every
	// server is that nothing acknowledged is lost.
	compared := server.Name != brokertest.ModuleNATS.Name
	timesLogged := noLive || compared
	meta := cluster.MetaLeader()
	if meta == nil {
		t.Fatal("the JetStream metadata leader is not in the nodes' logs")
	}
	var killed *brokertest.NATSNode
	for _, n := range cluster.Nodes {
		if (n == meta) != follower {
			killed = n
			break
		}
	}
	for _, stream := range []string{"$MQTT_sess", "$MQTT_rmsgs"} {
		move := cluster.MoveStreamLeaderTo
		if follower {
			move = cluster.MoveStreamLeader
		}
		if err := move(stream, killed); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("JetStream leaders: metadata %s, sessions %s, retained messages %s; the node to kill: %s",
		meta.Name, cluster.StreamLeader("$MQTT_sess").Name, cluster.StreamLeader("$MQTT_rmsgs").Name, killed.Name)
	var rest []string
	for _, n := range cluster.Nodes {
		if n != killed {
			rest = append(rest, n.URL())
		}
	}
	brokers := strings.Join(append([]string{killed.URL()}, rest...), ",")

	hubLog, err := os.Create(filepath.Join(t.TempDir(), "hub.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer hubLog.Close()
	t.Cleanup(func() {
		if t.Failed() {
			data, _ := os.ReadFile(hubLog.Name())
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			t.Logf("the hub's warnings, last %d of %d:\n%s", min(60, len(lines)), len(lines), strings.Join(lines[max(0, len(lines)-60):], "\n"))
		}
	})
	// Finished tables' signed results go through the hub into a
	// tournament's standings, which the node's loss must not make wrong.
	results := newDrillResults(t, venue, 4)
	h, err := hub.New(hub.Options{Broker: brokers, Venue: venue, Listen: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(hubLog, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Results: results.take})
	if err != nil {
		t.Fatal(err)
	}
	hubCtx, stopHub := context.WithCancel(context.Background())
	hubDone := make(chan error, 1)
	go func() { hubDone <- h.Run(hubCtx) }()
	defer func() { stopHub(); <-hubDone }()

	dir := t.TempDir()
	// The tables' warnings, for a failure's message.
	logFile, err := os.Create(filepath.Join(dir, "tables.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		logFile.Close()
		if t.Failed() {
			data, _ := os.ReadFile(logFile.Name())
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			t.Logf("the tables' warnings, last %d of %d:\n%s", min(60, len(lines)), len(lines), strings.Join(lines[max(0, len(lines)-60):], "\n"))
		}
	})
	tableLog := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: slog.LevelWarn}))
	f, err := fleet.Open(context.Background(), fleet.Options{Tables: tables, Broker: brokers, Venue: venue, Dir: dir, Speed: speed,
		Games: games, Demo: firmwareconfig.Demo, Log: tableLog, NoLive: noLive})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Failed) > 0 {
		t.Fatalf("tables did not start: %v", f.Failed)
	}
	stopFleet := serving(t, f)
	ref := newReferee(t, cluster.URLs(), venue)
	refCtx, stopRef := context.WithCancel(context.Background())
	var refs sync.WaitGroup
	for _, tb := range f.Tables {
		refs.Add(1)
		go func() { defer refs.Done(); ref.play(refCtx, t, tb.ID) }()
	}
	defer func() { stopRef(); refs.Wait() }()

	wallSeq := func() map[string]int64 {
		out := map[string]int64{}
		for _, tb := range h.Wall().Tables {
			out[tb.Table] = tb.Seq
		}
		return out
	}
	wallUpdated := func() map[string]time.Time {
		out := map[string]time.Time{}
		for _, tb := range h.Wall().Tables {
			out[tb.Table] = tb.Updated
		}
		return out
	}
	// Every table is at the hub, current, before anything happens.
	waitCurrent := func(what string, within time.Duration) {
		t.Helper()
		var w map[string]int64
		for end := time.Now().Add(within); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			w = wallSeq()
			all := true
			for _, tb := range f.Tables {
				all = all && w[tb.ID] == tb.Daemon.Seq()
			}
			if all {
				return
			}
		}
		var lag []string
		for _, tb := range f.Tables {
			if w[tb.ID] != tb.Daemon.Seq() {
				lag = append(lag, fmt.Sprintf("%s hub %d table %d", tb.ID, w[tb.ID], tb.Daemon.Seq()))
			}
		}
		if compared {
			t.Logf("%s: not current at the hub within %v (%s nats-server, compared: logged): %s", what, within, server.Name, strings.Join(lag, "; "))
			return
		}
		t.Fatalf("%s: not current at the hub within %v: %s", what, within, strings.Join(lag, "; "))
	}
	// The wall shows every game's headline (the five games are dealt round
	// robin), in both languages.
	headlines := func(when string) {
		t.Helper()
		for _, w := range h.Wall().Tables {
			tb := f.Tables[slices.IndexFunc(f.Tables, func(x *fleet.Table) bool { return x.ID == w.Table })]
			if w.Game != tb.Game || w.Headline == nil || w.Headline.PL == "" || w.Headline.EN == "" {
				t.Errorf("%s: %s (%s) on the wall: game %q, headline %+v", when, w.Table, tb.Game, w.Game, w.Headline)
			}
		}
	}
	waitCurrent("before the kill", 30*time.Second)
	headlines("before the kill")
	// The referee is heard at every table before anything happens.
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ref.mu.Lock()
		heard := map[string]bool{}
		for _, a := range ref.acked {
			heard[a.table] = true
		}
		ref.mu.Unlock()
		if len(heard) == len(f.Tables) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("before the kill, the referee was heard at %d of %d tables in 30 s", len(heard), len(f.Tables))
		}
	}
	time.Sleep(before)
	waitCurrent("just before the kill", 10*time.Second)

	// The node every client is on goes: all fail over at once.
	atKill := map[string]int64{}
	for _, tb := range f.Tables {
		atKill[tb.ID] = tb.Daemon.Seq()
	}
	results.publish(t, rest)
	results.wait(t, "before the kill", 30*time.Second)
	killedAt := time.Now()
	killed.Kill()
	// Time to current, per table: the first moment after the kill at which
	// the hub has the table's seq from a message it got after the kill
	// (through a surviving node: the table's new state, or its state
	// published again on its reconnect, or the retained one the hub
	// subscribed to again).
	const limit = 5 * time.Second
	wait := limit + 5*time.Second
	if noLive {
		wait = 30 * time.Second // the control's time is measured, however long
	}
	current := map[string]time.Duration{}
	lastLog := time.Now()
	for time.Since(killedAt) < wait && len(current) < len(f.Tables) {
		w, u := wallSeq(), wallUpdated()
		for _, tb := range f.Tables {
			if _, done := current[tb.ID]; !done {
				if s := tb.Daemon.Seq(); w[tb.ID] == s && u[tb.ID].After(killedAt) {
					current[tb.ID] = time.Since(killedAt)
				}
			}
		}
		if time.Since(lastLog) > time.Second {
			lastLog = time.Now()
			var line []string
			for _, tb := range f.Tables {
				line = append(line, fmt.Sprintf("%s %d/%d", tb.ID, w[tb.ID], tb.Daemon.Seq()))
			}
			t.Logf("%v after the kill, hub/table seq: %s", time.Since(killedAt).Round(time.Millisecond), strings.Join(line, " "))
		}
		time.Sleep(20 * time.Millisecond)
	}
	var took []time.Duration
	for _, tb := range f.Tables {
		d, ok := current[tb.ID]
		if !ok && timesLogged {
			t.Logf("%s: not current at the hub %v after the kill (times logged: live copies %v, nats-server %s)", tb.ID, wait, !noLive, server.Name)
			continue
		}
		if !ok {
			t.Errorf("%s: not current at the hub %v after the kill (hub %d, table %d, at the kill %d)", tb.ID, wait, wallSeq()[tb.ID], tb.Daemon.Seq(), atKill[tb.ID])
			continue
		}
		if d > limit && timesLogged {
			t.Logf("%s: current at the hub %v after the kill (times logged: live copies %v, nats-server %s)", tb.ID, d.Round(time.Millisecond), !noLive, server.Name)
		} else if d > limit {
			t.Errorf("%s: current at the hub %v after the kill, want within %v", tb.ID, d.Round(time.Millisecond), limit)
		}
		took = append(took, d)
	}
	if len(took) > 0 {
		slices.Sort(took)
		t.Logf("time to current after the kill of %s (the leader of everything: %v), %d tables: p50 %v, max %v", killed.Name, !follower, len(took), took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
	}
	headlines("after the kill") // from the live copies
	// The node stays down a while: the tables play on.
	time.Sleep(down - time.Since(killedAt))
	for _, tb := range f.Tables {
		if s := tb.Daemon.Seq(); s <= atKill[tb.ID] {
			t.Errorf("%s did not play while the node was down: seq %d at the kill, %d after %v", tb.ID, atKill[tb.ID], s, down)
		}
	}
	killed.Start()
	time.Sleep(after)
	// Once the node is back the tables' states reach the hub again. (Two
	// runs in about twenty failed here, an idle table's state staying
	// behind at the hub for over 30 s, before the hub ignored a retained
	// state older than its own: the hub, reconnecting to the node back,
	// took the state that node had before it went down.)
	back := time.Now()
	waitCurrent("after the node came back", 60*time.Second)
	t.Logf("current at the hub %v after the node's restart (and %v of play)", time.Since(back).Round(time.Millisecond), after)
	// The results delivered again after the loss (the hub subscribed anew)
	// are each counted once: the standings are as before.
	if why := results.check(); why != "" {
		t.Errorf("standings after the node's loss and return: %s", why)
	}

	// The referee stops; every table's last state reaches the hub.
	stopRef()
	refs.Wait()
	waitCurrent("after the referee stopped", 60*time.Second)
	final := map[string]int64{}
	for _, tb := range f.Tables {
		final[tb.ID] = tb.Daemon.Seq()
	}
	if err := stopFleet(); err != nil {
		t.Fatalf("the fleet: %v", err)
	}
	ref.mu.Lock()
	ackd, resent := slices.Clone(ref.acked), ref.resent
	ref.mu.Unlock()
	perTable := map[string]int{}
	for _, a := range ackd {
		perTable[a.table]++
	}
	// Enough commands for the check below to mean something: a table's main
	// connection waits for the cluster's election after the kill, so in the
	// bounded drill on a loaded machine a table hears the referee only a few
	// times (3 in one run of ten in a row, with another package's tests
	// running).
	least := 2
	if fullDrills {
		least = 4
	}
	for _, tb := range f.Tables {
		if perTable[tb.ID] < least {
			t.Errorf("%s: only %d commands acknowledged over the drill, want %d", tb.ID, perTable[tb.ID], least)
		}
	}
	// No acknowledged command lost: each is in its table's journal at the
	// entry its answer named, and the table's last state is at or after it.
	entries := map[string]map[int64]string{}
	for _, tb := range f.Tables {
		j, err := companion.ReadJournal(tb.Journal)
		if err != nil {
			t.Fatalf("%s: %v", tb.ID, err)
		}
		entries[tb.ID] = map[int64]string{}
		err = j.Entries(context.Background(), 0, func(e companion.Entry) error {
			entries[tb.ID][e.Seq] = string(e.Body) + string(e.Events)
			return nil
		})
		j.Close()
		if err != nil {
			t.Fatalf("%s: %v", tb.ID, err)
		}
	}
	lost := 0
	for _, a := range ackd {
		if e, ok := entries[a.table][a.seq]; !ok || !strings.Contains(e, a.text) {
			lost++
			if lost <= 5 {
				t.Errorf("%s: %s acknowledged at entry %d, not in the journal there (%.200s)", a.table, a.id, a.seq, e)
			}
		}
		if a.seq > final[a.table] {
			t.Errorf("%s: %s acknowledged at entry %d, after the table's last state %d", a.table, a.id, a.seq, final[a.table])
		}
	}
	hubWarnings, _ := os.ReadFile(hubLog.Name())
	t.Logf("%d tables, %d commands acknowledged (%d sent again after no answer), %d lost; node %s down %v; the hub ignored %d stale retained states",
		len(f.Tables), len(ackd), resent, lost, killed.Name, down, strings.Count(string(hubWarnings), "older than the wall's"))
}
