package hub

import (
	"sync"
	"time"
)

// DefaultWallEvery is how often at most the wall is sent to its pages when
// tables change faster than that (Options.WallEvery).
const DefaultWallEvery = 100 * time.Millisecond

// DefaultWallBandwidth is what the wall may send to all its pages together,
// in bytes a second (Options.WallBandwidth): 32 MiB/s, a quarter of a
// gigabit link. 100 tables make a wall of about 22 kB; 2,000 spectators
// then get it about every 1.3 s instead of ten times a second (440 MB/s,
// more than the hall's link and the machine can carry).
const DefaultWallBandwidth = 32 << 20

// coalescer publishes the wall at most once per every(). The first change
// after a quiet spell is published at once (in a goroutine of its own: the
// broker's messages are never held up by the wall's marshalling); changes
// during the spell wait for its end and go out together in one
// publication, which reads the hub's state then, so it has every one of
// them. A venue of 100 tables at 10 updates a second would otherwise
// re-marshal the whole wall and push it to every spectator's stream 1,000
// times a second. every() ≤ 0 publishes every change.
type coalescer struct {
	every func() time.Duration

	mu      sync.Mutex
	last    time.Time // the latest publication started
	pending bool      // a publication is scheduled for the spell's end

	// out serialises publications, so that a wall built earlier is never
	// handed to the pages after one built later (each reads the state when
	// it holds out).
	out sync.Mutex
}

// request asks for a publication of the state as it is now or later.
func (c *coalescer) request(publish func()) {
	c.mu.Lock()
	if c.pending {
		c.mu.Unlock()
		return // the scheduled publication reads the state after this change
	}
	// Asked only when no publication is scheduled: every() reads the
	// feed's pages, under the feed's lock.
	if every := c.every(); every > 0 {
		now := time.Now()
		if wait := c.last.Add(every).Sub(now); wait > 0 {
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
		go c.run(publish)
		return
	}
	c.mu.Unlock()
	c.run(publish)
}

func (c *coalescer) run(publish func()) {
	c.out.Lock()
	defer c.out.Unlock()
	publish()
}

// wallEvery is the hub's pacing of the wall: Options.WallEvery, or longer
// when the last wall sent to every page would exceed Options.WallBandwidth.
func (h *Hub) wallEvery() time.Duration {
	every := h.opts.WallEvery
	if every <= 0 || h.opts.WallBandwidth <= 0 {
		return every
	}
	bytes := float64(h.wallSize.Load()) * float64(h.feed.Subscribers())
	return max(every, time.Duration(bytes/float64(h.opts.WallBandwidth)*float64(time.Second)))
}
