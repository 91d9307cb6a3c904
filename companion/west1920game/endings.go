package west1920game

import (
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
