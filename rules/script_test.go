package rules

import (
	"errors"
	"strings"
	"testing"
)

// A tiny engine for the script reader: a counter that setup starts and
// add moves, refusing to go above its limit.
type setupAct struct {
	Limit int `json:"limit"`
}
type addAct struct {
	N int `json:"n"`
}

func (setupAct) Type() string { return "start" }
func (addAct) Type() string   { return "add" }

type counter struct{ N, Limit int }

type said struct{ text Text }

func (s said) Said() (string, Text) { return "added", s.text }

func apply(c counter, a Action) (counter, []said, error) {
	switch a := a.(type) {
	case setupAct:
		return counter{Limit: a.Limit}, []said{{Text{PL: "start", EN: "start"}}}, nil
	case addAct:
		if c.N+a.N > c.Limit {
			return c, nil, Reject("too_many", "za dużo", "too many")
		}
		c.N += a.N
		return c, []said{{Textf("teraz %d", "now %d", c.N)}}, nil
	}
	return c, nil, errors.New("unknown")
}

var codec = NewCodec("count", setupAct{}, addAct{})

func readLine(line []byte) (Action, error) {
	return SetupLine(line, codec, func(s struct {
		Limit int `json:"limit"`
	}) (setupAct, error) {
		if s.Limit < 1 {
			return setupAct{}, errors.New("the limit must be at least 1")
		}
		return setupAct{Limit: s.Limit}, nil
	})
}

func TestScripts(t *testing.T) {
	script := "# a comment\n\n{\"type\":\"setup\",\"limit\":3}\n{\"type\":\"add\",\"n\":2}\n{\"type\":\"add\",\"n\":2}\n{\"type\":\"add\",\"n\":1}\n"
	lines, err := ParseScript("count", "s.jsonl", []byte(script), readLine)
	if err != nil || len(lines) != 4 || lines[0].Line != 3 || lines[0].Action != (setupAct{Limit: 3}) {
		t.Fatalf("parsed %+v, %v", lines, err)
	}
	final, steps := Play(counter{}, apply, lines, false)
	if final.N != 2 || len(steps) != 3 || steps[2].Err == nil {
		t.Fatalf("stopping play: %+v after %d steps", final, len(steps))
	}
	final, steps = Play(counter{}, apply, lines, true)
	if final.N != 3 || len(steps) != 4 {
		t.Fatalf("play going on: %+v after %d steps", final, len(steps))
	}
	if got := steps[2].Transcript("en"); got != "5 add\n  ! too_many: too many\n" {
		t.Errorf("refusal transcript %q", got)
	}
	if got := steps[3].Transcript("pl"); got != "6 add\n  added: teraz 3\n" {
		t.Errorf("transcript %q", got)
	}
	for _, tc := range []struct{ script, want string }{
		{"{\"type\":\"add\",\"n\":1}\nnot json\n", "count: s.jsonl:2: invalid character"},
		{"{\"type\":\"setup\",\"limit\":0}\n", "count: s.jsonl:1: the limit must be at least 1"},
		{"{\"type\":\"setup\",\"limit\":2,\"colour\":\"red\"}\n", `count: s.jsonl:1: setup: json: unknown field "colour"`},
		{"{\"type\":\"jump\"}\n", `count: s.jsonl:1: count: unknown action type "jump"`},
	} {
		if _, err := ParseScript("count", "s.jsonl", []byte(tc.script), readLine); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.script, err, tc.want)
		}
	}
}
