package wotrush

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sztab/sztab/rules"
)

// A play script is one action a line in the journal's JSON form, read by
// `sztab play` and by the golden tests. Blank lines and lines starting with
// # are skipped. One convenience keeps scripts short: {"type":"setup", ...}
// (the fields of Setup) becomes the StartGame Catalogue.NewGame makes of
// it, game data included.

// Setup is a game as configured at a table or in a script's first line.
type Setup struct {
	Players      []PlayerInfo `json:"players" yaml:"players"`
	First        int          `json:"first" yaml:"first"`
	Options      Options      `json:"options" yaml:"options"`
	Seed         uint64       `json:"seed" yaml:"seed"`
	Deck         []string     `json:"deck,omitempty" yaml:"deck"`
	Garages      []SeatOrder  `json:"garages,omitempty" yaml:"garages"`
	Achievements []string     `json:"achievements,omitempty" yaml:"achievements"`
}

// NewGame resolves a setup into the StartGame that opens the journal and
// checks that the engine accepts it.
func (c *Catalogue) NewGame(s Setup) (StartGame, error) {
	start := StartGame{Players: s.Players, First: s.First, Options: s.Options, Seed: s.Seed,
		Deck: s.Deck, Garages: s.Garages, Achievements: s.Achievements, Data: c.Data}
	if _, _, err := Apply(State{}, start); err != nil {
		if rej, ok := rules.AsRejection(err); ok {
			return StartGame{}, fmt.Errorf("wotrush: %s: %w", rej.Reason.EN, rej)
		}
		return StartGame{}, fmt.Errorf("wotrush: %w", err)
	}
	return start, nil
}

// ScriptLine is one action of a script and the line it is on.
type ScriptLine = rules.ScriptLine

// ParseScript reads a script; errors name the script and the line.
func ParseScript(cat *Catalogue, name string, data []byte) ([]ScriptLine, error) {
	return rules.ParseScript("wotrush", name, data, func(line []byte) (Action, error) { return parseScriptLine(cat, line) })
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
type Step = rules.Step[Event]

// Play applies the lines in order, from a game not yet started. It stops at
// the first refused action unless keepGoing, in which case the refusal is
// recorded and the state stays as it was.
func Play(lines []ScriptLine, keepGoing bool) (State, []Step) {
	return rules.Play(State{}, Apply, lines, keepGoing)
}

// Said is the event as a transcript prints it.
func (e Event) Said() (string, rules.Text) { return e.Type, e.Text }
