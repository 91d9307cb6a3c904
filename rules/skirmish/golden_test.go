package skirmish

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
			golden := strings.TrimSuffix(path, ".jsonl") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; run with -update if the change is meant:\n%s", path, golden, firstDiff(got, want))
			}
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
	var b bytes.Buffer
	for _, lang := range []string{"pl", "en"} {
		b.WriteString("---- " + lang + "\n")
		for _, st := range steps {
			b.WriteString(st.Transcript(lang))
		}
	}
	b.WriteString("---- state\n")
	state, _ := json.MarshalIndent(final, "", "  ")
	b.Write(state)
	b.WriteString("\n")
	return b.Bytes()
}

func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + itoa(i+1) + ":\n got " + gl + "\nwant " + wl
		}
	}
	return ""
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
