package wotrush

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGoldenGames plays every script in testdata/games (refused actions are
// part of the transcript, play goes on after them) and compares the
// transcript, in both languages, and the final state (without the card
// table) with NAME.golden. Run `go test ./rules/wotrush -run Golden
// -update` after a deliberate change.
func TestGoldenGames(t *testing.T) {
	scripts, err := filepath.Glob("testdata/games/*.jsonl")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	cat := defaultCat(t)
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			got, final := goldenTranscript(t, cat, path)
			if final.Phase != PhaseOver {
				t.Errorf("%s does not reach the end of the game", path)
			}
			golden.Check(t, strings.TrimSuffix(path, ".jsonl")+".golden", got, *update)
		})
	}
}

func playFile(t testing.TB, cat *Catalogue, path string) ([]ScriptLine, State, []Step) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := ParseScript(cat, filepath.Base(path), data)
	if err != nil {
		t.Fatal(err)
	}
	final, steps := Play(lines, true)
	return lines, final, steps
}

func goldenTranscript(t *testing.T, cat *Catalogue, path string) ([]byte, State) {
	t.Helper()
	_, final, steps := playFile(t, cat, path)
	shown := final
	shown.Cards = nil
	return golden.Transcript(steps, shown), final
}

// TestGoldenGamesUseEveryAbility: across the example games every ability
// of the rulebook is played (restrictions: a card carrying it attacks or
// pays).
func TestGoldenGamesUseEveryAbility(t *testing.T) {
	cat := defaultCat(t)
	scripts, _ := filepath.Glob("testdata/games/*.jsonl")
	seen := map[string]bool{}
	for _, path := range scripts {
		lines, _, steps := playFile(t, cat, path)
		var s State
		for i, st := range steps {
			if st.Err != nil {
				continue
			}
			switch a := lines[i].Action.(type) {
			case PlayCard:
				if !a.Skip {
					for _, ab := range s.Cards[a.Card].Abilities {
						seen[ab.ID] = true
					}
				}
			case Buy:
				for _, id := range a.Pay {
					if s.Cards[id].has(AbNationalGoods) {
						seen[AbNationalGoods] = true
					}
				}
			case Fire:
				for _, r := range []string{AbOnlyBases, AbOnlyVehicles} {
					if s.Cards[a.Attacker].has(r) {
						seen[r] = true
					}
				}
			}
			s, _, _ = Apply(s, lines[i].Action)
		}
	}
	for _, ab := range abilityIDs {
		if !seen[ab] {
			t.Errorf("no example game uses %s", ab)
		}
	}
}
