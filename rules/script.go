package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A play script is one action a line in the journal's JSON form, read by
// `sztab play` and by each engine's golden tests. Blank lines and lines
// starting with # are skipped; each engine reads a line its own way (a
// first "setup" line, say).

// ScriptLine is one action of a script and the line it is on.
type ScriptLine struct {
	Line   int
	Action Action
}

// ParseScript reads a script with parseLine; errors start with prefix (the
// engine's name) and name the script and the line.
func ParseScript(prefix, name string, data []byte, parseLine func(line []byte) (Action, error)) ([]ScriptLine, error) {
	var out []ScriptLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a, err := parseLine([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("%s: %s:%d: %w", prefix, name, n, err)
		}
		out = append(out, ScriptLine{Line: n, Action: a})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", prefix, name, err)
	}
	return out, nil
}

// Said is an engine's event as a transcript prints it: its type and text.
type Said interface {
	Said() (string, Text)
}

// Step is one script line played: its events, or the error that refused it.
type Step[E Said] struct {
	Line   int
	Action Action
	Events []E
	Err    error
}

// Play applies the lines in order to start with the engine's apply. It
// stops at the first refused action unless keepGoing, in which case the
// refusal is recorded and the state stays as it was.
func Play[S any, E Said](start S, apply func(S, Action) (S, []E, error), lines []ScriptLine, keepGoing bool) (S, []Step[E]) {
	s := start
	var steps []Step[E]
	for _, l := range lines {
		next, evs, err := apply(s, l.Action)
		steps = append(steps, Step[E]{Line: l.Line, Action: l.Action, Events: evs, Err: err})
		if err != nil {
			if !keepGoing {
				return s, steps
			}
			continue
		}
		s = next
	}
	return s, steps
}

// Transcript is a step as text in one language ("pl" or "en"): the line
// and action, then each event, or the refusal.
func (st Step[E]) Transcript(lang string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s\n", st.Line, st.Action.Type())
	pick := func(t Text) string {
		if lang == "en" {
			return t.EN
		}
		return t.PL
	}
	if st.Err != nil {
		if rej, ok := AsRejection(st.Err); ok {
			fmt.Fprintf(&b, "  ! %s: %s\n", rej.Code, pick(rej.Reason))
		} else {
			fmt.Fprintf(&b, "  ! %v\n", st.Err)
		}
		return b.String()
	}
	for _, e := range st.Events {
		typ, text := e.Said()
		fmt.Fprintf(&b, "  %s: %s\n", typ, pick(text))
	}
	return b.String()
}

// SetupLine reads a script line the way most engines do: a line of type
// "setup" holds the fields of the engine's Setup (read strictly), which
// newGame turns into the opening action; any other line is an action the
// codec decodes.
func SetupLine[S any, A Action](line []byte, codec *Codec, newGame func(S) (A, error)) (Action, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return nil, err
	}
	if head.Type != "setup" {
		return codec.Decode(line)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return nil, err
	}
	delete(fields, "type")
	rest, _ := json.Marshal(fields)
	var s S
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	a, err := newGame(s)
	if err != nil {
		return nil, err
	}
	return a, nil
}
