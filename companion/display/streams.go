package display

import (
	"log/slog"
	"sync"
	"time"
)

// StreamLimits bound the live streams (/stream), each of which holds a
// connection for as long as its page is open. The signed-in roles (the
// referee, each player) have places of their own, outside the public ones,
// so that no crowd of public screens keeps them out; and the public
// streams together hold at most half of the connections (HTTPOptions'
// MaxConns), so that pages, sign-ins, /healthz and /readyz always find one.
// Zero values take the defaults.
type StreamLimits struct {
	// Public is how many streams without a sign-in are served at once
	// (default DefaultPublicStreams); one more is refused at once (503,
	// connection closed) and the page tries again.
	Public int
	// PerAddr is how many public streams one address holds at once
	// (default 8); its next one ends its oldest (a TV reconnecting after
	// the Wi-Fi dropped frees the place its dead stream held).
	PerAddr int
	// PerRole is how many streams one signed-in role holds at once
	// (default 8); its next one ends its oldest, so that a referee's
	// stale tabs never keep the referee out.
	PerRole int
	// Lifetime is how long a public stream lasts at most (default 10 min):
	// then the server ends it and the page reconnects within a second
	// with a fresh view. A stream whose client never reads holds its
	// place until its writes stall for sseWriteTimeout (its buffers full)
	// or, at the latest, until then.
	Lifetime time.Duration
}

// The defaults of StreamLimits.
const (
	DefaultPublicStreams  = DefaultMaxConns / 2
	DefaultStreamsPerAddr = 8
	DefaultStreamsPerRole = 8
	DefaultStreamLifetime = 10 * time.Minute
)

// PublicStreamsFor is the public streams' share of maxConns connections:
// half of them.
func PublicStreamsFor(maxConns int) int { return max(1, maxConns/2) }

func (l StreamLimits) withDefaults() StreamLimits {
	if l.Public <= 0 {
		l.Public = DefaultPublicStreams
	}
	if l.PerAddr <= 0 {
		l.PerAddr = DefaultStreamsPerAddr
	}
	if l.PerRole <= 0 {
		l.PerRole = DefaultStreamsPerRole
	}
	if l.Lifetime <= 0 {
		l.Lifetime = DefaultStreamLifetime
	}
	return l
}

// streamSlot is one stream's place; end is closed when a newer stream of
// the same address or role takes it.
type streamSlot struct {
	key    string // the address (public) or the role
	public bool
	end    chan struct{}
}

// streamSlots hands out the streams' places.
type streamSlots struct {
	limits StreamLimits
	log    *slog.Logger

	mu     sync.Mutex
	public int
	held   map[string][]*streamSlot // per address (public) or role, oldest first
	full   bool                     // logged that the public places are taken
	turned int                      // public streams refused since full was logged
}

func newStreamSlots(l StreamLimits, log *slog.Logger) *streamSlots {
	return &streamSlots{limits: l.withDefaults(), log: log, held: map[string][]*streamSlot{}}
}

// acquire takes a place for a stream of role (public: "" and addr). It
// returns nil when every public place is taken.
func (s *streamSlots) acquire(role Audience, addr string) *streamSlot {
	s.mu.Lock()
	defer s.mu.Unlock()
	slot := &streamSlot{key: "role " + string(role), end: make(chan struct{})}
	limit := s.limits.PerRole
	if role == "" {
		slot.key, slot.public, limit = "addr "+addr, true, s.limits.PerAddr
	}
	if own := s.held[slot.key]; len(own) >= limit {
		// The oldest of the same address or role gives its place up.
		s.drop(own[0])
		close(own[0].end)
	}
	if slot.public {
		if s.public >= s.limits.Public {
			s.turned++
			if !s.full {
				s.full = true
				s.log.Warn("display: every public stream place is taken; new public streams are refused", "max", s.limits.Public, "remote", addr)
			}
			return nil
		}
		s.public++
	}
	s.held[slot.key] = append(s.held[slot.key], slot)
	return slot
}

// drop frees slot's place (with s.mu held); a slot already dropped is
// not counted twice.
func (s *streamSlots) drop(slot *streamSlot) {
	own := s.held[slot.key]
	for i, o := range own {
		if o != slot {
			continue
		}
		if own = append(own[:i:i], own[i+1:]...); len(own) == 0 {
			delete(s.held, slot.key)
		} else {
			s.held[slot.key] = own
		}
		if slot.public {
			s.public--
		}
		return
	}
}

// release frees slot's place when its stream ends.
func (s *streamSlots) release(slot *streamSlot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop(slot)
	if s.full && s.public < s.limits.Public {
		s.full = false
		s.log.Info("display: public stream places free again", "max", s.limits.Public, "refused_meanwhile", s.turned)
		s.turned = 0
	}
}
