package skirmishgame

import (
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/skirmish"
)

// endings are the game's finished games for the all-games tests
// (companion's TestOutcomeOfEveryGame): each ends the demo table's game
// by setting its state, and says each seat's outcome then.
var endings = []gamespec.Ending{
	{Name: "won", Finish: func(g gamespec.Game) error {
		sg := g.(*Game)
		s := sg.State()
		s.Sides[1].ObjectivePoints, s.Sides[1].OrderPoints, s.Sides[1].KillPoints = 3, 2, 5 // 5 in every scenario
		s.Result = &skirmish.Result{Winner: s.Sides[1].Faction}
		sg.SetState(s)
		return nil
	}, Want: []rec.Seat{{Seat: 1, Name: "Ania", Side: "Armia Krajowa", Outcome: rec.Loss}, {Seat: 2, Name: "Bartek", Side: "Wehrmacht", Outcome: rec.Win, Score: 5}}},
	{Name: "drawn", Finish: func(g gamespec.Game) error {
		sg := g.(*Game)
		s := sg.State()
		s.Result = &skirmish.Result{}
		sg.SetState(s)
		return nil
	}, Want: []rec.Seat{{Seat: 1, Name: "Ania", Side: "Armia Krajowa", Outcome: rec.Draw}, {Seat: 2, Name: "Bartek", Side: "Wehrmacht", Outcome: rec.Draw}}},
}
