package display

import (
	"sync"
	"time"
)

// bucket is a token bucket: burst tokens at most, one more every every.
type bucket struct {
	tokens float64
	at     time.Time
}

func (b *bucket) refill(now time.Time, every time.Duration, burst int) {
	if b.at.IsZero() {
		b.tokens, b.at = float64(burst), now
		return
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(float64(burst), b.tokens+float64(d)/float64(every))
		b.at = now
	}
}

// rateLimit lets each address and all of them together do something at a
// bounded rate (token buckets), remembering at most maxKeys addresses.
type rateLimit struct {
	every, globalEvery time.Duration
	burst, globalBurst int
	maxKeys            int

	mu      sync.Mutex
	per     map[string]*bucket
	global  bucket
	dropped int
}

// allow takes a token for addr and one from the global bucket. When it
// refuses, the refusal is counted; dropped returns and resets the count.
func (l *rateLimit) allow(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.per == nil {
		l.per = map[string]*bucket{}
	}
	b := l.per[addr]
	if b == nil {
		if len(l.per) >= l.maxKeys {
			// A full bucket is the same as none: forget those.
			for k, o := range l.per {
				if o.refill(now, l.every, l.burst); o.tokens >= float64(l.burst) {
					delete(l.per, k)
				}
			}
		}
		if len(l.per) >= l.maxKeys {
			l.dropped++
			return false
		}
		b = &bucket{}
		l.per[addr] = b
	}
	b.refill(now, l.every, l.burst)
	l.global.refill(now, l.globalEvery, l.globalBurst)
	if b.tokens < 1 || l.global.tokens < 1 {
		l.dropped++
		return false
	}
	b.tokens--
	l.global.tokens--
	return true
}

func (l *rateLimit) takeDropped() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.dropped
	l.dropped = 0
	return n
}
