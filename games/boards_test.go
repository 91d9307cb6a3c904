package games_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sztab/sztab/internal/gamestest"
)

// Each game's printed board (gamespec.Board) is what its generator makes
// from the game's data: the file board.yaml in the game's package, which
// the package embeds (go test ./games -run Boards -update rewrites it
// after a change of the data).
func TestBoards(t *testing.T) {
	n := 0
	for _, spec := range gamestest.All {
		b := spec.Board
		if len(b.File) == 0 && b.Generate == nil {
			continue
		}
		n++
		if b.Generate == nil || len(b.File) == 0 {
			t.Errorf("%s: a printed board needs its file and its generator", spec.ID)
			continue
		}
		out, err := b.Generate()
		if err != nil {
			t.Errorf("%s: %v", spec.ID, err)
			continue
		}
		path := filepath.Join("..", specPackage(t, spec), "board.yaml")
		if *update {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", spec.ID, err)
		}
		if !bytes.Equal(have, b.File) {
			t.Errorf("%s is not the file %s's spec embeds", path, spec.ID)
		}
		if !bytes.Equal(have, out) {
			t.Errorf("%s is not what the generator makes from the data: go test ./games -run Boards -update", path)
		}
	}
	if n == 0 {
		t.Error("no game has a printed board")
	}
}
