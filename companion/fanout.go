package companion

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
)

// Publication is what one step of the table changed, handed to every sink
// after the journal commit.
type Publication struct {
	// Seq is the journal entry this publication follows (0: none).
	Seq int64
	// Views are the new views (wire.StateMessage) of these audiences.
	Views map[wire.Audience][]byte
	// Fairness is the new wire.FairnessMessage, when the watch changed.
	Fairness []byte
	// Events are the entry's events (wire.EventMessage), in order.
	Events []Outgoing
	// Results are the answers to commands, each to its sender's audience.
	Results []Outgoing
	// Loose are events in no journal entry (a fairness warning, a journal
	// that failed), each to its audience.
	Loose []Outgoing
	// Image is a new annotated table image (JPEG).
	Image []byte
	// Refused: the table refused something (the illegal-action lights).
	Refused bool
	// Status and Scoreboard are for the table's own lights and displays.
	Status     *hardware.Status
	Scoreboard *hardware.Scoreboard
	// Catalogue is the game's wire.CatalogueMessage (retained on
	// .../catalogue), when it changed: at the start and when a ruling
	// opened the game anew.
	Catalogue []byte
	// Result is the table's wire.ResultMessage (retained on .../result),
	// when it changed: an empty one clears it.
	Result []byte
	// Committed is when the views were ready after the journal commit (for
	// Options.Trace).
	Committed time.Time
}

// Outgoing is one encoded message for an audience.
type Outgoing struct {
	Audience wire.Audience
	Data     []byte
}

// Sink takes the table's publications. Send must not block the table: a
// sink queues, drops what a later publication replaces, and catches up by
// itself.
type Sink interface {
	Send(Publication)
}

// fanOut sends each publication to every sink; a sink may be added while
// others send (the table's lights join when the hardware opens).
type fanOut struct {
	mu      sync.RWMutex
	sinks   []namedSink
	metrics *metrics
}

type namedSink struct {
	name string
	Sink
}

// add adds a sink under a name (its label in the metrics).
func (f *fanOut) add(name string, s Sink) {
	f.mu.Lock()
	f.sinks = append(f.sinks, namedSink{name, s})
	f.mu.Unlock()
}

// Send hands p to every sink. A sink that delivers as it takes p (the
// screens' feed, the table's lights) has delivered when Send returns; the
// MQTT sink, which queues, measures its own lag at the broker's
// acknowledgement.
func (f *fanOut) Send(p Publication) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for _, s := range f.sinks {
		s.Send(p)
		if _, queues := s.Sink.(queuing); !queues && p.Views != nil {
			f.metrics.delivered(s.name, p.Committed)
		}
	}
}

// queuing is a sink that sends from a goroutine of its own: it measures
// its own delivery (or, for the live copies, none).
type queuing interface{ queues() }

func (*mqttSink) queues() {}
func (*liveSink) queues() {}

// feedSink hands publications to the screens' feed, which keeps them in
// memory and never waits for a page.
type feedSink struct{ feed *display.Feed }

func (s feedSink) Send(p Publication) {
	if p.Catalogue != nil {
		s.feed.SetCatalogue(p.Catalogue)
	}
	for a, v := range p.Views {
		s.feed.SetState(a, v)
	}
	for _, e := range p.Events {
		s.feed.AddEvent(e.Audience, e.Data)
	}
	for _, e := range p.Loose {
		s.feed.AddEvent(e.Audience, e.Data)
	}
	for _, e := range p.Results {
		s.feed.Notify(e.Audience, e.Data)
	}
}

// outputsSink shows the table's state on its own LEDs and displays.
type outputsSink struct {
	out hardware.Outputs
	log *slog.Logger
}

func (s outputsSink) Send(p Publication) {
	if p.Refused {
		if err := s.out.Illegal(); err != nil {
			s.log.Warn("illegal-action lights", "err", err)
		}
	}
	if p.Status != nil {
		if err := s.out.Status(*p.Status); err != nil {
			s.log.Warn("status LEDs", "err", err)
		}
	}
	if p.Scoreboard != nil {
		if err := s.out.Scoreboard(*p.Scoreboard); err != nil {
			s.log.Warn("score display", "err", err)
		}
	}
}

