package bitwagame

import (
	"strings"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/bitwa"
)

// endings are the game's finished games for the all-games tests
// (companion's TestOutcomeOfEveryGame): each ends the demo table's game
// by setting its state, and says each seat's outcome then.
var endings = []gamespec.Ending{
	{Name: "won", Finish: func(g gamespec.Game) error {
		bg := g.(*Game)
		s := bg.State()
		s.Result = &bitwa.Result{Winner: bitwa.ACz, VP: [2]int{4, 7}}
		bg.SetState(s)
		return nil
	}, Want: []rec.Seat{{Seat: 1, Name: "Marysia", Side: "wp", Outcome: rec.Loss, Score: 4}, {Seat: 2, Name: "Janek", Side: "acz", Outcome: rec.Win, Score: 7}}},
}

// rulings is the game's golden game of the referee's record for the
// all-games tests (companion's TestRulingsGoldenGames): Marysia's
// initiative roll, the 6 was a 5. Her supply, taken back, is given again
// with three units where the card gives two (too many), let stand.
var rulings = &gamespec.Rulings{Steps: 83,
	Correct: func(b string) string { return strings.Replace(b, `"dice":[6]`, `"dice":[5]`, 1) },
	Breach:  []gamespec.Input{gamespec.Press("seat-1", "supply", "C", "N", "S")}, Paused: "play"}
