package main

import (
	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/companion/maligame"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/companion/wotrushgame"
)

// games are the games this binary plays: the one list of them. A game is
// added here, by its package's spec, and nowhere else.
var games = companion.Games{
	skirmishgame.Spec,
	maligame.Spec,
	wotrushgame.Spec,
	bitwagame.Spec,
	west1920game.Spec,
}
