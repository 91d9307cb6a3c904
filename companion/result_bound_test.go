package companion

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/tournament"
	"github.com/sztab/sztab/companion/venue"
	"github.com/sztab/sztab/internal/brokertest"
)

// boundNight is a venue night on a real Mosquitto for the tests of results
// bound to their pairing: table t1's key in dir, and a tournament file
// whose round 1 pairs t1 with two players who are not the table's game's.
type boundNight struct {
	t     *testing.T
	m     *brokertest.Mosquitto
	dir   string
	quiet *slog.Logger
	// logs is what the venues logged.
	logs *lockedLog
}

func newBoundNight(t *testing.T) *boundNight {
	n := &boundNight{t: t, m: brokertest.StartMosquitto(t, "allow_anonymous true\n"), dir: t.TempDir(), quiet: slog.New(slog.NewTextHandler(io.Discard, nil)), logs: &lockedLog{}}
	roundTable(t, n.dir, "") // makes t1.key
	return n
}

// table runs table t1 on the night's broker with a journal of its own in
// a new directory (the same key), until stop or the test's end.
func (n *boundNight) table() (*Daemon, func()) {
	t := n.t
	dir := t.TempDir()
	for _, f := range []string{"t1.key", "t1.key.pub", "tags.yaml"} {
		b, err := os.ReadFile(filepath.Join(n.dir, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o600)
	}
	cfg, spec := roundTable(t, dir, n.m.URL())
	d, err := Open(context.Background(), cfg, Options{Games: Games{spec}, Log: n.quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done; d.Close() }) }
	t.Cleanup(stop)
	return d, stop
}

// tournament opens the tournament stored in db (a new one: its own id)
// and pairs round 1: t1, celina against darek.
func (n *boundNight) tournament(db string) *tournament.Tournament {
	t := n.t
	cfg, err := tournament.ParseConfig(filepath.Join(n.dir, "tournament.yaml"), []byte("name: Test\nvenue: v\ngame: skirmish\nrounds: 3\n"+
		"players:\n  - {id: celina, name: Celina}\n  - {id: darek, name: Darek}\ntables:\n  - {id: t1, key: t1.key.pub}\n"), Games{roundSpec()})
	if err != nil {
		t.Fatal(err)
	}
	tour, err := tournament.Open(context.Background(), filepath.Join(n.dir, db), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tour.Close() })
	tour.SetLogger(n.quiet)
	if _, err := tour.ImportPairings(context.Background(), 1, strings.NewReader("table,seat,player\nt1,1,celina\nt1,2,darek\n")); err != nil {
		t.Fatal(err)
	}
	return tour
}

// venue runs `sztab venue`'s process for tour on the night's broker (its
// pairings on a connection of its own) until stop or the test's end.
func (n *boundNight) venue(tour *tournament.Tournament) func() {
	t := n.t
	ctx, cancel := context.WithCancel(context.Background())
	pub, err := Connect(ctx, PublisherOptions{URL: n.m.URL(), ClientID: "venue-pairings", Log: n.quiet})
	if err != nil {
		t.Fatal(err)
	}
	v, err := venue.New(venue.Options{Hub: hub.Options{Broker: n.m.URL(), Venue: "v", Listen: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(n.logs, nil))},
		Tournament: viewOnly{tour}, Organiser: display.Credential{User: "orga", Password: "x"},
		Pairings: func(topic string, payload []byte) error { return pub.Publish(topic, payload, true) }})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- v.Run(ctx) }()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done; pub.Close() }) }
	t.Cleanup(stop)
	return stop
}

// refusedWith waits for tour to refuse t1's result with a reason that
// says en (and pl in Polish, in the venue's log too), and checks nothing
// counted.
func (n *boundNight) refusedWith(tour *tournament.Tournament, en, pl string) {
	t := n.t
	t.Helper()
	waitFor(t, "the venue to refuse the result: "+en, func() bool {
		for _, r := range tour.Refusals() {
			if r.Table == "t1" && strings.Contains(r.Reason, en) && strings.Contains(r.ReasonPL, pl) {
				return true
			}
		}
		return false
	})
	for _, s := range tour.Standings() {
		if s.Points != 0 || s.Played != 0 {
			t.Fatalf("the refused result counted: %+v", tour.Standings())
		}
	}
	if st := tour.View().Paired[0].Results[0].State; st != tournament.Refused {
		t.Fatalf("t1 in round 1: %q, want %q", st, tournament.Refused)
	}
	waitFor(t, "the venue's log to give the reason in Polish", func() bool {
		return strings.Contains(n.logs.String(), "venue: result refused") && strings.Contains(n.logs.String(), pl)
	})
}

// A game the table played before the venue paired it (the Mali demo's
// Ania–Bartek game, here the tally's) leaves its signed result retained on
// the broker. The venue pairs t1 with Celina and Darek: the old result,
// delivered to it, names no pairing and does not count for them.
func TestDemoResultNotCountedForOtherPlayers(t *testing.T) {
	n := newBoundNight(t)
	d, _ := n.table()
	watch := record(t, n.m.Addr, "sztab/v1/v/t1/result")
	for _, k := range []string{"6", "3", "2"} { // seat 1 wins
		key(d, "kp", k)
	}
	if st := statementOf(t, watch.wait(t, "sztab/v1/v/t1/result", "statement")); st.Pairing != "" || st.Round != 0 {
		t.Fatalf("a game over before any pairing: %+v", st)
	}
	tour := n.tournament("venue.db")
	n.venue(tour)
	n.refusedWith(tour, "the result names no pairing (v2)", "wynik nie wskazuje parowania")
}

// A venue restarted with a new database (a new tournament, its round 1
// paired again with the same players at t1) gets the table's retained
// result of the earlier tournament's round 1: it does not count. The
// table's result bound to the earlier venue's pairing counted there.
func TestLeftoverResultAfterVenueRestart(t *testing.T) {
	n := newBoundNight(t)
	first := n.tournament("first.db")
	stopFirst := n.venue(first)
	d, _ := n.table()
	waitFor(t, "the table to take the first venue's pairing", func() bool {
		b, _ := d.table.journal.Pairing(context.Background())
		return b.Pairing != "" && b.Tournament == first.ID()
	})
	for _, k := range []string{"6", "3", "2"} {
		key(d, "kp", k)
	}
	waitFor(t, "the result counted by the first venue", func() bool {
		return first.View().Paired[0].Results[0].State == tournament.Signed
	})
	stopFirst()

	second := n.tournament("second.db")
	if second.ID() == first.ID() || second.View().Paired[0].Tables[0].ID == first.View().Paired[0].Tables[0].ID {
		t.Fatal("the new tournament has the old one's ids")
	}
	n.venue(second)
	n.refusedWith(second, "a result of another tournament ("+first.ID()+")", "wynik innego turnieju")
}
