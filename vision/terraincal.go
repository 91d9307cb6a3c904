// The terrain calibration: the colours of light and heavy cover, template
// markers and objective markers under a table's own light. Pure Go: it
// builds without cgo.

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
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/atomicfile"
	"github.com/sztab/sztab/internal/yamlsafe"
)

// TerrainCalibrationVersion is the format of terrain calibration files.
const TerrainCalibrationVersion = 1

// Colour classes the terrain reader knows. The skirmish rulebook,
// "Modyfikator przeszkód", contradicts itself: its line 98 marks heavy
// cover yellow, while its example (rubble, light cover) and the next
// paragraph make light cover yellow and heavy cover green, as the issue
// does; the reader follows the latter. An objective marker is not
// described by the rulebook nor in the marker registry: here it is a blue
// disc (40 mm unless the calibration sample measures otherwise).
const (
	ClassLight     = "light"     // light cover: yellow
	ClassHeavy     = "heavy"     // heavy cover: green
	ClassTemplate  = "template"  // template markers: orange
	ClassObjective = "objective" // objective markers: blue discs
)

// TerrainClasses are the colour classes in the order they are read.
var TerrainClasses = []string{ClassLight, ClassHeavy, ClassTemplate, ClassObjective}

// ColourRange is one class's colours in OpenCV's HSV (hue 0–179 in half
// degrees, saturation and value 0–255). A hue range whose low end is above
// its high end wraps through red (170–8).
type ColourRange struct {
	Hue [2]int `yaml:"hue,flow"`
	Sat [2]int `yaml:"sat,flow"`
	Val [2]int `yaml:"val,flow"`
	// Median is the sample's median H, S, V (for the drift check).
	Median [3]int `yaml:"median,flow"`
}

// HueContains says whether hue h (0–179) is in the range.
func (r ColourRange) HueContains(h int) bool {
	if r.Hue[0] <= r.Hue[1] {
		return h >= r.Hue[0] && h <= r.Hue[1]
	}
	return h >= r.Hue[0] || h <= r.Hue[1]
}

// Contains says whether the HSV colour is in the range.
func (r ColourRange) Contains(h, s, v int) bool {
	return r.HueContains(h) && s >= r.Sat[0] && s <= r.Sat[1] && v >= r.Val[0] && v <= r.Val[1]
}

// TerrainCalibration is the file `sztab calibrate terrain` writes: the
// colour range of each class, learnt from a frame of the table under its
// own light, and the table's own colour and brightness then, against which
// later frames are checked (unlit, overexposed, colours drifted).
type TerrainCalibration struct {
	Version int       `yaml:"version"`
	Created time.Time `yaml:"created"`
	// Width and Height are the frame size it was made at.
	Width  int `yaml:"width"`
	Height int `yaml:"height"`
	// Light, Heavy, Template and Objective are the classes' colours.
	Light     ColourRange `yaml:"light"`
	Heavy     ColourRange `yaml:"heavy"`
	Template  ColourRange `yaml:"template"`
	Objective ColourRange `yaml:"objective"`
	// Table is the median H, S, V of the bare table (the mat) and
	// Brightness its mean value (V, 0–255).
	Table      [3]int  `yaml:"table,flow"`
	Brightness float64 `yaml:"brightness"`
	// ObjectiveMM is an objective marker's diameter (measured on the
	// sample; 40 by default).
	ObjectiveMM float64 `yaml:"objective_mm"`
	// MinPieceMM2 is the smallest piece of cover kept (300 mm²): smaller
	// blobs of colour are noise, a dropped die, a painted model.
	MinPieceMM2 float64 `yaml:"min_piece_mm2"`
}

// Range is the class's colour range.
func (c *TerrainCalibration) Range(class string) ColourRange {
	switch class {
	case ClassLight:
		return c.Light
	case ClassHeavy:
		return c.Heavy
	case ClassTemplate:
		return c.Template
	}
	return c.Objective
}

func (c *TerrainCalibration) setRange(class string, r ColourRange) {
	switch class {
	case ClassLight:
		c.Light = r
	case ClassHeavy:
		c.Heavy = r
	case ClassTemplate:
		c.Template = r
	default:
		c.Objective = r
	}
}

