package display

import (
	"sync"
	"time"
)

// Backoff is the brake on password guessing: it counts failed sign-ins per
// user and per address, and after Free failures in a row locks the key out,
// First at first, doubling with each further failure up to Max. A success
// forgets both keys; a key quiet for Forget after its last failure starts
// afresh. It tracks at most MaxKeys keys, dropping the one with the fewest
// failures when full. The zero value is ready to use; it is safe for concurrent use
// (the screens' sign-in and the broker's CONNECT check may share one).
type Backoff struct {
	// Free is how many failures in a row are allowed before the first
	// lock-out (default 5).
	Free int
	// First is the first lock-out (default 1s); Max caps it (default 5m).
	First, Max time.Duration
	// Forget is how long after its last failure a key is dropped (default 1h).
	Forget time.Duration
	// MaxKeys caps the keys tracked (default 4096).
	MaxKeys int
	// Clock tells the time; nil is time.Now.
	Clock func() time.Time

	mu   sync.Mutex
	keys map[string]*backoffKey
}

type backoffKey struct {
	fails int
	last  time.Time // of the last failure
	until time.Time // locked out until
}

// Backoff's defaults.
const (
	DefaultBackoffFree    = 5
	DefaultBackoffFirst   = time.Second
	DefaultBackoffMax     = 5 * time.Minute
	DefaultBackoffForget  = time.Hour
	DefaultBackoffMaxKeys = 4096
	// maxKeyLen bounds what one key costs, whatever a client sends as a user.
	maxKeyLen = 128
)

func (b *Backoff) init() {
	if b.keys == nil {
		b.keys = map[string]*backoffKey{}
	}
	if b.Free <= 0 {
		b.Free = DefaultBackoffFree
	}
	if b.First <= 0 {
		b.First = DefaultBackoffFirst
	}
	if b.Max <= 0 {
		b.Max = DefaultBackoffMax
	}
	if b.Forget <= 0 {
		b.Forget = DefaultBackoffForget
	}
	if b.MaxKeys <= 0 {
		b.MaxKeys = DefaultBackoffMaxKeys
	}
}

func (b *Backoff) now() time.Time {
	if b.Clock != nil {
		return b.Clock()
	}
	return time.Now()
}

func backoffKeys(user, addr string) [2]string {
	if len(user) > maxKeyLen {
		user = user[:maxKeyLen]
	}
	if len(addr) > maxKeyLen {
		addr = addr[:maxKeyLen]
	}
	return [2]string{"user\x00" + user, "addr\x00" + addr}
}

// Allow says whether user may try a password from addr now; when not, wait
// is how long until they may. A refused attempt counts as nothing: check
// no password for it.
func (b *Backoff) Allow(user, addr string) (ok bool, wait time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	now := b.now()
	for _, k := range backoffKeys(user, addr) {
		e := b.keys[k]
		if e == nil {
			continue
		}
		if now.Sub(e.last) >= b.Forget {
			delete(b.keys, k)
			continue
		}
		if d := e.until.Sub(now); d > wait {
			wait = d
		}
	}
	return wait <= 0, wait
}

// Fail records a wrong password for user from addr and returns the
// lock-out it starts (0: none yet).
func (b *Backoff) Fail(user, addr string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	now := b.now()
	var lock time.Duration
	for _, k := range backoffKeys(user, addr) {
		e := b.keys[k]
		if e != nil && now.Sub(e.last) >= b.Forget {
			e = nil
		}
		if e == nil {
			b.makeRoom(now)
			e = &backoffKey{}
			b.keys[k] = e
		}
		e.fails++
		e.last = now
		if e.fails >= b.Free {
			d := b.Max
			if n := e.fails - b.Free; n < 32 && b.First<<n < b.Max && b.First<<n > 0 {
				d = b.First << n
			}
			if until := now.Add(d); until.After(e.until) {
				e.until = until
			}
			lock = max(lock, e.until.Sub(now))
		}
	}
	return lock
}

// Succeed forgets the failures of user and of addr.
func (b *Backoff) Succeed(user, addr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, k := range backoffKeys(user, addr) {
		delete(b.keys, k)
	}
}

// Len is the number of keys tracked.
func (b *Backoff) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.keys)
}

// makeRoom keeps the map under MaxKeys: forgotten keys go first, then the
// key with the fewest failures (the oldest of those), so that a flood of
// one-off names cannot push out a key that is locked out.
func (b *Backoff) makeRoom(now time.Time) {
	if len(b.keys) < b.MaxKeys {
		return
	}
	var victim *backoffKey
	var name string
	for k, e := range b.keys {
		switch {
		case now.Sub(e.last) >= b.Forget:
			delete(b.keys, k)
		case victim == nil || e.fails < victim.fails || (e.fails == victim.fails && e.last.Before(victim.last)):
			victim, name = e, k
		}
	}
	if len(b.keys) >= b.MaxKeys {
		delete(b.keys, name)
	}
}
