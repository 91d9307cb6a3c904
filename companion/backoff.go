package companion

import (
	"net"
	"sync"
	"time"
)

// brake slows down password guessing. After free failures for a key (a
// user name, an address), every attempt for that key is refused, without
// checking its password, until a lock has passed; each failure after the
// lock doubles it, from base up to max. A key with no failure for forget is
// forgotten. A success does not clear a key: an attacker who knows one
// password (a player's) must not be able to reset the count of an address
// between guesses at another (the referee's).
//
// At most keys keys are kept; when a new one comes in full, the key whose
// last failure is oldest is dropped, so a flood of addresses costs bounded
// memory (and at worst forgets the oldest lock).
type brake struct {
	free   int
	base   time.Duration
	max    time.Duration
	forget time.Duration
	keys   int

	mu   sync.Mutex
	seen map[string]*brakeEntry
}

type brakeEntry struct {
	failures int
	until    time.Time // attempts before this are refused unchecked
	last     time.Time // the last failure
}

func newBrake(free int, base, max, forget time.Duration, keys int) *brake {
	return &brake{free: free, base: base, max: max, forget: forget, keys: keys, seen: map[string]*brakeEntry{}}
}

// entry returns key's entry, nil if none or forgotten by now.
func (b *brake) entry(key string, now time.Time) *brakeEntry {
	e := b.seen[key]
	if e != nil && now.Sub(e.last) > b.forget {
		delete(b.seen, key)
		return nil
	}
	return e
}

// Locked says whether key is refused unchecked at now, and until when.
func (b *brake) Locked(key string, now time.Time) (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e := b.entry(key, now); e != nil && now.Before(e.until) {
		return e.until, true
	}
	return time.Time{}, false
}

// Fail counts a failure for key at now. It returns the end of the lock
// this failure starts, or the zero time while key has failures to spare.
func (b *brake) Fail(key string, now time.Time) time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entry(key, now)
	if e == nil {
		if len(b.seen) >= b.keys {
			b.evict(now)
		}
		e = &brakeEntry{}
		b.seen[key] = e
	}
	e.failures++
	e.last = now
	if e.failures <= b.free {
		return time.Time{}
	}
	lock := b.max
	if over := e.failures - b.free - 1; over < 32 && b.base<<over < b.max {
		lock = b.base << over
	}
	e.until = now.Add(lock)
	return e.until
}

// evict drops forgotten keys, or else the one whose last failure is oldest.
func (b *brake) evict(now time.Time) {
	var oldest string
	var first *brakeEntry
	for k, e := range b.seen {
		if now.Sub(e.last) > b.forget {
			delete(b.seen, k)
			continue
		}
		if first == nil || e.last.Before(first.last) {
			oldest, first = k, e
		}
	}
	if len(b.seen) >= b.keys {
		delete(b.seen, oldest)
	}
}

// Len is the number of keys kept.
func (b *brake) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.seen)
}

// addressKey is the part of a remote address ("ip:port") a brake counts
// by: the IP, or for IPv6 its /64, which one machine usually holds whole.
func addressKey(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}
