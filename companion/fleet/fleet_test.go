package fleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/fleet"
	"github.com/sztab/sztab/companion/wire"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
	registered "github.com/sztab/sztab/games"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/internal/brokertest"
)

// games are the binary's games (the registry, package games), in its order.
var games = registered.All

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// serving runs f.Serve in the background; stop ends it and returns its
// error.
func serving(t *testing.T, f *fleet.Fleet) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Serve(ctx) }()
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("the fleet did not stop within 30 s")
			return nil
		}
	}
	t.Cleanup(func() { stop() })
	return stop
}

// states follows the venue's public states, as a venue screen does.
type states struct {
	mu   sync.Mutex
	last map[string]wire.StateMessage
}

func followStates(t *testing.T, url, venue string) *states {
	t.Helper()
	s := &states{last: map[string]wire.StateMessage{}}
	o := paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("screen-%d", time.Now().UnixNano()))
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	tok := c.Subscribe(wire.VenueFilter(venue, "state"), 1, func(_ paho.Client, m paho.Message) {
		tp, _ := wire.ParseTopic(m.Topic())
		var sm wire.StateMessage
		if json.Unmarshal(m.Payload(), &sm) == nil {
			s.mu.Lock()
			s.last[tp.Table] = sm
			s.mu.Unlock()
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	return s
}

// withDemo are the registered games with a demo table, the fleet's games
// in its order.
func withDemo(t *testing.T) []gamespec.GameSpec {
	var out []gamespec.GameSpec
	for _, g := range games {
		if g.Demo != "" {
			out = append(out, g)
		}
	}
	if len(out) < 2 {
		t.Fatalf("%d games with a demo table, want two at least", len(out))
	}
	return out
}

// One table of each game on a real Mosquitto: ids t001…, the games round
// robin in the registry's order, each playing its demo script to the end
// with the venue's screen following its retained state; Serve stops them
// cleanly and a second run on the same directory goes on from the same
// journals.
func TestFleetPlaysEveryGameOnMosquitto(t *testing.T) {
	m := brokertest.StartMosquitto(t, "allow_anonymous true\n")
	screen := followStates(t, m.URL(), "klub")
	dir := t.TempDir()
	// One table more than there are games: the first game twice.
	demos := withDemo(t)
	last := fmt.Sprintf("t%03d", len(demos)+1)
	f, err := fleet.Open(context.Background(), fleet.Options{Tables: len(demos) + 1, Broker: m.URL(), Venue: "klub", Dir: dir, Speed: 0,
		Games: games, Demo: firmwareconfig.Demo, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range len(demos) + 1 {
		want = append(want, fmt.Sprintf("t%03d %s", i+1, demos[i%len(demos)].ID))
	}
	var got []string
	for _, tb := range f.Tables {
		got = append(got, tb.ID+" "+tb.Game)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") || len(f.Failed) > 0 {
		t.Fatalf("tables %q, failed %v; want %q", got, f.Failed, want)
	}
	stop := serving(t, f)
	// Each table plays its script to its end: its seq stops moving and
	// the venue's screen has it.
	seqs := map[string]int64{}
	for end := time.Now().Add(90 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		settled := true
		screen.mu.Lock()
		for _, tb := range f.Tables {
			s := tb.Daemon.Seq()
			if s < 5 || s != seqs[tb.ID] || screen.last[tb.ID].Seq != s || screen.last[tb.ID].Game != tb.Game {
				settled = false
			}
			seqs[tb.ID] = s
		}
		screen.mu.Unlock()
		if settled {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the tables did not finish their scripts with the screen following: seqs %v, screen %v", seqs, screen.last)
		}
	}
	if seqs["t001"] != seqs[last] {
		t.Errorf("two %s tables playing the same script end at seq %d and %d", demos[0].ID, seqs["t001"], seqs[last])
	}
	if err := stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	// Again on the same directory: the same journals, the same seq.
	f2, err := fleet.Open(context.Background(), fleet.Options{Tables: 1, Broker: m.URL(), Venue: "klub", Dir: dir, Games: games, Demo: firmwareconfig.Demo, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	if s := f2.Tables[0].Daemon.Seq(); s < seqs["t001"] {
		t.Errorf("t001 reopened at seq %d, want at least %d", s, seqs["t001"])
	}
}

// A table that cannot start is reported by id with the reason; the
// others play. Bad options are refused before any table opens.
func TestFleetReportsWhatDoesNotStart(t *testing.T) {
	m := brokertest.StartMosquitto(t, "allow_anonymous true\n")
	dir := t.TempDir()
	// t002's directory is taken by a file.
	if err := os.WriteFile(filepath.Join(dir, "t002"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := fleet.Open(context.Background(), fleet.Options{Tables: 3, Broker: m.URL(), Dir: dir, Games: games, Demo: firmwareconfig.Demo, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if len(f.Tables) != 2 || len(f.Failed) != 1 || f.Failed[0].ID != "t002" || !strings.Contains(f.Failed[0].Error(), "table t002 ("+withDemo(t)[1].ID+"): ") ||
		!strings.Contains(f.Failed[0].Error(), "not a directory") {
		t.Errorf("tables %d, failed %v", len(f.Tables), f.Failed)
	}
	base := fleet.Options{Tables: 2, Broker: m.URL(), Dir: t.TempDir(), Games: games, Demo: firmwareconfig.Demo, Log: quiet}
	for _, tc := range []struct {
		name string
		edit func(*fleet.Options)
		want string
	}{
		{"no tables", func(o *fleet.Options) { o.Tables = 0 }, "fleet: --tables 0, want 1 or more"},
		{"a bad broker in the list", func(o *fleet.Options) { o.Broker = m.URL() + ",tcp://nowhere" }, `fleet: --broker: wire: broker list: entry 2 of 2 "tcp://nowhere": no host:port`},
		{"an unknown game", func(o *fleet.Options) { o.Only = []string{withDemo(t)[0].ID, "chess"} }, `fleet: --games: "chess" is not a game with a demo table`},
		{"a bad venue", func(o *fleet.Options) { o.Venue = "a/b" }, `fleet: --venue "a/b" is not a venue id`},
		{"negative speed", func(o *fleet.Options) { o.Speed = -1 }, "fleet: --speed -1"},
	} {
		o := base
		tc.edit(&o)
		if f, err := fleet.Open(context.Background(), o); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			if f != nil {
				f.Close()
			}
			t.Errorf("%s: got %v, want %s…", tc.name, err, tc.want)
		}
	}
	if entries, _ := os.ReadDir(base.Dir); len(entries) != 0 {
		t.Errorf("refused options left %d files", len(entries))
	}
}
