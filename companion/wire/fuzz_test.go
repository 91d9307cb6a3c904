package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/sztab/sztab/rules"
)

var fuzzVocabulary = append(Vocabulary{
	{Name: "next", Label: rules.Text{PL: "Dalej", EN: "Next"}, From: Anyone, Watch: "n"},
	{Name: "confirm", Label: rules.Text{PL: "Uznaj", EN: "Accept"}, From: Keys | Ref, Watch: "c"},
	{Name: "move", Label: rules.Text{PL: "Ruch", EN: "Move"}, From: Seat | Ref, Args: []string{"piece", "to"}},
}, DiceKeys(Anyone)...)

// A command from the network: whatever arrives, the parser answers with a
// command of the vocabulary its sender may send, or an error; never a panic.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{`{"name":"next"}`, `{"name":"confirm","id":"r-17"}`, `{"name":"7"}`, `{"name":"next"}{"name":"next"}`,
		`{"name":"next","extra":1}`, `[]`, `null`, ``, `{"name":"next","id":"` + strings.Repeat("x", 200) + `"}`, "{\"name\":\"\xff\"}",
		`{"name":"next"} `, `{"name":"next"} x`, `{"name":"move","args":["red-1","plac-wilsona"]}`, `{"name":"next","args":["x"]}`,
		`{"name":"move","args":["a","b","c","d","e","f","g","h","i"]}`, "{\"name\":\"move\",\"args\":[\"a\\u0000\"]}", `{"name":"move","args":null}`} {
		f.Add([]byte(s), uint8(Ref))
	}
	f.Fuzz(func(t *testing.T, data []byte, from uint8) {
		sender := Sender(from) & Anyone
		c, err := ParseCommand(data, fuzzVocabulary, sender)
		if err != nil {
			return
		}
		spec, ok := fuzzVocabulary.Lookup(c.Name)
		if !ok || spec.From&sender == 0 {
			t.Fatalf("%q accepted from %v: not a command that sender may send", c.Name, sender)
		}
		if len(c.ID) > 128 {
			t.Fatalf("an id of %d bytes accepted", len(c.ID))
		}
		if len(c.Args) > 0 && len(spec.Args) == 0 || len(c.Args) > MaxCommandArgs {
			t.Fatalf("%q accepted with %d arguments", c.Name, len(c.Args))
		}
		for _, a := range c.Args {
			if len(a) > MaxArgBytes || strings.ContainsFunc(a, unicode.IsControl) {
				t.Fatalf("argument %q accepted", a)
			}
		}
		again, _ := json.Marshal(c)
		if back, err := ParseCommand(again, fuzzVocabulary, sender); err != nil || !reflect.DeepEqual(back, c) {
			t.Fatalf("%s does not read back: %v %+v", again, err, back)
		}
	})
}

// A topic from the broker: a table's topic splits and joins back; the
// audience of a command topic is the referee or a real seat.
func FuzzParseTopic(f *testing.F) {
	for _, s := range []string{"sztab/v1/klub/stol-1/state", "sztab/v1/klub/stol-1/referee/command", "sztab/v1/k/s/player/2/command",
		"sztab/v1/k/s/player/02/command", "sztab/v1/k/s/player/-1/command", "sztab/v1//s/state", "sztab/v2/k/s/state", "sztab/v1/+/#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, topic string) {
		tp, ok := ParseTopic(topic)
		if !ok {
			return
		}
		if Root+tp.Venue+"/"+tp.Table+"/"+tp.Suffix != topic {
			t.Fatalf("%q parsed as %+v", topic, tp)
		}
		if a, ok := tp.CommandAudience(); ok {
			if seat, isSeat := a.Seat(); a != Referee && (!isSeat || seat < 1 || TopicsFor(tp.Venue, tp.Table).PlayerCommand(seat) != topic) {
				t.Fatalf("%q is a command topic of %q", topic, a)
			}
		}
	})
}

// A broker list (a table's mqtt.broker, the hub's and sim's --broker):
// every URL it accepts is trimmed, distinct, has a host and a port, and
// the list joined back reads the same.
func FuzzParseBrokers(f *testing.F) {
	for _, s := range []string{"tcp://127.0.0.1:1883", "tcp://n1:1883, tcp://n2:1883,tcp://n3:1883", "ssl://h:8883,wss://h:443/mqtt",
		"tcp://n1:1883,,", "http://x:1", "tcp://[::1]:1883", "tcp://u:p@h:1", "tcp://h:99999", "n1:1883", ",", "tcp://%zz:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		urls, err := ParseBrokers(list)
		if err != nil {
			if urls != nil || !strings.HasPrefix(err.Error(), "wire: broker list: ") {
				t.Fatalf("%q: %v with %q", list, err, urls)
			}
			return
		}
		if len(urls) == 0 {
			t.Fatalf("%q: no URL and no error", list)
		}
		seen := map[string]bool{}
		for _, u := range urls {
			if u != strings.TrimSpace(u) || seen[u] || !strings.Contains(u, "://") || strings.Contains(u, ",") {
				t.Fatalf("%q gave %q", list, urls)
			}
			seen[u] = true
		}
		back, err := ParseBrokers(strings.Join(urls, ","))
		if err != nil || !reflect.DeepEqual(back, urls) {
			t.Fatalf("%q: joined back %v, %v", urls, back, err)
		}
	})
}
