package wotrushgame

import (
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
)

// Outcome is each seat's result once the game is over: the seats with the
// most points win (the engine applies the rulebook's tie-breaks first),
// several winners sharing the win (see gamespec.OutcomeByWinners), each
// with their points.
func (g *Game) Outcome() []record.Seat {
	s := g.State()
	if s.Result == nil {
		return nil
	}
	var scores []gamespec.ScoredSeat
	for _, sc := range s.Result.Scores {
		scores = append(scores, gamespec.ScoredSeat{Seat: sc.Seat, Score: sc.Total})
	}
	return gamespec.OutcomeByWinners(scores, s.Result.Winners, false)
}
