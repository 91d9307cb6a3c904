// Printed boards (vision/board): the camera config's board: setting and
// `sztab calibrate board`'s choices. Pure Go.

package vision

import "github.com/sztab/sztab/vision/board"

// BoardOptions are `sztab calibrate board`'s choices.
type BoardOptions struct {
	// Game is the game's config id; Board a board definition file ("":
	// the game's built-in board).
	Game  string
	Board string
	// Images are still frames to calibrate on; none: one frame from the
	// configured source.
	Images []string
}

// pieceCounts turns the board's counts into the snapshot's.
func pieceCounts(res board.Result) []PieceCount {
	out := make([]PieceCount, 0, len(res.Counts))
	for _, c := range res.Counts {
		out = append(out, PieceCount{Node: c.Node, Colour: c.Colour, Count: c.Count, Confidence: c.Confidence, Reason: c.Reason})
	}
	return out
}
