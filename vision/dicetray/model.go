package dicetray

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"

	"github.com/sztab/sztab/vision/geom"
)

// The learned reader's model (learned.go runs it; train/train.py made it
// from testdata/dice-photos, BSD-3, see model/README.md):
//
//   - the finder: on the frame at half the size the dice had in training,
//     every finderStride of its pixels, the chance a die's top face is
//     centred there, the centre's place in the cell and the die's side;
//   - the face: a window faceWindow sides square around each centre the
//     finder found, resized to faceCrop², gives the face's value 1–6 or
//     "not a die".
//
// Model holds what was chosen on the calibration photos (every fifth
// photo from the second, never trained on): the temperature that makes
// the face's chances honest, the finder's threshold and the chance below
// which a die is unreadable.
var (
	//go:embed model/finder.onnx
	finderONNX []byte
	//go:embed model/face.onnx
	faceONNX []byte
	//go:embed model/model.json
	modelJSON []byte
)

const (
	finderStride = 4   // the finder's cell, its input's pixels
	faceWindow   = 1.3 // the face window's side, in die sides
	faceCrop     = 28  // the face net's input side, pixels
)

// reasonUnsure is the learned reader's reason for a die whose face it is
// not sure of.
const reasonUnsure = "the face is not clear (glare, a cocked or touching die, a hand?)"

// Model is the calibration of the learned reader (model/model.json).
type Model struct {
	// SidePx is the dice's typical side in the training photos: a frame
	// whose die side is given is scaled to it.
	SidePx float64 `json:"side_px"`
	// Temperature divides the face net's logits before the softmax.
	Temperature float64 `json:"temperature"`
	// Find is the finder's least chance for a die.
	Find float64 `json:"find"`
	// Sure is the least chance of a value for the die to be read; below
	// it the die is unreadable.
	Sure float64 `json:"sure"`
}

func loadModel() (Model, error) {
	var m Model
	if err := json.Unmarshal(modelJSON, &m); err != nil {
		return m, fmt.Errorf("dicetray: model/model.json: %w", err)
	}
	if m.SidePx <= 0 || m.Temperature <= 0 || m.Find <= 0 || m.Find >= 1 || m.Sure <= 0 || m.Sure > 1 {
		return m, fmt.Errorf("dicetray: model/model.json: %+v is not a calibration", m)
	}
	return m, nil
}

// peak is one finder's peak and the face net's logits there (values
// 1–6, then "not a die").
type peak struct {
	centre geom.Vec2
	side   float64
	heat   float64
	edge   bool
	logits [7]float64
}

// probs are the face's calibrated chances.
func (m Model) probs(c peak) [7]float64 {
	var p [7]float64
	mx := math.Inf(-1)
	for _, l := range c.logits {
		mx = math.Max(mx, l/m.Temperature)
	}
	var s float64
	for k, l := range c.logits {
		p[k] = math.Exp(l/m.Temperature - mx)
		s += p[k]
	}
	for k := range p {
		p[k] /= s
	}
	return p
}

// decide turns a peak into a die; false: not a die.
func (m Model) decide(c peak) (Die, bool) {
	p := m.probs(c)
	best := 0
	for k := 1; k < 7; k++ {
		if p[k] > p[best] {
			best = k
		}
	}
	if best == 6 {
		return Die{}, false
	}
	d := Die{Centre: c.centre, Confidence: p[best]}
	switch {
	case c.edge:
		d.Unreadable = reasonEdge
	case p[best] < m.Sure:
		d.Unreadable = reasonUnsure
	default:
		d.Value = best + 1
	}
	return d, true
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// colourOf names the body colour of the die at c: the pixels of the
// middle of its face split at their mean brightness, the larger part the
// body, the other the pips.
func colourOf(f Frame, c geom.Vec2, side float64) string {
	r := 0.3 * side
	x0, x1 := max(int(c.X-r), 0), min(int(c.X+r), f.Width-1)
	y0, y1 := max(int(c.Y-r), 0), min(int(c.Y+r), f.Height-1)
	var mean float64
	n := 0
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			p := f.BGR[3*(y*f.Width+x):]
			mean += float64(p[0]) + float64(p[1]) + float64(p[2])
			n++
		}
	}
	if n == 0 {
		return ""
	}
	mean /= float64(n)
	var hi, lo [3]float64
	var nh, nl float64
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			p := f.BGR[3*(y*f.Width+x):]
			s := float64(p[0]) + float64(p[1]) + float64(p[2])
			for ch := 0; ch < 3; ch++ {
				if s >= mean {
					hi[ch] += float64(p[ch])
				} else {
					lo[ch] += float64(p[ch])
				}
			}
			if s >= mean {
				nh++
			} else {
				nl++
			}
		}
	}
	for ch := 0; ch < 3; ch++ {
		hi[ch] /= math.Max(nh, 1)
		lo[ch] /= math.Max(nl, 1)
	}
	if nh >= nl {
		return colourName(hi, lo)
	}
	return colourName(lo, hi)
}
