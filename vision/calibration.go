package vision

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/atomicfile"
	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/vision/geom"
)

// CalibrationVersion is the format of calibration files written now.
const CalibrationVersion = 1

// LensCalibration is a lens calibration file: the camera matrix and the
// distortion found from chessboard views (`sztab calibrate lens`).
type LensCalibration struct {
	Version int       `yaml:"version"`
	Created time.Time `yaml:"created"`
	Width   int       `yaml:"width"`
	Height  int       `yaml:"height"`
	Lens    geom.Lens `yaml:"lens"`
	// RMSPx is calibrateCamera's RMS reprojection error over the corners.
	RMSPx float64 `yaml:"rms_px"`
	Views int     `yaml:"views"`
	// Board is the chessboard: inner corners and square size.
	Board string `yaml:"board"`
}

// Calibration is the table calibration: how ideal pixels map to table
// millimetres at any height, and how good that mapping is.
type Calibration struct {
	Version int       `yaml:"version"`
	Created time.Time `yaml:"created"`
	// Width and Height are the frame size the calibration is for.
	Width  int `yaml:"width"`
	Height int `yaml:"height"`
	// Lens is the camera model; its distortion is zero when no lens
	// calibration was given. LensSource says where it came from.
	Lens       geom.Lens `yaml:"lens"`
	LensSource string    `yaml:"lens_source"`
	Dictionary string    `yaml:"dictionary"`
	// Homography maps (x, y) mm on the fiducials' plane to ideal pixels.
	Homography       [9]float64 `yaml:"homography,flow"`
	FiducialHeightMM float64    `yaml:"fiducial_height_mm"`
	// Vertical is the image of the upward direction (see geom.TableFrame).
	Vertical [3]float64 `yaml:"vertical,flow"`
	// CameraMM is the camera's position: x, y on the table and height.
	CameraMM [3]float64 `yaml:"camera_mm,flow"`
	TiltDeg  float64    `yaml:"tilt_deg"`
	// MMPerPx is the table's scale at its centre.
	MMPerPx   float64            `yaml:"mm_per_px"`
	Error     CalibrationError   `yaml:"error"`
	Fiducials []FiducialResidual `yaml:"fiducials"`
	Warnings  []string           `yaml:"warnings,omitempty"`

	frame geom.TableFrame
}

// CalibrationError is the reprojection error at the fiducials' corners
// that were used (the RANSAC inliers), and the cross-validation error.
type CalibrationError struct {
	RMSPx float64 `yaml:"rms_px"`
	MaxPx float64 `yaml:"max_px"`
	RMSMM float64 `yaml:"rms_mm"`
	MaxMM float64 `yaml:"max_mm"`
	// HoldoutMM is the leave-one-fiducial-out error: each fiducial used is
	// left out in turn, the lens model and the table frame are fitted to
	// the others, and its corners are placed on the table by that fit; the
	// RMS distance from where the registry puts them. Unlike RMSMM, the
	// error at the very points fitted, it shows how wrong the fit is away
	// from them (an uncorrected lens bends the table between the
	// fiducials). 0 when it could not be measured (fewer than five
	// fiducials used with a lens calibration, four without) and in
	// calibrations written before it existed.
	HoldoutMM float64 `yaml:"holdout_mm,omitempty"`
	Points    int     `yaml:"points"`
	Inliers   int     `yaml:"inliers"`
	Frames    int     `yaml:"frames"`
}

// holdoutWarnMM is the holdout error over which a calibration warns: the
// accuracy asked of positions.
const holdoutWarnMM = 2

// PositionMM is the calibration's part in a position's standard
// uncertainty: the holdout error, and at least the RMS error at the
// fiducials (all there is in calibrations without a holdout error).
func (e CalibrationError) PositionMM() float64 { return math.Max(e.RMSMM, e.HoldoutMM) }

