package board

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/vision/geom"
)

// CalibrationVersion is the format of board calibration files written now.
const CalibrationVersion = 1

// Calibration maps a printed board to camera pixels: the homography from
// board millimetres to ideal pixels (the lens's distortion removed) and
// the camera's position over the board, which the counting needs for the
// parallax of the pieces' sides.
type Calibration struct {
	Version int       `yaml:"version"`
	Created time.Time `yaml:"created"`
	Game    string    `yaml:"game"`
	// Board is the definition file it was made for ("" : the game's
	// built-in board).
	Board      string     `yaml:"board"`
	Width      int        `yaml:"width"`
	Height     int        `yaml:"height"`
	Lens       geom.Lens  `yaml:"lens"`
	Homography [9]float64 `yaml:"homography,flow"`
	// CameraMM is the camera's optical centre: x, y on the board, height.
	CameraMM [3]float64 `yaml:"camera_mm,flow"`
	// RMSPx is the reprojection error at the markers' corners.
	RMSPx   float64 `yaml:"rms_px"`
	MMPerPx float64 `yaml:"mm_per_px"`
	Markers []int   `yaml:"markers,flow"`
}

// ErrMarkers is wrapped by the errors of a calibration whose corner
// markers are missing or not where the board file puts them.
var ErrMarkers = errors.New("corner markers")

// CalibrateInput is what Calibrate needs besides the definition.
type CalibrateInput struct {
	Width, Height int
	// Seen are the markers found in the frame: id → corners in camera
	// pixels, in ArUco's order (top-left, top-right, bottom-right,
	// bottom-left of the marker).
	Seen map[int][4]geom.Vec2
	// Lens is the camera's lens when a lens calibration exists (FX 0:
	// none; the focal length is then found from CameraHeightMM, or from
	// the view's perspective, or a 1 m high camera is assumed).
	Lens           geom.Lens
	CameraHeightMM float64
	// MaxErrorPx is the reprojection error over which a calibration is
	// refused (default 3 px).
	MaxErrorPx float64
}

