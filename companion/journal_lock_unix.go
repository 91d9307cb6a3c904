//go:build unix

package companion

import (
	"errors"
	"os"
	"syscall"
)

// journalLockHeld says whether this system can hold a journal exclusively.
const journalLockHeld = true

// lockFile takes an exclusive flock(2) on f without waiting. The kernel
// drops it when the file is closed or the process ends, however it ends,
// so a crash never leaves a table locked out. It reports errLocked when
// another open file (in this process or another) holds it.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
