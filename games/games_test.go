package games_test

import (
	"slices"
	"testing"

	"github.com/sztab/sztab/companion/tournament"
	"github.com/sztab/sztab/games"
)

// The registry is a list a binary can play, its default is one of its
// games, and the tournament's defaults (still listed in the tournament
// package, which may not link the games) cover exactly the registered
// games: a game added here and not there could not be played at a
// tournament, a game left there would be accepted by no table.
func TestRegistry(t *testing.T) {
	if err := games.All.Check(); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(games.All.IDs(), games.Default()) {
		t.Errorf("the default game %q is not registered", games.Default())
	}
	for _, id := range games.All.IDs() {
		if _, ok := tournament.GameDefaults[id]; !ok {
			t.Errorf("%s has no tournament defaults (companion/tournament GameDefaults)", id)
		}
	}
	for id := range tournament.GameDefaults {
		if _, ok := games.All.Lookup(id); !ok {
			t.Errorf("the tournament's defaults name %q, which is not registered", id)
		}
	}
}
