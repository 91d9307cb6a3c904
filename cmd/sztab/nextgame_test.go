package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/brokertest"
	"github.com/sztab/sztab/internal/tabletest"
)

// The next game at a club table, for each game: the demo table with a
// journal_dir instead of its journal file; the referee's new_game command
// with the players typed (Ola, Piotr) and a reason leaves the demo's
// game and starts the next in games/game-0002.db, whose state names the
// new players; both journals verify and export. A game whose seats are
// sides (West 1920) refuses names and starts without them.
func TestNextGameWithTypedPlayers(t *testing.T) {
	m := brokertest.StartMosquitto(t, "allow_anonymous true\n")
	for _, tc := range []struct {
		game, file, journal, table string
		named                      bool
	}{
		{"skirmish", "skirmish.yaml", "demo.journal.db", "stol-1", true},
		{"bitwa-warszawska", "bitwa-warszawska.yaml", "demo.journal.db", "stol-1", true},
		{"mali-powstancy", "mali-powstancy.yaml", "mali.journal.db", "stol-2", true},
		{"wot-rush", "wot-rush.yaml", "demo.journal.db", "stol-1", true},
		{"west-1920", "west-1920.yaml", "demo.journal.db", "stol-1", false},
	} {
		t.Run(tc.game, func(t *testing.T) {
			dir := t.TempDir()
			table := "stol-" + tc.game
			cfg := tabletest.DemoConfigEdited(t, dir, tc.file, false, "journal: "+tc.journal, "journal_dir: games",
				"table: "+tc.table, "table: "+table, "  listen: \"127.0.0.1:0\"\n", "  broker: \""+m.URL()+"\"\n")
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- companion.Run(ctx, cfg, companion.Options{Games: games, Log: quiet}) }()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("run: %v", err)
				}
			}()
			topics := wire.TopicsFor(cfg.Venue, table)
			answers := make(chan wire.CommandResult, 8)
			states := make(chan string, 64)
			c := paho.NewClient(paho.NewClientOptions().AddBroker(m.URL()).SetClientID("ref-" + table).SetUsername("sedzia").SetPassword("sedzia"))
			if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
				t.Fatal(tok.Error())
			}
			defer c.Disconnect(50)
			c.Subscribe(topics.RefereeEvents, 1, func(_ paho.Client, msg paho.Message) {
				var ev struct{ Event wire.CommandResult }
				if json.Unmarshal(msg.Payload(), &ev) == nil && ev.Event.Type == wire.ResultType {
					answers <- ev.Event
				}
			}).Wait()
			journals := make(chan string, 16)
			c.Subscribe(topics.Status, 1, func(_ paho.Client, msg paho.Message) {
				var st wire.StatusMessage
				if json.Unmarshal(msg.Payload(), &st) == nil && st.Status == "online" && st.Head != nil {
					select {
					case journals <- st.Head.Journal:
					default:
					}
				}
			}).Wait()
			c.Subscribe(topics.State, 1, func(_ paho.Client, msg paho.Message) {
				select {
				case states <- string(msg.Payload()):
				default:
				}
			}).Wait()
			waitState := func(what string, cond func(string) bool) {
				t.Helper()
				for end := time.After(20 * time.Second); ; {
					select {
					case s := <-states:
						if cond(s) {
							return
						}
					case <-end:
						t.Fatalf("no state with %s", what)
					}
				}
			}
			waitState("game 1", func(string) bool { return true })
			var first string
			select {
			case first = <-journals:
			case <-time.After(20 * time.Second):
				t.Fatal("no online status")
			}
			send := func(args ...string) wire.CommandResult {
				t.Helper()
				b, _ := json.Marshal(wire.Command{Name: companion.CmdNewGame, ID: "n" + time.Now().Format("150405.000000"), Args: args, Text: "the demo's game is left; Ola and Piotr play"})
				c.Publish(topics.RefereeCommand, 1, false, b).Wait()
				select {
				case a := <-answers:
					return a
				case <-time.After(20 * time.Second):
					t.Fatal("no answer to new_game")
				}
				return wire.CommandResult{}
			}
			if !tc.named {
				if a := send("Ola", "Piotr"); a.OK || a.Code != "bad_players" || !strings.Contains(a.Text.EN, "by side") {
					t.Fatalf("new_game with names for a game of sides: %+v", a)
				}
			}
			var args []string
			if tc.named {
				args = []string{"Ola", "Piotr"}
			}
			if a := send(args...); !a.OK {
				t.Fatalf("new_game: %+v", a)
			}
			// The table is on game 2 when its status names a new journal
			// (a state's seq alone does not tell: game 1's notice of the
			// next game can be its seq 1).
			for end, j := time.After(20*time.Second), first; j == first; {
				select {
				case j = <-journals:
				case <-end:
					t.Fatal("no online status of the next game's journal")
				}
			}
			waitState("game 2", func(s string) bool {
				return strings.Contains(s, `"seq":1,`) && (!tc.named || strings.Contains(s, "Ola"))
			})
			for i, path := range []string{"games/game-0001.db", "games/game-0002.db"} {
				journal := filepath.Join(dir, path)
				if out, err := runSztab(t, "verify", "--journal", journal); err != nil || !strings.Contains(out, "OK") {
					t.Fatalf("verify %s: %v\n%s", path, err, out)
				}
				out := filepath.Join(dir, "export", path)
				if o, err := runSztab(t, "export", "--journal", journal, "--out", out); err != nil {
					t.Fatalf("export %s: %v\n%s", path, err, o)
				}
				summary, _ := os.ReadFile(filepath.Join(out, "summary.md"))
				if named := strings.Contains(string(summary), "Ola"); tc.named && named != (i == 1) {
					t.Errorf("%s's summary names Ola: %v\n%s", path, named, summary)
				}
			}
		})
	}
}
