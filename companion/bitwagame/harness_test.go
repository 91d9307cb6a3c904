package bitwagame

import (
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
)

// demoSetup is the demo's table: Marysia (WP, seat 1) against Janek (ACz,
// seat 2), seed 1920.
var demoSetup = bitwa.Setup{Players: []bitwa.PlayerInfo{{Seat: 1, Name: "Marysia", Army: bitwa.WP}, {Seat: 2, Name: "Janek", Army: bitwa.ACz}}, Seed: 1920}

// testGame is the demo's game, opened (nothing played yet).
func testGame(t testing.TB) *Game {
	t.Helper()
	return opened(t, demoSetup)
}

var (
	scan = tabletest.Scan
	page = tabletest.Page
)

// press is a seat button (keypad seat-N) or, with keypad "", the table's
// dice keypad.
func press(keypad, key string, args ...string) companion.Input {
	if keypad == "" {
		keypad = "dice"
	}
	return tabletest.Press(keypad, key, args...)
}

func feed(t testing.TB, g *Game, in companion.Input) ([]companion.Action, *rules.Rejection) {
	t.Helper()
	return tabletest.Feed(t, g, in)
}

func feedAll(t testing.TB, g *Game, ins ...companion.Input) {
	t.Helper()
	for i, in := range ins {
		if _, rej := feed(t, g, in); rej != nil {
			t.Fatalf("input %d: refused %s: %s", i, rej.Code, rej.Reason.EN)
		}
	}
}

// testGameN is a game for n players (3: Marysia and Zuzia, WP, against
// Janek; 4: and Staś, ACz), seed 1920, opened.
func testGameN(t testing.TB, n int) *Game {
	t.Helper()
	ps := []bitwa.PlayerInfo{{Seat: 1, Name: "Marysia", Army: bitwa.WP}, {Seat: 2, Name: "Janek", Army: bitwa.ACz}, {Seat: 3, Name: "Zuzia", Army: bitwa.WP}, {Seat: 4, Name: "Staś", Army: bitwa.ACz}}
	return opened(t, bitwa.Setup{Players: ps[:n], Seed: 1920})
}
