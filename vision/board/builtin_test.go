package board_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/games"
)

// printed are the registered games' printed boards (each game's spec
// names its own; games' TestBoards checks each is what the game's data
// makes).
var printed = games.All.Boards()

// There are printed boards, and each one loads.
func TestPrintedBoards(t *testing.T) {
	if len(printed) == 0 {
		t.Fatal("no registered game has a printed board")
	}
	for _, g := range printed.Games() {
		d, err := printed.Builtin(g)
		if err != nil {
			t.Errorf("%s: %v", g, err)
			continue
		}
		if d.Game != g {
			t.Errorf("the printed board of %s says it is %s's", g, d.Game)
		}
	}
	if _, err := printed.Builtin("chess"); err == nil {
		t.Error("a printed board for a game that has none")
	}
}

// The boards' corner markers are free in the table's marker registry.
func TestBoardMarkersFree(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "firmware-config", "markers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		Fiducials struct {
			Markers []struct{ Marker int } `yaml:"markers"`
		} `yaml:"fiducials"`
		Models []struct{ Marker int } `yaml:"models"`
	}
	if err := yaml.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	used := map[int]string{}
	for _, f := range reg.Fiducials.Markers {
		used[f.Marker] = "fiducial"
	}
	for _, m := range reg.Models {
		used[m.Marker] = "model"
	}
	for _, g := range printed.Games() {
		d, err := printed.Builtin(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range d.Markers {
			if u, ok := used[m.ID]; ok {
				t.Errorf("%s: corner marker %d is a %s in markers.yaml", g, m.ID, u)
			}
			used[m.ID] = fmt.Sprintf("%s corner", g)
		}
	}
}
