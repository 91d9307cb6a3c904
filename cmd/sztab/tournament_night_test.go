package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/watch"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/brokertest"
	"github.com/sztab/sztab/internal/wait"
)

// walkThrough is a fenced block of the docs marked as the walk-through
// (```sh walkthrough): its commands, comments dropped and continued lines
// joined.
func walkThrough(t *testing.T, doc []byte) []string {
	t.Helper()
	var lines []string
	in, found := false, false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```sh walkthrough":
			in, found = true, true
		case in && strings.TrimSpace(line) == "```":
			in = false
		case in:
			lines = append(lines, line)
		}
	}
	if !found || in {
		t.Fatal("the docs have no closed ```sh walkthrough block")
	}
	var cmds []string
	cur := ""
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if cur == "" && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if more, ok := strings.CutSuffix(line, `\`); ok {
			cur += more
			continue
		}
		cmds = append(cmds, strings.Join(strings.Fields(cur+line), " "))
		cur = ""
	}
	if cur != "" {
		t.Fatalf("the walk-through ends in a continued line: %q", cur)
	}
	return cmds
}

var placeholder = regexp.MustCompile(`\$[A-Z_]+`)

// walk is the walk-through's commands running: the background ones (a
// line ending in &) by their line, each with its own stop, so that one
// (a table) can be stopped and started again as a person would.
type walk struct {
	t          *testing.T
	background []*bgCommand
}

type bgCommand struct {
	line   string
	args   []string
	cancel context.CancelFunc
	done   chan error
}

func (c *bgCommand) start() {
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel, c.done = cancel, make(chan error, 1)
	root := newRoot()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetArgs(c.args)
	go func() { c.done <- root.ExecuteContext(ctx) }()
}

// stopCmd ends the command (its context cancelled, as SIGTERM does) and
// waits for it.
func (w *walk) stopCmd(c *bgCommand) {
	if c.cancel == nil {
		return
	}
	c.cancel()
	if err := <-c.done; err != nil {
		w.t.Errorf("%s: %v", c.line, err)
	}
	c.cancel = nil
}

// stop ends every background command.
func (w *walk) stop() {
	for _, c := range w.background {
		w.stopCmd(c)
	}
}

// restart stops the background command whose line starts with prefix and
// starts it again, the same line.
func (w *walk) restart(prefix string) {
	w.t.Helper()
	for _, c := range w.background {
		if strings.HasPrefix(c.line, prefix) {
			w.stopCmd(c)
			c.start()
			return
		}
	}
	w.t.Fatalf("the walk-through has no background %q", prefix)
}

// sedSubstitute is `sed -i s<d>from<d>to<d>[g] file`: the one sed the
// walk-through uses, a person's edit of a copied file.
func sedSubstitute(t *testing.T, line string, args []string) {
	t.Helper()
	if len(args) != 4 || args[1] != "-i" || len(args[2]) < 4 || args[2][0] != 's' {
		t.Fatalf("the walk-through's %q: want sed -i s/FROM/TO/[g] FILE", line)
	}
	parts := strings.Split(args[2][2:], args[2][1:2])
	if len(parts) != 3 || parts[0] == "" || (parts[2] != "" && parts[2] != "g") {
		t.Fatalf("the walk-through's %q: want sed -i s/FROM/TO/[g] FILE", line)
	}
	b, err := os.ReadFile(args[3])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), parts[0]) {
		t.Fatalf("the walk-through's %q: %s has no %q", line, args[3], parts[0])
	}
	n := 1
	if parts[2] == "g" {
		n = -1
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		lines = append(lines, strings.Replace(l, parts[0], parts[1], n))
	}
	if err := os.WriteFile(args[3], []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runWalkThrough runs the commands in the current directory: `sztab …`
// through the binary's own command tree (in the background when the line
// ends in &), `cp`, `sed -i s/…/…/` and `export`; anything else, or a
// placeholder not in vars, fails the test.
func runWalkThrough(t *testing.T, cmds []string, vars map[string]string) *walk {
	t.Helper()
	w := &walk{t: t}
	for _, line := range cmds {
		expanded := placeholder.ReplaceAllStringFunc(line, func(v string) string {
			val, ok := vars[v[1:]]
			if !ok {
				t.Fatalf("the walk-through's %q: no value for %s", line, v)
			}
			return val
		})
		args := strings.Fields(expanded)
		bg := args[len(args)-1] == "&"
		if bg {
			args = args[:len(args)-1]
		}
		switch args[0] {
		case "export":
			k, v, ok := strings.Cut(args[1], "=")
			if len(args) != 2 || !ok {
				t.Fatalf("the walk-through's %q: want export NAME=VALUE", line)
			}
			t.Setenv(k, v)
		case "cp":
			b, err := os.ReadFile(args[1])
			if err != nil || len(args) != 3 {
				t.Fatalf("the walk-through's %q: %v", line, err)
			}
			if err := os.WriteFile(args[2], b, 0o644); err != nil {
				t.Fatal(err)
			}
		case "sed":
			sedSubstitute(t, line, args)
		case "sztab":
			if !bg {
				root := newRoot()
				root.SetOut(io.Discard)
				root.SetErr(io.Discard)
				root.SetArgs(args[1:])
				if err := root.Execute(); err != nil {
					t.Fatalf("the walk-through's %q: %v", line, err)
				}
				continue
			}
			c := &bgCommand{line: line, args: args[1:]}
			c.start()
			w.background = append(w.background, c)
		default:
			t.Fatalf("the walk-through's %q: the test runs sztab, cp, sed and export only", line)
		}
	}
	return w
}

// nightBroker is what the referee's login (it reads sztab/#) hears of the
// night: each table's pairing, status, public state, result and the
// answers to the referee's commands.
type nightBroker struct {
	mu       sync.Mutex
	pairings map[string]wire.PairingMessage
	status   map[string]wire.StatusMessage
	states   map[string]wire.StateMessage
	results  map[string][]byte
	answers  map[string]wire.CommandResult
}

func (b *nightBroker) pairing(table string) wire.PairingMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pairings[table]
}

func (b *nightBroker) state(table string) wire.StateMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.states[table]
}

func (b *nightBroker) statusOf(table string) wire.StatusMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status[table]
}

func (b *nightBroker) result(table string) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.results[table]
}

func (b *nightBroker) answer(id string) (wire.CommandResult, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.answers[id]
	return a, ok
}

// subscribe listens as the referee's login.
func (b *nightBroker) subscribe(t *testing.T, c paho.Client, venue string) {
	t.Helper()
	b.pairings, b.status, b.states, b.results, b.answers = map[string]wire.PairingMessage{}, map[string]wire.StatusMessage{}, map[string]wire.StateMessage{}, map[string][]byte{}, map[string]wire.CommandResult{}
	table := func(topic string) string { return strings.Split(topic, "/")[3] }
	on := func(suffix string, f func(table string, payload []byte)) {
		tok := c.Subscribe("sztab/v1/"+venue+"/+/"+suffix, 1, func(_ paho.Client, m paho.Message) {
			b.mu.Lock()
			defer b.mu.Unlock()
			f(table(m.Topic()), m.Payload())
		})
		if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("subscribe %s: %v", suffix, tok.Error())
		}
	}
	on("pairing", func(tb string, p []byte) {
		var m wire.PairingMessage
		if json.Unmarshal(p, &m) == nil {
			b.pairings[tb] = m
		}
	})
	on("status", func(tb string, p []byte) {
		var m wire.StatusMessage
		if json.Unmarshal(p, &m) == nil {
			b.status[tb] = m
		}
	})
	on("state", func(tb string, p []byte) {
		var m wire.StateMessage
		if json.Unmarshal(p, &m) == nil {
			b.states[tb] = m
		}
	})
	on("result", func(tb string, p []byte) { b.results[tb] = append([]byte(nil), p...) })
	on("referee/events", func(_ string, p []byte) {
		var ev struct{ Event wire.CommandResult }
		if json.Unmarshal(p, &ev) == nil && ev.Event.Type == wire.ResultType {
			b.answers[ev.Event.ID] = ev.Event
		}
	})
}

// The docs' tournament night (docs/venue.md, "The tournament night, step
// by step"), command by command as the doc has them, on Mosquitto with the
// shipped mosquitto.conf.example and acl.example verbatim, two real table
// daemons of two games (each its shipped config's) from
// the shipped venue table configs, edited as the doc says: round 1 is
// paired and each table hears it; the referee starts each table's game
// with new_game from the pairing (other players refused), plays, stops t01
// mid-game and starts it again (the same state and seq), and ends both
// games; the signed results count at the venue; the wall, the standings
// and `sztab watch` name each table's winner alike; the organiser corrects
// t02; round 2 is paired and both tables start it. Nothing in the logs
// says a login was pushed off or anything reconnected.
func TestTournamentNightWalkThrough(t *testing.T) {
	broker := brokertest.StartShippedMosquitto(t, nightVenue, brokertest.Login{User: "venue", Password: "v1"},
		brokertest.Login{User: "sedzia", Password: "haslo-sedzia"}, brokertest.Login{User: "t01", Password: "haslo-t01"},
		brokertest.Login{User: "t02", Password: "haslo-t02"})
	log := tournamentNight(t, broker.URL(), broker.URL())
	for _, bad := range []string{"reconnecting", "lost the"} {
		if strings.Contains(log, bad) {
			t.Errorf("the commands' log says %q:\n%s", bad, log)
		}
	}
	full := broker.FullLog()
	if n := strings.Count(full, "already connected"); n > 0 {
		t.Errorf("Mosquitto closed a connection for another of the same login %d times:\n%s", n, broker.Log())
	}
	if n := strings.Count(full, " u'venue'"); n != 1 {
		t.Errorf("the venue connected %d times, want once:\n%s", n, broker.Log())
	}
	// A table connects at its start and again at each game it opens
	// (new_game: two rounds) and at its restart: t01 four times, t02
	// three; never pushed off by another connection of its login.
	for tb, want := range map[string]int{"t01": 4, "t02": 3} {
		if n := strings.Count(full, " u'"+tb+"'"); n != want {
			t.Errorf("table %s connected %d times, want %d:\n%s", tb, n, want, broker.Log())
		}
	}
}

// The same night on the venue's three-node NATS cluster, from the shipped
// nats-1.conf, nats-2.conf and nats-3.conf verbatim (the nats-server
// go.mod pins): the venue and the tables given all three nodes. A
// reconnect is allowed here (the cluster's own, see below), nothing else.
func TestTournamentNightWalkThroughNATS(t *testing.T) {
	cluster := brokertest.StartShippedNATSCluster(t, brokertest.ModuleNATS)
	// The cluster answers MQTT before its streams of retained messages
	// have a leader: the night starts once a retained message sent to
	// one node is read from another.
	wait.Until(t, "a retained message through the cluster", func() bool {
		return retainedRoundTrip(cluster.Nodes[0].URL(), cluster.Nodes[2].URL())
	})
	log := tournamentNight(t, cluster.BrokerList(), cluster.Nodes[0].URL())
	// nats-server 2.15 sometimes drops a new MQTT connection while two
	// connect at once ("unable to persist session …: wrong last
	// sequence"): the table reconnects within a second, the night goes on.
	// Said here, not failed.
	if n := strings.Count(log, "lost the MQTT broker"); n > 0 {
		t.Logf("the tables or the venue reconnected %d times on the cluster", n)
	}
}

// retainedRoundTrip publishes a retained message at one broker and says
// whether a new subscriber at another gets it within two seconds.
func retainedRoundTrip(from, to string) bool {
	topic := fmt.Sprintf("sztab/v1/probe/%d/status", time.Now().UnixNano())
	pub := paho.NewClient(paho.NewClientOptions().AddBroker(from).SetClientID("probe-pub"))
	if tok := pub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		return false
	}
	defer pub.Disconnect(50)
	if tok := pub.Publish(topic, 1, true, []byte("x")); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		return false
	}
	defer pub.Publish(topic, 1, true, nil).WaitTimeout(5 * time.Second)
	sub := paho.NewClient(paho.NewClientOptions().AddBroker(to).SetClientID("probe-sub"))
	if tok := sub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		return false
	}
	defer sub.Disconnect(50)
	got := make(chan struct{}, 1)
	if tok := sub.Subscribe(topic, 1, func(paho.Client, paho.Message) {
		select {
		case got <- struct{}{}:
		default:
		}
	}); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		return false
	}
	select {
	case <-got:
		return true
	case <-time.After(2 * time.Second):
		return false
	}
}

// nightVenue is the walk-through's venue id (its --venue and the shipped
// table configs').
const nightVenue = "hala-kolejowa"

// tournamentNight runs the walk-through on the broker at brokers (the
// venue's and the tables' --broker / mqtt.broker), the referee's login
// following it at refBroker.
// It returns the commands' log.
func tournamentNight(t *testing.T, brokers, refBroker string) string {
	t.Helper()
	repo := brokertest.Root(t)
	doc, err := os.ReadFile(filepath.Join(repo, "docs/venue.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := walkThrough(t, doc)
	const venueID = nightVenue
	dir := t.TempDir()
	t.Chdir(dir)
	// The commands' log (each sets slog's default on os.Stderr) and the
	// tables' event lines (os.Stdout).
	logFile, err := os.Create(filepath.Join(dir, "sztab.log"))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, logger := os.Stdout, os.Stderr, slog.Default()
	os.Stderr, os.Stdout = logFile, logFile
	defer func() { os.Stderr, os.Stdout = stderr, stdout; slog.SetDefault(logger); logFile.Close() }()
	listen := fmt.Sprintf("127.0.0.1:%d", brokertest.FreePorts(t, 1)[0])
	// The referee's login (it reads sztab/#), listening before the night
	// starts, sees what the venue tells the
	// tables and what the tables say: Mosquitto drops a write its ACL
	// denies without a word to the writer, so only a reader shows a login
	// may write it.
	var b nightBroker
	ref := paho.NewClient(paho.NewClientOptions().AddBroker(refBroker).SetClientID("sedzia").SetUsername("sedzia").SetPassword("haslo-sedzia"))
	if tok := ref.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("the referee's login: %v", tok.Error())
	}
	defer ref.Disconnect(50)
	b.subscribe(t, ref, venueID)
	night := runWalkThrough(t, cmds, map[string]string{
		"SZTAB": repo, "BROKER": brokers, "VENUE_PASSWORD": "v1", "ORGANISER_PASSWORD": "orga-haslo", "LISTEN": listen,
	})
	defer night.stop()
	defer func() {
		if t.Failed() {
			log, _ := os.ReadFile(logFile.Name())
			t.Logf("the commands' log:\n%s", log)
		}
	}()
	for _, key := range []string{"keys/t01.key", "keys/t01.key.pub", "keys/t02.key", "keys/t02.key.pub"} {
		if _, err := os.Stat(key); err != nil {
			t.Errorf("after the walk-through's keygen: %v", err)
		}
	}

	// Each table's game is the one its copied config names.
	tables := map[string]string{}
	for _, tb := range []string{"t01", "t02"} {
		cfg, err := companion.LoadConfig(tb + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		tables[tb] = cfg.Game
	}
	if tables["t01"] == tables["t02"] {
		t.Fatalf("both tables play %s: the night has two games", tables["t01"])
	}
	for tb, game := range tables {
		wait.Until(t, tb+" online with its game", func() bool { s := b.statusOf(tb); return s.Status == "online" && s.Game == game })
	}
	n := 0
	send := func(table, name string, args []string, text string) wire.CommandResult {
		t.Helper()
		n++
		id := fmt.Sprintf("r%d", n)
		msg, _ := json.Marshal(wire.Command{Name: name, ID: id, Args: args, Text: text})
		if tok := ref.Publish(wire.TopicsFor(venueID, table).RefereeCommand, 1, false, msg); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("the referee's %s at %s: %v", name, table, tok.Error())
		}
		var a wire.CommandResult
		wait.Until(t, fmt.Sprintf("%s's answer to %s", table, name), func() bool { var ok bool; a, ok = b.answer(id); return ok })
		return a
	}
	must := func(table, name string, args []string, text string) wire.CommandResult {
		t.Helper()
		a := send(table, name, args, text)
		if !a.OK {
			t.Fatalf("%s at %s: %+v", name, table, a)
		}
		return a
	}

	// The organiser signs in and pairs round 1.
	base := "http://" + listen
	jar, _ := cookiejar.New(nil)
	web := &http.Client{Jar: jar, Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := func(path string, values url.Values) {
		t.Helper()
		resp, err := web.PostForm(base+path, values)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || strings.Contains(resp.Header.Get("Location"), "error") {
			t.Fatalf("POST %s: %s to %q\n%s", path, resp.Status, resp.Header.Get("Location"), body)
		}
	}
	wait.Until(t, "the venue's pages", func() bool {
		resp, err := web.Get(base + "/")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	form("/login", url.Values{"user": {"organizator"}, "password": {"orga-haslo"}, "next": {"/organiser"}})
	startRound := func(round int, reason string) {
		t.Helper()
		wait.Until(t, fmt.Sprintf("round %d's pairings at both tables", round), func() bool {
			return b.pairing("t01").Round == round && b.pairing("t02").Round == round && len(b.pairing("t01").Players) == 2 && len(b.pairing("t02").Players) == 2
		})
		for tb := range tables {
			p := b.pairing(tb)
			// Other players, or the pairing's in the wrong seats: refused.
			if a := send(tb, companion.CmdNewGame, []string{p.Players[1], p.Players[0]}, reason); a.OK || a.Code != "players_not_paired" {
				t.Fatalf("new_game at %s with the seats swapped: %+v, want players_not_paired", tb, a)
			}
			must(tb, companion.CmdNewGame, nil, reason)
			// The next game's state: seq 1 (its first entry), the
			// pairing's players named.
			wait.Until(t, tb+"'s game of round "+fmt.Sprint(round), func() bool {
				s := b.state(tb)
				raw, _ := json.Marshal(s.State)
				return s.Seq <= 1 && !s.Finished && strings.Contains(string(raw), p.Players[0]) && strings.Contains(string(raw), p.Players[1])
			})
		}
	}
	form("/organiser/pair", url.Values{})
	// The tables' first games (started before any pairing) are left with
	// a reason.
	startRound(1, "runda 1 / round 1")

	// t01 plays a few turns; it is stopped mid-game and started again:
	// the same seq and state.
	must("t01", "next", nil, "")
	played := must("t01", "next", nil, "")
	// The answer comes on the referee's topic, the state on its own: the
	// state of the answer's seq.
	wait.Until(t, "t01's state after its second turn", func() bool { return b.state("t01").Seq == played.Seq })
	mid := b.state("t01")
	if mid.Seq < 2 || mid.Finished {
		t.Fatalf("t01 mid-game: seq %d, finished %v", mid.Seq, mid.Finished)
	}
	night.restart("sztab run --config t01.yaml")
	wait.Until(t, "t01 back online", func() bool { s := b.statusOf("t01"); return s.Status == "online" && s.Instance != mid.Instance })
	wait.Until(t, "t01's state after the restart", func() bool { return b.state("t01").Instance != mid.Instance })
	after := b.state("t01")
	was, _ := json.Marshal(mid.State)
	is, _ := json.Marshal(after.State)
	if after.Seq != mid.Seq || string(was) != string(is) || *after.Headline != *mid.Headline {
		t.Fatalf("t01 after the restart: seq %d, %q; before: seq %d, %q; the states differ from byte %d", after.Seq, after.Headline.EN, mid.Seq, mid.Headline.EN, firstDiff(was, is))
	}
	must("t01", "next", nil, "")

	// The games end (here the referee's end_game): each table's signed
	// result reaches the venue and counts.
	must("t01", "end_game", nil, "")
	must("t02", "end_game", []string{b.pairing("t02").Players[0]}, "czas rundy minął / the round's time is up")
	for tb := range tables {
		wait.Until(t, tb+"'s result counted", func() bool { return b.pairing(tb).Result == wire.PairingSigned })
	}
	// The wall, the standings and the watch name each table's winner
	// alike: the table's result headline.
	standings := standingsCSV(t, web, base)
	for tb := range tables {
		st := b.state(tb)
		if !st.Finished || st.Headline == nil {
			t.Fatalf("%s's state after its result: finished %v", tb, st.Finished)
		}
		head := *st.Headline
		t.Logf("%s (%s): %s · %s", tb, tables[tb], head.PL, head.EN)
		// The wall puts a change up within its coalescing window.
		wait.Until(t, fmt.Sprintf("the venue wall's %s finished with %q", tb, head.EN), func() bool {
			wt, ok := venueWall(t, base)[tb]
			return ok && wt.Finished && wt.Headline != nil && *wt.Headline == head
		})
		screen := watch.NewScreen("en")
		raw, _ := json.Marshal(st)
		screen.Apply("state", raw)
		if out := screen.Render(); !strings.Contains(out, head.EN) {
			t.Errorf("sztab watch of %s does not show %q:\n%s", tb, head.EN, out)
		}
		// The standings: the winner named by the headline has the win's
		// 3 points, the other none; a draw gives each 1.
		p := b.pairing(tb)
		for i, id := range p.PlayerIDs {
			name := p.Players[i]
			want := "0"
			switch {
			case strings.Contains(head.EN, name+" wins"):
				want = "3"
			case strings.Contains(head.EN, "draw"):
				want = "1"
			}
			if got := standings[id]; got != want {
				t.Errorf("standings.csv: %s (%s) has %q points; %s's result %q gives %s", id, name, got, tb, head.EN, want)
			}
		}
	}
	// Players know: a game on sample data (a table on its game's shipped
	// assumed cards) signs so in its statement (v5), and the wall and the
	// standings say so beside its result; the other game (whose data is
	// its rulebook's) is not marked.
	onSample := 0
	for tb := range tables {
		var m wire.ResultMessage
		if err := json.Unmarshal(b.result(tb), &m); err != nil {
			t.Fatalf("%s's result: %v", tb, err)
		}
		st, err := record.ParseStatement([]byte(m.Statement))
		if err != nil {
			t.Fatalf("%s's statement: %v", tb, err)
		}
		if st.SampleData != (b.state(tb).SampleData != nil) {
			t.Errorf("%s: its statement says sample_data %v, its screens' state %v", tb, st.SampleData, b.state(tb).SampleData)
		}
		if !st.SampleData {
			continue
		}
		onSample++
		wait.Until(t, "the wall marks "+tb+"'s game and its players as on sample data", func() bool {
			w := venueWallAll(t, base)
			marked := 0
			for _, s := range w.Board.Standings {
				for _, name := range b.pairing(tb).Players {
					if s.Name == name && s.SampleData != nil && *s.SampleData == wire.SampleDataText {
						marked++
					}
				}
			}
			for _, wt := range w.Tables {
				if wt.Table == tb && (wt.SampleData == nil || *wt.SampleData != wire.SampleDataText) {
					return false
				}
			}
			return marked == 2
		})
		if page := organiserPage(t, web, base); !strings.Contains(page, `data-testid="sample-data-1-`+tb+`">dane przykładowe / sample data<`) {
			t.Errorf("the organiser's page does not mark %s's result as on sample data", tb)
		}
	}
	if onSample != 1 {
		t.Errorf("%d tables signed their game as on sample data, want 1 (t01's %s plays on the shipped assumed cards)", onSample, tables["t01"])
	}
	w := venueWallAll(t, base)
	for _, s := range w.Board.Standings {
		if s.SampleData != nil && !slices.Contains(b.pairing("t01").Players, s.Name) && !slices.Contains(b.pairing("t02").Players, s.Name) {
			t.Errorf("the wall marks %s, who played no game on sample data", s.Name)
		}
	}
	if page := organiserPage(t, web, base); strings.Count(page, "dane przykładowe / sample data") != onSample+2 {
		t.Errorf("the organiser's page marks %d results and standings lines, want %d:\n%s", strings.Count(page, "dane przykładowe / sample data"), onSample+2, page)
	}

	if h := *b.state("t02").Headline; !strings.Contains(h.EN, b.pairing("t02").Players[0]+" wins") {
		t.Errorf("t02's result %q does not name the referee's winner %s", h.EN, b.pairing("t02").Players[0])
	}

	// The organiser corrects t02 (its players agreed on a draw): the
	// table hears it, the standings count it.
	form("/organiser/correct", url.Values{"round": {"1"}, "table": {"t02"}, "outcome1": {"draw"}, "score1": {"0"},
		"outcome2": {"draw"}, "score2": {"0"}, "reason": {"karta wyniku: remis uzgodniony przez graczy"}})
	wait.Until(t, "t02's corrected result at the table", func() bool { return b.pairing("t02").Result == wire.PairingCorrected })
	standings = standingsCSV(t, web, base)
	for _, id := range b.pairing("t02").PlayerIDs {
		if standings[id] != "1" {
			t.Errorf("standings.csv after t02's correction to a draw: %s has %q points, want 1", id, standings[id])
		}
	}

	// Round 2: paired, both tables start it (their games are over: no
	// reason needed).
	form("/organiser/pair", url.Values{})
	startRound(2, "")

	// A connection pushed off comes back within a second (paho's retry):
	// three seconds show a loop many times over.
	time.Sleep(3 * time.Second)
	night.stop()
	log, _ := os.ReadFile(logFile.Name())
	if !strings.Contains(string(log), "venue: result counted") {
		t.Errorf("the venue logged no counted result (is the log captured?)")
	}
	return string(log)
}

// venueWall is the venue wall's tables by table, as its page gets them.
func venueWall(t *testing.T, base string) map[string]hub.Table {
	t.Helper()
	out := map[string]hub.Table{}
	for _, tb := range venueWallAll(t, base).Tables {
		out[tb.Table] = tb
	}
	return out
}

// venueWallAll is the venue wall as its page gets it (the first message of
// /stream that has the tables).
func venueWallAll(t *testing.T, base string) hub.Wall {
	t.Helper()
	resp, err := http.Get(base + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var w hub.Wall
		if err := json.Unmarshal([]byte(data), &w); err != nil || w.Tables == nil {
			continue
		}
		if w.Board == nil {
			w.Board = &hub.Board{}
		}
		return w
	}
	t.Fatalf("the wall's stream ended without the tables: %v", sc.Err())
	return hub.Wall{}
}

// organiserPage is the organiser's page, signed in.
func organiserPage(t *testing.T, web *http.Client, base string) string {
	t.Helper()
	resp, err := web.Get(base + "/organiser")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the organiser's page: %s, %v", resp.Status, err)
	}
	return string(b)
}

// standingsCSV is each player's points in standings.csv.
func standingsCSV(t *testing.T, web *http.Client, base string) map[string]string {
	t.Helper()
	resp, err := web.Get(base + "/organiser/csv/standings.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(resp.Body).ReadAll()
	resp.Body.Close()
	if err != nil || len(rows) < 2 || strings.Join(rows[0][:6], ",") != "rank,tied,player,name,club,points" {
		t.Fatalf("standings.csv: %v\n%v", err, rows)
	}
	out := map[string]string{}
	for _, r := range rows[1:] {
		out[r[2]] = r[5]
	}
	return out
}

// firstDiff is the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
