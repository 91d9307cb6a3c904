package bitwa

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

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")
var gen = flag.Bool("gen", false, "rewrite the bot-played scripts testdata/games/N-players.jsonl")

// TestGoldenGames plays every script in testdata/games (refused actions are
// part of the transcript) and compares the transcript in both languages
// and the final state (without the card table and components) with
// NAME.golden. The N-players games must reach the end. Run `go test
// ./rules/bitwa -run Golden -update` after a deliberate change.
func TestGoldenGames(t *testing.T) {
	scripts, err := filepath.Glob("testdata/games/*.jsonl")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	cat := defaultCat(t)
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
			if strings.HasSuffix(name, "-players") && final.Phase != PhaseOver {
				t.Errorf("%s does not reach the end of the game", path)
			}
			shown := final
			shown.Cards, shown.Comp = nil, Components{}
			golden.Check(t, strings.TrimSuffix(path, ".jsonl")+".golden", golden.Transcript(steps, shown), *update)
		})
	}
}

// botScore ranks legal actions for the scripted bot of the golden games:
// cards on the board first, then commanders' activations, resource fights,
// blockades; accepting effects and moving units forward; passing last.
func botScore(s State, a Action) int {
	switch a := a.(type) {
	case PlayCard:
		return 50 + len(s.Cards[a.Card].Options())
	case Activate:
		return 40
	case Fight:
		return 30 + 3*len(s.Army(s.Player(a.Seat).Army).Fights[a.Resource])
	case Blockade:
		if a.Skip {
			return 0
		}
		return 20
	case Move:
		if len(a.Moves) == 0 {
			return 1
		}
		if strings.HasSuffix(a.Moves[0].To, "1") {
			return 10
		}
		return 5
	case Supply:
		return len(a.Add)*3 + len(a.Moves)
	case Confirm:
		if a.Yes {
			return 10
		}
		return 1
	case Pass:
		return -10
	}
	return 5
}

func TestGenerateGames(t *testing.T) {
	if !*gen {
		t.Skip("run with -gen to rewrite the bot-played games")
	}
	cat := defaultCat(t)
	for n := 2; n <= 4; n++ {
		setup := Setup{Players: players(n), Seed: uint64(1920 + n)}
		start, err := cat.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		s := must(t, State{}, start)
		var b bytes.Buffer
		sj, _ := json.Marshal(setup)
		fmt.Fprintf(&b, "# Bitwa Warszawska, %d players, played by the scripted bot of gen_test (go test -run Generate -gen)\n", n)
		b.WriteString(`{"type":"setup",` + string(sj[1:]) + "\n")
		r := rng(n * 31)
		for i := 0; i < 4000 && s.Phase != PhaseOver; i++ {
			acts := LegalActions(s)
			best, bs := []Action{}, -1<<30
			for _, a := range acts {
				sc := botScore(s, a)
				if sc > bs {
					best, bs = []Action{a}, sc
				} else if sc == bs {
					best = append(best, a)
				}
			}
			a := best[r.next(len(best))]
			if rl, ok := a.(Roll); ok && len(rl.Dice) == 1 {
				rl.Dice = []int{1 + r.next(6)}
				a = rl
			}
			line, _ := EncodeAction(a)
			b.Write(line)
			b.WriteString("\n")
			s = must(t, s, a)
		}
		if s.Phase != PhaseOver {
			t.Fatalf("%d players: no end", n)
		}
		if err := os.WriteFile(fmt.Sprintf("testdata/games/%d-players.jsonl", n), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
