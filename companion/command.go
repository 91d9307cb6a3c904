package companion

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
)

// receiveCommand queues a message from a command topic in its sender's
// queue. It runs on the MQTT client's goroutine, which must not wait for
// the table: a command over its sender's rate, or with its sender's queue
// full, is refused here (see commandQueue.push).
func (d *Daemon) receiveCommand(m Message) {
	if len(m.Payload) == 0 {
		return // a retained command being cleared
	}
	topic, _ := wire.ParseTopic(m.Topic)
	to, ok := topic.CommandAudience()
	if !ok {
		return // not a command topic: the subscriptions name no other
	}
	v := d.queue.push(to, queuedCommand{msg: &m}, receiptRefusal{to: to, topic: m.Topic, id: idOf(m.Payload), msg: m})
	if v.code == "" {
		return
	}
	d.metrics.refusedAction(v.code)
	if v.answer {
		// Past the recorded refusals: told, not journaled nor logged.
		// Answered from here, off the table's loop: the answer goes
		// through the fan-out, which is safe from any goroutine.
		d.table.answer(wire.CommandResult{Type: wire.ResultType, ID: idOf(m.Payload), From: string(to), Code: v.code, Seq: d.table.Seq(),
			Text: d.refusalText(v.code, to, v.waiting)}, to)
	}
}

// refusalText says why a command of to was refused on receipt.
func (d *Daemon) refusalText(code string, to wire.Audience, waiting int) rules.Text {
	if code == "busy" {
		return rules.Textf("stół jest zajęty (%d Twoich poleceń czeka); wyślij je jeszcze raz", "the table is busy (%d of your commands are waiting); send it again", waiting)
	}
	l := d.queue.limits
	burst, every := l.burst, l.every
	if to == wire.Referee {
		burst, every = l.refereeBurst, l.refereeEvery
	}
	return rules.Textf("zwolnij: za dużo poleceń naraz (najwyżej %d naraz, potem %d na sekundę); to polecenie nie zostało wykonane, wyślij je jeszcze raz za chwilę",
		"slow down: too many commands at once (%d at once at most, then %d a second); this one was not carried out, send it again in a moment",
		burst, int(time.Second/every))
}

// clearRetained clears a command topic on the broker (a command sent with
// retain would be delivered again at every start; MQTT 3.1.1 does not tell
// a live subscriber that it was retained, so the topic is cleared after
// each command the table takes from its queue). One clear per topic runs
// at a time, off the loop (the broker may be slow), and runs again when
// commands came meanwhile: a flood of commands makes no flood of clears.
func (d *Daemon) clearRetained(topic string) {
	d.clearMu.Lock()
	if d.clearing == nil {
		d.clearing = map[string]bool{}
	}
	if again, running := d.clearing[topic]; running {
		if !again {
			d.clearing[topic] = true
		}
		d.clearMu.Unlock()
		return
	}
	d.clearing[topic] = false
	d.clearMu.Unlock()
	go func() {
		for {
			if err := d.pub.Publish(topic, nil, true); err != nil {
				d.log.Warn("command topic not cleared", "topic", topic, "err", err)
			}
			d.clearMu.Lock()
			if !d.clearing[topic] {
				delete(d.clearing, topic)
				d.clearMu.Unlock()
				return
			}
			d.clearing[topic] = false
			d.clearMu.Unlock()
		}
	}()
}

// submitCommand queues a page's command in its sender's queue; it
// returns at once, with an error wrapping display.ErrSlowDown when the
// sender is over its rate, or a plain one when its queue is full.
func (d *Daemon) submitCommand(in Input) error {
	to := in.From.Audience
	v := d.queue.push(to, queuedCommand{in: &in}, receiptRefusal{to: to, id: in.From.ID})
	switch v.code {
	case "":
		return nil
	case "slow_down":
		d.metrics.refusedAction(v.code)
		return fmt.Errorf("companion: %s: %w", d.refusalText(v.code, to, v.waiting).EN, display.ErrSlowDown)
	default:
		d.metrics.refusedAction(v.code)
		return fmt.Errorf("companion: %s", d.refusalText(v.code, to, v.waiting).EN)
	}
}

// serveQueued carries out the next queued item, on the table's loop.
func (d *Daemon) serveQueued(ctx context.Context) {
	c, ok := d.queue.pop()
	if !ok {
		return
	}
	if d.opts.beforeHandle != nil {
		d.opts.beforeHandle()
	}
	switch {
	case c.msg != nil:
		d.clearRetained(c.msg.Topic)
		d.handleCommand(ctx, *c.msg)
	case c.in != nil:
		d.table.handle(ctx, *c.in)
	case c.refusal != nil:
		r := c.refusal
		text := d.refusalText(r.code, r.to, r.waiting)
		d.log.Warn("command refused", "sender", string(r.to), "topic", r.topic, "code", r.code, "reason", text.EN)
		var sent []byte
		if r.topic != "" {
			d.clearRetained(r.topic)
			sent = refusedMessage(r.msg)
		}
		d.table.notice(ctx, Notice{Type: wire.NoticeCommandRejected, Code: r.code, Topic: r.topic, Device: string(r.to), Text: text}, sent)
		d.table.answer(wire.CommandResult{Type: wire.ResultType, ID: r.id, From: string(r.to), Code: r.code, Text: text, Seq: d.table.Seq()}, r.to)
	case c.unrec != nil:
		d.recordUnrecorded(ctx, c.unrec)
	}
}

