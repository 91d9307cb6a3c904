package maligame

import (
	"strings"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/mali"
)

// endings are the game's finished games for the all-games tests
// (companion's TestOutcomeOfEveryGame): each ends the demo table's game
// by setting its state, and says each seat's outcome then.
var endings = []gamespec.Ending{
	{Name: "defeat", Finish: func(g gamespec.Game) error {
		mg := g.(*Game)
		s := mg.State()
		s.Result = &mali.Result{Defeat: true}
		mg.SetState(s)
		return nil
	}, Want: []rec.Seat{{Seat: 1, Name: "Ania", Side: "red", Outcome: rec.Loss}, {Seat: 2, Name: "Bartek", Side: "green", Outcome: rec.Loss}}},
	{Name: "shared win", Finish: func(g gamespec.Game) error {
		mg := g.(*Game)
		s := mg.State()
		s.Result = &mali.Result{Scores: []mali.Score{{Seat: 1, Total: 9}, {Seat: 2, Total: 9}}, Winners: []int{1, 2}}
		mg.SetState(s)
		return nil
	}, Want: []rec.Seat{{Seat: 1, Name: "Ania", Side: "red", Outcome: rec.Draw, Score: 9}, {Seat: 2, Name: "Bartek", Side: "green", Outcome: rec.Draw, Score: 9}}},
}

// rulings is the game's golden game of the referee's record for the
// all-games tests (companion's TestRulingsGoldenGames): the black die read
// as 2 was a 3; then a courier stepped past the station while the game
// waits for an order to be picked up, let stand.
var rulings = &gamespec.Rulings{Steps: 40,
	Correct: func(b string) string { return strings.Replace(b, `"value":2`, `"value":3`, 1) },
	Breach:  []gamespec.Input{gamespec.Press("keypad", "step", "red-2", "past-dworzec/1")}, Paused: "pick"}
