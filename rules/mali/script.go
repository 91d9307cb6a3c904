package mali

import (
	"github.com/sztab/sztab/rules"
)

// Setup is a game's setup without its data: Catalogue.NewGame adds the
// data to make the StartGame.
type Setup struct {
	Variant string        `json:"variant"`
	Players []PlayerSetup `json:"players"`
	Starter int           `json:"starter"`
	Options Options       `json:"options"`
}

// NewGame is the StartGame of a setup with this catalogue's data.
func (c *Catalogue) NewGame(s Setup) StartGame {
	return StartGame{Variant: s.Variant, Players: s.Players, Starter: s.Starter, Options: s.Options, Data: c.Data}
}

// A play script is one action a line in the journal's JSON form, read by
// `sztab play` and by the golden tests. Blank lines and lines starting with
// # are skipped. {"type":"setup", ...} (the fields of Setup) becomes the
// StartGame Catalogue.NewGame makes of it, game data included.

// ScriptLine is one action of a script and the line it is on.
type ScriptLine = rules.ScriptLine

// ParseScript reads a script; errors name the script and the line.
func ParseScript(cat *Catalogue, name string, data []byte) ([]ScriptLine, error) {
	return rules.ParseScript("mali", name, data, func(line []byte) (Action, error) { return parseScriptLine(cat, line) })
}

func parseScriptLine(cat *Catalogue, line []byte) (Action, error) {
	return rules.SetupLine(line, Actions, func(s Setup) (StartGame, error) { return cat.NewGame(s), nil })
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
