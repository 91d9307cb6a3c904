package companion

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sztab/sztab/companion/wire"
)

// commandLimits bound what one sender of commands (the referee, a player's
// seat) can make the table do and write.
type commandLimits struct {
	// queue is how many of one sender's commands may wait for the table;
	// one more is refused "busy".
	queue int
	// burst commands at once, then one every every (the referee's own
	// rate: refereeBurst, refereeEvery); one over the rate is refused
	// "slow_down".
	burst, refereeBurst int
	every, refereeEvery time.Duration
	// recorded is how many refused commands of one sender are journaled,
	// logged and answered in each window; the rest are counted, and the
	// count is journaled and logged once when the window ends.
	recorded int
	window   time.Duration
	// slowDownEvery: a sender over its rate past its recorded refusals is
	// still told "slow down", once per slowDownEvery at most.
	slowDownEvery time.Duration
	// senders is how many senders are told apart; more share one queue.
	senders int
}

var defaultCommandLimits = commandLimits{
	queue:         64,
	burst:         20,
	every:         250 * time.Millisecond,
	refereeBurst:  60,
	refereeEvery:  50 * time.Millisecond,
	recorded:      10,
	window:        time.Minute,
	slowDownEvery: time.Second,
	senders:       64,
}

// queuedCommand is one item of a sender's queue: an MQTT command, a page's
// command (parsed), a refusal decided on receipt to record, or the count
// of refusals a window left unrecorded.
type queuedCommand struct {
	msg     *Message
	in      *Input
	refusal *receiptRefusal
	unrec   *unrecorded
}

// receiptRefusal is a command refused before it was queued (over its
// sender's rate, or its queue full).
type receiptRefusal struct {
	to    wire.Audience
	topic string // the MQTT topic ("" from a page)
	id    string
	code  string
	msg   Message // what was sent (MQTT), for the journal
	// waiting is how many of the sender's commands waited.
	waiting int
}

// unrecorded is what a window left out of the journal for one sender.
type unrecorded struct {
	to      wire.Audience
	byCode  map[string]int
	total   int
	started time.Time
}

// senderQueue is one sender's waiting commands, rate and refusals.
type senderQueue struct {
	to     wire.Audience
	items  []queuedCommand
	tokens float64
	at     time.Time // when tokens were counted
	// The refusals of the current window: recorded, and those that were
	// not, by code.
	window     time.Time
	recorded   int
	unrecorded map[string]int
	// lastSlowDown is when the sender was last told to slow down; last
	// when it last sent anything.
	lastSlowDown, last time.Time
}

// commandQueue holds the commands waiting for the table, one queue per
// sender, and hands them to the table's loop fairly: the referee's first,
// then the players' in turn, one command each. Everyone pushes from their
// own goroutine (the MQTT client's, the screens' handlers); only the loop
// pops.
type commandQueue struct {
	limits commandLimits
	clock  func() time.Time

	mu      sync.Mutex
	senders map[string]*senderQueue
	turn    []string // players' keys with commands waiting, next first
	waiting int
	// kick has a token while a command waits.
	kick chan struct{}
}

func newCommandQueue(l commandLimits, clock func() time.Time) *commandQueue {
	return &commandQueue{limits: l, clock: clock, senders: map[string]*senderQueue{}, kick: make(chan struct{}, 1)}
}

// sender finds (or makes) to's queue, with q.mu held.
func (q *commandQueue) sender(to wire.Audience) (string, *senderQueue) {
	key := string(to)
	if s, ok := q.senders[key]; ok {
		return key, s
	}
	if len(q.senders) >= q.limits.senders {
		// Past the cap (seats nobody sits at, tried one after another),
		// the newcomers share one queue and one rate.
		key = "others"
		if s, ok := q.senders[key]; ok {
			return key, s
		}
	}
	burst := q.limits.burst
	if to == wire.Referee {
		burst = q.limits.refereeBurst
	}
	s := &senderQueue{to: to, tokens: float64(burst), at: q.clock(), unrecorded: map[string]int{}}
	q.senders[key] = s
	return key, s
}

// take spends one of s's tokens, refilled at its rate; false when there
// is none.
func (q *commandQueue) take(s *senderQueue, now time.Time) bool {
	burst, every := q.limits.burst, q.limits.every
	if s.to == wire.Referee {
		burst, every = q.limits.refereeBurst, q.limits.refereeEvery
	}
	if d := now.Sub(s.at); d > 0 {
		s.tokens = min(float64(burst), s.tokens+float64(d)/float64(every))
		s.at = now
	}
	if s.tokens < 1 {
		return false
	}
	s.tokens--
	return true
}

// verdict is what push decided about a command.
type verdict struct {
	// code is "" when the command is queued, else why not: "slow_down",
	// "busy".
	code string
	// answer says the caller should answer the refusal itself: it is not
	// recorded (past the window's allowance) but the sender may still be
	// told, within slowDownEvery.
	answer bool
	// waiting is how many of the sender's commands wait.
	waiting int
}

