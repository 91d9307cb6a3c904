package skirmishgame

import (
	"slices"

	"github.com/sztab/sztab/companion/record"
)

// Outcome is each seat's result once the game is over: the winning
// faction's seats win, the others lose; a game over without a winner (equal
// scenario points at the last round, or ended by the players with no
// winner named) is a draw for every seat. The score is the side's scenario
// points (kill points in scenario 1, objective plus order points in the
// others), the points the game itself compares at its last round.
func (g *Game) Outcome() []record.Seat {
	s := g.State()
	if s.Result == nil {
		return nil
	}
	out := []record.Seat{}
	for _, sd := range s.Sides {
		outcome := record.Loss
		switch s.Result.Winner {
		case "":
			outcome = record.Draw
		case sd.Faction:
			outcome = record.Win
		}
		for _, seat := range sd.Seats {
			out = append(out, record.Seat{Seat: seat, Side: sd.Faction, Outcome: outcome, Score: s.ScenarioPoints(sd)})
		}
	}
	slices.SortFunc(out, func(a, b record.Seat) int { return a.Seat - b.Seat })
	return out
}
