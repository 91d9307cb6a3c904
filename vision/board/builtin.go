package board

import (
	"embed"
	"fmt"
	"strings"
)

// The games' own boards, generated from their data files by
// TestBuiltinBoards (go test ./vision/board -run Builtin -update): Bitwa
// Warszawska's fronts × lines and reserves, Mali Powstańcy's objects and
// road fields where rules/mali/data/map.yaml prints them.
//
//go:embed boards/*.yaml
var builtin embed.FS

// Games are the games with a built-in board.
var Games = []string{"bitwa-warszawska", "mali-powstancy"}

// Builtin is a game's built-in board definition.
func Builtin(game string) (*Definition, error) {
	data, err := builtin.ReadFile("boards/" + game + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("board: no built-in board for %q (%s); give a board file", game, strings.Join(Games, ", "))
	}
	return Parse("boards/"+game+".yaml", data)
}

// ForGame is the board file at path, or the game's built-in board when
// path is "".
func ForGame(game, path string) (*Definition, error) {
	if path == "" {
		return Builtin(game)
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
