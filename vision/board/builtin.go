package board

import (
	"fmt"
	"slices"
	"strings"
)

// Printed are the games' printed boards by game id, each a definition's
// YAML. The games' specs name them (gamespec.Board: the file and how it is
// made from the game's data); the daemon and `sztab calibrate board` hand
// them in, so the camera knows no game.
type Printed map[string][]byte

// Games are the games with a printed board, sorted.
func (p Printed) Games() []string {
	out := make([]string, 0, len(p))
	for g := range p {
		out = append(out, g)
	}
	slices.Sort(out)
	return out
}

// Builtin is a game's printed board definition.
func (p Printed) Builtin(game string) (*Definition, error) {
	data, ok := p[game]
	if !ok {
		return nil, fmt.Errorf("board: no built-in board for %q (%s); give a board file", game, strings.Join(p.Games(), ", "))
	}
	return Parse(game+" board.yaml", data)
}

// ForGame is the board file at path, or the game's printed board when
// path is "".
func (p Printed) ForGame(game, path string) (*Definition, error) {
	if path == "" {
		return p.Builtin(game)
	}
	d, err := Load(path)
	if err != nil {
		return nil, err
	}
	if game != "" && d.Game != game {
		return nil, fmt.Errorf("board: %s is a board for %s, not %s", path, d.Game, game)
	}
	return d, nil
}
