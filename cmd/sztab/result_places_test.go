package main

import (
	"bufio"
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

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/maligame"
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/watch"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/internal/wait"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/rules/west1920"
	"github.com/sztab/sztab/rules/wotrush"
)

// For each of the five games, a finished game (its golden game, the
// README's where it ends) played into the table's journal and served by
// the real daemon: the six places that say the result — the headline,
// the table screen's state, the venue wall, `sztab watch`, the export's
// summary and the signed result statement — name the same winner and
// the same score for every seat, all from the game's outcome.
func TestResultEverywhereTheSame(t *testing.T) {
	for _, tc := range goldenGames() {
		t.Run(tc.game, func(t *testing.T) {
			_, ok := games.Lookup(tc.game)
			if !ok {
				t.Fatalf("no game %q", tc.game)
			}
			dir := t.TempDir()
			cfg := tabletest.DemoConfig(t, dir, tc.file, false)
			priv, _, err := rec.GenerateKey()
			if err != nil {
				t.Fatal(err)
			}
			keyPath := filepath.Join(dir, "table.key")
			os.WriteFile(keyPath, priv, 0o600)
			cfg.ResultKey = keyPath
			journal := cfg.Resolve(cfg.Journal)
			writeGoldenJournal(t, journal, companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, tc.golden, tc.parse, tc.codec)

			d, err := companion.Open(context.Background(), cfg, companion.Options{Games: games, Log: quiet})
			if err != nil {
				t.Fatalf("the daemon on the finished game's journal: %v", err)
			}
			// (1) The headline, and the outcome every place is made from:
			// read from the game Open rebuilt from the journal, before the
			// daemon serves (the game is then its loop's alone).
			seats := companion.Outcome(d.Game())
			if seats == nil {
				d.Close()
				t.Fatal("the golden game is not over: no outcome")
			}
			headline := d.Game().(companion.Headliner).Headline()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- d.Serve(ctx) }()
			var once sync.Once
			stop := func() { once.Do(func() { cancel(); <-done; d.Close() }) }
			defer stop()
			want := []string{tc.winner}
			want = append(want, tc.scores...)
			for _, s := range want {
				if !strings.Contains(headline.EN, s) {
					t.Errorf("headline %q does not say %q", headline.EN, s)
				}
			}
			for _, s := range seats {
				if s.Outcome == rec.Win && !strings.Contains(headline.EN, seatLabel(s)+" wins") {
					t.Errorf("headline %q does not name the outcome's winner %s", headline.EN, seatLabel(s))
				}
			}

			// (2) The table screen's state, (4) the watch and (6) the
			// signed statement, as the broker carries them (retained).
			base := wire.TopicsFor(cfg.Venue, cfg.Table)
			var mu syncBox
			c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + d.BrokerAddr()).SetClientID("places-" + tc.game))
			if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
				t.Fatalf("connect: %v", tok.Error())
			}
			defer c.Disconnect(50)
			for _, topic := range []string{base.State, base.Result} {
				tok := c.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) { mu.put(m.Topic(), m.Payload()) })
				if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
					t.Fatalf("subscribe %s: %v", topic, tok.Error())
				}
			}
			wait.Until(t, "the table's state and result", func() bool { return mu.get(base.State) != nil && len(mu.get(base.Result)) > 0 })
			var state wire.StateMessage
			if err := json.Unmarshal(mu.get(base.State), &state); err != nil {
				t.Fatal(err)
			}
			if state.Headline == nil || *state.Headline != headline || !state.Finished {
				t.Errorf("table screen: headline %v, finished %v; want %q, finished", state.Headline, state.Finished, headline.EN)
			}
			screen := watch.NewScreen("en")
			screen.Apply("state", mu.get(base.State))
			if out := screen.Render(); !strings.Contains(out, headline.EN) {
				t.Errorf("sztab watch does not show the result %q:\n%s", headline.EN, out)
			}
			var rm wire.ResultMessage
			if err := json.Unmarshal(mu.get(base.Result), &rm); err != nil {
				t.Fatal(err)
			}
			st, err := rec.ParseStatement([]byte(rm.Statement))
			if err != nil {
				t.Fatal(err)
			}
			if st.Result.EN != headline.EN || st.Result.PL != headline.PL {
				t.Errorf("signed statement: result %q / %q, want %q / %q", st.Result.PL, st.Result.EN, headline.PL, headline.EN)
			}
			checkSeats(t, "signed statement", st.Seats, seats)

			// (3) The venue wall: the table finished, the result its
			// headline.
			h, err := hub.New(hub.Options{Venue: cfg.Venue, Broker: "tcp://" + d.BrokerAddr(), Listen: "127.0.0.1:0", Log: quiet})
			if err != nil {
				t.Fatal(err)
			}
			hctx, hcancel := context.WithCancel(context.Background())
			hdone := make(chan error, 1)
			go func() { hdone <- h.Run(hctx) }()
			defer func() { hcancel(); <-hdone }()
			wall := func() (hub.Table, bool) {
				for _, tb := range h.Wall().Tables {
					if tb.Table == cfg.Table {
						return tb, true
					}
				}
				return hub.Table{}, false
			}
			wait.Until(t, "the wall's table", func() bool { tb, ok := wall(); return ok && tb.Headline != nil })
			if tb, _ := wall(); !tb.Finished || *tb.Headline != headline {
				t.Errorf("venue wall: finished %v, headline %q; want finished, %q", tb.Finished, tb.Headline.EN, headline.EN)
			}

			// (5) The export's summary, from the journal.
			stop()
			out := filepath.Join(t.TempDir(), "record")
			if o, err := runSztab(t, "export", "--journal", journal, "--config", cfg.Path(), "--out", out); err != nil {
				t.Fatalf("export: %v\n%s", err, o)
			}
			md, err := os.ReadFile(filepath.Join(out, rec.MarkdownFile))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(md), "The game is **finished**: "+headline.EN) {
				t.Errorf("export summary does not say %q:\n%s", headline.EN, md)
			}
			// Every standing line that names a seat's points names the
			// outcome's score.
			sc := bufio.NewScanner(strings.NewReader(string(md)))
			for sc.Scan() {
				line := sc.Text()
				for _, s := range seats {
					if strings.HasPrefix(line, "- ") && line != "- "+headline.EN && strings.Contains(line, seatLabel(s)) && strings.Contains(line, " pts") && !strings.Contains(line, fmt.Sprintf(" %d pts", s.Score)) {
						t.Errorf("export summary: %q, want %s's %d pts", line, seatLabel(s), s.Score)
					}
				}
			}
		})
	}
}

