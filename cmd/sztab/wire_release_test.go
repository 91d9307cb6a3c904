package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/hub"
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/tournament"
	"github.com/sztab/sztab/companion/venue"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/brokertest"
	"github.com/sztab/sztab/internal/logbuf"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/internal/wait"
)

// A release's wire transcripts (testdata/releases/VERSION/wire/) are what
// its tables published on a real broker (table.jsonl: status, state, the
// hidden views, catalogue, fairness, result with its signed statement …)
// over a finished game of each of the five games, and what its venue
// published that a table reads (venue.jsonl: the pairings). Every later
// version's hub and venue must read the first, and its table the second
// (TestWireTranscriptsStillRead). They are recorded once per release, from
// that release's code, with
//
//	go test ./cmd/sztab -run TestWriteWireTranscripts -update-wire
var updateWire = flag.Bool("update-wire", false, "record testdata/releases/VERSION/wire for this version (companion.Version), once per release")

// The files of a release's wire/ directory.
const (
	wireTableFile   = "table.jsonl"
	wireVenueFile   = "venue.jsonl"
	wireTournament  = "tournament.yaml"
	wirePairingsCSV = "pairings.csv"
	wireVenue       = "klub"
)

// wireSeed seeds the tournament's ids (its own and its pairings'): the
// venue that replays a release's transcript issues the same pairings as
// the venue that recorded it, so that the recorded results, signed for
// those pairings, count.
var wireSeed = [32]byte{'s', 'z', 't', 'a', 'b', ' ', 'w', 'i', 'r', 'e'}

// wireLine is one line of a transcript: one MQTT message (its topic,
// retained flag and payload: JSON as it is, another payload in base64, an
// empty one left out), or the file's header.
type wireLine struct {
	Header   string          `json:"header,omitempty"`
	Topic    string          `json:"topic,omitempty"`
	Retained bool            `json:"retained"`
	Payload  json.RawMessage `json:"payload,omitempty"`
	Base64   string          `json:"payload_base64,omitempty"`
}

func (l wireLine) bytes() []byte {
	if l.Base64 != "" {
		b, _ := base64.StdEncoding.DecodeString(l.Base64)
		return b
	}
	return []byte(l.Payload)
}

// readTranscript reads a transcript's messages, its header left out.
func readTranscript(t *testing.T, path string) []wireLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []wireLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for n := 1; sc.Scan(); n++ {
		var l wireLine
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		if l.Header != "" {
			continue
		}
		if l.Topic == "" {
			t.Fatalf("%s:%d: a message without a topic", path, n)
		}
		if l.Base64 != "" {
			if _, err := base64.StdEncoding.DecodeString(l.Base64); err != nil {
				t.Fatalf("%s:%d: payload_base64: %v", path, n, err)
			}
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no messages", path)
	}
	return out
}

func writeTranscript(t *testing.T, path, header string, msgs []wireLine) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		Header string `json:"header"`
	}{header})
	for _, m := range msgs {
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, path, b.Bytes())
}

// wireTable is the table of the transcripts that plays a golden game.
func wireTable(i int) string { return fmt.Sprintf("stol-%d", i+1) }

// wireTournamentFile is the tournament of the transcripts: each golden
// game at a table of its own, two players at each.
func wireTournamentFile() string {
	var b strings.Builder
	b.WriteString("# The tournament of the wire transcripts (TestWriteWireTranscripts): one table\n# a game, each with the public key it signed its result with.\n")
	b.WriteString("name: Transkrypcja protokołu\nvenue: " + wireVenue + "\ngame: " + goldenGames()[0].game + "\nseats: 2\nrounds: 1\npoints: {mode: wdl, win: 3, draw: 1, loss: 0}\nplayers:\n")
	for i := range goldenGames() {
		fmt.Fprintf(&b, "  - {id: p%02d, name: Gracz %d}\n  - {id: p%02d, name: Gracz %d}\n", 2*i+1, 2*i+1, 2*i+2, 2*i+2)
	}
	b.WriteString("tables:\n")
	for i, g := range goldenGames() {
		fmt.Fprintf(&b, "  - {id: %s, key: %s.key.pub, game: %s}\n", wireTable(i), wireTable(i), g.game)
	}
	return b.String()
}

