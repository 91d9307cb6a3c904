package maligame

import (
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
)

// Outcome is each seat's result once the game is over: on the Germans'
// victory (the players' common defeat) every seat loses with 0 points;
// otherwise the seats with the most points win (the rulebook's ties as the
// engine breaks them), several winners sharing the win (see
// gamespec.OutcomeByWinners), each with their points.
func (g *Game) Outcome() []record.Seat {
	s := g.State()
	if s.Result == nil {
		return nil
	}
	var scores []gamespec.ScoredSeat
	if s.Result.Defeat {
		for _, p := range s.Players {
			scores = append(scores, gamespec.ScoredSeat{Seat: p.Seat})
		}
	}
	for _, sc := range s.Result.Scores {
		scores = append(scores, gamespec.ScoredSeat{Seat: sc.Seat, Score: sc.Total})
	}
	return gamespec.OutcomeByWinners(scores, s.Result.Winners, s.Result.Defeat)
}
