package maligame

import (
	_ "embed"
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/vision/board"
)

// boardFile is the map as the camera finds pawns on it, what makeBoard
// makes (go test ./games -run Boards -update).
//
//go:embed board.yaml
var boardFile []byte

// printedBoard is the game's printed board for its spec.
var printedBoard = gamespec.Board{File: boardFile, Generate: makeBoard}

// makeBoard is Mali Powstańcy's board from the game's shipped map: each
// object and road field where map.yaml prints it (road fields evenly
// between their objects, as the screens draw them). Objects hold several
// pawns, so their discs are bigger than a road field's.
func makeBoard() ([]byte, error) {
	pack, err := box.Shipped(ID)
	if err != nil {
		return nil, err
	}
	var m mali.Map
	if err := yaml.Unmarshal(pack.Files["map.yaml"], &m); err != nil {
		return nil, fmt.Errorf("maligame: board: map.yaml: %w", err)
	}
	d := &board.Definition{
		Game: ID, WidthMM: 650, DepthMM: 820, Dictionary: "4x4_100",
		Markers: []board.Marker{{ID: 94, X: 25, Y: 25, SideMM: 36}, {ID: 95, X: 625, Y: 25, SideMM: 36}, {ID: 96, X: 625, Y: 795, SideMM: 36}, {ID: 97, X: 25, Y: 795, SideMM: 36}},
		Piece:   board.Piece{Shape: "pawn", SizeMM: 14, HeightMM: 20},
		Colours: []board.Colour{
			{Name: mali.ColourRed, RGB: [3]int{205, 35, 40}}, {Name: mali.ColourGreen, RGB: [3]int{40, 150, 60}},
			{Name: mali.ColourOrange, RGB: [3]int{240, 140, 30}}, {Name: mali.ColourPurple, RGB: [3]int{120, 50, 160}},
			{Name: "soldier", RGB: [3]int{30, 30, 30}},
		},
	}
	pos := map[string][2]float64{}
	for _, o := range m.Objects {
		pos[o.ID] = [2]float64{o.X, o.Y}
		d.Nodes = append(d.Nodes, board.Node{ID: o.ID, X: o.X, Y: o.Y, RadiusMM: 22})
	}
	round1 := func(v float64) float64 { return float64(int(v*10+0.5)) / 10 }
	for _, r := range m.Roads {
		a, b := pos[r.A], pos[r.B]
		n := len(r.Fields)
		for k := 1; k <= n; k++ {
			f := float64(k) / float64(n+1)
			d.Nodes = append(d.Nodes, board.Node{ID: string(r.Field(k)), X: round1(a[0] + (b[0]-a[0])*f), Y: round1(a[1] + (b[1]-a[1])*f), RadiusMM: 10})
		}
	}
	// The assumed map puts some nodes closer than their discs: a disc
	// shrinks to half the distance to its nearest neighbour.
	for i := range d.Nodes {
		for j := range d.Nodes {
			if i == j {
				continue
			}
			a, b := d.Nodes[i], d.Nodes[j]
			if dist := math.Hypot(a.X-b.X, a.Y-b.Y); a.RadiusMM > dist/2-0.5 {
				d.Nodes[i].RadiusMM = math.Floor(dist/2 - 0.5)
			}
		}
	}
	out, err := d.Marshal()
	if err != nil {
		return nil, err
	}
	head := cramped(d) + "# Mali Powstańcy's map as sztab finds pawns on it: each object and road\n# field where rules/mali/data/map.yaml prints it (ASSUMED positions, as the\n# map file says). Generated from companion/maligame's makeBoard (go test\n# ./games -run Boards -update).\n"
	return append([]byte(head), out...), nil
}

// cramped lists the nodes a pawn cannot stand on without reaching into
// a neighbour's disc.
func cramped(d *board.Definition) string {
	var out strings.Builder
	for _, n := range d.Nodes {
		if n.RadiusMM < 10 || (n.RadiusMM < 22 && !strings.Contains(n.ID, "/")) {
			fmt.Fprintf(&out, "#   %s (radius %g mm)\n", n.ID, n.RadiusMM)
		}
	}
	if out.Len() == 0 {
		return ""
	}
	return "# The assumed map puts these nodes so close to a neighbour that their\n# discs shrink: a pawn off their centre may be read\n# as off every field (unsure, for the players to confirm). A printed board\n# keeps its fields further apart.\n" + out.String()
}