// mqttSink publishes to the broker from its own goroutine. It keeps the
// latest retained message per topic (status, views, fairness, image) and
// reads the events to publish from the journal, from the last entry the
// broker acknowledged: so a broker outage costs no memory and loses no
// event, and after every (re)connect the broker gets the current retained
// state and every event it missed, with the time it was journaled.
type mqttSink struct {
	pub     *Publisher // set once, before run
	topics  wire.Topics
	journal *Journal
	log     *slog.Logger
	// retry is the pause after a failed publish.
	retry   time.Duration
	trace   func(stage string, took time.Duration)
	metrics *metrics
	// sentHigh is the last journal entry whose events were sent (the
	// sink's goroutine only): sending one at or below it again is a
	// republication. It starts at the journal's last entry at start.
	sentHigh int64
	// acked mirrors through for the queue-depth gauge (-1: not read yet).
	acked atomic.Int64
	// connects counts the broker connections (reconnected runs on each,
	// once the broker has confirmed the table's subscriptions). Nothing is
	// published before the first: a screen that answers the first state
	// at once must find the table listening for its command.
	connects atomic.Int64

	mu sync.Mutex
	// status renders the retained status with the journal's head, head
	// is that head's seq, statusHead the one in the status last set.
	status     func() []byte
	head       func() int64
	statusHead int64
	retained   map[string][]byte
	dirty      map[string]bool
	order      []string // retained topics in first-seen order (status first)
	results    []result
	dropped    int
	// committed is when the oldest retained view not yet published was
	// ready, for the "publish" trace.
	committed time.Time
	// through is the last journal entry whose events the broker has
	// acknowledged, saved is the one written to the journal; markRead says
	// through was read from the journal (the sink's goroutine only).
	through, saved int64
	markRead       bool
	behind         bool // the journal has entries not yet published
	wake           chan struct{}
}

type result struct {
	topic string
	data  []byte
}

// maxResults bounds the answers waiting for the broker; older ones are
// dropped (their senders see the new state anyway).
const maxResults = 256

func newMQTTSink(topics wire.Topics, j *Journal, log *slog.Logger) *mqttSink {
	m := &mqttSink{topics: topics, journal: j, log: log, retry: time.Second,
		retained: map[string][]byte{}, dirty: map[string]bool{}, behind: true, wake: make(chan struct{}, 1)}
	m.acked.Store(-1) // the mark is not read yet
	return m
}

func (m *mqttSink) poke() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *mqttSink) setRetained(topic string, data []byte) {
	if _, ok := m.retained[topic]; !ok {
		m.order = append(m.order, topic)
	}
	m.retained[topic] = data
	m.dirty[topic] = true
}

// SetStatus sets the retained status.
func (m *mqttSink) SetStatus(data []byte) {
	m.mu.Lock()
	m.setRetained(m.topics.Status, data)
	m.mu.Unlock()
	m.poke()
}

// SetStatusFunc sets the retained status to status() now, and again each
// time head() (the journal's head seq, which the status names) has moved
// once the journal's events are published: the head a venue keeps is never
// behind the events it has.
func (m *mqttSink) SetStatusFunc(status func() []byte, head func() int64) {
	m.mu.Lock()
	m.status, m.head = status, head
	m.statusHead = head()
	m.setRetained(m.topics.Status, status())
	m.mu.Unlock()
	m.poke()
}

// headMoved sets the status again if the journal's head moved since it was
// last set; it says whether it did.
func (m *mqttSink) headMoved() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.status == nil {
		return false
	}
	if h := m.head(); h != m.statusHead {
		m.statusHead = h
		m.setRetained(m.topics.Status, m.status())
		return true
	}
	return false
}

