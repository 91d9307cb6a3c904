package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBoxInitAndCheck: sztab box init writes the shipped pack, which sztab
// box check passes and lists as assumed; the club's test box passes with
// nothing assumed; a pack of another format is refused with its file and
// line.
func TestBoxInitAndCheck(t *testing.T) {
	for _, game := range []string{"bitwa-warszawska", "wot-rush", "mali-powstancy", "west-1920"} {
		t.Run(game, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "pudelko")
			if out, err := runSztab(t, "box", "init", "--game", game, "--edition", "Nasze pudełko", dir); err != nil || !strings.Contains(out, dir) {
				t.Fatalf("init: %v\n%s", err, out)
			}
			out, err := runSztab(t, "box", "check", dir)
			if err != nil || !strings.Contains(out, "pack OK: "+game+", Nasze pudełko") || !strings.Contains(out, "assumed (sample data): ") {
				t.Fatalf("check of the shipped data: %v\n%s", err, out)
			}
			club := filepath.Join("..", "..", "companion", "box", "testdata", game)
			out, err = runSztab(t, "box", "check", club)
			if err != nil || !strings.Contains(out, "nothing is assumed") {
				t.Fatalf("check of the club's box: %v\n%s", err, out)
			}
		})
	}
	if _, err := runSztab(t, "box", "check", t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a box pack") {
		t.Errorf("a directory with no pack.yaml: %v", err)
	}
}
