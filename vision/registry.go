package vision

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/geom"
)

// Registry is the marker registry of a table (firmware-config/markers.yaml):
// the dictionary, the fiducials that define the table frame and the model
// each other marker is glued to.
type Registry struct {
	Dictionary string        `yaml:"dictionary"`
	Table      TableSpec     `yaml:"table"`
	Fiducials  FiducialSet   `yaml:"fiducials"`
	Defaults   ModelDefaults `yaml:"defaults"`
	Models     []ModelSpec   `yaml:"models"`

	dict      *aruco.Dictionary
	byMarker  map[int]*ModelSpec
	fiducials map[int]*FiducialSpec
	minSide   float64
	maxSide   float64
}

// TableSpec is the playing area.
type TableSpec struct {
	WidthMM float64 `yaml:"width_mm"`
	DepthMM float64 `yaml:"depth_mm"`
}

// FiducialSet places the fiducial markers on the table. The table's x
// runs along its width, y along its depth, from the corner with fiducial
// 0 (seen from above with x to the right, y points towards the viewer).
type FiducialSet struct {
	// SideMM is the printed side of the black square (default 50).
	SideMM float64 `yaml:"side_mm"`
	// HeightMM is how far the printed face sits above the table (a card
	// 0.3 mm, a tile 3 mm).
	HeightMM float64        `yaml:"height_mm"`
	Markers  []FiducialSpec `yaml:"markers"`
}

// FiducialSpec is one fiducial: its marker, its centre on the table and
// its turn (degrees clockwise seen from above; 0: the marker's top edge
// faces y = 0).
type FiducialSpec struct {
	Marker int     `yaml:"marker"`
	X      float64 `yaml:"x_mm"`
	Y      float64 `yaml:"y_mm"`
	SideMM float64 `yaml:"side_mm,omitempty"`
	Rot    float64 `yaml:"rot_deg,omitempty"`
}

// ModelDefaults fill what a model entry leaves out.
type ModelDefaults struct {
	// HeightMM is the height of a base's top, where the marker is (3.5).
	HeightMM float64 `yaml:"height_mm"`
	// MarkerRatio is the marker's side over the base diameter (0.64).
	MarkerRatio float64 `yaml:"marker_ratio"`
	// HeightToleranceMM is how well the heights are known (0.5); it goes
	// into the uncertainty of the parallax correction.
	HeightToleranceMM float64 `yaml:"height_tolerance_mm"`
}

// ModelSpec is one model: the marker on its base and what it is.
type ModelSpec struct {
	Marker  int    `yaml:"marker"`
	ID      string `yaml:"id"`
	Unit    string `yaml:"unit"`
	Faction string `yaml:"faction,omitempty"`
	Name    string `yaml:"name,omitempty"`
	// BaseMM is the round base's diameter (25, 32, 40, …).
	BaseMM float64 `yaml:"base_mm"`
	// MarkerMM is the printed marker's side, border included.
	MarkerMM float64 `yaml:"marker_mm,omitempty"`
	// HeightMM is the height of the marker above the table (the base's top).
	HeightMM float64 `yaml:"height_mm,omitempty"`
}

// ParseRegistry reads a registry; name is used in errors.
func ParseRegistry(name string, data []byte) (*Registry, error) {
	var r Registry
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &r); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("vision: markers %s: the file is empty", name)
		}
		return nil, fmt.Errorf("vision: markers %s: %w", name, err)
	}
	if err := r.init(); err != nil {
		return nil, fmt.Errorf("vision: markers %s: %w", name, err)
	}
	return &r, nil
}

// LoadRegistry reads a registry file.
func LoadRegistry(path string) (*Registry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vision: markers: %w", err)
	}
	return ParseRegistry(path, data)
}

