// Package board reads printed game boards: a board definition (named zones
// as polygons and nodes as points, in millimetres on the printed board;
// the ArUco markers at its corners; the colours of the pieces), a board
// calibration (the homography from board millimetres to camera pixels and
// the camera's pose, found from the corner markers) and the counting of
// pieces by colour per zone or node in a camera frame.
//
// Pure Go: the marker detection that a calibration starts from is the
// vision package's (OpenCV); this package gets the corners it found.
package board

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/vision/aruco"
	"github.com/sztab/sztab/vision/geom"
)

// Definition is a printed board: what is printed where, in millimetres
// from its top-left corner (x to the right, y down the board).
type Definition struct {
	// Game is the game's config id.
	Game string `yaml:"game"`
	// WidthMM and DepthMM are the printed board's size.
	WidthMM float64 `yaml:"width_mm"`
	DepthMM float64 `yaml:"depth_mm"`
	// Dictionary is the markers' ArUco dictionary (the table's, 4x4_100).
	Dictionary string `yaml:"dictionary"`
	// Markers are the corner markers: at least four, centred where x_mm,
	// y_mm say, side_mm the black square's side, top edge towards y = 0.
	Markers []Marker `yaml:"markers"`
	// Piece is the shape of the pieces counted.
	Piece Piece `yaml:"piece"`
	// Colours are the pieces' colours.
	Colours []Colour `yaml:"colours"`
	// Zones are areas pieces are counted in (Bitwa's lines and reserves);
	// Nodes are points a piece stands on (Mali's objects and road fields).
	Zones []Zone `yaml:"zones,omitempty"`
	Nodes []Node `yaml:"nodes,omitempty"`
}

// Marker is one corner marker.
type Marker struct {
	ID     int     `yaml:"id"`
	X      float64 `yaml:"x_mm"`
	Y      float64 `yaml:"y_mm"`
	SideMM float64 `yaml:"side_mm"`
}

// Piece is the shape of a piece: a cube or block (Bitwa's wooden units) or
// a round pawn (Mali's couriers and soldier). Pieces of one colour that
// touch are counted by the area they cover, so they must stand side by
// side, not stacked: from above a stack shows one piece.
type Piece struct {
	// Shape is "block" (a square footprint size_mm each side) or "pawn" (a
	// round footprint size_mm across).
	Shape    string  `yaml:"shape"`
	SizeMM   float64 `yaml:"size_mm"`
	HeightMM float64 `yaml:"height_mm"`
}

// Colour is one colour of piece: its name (what the game's binding calls
// it: an army's colour, a courier's, "soldier") and its RGB as the camera
// sees it on a white-balanced frame (the paper of the board is white).
type Colour struct {
	Name string `yaml:"name"`
	RGB  [3]int `yaml:"rgb,flow"`
}

// Zone is a named area: node is the name the count is reported under
// (several zones may report under one name: each army's own first line of
// a front is "N1"); the polygon's corners are in board millimetres.
type Zone struct {
	ID      string       `yaml:"id"`
	Node    string       `yaml:"node,omitempty"`
	Polygon [][2]float64 `yaml:"polygon,flow"`
}

// Node is a named point a piece stands on; radius_mm is how far from it a
// piece still stands there.
type Node struct {
	ID       string  `yaml:"id"`
	X        float64 `yaml:"x_mm"`
	Y        float64 `yaml:"y_mm"`
	RadiusMM float64 `yaml:"radius_mm"`
}

// Error is a bad board file: the file, the line (0: not known) and what.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("board: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("board: %s: %s", e.File, e.Msg)
}

// maxBoardMM bounds a board's side; maxItems the zones, nodes, markers and
// colours; maxPolygon a polygon's corners. No printed board comes near.
const (
	maxBoardMM = 3000
	maxItems   = 500
	maxPolygon = 64
)

// Load reads a board definition file.
func Load(path string) (*Definition, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	return Parse(path, data)
}

