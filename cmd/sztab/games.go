package main

import (
	registered "github.com/sztab/sztab/games"
)

// games are the games this binary plays: the registry's list (package
// games), where a game is added.
var games = registered.All

// defaultGame is the game `sztab demo` and `sztab play` take when none is
// named: the registry's default.
var defaultGame = registered.Default()
