package companion_test

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
)

// A referee call opened from the table's keys pauses that seat's devices
// (its keypad and its reader, "seat-N") until the referee answers; the
// table's shared keys and the other seat's keypad play on, and after the
// answer the seat's keypad is heard again.
func TestRulingsCallPausesTheSeatsDevices(t *testing.T) {
	cfg, r, public, referee := maliMidGame(t)
	defer func() { r.Stop(t) }()
	topics := wire.TopicsFor(cfg.Venue, cfg.Table)
	jpath := cfg.Resolve(cfg.Journal)
	key := func(keypad, name, id string, args ...string) wire.CommandResult {
		t.Helper()
		submitSink{t, r.D}.submit(companion.Input{Key: &hardware.KeyEvent{Keypad: keypad, Key: name, Args: args}, Args: args,
			From: companion.Sender{Kind: wire.Keys, Audience: wire.Public, ID: id}})
		return public.wait(t, id)
	}

	if res := key("keypad", companion.CmdCall, "call-2", "2"); !res.OK {
		t.Fatalf("a call for seat 2 from the table's keys: %+v", res)
	}
	if k := journalKinds(t, jpath); !strings.Contains(k, ` call {"seat":2,"by":"keys/keypad"`) {
		t.Fatalf("the journal's rulings: %q, want the keys' call for seat 2", k)
	}
	if res := key("seat-2", "next", "seat-2-key"); res.OK || res.Code != "paused_for_referee" || !strings.Contains(res.Text.EN, "seat 2 waits for the referee") {
		t.Errorf("seat 2's keypad during its call: %+v, want refused paused_for_referee", res)
	}
	before := r.D.Seq()
	submitSink{t, r.D}.submit(companion.Input{Tag: &hardware.TagEvent{Reader: "seat-2", UID: "04A1A002", Present: true}})
	// An input after the tag, answered: the tag was handled before it.
	for _, kp := range []string{"keypad", "seat-1"} {
		if res := key(kp, "no_such_key", kp+"-key"); res.Code == "paused_for_referee" {
			t.Errorf("keypad %s during seat 2's call: %+v, want it heard", kp, res)
		}
	}
	var tagNotice string
	eachEntry(t, jpath, func(e companion.Entry) {
		if e.Seq > before && strings.Contains(string(e.Body), `"uid":"04A1A002"`) {
			tagNotice = string(e.Body)
		}
	})
	if !strings.Contains(tagNotice, `"code":"paused_for_referee"`) || !strings.Contains(tagNotice, `"device":"seat-2"`) {
		t.Errorf("seat 2's reader during its call: %q, want refused paused_for_referee", tagNotice)
	}

	if res := referee.send(t, topics.RefereeCommand, wire.Command{Name: companion.CmdAnswer, Args: []string{"2"}, Text: "play on"}); !res.OK {
		t.Fatalf("the referee's answer: %+v", res)
	}
	if res := key("seat-2", "no_such_key", "seat-2-after"); res.Code == "paused_for_referee" {
		t.Errorf("seat 2's keypad after the answer: %+v, want it heard", res)
	}
}
