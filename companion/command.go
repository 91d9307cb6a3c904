package companion

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
)

// receiveCommand queues a message from the referee's command topic. It runs
// on the MQTT client's goroutine, which must not wait for the table.
func (d *Daemon) receiveCommand(m Message) {
	select {
	case d.commands <- m:
	default:
		d.log.Warn("referee command dropped: 64 are already waiting", "topic", m.Topic)
	}
}

// handleCommand carries out a referee's MQTT command through the same path as
// the referee page's buttons and the table's keys. A command that cannot be
// read is refused with a notice (its payload journaled whole); one that
// arrives as a retained message when the table (re)subscribes was sent
// before and is refused.
func (d *Daemon) handleCommand(ctx context.Context, m Message) {
	if len(m.Payload) == 0 {
		return // a retained command being cleared
	}
	refuse := func(code string, pl, en string) {
		d.log.Warn("referee command refused", "topic", m.Topic, "code", code, "reason", en)
		d.noticeAbout(ctx, Notice{Type: "command_rejected", Code: code, Reader: m.Topic, Text: rules.Text{PL: pl, EN: en}}, refusedMessage(m))
	}
	if m.Retained {
		refuse("retained", "polecenie sędziego wysłane jako zachowane (retain) nie zostaje wykonane: wykonywałoby się przy każdym starcie; wyślij je bez retain",
			"a retained referee command is not carried out (it would run again at every start); send it without retain")
		if err := d.pub.Publish(m.Topic, nil, true); err != nil {
			d.log.Warn("retained command not cleared", "topic", m.Topic, "err", err)
		}
		return
	}
	// A command sent with retain would be delivered again at every start;
	// MQTT 3.1.1 does not tell a live subscriber that it was retained, so
	// clear the topic after each one.
	if err := d.pub.Publish(m.Topic, nil, true); err != nil {
		d.log.Warn("command topic not cleared", "topic", m.Topic, "err", err)
	}
	c, err := display.ParseCommand(bytes.NewReader(m.Payload))
	if err != nil {
		refuse("garbled", "nieczytelne polecenie sędziego na "+m.Topic+": "+err.Error()+`; przykład: {"name":"next"}`,
			"unreadable referee command on "+m.Topic+": "+err.Error()+`; for example {"name":"next"}`)
		return
	}
	if c.ID != "" {
		if slices.Contains(d.recentIDs, c.ID) {
			d.log.Info("referee command received twice; carried out once", "id", c.ID)
			return
		}
		if len(d.recentIDs) == 256 {
			d.recentIDs = d.recentIDs[1:]
		}
		d.recentIDs = append(d.recentIDs, c.ID)
	}
	d.handle(ctx, Input{Key: &hardware.KeyEvent{Keypad: RefereeKeypad, Key: c.Name}})
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
