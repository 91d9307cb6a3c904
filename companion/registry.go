package companion

import (
	"fmt"
	"github.com/sztab/sztab/gamespec"
	"io"
	"strings"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
)

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
	if c.Box != "" && spec.Box == nil {
		return GameSpec{}, c.errAt("box", "%s has no box packs: its data is the game section's own files, not a pack (%s nie czyta paczek pudełka: jej dane to pliki z sekcji gry)", spec.Title.EN, spec.Title.PL)
	}
	if c.Hardware.Real() {
		if err := c.Hardware.CheckKeys(spec.Commands.Names(wire.Keys)); err != nil {
			return GameSpec{}, &ConfigError{File: c.path, Line: c.Line("hardware"), Msg: err.Error()}
		}
	}
	return spec, nil
}

// ReportScript is gamespec.ReportScript.
func ReportScript[E rules.Said](sc Script, steps []rules.Step[E], view any, printText func(io.Writer)) error {
	return gamespec.ReportScript(sc, steps, view, printText)
}

// DataFile is gamespec.DataFile.
func DataFile(path string, resolve func(string) string, name string, defaults map[string][]byte) (string, []byte, error) {
	return gamespec.DataFile(path, resolve, name, defaults)
}
