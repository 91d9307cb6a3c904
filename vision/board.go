package vision

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Board is a calibration chessboard: its inner corners (Cols × Rows) and
// the side of a square.
type Board struct {
	Cols, Rows int
	SquareMM   float64
}

// maxBoardCorners bounds a chessboard's inner corners each way: a lens
// calibration allocates per corner, and no printed board has more.
const maxBoardCorners = 100

// ParseBoard reads "9x6@25": 9×6 inner corners, 25 mm squares.
func ParseBoard(s string) (Board, error) {
	var b Board
	size, sq, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "@")
	if !ok {
		return b, fmt.Errorf("vision: board %q: want COLSxROWS@SQUARE_MM, like 9x6@25", s)
	}
	c, r, ok := strings.Cut(size, "x")
	if !ok {
		return b, fmt.Errorf("vision: board %q: want COLSxROWS@SQUARE_MM, like 9x6@25", s)
	}
	var err error
	if b.Cols, err = strconv.Atoi(c); err != nil || b.Cols < 3 || b.Cols > maxBoardCorners {
		return b, fmt.Errorf("vision: board %q: inner corners across must be a number from 3 to %d", s, maxBoardCorners)
	}
	if b.Rows, err = strconv.Atoi(r); err != nil || b.Rows < 3 || b.Rows > maxBoardCorners {
		return b, fmt.Errorf("vision: board %q: inner corners down must be a number from 3 to %d", s, maxBoardCorners)
	}
	if b.SquareMM, err = strconv.ParseFloat(sq, 64); err != nil || !(b.SquareMM > 0) || math.IsInf(b.SquareMM, 0) {
		return b, fmt.Errorf("vision: board %q: the square size must be a positive number of mm", s)
	}
	return b, nil
}

func (b Board) String() string { return fmt.Sprintf("%dx%d@%g", b.Cols, b.Rows, b.SquareMM) }
