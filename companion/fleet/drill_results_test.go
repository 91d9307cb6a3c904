package fleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/tournament"
	"github.com/sztab/sztab/companion/wire"
)

// drillResults are the finished tables of the failover drill: their signed
// results, retained on the cluster, go through the hub into a tournament
// whose standings must come out right whatever the node's loss makes the
// broker deliver again (each counted once, none lost).
type drillResults struct {
	tour   *tournament.Tournament
	venue  string
	keys   map[string][]byte // table → private key PEM
	tables []string
	// round1 is round 1's pairings: each table's result is bound to its
	// own (record.Statement v4).
	round1  tournament.Round
	mu      sync.Mutex
	refused []string
}

// newDrillResults is a tournament of n finished tables (f01…), each with
// its key and two players paired in round 1.
func newDrillResults(t *testing.T, venue string, n int) *drillResults {
	t.Helper()
	dir := t.TempDir()
	r := &drillResults{venue: venue, keys: map[string][]byte{}}
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "name: Drill\nvenue: %s\ngame: skirmish\nrounds: 3\nplayers:\n", venue)
	pairings := "round,table,seat,player\n"
	var tables strings.Builder
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("f%02d", i)
		priv, pub, err := record.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, id+".pub"), pub, 0o644)
		r.keys[id], r.tables = priv, append(r.tables, id)
		fmt.Fprintf(&cfg, "  - {id: p%d, name: P%d}\n  - {id: q%d, name: Q%d}\n", i, i, i, i)
		fmt.Fprintf(&tables, "  - {id: %s, key: %s.pub}\n", id, id)
		pairings += fmt.Sprintf("1,%s,1,p%d\n1,%s,2,q%d\n", id, i, id, i)
	}
	tc, err := tournament.ParseConfig(filepath.Join(dir, "t.yaml"), []byte(cfg.String()+"tables:\n"+tables.String()), games)
	if err != nil {
		t.Fatal(err)
	}
	if r.tour, err = tournament.Open(context.Background(), filepath.Join(dir, "venue.db"), tc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.tour.Close() })
	if r.round1, err = r.tour.ImportPairings(context.Background(), 1, strings.NewReader(pairings)); err != nil {
		t.Fatal(err)
	}
	return r
}

// take is the hub's Results: the finished tables' results go to the
// tournament. (A playing table of the fleet may finish its game too —
// Mali Powstańcy's can — and publish its own result; it is not a table of
// this tournament.)
func (r *drillResults) take(table string, payload []byte) {
	if _, ours := r.keys[table]; !ours || len(payload) == 0 {
		return
	}
	var m wire.ResultMessage
	err := json.Unmarshal(payload, &m)
	if err == nil {
		_, err = r.tour.SubmitResult(context.Background(), table, m)
	}
	if err != nil {
		r.mu.Lock()
		r.refused = append(r.refused, table+": "+err.Error())
		r.mu.Unlock()
	}
}

// publish publishes every finished table's signed result, retained: seat 1
// (p…) wins with 10+i, seat 2 (q…) loses.
func (r *drillResults) publish(t *testing.T, brokers []string) {
	t.Helper()
	o := paho.NewClientOptions().SetClientID(fmt.Sprintf("drill-results-%d", time.Now().UnixNano()))
	for _, b := range brokers {
		o.AddBroker(b)
	}
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
		t.Fatalf("results: connect: %v", tok.Error())
	}
	defer c.Disconnect(100)
	for i, id := range r.tables {
		key, err := record.ParsePrivateKey(r.keys[id])
		if err != nil {
			t.Fatal(err)
		}
		st := record.Statement{Identity: record.Identity{Venue: r.venue, Table: id, Game: "skirmish"}, FinalSeq: 40, FinalHash: strings.Repeat("ab", 32),
			Finished: true, Seats: []record.Seat{{Seat: 1, Outcome: record.Win, Score: 10 + i}, {Seat: 2, Outcome: record.Loss}},
			Round: 1, Tournament: r.tour.ID()}
		for _, p := range r.round1.Tables {
			if p.Table == id {
				st.Pairing, st.Players = p.ID, p.Players
			}
		}
		m, _ := json.Marshal(wire.ResultMessage{Statement: string(st.Marshal()), Signature: string(record.Sign(st, key))})
		if tok := c.Publish(wire.TopicsFor(r.venue, id).Result, 1, true, m); !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
			t.Fatalf("results: publish %s: %v", id, tok.Error())
		}
	}
}

// check says what is wrong with the standings, "" when each table's
// result counts once: every p… one win, every q… one loss, nothing
// refused.
func (r *drillResults) check() string {
	r.mu.Lock()
	refused := strings.Join(r.refused, "; ")
	r.mu.Unlock()
	if refused != "" {
		return "results refused: " + refused
	}
	var wrong []string
	for _, s := range r.tour.Standings() {
		want := [3]int{1, 1, 0} // played, wins, losses
		if strings.HasPrefix(s.Player, "q") {
			want = [3]int{1, 0, 1}
		}
		if got := [3]int{s.Played, s.Wins, s.Losses}; got != want {
			wrong = append(wrong, fmt.Sprintf("%s played/won/lost %v, want %v", s.Player, got, want))
		}
	}
	return strings.Join(wrong, "; ")
}

// wait waits until the standings are right.
func (r *drillResults) wait(t *testing.T, what string, within time.Duration) {
	t.Helper()
	var why string
	for end := time.Now().Add(within); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if why = r.check(); why == "" {
			return
		}
	}
	t.Fatalf("standings %s: %s", what, why)
}