// init fills defaults, validates and indexes.
func (r *Registry) init() error {
	if r.Dictionary == "" {
		r.Dictionary = "4x4_100"
	}
	d, err := aruco.Lookup(r.Dictionary)
	if err != nil {
		return fmt.Errorf("dictionary: %w", err)
	}
	r.dict = d
	if r.Fiducials.SideMM == 0 {
		r.Fiducials.SideMM = 50
	}
	if r.Defaults.HeightMM == 0 {
		r.Defaults.HeightMM = 3.5
	}
	if r.Defaults.MarkerRatio == 0 {
		r.Defaults.MarkerRatio = 0.64
	}
	if r.Defaults.HeightToleranceMM == 0 {
		r.Defaults.HeightToleranceMM = 0.5
	}
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	finite := func(key string, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			bad("%s: %g is not a finite number", key, v)
		}
	}
	finite("table.width_mm", r.Table.WidthMM)
	finite("table.depth_mm", r.Table.DepthMM)
	finite("fiducials.side_mm", r.Fiducials.SideMM)
	finite("fiducials.height_mm", r.Fiducials.HeightMM)
	finite("defaults.height_mm", r.Defaults.HeightMM)
	finite("defaults.marker_ratio", r.Defaults.MarkerRatio)
	finite("defaults.height_tolerance_mm", r.Defaults.HeightToleranceMM)
	if !(r.Table.WidthMM > 0) || !(r.Table.DepthMM > 0) {
		bad("table: width_mm and depth_mm must be positive (got %g × %g)", r.Table.WidthMM, r.Table.DepthMM)
	}
	if r.Defaults.MarkerRatio <= 0 || r.Defaults.MarkerRatio > 1/math.Sqrt2 {
		bad("defaults.marker_ratio %g: want (0, 0.707] so the marker fits on the base", r.Defaults.MarkerRatio)
	}
	if r.Fiducials.SideMM <= 0 || r.Fiducials.HeightMM < 0 {
		bad("fiducials: side_mm must be positive and height_mm not negative")
	}
	used := map[int]string{}
	use := func(marker int, what string) {
		if marker < 0 || marker >= d.Len() {
			bad("%s: marker %d is not in dictionary %s (0–%d)", what, marker, d.Name, d.Len()-1)
			return
		}
		if prev, ok := used[marker]; ok {
			bad("%s: marker %d is already %s", what, marker, prev)
			return
		}
		used[marker] = what
	}
	r.fiducials = map[int]*FiducialSpec{}
	for i := range r.Fiducials.Markers {
		f := &r.Fiducials.Markers[i]
		if f.SideMM == 0 {
			f.SideMM = r.Fiducials.SideMM
		}
		what := fmt.Sprintf("fiducial %d", f.Marker)
		use(f.Marker, what)
		finite(what+": x_mm", f.X)
		finite(what+": y_mm", f.Y)
		finite(what+": side_mm", f.SideMM)
		finite(what+": rot_deg", f.Rot)
		if f.SideMM <= 0 {
			bad("%s: side_mm must be positive", what)
		}
		r.fiducials[f.Marker] = f
	}
	if len(r.Fiducials.Markers) < 4 {
		bad("fiducials: %d markers; the table frame needs at least 4 (the corners)", len(r.Fiducials.Markers))
	}
	r.byMarker = map[int]*ModelSpec{}
	ids := map[string]bool{}
	r.minSide, r.maxSide = math.Inf(1), 0
	for i := range r.Models {
		m := &r.Models[i]
		what := fmt.Sprintf("model %q", m.ID)
		if m.ID == "" {
			bad("models[%d] (marker %d): id is empty", i, m.Marker)
		} else if ids[m.ID] {
			bad("%s: the id is used twice", what)
		}
		ids[m.ID] = true
		if m.Unit == "" {
			bad("%s: unit is empty", what)
		}
		finite(what+": base_mm", m.BaseMM)
		finite(what+": marker_mm", m.MarkerMM)
		finite(what+": height_mm", m.HeightMM)
		if !(m.BaseMM > 0) {
			bad("%s: base_mm must be positive", what)
			continue
		}
		if m.MarkerMM == 0 {
			m.MarkerMM = math.Round(m.BaseMM * r.Defaults.MarkerRatio)
		}
		if m.HeightMM == 0 {
			m.HeightMM = r.Defaults.HeightMM
		}
		if m.MarkerMM <= 0 || m.MarkerMM*math.Sqrt2 > m.BaseMM+0.01 {
			bad("%s: a %g mm marker does not fit on a %g mm base", what, m.MarkerMM, m.BaseMM)
		}
		if m.HeightMM < 0 || m.HeightMM > 200 {
			bad("%s: height_mm %g: want 0–200", what, m.HeightMM)
		}
		use(m.Marker, what)
		r.byMarker[m.Marker] = m
		r.minSide = math.Min(r.minSide, m.MarkerMM)
		r.maxSide = math.Max(r.maxSide, m.MarkerMM)
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// Dict is the registry's dictionary.
func (r *Registry) Dict() *aruco.Dictionary { return r.dict }

// Model is the model whose base carries marker.
func (r *Registry) Model(marker int) (*ModelSpec, bool) {
	m, ok := r.byMarker[marker]
	return m, ok
}

// Fiducial is the fiducial with marker.
func (r *Registry) Fiducial(marker int) (*FiducialSpec, bool) {
	f, ok := r.fiducials[marker]
	return f, ok
}

// Corners are the fiducial's corners on the table, ArUco order.
func (f *FiducialSpec) Corners() [4]geom.Vec2 {
	return geom.SquareCorners(geom.Vec2{X: f.X, Y: f.Y}, f.SideMM, f.Rot)
}

// Units lists the units, sorted.
func (r *Registry) Units() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range r.Models {
		if !seen[m.Unit] {
			seen[m.Unit] = true
			out = append(out, m.Unit)
		}
	}
	sort.Strings(out)
	return out
}
