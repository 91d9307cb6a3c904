package skirmish

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
// transcript, in both languages, and the final state with NAME.golden.
// Run `go test ./rules/skirmish -run Golden -update` after a deliberate
// change.
func TestGoldenGames(t *testing.T) {
	scripts, err := filepath.Glob("testdata/games/*.jsonl")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	cat := defaultCat(t)
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			got := goldenTranscript(t, cat, path)
			golden.Check(t, strings.TrimSuffix(path, ".jsonl")+".golden", got, *update)
		})
	}
}

func goldenTranscript(t *testing.T, cat *Catalogue, path string) []byte {
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
	return golden.Transcript(steps, final)
}
