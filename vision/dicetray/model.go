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
)

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
	// Crop is the face net's input side, pixels (train.py's CROP).
	Crop int `json:"crop"`
	// Views is how many views of each window the face net reads: 1, or 8
	// (the window turned by quarter turns and mirrored: a face's value
	// is the same in all; their chances are averaged).
	Views int `json:"views"`
}

func loadModel() (Model, error) {
	var m Model
	if err := json.Unmarshal(modelJSON, &m); err != nil {
		return m, fmt.Errorf("dicetray: model/model.json: %w", err)
	}
	if m.SidePx <= 0 || m.Temperature <= 0 || m.Find <= 0 || m.Find >= 1 || m.Sure <= 0 || m.Sure > 1 || m.Crop < 8 || (m.Views != 1 && m.Views != 8) {
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
	logits [][7]float64 // one per view
}

// probs are the face's calibrated chances: each view's softmax at the
// temperature, averaged over the views.
func (m Model) probs(c peak) [7]float64 {
	var p [7]float64
	for _, v := range c.logits {
		mx := math.Inf(-1)
		for _, l := range v {
			mx = math.Max(mx, l/m.Temperature)
		}
		var e [7]float64
		var s float64
		for k, l := range v {
			e[k] = math.Exp(l/m.Temperature - mx)
			s += e[k]
		}
		for k := range p {
			p[k] += e[k] / s / float64(len(c.logits))
		}
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
