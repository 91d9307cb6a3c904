package vision

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/vision/board"
)

// Config is the camera section of a table's configuration (camera: …).
// Relative paths are resolved against the config file's directory by
// Resolve (LoadConfig does it).
type Config struct {
	// Source is where frames come from: a V4L2 device ("/dev/video0"), a
	// GStreamer pipeline ending in appsink ("libcamerasrc ! … ! appsink"),
	// a video file, or a directory of images (read in name order).
	Source string `yaml:"source"`
	// SourceKind forces how Source is read: auto (default), v4l2,
	// gstreamer, file or dir.
	SourceKind string `yaml:"source_kind"`
	// Width, Height and FPS are asked of a V4L2 device (0: its default).
	Width  int     `yaml:"width"`
	Height int     `yaml:"height"`
	FPS    float64 `yaml:"fps"`
	// Loop restarts a file or a directory at its end; otherwise Run
	// returns after the last frame.
	Loop bool `yaml:"loop"`

	// Calibration is the table calibration file written by
	// `sztab calibrate table` (and read by the daemon).
	Calibration string `yaml:"calibration"`
	// Lens is the lens calibration file written by `sztab calibrate lens`;
	// optional. `sztab calibrate table` copies it into the calibration.
	Lens string `yaml:"lens"`
	// Markers is the marker registry: fiducials and models.
	Markers string `yaml:"markers"`
	// Board is a printed board's calibration, written by `sztab calibrate
	// board`: when set, each snapshot counts the pieces on the board
	// (Snapshot.Pieces). Optional.
	Board string `yaml:"board"`
	// Boards are the games' printed boards a board calibration may name
	// (its game's, when it names no board file of its own): not from the
	// file, the daemon hands in its games' (gamespec).
	Boards board.Printed `yaml:"-"`
	// DiceTray is a dice tray in the frame (tray.go): when set, each frame
	// reads it and snapshots carry its settled reading (Snapshot.Tray).
	// Optional.
	DiceTray *TrayConfig `yaml:"dice_tray"`
	// CameraHeightMM is the camera's height above the table, roughly (a
	// tape measure will do). Without a lens calibration it fixes the focal
	// length used to correct parallax; with one it is only checked.
	CameraHeightMM float64 `yaml:"camera_height_mm"`

	// KrokMM is one krok in millimetres (25.4).
	KrokMM float64 `yaml:"krok_mm"`
	// StillMM and StillFrames: a snapshot is taken once no model has moved
	// more than StillMM (2 mm) for StillFrames frames (5) in a row.
	StillMM     float64 `yaml:"still_mm"`
	StillFrames int     `yaml:"still_frames"`
	// StillDiff is the change in a block's brightness (grey levels, on an
	// eighth-size image) that counts as movement for the still-table fast
	// path (8). 0 keeps the default; a negative value turns the fast path
	// off.
	StillDiff float64 `yaml:"still_diff"`
	// FullEvery: when only parts of the table changed since the last
	// detected frame (a hand moving a model), only those parts are
	// searched for markers, and every FullEvery-th detection (10) looks at
	// the whole frame again. 0 keeps the default; negative: every
	// detection looks at the whole frame. Needs the still-table fast path
	// (still_diff).
	FullEvery int `yaml:"full_every"`
	// ForgetAfter: a model unseen for this long while the table is still
	// is taken as removed (2m). 0 keeps the default; negative: never.
	ForgetAfter time.Duration `yaml:"forget_after"`
	// Distances says which distances a snapshot lists: "units" (the
	// closest pair of models of every two units, the default), "all"
	// (every pair of models) or "none".
	Distances string `yaml:"distances"`

	// MaxErrorPx and MaxErrorMM bound the calibration's RMS reprojection
	// error at the fiducials (1 px, 1 mm): `sztab calibrate` refuses to
	// save a worse calibration, and the daemon warns when the fiducials
	// drift further than three times the bound.
	MaxErrorPx float64 `yaml:"max_error_px"`
	MaxErrorMM float64 `yaml:"max_error_mm"`

	// Terrain is the terrain colour calibration written by
	// `sztab calibrate terrain` (optional): with it, still tables are read
	// for cover (yellow light, green heavy), orange template markers and
	// objective markers (terrain_cgo.go). TerrainHeightMM is the height the
	// cover's painted tops are read at (0: the table).
	Terrain         string  `yaml:"terrain"`
	TerrainHeightMM float64 `yaml:"terrain_height_mm"`

	// Annotated is where the annotated JPEG of each snapshot is written
	// (empty: not written; it is still handed to OnImage).
	Annotated   string `yaml:"annotated"`
	JPEGQuality int    `yaml:"jpeg_quality"`
	// ReopenAfter is how long a source may deliver no frame before it is
	// closed and opened again (5s).
	ReopenAfter time.Duration `yaml:"reopen_after"`
}

