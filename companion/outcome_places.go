package companion

import (
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
)

// OutcomeByWinners is gamespec.OutcomeByWinners.
func OutcomeByWinners(scores []ScoredSeat, winners []int, lost bool) []rec.Seat {
	return gamespec.OutcomeByWinners(scores, winners, lost)
}