// seatLabel is how the result names a seat (companion.ResultText).
func seatLabel(s rec.Seat) string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Side != "":
		return s.Side
	}
	return fmt.Sprintf("#%d", s.Seat)
}

func checkSeats(t *testing.T, where string, got, want []rec.Seat) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: seats %+v, want %+v", where, got, want)
	}
	for i := range got {
		if got[i].Seat != want[i].Seat || got[i].Outcome != want[i].Outcome || got[i].Score != want[i].Score {
			t.Errorf("%s: seat %+v, want %+v", where, got[i], want[i])
		}
	}
}

// writeGoldenJournal writes a golden game (read by the game's own script
// reader) as the table's journal.
func writeGoldenJournal(t *testing.T, path string, id companion.JournalIdentity, golden string, parse func([]byte) ([]rules.ScriptLine, error), codec *rules.Codec) {
	t.Helper()
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.ScriptJournal(t, path, id, lines, codec)
}

// syncBox keeps the last payload of each topic.
type syncBox struct {
	mu   sync.Mutex
	last map[string][]byte
}

func (b *syncBox) put(topic string, p []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.last == nil {
		b.last = map[string][]byte{}
	}
	b.last[topic] = append([]byte(nil), p...)
}

func (b *syncBox) get(topic string) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last[topic]
}

// goldenGame is a finished game of each of the five games: its demo config,
// its golden script, and what its result says.
type goldenGame struct {
	game, file, golden string
	// winner is how the result names the winner (or "a draw"), scores
	// every seat's final score as the result says it (none for a game
	// that keeps no points).
	winner string
	scores []string
	// parse reads the golden game with the game's own script reader.
	parse func(data []byte) ([]rules.ScriptLine, error)
	codec *rules.Codec
}

// goldenGames: the five, each played to its end by its golden script.
func goldenGames() []goldenGame {
	return []goldenGame{
		{"skirmish", "skirmish.yaml", "../../rules/skirmish/testdata/games/readme.jsonl", "Ania wins", []string{"Ania 48 pts", "Bartek 9 pts"}, func(data []byte) ([]rules.ScriptLine, error) {
			cat, err := skirmishgame.LoadCatalogue(skirmishgame.DataFiles{}, func(p string) string { return p })
			if err != nil {
				return nil, err
			}
			return skirmish.ParseScript(cat, "readme.jsonl", data)
		}, skirmish.Actions},
		{"bitwa-warszawska", "bitwa-warszawska.yaml", "../../rules/bitwa/testdata/games/readme.jsonl", "Marysia wins", []string{"Marysia 9 pts", "Janek 4 pts"}, func(data []byte) ([]rules.ScriptLine, error) {
			cat, err := bitwagame.LoadCatalogue(bitwagame.DataFiles{}, func(p string) string { return p })
			if err != nil {
				return nil, err
			}
			return bitwa.ParseScript(cat, "readme.jsonl", data)
		}, bitwa.Actions},
		{"mali-powstancy", "mali-powstancy.yaml", "../../rules/mali/testdata/games/extended-2p.jsonl", "red wins", []string{"red 27 pts", "green 1 pts"}, func(data []byte) ([]rules.ScriptLine, error) {
			cat, err := maligame.LoadCatalogue(nil)
			if err != nil {
				return nil, err
			}
			return mali.ParseScript(cat, "extended-2p.jsonl", data)
		}, mali.Actions},
		{"wot-rush", "wot-rush.yaml", "../../rules/wotrush/testdata/games/readme.jsonl", "Ala wins", []string{"Ala 19 pts", "Bartek 5 pts"}, func(data []byte) ([]rules.ScriptLine, error) {
			cat, err := wotrushgame.LoadCatalogue(wotrushgame.DataFiles{}, func(p string) string { return p })
			if err != nil {
				return nil, err
			}
			return wotrush.ParseScript(cat, "readme.jsonl", data)
		}, wotrush.Actions},
		{"west-1920", "west-1920.yaml", "../../rules/west1920/testdata/games/full-game.jsonl", "a draw", nil, func(data []byte) ([]rules.ScriptLine, error) {
			cat, err := west1920game.LoadCatalogue(west1920game.DataFiles{}, func(p string) string { return p })
			if err != nil {
				return nil, err
			}
			return west1920.ParseScript(cat, "full-game.jsonl", data)
		}, west1920.Actions},
	}
}
