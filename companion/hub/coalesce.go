package hub

import (
	"sync"
	"time"
)

// DefaultWallEvery is how often at most the wall is sent to its pages when
// tables change faster than that (Options.WallEvery).
const DefaultWallEvery = 100 * time.Millisecond

// coalescer publishes the wall at most once per every. The first change
// after a quiet spell is published at once, in the caller's goroutine;
// changes during the spell wait for its end and go out together in one
// publication, which reads the hub's state then, so it has every one of
// them. A venue of 100 tables at 10 updates a second would otherwise
// re-marshal the whole wall and push it to every spectator's stream 1,000
// times a second. every ≤ 0 publishes every change.
type coalescer struct {
	every time.Duration

	mu      sync.Mutex
	last    time.Time // the latest publication started
	pending bool      // a publication is scheduled for the spell's end

	// out serialises publications, so that a wall built earlier is never
	// handed to the pages after one built later.
	out sync.Mutex
}

// request asks for a publication of the state as it is now or later.
func (c *coalescer) request(publish func()) {
	if c.every > 0 {
		c.mu.Lock()
		if c.pending {
			c.mu.Unlock()
			return // the scheduled publication reads the state after this change
		}
		now := time.Now()
		if wait := c.last.Add(c.every).Sub(now); wait > 0 {
			c.pending = true
			c.mu.Unlock()
			time.AfterFunc(wait, func() {
				c.mu.Lock()
				c.pending, c.last = false, time.Now()
				c.mu.Unlock()
				c.run(publish)
			})
			return
		}
		c.last = now
		c.mu.Unlock()
	}
	c.run(publish)
}

func (c *coalescer) run(publish func()) {
	c.out.Lock()
	defer c.out.Unlock()
	publish()
}
