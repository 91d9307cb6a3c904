package west1920

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
// transcript in both languages and the final state with NAME.golden. Run
// `go test ./rules/west1920 -run Golden -update` after a deliberate change.
func TestGoldenGames(t *testing.T) {
	scripts, err := filepath.Glob("testdata/games/*.jsonl")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	cat := defaultCat(t)
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			got, final, steps := goldenTranscript(t, cat, path)
			if name == "full-game" && final.Phase != PhaseOver {
				t.Errorf("%s does not reach the end of the game", path)
			}
			if name != "readme" {
				for _, st := range steps {
					if st.Err != nil {
						t.Errorf("line %d: %v", st.Line, st.Err)
					}
				}
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

func goldenTranscript(t *testing.T, cat *Catalogue, path string) ([]byte, State, []Step) {
	t.Helper()
	_, final, steps := playFile(t, cat, path)
	return golden.Transcript(steps, final), final, steps
}

// The README game ends stage 1 and opens stage 2; its one refusal is the
// bad facing.
func TestReadmeGame(t *testing.T) {
	_, final, steps := playFile(t, defaultCat(t), "testdata/games/readme.jsonl")
	var refused []int
	for _, st := range steps {
		if st.Err != nil {
			refused = append(refused, st.Line)
		}
	}
	if len(refused) != 1 || final.Stage != 2 || final.Phase != PhaseEvents {
		t.Errorf("refused lines %v, stage %d phase %s: want one refusal and stage 2 events", refused, final.Stage, final.Phase)
		for _, st := range steps {
			t.Log(st.Transcript("en"))
		}
	}
	if u := final.unit("ru-58sd"); u.Hex != "1915" {
		t.Errorf("58th Rifle Division at %s, want 1915", u.Hex)
	}
}

// Views: the other player's hand and the deck are hidden, sizes shown.
func TestViewHidesHands(t *testing.T) {
	s := newGame(t)
	s = mustApply(t, s, DrawCard{Side: Russian, Card: 1})
	s = mustApply(t, s, DrawCard{Side: Polish, Card: 3})
	pl := s.View(Viewer{Seat: Polish})
	if h := pl.Player(Polish).Hand; len(h) != 1 || h[0] != 3 {
		t.Errorf("own hand %v", h)
	}
	if p := pl.Player(Russian); len(p.Hand) != 0 || p.HandSize != 1 {
		t.Errorf("Russian hand seen by the Poles: %v (size %d)", p.Hand, p.HandSize)
	}
	if len(pl.Deck) != 0 || pl.DeckSize != len(s.Deck) {
		t.Errorf("deck shown: %d cards, size %d", len(pl.Deck), pl.DeckSize)
	}
	pub := s.View(Viewer{})
	if len(pub.Player(Polish).Hand)+len(pub.Player(Russian).Hand) != 0 {
		t.Errorf("the public view shows hands")
	}
	ref := s.View(Viewer{Referee: true})
	if len(ref.Player(Russian).Hand) != 1 || len(ref.Deck) != len(s.Deck) {
		t.Errorf("the referee sees everything")
	}
	if len(s.Player(Russian).Hand) != 1 {
		t.Errorf("View changed the state")
	}
}
