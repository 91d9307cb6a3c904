package dicetray

import "fmt"

// Same says whether two readings show the same throw: as many dice, each
// die of a matched with one of b showing the same value (or both
// unreadable) whose centre is within a third of a die's side of it. A die
// nudged by less than that, or read again in the next frame, is the same
// die; a throw moves every die further.
func Same(a, b Reading) bool {
	if len(a.Dice) != len(b.Dice) {
		return false
	}
	side := max(a.SidePx, b.SidePx)
	tol := side / 3
	if side == 0 {
		tol = 4
	}
	used := make([]bool, len(b.Dice))
	for _, d := range a.Dice {
		found := false
		for j, e := range b.Dice {
			if !used[j] && d.Value == e.Value && d.Centre.Dist(e.Centre) <= tol {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Settler says when a tray has settled after a throw: the same reading
// (Same) in Frames consecutive frames. It is not safe for concurrent use.
type Settler struct {
	frames  int
	last    Reading
	run     int
	settled *Reading
}

// NewSettler waits for frames identical readings (at least 2).
func NewSettler(frames int) (*Settler, error) {
	if frames < 2 || frames > 100 {
		return nil, fmt.Errorf("dicetray: settle after %d frames (want 2–100)", frames)
	}
	return &Settler{frames: frames}, nil
}

// Observe takes one frame's reading. It returns the tray's settled
// reading, and whether this frame settled a new one (a reading not Same
// as the last settled one: a throw, the tray emptied, a die turned). A
// frame that cannot be read (err from Read) breaks the run: pass a zero
// Reading with ok false.
func (s *Settler) Observe(r Reading, ok bool) (settled *Reading, changed bool) {
	if !ok {
		s.run = 0
		return s.settled, false
	}
	if s.run > 0 && Same(r, s.last) {
		s.run++
	} else {
		s.run = 1
	}
	s.last = r
	if s.run != s.frames {
		return s.settled, false
	}
	if s.settled != nil && Same(*s.settled, r) {
		return s.settled, false
	}
	c := r
	c.Dice = append([]Die(nil), r.Dice...)
	s.settled = &c
	return s.settled, true
}

// Last is the last frame's reading, nil when it was not read.
func (s *Settler) Last() *Reading {
	if s.run == 0 {
		return nil
	}
	return &s.last
}

// Settled is the last settled reading, nil before the first.
func (s *Settler) Settled() *Reading { return s.settled }
