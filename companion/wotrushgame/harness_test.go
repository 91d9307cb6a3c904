package wotrushgame

import (
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/wotrush"
)

// testGame is a two-player game (Ania first, seed 1944: the demo's).
func testGame(t testing.TB) *Game {
	t.Helper()
	cat, err := wotrush.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	st, err := cat.NewGame(wotrush.Setup{Players: []wotrush.PlayerInfo{{Seat: 1, Name: "Ania"}, {Seat: 2, Name: "Bartek"}}, First: 1, Seed: 1944})
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(st)
	start, _ := g.Start()
	if _, commit, err := g.Apply(start); err != nil {
		t.Fatal(err)
	} else {
		commit()
	}
	return g
}

var (
	scan = tabletest.Scan
	page = tabletest.Page
)

// press is a seat button (keypad seat-N) or, with keypad "", the table's
// keypad keypad.
func press(keypad, key string, args ...string) companion.Input {
	if keypad == "" {
		keypad = "keypad"
	}
	return tabletest.Press(keypad, key, args...)
}

func feed(t testing.TB, g *Game, in companion.Input) ([]companion.Action, *rules.Rejection) {
	t.Helper()
	return tabletest.Feed(t, g, in)
}
