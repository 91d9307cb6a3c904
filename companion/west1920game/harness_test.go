package west1920game

import (
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// testGame is a game at the start of stage 1 with the embedded data and
// default options (virtual deck with virtual true, seed 1920; dice seed
// 1920).
func testGame(t testing.TB, virtual bool) *Game {
	t.Helper()
	cat, err := west1920.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	start, err := cat.NewGame(west1920.Setup{})
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(start, 1920, 1920, virtual)
	a, _ := g.Start()
	if _, commit, err := g.Apply(a); err != nil {
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

// press is a key of a keypad (white, red) or a seat's.
func press(keypad, key string, args ...string) companion.Input {
	return tabletest.Press(keypad, key, args...)
}

func feed(t testing.TB, g *Game, in companion.Input) ([]companion.Action, *rules.Rejection) {
	t.Helper()
	return tabletest.Feed(t, g, in)
}

// must feeds in and fails t on a refusal.
func must(t testing.TB, g *Game, in companion.Input) []companion.Action {
	t.Helper()
	took, rej := feed(t, g, in)
	if rej != nil {
		t.Fatalf("refused %s: %s (phase %s, pending %+v)", rej.Code, rej.Reason.EN, g.State().Phase, g.State().Pending)
	}
	return took
}