// Calibrate fits the board to its corner markers seen in a frame. Every
// corner marker of the definition must be seen; a marker over MaxErrorPx
// from where the board puts it (a wrong board file, a marker moved) fails
// the calibration and names it.
func Calibrate(d *Definition, in CalibrateInput) (*Calibration, error) {
	if in.Width <= 0 || in.Height <= 0 {
		return nil, fmt.Errorf("board: calibrate %s: frame size %d×%d", d.Game, in.Width, in.Height)
	}
	var missing, seen []int
	for _, m := range d.Markers {
		if _, ok := in.Seen[m.ID]; ok {
			seen = append(seen, m.ID)
		} else {
			missing = append(missing, m.ID)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("board: calibrate %s: %w %v not seen (seen: %v); is the whole board in view and lit?", d.Game, ErrMarkers, missing, seen)
	}
	maxPx := in.MaxErrorPx
	if maxPx <= 0 {
		maxPx = 3
	}
	lens := in.Lens
	if lens.FX <= 0 {
		lens = geom.Lens{CX: float64(in.Width-1) / 2, CY: float64(in.Height-1) / 2}
	}
	var src, dst []geom.Vec2
	for _, m := range d.Markers {
		bc := geom.SquareCorners(geom.Vec2{X: m.X, Y: m.Y}, m.SideMM, 0)
		pc := in.Seen[m.ID]
		for k := range 4 {
			src = append(src, bc[k])
			p := pc[k]
			if lens.FX > 0 {
				p = lens.Ideal(p)
			}
			dst = append(dst, p)
		}
	}
	h, err := geom.FitHomography(src, dst)
	if err != nil {
		return nil, fmt.Errorf("board: calibrate %s: %w: %w", d.Game, ErrMarkers, err)
	}
	if r, err := geom.RefineHomography(h, src, dst); err == nil {
		h = r
	}
	res := h.Residuals(src, dst)
	worst, worstPx := -1, 0.0
	for i, m := range d.Markers {
		e := geom.RMS(res[4*i : 4*i+4])
		if e > worstPx {
			worst, worstPx = m.ID, e
		}
	}
	if worstPx > maxPx {
		return nil, fmt.Errorf("board: calibrate %s: %w: marker %d is %.1f px from where the board file puts it (at most %g): moved, or the wrong board file", d.Game, ErrMarkers, worst, worstPx, maxPx)
	}
	if lens.FX <= 0 {
		f := 0.0
		if in.CameraHeightMM > 0 {
			f, err = geom.FocalForHeight(h, lens.CX, lens.CY, 0, in.CameraHeightMM)
			if err != nil {
				return nil, fmt.Errorf("board: calibrate %s: %w", d.Game, err)
			}
		} else if e, ok := geom.EstimateFocal(h, lens.CX, lens.CY); ok {
			f = e
		} else if e, err := geom.FocalForHeight(h, lens.CX, lens.CY, 0, 1000); err == nil {
			f = e
		} else {
			return nil, fmt.Errorf("board: calibrate %s: %w", d.Game, geom.ErrNoFocal)
		}
		lens.FX, lens.FY = f, f
	}
	fr, err := geom.NewTableFrame(h, lens.K(), 0)
	if err != nil {
		return nil, fmt.Errorf("board: calibrate %s: camera pose: %w", d.Game, err)
	}
	if !(fr.Camera[2] > d.Piece.HeightMM) {
		return nil, fmt.Errorf("board: calibrate %s: the camera comes out %.0f mm above the board, under the pieces' tops", d.Game, fr.Camera[2])
	}
	c := &Calibration{
		Version: CalibrationVersion, Created: time.Now().UTC().Truncate(time.Second), Game: d.Game,
		Width: in.Width, Height: in.Height, Lens: lens, Homography: [9]float64(h.Normalized()),
		CameraMM: [3]float64(fr.Camera), RMSPx: geom.RMS(res), Markers: seen,
	}
	a := h.Apply(geom.Vec2{X: d.WidthMM/2 - 5, Y: d.DepthMM / 2})
	b := h.Apply(geom.Vec2{X: d.WidthMM/2 + 5, Y: d.DepthMM / 2})
	c.MMPerPx = 10 / a.Dist(b)
	return c, nil
}

// Save writes the calibration.
func (c *Calibration) Save(path string) error {
	var b bytes.Buffer
	b.WriteString("# Board calibration written by `sztab calibrate board`; the camera's\n# board: setting names this file.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("board: %w", err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("board: %w", err)
	}
	return nil
}

// LoadCalibration reads a board calibration file.
func LoadCalibration(path string) (*Calibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("board: calibration: %w", err)
	}
	return ParseCalibration(path, data)
}

// ParseCalibration reads a board calibration; name is used in errors.
func ParseCalibration(name string, data []byte) (*Calibration, error) {
	var c Calibration
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &c); err != nil {
		if err.Error() == "EOF" {
			return nil, &Error{File: name, Msg: "the calibration file is empty"}
		}
		return nil, &Error{File: name, Line: yamlLine(err), Msg: err.Error()}
	}
	switch {
	case c.Version != CalibrationVersion:
		return nil, &Error{File: name, Msg: fmt.Sprintf("version %d, this sztab reads %d: calibrate the board again", c.Version, CalibrationVersion)}
	case c.Game == "":
		return nil, &Error{File: name, Msg: "game is missing"}
	case c.Width <= 0 || c.Height <= 0 || c.Width > 1<<14 || c.Height > 1<<14:
		return nil, &Error{File: name, Msg: fmt.Sprintf("frame size %d×%d", c.Width, c.Height)}
	case !finite(c.Homography[:]...) || !finite(c.CameraMM[:]...) || !finite(c.Lens.FX, c.Lens.FY, c.Lens.CX, c.Lens.CY, c.Lens.K1, c.Lens.K2, c.Lens.K3, c.Lens.P1, c.Lens.P2):
		return nil, &Error{File: name, Msg: "homography, camera_mm and lens must be numbers"}
	case !(c.Lens.FX > 0) || !(c.Lens.FY > 0) || !(c.CameraMM[2] > 0):
		return nil, &Error{File: name, Msg: "the lens's focal length and the camera's height must be positive"}
	}
	if _, err := geom.Homography(c.Homography).Inv(); err != nil {
		return nil, &Error{File: name, Msg: "the homography is singular"}
	}
	if slices.ContainsFunc(c.Homography[:], func(v float64) bool { return math.Abs(v) > 1e12 }) {
		return nil, &Error{File: name, Msg: "the homography is out of range"}
	}
	return &c, nil
}
