// Package dicetray reads a tray of six-sided dice from a camera frame: it
// finds each die, counts the pips on its top face and says how sure it is.
// A die that does not show one face squarely to the camera (cocked against
// another die or the tray's wall, or stacked on another die) is reported
// unreadable, never guessed; things that are not dice (coins, a pencil)
// are not reported.
//
// The reading, in the order a frame meets it:
//
//   - the tray (segment.go): a half-size copy of the frame; the tray's
//     light fitted as a smooth surface (a quadratic per colour channel,
//     trimmed of what stands out); every pixel whose colour departs from
//     it (much darker, much brighter, or another hue) is something on the
//     tray; a shadow only darkens, so it is not;
//   - candidates: each connected blob of such pixels, its holes filled;
//     its core (the pixels at least 0.35 of a die's side from its edge)
//     gives one centre per die, so touching dice separate; a blob with no
//     core (a pencil) is nothing;
//   - the face (face.go), at full size: the pixels of the die are split
//     into body and pips by Otsu's threshold; the pips are the round
//     blobs of a pip's size; their layout must be one of the six faces
//     (positions after the best turn and scale, and no squashing, which a
//     face seen at a slant shows); the die's outline must be a square of a
//     die's side around the face, allowing only the sides a flat die shows
//     off the optical axis (Options.Parallax). A square with pips in a
//     layout is a value; anything else with pips or straight sides is a
//     die read as unreadable, with the reason; the rest is not a die.
//
// This classical reader is pure Go (no OpenCV), so it runs with or
// without cgo; the learned reader (learned.go, OpenCV's dnn) reads real
// dice and is what Open gives unless Options.Classical. vision/synth
// renders trays with their truth for the tests.
//
// Into the table: a Reading is not a roll until the tray has settled
// after a throw. Settler (settle.go) says when the same reading (Same)
// came in enough consecutive frames; vision's camera.dice_tray reads a
// region of the frame each frame and puts the settled reading into the
// snapshot (vision.Snapshot.Tray); the daemon takes each new settled
// throw once (companion/camera_dice.go): an unreadable die asks for a
// re-roll or the keypad, readable dice go to the game's binder as rolls
// with origin camera, and from there to the journal and the fairness
// watch. Which throw a reading answers (which unit's shots, how many
// dice) is the game's to say.
package dicetray

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sztab/sztab/vision/geom"
)

// Frame is an 8-bit BGR image, rows packed (an OpenCV CV_8UC3 Mat's data).
type Frame struct {
	Width, Height int
	BGR           []byte
}

// Options tune the reader.
type Options struct {
	// SidePx is a die's side in the image, pixels. 0: estimated from the
	// frame (the median of the blobs that look like one die).
	SidePx float64
	// Parallax is the dice's side over the camera's height above the tray:
	// off the optical axis a flat die shows a strip of its side, this
	// fraction of its distance from the image's centre. 0: a camera far
	// above.
	Parallax float64
	// Principal is where the optical axis meets the image; zero: the
	// image's centre.
	Principal geom.Vec2
	// Table maps image pixels to table millimetres (a camera's table
	// calibration); nil: no table position. The die's top face stands a
	// die's height above the table: a homography to the table's plane
	// places it off by that height's parallax, which a tray's own camera
	// straight above makes small.
	Table *geom.Homography
	// Classical picks the pure-Go classical reader (Reader) in Open
	// instead of the learned one: it reads the project's rendered trays
	// (vision/synth) but few real dice (docs/camera.md).
	Classical bool
}

// Die is one die found in the frame.
type Die struct {
	// Centre is the top face's centre in the image.
	Centre geom.Vec2 `json:"centre_px"`
	// Side is the die's side in the image, pixels, when the reader
	// measures it per die (the learned reader does).
	Side float64 `json:"side_px,omitempty"`
	// Table is the centre in table millimetres, when Options.Table is set.
	Table *geom.Vec2 `json:"table_mm,omitempty"`
	// Value is the face up, 1–6; 0 when the die is unreadable.
	Value int `json:"value"`
	// Unreadable says why there is no value ("cocked or stacked", …).
	Unreadable string `json:"unreadable,omitempty"`
	// Confidence is how sure the reading is, 0–1.
	Confidence float64 `json:"confidence"`
	// Colour names the die's body colour: white, black, red, green, blue,
	// yellow, or another hue's name.
	Colour string `json:"colour"`
}

// Readable says whether the die has a value.
func (d Die) Readable() bool { return d.Value > 0 }

// Reading is what one frame shows.
type Reading struct {
	Dice []Die `json:"dice"`
	// SidePx is the die side used (given or estimated).
	SidePx float64 `json:"side_px"`
}

// Values are the readable dice's values, in the order of Dice.
func (r Reading) Values() []int {
	var out []int
	for _, d := range r.Dice {
		if d.Value > 0 {
			out = append(out, d.Value)
		}
	}
	return out
}

// Unreadable counts the dice read as unreadable.
func (r Reading) Unreadable() int {
	n := 0
	for _, d := range r.Dice {
		if d.Value == 0 {
			n++
		}
	}
	return n
}

// ErrNoDieSize is returned when no die side is given and none can be
// estimated from the frame (no blob there looks like a die).
var ErrNoDieSize = errors.New("dicetray: no die size given and none found in the frame")

// Close does nothing: the classical reader holds no OpenCV memory.
func (r *Reader) Close() error { return nil }

