// Package display serves the table's screens: the public table screen, the
// referee's view and each player's view, kept live over Server-Sent Events.
// It renders nothing itself: pages are static assets embedded in the binary
// that draw the JSON views the daemon hands to a Feed.
package display

import (
	"sync"

	"github.com/sztab/sztab/companion/wire"
)

// Audience is who a view or event is for: "public", "referee" or
// "player/N".
type Audience = wire.Audience

const (
	Public  = wire.Public
	Referee = wire.Referee
)

// PlayerAudience is the audience of the player in seat.
func PlayerAudience(seat int) Audience { return wire.Player(seat) }

// Message is one SSE message: Kind is "state", "event", "meta" or
// "catalogue".
type Message struct {
	Kind string
	Data []byte
}

const keepEvents = 60

// Feed holds the latest view per audience and the recent events, and fans
// them out to connected pages. A page that connects late gets the current
// view and the recent events at once.
type Feed struct {
	mu   sync.Mutex
	meta []byte
	// catalogue is the game's catalogue, sent once per connection.
	catalogue []byte
	views     map[Audience][]byte
	events    map[Audience][][]byte
	subs      map[chan Message]Audience
}

// NewFeed returns an empty feed.
func NewFeed() *Feed {
	return &Feed{views: map[Audience][]byte{}, events: map[Audience][][]byte{}, subs: map[chan Message]Audience{}}
}

// SetMeta sets what every page needs to know about the table (venue, table,
// game, language, seats), sent first on every connection.
func (f *Feed) SetMeta(data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.meta = data
	for ch := range f.subs {
		send(ch, Message{Kind: "meta", Data: data})
	}
}

// SetCatalogue sets the game's catalogue (wire.CatalogueMessage), sent on
// every connection after the meta and before the state, and to the pages
// connected now: a state names what the catalogue holds by id.
func (f *Feed) SetCatalogue(data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.catalogue = data
	for ch := range f.subs {
		send(ch, Message{Kind: "catalogue", Data: data})
	}
}

// SetState replaces the view of an audience and sends it to its pages.
func (f *Feed) SetState(a Audience, data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.views[a] = data
	for ch, sub := range f.subs {
		if sub == a {
			send(ch, Message{Kind: "state", Data: data})
		}
	}
}

// AddEvent sends an event to the pages of audience a. Public events reach
// every page; referee events only the referee's.
func (f *Feed) AddEvent(a Audience, data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ev := append(f.events[a], data)
	if len(ev) > keepEvents {
		ev = ev[len(ev)-keepEvents:]
	}
	f.events[a] = ev
	for ch, sub := range f.subs {
		if a == Public || sub == a {
			send(ch, Message{Kind: "event", Data: data})
		}
	}
}

// Notify sends an event to the live pages of audience a (every page for a
// public one) without keeping it for pages that connect later: an answer
// to a command matters to the page that sent it, now.
func (f *Feed) Notify(a Audience, data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch, sub := range f.subs {
		if a == Public || sub == a {
			send(ch, Message{Kind: "event", Data: data})
		}
	}
}

// send never blocks the daemon: a page too slow to keep up loses messages
// and is closed by its handler, and the browser reconnects for a fresh view.
func send(ch chan Message, m Message) {
	select {
	case ch <- m:
	default:
		select {
		case <-ch:
		default:
		}
		select {
		case ch <- Message{Kind: "overflow"}:
		default:
		}
	}
}

// Subscribe registers a page of audience a. It returns what the page must
// see first (meta, the current view, recent events) and the live channel;
// cancel unregisters it.
func (f *Feed) Subscribe(a Audience) (first []Message, live <-chan Message, cancel func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.meta != nil {
		first = append(first, Message{Kind: "meta", Data: f.meta})
	}
	if f.catalogue != nil {
		first = append(first, Message{Kind: "catalogue", Data: f.catalogue})
	}
	if v, ok := f.views[a]; ok {
		first = append(first, Message{Kind: "state", Data: v})
	}
	for _, e := range f.recent(a) {
		first = append(first, Message{Kind: "event", Data: e})
	}
	ch := make(chan Message, 256)
	f.subs[ch] = a
	return first, ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.subs, ch)
	}
}

// recent merges the public events and a's own, oldest first. Each list is
// already in order; the merge keeps the public ones first when a page of a
// private audience connects, which is enough for a log.
func (f *Feed) recent(a Audience) [][]byte {
	out := append([][]byte(nil), f.events[Public]...)
	if a != Public {
		out = append(out, f.events[a]...)
	}
	return out
}

// View returns the current view of an audience, if any.
func (f *Feed) View(a Audience) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.views[a]
	return v, ok
}

// Subscribers is how many pages follow the feed live (SSE clients).
func (f *Feed) Subscribers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}

// Pending is how many messages wait in the pages' queues, all together.
func (f *Feed) Pending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for ch := range f.subs {
		n += len(ch)
	}
	return n
}