func (m *mqttSink) Send(p Publication) {
	m.mu.Lock()
	if p.Catalogue != nil {
		m.setRetained(m.topics.Catalogue, p.Catalogue)
	}
	for a, v := range p.Views {
		m.setRetained(m.topics.StateFor(a), v)
	}
	if p.Fairness != nil {
		m.setRetained(m.topics.RefereeFairness, p.Fairness)
	}
	if p.Image != nil {
		m.setRetained(m.topics.Image, p.Image)
	}
	if p.Result != nil {
		m.setRetained(m.topics.Result, p.Result)
	}
	if p.Seq > 0 {
		m.behind = true
	}
	if !p.Committed.IsZero() && m.committed.IsZero() {
		m.committed = p.Committed
	}
	for _, r := range append(p.Loose, p.Results...) {
		if len(m.results) == maxResults {
			m.results = m.results[1:]
			m.dropped++
		}
		m.results = append(m.results, result{topic: m.topics.EventsFor(r.Audience), data: r.Data})
	}
	m.mu.Unlock()
	m.poke()
}

// depth is what waits for the broker: retained topics not yet published,
// answers, and journal entries up to seq not yet acknowledged.
func (m *mqttSink) depth(seq int64) int {
	m.mu.Lock()
	n := len(m.dirty) + len(m.results)
	m.mu.Unlock()
	if acked := m.acked.Load(); acked >= 0 && seq > acked {
		n += int(seq - acked)
	}
	return n
}

// reconnected republishes everything retained and every unpublished event.
func (m *mqttSink) reconnected() {
	if m.connects.Add(1) > 1 && m.metrics != nil {
		m.metrics.reconnects.Inc()
	}
	m.mu.Lock()
	for t := range m.retained {
		m.dirty[t] = true
	}
	m.behind = true
	m.mu.Unlock()
	m.poke()
}

// run publishes until ctx ends.
func (m *mqttSink) run(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	defer m.saveMark()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			m.saveMark()
			continue
		case <-m.wake:
		}
		if !m.pub.Connected() || m.connects.Load() == 0 {
			continue // the (re)connect wakes us
		}
		if err := m.flush(ctx); err != nil && ctx.Err() == nil {
			m.log.Warn("MQTT publish failed; retrying", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(m.retry):
				m.poke()
			}
		}
	}
}

// saveMark writes the published mark to the journal, at most once a second:
// after a crash at most a second's events are published twice (each with
// its id), and the journal's one connection is not taken from the table
// after every action.
func (m *mqttSink) saveMark() {
	if m.through <= m.saved {
		return
	}
	if err := m.journal.MarkPublished(context.Background(), m.through); err != nil {
		m.log.Warn("publish mark not saved", "err", err)
		return
	}
	m.saved = m.through
}

// flush publishes what is waiting: retained messages (the public state
// first), then the journal's unpublished events, then the answers; each
// group is sent at once and its acknowledgements awaited in order.
func (m *mqttSink) flush(ctx context.Context) error {
	m.mu.Lock()
	committed := m.committed
	m.committed = time.Time{}
	var topics []string
	var payloads [][]byte
	if m.dirty[m.topics.State] {
		topics, payloads = append(topics, m.topics.State), append(payloads, m.retained[m.topics.State])
		delete(m.dirty, m.topics.State)
	}
	for _, t := range m.order {
		if m.dirty[t] {
			topics = append(topics, t)
			payloads = append(payloads, m.retained[t])
			delete(m.dirty, t)
		}
	}
	m.mu.Unlock()
	sent := make([]Pending, len(topics))
	for i, t := range topics {
		sent[i] = m.pub.Start(t, payloads[i], true)
	}
	for i, t := range topics {
		if err := sent[i].Wait(); err != nil {
			m.mu.Lock()
			if m.committed.IsZero() {
				m.committed = committed
			}
			for _, rest := range topics[i:] {
				if _, newer := m.dirty[rest]; !newer {
					m.dirty[rest] = true
				}
			}
			m.mu.Unlock()
			return err
		}
		if t == m.topics.State && !committed.IsZero() {
			if m.trace != nil {
				m.trace("publish", time.Since(committed))
			}
			m.metrics.delivered("mqtt", committed)
		}
	}
	if err := m.publishJournal(ctx); err != nil {
		return err
	}
	if m.headMoved() {
		m.poke() // the status goes out with the next flush, first
	}
	m.mu.Lock()
	results := m.results
	m.results = nil
	if m.dropped > 0 {
		m.log.Warn("answers dropped while the broker was away", "count", m.dropped)
		m.dropped = 0
	}
	m.mu.Unlock()
	for start := 0; start < len(results); start += publishWindow {
		window := results[start:min(start+publishWindow, len(results))]
		pending := make([]Pending, len(window))
		for i, r := range window {
			pending[i] = m.pub.Start(r.topic, r.data, false)
		}
		for i := range window {
			if err := pending[i].Wait(); err != nil {
				m.mu.Lock()
				m.results = append(results[start+i:], m.results...)
				m.mu.Unlock()
				return err
			}
		}
	}
	return nil
}