// Reader reads frames; it keeps its buffers between frames and is not
// safe for concurrent use.
type Reader struct {
	opt   Options
	seg   segmenter
	faces []*faceReader
}

// NewReader checks the options.
func NewReader(opt Options) (*Reader, error) {
	if math.IsNaN(opt.SidePx) || math.IsInf(opt.SidePx, 0) || opt.SidePx < 0 || (opt.SidePx > 0 && opt.SidePx < 12) {
		return nil, fmt.Errorf("dicetray: a die side of %g pixels (give 0 to estimate it, or at least 12)", opt.SidePx)
	}
	if math.IsNaN(opt.Parallax) || opt.Parallax < 0 || opt.Parallax > 0.2 {
		return nil, fmt.Errorf("dicetray: parallax %g is outside 0–0.2 (a die's side over the camera's height)", opt.Parallax)
	}
	return &Reader{opt: opt}, nil
}

// Read reads the dice in one frame.
func (r *Reader) Read(f Frame) (Reading, error) {
	if f.Width < 16 || f.Height < 16 || len(f.BGR) < 3*f.Width*f.Height {
		return Reading{}, fmt.Errorf("dicetray: a frame of %d×%d with %d bytes (want ≥16×16 and 3 bytes a pixel)", f.Width, f.Height, len(f.BGR))
	}
	s := &r.seg
	s.load(f)
	s.fitBackground()
	s.components() // the mask too
	side := r.opt.SidePx
	if side == 0 {
		side = s.estimateSide()
		if side == 0 {
			return Reading{}, ErrNoDieSize
		}
	}
	cands := s.candidates(side)
	// a long core split into dice can put a centre just outside the
	// frame: the die is at the frame's edge; its window starts inside
	for i := range cands {
		c := &cands[i].centre
		c.X, c.Y = min(max(c.X, 0), float64(f.Width-1)), min(max(c.Y, 0), float64(f.Height-1))
	}
	pp := r.opt.Principal
	if pp == (geom.Vec2{}) {
		pp = geom.Vec2{X: float64(f.Width-1) / 2, Y: float64(f.Height-1) / 2}
	}
	out := Reading{SidePx: side}
	dice := make([]Die, len(cands))
	oks := make([]bool, len(cands))
	laid := make([]bool, len(cands))
	est := make([]geom.Vec2, len(cands))
	// the dice are read in parallel, each worker with its own buffers
	workers := min(runtime.GOMAXPROCS(0), 4, max(len(cands), 1))
	for len(r.faces) < workers {
		r.faces = append(r.faces, &faceReader{})
	}
	readAll := func(idx []int) {
		var next atomic.Int32
		var wg sync.WaitGroup
		for w := 0; w < min(workers, len(idx)); w++ {
			wg.Add(1)
			go func(fw *faceReader) {
				defer wg.Done()
				*fw = faceReader{f: f, seg: s, side: side, parallax: r.opt.Parallax, principal: pp, cands: cands,
					px: fw.px, cell: fw.cell, lum: fw.lum, lab: fw.lab, blobs: fw.blobs, first: fw.first, st: fw.st}
				for {
					k := int(next.Add(1)) - 1
					if k >= len(idx) {
						return
					}
					i := idx[k]
					dice[i], oks[i] = fw.read(i)
					laid[i], est[i] = fw.laid, fw.est
				}
			}(r.faces[w])
		}
		wg.Wait()
	}
	all := make([]int, len(cands))
	for i := range all {
		all[i] = i
	}
	readAll(all)
	// Touching dice: their centres came from the blob's shape; where the
	// pips of one did not form a face, look again from the centres the
	// pips give (a die's side beside its face moves its blob's centre).
	// A die's reading depends on its own blob's candidates only, so the
	// second looks run together.
	var again []int
	for _, sibs := range s.byComp {
		if len(sibs) < 2 || !slices.ContainsFunc(sibs, func(i int) bool { return !laid[i] }) {
			continue
		}
		for _, i := range sibs {
			if est[i].Dist(cands[i].centre) < 0.25*side {
				cands[i].centre = est[i]
			}
		}
		for _, i := range sibs {
			if !laid[i] {
				again = append(again, i)
			}
		}
	}
	readAll(again)
	// Two unreadable pieces less than a side apart are one die (a cocked
	// die whose face and side were seen as two blobs).
	for i := range dice {
		for j := i + 1; j < len(dice) && oks[i]; j++ {
			if oks[j] && dice[i].Value == 0 && dice[j].Value == 0 && dice[i].Centre.Dist(dice[j].Centre) < side {
				dice[i].Centre = dice[i].Centre.Add(dice[j].Centre).Scale(0.5)
				dice[i].Confidence = math.Max(dice[i].Confidence, dice[j].Confidence)
				oks[j] = false
			}
		}
	}
	for i, d := range dice {
		if !oks[i] {
			continue
		}
		// a blob at the frame's edge split into dice can put a centre
		// just outside it: that die is partly outside the frame
		// (unreadable), its centre the nearest point inside
		if cx, cy := min(max(d.Centre.X, 0), float64(f.Width-1)), min(max(d.Centre.Y, 0), float64(f.Height-1)); cx != d.Centre.X || cy != d.Centre.Y {
			d.Centre, d.Value, d.Unreadable = geom.Vec2{X: cx, Y: cy}, 0, reasonEdge
		}
		if r.opt.Table != nil {
			p := r.opt.Table.Apply(d.Centre)
			d.Table = &p
		}
		out.Dice = append(out.Dice, d)
	}
	return out, nil
}