// Save writes the terrain calibration (YAML) atomically.
func (c *TerrainCalibration) Save(path string) error {
	var buf bytes.Buffer
	buf.WriteString("# Terrain colours written by `sztab calibrate terrain` (HSV as OpenCV: hue 0-179, sat and val 0-255).\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("vision: terrain calibration: %w", err)
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}

// LoadTerrainCalibration reads a terrain calibration file.
func LoadTerrainCalibration(path string) (*TerrainCalibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("vision: terrain calibration: %w; run `sztab calibrate terrain`", err)
		}
		return nil, fmt.Errorf("vision: terrain calibration: %w", err)
	}
	return ParseTerrainCalibration(path, data)
}

// ParseTerrainCalibration reads and checks a terrain calibration; errors
// name the file and the line (name:line: key: what is wrong).
func ParseTerrainCalibration(name string, data []byte) (*TerrainCalibration, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("vision: terrain calibration %s does not parse: %w", name, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("vision: terrain calibration %s: want a mapping (the file `sztab calibrate terrain` writes)", name)
	}
	var c TerrainCalibration
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("vision: terrain calibration %s does not parse: %w", name, err)
	}
	root := doc.Content[0]
	bad := func(path, format string, args ...any) error {
		return fmt.Errorf("vision: terrain calibration %s:%d: %s: %s", name, lineOf(root, path), path, fmt.Sprintf(format, args...))
	}
	if c.Version != TerrainCalibrationVersion {
		return nil, bad("version", "%d, this build reads %d: recalibrate (`sztab calibrate terrain`)", c.Version, TerrainCalibrationVersion)
	}
	if c.Width <= 0 || c.Height <= 0 {
		return nil, bad("width", "frame size %d×%d", c.Width, c.Height)
	}
	for _, class := range TerrainClasses {
		r := c.Range(class)
		if !present(root, class) {
			return nil, bad(class, "missing: every class (light, heavy, template, objective) needs its colours")
		}
		for _, ch := range []struct {
			key string
			v   [2]int
			max int
		}{{"hue", r.Hue, 179}, {"sat", r.Sat, 255}, {"val", r.Val, 255}} {
			if ch.v[0] < 0 || ch.v[1] < 0 || ch.v[0] > ch.max || ch.v[1] > ch.max {
				return nil, bad(class+"."+ch.key, "%v is out of 0–%d", ch.v, ch.max)
			}
			if ch.key != "hue" && ch.v[0] > ch.v[1] {
				return nil, bad(class+"."+ch.key, "%v: low end above high end", ch.v)
			}
		}
		if r.Sat[0] < 40 {
			return nil, bad(class+".sat", "%v: a colour class must start at saturation 40 or more, or grey and white would be read as cover", r.Sat)
		}
		for i, v := range r.Median {
			if v < 0 || v > 255 || (i == 0 && v > 179) {
				return nil, bad(class+".median", "%v is out of range", r.Median)
			}
		}
	}
	for i, v := range c.Table {
		if v < 0 || v > 255 || (i == 0 && v > 179) {
			return nil, bad("table", "%v is out of range (H 0–179, S and V 0–255)", c.Table)
		}
	}
	if !(c.Brightness > 0 && c.Brightness <= 255) {
		return nil, bad("brightness", "%g: want 0–255 (the table's mean value when calibrated)", c.Brightness)
	}
	if !(c.ObjectiveMM >= 5 && c.ObjectiveMM <= 300) {
		return nil, bad("objective_mm", "%g: want 5–300 mm", c.ObjectiveMM)
	}
	if math.IsNaN(c.MinPieceMM2) || c.MinPieceMM2 < 0 || c.MinPieceMM2 > 1e6 {
		return nil, bad("min_piece_mm2", "%g: want 0–1000000", c.MinPieceMM2)
	}
	if c.MinPieceMM2 == 0 {
		c.MinPieceMM2 = 300
	}
	// two classes sharing colours would read one as the other
	for i, a := range TerrainClasses {
		for _, b := range TerrainClasses[i+1:] {
			ra, rb := c.Range(a), c.Range(b)
			if rangesOverlap(ra, rb) {
				return nil, bad(b, "its colours overlap %s's (hue %v and %v, saturation %v and %v, value %v and %v): recalibrate", a, rb.Hue, ra.Hue, rb.Sat, ra.Sat, rb.Val, ra.Val)
			}
		}
	}
	return &c, nil
}

