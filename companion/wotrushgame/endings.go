package wotrushgame

import (
	"strings"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/wotrush"
)

// endings are the game's finished games for the all-games tests
// (companion's TestOutcomeOfEveryGame): each ends the demo table's game
// by setting its state, and says each seat's outcome then.
var endings = []gamespec.Ending{
	{Name: "won", Finish: func(g gamespec.Game) error {
		wg := g.(*Game)
		s := wg.State()
		s.Result = &wotrush.Result{Scores: []wotrush.Score{{Seat: 1, Total: 14}, {Seat: 2, Total: 17}}, Winners: []int{2}}
		wg.SetState(s)
		return nil
	}, Want: []rec.Seat{{Seat: 1, Name: "Ania", Outcome: rec.Loss, Score: 14}, {Seat: 2, Name: "Bartek", Outcome: rec.Win, Score: 17}}},
}

// rulings is the game's golden game of the referee's record for the
// all-games tests (companion's TestRulingsGoldenGames): Ania's selection
// paid with the first Engineer, corrected to the second; then taken back;
// then the buy paid with one card only (too little), let stand.
var rulings = &gamespec.Rulings{Steps: 32,
	Correct: func(b string) string { return strings.Replace(b, `"ENG-1-1"]`, `"ENG-1-2"]`, 1) },
	Breach:  []gamespec.Input{gamespec.Page(1, "buy", "DE-02", "ENG-1-1")}, Paused: "buy"}
