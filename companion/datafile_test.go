package companion

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A game's data file: the embedded default unless the config names one,
// a named one read where resolve puts it, a missing one an error naming it.
func TestDataFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "club.yaml"), []byte("club"), 0o644)
	resolve := func(p string) string { return filepath.Join(dir, p) }
	defaults := map[string][]byte{"cards.yaml": []byte("embedded")}
	if name, b, err := DataFile("", resolve, "cards.yaml", defaults); err != nil || name != "cards.yaml" || string(b) != "embedded" {
		t.Errorf("default: %q %q %v", name, b, err)
	}
	if name, b, err := DataFile("club.yaml", resolve, "cards.yaml", defaults); err != nil || name != "club.yaml" || string(b) != "club" {
		t.Errorf("named: %q %q %v", name, b, err)
	}
	if _, _, err := DataFile("gone.yaml", resolve, "cards.yaml", defaults); err == nil || !strings.Contains(err.Error(), "data file cards.yaml") || !strings.Contains(err.Error(), "gone.yaml") {
		t.Errorf("missing: %v", err)
	}
}
