package companion

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
)

const sessionKeySize = 32

// syncFile makes a file's (or a directory's) contents durable; tests
// replace it to see what is synced when.
var syncFile = (*os.File).Sync

// loadSessionKey reads the key that signs the screens' sign-in cookies, or
// creates it (readable by the daemon's user only). It lives beside the journal
// so that referees and players stay signed in across a restart.
//
// A key file shorter than a key (empty, or cut short by a power cut while it
// was first written) is replaced by a new key, with a warning on log: the
// table starts and everyone signs in again. A file that cannot be read, or
// is longer than a key (something else, not a key cut short), is refused.
func loadSessionKey(path string, log *slog.Logger) ([]byte, error) {
	if log == nil {
		log = slog.Default()
	}
	key, err := os.ReadFile(path)
	switch {
	case err == nil && len(key) == sessionKeySize:
		return key, nil
	case err == nil && len(key) > sessionKeySize:
		return nil, fmt.Errorf("companion: session key %s: %d bytes, want %d; it is not a key this daemon wrote: move it aside to make a new one (everyone signs in again)", path, len(key), sessionKeySize)
	case err == nil:
		log.Warn("session key cut short (a power cut while it was written?): a new key replaces it and everyone signs in to the screens again", "path", path, "bytes", len(key), "want", sessionKeySize)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("companion: session key %s cannot be read (fix its permissions, or move it aside to make a new one): %w", path, err)
	}
	key = make([]byte, sessionKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("companion: session key: %w", err)
	}
	if err := writeFileDurably(path, key, 0o600); err != nil {
		return nil, fmt.Errorf("companion: session key: %w", err)
	}
	return key, nil
}

// writeFileDurably replaces path with data so that after a power cut path
// holds either its old contents or all of data: it writes and syncs a
// temporary file, renames it over path, then syncs the directory so that
// the rename itself is on disk.
func writeFileDurably(path string, data []byte, perm os.FileMode) error {
	tmp := path + ".tmp"
	// A temporary file left by an earlier power cut may carry other permissions.
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer dir.Close()
	return syncFile(dir)
}
