// Package games is the list of the games Sztab plays: the one place a game
// is registered. The binary, the tournament's defaults and every
// all-games test read it; a game is added here, by its package's spec, and
// nowhere else.
package games

import (
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/companion/maligame"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/gamespec"
)

// All are the registered games; the first is the default where a command
// takes a game (`sztab demo`, `sztab play`).
var All = gamespec.Games{
	skirmishgame.Spec,
	maligame.Spec,
	wotrushgame.Spec,
	bitwagame.Spec,
	west1920game.Spec,
}

// Default is the game a command plays when none is named.
func Default() string { return All[0].ID }
