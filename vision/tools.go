package vision

import "time"

// TableOptions are `sztab calibrate table`'s choices.
type TableOptions struct {
	// Images are still frames to calibrate on; none: Frames frames are
	// taken from the configured source.
	Images []string
	Frames int
}

// LensOptions are `sztab calibrate lens`'s choices.
type LensOptions struct {
	Board Board
	// Images of the chessboard; none: Frames views are taken from the
	// source, one every Every (move the board between them).
	Images []string
	Frames int
	Every  time.Duration
	// FixK3 holds the sixth-order radial term at 0.
	FixK3 bool
	// OnView reports each view: whether the board was found.
	OnView func(i int, name string, found bool)
}
