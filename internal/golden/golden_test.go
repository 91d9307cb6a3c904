package golden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFirstDiffAndCheck(t *testing.T) {
	if got := FirstDiff([]byte("a\nb\nc"), []byte("a\nx\nc")); got != "line 2:\n got  b\nwant  x" {
		t.Errorf("FirstDiff %q", got)
	}
	if got := FirstDiff([]byte("a\n"), []byte("a\nb\n")); got != "line 2:\n got  \nwant  b" {
		t.Errorf("FirstDiff of a shorter text %q", got)
	}
	path := filepath.Join(t.TempDir(), "g.golden")
	Check(t, path, []byte("x\n"), true)
	if b, err := os.ReadFile(path); err != nil || string(b) != "x\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	Check(t, path, []byte("x\n"), false)
}
