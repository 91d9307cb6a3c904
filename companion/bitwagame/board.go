package bitwagame

import (
	_ "embed"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/vision/board"
)

// boardFile is the printed board as the camera counts units on it, what
// makeBoard makes (go test ./games -run Boards -update).
//
//go:embed board.yaml
var boardFile []byte

// printedBoard is the game's printed board for its spec.
var printedBoard = gamespec.Board{File: boardFile, Generate: makeBoard}

// makeBoard is Bitwa Warszawska's board (assumed: the rulebook prints no
// dimensions). Top to bottom: WP's reserve, then for each front (N, C, S
// left to right) WP's 2nd and 1st line, the advantage markers' strip,
// ACz's 1st and 2nd line, and ACz's reserve. Each army's line reports
// under the same name (N1 … S2, reserve); the colour tells the armies
// apart.
func makeBoard() ([]byte, error) {
	d := &board.Definition{
		Game: ID, WidthMM: 600, DepthMM: 440, Dictionary: "4x4_100",
		Markers: []board.Marker{{ID: 90, X: 35, Y: 35, SideMM: 40}, {ID: 91, X: 565, Y: 35, SideMM: 40}, {ID: 92, X: 565, Y: 405, SideMM: 40}, {ID: 93, X: 35, Y: 405, SideMM: 40}},
		Piece:   board.Piece{Shape: "block", SizeMM: 10, HeightMM: 10},
		Colours: []board.Colour{{Name: "wp", RGB: [3]int{40, 80, 190}}, {Name: "acz", RGB: [3]int{200, 35, 35}}},
	}
	rect := func(x0, y0, x1, y1 float64) [][2]float64 {
		return [][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
	}
	d.Zones = append(d.Zones, board.Zone{ID: "wp-reserve", Node: "reserve", Polygon: rect(90, 12, 510, 88)})
	fronts := []string{"N", "C", "S"}
	for i, f := range fronts {
		x0 := 15 + float64(i)*195
		x1 := x0 + 180
		d.Zones = append(d.Zones,
			board.Zone{ID: "wp-" + f + "2", Node: f + "2", Polygon: rect(x0, 100, x1, 155)},
			board.Zone{ID: "wp-" + f + "1", Node: f + "1", Polygon: rect(x0, 160, x1, 210)},
			board.Zone{ID: "acz-" + f + "1", Node: f + "1", Polygon: rect(x0, 230, x1, 280)},
			board.Zone{ID: "acz-" + f + "2", Node: f + "2", Polygon: rect(x0, 285, x1, 340)})
	}
	d.Zones = append(d.Zones, board.Zone{ID: "acz-reserve", Node: "reserve", Polygon: rect(90, 352, 510, 428)})
	out, err := d.Marshal()
	if err != nil {
		return nil, err
	}
	return append([]byte("# Bitwa Warszawska's printed board, as sztab counts units on it. ASSUMED:\n# the rulebook prints no dimensions. Generated from companion/bitwagame's\n# makeBoard (go test ./games -run Boards -update); a club with another\n# board gives its own file.\n"), out...), nil
}
