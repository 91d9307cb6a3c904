package companion

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
)

// GameSpec is everything the daemon and its tools know about one game. A
// game package exports one; cmd/sztab lists them once, and config checks,
// `sztab run/play/demo/tags`, the screens and the watch read that list.
type GameSpec struct {
	// ID is the config's game id ("skirmish", "bitwa-warszawska"). It names
	// the game's config section, its layout and demo files
	// (firmware-config/layouts/<id>.yaml, firmware-config/demo/<id>.yaml)
	// and its screen panel (static/games/<id>.js).
	ID    string
	Title rules.Text
	// New builds the game at a table from the config (its own section).
	New func(*Config) (Game, error)
	// Commands are the game's commands: keypad keys, page buttons, watch
	// keys and MQTT commands all come from here.
	Commands wire.Vocabulary
	// Play runs a script of actions for `sztab play`; nil: the game has no
	// scripts yet.
	Play func(Script) error
	// Panel is the game's screen panel, a script served as
	// /static/games/<id>.js that registers itself under the game's id
	// (see the display package's panels.js); nil: the generic panel.
	Panel []byte
	// Cards lists the cards of a table config's game section that carry
	// tags (for `sztab tags enroll --cards table.yaml`); nil: the game's
	// cards come from a cards list only.
	Cards func(section []byte) ([]Card, error)
	// Demo is the demo table's config, firmware-config/demo/<id>.yaml
	// with the files it names; empty: no demo.
	Demo string
}

// Card is one card (unit, order card, die, seat, command) that carries a
// tag.
type Card struct {
	ID    string `yaml:"id"`
	Kind  string `yaml:"kind"`
	Label string `yaml:"label"`
}

// Script is a `sztab play` run: a script of actions applied through the
// game's engine, and what to print.
type Script struct {
	Name string
	Data []byte
	// View is whose view to print.
	View Viewer
	// Lang is pl or en.
	Lang string
	// JSON prints the final view as JSON; Events prints every action's
	// events; Continue reports refused actions and goes on.
	JSON, Events, Continue bool
	// Files are the game's data files to use instead of the embedded ones
	// (name → path), from --data name=path.
	Files    map[string]string
	Out, Err io.Writer
}

// Games is the list of games a binary plays.
type Games []GameSpec

// Lookup finds a game by its config id.
func (g Games) Lookup(id string) (GameSpec, bool) {
	for _, s := range g {
		if s.ID == id {
			return s, true
		}
	}
	return GameSpec{}, false
}

// IDs lists the config ids.
func (g Games) IDs() []string {
	out := make([]string, len(g))
	for i, s := range g {
		out[i] = s.ID
	}
	return out
}

// Check reports a list that cannot work: an id that is not an id, twice, a
// game without a constructor or a command twice.
func (g Games) Check() error {
	seen := map[string]bool{}
	for _, s := range g {
		if !idPattern.MatchString(s.ID) || seen[s.ID] {
			return fmt.Errorf("companion: game id %q is not a unique id", s.ID)
		}
		seen[s.ID] = true
		if s.New == nil {
			return fmt.Errorf("companion: game %s has no constructor", s.ID)
		}
		names := map[string]bool{}
		for _, c := range s.Commands {
			if c.Name == "" || names[c.Name] || c.From == 0 {
				return fmt.Errorf("companion: game %s: command %q is empty, listed twice or sent by nobody", s.ID, c.Name)
			}
			if isTableCommand(c.Name) {
				return fmt.Errorf("companion: game %s: command %q is one of the table's own commands (%s)", s.ID, c.Name, strings.Join(TableCommands.Names(wire.Anyone), ", "))
			}
			names[c.Name] = true
		}
	}
	return nil
}

// CheckGame checks the config against the games this binary plays: the
// game exists, the only game section is its own, and the keypads' keys are
// its commands. It returns the game's spec.
func (c *Config) CheckGame(games Games) (GameSpec, error) {
	spec, ok := games.Lookup(c.Game)
	if !ok {
		hint := ""
		if c.stray != "" {
			hint = fmt.Sprintf("; the file's game section is %q: is the game id misspelled?", c.stray)
		}
		return GameSpec{}, c.errAt("game", "%q is not a game this Sztab plays (%s)%s", c.Game, strings.Join(games.IDs(), ", "), hint)
	}
	if c.stray != "" {
		return GameSpec{}, c.errAt(c.stray, "unknown key %q (the only game section is the game's own, %s)", c.stray, c.Game)
	}
	if c.Hardware.Real() {
		if err := c.Hardware.CheckKeys(spec.Commands.Names(wire.Keys)); err != nil {
			return GameSpec{}, &ConfigError{File: c.path, Line: c.Line("hardware"), Msg: err.Error()}
		}
	}
	return spec, nil
}

// ScriptStopped is a `sztab play` run that stopped at a refused action;
// its exit status is 1.
type ScriptStopped struct{ Msg string }

func (e *ScriptStopped) Error() string { return e.Msg }

// ExitCode is the exit status of `sztab play`.
func (e *ScriptStopped) ExitCode() int { return 1 }

// ReportScript prints what a game's script run gives `sztab play`: each
// step's transcript (with Events), each refusal with its line, then the
// final view as JSON (with JSON) or as printText writes it. A refusal
// stops the run with *ScriptStopped unless Continue.
func ReportScript[E rules.Said](sc Script, steps []rules.Step[E], view any, printText func(io.Writer)) error {
	refused := 0
	for _, st := range steps {
		if sc.Events {
			fmt.Fprint(sc.Out, st.Transcript(sc.Lang))
		}
		if st.Err != nil {
			refused++
			fmt.Fprintf(sc.Err, "%s:%d: %s\n", sc.Name, st.Line, refusal(st.Err))
		}
	}
	if sc.JSON {
		enc := json.NewEncoder(sc.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(view); err != nil {
			return fmt.Errorf("companion: %s: %w", sc.Name, err)
		}
	} else {
		printText(sc.Out)
	}
	if refused > 0 && !sc.Continue {
		return &ScriptStopped{Msg: fmt.Sprintf("%s: play stopped at a refused action", sc.Name)}
	}
	return nil
}

func refusal(err error) string {
	if rej, ok := rules.AsRejection(err); ok {
		return fmt.Sprintf("refused %s: %s / %s", rej.Code, rej.Reason.PL, rej.Reason.EN)
	}
	return err.Error()
}

// DataFile reads one of a game's data files: the file a table's config (or
// `sztab play --data`) names, resolved by resolve, or the embedded
// default of that name when none is named. It returns the name errors
// about the data should give: the configured path, or the default's name.
func DataFile(path string, resolve func(string) string, name string, defaults map[string][]byte) (string, []byte, error) {
	if path == "" {
		return name, defaults[name], nil
	}
	b, err := os.ReadFile(resolve(path))
	if err != nil {
		return "", nil, fmt.Errorf("companion: data file %s: %w", name, err)
	}
	return path, b, nil
}