// Parse reads a board definition; name is used in errors, which carry the
// line of the entry at fault.
func Parse(name string, data []byte) (*Definition, error) {
	var d Definition
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &d); err != nil {
		if err.Error() == "EOF" {
			return nil, &Error{File: name, Msg: "the file is empty"}
		}
		return nil, &Error{File: name, Line: yamlLine(err), Msg: err.Error()}
	}
	if err := d.check(); err != nil {
		var ce *checkError
		if errors.As(err, &ce) {
			return nil, &Error{File: name, Line: yamlsafe.EntryLine(data, ce.key, ce.index), Msg: ce.msg}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	return &d, nil
}

// checkError is a check failure at entry index of the top-level list key
// (index -1: the key itself).
type checkError struct {
	key   string
	index int
	msg   string
}

func (e *checkError) Error() string { return e.msg }

func bad(key string, index int, format string, args ...any) error {
	return &checkError{key: key, index: max(index, 0), msg: fmt.Sprintf(format, args...)}
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// check validates the definition and fills defaults.
func (d *Definition) check() error {
	if strings.TrimSpace(d.Game) == "" {
		return bad("game", -1, "game: the game's config id is missing")
	}
	if !finite(d.WidthMM, d.DepthMM) || d.WidthMM <= 0 || d.DepthMM <= 0 || d.WidthMM > maxBoardMM || d.DepthMM > maxBoardMM {
		return bad("width_mm", -1, "width_mm, depth_mm: the board's size must be 1 to %d mm, got %g × %g", maxBoardMM, d.WidthMM, d.DepthMM)
	}
	if d.Dictionary == "" {
		d.Dictionary = "4x4_100"
	}
	dict, err := aruco.Lookup(d.Dictionary)
	if err != nil {
		return bad("dictionary", -1, "dictionary: %v", err)
	}
	inside := func(x, y float64) bool { return x >= 0 && y >= 0 && x <= d.WidthMM && y <= d.DepthMM }
	if len(d.Markers) < 4 || len(d.Markers) > maxItems {
		return bad("markers", -1, "markers: want the four corner markers (4 to %d), got %d", maxItems, len(d.Markers))
	}
	ids := map[int]bool{}
	for i, m := range d.Markers {
		switch {
		case m.ID < 0 || m.ID >= dict.Len():
			return bad("markers", i, "marker %d: not in dictionary %s (0–%d)", m.ID, d.Dictionary, dict.Len()-1)
		case ids[m.ID]:
			return bad("markers", i, "marker %d: listed twice", m.ID)
		case !finite(m.X, m.Y, m.SideMM) || m.SideMM < 10 || m.SideMM > 200:
			return bad("markers", i, "marker %d: side_mm must be 10 to 200, got %g", m.ID, m.SideMM)
		case !inside(m.X-m.SideMM/2, m.Y-m.SideMM/2) || !inside(m.X+m.SideMM/2, m.Y+m.SideMM/2):
			return bad("markers", i, "marker %d: not on the board (%g, %g)", m.ID, m.X, m.Y)
		}
		ids[m.ID] = true
	}
	switch d.Piece.Shape {
	case "block", "pawn":
	default:
		return bad("piece", -1, "piece: shape must be block or pawn, got %q", d.Piece.Shape)
	}
	if !finite(d.Piece.SizeMM, d.Piece.HeightMM) || d.Piece.SizeMM < 4 || d.Piece.SizeMM > 100 || d.Piece.HeightMM < 0 || d.Piece.HeightMM > 200 {
		return bad("piece", -1, "piece: size_mm must be 4 to 100 and height_mm 0 to 200, got %g and %g", d.Piece.SizeMM, d.Piece.HeightMM)
	}
	if len(d.Colours) == 0 || len(d.Colours) > maxItems {
		return bad("colours", -1, "colours: want 1 to %d piece colours, got %d", maxItems, len(d.Colours))
	}
	names := map[string]bool{}
	for i, c := range d.Colours {
		if strings.TrimSpace(c.Name) == "" || names[c.Name] {
			return bad("colours", i, "colour %d: a name, each once (got %q)", i+1, c.Name)
		}
		for _, v := range c.RGB {
			if v < 0 || v > 255 {
				return bad("colours", i, "colour %s: rgb values are 0 to 255, got %v", c.Name, c.RGB)
			}
		}
		names[c.Name] = true
	}
	if (len(d.Zones) == 0) == (len(d.Nodes) == 0) {
		return bad("zones", -1, "zones, nodes: a board has zones or nodes (one of the two)")
	}
	if len(d.Zones) > maxItems || len(d.Nodes) > maxItems {
		return bad("zones", -1, "zones, nodes: at most %d", maxItems)
	}
	seen := map[string]bool{}
	for i := range d.Zones {
		z := &d.Zones[i]
		if strings.TrimSpace(z.ID) == "" || seen[z.ID] {
			return bad("zones", i, "zone %d: an id, each once (got %q)", i+1, z.ID)
		}
		seen[z.ID] = true
		if z.Node == "" {
			z.Node = z.ID
		}
		if len(z.Polygon) < 3 || len(z.Polygon) > maxPolygon {
			return bad("zones", i, "zone %s: a polygon of 3 to %d corners, got %d", z.ID, maxPolygon, len(z.Polygon))
		}
		for _, p := range z.Polygon {
			if !finite(p[0], p[1]) || !inside(p[0], p[1]) {
				return bad("zones", i, "zone %s: corner (%g, %g) is off the board", z.ID, p[0], p[1])
			}
		}
		if polygonArea(z.Polygon) < 1 {
			return bad("zones", i, "zone %s: the polygon has no area", z.ID)
		}
	}
	for i, n := range d.Nodes {
		if strings.TrimSpace(n.ID) == "" || seen[n.ID] {
			return bad("nodes", i, "node %d: an id, each once (got %q)", i+1, n.ID)
		}
		seen[n.ID] = true
		if !finite(n.X, n.Y, n.RadiusMM) || !inside(n.X, n.Y) || n.RadiusMM < 2 || n.RadiusMM > 200 {
			return bad("nodes", i, "node %s: (%g, %g) radius %g: on the board, radius 2 to 200 mm", n.ID, n.X, n.Y, n.RadiusMM)
		}
		for j := range i {
			o := d.Nodes[j]
			if math.Hypot(n.X-o.X, n.Y-o.Y) < n.RadiusMM+o.RadiusMM {
				return bad("nodes", i, "node %s overlaps node %s: their discs must not touch", n.ID, o.ID)
			}
		}
	}
	for i, m := range d.Markers {
		sq := geom.SquareCorners(geom.Vec2{X: m.X, Y: m.Y}, m.SideMM*1.25, 0)
		for _, z := range d.Zones {
			for _, c := range sq {
				if inPolygon(z.Polygon, c.X, c.Y) {
					return bad("markers", i, "marker %d overlaps zone %s", m.ID, z.ID)
				}
			}
		}
		for _, n := range d.Nodes {
			if math.Abs(n.X-m.X) < m.SideMM*0.625+n.RadiusMM && math.Abs(n.Y-m.Y) < m.SideMM*0.625+n.RadiusMM {
				return bad("markers", i, "marker %d overlaps node %s", m.ID, n.ID)
			}
		}
	}
	return nil
}

// Regions are the zones' or nodes' count names, in file order, each once.
func (d *Definition) Regions() []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, z := range d.Zones {
		add(z.Node)
	}
	for _, n := range d.Nodes {
		add(n.ID)
	}
	return out
}

// Marshal writes the definition as YAML.
func (d *Definition) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	return b.Bytes(), nil
}

func polygonArea(p [][2]float64) float64 {
	a := 0.0
	for i := range p {
		j := (i + 1) % len(p)
		a += p[i][0]*p[j][1] - p[j][0]*p[i][1]
	}
	return math.Abs(a) / 2
}

// inPolygon is the even-odd rule.
func inPolygon(p [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(p)-1; i < len(p); j, i = i, i+1 {
		if (p[i][1] > y) != (p[j][1] > y) && x < (p[j][0]-p[i][0])*(y-p[i][1])/(p[j][1]-p[i][1])+p[i][0] {
			in = !in
		}
	}
	return in
}

// yamlLine pulls "line N" out of a yaml.v3 error, or 0.
func yamlLine(err error) int {
	s := err.Error()
	i := strings.Index(s, "line ")
	if i < 0 {
		return 0
	}
	n := 0
	for _, r := range s[i+5:] {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
		if n > 1e8 {
			return 0
		}
	}
	return n
}
