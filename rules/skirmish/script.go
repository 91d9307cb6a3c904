package skirmish

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// A play script is one action a line in the journal's JSON form, read by
// `sztab play` and by the golden tests. Blank lines and lines starting with
// # are skipped. Three conveniences keep scripts short:
//
//   - {"type":"setup", ...} (the fields of Setup) becomes the StartGame
//     Catalogue.NewGame makes of it, game data included;
//   - {"type":"dice","values":[3,4,5]} stands for dice with origin "fixed"
//     ("origin" may name another);
//   - rolls of roll_off and draws of draw_orders without an origin are
//     "fixed".

// ScriptLine is one action of a script and the line it is on.
type ScriptLine = rules.ScriptLine

// ParseScript reads a script; errors name the script and the line.
func ParseScript(cat *Catalogue, name string, data []byte) ([]ScriptLine, error) {
	return rules.ParseScript("skirmish", name, data, func(line []byte) (Action, error) { return parseScriptLine(cat, line) })
}

func parseScriptLine(cat *Catalogue, line []byte) (Action, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return nil, err
	}
	var typ string
	json.Unmarshal(fields["type"], &typ)
	switch typ {
	case "setup":
		delete(fields, "type")
		rest, _ := json.Marshal(fields)
		var s Setup
		dec := json.NewDecoder(bytes.NewReader(rest))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("setup: %w", err)
		}
		return cat.NewGame(s)
	case "dice":
		if raw, ok := fields["values"]; ok {
			var values []int
			if err := json.Unmarshal(raw, &values); err != nil {
				return nil, fmt.Errorf("dice values: %w", err)
			}
			origin := dice.Fixed
			if o, ok := fields["origin"]; ok {
				json.Unmarshal(o, &origin)
			}
			d := Dice{}
			for _, v := range values {
				d.Rolls = append(d.Rolls, dice.Roll{Value: v, Origin: origin})
			}
			return d, nil
		}
	case "roll_off":
		if raw, ok := fields["rolls"]; ok {
			var rolls []map[string]json.RawMessage
			if err := json.Unmarshal(raw, &rolls); err == nil {
				for _, r := range rolls {
					if _, ok := r["origin"]; !ok {
						r["origin"] = json.RawMessage(`"fixed"`)
					}
				}
				fields["rolls"], _ = json.Marshal(rolls)
			}
		}
	case "draw_orders":
		if _, ok := fields["origin"]; !ok {
			fields["origin"] = json.RawMessage(`"fixed"`)
		}
	}
	b, _ := json.Marshal(fields)
	return DecodeAction(b)
}

// Step is one script line played: its events, or the error that refused it.
type Step = rules.Step[Event]

// Play applies the lines in order, from a game not yet started. It stops at
// the first refused action unless keepGoing, in which case the refusal is
// recorded and the state stays as it was.
func Play(lines []ScriptLine, keepGoing bool) (State, []Step) {
	return rules.Play(State{}, Apply, lines, keepGoing)
}

// Said is the event as a transcript prints it.
func (e Event) Said() (string, rules.Text) { return e.Type, e.Text }
