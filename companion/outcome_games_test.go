package companion_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/gamestest"
	"github.com/sztab/sztab/internal/tabletest"
)

// Each game says each seat's outcome once it is over — what a venue's
// standings count — with the players' names and sides; nothing before.
// The endings are the games' own (GameSpec.Endings), the test-only sixth
// game's among them.
func TestOutcomeOfEveryGame(t *testing.T) {
	for _, spec := range gamestest.All {
		if len(spec.Endings) == 0 {
			t.Errorf("%s: no endings to check its outcome by", spec.ID)
		}
		for _, end := range spec.Endings {
			t.Run(spec.ID+"/"+end.Name, func(t *testing.T) {
				g, err := spec.New(tabletest.GameConfig(t, t.TempDir(), spec))
				if err != nil {
					t.Fatal(err)
				}
				open, err := g.Start()
				if err != nil {
					t.Fatal(err)
				}
				_, commit, err := g.Apply(open)
				if err != nil {
					t.Fatal(err)
				}
				commit()
				if got := companion.Outcome(g); got != nil {
					t.Fatalf("an outcome before the game is over: %+v", got)
				}
				if err := end.Finish(g); err != nil {
					t.Fatal(err)
				}
				if got := companion.Outcome(g); !reflect.DeepEqual(got, end.Want) {
					t.Errorf("outcome:\n got %+v\nwant %+v", got, end.Want)
				}
			})
		}
	}
}

// Every game, the test-only sixth among them, runs on a real daemon from
// its table config: it opens a journal, publishes its state on the real
// broker, and after a restart publishes the same state again.
func TestEveryGameOnADaemon(t *testing.T) {
	for _, spec := range gamestest.All {
		t.Run(spec.ID, func(t *testing.T) {
			cfg := tabletest.GameConfig(t, t.TempDir(), spec)
			r := tabletest.Start(t, cfg, spec)
			w := tabletest.Watch(t, r.D.BrokerAddr(), cfg.Venue, cfg.Table)
			w.Until(t, "the game's state", func() bool { return len(w.States) > 0 })
			w.Mu.Lock()
			last := w.States[len(w.States)-1]
			w.Mu.Unlock()
			var msg struct {
				State json.RawMessage `json:"state"`
			}
			if err := json.Unmarshal(last, &msg); err != nil || len(msg.State) < 3 {
				t.Fatalf("state message %.200s: %v", last, err)
			}
			seq := r.D.Seq()
			r.Stop(t)
			tabletest.CheckRestart(t, cfg, spec, seq, last)
		})
	}
}
