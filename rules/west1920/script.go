package west1920

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sztab/sztab/rules"
)

// A play script is one action a line in the journal's JSON form, read by
// `sztab play` and by the golden tests. Blank lines and lines starting with
// # are skipped. {"type":"setup","options":{…}} becomes the StartGame with
// the catalogue's data.

// Setup is a game as configured at a table or in a script's first line.
type Setup struct {
	Options Options `json:"options" yaml:"options"`
}

// NewGame resolves a setup into the StartGame that opens the journal and
// checks that the engine accepts it.
func (c *Catalogue) NewGame(s Setup) (StartGame, error) {
	start := StartGame{Options: s.Options, Data: c.Data}
	if _, _, err := Apply(State{}, start); err != nil {
		if rej, ok := rules.AsRejection(err); ok {
			return StartGame{}, fmt.Errorf("west1920: %s: %w", rej.Reason.EN, rej)
		}
		return StartGame{}, fmt.Errorf("west1920: %w", err)
	}
	return start, nil
}

// ScriptLine is one action of a script and the line it is on.
type ScriptLine struct {
	Line   int
	Action Action
}

// ParseScript reads a script; errors name the script and the line.
func ParseScript(cat *Catalogue, name string, data []byte) ([]ScriptLine, error) {
	var out []ScriptLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a, err := parseScriptLine(cat, []byte(line))
		if err != nil {
			return nil, fmt.Errorf("west1920: %s:%d: %w", name, n, err)
		}
		out = append(out, ScriptLine{Line: n, Action: a})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("west1920: %s: %w", name, err)
	}
	return out, nil
}

func parseScriptLine(cat *Catalogue, line []byte) (Action, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return nil, err
	}
	var typ string
	if raw, ok := fields["type"]; ok {
		if err := json.Unmarshal(raw, &typ); err != nil {
			return nil, fmt.Errorf("type: %w", err)
		}
	}
	if typ == "setup" {
		if cat == nil {
			return nil, fmt.Errorf("setup: no catalogue")
		}
		delete(fields, "type")
		rest, _ := json.Marshal(fields)
		var s Setup
		dec := json.NewDecoder(bytes.NewReader(rest))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("setup: %w", err)
		}
		return cat.NewGame(s)
	}
	return DecodeAction(line)
}

// Step is one script line played: its events, or the error that refused it.
type Step struct {
	Line   int
	Action Action
	Events []Event
	Err    error
}

// Play applies the lines in order, from a game not yet started. It stops at
// the first refused action unless keepGoing, in which case the refusal is
// recorded and the state stays as it was.
func Play(lines []ScriptLine, keepGoing bool) (State, []Step) {
	var s State
	var steps []Step
	for _, l := range lines {
		next, evs, err := Apply(s, l.Action)
		steps = append(steps, Step{Line: l.Line, Action: l.Action, Events: evs, Err: err})
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
func (st Step) Transcript(lang string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s\n", st.Line, st.Action.Type())
	pick := func(t rules.Text) string {
		if lang == "en" {
			return t.EN
		}
		return t.PL
	}
	if st.Err != nil {
		if rej, ok := rules.AsRejection(st.Err); ok {
			fmt.Fprintf(&b, "  ! %s: %s\n", rej.Code, pick(rej.Reason))
		} else {
			fmt.Fprintf(&b, "  ! %v\n", st.Err)
		}
		return b.String()
	}
	for _, e := range st.Events {
		fmt.Fprintf(&b, "  %s: %s\n", e.Type, pick(e.Text))
	}
	return b.String()
}