func wirePairings() string {
	var b strings.Builder
	b.WriteString("round,table,seat,player\n")
	for i := range goldenGames() {
		fmt.Fprintf(&b, "1,%s,1,p%02d\n1,%s,2,p%02d\n", wireTable(i), 2*i+1, wireTable(i), 2*i+2)
	}
	return b.String()
}

// wireVenueRun is a venue of this version on broker, for the tournament
// in dir (its config, pairings and tables' keys), its ids from wireSeed.
type wireVenueRun struct {
	tour *tournament.Tournament
	v    *venue.Venue
	logs *logbuf.Buffer
}

func startWireVenue(t *testing.T, dir, broker string) *wireVenueRun {
	t.Helper()
	ctx := context.Background()
	cfg, err := tournament.LoadConfig(filepath.Join(dir, wireTournament), games)
	if err != nil {
		t.Fatalf("the transcripts' tournament: %v", err)
	}
	tour, err := tournament.OpenRand(ctx, filepath.Join(t.TempDir(), "venue.db"), cfg, mrand.NewChaCha8(wireSeed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tour.Close() })
	if _, err := tour.ImportPairings(ctx, 1, bytes.NewReader(readFile(t, filepath.Join(dir, wirePairingsCSV)))); err != nil {
		t.Fatalf("the transcripts' pairings: %v", err)
	}
	logs := &logbuf.Buffer{}
	v, err := venue.New(venue.Options{Tournament: tournamentAdapter{tour}, Organiser: display.Credential{User: "org", Password: "tajne-haslo"},
		Hub: hub.Options{Venue: wireVenue, Broker: broker, Listen: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(logs, nil))}})
	if err != nil {
		t.Fatal(err)
	}
	vctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- v.Run(vctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return &wireVenueRun{tour: tour, v: v, logs: logs}
}

// wireClient connects a client to broker.
func wireClient(t *testing.T, broker, id string) paho.Client {
	t.Helper()
	c := paho.NewClient(paho.NewClientOptions().AddBroker(broker).SetClientID(id))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect %s: %v", id, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c
}

func wirePublish(t *testing.T, c paho.Client, m wireLine) {
	t.Helper()
	if tok := c.Publish(m.Topic, 1, m.Retained, m.bytes()); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("publish %s: %v", m.Topic, tok.Error())
	}
}

// wireDaemon runs this version's table daemon of golden game i on broker:
// its journal the finished golden game (bound to pairing p, as the table
// takes it) or, with p nil, a fresh one.
func wireDaemon(t *testing.T, i int, broker, resultKey string, golden bool, p *wire.PairingMessage, log io.Writer) (cfg *companion.Config, stop func()) {
	t.Helper()
	g := goldenGames()[i]
	dir := t.TempDir()
	cfg = tabletest.DemoConfig(t, dir, g.file, false)
	cfg.Venue, cfg.Table = wireVenue, wireTable(i)
	cfg.MQTT.Broker, cfg.MQTT.Listen = companion.BrokerURLs(broker), ""
	cfg.ResultKey = resultKey
	journal := cfg.Resolve(cfg.Journal)
	id := companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}
	if golden {
		writeGoldenJournal(t, journal, id, g.golden, g.parse, g.codec)
	}
	if p != nil {
		j, err := companion.OpenJournal(journal, id, quiet)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := j.SetPairing(context.Background(), p.Round, companion.Binding{Tournament: p.Tournament, Pairing: p.Pairing, Players: p.PlayerIDs}); err != nil {
			t.Fatal(err)
		}
		j.Close()
	}
	d, err := companion.Open(context.Background(), cfg, companion.Options{Games: games, Log: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		t.Fatalf("%s: %v", g.game, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("%s: %v", g.game, err)
			}
			d.Close()
		})
	}
	t.Cleanup(stop)
	return cfg, stop
}

