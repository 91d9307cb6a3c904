//go:build !unix

package companion

import "os"

// journalLockHeld says whether this system can hold a journal exclusively:
// not here (the tables run Linux); OpenJournal warns that nothing stops a
// second daemon on the same journal.
const journalLockHeld = false

func lockFile(*os.File) error { return nil }
