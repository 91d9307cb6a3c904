package west1920game

import (
	"strings"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// endings are the game's finished games for the all-games tests
// (companion's TestOutcomeOfEveryGame): each ends the demo table's game
// by setting its state, and says each seat's outcome then.
var endings = []gamespec.Ending{
	{Name: "won", Finish: func(g gamespec.Game) error {
		wg := g.(*Game)
		s := wg.State()
		text := rules.Textf("zwycięstwo", "victory")
		s.Winner, s.Result = west1920.Russian, &text
		wg.SetState(s)
		return nil
	}, Want: []rec.Seat{{Seat: 1, Side: "polish", Outcome: rec.Loss}, {Seat: 2, Side: "russian", Outcome: rec.Win}}},
	{Name: "drawn", Finish: func(g gamespec.Game) error {
		wg := g.(*Game)
		s := wg.State()
		text := rules.Textf("remis", "a draw")
		s.Winner, s.Result = "draw", &text
		wg.SetState(s)
		return nil
	}, Want: []rec.Seat{{Seat: 1, Side: "polish", Outcome: rec.Draw}, {Seat: 2, Side: "russian", Outcome: rec.Draw}}},
}

// rulings is the game's golden game of the referee's record for the
// all-games tests (companion's TestRulingsGoldenGames): the Russians'
// resource roll, the white 6 was a 5 (14 RP, not 15); the 4th Rifle
// Division's order to 1804, taken back, is given again to 2304, four hexes
// away (too far, 7.4), let stand.
var rulings = &gamespec.Rulings{Steps: 49,
	Correct: func(b string) string {
		if !strings.Contains(b, `"dice":[6,3]`) {
			return b
		}
		return strings.Replace(strings.Replace(b, `"dice":[6,3]`, `"dice":[5,3]`, 1), `"value":6`, `"value":5`, 1)
	},
	Breach: []gamespec.Input{gamespec.Page(2, "move", "1904", "2304")}, Paused: "pass"}