// publishWindow is how many events are in flight to the broker at once.
const publishWindow = 32

// journalBatch is how many entries one read of the journal takes; the read
// is done before publishing so the journal is never held while the broker
// is slow.
const journalBatch = 256

// publishJournal publishes the events of entries after the published mark,
// in order, and moves the mark over each entry once all its events are
// acknowledged, so it never passes an entry that failed.
func (m *mqttSink) publishJournal(ctx context.Context) error {
	m.mu.Lock()
	behind := m.behind
	m.behind = false
	m.mu.Unlock()
	if !behind {
		return nil
	}
	if !m.markRead {
		through, err := m.journal.PublishedThrough(ctx)
		if err != nil {
			m.mu.Lock()
			m.behind = true
			m.mu.Unlock()
			return err
		}
		m.through, m.saved, m.markRead = through, through, true
		m.acked.Store(through)
	}
	for {
		var batch []Entry
		err := m.journal.Entries(ctx, m.through, func(e Entry) error {
			if len(batch) == journalBatch {
				return errBatchFull
			}
			batch = append(batch, e)
			return nil
		})
		if err != nil && err != errBatchFull {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		// Sent in windows: a subscriber gets at most a window's worth at
		// once, well under the broker's in-flight limit per client.
		for start := 0; start < len(batch); {
			type sentEntry struct {
				seq     int64
				again   bool // sent before: a republication
				pending []Pending
			}
			var sent []sentEntry
			n := 0
			for ; start < len(batch) && n < publishWindow; start++ {
				e := batch[start]
				msgs, err := journalEvents(e)
				if err != nil {
					m.log.Error("journal entry's events unreadable; skipped", "seq", e.Seq, "err", err)
				}
				se := sentEntry{seq: e.Seq, again: e.Seq <= m.sentHigh}
				m.sentHigh = max(m.sentHigh, e.Seq)
				for _, msg := range msgs {
					se.pending = append(se.pending, m.pub.Start(m.topics.Events, msg, false))
				}
				n += len(msgs)
				sent = append(sent, se)
			}
			for _, se := range sent {
				for _, p := range se.pending {
					if err := p.Wait(); err != nil {
						m.mu.Lock()
						m.behind = true
						m.mu.Unlock()
						return err
					}
				}
				m.through = se.seq
				m.acked.Store(se.seq)
				if m.metrics != nil {
					m.metrics.published.Add(float64(len(se.pending)))
					if se.again {
						m.metrics.republished.Add(float64(len(se.pending)))
					}
				}
			}
		}
		if len(batch) < journalBatch {
			return nil
		}
	}
}

var errBatchFull = fmt.Errorf("companion: batch full")

// journalEvents encodes a journal entry's events as the table published
// them when it journaled the entry.
func journalEvents(e Entry) ([][]byte, error) {
	// The evidence is the referee's record, never published.
	events, _, err := SplitEvidence(e.Events)
	if events == nil && err != nil {
		return nil, fmt.Errorf("companion: entry %d: events: %w", e.Seq, err)
	}
	out := make([][]byte, 0, len(events))
	for i, ev := range events {
		msg, err := json.Marshal(wire.EventMessage{ID: wire.EventID(e.Seq, i), Seq: e.Seq, Index: i, At: e.At.UTC(), Event: ev})
		if err != nil {
			return out, err
		}
		out = append(out, msg)
	}
	return out, nil
}
