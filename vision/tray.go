// The dice tray in the camera's view (camera.dice_tray:). This file is
// pure Go, no OpenCV: the config, the crop and the settling run with
// CGO_ENABLED=0; pipeline_cgo.go feeds it frames.

package vision

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/sztab/sztab/vision/dicetray"
)

// TrayConfig is a dice tray in the main camera's view: a rectangle of the
// frame, in pixels, that the dice are thrown into. One camera sees the
// table and the tray; a tray seen by a camera of its own is a second
// table configuration's camera with the tray filling its frame.
type TrayConfig struct {
	// Region is the tray in the frame: x, y of its top-left corner, width
	// and height, pixels.
	Region [4]int `yaml:"region"`
	// DieSidePx is a die's side in the frame, pixels; 0: estimated from
	// each frame (the median of the blobs that look like one die).
	DieSidePx float64 `yaml:"die_side_px"`
	// Parallax is the dice's side over the camera's height above the tray
	// (16 mm dice 1 m below: 0.016); 0: a camera far above.
	Parallax float64 `yaml:"parallax"`
	// SettleFrames: a throw counts once the tray reads the same in this
	// many consecutive frames (3).
	SettleFrames int `yaml:"settle_frames"`
	// Device names the tray in the rolls it gives and in the fairness
	// watch ("tray").
	Device string `yaml:"device"`
	// Reader is the dice reader: "learned" (the default; trained on
	// photographs of real dice) or "classical" (pure Go; reads the
	// project's rendered trays, few real dice). docs/camera.md compares
	// them.
	Reader string `yaml:"reader"`
}

// Rect is the tray's region as a rectangle.
func (t TrayConfig) Rect() image.Rectangle {
	return image.Rect(t.Region[0], t.Region[1], t.Region[0]+t.Region[2], t.Region[1]+t.Region[3])
}

func (t *TrayConfig) defaults() {
	if t.SettleFrames == 0 {
		t.SettleFrames = 3
	}
	if t.Device == "" {
		t.Device = "tray"
	}
	if t.Reader == "" {
		t.Reader = "learned"
	}
}

func (t TrayConfig) validate(bad func(key, format string, args ...any)) {
	if r := t.Region; r[0] < 0 || r[1] < 0 || r[2] < 16 || r[3] < 16 {
		bad("dice_tray.region", "%v: want [x, y, width, height] in pixels, at least 16×16, inside the frame", r)
	}
	if math.IsNaN(t.DieSidePx) || t.DieSidePx < 0 || (t.DieSidePx > 0 && t.DieSidePx < 12) {
		bad("dice_tray.die_side_px", "%g: want 0 (estimate) or at least 12 pixels", t.DieSidePx)
	}
	if math.IsNaN(t.Parallax) || t.Parallax < 0 || t.Parallax > 0.2 {
		bad("dice_tray.parallax", "%g: want 0–0.2 (a die's side over the camera's height)", t.Parallax)
	}
	if t.Reader != "learned" && t.Reader != "classical" {
		bad("dice_tray.reader", "%q: want learned or classical", t.Reader)
	}
	if t.SettleFrames < 2 || t.SettleFrames > 100 {
		bad("dice_tray.settle_frames", "%d: want 2–100", t.SettleFrames)
	}
}

// Tray is the dice tray's settled reading in a snapshot: the dice of the
// last throw that lay still for the configured frames. An unreadable die
// (cocked, stacked) has value 0 and a reason: the throw is not a roll.
type Tray struct {
	// Device is the tray's name (camera.dice_tray.device).
	Device string         `json:"device"`
	Dice   []dicetray.Die `json:"dice"`
	// SidePx is the die side the reading used, pixels.
	SidePx float64 `json:"side_px,omitempty"`
}

// Reading is the tray as a dicetray reading.
func (t Tray) Reading() dicetray.Reading {
	return dicetray.Reading{Dice: t.Dice, SidePx: t.SidePx}
}

// trayState reads the tray in each frame and keeps its settled reading.
type trayState struct {
	cfg    TrayConfig
	reader dicetray.TrayReader
	settle *dicetray.Settler
	buf    []byte
	// fresh is set when a frame settled a new reading that no snapshot
	// carried yet
	fresh bool
	err   string
}

func newTrayState(cfg TrayConfig) (*trayState, error) {
	r, err := dicetray.Open(dicetray.Options{SidePx: cfg.DieSidePx, Parallax: cfg.Parallax, Classical: cfg.Reader == "classical"})
	if err != nil {
		return nil, fmt.Errorf("vision: camera.dice_tray: %w", err)
	}
	s, err := dicetray.NewSettler(cfg.SettleFrames)
	if err != nil {
		return nil, fmt.Errorf("vision: camera.dice_tray: %w", err)
	}
	return &trayState{cfg: cfg, reader: r, settle: s}, nil
}

// observe reads the tray in one BGR frame (w×h, rows of stride bytes).
// same says the frame is the one read last time (a still table): the last
// reading stands without reading it again.
func (t *trayState) observe(w, h, stride int, bgr []byte, same bool) {
	rect := t.cfg.Rect()
	if !rect.In(image.Rect(0, 0, w, h)) {
		t.err = fmt.Sprintf("dice tray: region %v is outside the %d×%d frame", t.cfg.Region, w, h)
		t.settle.Observe(dicetray.Reading{}, false)
		return
	}
	var r dicetray.Reading
	var err error
	if same && t.settle.Last() != nil {
		r = *t.settle.Last()
	} else {
		t.buf = cropBGR(t.buf, bgr, stride, rect)
		r, err = t.reader.Read(dicetray.Frame{Width: rect.Dx(), Height: rect.Dy(), BGR: t.buf})
		if errors.Is(err, dicetray.ErrNoDieSize) {
			// an empty tray: nothing looks like a die
			r, err = dicetray.Reading{Dice: []dicetray.Die{}}, nil
		}
	}
	if err != nil {
		t.err = "dice tray: " + err.Error()
		t.settle.Observe(dicetray.Reading{}, false)
		return
	}
	t.err = ""
	if _, changed := t.settle.Observe(r, true); changed {
		t.fresh = true
	}
}

// fill puts the settled reading, if any, into the snapshot.
func (t *trayState) fill(s *Snapshot) {
	t.fresh = false
	if t.err != "" {
		s.Warnings = append(s.Warnings, t.err)
	}
	r := t.settle.Settled()
	if r == nil {
		return
	}
	s.Tray = &Tray{Device: t.cfg.Device, Dice: append([]dicetray.Die{}, r.Dice...), SidePx: r.SidePx}
}

// cropBGR copies rect of a BGR image (rows stride bytes apart) into buf.
func cropBGR(buf, bgr []byte, stride int, rect image.Rectangle) []byte {
	n := 3 * rect.Dx() * rect.Dy()
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	row := 3 * rect.Dx()
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		off := y*stride + 3*rect.Min.X
		copy(buf[(y-rect.Min.Y)*row:], bgr[off:off+row])
	}
	return buf
}