// Source kinds.
const (
	SourceAuto      = "auto"
	SourceV4L2      = "v4l2"
	SourceGStreamer = "gstreamer"
	SourceFile      = "file"
	SourceDir       = "dir"
)

// Distance listings.
const (
	DistancesUnits = "units"
	DistancesAll   = "all"
	DistancesNone  = "none"
)

// Defaults fills the zero fields.
func (c *Config) Defaults() {
	if c.SourceKind == "" {
		c.SourceKind = SourceAuto
	}
	if c.KrokMM == 0 {
		c.KrokMM = 25.4
	}
	if c.StillMM == 0 {
		c.StillMM = 2
	}
	if c.StillFrames == 0 {
		c.StillFrames = 5
	}
	if c.StillDiff == 0 {
		c.StillDiff = 8
	}
	if c.FullEvery == 0 {
		c.FullEvery = 10
	}
	if c.ForgetAfter == 0 {
		c.ForgetAfter = 2 * time.Minute
	}
	if c.Distances == "" {
		c.Distances = DistancesUnits
	}
	if c.MaxErrorPx == 0 {
		c.MaxErrorPx = 1
	}
	if c.MaxErrorMM == 0 {
		c.MaxErrorMM = 1
	}
	if c.JPEGQuality == 0 {
		c.JPEGQuality = 85
	}
	if c.ReopenAfter == 0 {
		c.ReopenAfter = 5 * time.Second
	}
	if c.DiceTray != nil {
		c.DiceTray.defaults()
	}
}

// boardOnly: the camera watches a printed board and nothing else (no
// miniatures, so no table calibration or marker registry).
func (c Config) boardOnly() bool {
	return strings.TrimSpace(c.Board) != "" && strings.TrimSpace(c.Calibration) == "" && strings.TrimSpace(c.Markers) == ""
}

// Validate checks the config (after Defaults) and names the bad key.
func (c Config) Validate() error {
	var errs []string
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("camera.%s: %s", key, fmt.Sprintf(format, args...)))
	}
	for _, n := range []struct {
		key string
		v   float64
	}{{"fps", c.FPS}, {"camera_height_mm", c.CameraHeightMM}, {"krok_mm", c.KrokMM}, {"still_mm", c.StillMM},
		{"still_diff", c.StillDiff}, {"max_error_px", c.MaxErrorPx}, {"max_error_mm", c.MaxErrorMM}, {"terrain_height_mm", c.TerrainHeightMM}} {
		if math.IsNaN(n.v) || math.IsInf(n.v, 0) {
			bad(n.key, "%g is not a finite number", n.v)
		}
	}
	if strings.TrimSpace(c.Source) == "" {
		bad("source", "is empty; want a device (/dev/video0), a GStreamer pipeline, a video file or a directory of images")
	}
	switch c.SourceKind {
	case SourceAuto, SourceV4L2, SourceGStreamer, SourceFile, SourceDir:
	default:
		bad("source_kind", "%q: want auto, v4l2, gstreamer, file or dir", c.SourceKind)
	}
	if c.Width < 0 || c.Height < 0 || (c.Width == 0) != (c.Height == 0) {
		bad("width/height", "%d×%d: give both (or neither), positive", c.Width, c.Height)
	}
	if c.FPS < 0 {
		bad("fps", "%g is negative", c.FPS)
	}
	switch {
	case c.boardOnly():
		// a printed board with no miniatures: the board calibration is
		// the camera's only calibration
	case strings.TrimSpace(c.Calibration) == "" && strings.TrimSpace(c.Markers) != "":
		bad("calibration", "is empty; want the table calibration file (`sztab calibrate table` writes it)")
	case strings.TrimSpace(c.Calibration) != "" && strings.TrimSpace(c.Markers) == "":
		bad("markers", "is empty; want the marker registry file")
	case strings.TrimSpace(c.Calibration) == "":
		bad("calibration", "is empty; want the table calibration file (`sztab calibrate table` writes it) with the marker registry (markers), or a printed board's calibration alone (board, written by `sztab calibrate board`)")
	}
	if c.boardOnly() && strings.TrimSpace(c.Terrain) != "" {
		bad("terrain", "needs the table calibration and the marker registry (a board-only camera reads no terrain)")
	}
	if c.CameraHeightMM < 0 || (c.CameraHeightMM > 0 && (c.CameraHeightMM < 200 || c.CameraHeightMM > 10000)) {
		bad("camera_height_mm", "%g: want 200–10000 mm (or leave it out)", c.CameraHeightMM)
	}
	if !(c.KrokMM > 0) {
		bad("krok_mm", "%g: must be positive", c.KrokMM)
	}
	if !(c.StillMM > 0) {
		bad("still_mm", "%g: must be positive", c.StillMM)
	}
	if c.StillFrames < 1 {
		bad("still_frames", "%d: must be at least 1", c.StillFrames)
	}
	switch c.Distances {
	case DistancesUnits, DistancesAll, DistancesNone:
	default:
		bad("distances", "%q: want units, all or none", c.Distances)
	}
	if !(c.MaxErrorPx > 0) {
		bad("max_error_px", "%g: must be positive", c.MaxErrorPx)
	}
	if !(c.MaxErrorMM > 0) {
		bad("max_error_mm", "%g: must be positive", c.MaxErrorMM)
	}
	if c.JPEGQuality < 1 || c.JPEGQuality > 100 {
		bad("jpeg_quality", "%d: want 1–100", c.JPEGQuality)
	}
	if c.TerrainHeightMM < 0 || c.TerrainHeightMM > 300 {
		bad("terrain_height_mm", "%g: want 0–300 mm", c.TerrainHeightMM)
	}
	if c.ReopenAfter < 0 {
		bad("reopen_after", "%v is negative", c.ReopenAfter)
	}
	if c.DiceTray != nil {
		c.DiceTray.validate(bad)
	}
	if len(errs) > 0 {
		return fmt.Errorf("vision: %s", strings.Join(errs, "; "))
	}
	return nil
}

