package west1920

import (
	"fmt"

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
type ScriptLine = rules.ScriptLine

// ParseScript reads a script; errors name the script and the line.
func ParseScript(cat *Catalogue, name string, data []byte) ([]ScriptLine, error) {
	return rules.ParseScript("west1920", name, data, func(line []byte) (Action, error) { return parseScriptLine(cat, line) })
}

func parseScriptLine(cat *Catalogue, line []byte) (Action, error) {
	if cat == nil {
		return nil, fmt.Errorf("no catalogue")
	}
	return rules.SetupLine(line, Actions, cat.NewGame)
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
