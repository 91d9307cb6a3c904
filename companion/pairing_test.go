package companion

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/hub"
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/tournament"
	"github.com/sztab/sztab/companion/venue"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/brokertest"
	"github.com/sztab/sztab/internal/logbuf"
)

// lockedLog is a log the test reads while the daemon writes it.
type lockedLog = logbuf.Buffer

// roundTable is a tally table t1 of venue v that ends its game after three
// dice and signs its result (overTally), journal j.db in dir; broker ""
// is its embedded broker.
func roundTable(t *testing.T, dir, broker string) (*Config, GameSpec) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "t1.key")); err != nil {
		priv, pub, err := rec.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "t1.key"), priv, 0o600)
		os.WriteFile(filepath.Join(dir, "t1.key.pub"), pub, 0o644)
		os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
	}
	mqtt := "mqtt:\n  listen: 127.0.0.1:0\n"
	if broker != "" {
		mqtt = "mqtt:\n  broker: \"" + broker + "\"\n"
	}
	cfg, err := ParseConfig(filepath.Join(dir, "t1.yaml"), []byte("venue: v\ntable: t1\ngame: skirmish\ntags: tags.yaml\njournal: j.db\nresult_key: t1.key\n"+
		mqtt+"display:\n  referee: {user: sedzia, password: tajne}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg, roundSpec()
}

// roundSpec is the game of roundTable, and of its venue's tournament: the
// tally game under the tournament's game id.
func roundSpec() GameSpec {
	spec := tallySpec
	spec.ID = "skirmish"
	spec.New = func(c TableConfig) (Game, error) {
		g, err := newTally("skirmish")(c)
		return overTally{g.(*tallyGame)}, err
	}
	return spec
}

// statementOf reads the statement of a published result message.
func statementOf(t *testing.T, payload string) rec.Statement {
	t.Helper()
	var m wire.ResultMessage
	if err := json.Unmarshal([]byte(payload), &m); err != nil {
		t.Fatalf("result %q: %v", payload, err)
	}
	st, err := rec.ParseStatement([]byte(m.Statement))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// The table keeps the round of its game: the first round it hears from
// the venue while the game is on, once per journal, across a restart; a
// garbled pairing, one for another table, or one whose result the venue
// already has is logged and ignored; the signed result names the round
// (v3). A game over before any pairing is heard signs no round (v2).
func TestTableKeepsTheRoundOfItsGame(t *testing.T) {
	dir := t.TempDir()
	cfg, spec := roundTable(t, dir, "")
	logs := &lockedLog{}
	serve := func() (*Daemon, func()) {
		d, err := Open(context.Background(), cfg, Options{Games: Games{spec}, Log: slog.New(slog.NewTextHandler(logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- d.Serve(ctx) }()
		// Stopped once, by the test or at its end (a failure).
		var once sync.Once
		stop := func() { once.Do(func() { cancel(); <-done; d.Close() }) }
		t.Cleanup(stop)
		return d, stop
	}
	d, stop := serve()
	topics := wire.TopicsFor("v", "t1")
	roundOf := func(d *Daemon) int {
		t.Helper()
		n, _, err := d.table.journal.Round(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	pairing := func(d *Daemon, payload, logged string) {
		t.Helper()
		n := strings.Count(logs.String(), logged)
		d.receivePairing(Message{Topic: topics.Pairing, Payload: []byte(payload), Retained: true})
		waitFor(t, "the log to say "+logged, func() bool { return strings.Count(logs.String(), logged) > n })
	}
	msg := func(round int, result string) string {
		b, _ := json.Marshal(wire.PairingMessage{Venue: "v", Table: "t1", Round: round, Players: []string{"Ania", "Bartek"}, Result: result})
		return string(b)
	}
	for _, tc := range []struct{ name, payload, logged string }{
		{"garbled", `{"venue":`, "reason=\"wire: pairing: not a pairing message"},
		{"another table's", strings.Replace(msg(1, ""), `"t1"`, `"t2"`, 1), `reason="wire: pairing: for table \"t2\"`},
		{"round 0", msg(0, ""), "round 0, want 1"},
		{"cleared", "", "not paired now"},
		{"a round whose result the venue has", msg(1, wire.PairingSigned), "waits for the next round's pairing"},
	} {
		pairing(d, tc.payload, tc.logged)
		if n := roundOf(d); n != 0 {
			t.Fatalf("%s: the game took round %d", tc.name, n)
		}
	}
	pairing(d, msg(2, "awaiting"), "the game is a round of the venue's tournament")
	// A later round paired (forced) while the game is on: the game keeps 2.
	pairing(d, msg(3, "awaiting"), "this game keeps its round")
	if n := roundOf(d); n != 2 || d.Seq() != 1 {
		t.Fatalf("round %d at seq %d, want round 2 and no entry for it (the journal's chain is the game's)", n, d.Seq())
	}
	stop()
	d, stop = serve()
	if d.table.round != 2 {
		t.Fatalf("after a restart the round is %d", d.table.round)
	}
	watch := record(t, d.BrokerAddr(), topics.Result)
	for _, k := range []string{"6", "3", "2"} {
		key(d, "kp", k)
	}
	if st := statementOf(t, watch.wait(t, topics.Result, "statement")); st.Round != 2 || len(st.Seats) != 2 {
		t.Fatalf("the statement: %+v, want round 2", st)
	}
	stop()

	// Another journal: the game is over before the table hears a pairing.
	dir2 := t.TempDir()
	cfg, spec = roundTable(t, dir2, "")
	d, stop = serve()
	watch = record(t, d.BrokerAddr(), topics.Result)
	for _, k := range []string{"1", "1", "1"} {
		key(d, "kp", k)
	}
	if st := statementOf(t, watch.wait(t, topics.Result, "statement")); st.Round != 0 || !strings.Contains(watch.last(topics.Result), "statement v2") {
		t.Fatalf("a game over before any pairing: round %d\n%s", st.Round, watch.last(topics.Result))
	}
	pairing(d, msg(1, "awaiting"), "came after the game was over")
	if n := roundOf(d); n != 0 {
		t.Fatalf("a finished game took round %d", n)
	}
	stop()

	// A third journal: the first pairing heard names an earlier round
	// without the table's result (forced past it): the game may be that
	// round's, so it names none, even once the organiser has entered the
	// missing result and the pairing is clean.
	cfg, spec = roundTable(t, t.TempDir(), "")
	d, stop = serve()
	forced, _ := json.Marshal(wire.PairingMessage{Venue: "v", Table: "t1", Round: 2, Players: []string{"Ania", "Bartek"}, Missing: []int{1}})
	pairing(d, string(forced), "this game may be that round's")
	pairing(d, msg(2, "awaiting"), "this game names none")
	if n, set, err := d.table.journal.Round(context.Background()); n != 0 || !set || err != nil {
		t.Fatalf("round %d, set %v, %v: want none, decided", n, set, err)
	}
	stop()
	d, stop = serve()
	if !d.table.roundSet || d.table.round != 0 {
		t.Fatalf("after a restart: round %d, set %v", d.table.round, d.table.roundSet)
	}
	watch = record(t, d.BrokerAddr(), topics.Result)
	for _, k := range []string{"6", "3", "2"} {
		key(d, "kp", k)
	}
	if st := statementOf(t, watch.wait(t, topics.Result, "statement")); st.Round != 0 {
		t.Fatalf("a game that could not tell its round names round %d", st.Round)
	}
	stop()
}

// End to end on a real Mosquitto: the venue (sztab venue's process, with
// the real tournament) tells the table its pairing, the table's signed
// result names the round, and the venue counts it in that round.
func TestVenuePairingReachesTheTable(t *testing.T) {
	m := brokertest.StartMosquitto(t, "allow_anonymous true\n")
	dir := t.TempDir()
	cfg, spec := roundTable(t, dir, m.URL())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	tcfg, err := tournament.ParseConfig(filepath.Join(dir, "tournament.yaml"), []byte("name: Test\nvenue: v\ngame: skirmish\nrounds: 3\n"+
		"players:\n  - {id: ania, name: Ania}\n  - {id: bartek, name: Bartek}\ntables:\n  - {id: t1, key: t1.key.pub}\n"), Games{spec})
	if err != nil {
		t.Fatal(err)
	}
	tour, err := tournament.Open(ctx, filepath.Join(dir, "venue.db"), tcfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tour.Close()
	tour.SetLogger(quiet)
	if _, err := tour.PairNext(ctx); err != nil {
		t.Fatal(err)
	}
	pub, err := Connect(ctx, PublisherOptions{URL: m.URL(), ClientID: "venue-pairings", Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	v, err := venue.New(venue.Options{Hub: hub.Options{Broker: m.URL(), Venue: "v", Listen: "127.0.0.1:0", Log: quiet},
		Tournament: viewOnly{tour}, Organiser: display.Credential{User: "orga", Password: "x"},
		Pairings: func(topic string, payload []byte) error { return pub.Publish(topic, payload, true) }})
	if err != nil {
		t.Fatal(err)
	}
	venueDone := make(chan error, 1)
	go func() { venueDone <- v.Run(ctx) }()
	defer func() { cancel(); <-venueDone }()

	logs := &lockedLog{}
	d, err := Open(ctx, cfg, Options{Games: Games{spec}, Log: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- d.Serve(ctx) }()
	defer func() { cancel(); <-served; d.Close() }()
	waitFor(t, "the table to take round 1 from the venue", func() bool {
		n, _, _ := d.table.journal.Round(context.Background())
		return n == 1
	})
	watch := record(t, m.Addr, wire.TopicsFor("v", "t1").Result)
	for _, k := range []string{"6", "3", "2"} {
		key(d, "kp", k)
	}
	p1 := tour.View().Paired[0].Results[0]
	if st := statementOf(t, watch.wait(t, wire.TopicsFor("v", "t1").Result, "statement")); st.Round != 1 || st.Pairing != p1.Pairing ||
		st.Tournament != tour.ID() || !slices.Equal(st.Players, p1.Players) {
		t.Fatalf("the table's statement: %+v, want round 1, pairing %s of tournament %s, players %v", st, p1.Pairing, tour.ID(), p1.Players)
	}
	waitFor(t, "the result counted in round 1", func() bool {
		vw := tour.View()
		return len(vw.Paired) == 1 && vw.Paired[0].Results[0].State == tournament.Signed
	})
	// Seat 1 won (11): the pairing's first player.
	if st, first := tour.Standings(), tour.View().Paired[0].Results[0].Players[0]; st[0].Player != first || st[0].Wins != 1 {
		t.Fatalf("standings: %+v, want %s first", st, first)
	}
	if !strings.Contains(logs.String(), "round=1") {
		t.Errorf("the table did not log its round:\n%s", logs.String())
	}
}

// viewOnly is the venue's view of a tournament for the test: results and
// the pairings' states (cmd/sztab's adapter does the rest).
type viewOnly struct{ t *tournament.Tournament }

func (a viewOnly) PairNext(ctx context.Context) error { _, err := a.t.PairNext(ctx); return err }
func (a viewOnly) ForcePairNext(ctx context.Context, by, why string) error {
	_, err := a.t.ForcePairNext(ctx, by, why)
	return err
}
func (a viewOnly) ImportPairings(ctx context.Context, round int, r io.Reader) error {
	_, err := a.t.ImportPairings(ctx, round, r)
	return err
}
func (a viewOnly) SubmitResult(ctx context.Context, table string, m wire.ResultMessage) error {
	_, err := a.t.SubmitResult(ctx, table, m)
	return err
}
func (a viewOnly) Correct(ctx context.Context, round int, table string, seats []rec.Seat, by, why string) error {
	return a.t.Correct(ctx, round, table, seats, by, why)
}
func (a viewOnly) StartRound(ctx context.Context, round int, at time.Time) error {
	return a.t.StartRound(ctx, round, at)
}
func (a viewOnly) WriteCSV(w io.Writer, what string) error { return a.t.WriteCSV(w, what) }
func (a viewOnly) View() venue.View {
	tv := a.t.View()
	v := venue.View{Tournament: tv.ID, Tables: tv.Tables, Name: tv.Name, Venue: tv.Venue, Game: tv.Game, Rounds: tv.Rounds, Round: tv.Current}
	for _, r := range tv.Paired {
		vr := venue.Round{Number: r.Number}
		for _, p := range r.Results {
			vr.Tables = append(vr.Tables, venue.Pairing{Table: p.Table, Players: p.Players, ID: p.Pairing, PlayerIDs: p.Players, State: p.State})
		}
		v.Pairings = append(v.Pairings, vr)
	}
	return v
}
