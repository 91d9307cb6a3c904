package companion

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A key file cut short (empty: the power went while it was first written)
// does not stop the table: a new key replaces it, with a warning that
// everyone signs in again, and the next start reads that key.
func TestSessionKeyCutShortIsReplaced(t *testing.T) {
	for _, size := range []int{0, 1, sessionKeySize - 1} {
		t.Run(fmt.Sprintf("%d bytes", size), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j.db.session-key")
			if err := os.WriteFile(path, bytes.Repeat([]byte{7}, size), 0o600); err != nil {
				t.Fatal(err)
			}
			var logged bytes.Buffer
			key, err := loadSessionKey(path, slog.New(slog.NewTextHandler(&logged, nil)))
			if err != nil {
				t.Fatalf("a %d-byte key file: got %v, want a new key", size, err)
			}
			if len(key) != sessionKeySize {
				t.Fatalf("got a %d-byte key, want %d", len(key), sessionKeySize)
			}
			if !strings.Contains(logged.String(), "level=WARN") || !strings.Contains(logged.String(), "signs in to the screens again") {
				t.Errorf("log %q: want a warning that everyone signs in again", logged.String())
			}
			if on, _ := os.ReadFile(path); !bytes.Equal(on, key) {
				t.Errorf("the file holds %x, want the new key %x", on, key)
			}
			again, err := loadSessionKey(path, quietLog)
			if err != nil || !bytes.Equal(again, key) {
				t.Errorf("next start: got %x, %v, want the same key %x", again, err, key)
			}
			if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
				t.Errorf("the temporary file is left behind: %v", err)
			}
		})
	}
}

// A key file that cannot be read, or is longer than a key (so not one cut
// short), is refused by name: it may be something else, and is not
// overwritten.
func TestSessionKeyUnreadableIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(path string) error
		want string
	}{
		{"a directory", func(p string) error { return os.Mkdir(p, 0o700) }, "cannot be read"},
		{"too long", func(p string) error { return os.WriteFile(p, make([]byte, sessionKeySize+1), 0o600) }, "33 bytes, want 32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j.db.session-key")
			if err := tc.make(path); err != nil {
				t.Fatal(err)
			}
			_, err := loadSessionKey(path, quietLog)
			if err == nil || !strings.HasPrefix(err.Error(), "companion: session key "+path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error naming %s and saying %q", err, path, tc.want)
			}
		})
	}
}

// A new key is durable before it is used: its temporary file is synced
// before the rename puts it in place, and the directory after, so that a
// power cut leaves the old file or the whole new one.
func TestSessionKeyWriteIsSynced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j.db.session-key")
	var synced []string
	defer func(orig func(*os.File) error) { syncFile = orig }(syncFile)
	syncFile = func(f *os.File) error {
		_, err := os.Stat(path)
		synced = append(synced, filepath.Base(f.Name())+map[bool]string{true: " (key in place)", false: " (key not in place)"}[err == nil])
		return f.Sync()
	}
	if _, err := loadSessionKey(path, quietLog); err != nil {
		t.Fatal(err)
	}
	want := []string{"j.db.session-key.tmp (key not in place)", filepath.Base(dir) + " (key in place)"}
	if strings.Join(synced, "; ") != strings.Join(want, "; ") {
		t.Errorf("synced %q, want %q", synced, want)
	}
}
