package companion

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sztab/sztab/companion/hub"
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/tournament"
	"github.com/sztab/sztab/companion/wire"
)

// A table's own result, signed with its result_key as the game ends,
// travels through the broker to a venue hub and into the tournament's
// standings. (The game is the
// test's tally engine registered as "skirmish", since a tournament plays
// one of the five games; what is tested is the path, not the rules.)
func TestTableResultCountsAtTheVenue(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"t1.key", "t2.key"} {
		priv, pub, err := rec.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), priv, 0o600)
		os.WriteFile(filepath.Join(dir, name+".pub"), pub, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
	spec := tallySpec
	spec.ID = "skirmish"
	spec.New = func(c TableConfig) (Game, error) {
		g, err := newTally("skirmish")(c)
		return overTally{g.(*tallyGame)}, err
	}
	// Table t1 with its embedded broker; the venue's hub follows it there.
	cfg, err := ParseConfig(filepath.Join(dir, "t1.yaml"), []byte("venue: v\ntable: t1\ngame: skirmish\ntags: tags.yaml\njournal: t1.db\nresult_key: t1.key\n"+
		"mqtt:\n  listen: 127.0.0.1:0\ndisplay:\n  referee: {user: sedzia, password: tajne}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(context.Background(), cfg, Options{Games: Games{spec}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	defer func() { cancel(); <-done; d.Close() }()

	tcfg, err := tournament.ParseConfig(filepath.Join(dir, "tournament.yaml"), []byte(`name: Test
venue: v
game: skirmish
rounds: 3
players:
  - {id: ania, name: Ania}
  - {id: bartek, name: Bartek}
tables:
  - {id: t1, key: t1.key.pub}
  - {id: t2, key: t2.key.pub}
`), Games{spec})
	if err != nil {
		t.Fatal(err)
	}
	tour, err := tournament.Open(ctx, filepath.Join(dir, "venue.db"), tcfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tour.Close()
	r1, err := tour.ImportPairings(ctx, 1, strings.NewReader("round,table,seat,player\n1,t1,1,ania\n1,t1,2,bartek\n"))
	if err != nil {
		t.Fatal(err)
	}
	// The venue's pairing reaches the table (as `sztab venue` publishes
	// it): the game is bound to it, and its result names it.
	pm, _ := json.Marshal(wire.PairingMessage{Venue: "v", Table: "t1", Round: 1, Players: []string{"Ania", "Bartek"},
		Tournament: tour.ID(), Pairing: r1.Tables[0].ID, PlayerIDs: r1.Tables[0].Players})
	d.receivePairing(Message{Topic: wire.TopicsFor("v", "t1").Pairing, Payload: pm, Retained: true})
	waitFor(t, "the table to take its pairing", func() bool {
		b, _ := d.table.journal.Pairing(context.Background())
		return b.Pairing == r1.Tables[0].ID
	})
	var mu sync.Mutex
	var outcomes []error
	h, err := hub.New(hub.Options{Broker: "tcp://" + d.BrokerAddr(), Venue: "v", Listen: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Results: func(table string, payload []byte) {
			if len(payload) == 0 {
				return // a cleared result
			}
			var m wire.ResultMessage
			if err := json.Unmarshal(payload, &m); err != nil {
				t.Errorf("result of %s: %v", table, err)
				return
			}
			_, err := tour.SubmitResult(ctx, table, m)
			mu.Lock()
			outcomes = append(outcomes, err)
			mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	go h.Run(ctx)

	for _, k := range []string{"6", "3", "2"} { // 11: seat 1 (Ania) wins
		key(d, "kp", k)
	}
	waitFor(t, "the result at the venue", func() bool { mu.Lock(); defer mu.Unlock(); return len(outcomes) > 0 })
	mu.Lock()
	if outcomes[0] != nil {
		t.Fatalf("the table's own signed result was refused: %v", outcomes[0])
	}
	mu.Unlock()
	st := tour.Standings()
	if len(st) != 2 || st[0].Player != "ania" || st[0].Wins != 1 || st[1].Player != "bartek" || st[1].Losses != 1 || st[0].Score != 11 {
		t.Fatalf("standings after the table's result: %+v", st)
	}
}