// recorder keeps every message a broker delivers under sztab/, in order.
type recorder struct {
	mu   sync.Mutex
	msgs []wireLine
}

func (r *recorder) put(_ paho.Client, m paho.Message) {
	l := wireLine{Topic: m.Topic(), Retained: m.Retained()}
	p := m.Payload()
	switch {
	case len(p) == 0:
	case json.Valid(p):
		var b bytes.Buffer
		json.Compact(&b, p)
		l.Payload = b.Bytes()
	default:
		l.Base64 = base64.StdEncoding.EncodeToString(p)
	}
	r.mu.Lock()
	r.msgs = append(r.msgs, l)
	r.mu.Unlock()
}

func (r *recorder) has(cond func(wireLine) bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.msgs, cond)
}

// TestWriteWireTranscripts records this version's wire transcripts with
// -update-wire, on Mosquitto: this version's venue pairs round 1 of a
// tournament with a table for each of the five games; each table's daemon
// serves its finished golden game, bound to the pairing the venue
// published (as a table that heard it before play keeps it), and signs
// its result; the venue counts every result and publishes the pairings
// again, signed. Everything the broker carries until then is recorded:
// the tables' messages in table.jsonl, the venue's in venue.jsonl.
func TestWriteWireTranscripts(t *testing.T) {
	if !*updateWire {
		return
	}
	out := filepath.Join(releasesDir, companion.Version, "wire")
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("%s exists: a release's transcripts are never rewritten", out)
	}
	tmp, tables, venues := recordWire(t)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	head := "sztab " + companion.Version + ", wire contract " + wire.Version + ", result statement v" + fmt.Sprint(rec.StatementVersion) +
		": recorded on Mosquitto by TestWriteWireTranscripts (-update-wire) from the code of release " + companion.Version + ", which is that release's contract. "
	writeTranscript(t, filepath.Join(out, wireTableFile), head+"What its tables publish over a finished game of each of the five games (one table a game, stol-1 to stol-5 in the order of goldenGames): every later hub and venue must read it (TestWireTranscriptsStillRead).", tables)
	writeTranscript(t, filepath.Join(out, wireVenueFile), head+"What its venue publishes that a table reads: round 1's pairing of each table, then the same pairing with its result signed. Every later table must take it (TestWireTranscriptsStillRead).", venues)
	copyFile(t, filepath.Join(tmp, wireTournament), filepath.Join(out, wireTournament))
	copyFile(t, filepath.Join(tmp, wirePairingsCSV), filepath.Join(out, wirePairingsCSV))
	for i := range goldenGames() {
		copyFile(t, filepath.Join(tmp, wireTable(i)+".key.pub"), filepath.Join(out, wireTable(i)+".key.pub"))
	}
}

