package companion

import rec "github.com/sztab/sztab/companion/record"

// ScoredSeat is one seat's final score in a game that ranks its players by
// points (Mali Powstańcy, World of Tanks: Rush).
type ScoredSeat struct{ Seat, Score int }

// OutcomeByWinners is the outcome of a game that names its winners among
// scored seats: a single winner wins and the others lose; several winners
// (tied on the game's own tie-breaks too) share the win, which a standings
// table counts as a draw for each of them, the others losing. A game lost
// by all (lost is true: Mali Powstańcy's defeat) is a loss for every seat.
func OutcomeByWinners(scores []ScoredSeat, winners []int, lost bool) []rec.Seat {
	won := map[int]bool{}
	for _, w := range winners {
		won[w] = true
	}
	shared := len(winners) > 1
	out := []rec.Seat{}
	for _, s := range scores {
		outcome := rec.Loss
		switch {
		case lost:
		case won[s.Seat] && shared:
			outcome = rec.Draw
		case won[s.Seat]:
			outcome = rec.Win
		}
		out = append(out, rec.Seat{Seat: s.Seat, Outcome: outcome, Score: s.Score})
	}
	return out
}
