package skirmishgame

import (
	"strings"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
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

// rulings is the game's golden game of the referee's record for the
// all-games tests (companion's TestRulingsGoldenGames): the first save
// die, read as 2, was a 1; the last one, taken back, is entered again;
// then Ania's unit fires its rifle a second time this turn (already
// shot), let stand.
var rulings = &gamespec.Rulings{Steps: 62,
	Correct: func(b string) string { return strings.Replace(b, `"value":2`, `"value":1`, 1) },
	Breach: []gamespec.Input{gamespec.Press("keypad", "6"),
		{Tag: &hardware.TagEvent{Reader: "stol", UID: "04A1B2C3", Present: true}}, {Tag: &hardware.TagEvent{Reader: "stol", UID: "04A1B2C3"}},
		{Tag: &hardware.TagEvent{Reader: "stol", UID: "04D4E5F6", Present: true}}}, Paused: "next"}
