// Package gamestest is the game registry of the all-games tests: every
// registered game (package games) and a test-only sixth, kolkogame, added
// by its own package and the one line below, to prove that nothing else
// needs to name a game.
package gamestest

import (
	"slices"

	"github.com/sztab/sztab/games"
	"github.com/sztab/sztab/internal/kolkogame"
)

// All are the games the all-games tests play.
var All = append(slices.Clip(games.All), kolkogame.Spec)
