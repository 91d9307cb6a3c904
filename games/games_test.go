package games_test

import (
	"slices"
	"testing"

	"github.com/sztab/sztab/games"
)

// The registry is a list a binary can play and its default is one of its
// games. (Each game's tournament defaults are its spec's: the tournament
// package's tests open a tournament of every registered game.)
func TestRegistry(t *testing.T) {
	if err := games.All.Check(); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(games.All.IDs(), games.Default()) {
		t.Errorf("the default game %q is not registered", games.Default())
	}
}
