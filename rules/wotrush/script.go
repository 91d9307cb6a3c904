package wotrush

import (
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