// recordUnrecorded journals and logs, once, how many of a sender's refused
// commands were past its allowance in a window.
func (d *Daemon) recordUnrecorded(ctx context.Context, u *unrecorded) {
	d.log.Warn("refused commands not recorded one by one", "sender", string(u.to), "count", u.total, "codes", u.describe(), "since", u.started.UTC().Format(time.RFC3339))
	d.table.notice(ctx, Notice{Type: wire.NoticeCommandsNotRecorded, Code: "flood", Device: string(u.to),
		Text: rules.Textf("%d kolejnych odrzuconych poleceń od %s nie zapisano osobno (%s)", "%d more refused commands from %s were not recorded one by one (%s)",
			u.total, u.to, u.describe())}, nil)
}

// handleCommand carries out an MQTT command (the referee's, or a player's
// for their seat) through the same path as the pages' buttons and the
// table's keys, and answers it on the sender's events topic. A command that
// cannot be read is refused with a notice (its payload journaled); one that
// arrives as a retained message is refused: it would run at every start.
// Refusals are recorded (journaled, logged, answered) up to the sender's
// allowance per window, then counted (commandQueue.refused).
func (d *Daemon) handleCommand(ctx context.Context, m Message) {
	topic, _ := wire.ParseTopic(m.Topic)
	to, ok := topic.CommandAudience()
	if !ok {
		return
	}
	from := Sender{Kind: wire.Ref, Audience: to}
	if to != wire.Referee {
		from.Kind = wire.Seat
	}
	refuse := func(code string, text rules.Text) {
		d.metrics.refusedAction(code)
		if !d.queue.refused(to, code) {
			return
		}
		d.log.Warn("command refused", "topic", m.Topic, "code", code, "reason", text.EN)
		d.table.notice(ctx, Notice{Type: wire.NoticeCommandRejected, Code: code, Topic: m.Topic, Text: text}, refusedMessage(m))
		d.table.answer(wire.CommandResult{Type: wire.ResultType, ID: idOf(m.Payload), OK: false, Code: code, Text: text, From: string(to), Seq: d.table.Seq()}, to)
	}
	if m.Retained {
		refuse("retained", rules.Text{PL: "polecenie wysłane jako zachowane (retain) nie zostaje wykonane: wykonywałoby się przy każdym starcie; wyślij je bez retain",
			EN: "a retained command is not carried out (it would run again at every start); send it without retain"})
		return
	}
	c, err := wire.ParseCommand(m.Payload, d.table.spec.Commands, from.Kind)
	if err != nil {
		refuse("garbled", rules.Text{PL: "nieczytelne polecenie na " + m.Topic + ": " + err.Error() + `; przykład: {"name":"next"}`,
			EN: "unreadable command on " + m.Topic + ": " + err.Error() + `; for example {"name":"next"}`})
		return
	}
	from.ID = c.ID
	d.table.handle(ctx, Input{Key: &hardware.KeyEvent{Keypad: string(to), Key: c.Name}, Args: c.Args, Text: c.Text, Action: c.Action, From: from})
}

// refusedPrefix is how much of a refused command's payload the journal keeps.
const refusedPrefix = 256

// refusedMessage is what the journal keeps of a refused command: the topic,
// the payload's length and SHA-256, and its first refusedPrefix bytes at
// most, cut on a UTF-8 boundary (as text when they are text, else base64).
// A garbled command of any size adds a record of bounded size: a broker
// that delivers megabytes must not fill the table's disk through it.
func refusedMessage(m Message) []byte {
	sum := sha256.Sum256(m.Payload)
	rec := map[string]any{"topic": m.Topic, "payload_length": len(m.Payload), "payload_sha256": hex.EncodeToString(sum[:])}
	p := m.Payload
	if len(p) > refusedPrefix {
		n := refusedPrefix
		for i := 1; i < utf8.UTFMax && !utf8.RuneStart(p[n]); i++ {
			n-- // not in the middle of a character
		}
		p = p[:n]
		rec["truncated"] = true
	}
	if utf8.Valid(p) {
		rec["payload"] = string(p)
	} else {
		rec["payload_base64"] = p
	}
	b, _ := json.Marshal(rec)
	return b
}

// idOf is the id of a command that could not be read, when one can be
// found, so that its sender knows which command the refusal answers.
func idOf(payload []byte) string {
	var c struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(payload, &c) != nil || len(c.ID) > 128 || !utf8.ValidString(c.ID) {
		return ""
	}
	return c.ID
}
