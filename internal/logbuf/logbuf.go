// Package logbuf is a log the tests read while the code under test writes
// it from its own goroutines.
package logbuf

import (
	"strings"
	"sync"
)

// Buffer is an io.Writer safe for concurrent use; String is what was
// written so far.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
