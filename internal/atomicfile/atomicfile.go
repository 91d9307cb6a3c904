// Package atomicfile writes a file whole or not at all: a reader (or the
// next start after a power cut) finds the old file or the new one, never
// half of one.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes data to path with perm: a temporary file beside it,
// synced, renamed over path, then the folder synced so that the rename
// itself survives a power cut.
func Write(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("atomicfile: %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
