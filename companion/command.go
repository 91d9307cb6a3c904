package companion

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"unicode/utf8"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
)

// receiveCommand queues a message from a command topic. It runs on the
// MQTT client's goroutine, which must not wait for the table.
func (d *Daemon) receiveCommand(m Message) {
	select {
	case d.commands <- m:
	default:
		d.log.Warn("command dropped: 64 are already waiting", "topic", m.Topic)
		topic, _ := wire.ParseTopic(m.Topic)
		if to, ok := topic.CommandAudience(); ok && len(m.Payload) > 0 {
			// Answered from here, off the table's loop: the answer goes
			// through the fan-out, which is safe from any goroutine.
			d.table.answer(wire.CommandResult{Type: wire.ResultType, ID: idOf(m.Payload), From: string(to), Code: "busy", Seq: d.table.Seq(),
				Text: rules.Textf("stół jest zajęty (64 polecenia czekają); wyślij je jeszcze raz", "the table is busy (64 commands are waiting); send it again")}, to)
		}
	}
}

// handleCommand carries out an MQTT command (the referee's, or a player's
// for their seat) through the same path as the pages' buttons and the
// table's keys, and answers it on the sender's events topic. A command that
// cannot be read is refused with a notice (its payload journaled); one that
// arrives as a retained message is refused: it would run at every start.
func (d *Daemon) handleCommand(ctx context.Context, m Message) {
	if len(m.Payload) == 0 {
		return // a retained command being cleared
	}
	topic, _ := wire.ParseTopic(m.Topic)
	to, ok := topic.CommandAudience()
	if !ok {
		d.log.Warn("message on no command topic ignored", "topic", m.Topic)
		return
	}
	from := Sender{Kind: wire.Ref, Audience: to}
	if to != wire.Referee {
		from.Kind = wire.Seat
	}
	refuse := func(code string, text rules.Text) {
		d.log.Warn("command refused", "topic", m.Topic, "code", code, "reason", text.EN)
		d.table.notice(ctx, Notice{Type: "command_rejected", Code: code, Topic: m.Topic, Text: text}, refusedMessage(m))
		d.table.answer(wire.CommandResult{Type: wire.ResultType, ID: idOf(m.Payload), OK: false, Code: code, Text: text, From: string(to), Seq: d.table.Seq()}, to)
	}
	// A command sent with retain would be delivered again at every start;
	// MQTT 3.1.1 does not tell a live subscriber that it was retained, so
	// clear the topic after each one (off the loop: the broker may be slow).
	go func() {
		if err := d.pub.Publish(m.Topic, nil, true); err != nil {
			d.log.Warn("command topic not cleared", "topic", m.Topic, "err", err)
		}
	}()
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