// recordWire runs this version's venue and tables on Mosquitto (see
// TestWriteWireTranscripts) and returns what they published: the tables'
// messages and the venue's, and the directory of the tournament, its
// pairings and the tables' keys.
func recordWire(t *testing.T) (dir string, tables, venues []wireLine) {
	t.Helper()
	tmp := t.TempDir()
	mustWrite(t, filepath.Join(tmp, wireTournament), []byte(wireTournamentFile()))
	mustWrite(t, filepath.Join(tmp, wirePairingsCSV), []byte(wirePairings()))
	keys := map[int]string{}
	for i := range goldenGames() {
		priv, pub, err := rec.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = filepath.Join(tmp, wireTable(i)+".key")
		mustWrite(t, keys[i], priv)
		mustWrite(t, keys[i]+".pub", pub)
	}
	broker := brokertest.StartMosquitto(t, "allow_anonymous true")
	var r recorder
	c := wireClient(t, broker.URL(), "recorder")
	if tok := c.Subscribe("sztab/#", 1, r.put); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	vr := startWireVenue(t, tmp, broker.URL())
	pairingOf := func(i int) *wire.PairingMessage {
		var p *wire.PairingMessage
		r.has(func(l wireLine) bool {
			if l.Topic == wire.TopicsFor(wireVenue, wireTable(i)).Pairing {
				m, ok, err := wire.ParsePairing(l.bytes(), wireVenue, wireTable(i))
				if err == nil && ok {
					p = &m
					return true
				}
			}
			return false
		})
		return p
	}
	var stops []func()
	for i := range goldenGames() {
		wait.Until(t, wireTable(i)+"'s pairing", func() bool { return pairingOf(i) != nil })
		_, stop := wireDaemon(t, i, broker.URL(), keys[i], true, pairingOf(i), io.Discard)
		stops = append(stops, stop)
	}
	for i := range goldenGames() {
		topics := wire.TopicsFor(wireVenue, wireTable(i))
		wait.Until(t, wireTable(i)+"'s result counted and its pairing published signed", func() bool {
			return r.has(func(l wireLine) bool {
				return l.Topic == topics.Pairing && bytes.Contains(l.Payload, []byte(`"result":"signed"`))
			})
		})
	}
	// A command the tables cannot read, from the referee: each table
	// answers it (referee/events) and says on its public events what was
	// wrong. (The command itself is not the contract's recorded traffic.)
	for i := range goldenGames() {
		topics := wire.TopicsFor(wireVenue, wireTable(i))
		if tok := c.Publish(topics.RefereeCommand, 1, false, `{"name":"no-such-command","id":"wire-1"}`); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
		wait.Until(t, wireTable(i)+"'s answer to the referee", func() bool {
			return r.has(func(l wireLine) bool { return l.Topic == topics.RefereeEvents })
		})
		wait.Until(t, wireTable(i)+"'s public event", func() bool {
			return r.has(func(l wireLine) bool { return l.Topic == topics.Events })
		})
	}
	c.Unsubscribe("sztab/#").WaitTimeout(10 * time.Second)
	retained := retainedTopics(t, broker.URL())
	if refused := vr.tour.View().Refusals; len(refused) > 0 {
		t.Fatalf("the venue refused results: %+v", refused)
	}
	for _, stop := range stops {
		stop()
	}
	r.mu.Lock()
	msgs := r.msgs
	r.mu.Unlock()
	for _, m := range msgs {
		if strings.HasSuffix(m.Topic, "/command") {
			continue
		}
		// A subscriber hears every message as not retained; the broker
		// keeps the last of each retained topic for a new one.
		m.Retained = retained[m.Topic]
		if tp, ok := wire.ParseTopic(m.Topic); ok && tp.Suffix == "pairing" {
			venues = append(venues, m)
		} else {
			tables = append(tables, m)
		}
	}
	// Each table's messages together, in the order the broker sent them.
	byTable := func(ms []wireLine) {
		slices.SortStableFunc(ms, func(a, b wireLine) int {
			ta, _ := wire.ParseTopic(a.Topic)
			tb, _ := wire.ParseTopic(b.Topic)
			return strings.Compare(ta.Table, tb.Table)
		})
	}
	byTable(tables)
	byTable(venues)
	return tmp, tables, venues
}

// retainedTopics are the topics broker keeps a retained message of: what a
// new subscriber to sztab/# gets before the probe it publishes after.
func retainedTopics(t *testing.T, broker string) map[string]bool {
	t.Helper()
	c := wireClient(t, broker, "retained")
	var mu sync.Mutex
	got := map[string]bool{}
	probe := false
	if tok := c.Subscribe("probe/retained", 1, func(_ paho.Client, m paho.Message) {
		mu.Lock()
		probe = true
		mu.Unlock()
	}); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	if tok := c.Subscribe("sztab/#", 1, func(_ paho.Client, m paho.Message) {
		mu.Lock()
		if m.Retained() {
			got[m.Topic()] = true
		}
		mu.Unlock()
	}); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	// The broker sends a connection's messages in order: the retained
	// ones the subscription brought come before the probe.
	if tok := c.Publish("probe/retained", 1, false, "done"); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	wait.Until(t, "the probe after the retained messages", func() bool { mu.Lock(); defer mu.Unlock(); return probe })
	mu.Lock()
	defer mu.Unlock()
	return got
}

