package west1920game

import (
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/rules/west1920"
)

// Outcome is each seat's result once the game is over: the side that won
// (2.2: a supplied unit in the enemy's base city; 13: six victory cities at
// the end) wins, the other loses; the end of the last stage without six
// cities for either side is a draw. The game keeps no points: the score is
// 0.
func (g *Game) Outcome() []record.Seat {
	s := g.State()
	if s.Result == nil {
		return nil
	}
	out := []record.Seat{}
	for _, side := range []string{west1920.Polish, west1920.Russian} {
		outcome := record.Loss
		switch s.Winner {
		case side:
			outcome = record.Win
		case west1920.Polish, west1920.Russian:
		default:
			outcome = record.Draw
		}
		out = append(out, record.Seat{Seat: SeatOf(side), Side: side, Outcome: outcome})
	}
	return out
}
