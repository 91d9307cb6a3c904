// Package wait is the tests' one way to wait for something another
// goroutine or process does: poll a condition until it holds or a generous
// deadline passes, and fail with what was awaited.
package wait

import (
	"testing"
	"time"
)

// Timeout is how long Until waits: long enough for a loaded 2-core CI
// machine, so a test never fails on a slow moment, only on a condition
// that does not come.
const Timeout = 60 * time.Second

// Until polls cond every few milliseconds until it is true; after Timeout
// it fails t with what.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !For(Timeout, cond) {
		t.Fatalf("timed out after %v waiting for %s", Timeout, what)
	}
}

// For polls cond until it is true (true) or d has passed (false).
func For(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(pause)
	}
}