// wireReleases are the releases that kept wire transcripts.
func wireReleases(t *testing.T) []string {
	t.Helper()
	releases, err := os.ReadDir(releasesDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range releases {
		if _, err := os.Stat(filepath.Join(releasesDir, r.Name(), "wire", wireTableFile)); err == nil {
			out = append(out, r.Name())
		}
	}
	if len(out) == 0 {
		t.Fatal("no release under testdata/releases keeps wire transcripts")
	}
	return out
}

// TestWireTranscriptsStillRead plays every earlier release's transcripts
// to this version on Mosquitto, both ways: the release's tables' messages
// into this version's hub and venue, which show every table on the wall
// (online, its game, finished, its result as the headline) and count every
// signed result into the standings; and the release's venue's pairings to
// this version's table daemons, each of which takes its pairing as its
// game's.
func TestWireTranscriptsStillRead(t *testing.T) {
	for _, release := range wireReleases(t) {
		dir := filepath.Join(releasesDir, release, "wire")
		t.Run(release+"/tables-to-hub-and-venue", func(t *testing.T) { wireTablesToVenue(t, dir) })
		t.Run(release+"/venue-to-tables", func(t *testing.T) { wireVenueToTables(t, dir) })
	}
}

// wireExpected is what a table's transcript says of it last.
type wireExpected struct {
	status wire.StatusMessage
	state  wire.StateMessage
	result rec.Statement
}

func wireTablesToVenue(t *testing.T, dir string) {
	msgs := readTranscript(t, filepath.Join(dir, wireTableFile))
	want := map[string]*wireExpected{}
	for _, m := range msgs {
		tp, ok := wire.ParseTopic(m.Topic)
		if !ok {
			t.Fatalf("the transcript's topic %q is not a table's", m.Topic)
		}
		e := want[tp.Table]
		if e == nil {
			e = &wireExpected{}
			want[tp.Table] = e
		}
		var err error
		switch tp.Suffix {
		case "status":
			err = json.Unmarshal(m.bytes(), &e.status)
		case "state":
			err = json.Unmarshal(m.bytes(), &e.state)
		case "result":
			var rm wire.ResultMessage
			if err = json.Unmarshal(m.bytes(), &rm); err == nil {
				e.result, err = rec.ParseStatement([]byte(rm.Statement))
			}
		}
		if err != nil {
			t.Fatalf("the transcript's %s: %v", m.Topic, err)
		}
	}
	if len(want) != len(goldenGames()) {
		t.Fatalf("the transcript has %d tables, want one for each of the %d games", len(want), len(goldenGames()))
	}
	broker := brokertest.StartMosquitto(t, "allow_anonymous true")
	vr := startWireVenue(t, dir, broker.URL())
	issued := map[string]string{}
	for _, r := range vr.tour.View().Paired {
		for _, p := range r.Results {
			issued[p.Table] = p.Pairing
		}
	}
	for table, e := range want {
		if e.result.Pairing != issued[table] {
			t.Fatalf("the venue issued %s pairing %q; the transcript's result names %q (the tournament's ids from wireSeed are no longer drawn as they were)", table, issued[table], e.result.Pairing)
		}
	}
	h, err := hub.New(hub.Options{Venue: wireVenue, Broker: broker.URL(), Listen: "127.0.0.1:0", Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	hctx, hcancel := context.WithCancel(context.Background())
	hdone := make(chan error, 1)
	go func() { hdone <- h.Run(hctx) }()
	defer func() { hcancel(); <-hdone }()

	c := wireClient(t, broker.URL(), "release-tables")
	for _, m := range msgs {
		wirePublish(t, c, m)
	}
	for name, wall := range map[string]func() hub.Wall{"the hub's wall": h.Wall, "the venue's wall": vr.v.Hub().Wall} {
		shows := func() string {
			got := map[string]hub.Table{}
			for _, tb := range wall().Tables {
				got[tb.Table] = tb
			}
			for table, e := range want {
				tb, ok := got[table]
				switch {
				case !ok:
					return table + " is not on it"
				case tb.Status != e.status.Status || tb.Game != e.status.Game:
					return fmt.Sprintf("%s: status %q, game %q; the transcript says %q, %q", table, tb.Status, tb.Game, e.status.Status, e.status.Game)
				case tb.Seq != e.state.Seq || tb.Finished != e.state.Finished || tb.Headline == nil || e.state.Headline == nil || *tb.Headline != *e.state.Headline:
					return fmt.Sprintf("%s: seq %d, finished %v, headline %v; the transcript says %d, %v, %v", table, tb.Seq, tb.Finished, tb.Headline, e.state.Seq, e.state.Finished, e.state.Headline)
				}
			}
			return ""
		}
		if !wait.For(wait.Timeout, func() bool { return shows() == "" }) {
			t.Fatalf("%s does not show the release's tables: %s", name, shows())
		}
	}
	wait.Until(t, "every result counted or refused", func() bool {
		tv := vr.tour.View()
		n := 0
		for _, r := range tv.Paired {
			for _, p := range r.Results {
				if p.State != tournament.Awaiting {
					n++
				}
			}
		}
		return n == len(want)
	})
	tv := vr.tour.View()
	if len(tv.Refusals) > 0 {
		t.Fatalf("the venue refused the release's results: %+v", tv.Refusals)
	}
	// Every player's standing is their seat's outcome in the signed
	// statement, by the tournament's points.
	points := map[string]float64{rec.Win: tv.Points.Win, rec.Draw: tv.Points.Draw, rec.Loss: tv.Points.Loss}
	standing := map[string]tournament.Standing{}
	for _, s := range tv.Standings {
		standing[s.Player] = s
	}
	for table, e := range want {
		if len(e.result.Seats) != len(e.result.Players) {
			t.Fatalf("%s: %d seats, %d players in the statement", table, len(e.result.Seats), len(e.result.Players))
		}
		for i, seat := range e.result.Seats {
			s := standing[e.result.Players[i]]
			if s.Played != 1 || s.Points != points[seat.Outcome] {
				t.Errorf("%s seat %d (%s, %s): played %d, %v points; want 1, %v", table, seat.Seat, e.result.Players[i], seat.Outcome, s.Played, s.Points, points[seat.Outcome])
			}
		}
	}
}

func wireVenueToTables(t *testing.T, dir string) {
	msgs := readTranscript(t, filepath.Join(dir, wireVenueFile))
	broker := brokertest.StartMosquitto(t, "allow_anonymous true")
	c := wireClient(t, broker.URL(), "release-venue")
	for i := range goldenGames() {
		table := wireTable(i)
		topics := wire.TopicsFor(wireVenue, table)
		var mine []wireLine
		for _, m := range msgs {
			if m.Topic == topics.Pairing {
				mine = append(mine, m)
			}
		}
		if len(mine) < 2 {
			t.Fatalf("the transcript has %d pairing messages for %s, want its pairing and its result signed", len(mine), table)
		}
		var first wire.PairingMessage
		if err := json.Unmarshal(mine[0].bytes(), &first); err != nil {
			t.Fatalf("the transcript's first pairing of %s: %v", table, err)
		}
		var logs logbuf.Buffer
		cfg, stop := wireDaemon(t, i, broker.URL(), "", false, nil, &logs)
		// The table is subscribed once its status is out.
		var online sync.WaitGroup
		online.Add(1)
		var once sync.Once
		if tok := c.Subscribe(topics.Status, 1, func(paho.Client, paho.Message) { once.Do(online.Done) }); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
		online.Wait()
		c.Unsubscribe(topics.Status).WaitTimeout(10 * time.Second)
		wirePublish(t, c, mine[0])
		if !wait.For(wait.Timeout, func() bool {
			return logLine(logs.String(), `msg="the game is a round of the venue's tournament"`, "round=1", "pairing="+first.Pairing)
		}) {
			t.Fatalf("%s (%s) did not take the release's pairing:\n%s", table, cfg.Game, logs.String())
		}
		for _, m := range mine[1:] {
			wirePublish(t, c, m)
		}
		if !wait.For(wait.Timeout, func() bool {
			return logLine(logs.String(), `msg="the venue's pairing of this game's round"`, "round=1", "result=signed")
		}) {
			t.Fatalf("%s (%s) did not read the release's signed pairing as its game's round:\n%s", table, cfg.Game, logs.String())
		}
		stop()
		j, err := companion.OpenJournal(cfg.Resolve(cfg.Journal), companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, quiet)
		if err != nil {
			t.Fatal(err)
		}
		b, err := j.Pairing(context.Background())
		j.Close()
		if err != nil {
			t.Fatal(err)
		}
		if b.Pairing != first.Pairing || b.Tournament != first.Tournament || !slices.Equal(b.Players, first.PlayerIDs) {
			t.Errorf("%s's journal keeps %+v, want the release's pairing %s of %s, players %v", table, b, first.Pairing, first.Tournament, first.PlayerIDs)
		}
	}
}

// logLine says whether one line of logs has every part.
func logLine(logs string, parts ...string) bool {
	for _, line := range strings.Split(logs, "\n") {
		if !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(line, p) }) {
			return true
		}
	}
	return false
}

// A venue of a newer contract pairs this version's table (the release's
// pairing, published under sztab/v2/…): the table does not take it, and
// says why, with the release that reads it, in its log and to the referee
// (referee/events), in Polish and English.
func TestWireNewerVenueRefusedByTable(t *testing.T) {
	dir := filepath.Join(releasesDir, wireReleases(t)[0], "wire")
	var pairing wireLine
	for _, m := range readTranscript(t, filepath.Join(dir, wireVenueFile)) {
		if m.Topic == wire.TopicsFor(wireVenue, wireTable(0)).Pairing {
			pairing = m
			break
		}
	}
	broker := brokertest.StartMosquitto(t, "allow_anonymous true")
	var logs logbuf.Buffer
	cfg, stop := wireDaemon(t, 0, broker.URL(), "", false, nil, &logs)
	topics := wire.TopicsFor(wireVenue, wireTable(0))
	c := wireClient(t, broker.URL(), "referee")
	var mu sync.Mutex
	var told []wire.EventMessage
	if tok := c.Subscribe(topics.RefereeEvents, 1, func(_ paho.Client, m paho.Message) {
		var ev wire.EventMessage
		if json.Unmarshal(m.Payload(), &ev) == nil {
			mu.Lock()
			told = append(told, ev)
			mu.Unlock()
		}
	}); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	newer := strings.Replace(pairing.Topic, "sztab/"+wire.Version+"/", "sztab/v2/", 1)
	wirePublish(t, c, wireLine{Topic: newer, Retained: true, Payload: pairing.Payload})
	en := newer + " is in the wire contract v2; this sztab speaks " + wire.Version + ": a sztab release that speaks v2 is needed to read it"
	pl := "wiadomość " + newer + " jest w protokole v2; ten sztab zna " + wire.Version + ": potrzebne wydanie sztab, które zna v2"
	var ev struct {
		Type  string `json:"type"`
		Topic string `json:"topic"`
		Text  struct{ PL, EN string }
	}
	wait.Until(t, "the referee told of the newer pairing", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range told {
			b, _ := json.Marshal(m.Event)
			if json.Unmarshal(b, &ev) == nil && ev.Type == string(wire.NoticeOtherContract) {
				return true
			}
		}
		return false
	})
	if ev.Topic != newer || !strings.HasPrefix(ev.Text.EN, en) || ev.Text.PL != pl {
		t.Errorf("the referee's notice: %+v, want %q / %q", ev, pl, en)
	}
	if !logLine(logs.String(), "a wire contract this table cannot read", "reason_pl=", "potrzebne wydanie sztab, które zna v2") {
		t.Errorf("the table's log does not say it:\n%s", logs.String())
	}
	stop()
	j, err := companion.OpenJournal(cfg.Resolve(cfg.Journal), companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if b, err := j.Pairing(context.Background()); err != nil || b.Pairing != "" {
		t.Errorf("the table took the newer contract's pairing: %+v (%v)", b, err)
	}
}

// TestWireReleaseReadsThisVersion is the other way: what this version's
// tables and venue publish (recorded now as TestWriteWireTranscripts
// records) must still be what each earlier release's venue, hub and
// tables read, as far as that release's transcripts show it:
//   - every pairing field this venue sends is one the release's venue sent
//     (a table reads a pairing strictly: an unknown field is refused);
//   - every topic the release's table published for a game, this table
//     publishes too, with every top-level field the release's had;
//   - its result statements are of a version the release's venue signed
//     (a venue refuses a newer statement).
//
// A change that fails it is a new contract (sztab/v2/…, a major release:
// CHANGELOG.md), not a patch.
func TestWireReleaseReadsThisVersion(t *testing.T) {
	_, tables, venues := recordWire(t)
	for _, release := range wireReleases(t) {
		t.Run(release, func(t *testing.T) {
			dir := filepath.Join(releasesDir, release, "wire")
			oldTables := readTranscript(t, filepath.Join(dir, wireTableFile))
			oldVenues := readTranscript(t, filepath.Join(dir, wireVenueFile))
			known := map[string]bool{}
			for _, m := range oldVenues {
				for k := range topKeys(t, m) {
					known[k] = true
				}
			}
			for _, m := range venues {
				for k := range topKeys(t, m) {
					if !known[k] {
						t.Errorf("this venue's pairing on %s has the field %q, which release %s's pairings never had: its tables refuse a pairing with a field they do not know", m.Topic, k, release)
					}
				}
			}
			// By topic (a table, one game each), the fields of every
			// message on it.
			fields := func(ms []wireLine) map[string]map[string]bool {
				out := map[string]map[string]bool{}
				for _, m := range ms {
					if out[m.Topic] == nil {
						out[m.Topic] = map[string]bool{}
					}
					for k := range topKeys(t, m) {
						out[m.Topic][k] = true
					}
				}
				return out
			}
			was, now := fields(oldTables), fields(tables)
			for topic, keys := range was {
				if now[topic] == nil {
					t.Errorf("this table publishes nothing on %s, which release %s's did", topic, release)
					continue
				}
				for k := range keys {
					if !now[topic][k] {
						t.Errorf("this table's %s has no field %q, which release %s's had", topic, k, release)
					}
				}
			}
			newest := 0
			for _, m := range oldTables {
				if v := statementVersion(t, m); v > newest {
					newest = v
				}
			}
			for _, m := range tables {
				if v := statementVersion(t, m); v > newest {
					t.Errorf("this table's %s is a result statement v%d; release %s's venue signed up to v%d and refuses a newer one", m.Topic, v, release, newest)
				}
			}
		})
	}
}

// topKeys are the top-level fields of a message's JSON object (none for
// an empty or non-object payload).
func topKeys(t *testing.T, m wireLine) map[string]json.RawMessage {
	t.Helper()
	var obj map[string]json.RawMessage
	if len(m.Payload) == 0 || m.Payload[0] != '{' {
		return nil
	}
	if err := json.Unmarshal(m.Payload, &obj); err != nil {
		t.Fatalf("%s: %v", m.Topic, err)
	}
	return obj
}

// statementVersion is the version of the result statement a message
// carries (0: none).
func statementVersion(t *testing.T, m wireLine) int {
	t.Helper()
	if tp, ok := wire.ParseTopic(m.Topic); !ok || tp.Suffix != "result" || len(m.Payload) == 0 {
		return 0
	}
	var rm wire.ResultMessage
	if err := json.Unmarshal(m.Payload, &rm); err != nil {
		t.Fatalf("%s: %v", m.Topic, err)
	}
	title, _, _ := strings.Cut(rm.Statement, "\n")
	var v int
	if _, err := fmt.Sscanf(title, "sztab result statement v%d", &v); err != nil {
		t.Fatalf("%s: statement title %q: %v", m.Topic, title, err)
	}
	return v
}
