package west1920

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"
)

var gen = flag.Bool("gen", false, "regenerate the bot games in testdata/games (then run -update)")

// TestGenerateBotGames writes the bot games (seeded random legal play from
// LegalActions): bot-5-stages.jsonl (the first 220 actions, about five
// stages) and full-game.jsonl (a whole 14-stage game by a bot that passes
// more often), used by the golden test and BenchmarkReplay. Run with -gen.
func TestGenerateBotGames(t *testing.T) {
	if !*gen {
		t.Skip("run with -gen to regenerate the bot games")
	}
	for _, g := range []struct {
		file  string
		seed  uint64
		max   int
		passP float64
	}{{"bot-5-stages.jsonl", 5, 220, 0.3}, {"full-game.jsonl", 14, 5000, 0.75}} {
		acts, final := botGame(t, g.seed, g.max, g.passP, nil)
		var b bytes.Buffer
		fmt.Fprintf(&b, "# played by the random legal-action bot of gen_test.go (seed %d, pass %.2f): %d actions to stage %d, phase %s\n", g.seed, g.passP, len(acts), final.Stage, final.Phase)
		b.WriteString(`{"type":"setup","options":{}}` + "\n")
		for _, a := range acts[1:] {
			data, err := EncodeAction(a)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
			b.WriteByte('\n')
		}
		if err := os.WriteFile("testdata/games/"+g.file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d actions, stage %d, phase %s, winner %q", g.file, len(acts), final.Stage, final.Phase, final.Winner)
	}
}
