package testclock

import (
	"sync"
	"testing"
	"time"
)

// Moves add up, and readers on other goroutines see a time between the
// start and the end (run with -race).
func TestAddWhileRead(t *testing.T) {
	start := time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)
	c := New(start)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 100 {
			if n := c.Now(); n.Before(start) || n.After(start.Add(100*time.Second)) {
				t.Errorf("read %v", n)
			}
		}
	}()
	for range 100 {
		c.Add(time.Second)
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(start.Add(100 * time.Second)) {
		t.Errorf("after 100 moves of a second: %v", got)
	}
	if got := c.Add(-time.Minute); !got.Equal(start.Add(40 * time.Second)) {
		t.Errorf("Add returns %v", got)
	}
}
