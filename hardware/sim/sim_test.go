package sim

import (
	"context"
	"strings"
	"testing"

	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/vision"
)

type recorder struct{ got []string }

func (r *recorder) Tag(e hardware.TagEvent) {
	r.got = append(r.got, "tag "+e.Reader+" "+e.UID+map[bool]string{true: " on", false: " off"}[e.Present])
}
func (r *recorder) Key(e hardware.KeyEvent) {
	r.got = append(r.got, strings.TrimSpace("key "+e.Keypad+" "+e.Key+" "+strings.Join(e.Args, " ")))
}
func (r *recorder) Snapshot(s vision.Snapshot) { r.got = append(r.got, "snapshot") }

func TestPlay(t *testing.T) {
	script := `# a comment
{"say": "hello"}
{"tag": {"reader": "r1", "uid": "04:a1:b2:c3"}}
{"wait": "10s"}
{"untag": {"reader": "r1", "uid": "04A1B2C3"}}
{"key": "3"}
{"key": {"keypad": "k2", "key": "undo"}}
{"key": {"key": "step", "args": ["red-1", "past"]}}
{"snapshot": {"models": []}}
`
	s, err := Parse("demo.jsonl", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	rec := &recorder{}
	p := Player{Speed: 0, Narrate: func(line int, text string) { said = append(said, text) }}
	if err := p.Play(context.Background(), s, rec); err != nil {
		t.Fatal(err)
	}
	want := "tag r1 04A1B2C3 on|tag r1 04A1B2C3 off|key keypad 3|key k2 undo|key keypad step red-1 past|snapshot"
	if got := strings.Join(rec.got, "|"); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if len(said) != 1 || said[0] != "hello" {
		t.Errorf("narration %q", said)
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	tests := map[string]string{
		"{\"say\":\"x\"}\n{\"jump\": 1}\n":                 "demo.jsonl:2",
		"\n\n{\"wait\": \"soon\"}\n":                       "demo.jsonl:3",
		"{\"tag\": {\"reader\": \"r\", \"uid\": \"XYZ\"}}": "demo.jsonl:1",
		"{\"say\": \"x\", \"key\": \"1\"}":                 "does exactly one thing",
		"{\"say\":\"x\"}\n{\"snapshot\": {\"terrain\": [{\"kind\": \"yellow\", \"outline\": [[0,0],[1,0],[0,1]]}]}}": "demo.jsonl:2: vision: terrain 0 (\"\"): kind \"yellow\"",
		"{\"snapshot\": {\"markers\": [{\"kind\": \"template\", \"x_mm\": 1, \"y_mm\": 1}]}}":                        "demo.jsonl:1: vision: marker 0: a template marker needs its diameter_mm",
	}
	for script, want := range tests {
		_, err := Parse("demo.jsonl", []byte(script))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) error %v, want it to mention %q", script, err, want)
		}
	}
}