// Prepare readies a config decoded from a table configuration: the
// defaults, relative paths resolved against dir (the configuration file's
// directory), and validation.
func (c *Config) Prepare(dir string) error {
	c.Defaults()
	c.Resolve(dir)
	return c.Validate()
}

// Resolve makes the config's relative file paths relative to dir (the
// directory of the file the config came from). A GStreamer pipeline and a
// device are left alone.
func (c *Config) Resolve(dir string) {
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	c.Calibration = abs(c.Calibration)
	c.Lens = abs(c.Lens)
	c.Markers = abs(c.Markers)
	c.Board = abs(c.Board)
	c.Annotated = abs(c.Annotated)
	c.Terrain = abs(c.Terrain)
	if k := c.sourceKind(); k == SourceFile || k == SourceDir {
		c.Source = abs(c.Source)
	}
}

// sourceKind decides how Source is read.
func (c Config) sourceKind() string {
	if c.SourceKind != "" && c.SourceKind != SourceAuto {
		return c.SourceKind
	}
	s := strings.TrimSpace(c.Source)
	switch {
	case strings.HasPrefix(s, "/dev/video"):
		return SourceV4L2
	case strings.Contains(s, "!"):
		return SourceGStreamer
	}
	if st, err := os.Stat(s); err == nil && st.IsDir() {
		return SourceDir
	}
	return SourceFile
}

// ParseConfig reads a camera config from YAML: either a camera section at
// the top level, or a table configuration with a camera: key. Unknown keys
// are errors. It applies the defaults and validates; relative paths are
// resolved against the directory of name.
func ParseConfig(name string, data []byte) (Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, fmt.Errorf("vision: %s: %w", name, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return Config{}, fmt.Errorf("vision: %s: want a mapping (camera settings)", name)
	}
	top := doc.Content[0]
	node := top
	tableConfig := false
	for i := 0; i+1 < len(top.Content); i += 2 {
		switch top.Content[i].Value {
		case "camera":
			node = top.Content[i+1]
		case "game", "venue", "table", "mqtt":
			tableConfig = true
		}
	}
	if tableConfig && node == top {
		return Config{}, fmt.Errorf("vision: %s: the table configuration has no camera: section", name)
	}
	var c Config
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	if err := enc.Encode(node); err != nil {
		return Config{}, fmt.Errorf("vision: %s: %w", name, err)
	}
	dec := yaml.NewDecoder(&buf)
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &c); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, fmt.Errorf("vision: %s (camera section): %w", name, err)
	}
	c.Defaults()
	c.Resolve(filepath.Dir(name))
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("%w (in %s)", err, name)
	}
	return c, nil
}

// LoadConfig reads a camera config file (see ParseConfig).
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("vision: config: %w", err)
	}
	return ParseConfig(path, data)
}
