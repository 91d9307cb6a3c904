package mali

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/golden"
)

var (
	update   = flag.Bool("update", false, "rewrite the golden files in testdata/")
	generate = flag.Bool("generate", false, "rewrite the example game scripts in testdata/games from the bot")
)

// The example games the bot plays: name, setup, bot seed. Short decks keep
// them short; each reaches the end of the game. readme.jsonl, the README's
// example game, is written by hand.
var exampleGames = []struct {
	name  string
	setup Setup
	seed  uint64
	note  string
}{
	{"basic-2p", Setup{Variant: Basic, Starter: 2, Options: Options{DeckSize: 3}, Players: players(2)}, 2, "Basic variant, 2 players, a deck of 3."},
	{"basic-3p", Setup{Variant: Basic, Starter: 1, Options: Options{DeckSize: 4}, Players: players(3)}, 4, "Basic variant, 3 players, a deck of 4."},
	{"basic-4p", Setup{Variant: Basic, Starter: 3, Players: players(4)}, 1, "Basic variant, 4 players, the full deck of 20."},
	{"extended-2p", Setup{Variant: Extended, Starter: 1, Options: Options{DeckSize: 2, ExtendedAbove: 4}, Players: players(2)}, 7, "Extended variant, 2 players, 4 orders over the Victory card and 2 under."},
	{"extended-3p", Setup{Variant: Extended, Starter: 2, Options: Options{DeckSize: 2, ExtendedAbove: 4}, Players: players(3)}, 5, "Extended variant, 3 players."},
	{"extended-4p", Setup{Variant: Extended, Starter: 4, Players: players(4)}, 3, "Extended variant, 4 players, the full deck."},
}

func players(n int) []PlayerSetup {
	var out []PlayerSetup
	for i := 0; i < n; i++ {
		out = append(out, PlayerSetup{Seat: i + 1, Colour: Colours[i]})
	}
	return out
}

// TestGenerateGames writes the scripts with -generate (the bot's moves);
// otherwise it checks each script still ends its game.
func TestGenerateGames(t *testing.T) {
	cat := defaultCat(t)
	for _, g := range exampleGames {
		path := filepath.Join("testdata", "games", g.name+".jsonl")
		if !*generate {
			continue
		}
		acts, final, err := playBot(cat, g.setup, g.seed, 20000, nil)
		if err != nil || final.Phase != PhaseOver {
			t.Fatalf("%s: %v, phase %s", g.name, err, final.Phase)
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "# %s\n", g.note)
		setup, _ := json.Marshal(g.setup)
		b.WriteString(`{"type":"setup",` + string(setup[1:]) + "\n")
		for _, a := range acts[1:] {
			line, _ := EncodeAction(a)
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGoldenGames plays every script in testdata/games (refused actions
// are part of the transcript) and compares the transcript, in both
// languages, and the final state with NAME.golden. Run `go test
// ./rules/mali -run Golden -update` after a deliberate change.
func TestGoldenGames(t *testing.T) {
	scripts, err := filepath.Glob("testdata/games/*.jsonl")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	cat := defaultCat(t)
	over := map[string]bool{}
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines, err := ParseScript(cat, filepath.Base(path), data)
			if err != nil {
				t.Fatal(err)
			}
			final, steps := Play(lines, true)
			if final.Phase == PhaseOver {
				over[name] = final.Result != nil && !final.Result.Defeat
			}
			golden.Check(t, strings.TrimSuffix(path, ".jsonl")+".golden", golden.Transcript(steps, final), *update)
		})
	}
	for _, g := range exampleGames {
		if _, ok := over[g.name]; !ok {
			t.Errorf("%s does not reach the end of the game", g.name)
		}
	}
	if !over["readme"] || !over["basic-2p"] || !over["extended-2p"] {
		t.Errorf("scored endings %v: want the readme, a basic and an extended game scored", over)
	}
}
