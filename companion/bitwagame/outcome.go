package bitwagame

import (
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/rules/bitwa"
)

// Outcome is each seat's result once the game is over: the players of the
// winning army win (both players of an army in the 3–4 player game), the
// others lose; "Bitwa Warszawska nierozstrzygnięta" (equal VP and equal
// units on the second lines) is a draw for all. The score is the seat's
// army's VP.
func (g *Game) Outcome() []record.Seat {
	s := g.State()
	if s.Result == nil {
		return nil
	}
	out := []record.Seat{}
	for _, p := range s.Players {
		outcome := record.Loss
		switch s.Result.Winner {
		case "":
			outcome = record.Draw
		case p.Army:
			outcome = record.Win
		}
		vp := 0
		for i, a := range bitwa.Armies {
			if a == p.Army {
				vp = s.Result.VP[i]
			}
		}
		out = append(out, record.Seat{Seat: p.Seat, Name: p.Name, Side: p.Army, Outcome: outcome, Score: vp})
	}
	return out
}
