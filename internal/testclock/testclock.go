// Package testclock is a clock a test moves by hand while the code under
// test reads it from its own goroutines.
package testclock

import (
	"sync"
	"time"
)

// Clock is a time that moves only when the test says; safe for concurrent
// use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New is a clock at t.
func New(t time.Time) *Clock { return &Clock{now: t} }

// Now is the clock's time (a func() time.Time for the code under test).
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock on by d and returns the new time.
func (c *Clock) Add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}