// FiducialResidual is one fiducial's part in the calibration.
type FiducialResidual struct {
	Marker int     `yaml:"marker"`
	Seen   int     `yaml:"seen_in_frames"`
	Used   bool    `yaml:"used"`
	RMSPx  float64 `yaml:"rms_px"`
	RMSMM  float64 `yaml:"rms_mm"`
	// HoldoutMM is its error when the others place it (see
	// CalibrationError.HoldoutMM).
	HoldoutMM float64 `yaml:"holdout_mm,omitempty"`
}

// ErrOverBound is returned (wrapped) with a calibration whose error is
// over the configured bound: it must not be saved.
var ErrOverBound = errors.New("calibration error over the bound")

// TableInput is what CalibrateTable needs.
type TableInput struct {
	Width, Height int
	// Frames are the fiducials detected in each frame (refined corners,
	// camera pixels); markers that are no fiducial are ignored.
	Frames   [][]RawMarker
	Registry *Registry
	// Lens is the lens calibration, if there is one.
	Lens *LensCalibration
	// LensName names the lens file in the calibration.
	LensName       string
	CameraHeightMM float64
	MaxErrorPx     float64
	MaxErrorMM     float64
	// RansacPx is the inlier threshold (3 px).
	RansacPx float64
}

// CalibrateTable fits the table frame to fiducials seen in one or more
// frames: each fiducial's corners (the median over the frames), a RANSAC
// homography with Levenberg–Marquardt refinement, and the camera pose for
// the parallax correction. Without a lens calibration the lens's radial
// distortion is estimated from the fiducials, and kept when it places
// fiducials left out better than a lens without distortion. The holdout
// error (CalibrationError.HoldoutMM) says how well the fit holds between
// the fiducials. Over the bound, it returns the calibration
// (for the report) and an error wrapping ErrOverBound.
func CalibrateTable(in TableInput) (*Calibration, error) {
	reg := in.Registry
	if reg == nil {
		return nil, errors.New("vision: calibrate: no marker registry")
	}
	if in.Width <= 0 || in.Height <= 0 {
		return nil, fmt.Errorf("vision: calibrate: frame size %d×%d", in.Width, in.Height)
	}
	if in.RansacPx <= 0 {
		in.RansacPx = 3
	}
	cal := &Calibration{
		Version: CalibrationVersion, Created: time.Now().UTC().Truncate(time.Second),
		Width: in.Width, Height: in.Height, Dictionary: reg.Dictionary,
		FiducialHeightMM: reg.Fiducials.HeightMM,
	}
	if in.Lens != nil {
		if in.Lens.Width != in.Width || in.Lens.Height != in.Height {
			return nil, fmt.Errorf("vision: calibrate: the lens calibration is for %d×%d frames, the camera gives %d×%d", in.Lens.Width, in.Lens.Height, in.Width, in.Height)
		}
		cal.Lens = in.Lens.Lens
		cal.LensSource = "lens calibration " + in.LensName
	}
	// median corners of each fiducial over the frames, in ideal pixels
	type track struct{ xs [4][2][]float64 }
	tracks := map[int]*track{}
	for _, frame := range in.Frames {
		for _, m := range frame {
			if _, ok := reg.Fiducial(m.ID); !ok {
				continue
			}
			t := tracks[m.ID]
			if t == nil {
				t = &track{}
				tracks[m.ID] = t
			}
			for k := 0; k < 4; k++ {
				t.xs[k][0] = append(t.xs[k][0], m.Corners[k].X)
				t.xs[k][1] = append(t.xs[k][1], m.Corners[k].Y)
			}
		}
	}
	var markers []int
	for id := range tracks {
		markers = append(markers, id)
	}
	sort.Ints(markers)
	if len(markers) < 4 {
		var want []int
		for _, f := range reg.Fiducials.Markers {
			want = append(want, f.Marker)
		}
		return nil, fmt.Errorf("vision: calibrate: found %d of the fiducials %v (%v); at least 4 are needed: are the corner markers on the table and in view?", len(markers), want, markers)
	}
	var src, raw []geom.Vec2
	var groups []int
	for _, id := range markers {
		f, _ := reg.Fiducial(id)
		tc := f.Corners()
		for k := 0; k < 4; k++ {
			raw = append(raw, geom.Vec2{X: median(tracks[id].xs[k][0]), Y: median(tracks[id].xs[k][1])})
			src = append(src, tc[k])
			groups = append(groups, id)
		}
	}
	// the camera matrix and distortion: calibrated, or estimated from the
	// fiducials
	var fit planeFit // how a lens and table frame are fitted to fiducials
	if in.Lens == nil {
		cx, cy := float64(in.Width)/2-0.5, float64(in.Height)/2-0.5
		above := 0.0 // the camera's height above the fiducials, if known
		if in.CameraHeightMM > 0 {
			above = in.CameraHeightMM - cal.FiducialHeightMM
		}
		if l, with, without, ok := estimateDistortion(src, raw, groups, cx, cy, above, in.RansacPx); ok {
			how := "from the fiducials' perspective"
			if in.CameraHeightMM > 0 {
				how = fmt.Sprintf("with the camera %.0f mm above the table (camera_height_mm)", in.CameraHeightMM)
			}
			cal.Lens, fit = l, radialFit(cx, cy, above)
			cal.LensSource = fmt.Sprintf("estimated from the fiducials %s: principal point at the image centre, radial distortion k1 %.4f k2 %.4f (a fiducial left out is placed to %.2f mm RMS by the others, %.2f mm without distortion)",
				how, l.K1, l.K2, with, without)
		}
	}
	if fit == nil {
		fit = homographyFit(cal.Lens) // a lens without distortion: its focal length does not matter here
	}
	dst := idealOf(cal.Lens, raw)
	h, inl, err := geom.FitHomographyRANSAC(src, dst, geom.RansacOptions{Threshold: in.RansacPx, Seed: 1, Groups: groups})
	if err != nil {
		return nil, fmt.Errorf("vision: calibrate: fiducials %v do not determine the table plane: %w", markers, err)
	}
	// the focal length of an estimated lens without distortion: from the
	// camera's height, or from the plane's perspective
	if in.Lens == nil && cal.Lens.FX == 0 {
		cx, cy := float64(in.Width)/2-0.5, float64(in.Height)/2-0.5
		var f float64
		if in.CameraHeightMM > 0 {
			f, err = geom.FocalForHeight(h, cx, cy, cal.FiducialHeightMM, in.CameraHeightMM)
			if err != nil {
				return nil, fmt.Errorf("vision: calibrate: %w", err)
			}
			cal.LensSource = fmt.Sprintf("estimated: camera %.0f mm above the table (camera_height_mm), principal point at the image centre, no distortion", in.CameraHeightMM)
		} else {
			var ok bool
			f, ok = geom.EstimateFocal(h, cx, cy)
			if !ok || f < 0.2*float64(in.Width) || f > 20*float64(in.Width) {
				return nil, errors.New("vision: calibrate: the camera looks too squarely at the table to tell its height from the fiducials; set camera.camera_height_mm or calibrate the lens (`sztab calibrate lens`)")
			}
			cal.LensSource = "estimated from the fiducials' perspective, principal point at the image centre, no distortion"
		}
		cal.Lens = geom.Lens{FX: f, FY: f, CX: cx, CY: cy}
	}
	fr, err := geom.NewTableFrame(h, cal.Lens.K(), cal.FiducialHeightMM)
	if err != nil {
		return nil, fmt.Errorf("vision: calibrate: camera pose: %w", err)
	}
	cal.setFrame(fr)
	if in.Lens != nil && in.CameraHeightMM > 0 && math.Abs(fr.Camera[2]-in.CameraHeightMM) > 0.25*in.CameraHeightMM {
		cal.Warnings = append(cal.Warnings, fmt.Sprintf("the camera is %.0f mm above the table by the calibration, camera_height_mm says %.0f", fr.Camera[2], in.CameraHeightMM))
	}
	// errors at the inliers, per fiducial too
	var px, mm []float64
	perPx := map[int][]float64{}
	perMM := map[int][]float64{}
	used := map[int]bool{}
	for i := range src {
		if !inl[i] {
			continue
		}
		used[groups[i]] = true
		e := h.Apply(src[i]).Dist(dst[i])
		q, err := fr.Unproject(dst[i], cal.FiducialHeightMM)
		if err != nil {
			return nil, fmt.Errorf("vision: calibrate: %w", err)
		}
		em := q.Dist(src[i])
		px, mm = append(px, e), append(mm, em)
		perPx[groups[i]] = append(perPx[groups[i]], e)
		perMM[groups[i]] = append(perMM[groups[i]], em)
	}
	// the error between the fiducials: each one placed by the others. A
	// homography is the exact model of a calibrated lens's view, and three
	// fiducials place a fourth only by extrapolating across the table, so
	// with a lens calibration it takes five; an estimated lens is checked
	// with four.
	minHoldout := 4
	if in.Lens != nil {
		minHoldout = 5
	}
	holdoutMM, perHoldout, _ := holdout(src, raw, groups, inl, minHoldout, fit)
	for _, id := range markers {
		r := FiducialResidual{Marker: id, Seen: len(tracks[id].xs[0][0]), Used: used[id]}
		if used[id] {
			r.RMSPx, r.RMSMM = round3(geom.RMS(perPx[id])), round3(geom.RMS(perMM[id]))
			r.HoldoutMM = perHoldout[id]
		} else {
			// how far off it is
			var e []float64
			for i := range src {
				if groups[i] == id {
					q, _ := fr.Unproject(dst[i], cal.FiducialHeightMM)
					e = append(e, q.Dist(src[i]))
				}
			}
			cal.Warnings = append(cal.Warnings, fmt.Sprintf("fiducial %d was left out: it is %.1f mm from where the registry puts it (moved, or the registry is wrong?)", id, geom.RMS(e)))
		}
		cal.Fiducials = append(cal.Fiducials, r)
	}
	for _, f := range reg.Fiducials.Markers {
		if tracks[f.Marker] == nil {
			cal.Warnings = append(cal.Warnings, fmt.Sprintf("fiducial %d was not seen", f.Marker))
		}
	}
	cal.Error = CalibrationError{
		RMSPx: round3(geom.RMS(px)), MaxPx: round3(geom.Percentile(px, 1)),
		RMSMM: round3(geom.RMS(mm)), MaxMM: round3(geom.Percentile(mm, 1)),
		HoldoutMM: round3(holdoutMM),
		Points:    len(src), Inliers: len(px), Frames: len(in.Frames),
	}
	if cal.Error.HoldoutMM > holdoutWarnMM {
		advice := "calibrate the lens (`sztab calibrate lens`)"
		if in.Lens != nil {
			advice = "check the fiducials against the registry, or recalibrate the lens"
		}
		cal.Warnings = append(cal.Warnings, fmt.Sprintf("a fiducial left out is placed %.1f mm RMS from where the registry puts it by the others: positions between the fiducials are as uncertain; %s", cal.Error.HoldoutMM, advice))
	}
	if cal.Error.RMSPx > in.MaxErrorPx && in.MaxErrorPx > 0 {
		return cal, fmt.Errorf("vision: calibrate: %w: RMS error %.3f px > max_error_px %.3g", ErrOverBound, cal.Error.RMSPx, in.MaxErrorPx)
	}
	if cal.Error.RMSMM > in.MaxErrorMM && in.MaxErrorMM > 0 {
		return cal, fmt.Errorf("vision: calibrate: %w: RMS error %.3f mm > max_error_mm %.3g", ErrOverBound, cal.Error.RMSMM, in.MaxErrorMM)
	}
	return cal, nil
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func (c *Calibration) setFrame(fr geom.TableFrame) {
	c.frame = fr
	c.Homography = fr.H
	c.Vertical = fr.Vertical
	c.CameraMM = [3]float64{round3(fr.Camera[0]), round3(fr.Camera[1]), round3(fr.Camera[2])}
	c.TiltDeg = round3(fr.Tilt)
	c.MMPerPx = round3(c.ScaleAt(geom.Vec2{X: c.frame.Camera[0], Y: c.frame.Camera[1]}))
}

// Frame is the table frame (ideal pixels ↔ table mm at any height).
func (c *Calibration) Frame() geom.TableFrame { return c.frame }

// ScaleAt is the table's scale near p: millimetres per (ideal) pixel.
func (c *Calibration) ScaleAt(p geom.Vec2) float64 {
	a := c.frame.Project(p.X-5, p.Y, 0)
	b := c.frame.Project(p.X+5, p.Y, 0)
	d := a.Dist(b)
	if d == 0 {
		return math.NaN()
	}
	return 10 / d
}

// ToTable maps a camera pixel (distorted) to the table point at height hMM.
func (c *Calibration) ToTable(px geom.Vec2, hMM float64) (geom.Vec2, error) {
	return c.frame.Unproject(c.Lens.Ideal(px), hMM)
}

// ToImage maps a table point at height hMM to a camera pixel (distorted).
func (c *Calibration) ToImage(x, y, hMM float64) geom.Vec2 {
	return c.Lens.Real(c.frame.Project(x, y, hMM))
}

// CheckSize says whether frames of w×h can use this calibration.
func (c *Calibration) CheckSize(w, h int) error {
	if w != c.Width || h != c.Height {
		return fmt.Errorf("vision: the calibration is for %d×%d frames, the camera gives %d×%d: recalibrate (`sztab calibrate table`) or set the camera's size", c.Width, c.Height, w, h)
	}
	return nil
}

// Save writes the calibration (YAML) atomically.
func (c *Calibration) Save(path string) error {
	var buf bytes.Buffer
	buf.WriteString("# Table calibration written by `sztab calibrate table`. Do not edit: recalibrate.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("vision: calibration: %w", err)
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}

// ParseCalibration reads and checks a calibration; name is used in errors.
func ParseCalibration(name string, data []byte) (*Calibration, error) {
	var c Calibration
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &c); err != nil {
		return nil, fmt.Errorf("vision: calibration %s does not parse: %w", name, err)
	}
	if c.Version != CalibrationVersion {
		return nil, fmt.Errorf("vision: calibration %s: version %d, this build reads %d: recalibrate", name, c.Version, CalibrationVersion)
	}
	if c.Width <= 0 || c.Height <= 0 {
		return nil, fmt.Errorf("vision: calibration %s: frame size %d×%d", name, c.Width, c.Height)
	}
	if key := c.notFinite(); key != "" {
		return nil, fmt.Errorf("vision: calibration %s: %s is not a finite number: recalibrate", name, key)
	}
	if !(c.Lens.FX > 0) || !(c.Lens.FY > 0) {
		return nil, fmt.Errorf("vision: calibration %s: no camera matrix", name)
	}
	h := geom.Homography(c.Homography)
	if _, err := h.Inv(); err != nil {
		return nil, fmt.Errorf("vision: calibration %s: the homography is singular", name)
	}
	c.frame = geom.TableFrame{
		H: h, FiducialHeight: c.FiducialHeightMM, Vertical: c.Vertical,
		Camera: geom.Vec3(c.CameraMM), Tilt: c.TiltDeg,
	}
	if !(c.CameraMM[2] > 0) {
		return nil, fmt.Errorf("vision: calibration %s: the camera is not above the table", name)
	}
	return &c, nil
}

// notFinite names the first number of the calibration that is NaN or
// infinite (a damaged or hand-edited file), or "".
func (c *Calibration) notFinite() string {
	nums := lensNumbers(c.Lens)
	for i, v := range c.Homography {
		nums = append(nums, namedNumber{fmt.Sprintf("homography[%d]", i), v})
	}
	for i, v := range c.Vertical {
		nums = append(nums, namedNumber{fmt.Sprintf("vertical[%d]", i), v})
	}
	for i, v := range c.CameraMM {
		nums = append(nums, namedNumber{fmt.Sprintf("camera_mm[%d]", i), v})
	}
	e := c.Error
	nums = append(nums, namedNumber{"fiducial_height_mm", c.FiducialHeightMM}, namedNumber{"tilt_deg", c.TiltDeg},
		namedNumber{"mm_per_px", c.MMPerPx}, namedNumber{"error.rms_px", e.RMSPx}, namedNumber{"error.max_px", e.MaxPx},
		namedNumber{"error.rms_mm", e.RMSMM}, namedNumber{"error.max_mm", e.MaxMM}, namedNumber{"error.holdout_mm", e.HoldoutMM})
	for i, f := range c.Fiducials {
		nums = append(nums, namedNumber{fmt.Sprintf("fiducials[%d].rms_px", i), f.RMSPx},
			namedNumber{fmt.Sprintf("fiducials[%d].rms_mm", i), f.RMSMM}, namedNumber{fmt.Sprintf("fiducials[%d].holdout_mm", i), f.HoldoutMM})
	}
	return firstNotFinite(nums)
}

type namedNumber struct {
	key string
	v   float64
}

func lensNumbers(l geom.Lens) []namedNumber {
	return []namedNumber{{"lens.fx", l.FX}, {"lens.fy", l.FY}, {"lens.cx", l.CX}, {"lens.cy", l.CY},
		{"lens.k1", l.K1}, {"lens.k2", l.K2}, {"lens.p1", l.P1}, {"lens.p2", l.P2}, {"lens.k3", l.K3}}
}

func firstNotFinite(nums []namedNumber) string {
	for _, n := range nums {
		if math.IsNaN(n.v) || math.IsInf(n.v, 0) {
			return n.key
		}
	}
	return ""
}

// Outdated says why the calibration should be made again, or "": one
// made without a lens calibration by a version that neither estimated the
// lens's distortion nor measured the error between the fiducials (it
// loads, and positions take its RMS error at the fiducials as their
// calibration uncertainty, which may be far too small).
func (c *Calibration) Outdated() string {
	if c.Error.HoldoutMM == 0 && c.Error.RMSMM > 0 && strings.HasPrefix(c.LensSource, "estimated") && !c.Lens.HasDistortion() {
		return "the table calibration was made without a lens calibration by an older version: the lens's distortion was not estimated and the positions' uncertainty may be too small; recalibrate (`sztab calibrate table`)"
	}
	return ""
}

// LoadCalibration reads a calibration file.
func LoadCalibration(path string) (*Calibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("vision: calibration: %w; run `sztab calibrate table`", err)
		}
		return nil, fmt.Errorf("vision: calibration: %w", err)
	}
	return ParseCalibration(path, data)
}

// Save writes the lens calibration (YAML) atomically.
func (l *LensCalibration) Save(path string) error {
	var buf bytes.Buffer
	buf.WriteString("# Lens calibration written by `sztab calibrate lens`.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(l); err != nil {
		return fmt.Errorf("vision: lens calibration: %w", err)
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}

// LoadLens reads a lens calibration file.
func LoadLens(path string) (*LensCalibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vision: lens calibration: %w", err)
	}
	var l LensCalibration
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &l); err != nil {
		return nil, fmt.Errorf("vision: lens calibration %s does not parse: %w", path, err)
	}
	if l.Width <= 0 || l.Height <= 0 || !(l.Lens.FX > 0) || !(l.Lens.FY > 0) {
		return nil, fmt.Errorf("vision: lens calibration %s: no frame size or camera matrix", path)
	}
	if key := firstNotFinite(append(lensNumbers(l.Lens), namedNumber{"rms_px", l.RMSPx})); key != "" {
		return nil, fmt.Errorf("vision: lens calibration %s: %s is not a finite number: recalibrate", path, key)
	}
	return &l, nil
}