// rangesOverlap says whether some HSV colour is in both ranges.
func rangesOverlap(a, b ColourRange) bool {
	span := func(x, y [2]int) bool { return x[0] <= y[1] && y[0] <= x[1] }
	if !span(a.Sat, b.Sat) || !span(a.Val, b.Val) {
		return false
	}
	for h := 0; h < 180; h++ {
		if a.HueContains(h) && b.HueContains(h) {
			return true
		}
	}
	return false
}

// lineOf is the line of the key path ("light.hue") in the YAML mapping,
// or of the deepest part of it that is there.
func lineOf(n *yaml.Node, path string) int {
	line := n.Line
	for _, key := range strings.Split(path, ".") {
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, n, found = n.Content[i].Line, n.Content[i+1], true
				break
			}
		}
		if !found || n.Kind != yaml.MappingNode {
			break
		}
	}
	return line
}

func present(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// TerrainOptions say where `sztab calibrate terrain` takes its frames.
type TerrainOptions struct {
	// Images are read instead of camera frames; otherwise Frames frames (3).
	Images []string
	Frames int
	// Regions name where a class's sample lies: [x0, y0, x1, y1] in table
	// mm, inside the piece. Classes without one are found by their hue.
	Regions map[string][4]float64
}

// HSV is a colour in OpenCV's HSV (hue 0–179).
type HSV [3]uint8

// TerrainSamples are the pixels `sztab calibrate terrain` learns from:
// each class's sample piece and the bare table around them.
type TerrainSamples struct {
	Width, Height int
	Classes       map[string][]HSV
	Table         []HSV
	// ObjectiveMM is the objective sample's measured diameter (0: 40).
	ObjectiveMM float64
}

// Hue priors (OpenCV half degrees) used to tell the classes apart when the
// samples are found automatically: orange, yellow, green, blue.
var classHue = map[string]int{ClassTemplate: 12, ClassLight: 26, ClassHeavy: 60, ClassObjective: 110}

// LearnTerrain turns samples into a calibration: each class's hue range
// is its samples' 1st–99th percentile widened by a third of its width
// (at least 4), its saturation and value start well below the samples'
// (the same paint in a darker corner); a class whose range takes in more
// than 0.5% of the bare table, or another class's samples, is refused
// with the reason.
func LearnTerrain(in TerrainSamples) (*TerrainCalibration, error) {
	if in.Width <= 0 || in.Height <= 0 {
		return nil, fmt.Errorf("vision: calibrate terrain: frame size %d×%d", in.Width, in.Height)
	}
	if len(in.Table) < 100 {
		return nil, fmt.Errorf("vision: calibrate terrain: only %d pixels of bare table; leave most of the table free", len(in.Table))
	}
	c := &TerrainCalibration{Version: TerrainCalibrationVersion, Created: time.Now().UTC().Truncate(time.Second),
		Width: in.Width, Height: in.Height, ObjectiveMM: in.ObjectiveMM, MinPieceMM2: 300}
	if c.ObjectiveMM == 0 {
		c.ObjectiveMM = 40
	}
	// the table
	var hs, ss, vs []int
	sum := 0.0
	for _, p := range in.Table {
		hs, ss, vs = append(hs, int(p[0])), append(ss, int(p[1])), append(vs, int(p[2]))
		sum += float64(p[2])
	}
	c.Table = [3]int{pctInt(hs, .5), pctInt(ss, .5), pctInt(vs, .5)}
	c.Brightness = math.Round(10*sum/float64(len(in.Table))) / 10
	tableSat := pctInt(ss, .995)
	for _, class := range TerrainClasses {
		px := in.Classes[class]
		if len(px) < 30 {
			return nil, fmt.Errorf("vision: calibrate terrain: no sample of %s (%s) found (%d pixels): put a piece of it on the table in view", class, classColourName[class], len(px))
		}
		// hues around the class's prior, unwrapped
		prior := classHue[class]
		var hh, sv, vv []int
		for _, p := range px {
			h := int(p[0])
			if h-prior > 90 {
				h -= 180
			} else if prior-h > 90 {
				h += 180
			}
			hh, sv, vv = append(hh, h), append(sv, int(p[1])), append(vv, int(p[2]))
		}
		lo, hi, med := pctInt(hh, .01), pctInt(hh, .99), pctInt(hh, .5)
		m := max(4, (hi-lo)/3)
		lo, hi = lo-m, hi+m
		if hi-lo >= 90 {
			return nil, fmt.Errorf("vision: calibrate terrain: the %s sample's hues spread over %d–%d: is it one colour, lit evenly?", class, lo, hi)
		}
		sLo := pctInt(sv, .01)
		satMin := max(40, int(0.6*float64(sLo)), tableSat+15)
		if satMin > sLo {
			return nil, fmt.Errorf("vision: calibrate terrain: the %s sample (saturation from %d) is hardly more colourful than the table (up to %d): use a stronger %s", class, sLo, tableSat, classColourName[class])
		}
		r := ColourRange{
			Hue:    [2]int{wrapHue(lo), wrapHue(hi)},
			Sat:    [2]int{satMin, 255},
			Val:    [2]int{max(25, int(0.35*float64(pctInt(vv, .01)))), 255},
			Median: [3]int{wrapHue(med), pctInt(sv, .5), pctInt(vv, .5)},
		}
		n := 0
		for _, p := range in.Table {
			if r.Contains(int(p[0]), int(p[1]), int(p[2])) {
				n++
			}
		}
		if frac := float64(n) / float64(len(in.Table)); frac > 0.005 {
			return nil, fmt.Errorf("vision: calibrate terrain: %.1f%% of the bare table reads as %s: the table's own colours are too close to the %s", 100*frac, class, classColourName[class])
		}
		c.setRange(class, r)
	}
	// the classes must not take each other's samples: narrow the pair's
	// hue ranges to meet between their medians if they overlap
	for i, a := range TerrainClasses {
		for _, b := range TerrainClasses[i+1:] {
			ra, rb := c.Range(a), c.Range(b)
			if !rangesOverlap(ra, rb) {
				continue
			}
			split := (unwrapNear(ra.Median[0], classHue[a]) + unwrapNear(rb.Median[0], classHue[b])) / 2
			if classHue[a] < classHue[b] {
				ra.Hue[1], rb.Hue[0] = wrapHue(split), wrapHue(split+1)
			} else {
				rb.Hue[1], ra.Hue[0] = wrapHue(split), wrapHue(split+1)
			}
			c.setRange(a, ra)
			c.setRange(b, rb)
		}
	}
	for _, a := range TerrainClasses {
		for _, b := range TerrainClasses {
			if a == b {
				continue
			}
			r, n := c.Range(b), 0
			for _, p := range in.Classes[a] {
				if r.Contains(int(p[0]), int(p[1]), int(p[2])) {
					n++
				}
			}
			if frac := float64(n) / float64(len(in.Classes[a])); frac > 0.05 {
				return nil, fmt.Errorf("vision: calibrate terrain: %.0f%% of the %s sample reads as %s: their colours are too close", 100*frac, a, b)
			}
		}
	}
	return c, nil
}

var classColourName = map[string]string{ClassLight: "yellow", ClassHeavy: "green", ClassTemplate: "orange", ClassObjective: "blue"}

func wrapHue(h int) int { return ((h % 180) + 180) % 180 }

func unwrapNear(h, prior int) int {
	if h-prior > 90 {
		return h - 180
	}
	if prior-h > 90 {
		return h + 180
	}
	return h
}

func pctInt(xs []int, p float64) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[min(len(s)-1, int(p*float64(len(s)-1)+0.5))]
}