// push queues c for its sender to, if the sender is within its rate and
// its queue has room. A refusal is queued for the table to record
// (journal, log, answer) while the sender's window allows.
func (q *commandQueue) push(to wire.Audience, c queuedCommand, refused receiptRefusal) verdict {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock()
	key, s := q.sender(to)
	s.last = now
	v := verdict{waiting: len(s.items)}
	switch {
	case !q.take(s, now):
		v.code = "slow_down"
	case len(s.items) >= q.limits.queue:
		v.code = "busy"
	default:
		q.add(key, s, c)
		return v
	}
	refused.code, refused.waiting = v.code, v.waiting
	if q.record(key, s, now, v.code) {
		q.add(key, s, queuedCommand{refusal: &refused})
		s.lastSlowDown = now
		return v
	}
	if now.Sub(s.lastSlowDown) >= q.limits.slowDownEvery {
		s.lastSlowDown = now
		v.answer = true
	}
	return v
}

// refused counts a refusal the table decided (a garbled or retained
// command) against to's window: true if it is to be recorded.
func (q *commandQueue) refused(to wire.Audience, code string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	key, s := q.sender(to)
	return q.record(key, s, q.clock(), code)
}

// record counts a refusal in s's window (with q.mu held): true while
// the window allows one more to be recorded. A window that has ended
// with refusals left unrecorded queues their count for the journal.
func (q *commandQueue) record(key string, s *senderQueue, now time.Time, code string) bool {
	q.roll(key, s, now)
	if s.recorded < q.limits.recorded {
		s.recorded++
		return true
	}
	s.unrecorded[code]++
	return false
}

// roll starts a new window for s once its window has passed (with q.mu
// held), queuing what the old one left unrecorded.
func (q *commandQueue) roll(key string, s *senderQueue, now time.Time) {
	if !s.window.IsZero() && now.Sub(s.window) < q.limits.window {
		return
	}
	if n := total(s.unrecorded); n > 0 {
		q.add(key, s, queuedCommand{unrec: &unrecorded{to: s.to, byCode: s.unrecorded, total: n, started: s.window}})
		s.unrecorded = map[string]int{}
	}
	s.window, s.recorded = now, 0
}

// flush rolls every sender's window that has passed (the table's loop
// calls it now and then, so that the count of a flood that stopped is
// recorded too).
func (q *commandQueue) flush() {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock()
	for key, s := range q.senders {
		q.roll(key, s, now)
		if len(s.items) == 0 && total(s.unrecorded) == 0 && now.Sub(s.last) >= q.limits.window {
			// Quiet for a window: its rate is whole again (a burst
			// refills in seconds) and nothing of it is left to record.
			delete(q.senders, key)
		}
	}
}

// takeUnrecorded ends every sender's window (the table is stopping) and
// returns what they left unrecorded, queued or not yet.
func (q *commandQueue) takeUnrecorded() []*unrecorded {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []*unrecorded
	for _, s := range q.senders {
		for _, c := range s.items {
			if c.unrec != nil {
				out = append(out, c.unrec)
			}
		}
		if n := total(s.unrecorded); n > 0 {
			out = append(out, &unrecorded{to: s.to, byCode: s.unrecorded, total: n, started: s.window})
			s.unrecorded = map[string]int{}
		}
	}
	return out
}

func total(m map[string]int) (n int) {
	for _, v := range m {
		n += v
	}
	return n
}

// add appends c to s's queue (with q.mu held) and wakes the loop.
func (q *commandQueue) add(key string, s *senderQueue, c queuedCommand) {
	if len(s.items) == 0 && key != string(wire.Referee) {
		q.turn = append(q.turn, key)
	}
	s.items = append(s.items, c)
	q.waiting++
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// pop takes the next command: the referee's first, then each player's in
// turn. ok is false when none waits.
func (q *commandQueue) pop() (c queuedCommand, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	defer func() {
		if q.waiting > 0 {
			select {
			case q.kick <- struct{}{}:
			default:
			}
		}
	}()
	if s := q.senders[string(wire.Referee)]; s != nil && len(s.items) > 0 {
		return q.shift(s), true
	}
	for len(q.turn) > 0 {
		key := q.turn[0]
		q.turn = q.turn[1:]
		s := q.senders[key]
		if s == nil || len(s.items) == 0 {
			continue
		}
		c := q.shift(s)
		if len(s.items) > 0 {
			q.turn = append(q.turn, key) // its next waits for everyone else's
		}
		return c, true
	}
	return queuedCommand{}, false
}

func (q *commandQueue) shift(s *senderQueue) queuedCommand {
	c := s.items[0]
	s.items[0] = queuedCommand{}
	s.items = s.items[1:]
	q.waiting--
	return c
}

// Waiting is how many commands wait, all senders together.
func (q *commandQueue) Waiting() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waiting
}

// describe is an unrecorded count in words: "garbled 1200, slow_down 18000".
func (u *unrecorded) describe() string {
	codes := make([]string, 0, len(u.byCode))
	for c := range u.byCode {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%s %d", c, u.byCode[c])
	}
	return strings.Join(parts, ", ")
}
