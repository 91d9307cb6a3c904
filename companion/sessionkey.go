package companion

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

const sessionKeySize = 32

// loadSessionKey reads the key that signs the screens' sign-in cookies, or
// creates it (readable by the daemon's user only). It lives beside the journal
// so that referees and players stay signed in across a restart.
func loadSessionKey(path string) ([]byte, error) {
	key, err := os.ReadFile(path)
	switch {
	case err == nil && len(key) == sessionKeySize:
		return key, nil
	case err == nil:
		return nil, fmt.Errorf("companion: session key %s: %d bytes, want %d; delete it to make a new one (everyone signs in again)", path, len(key), sessionKeySize)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("companion: session key: %w", err)
	}
	key = make([]byte, sessionKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("companion: session key: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, key, 0o600); err != nil {
		return nil, fmt.Errorf("companion: session key: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("companion: session key: %w", err)
	}
	return key, nil
}
