package companion

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
	"github.com/sztab/sztab/vision/dicetray"
	"github.com/sztab/sztab/vision/geom"
)

func testTray(values ...int) *vision.Tray {
	t := &vision.Tray{Device: "tray", SidePx: 40, Dice: []dicetray.Die{}}
	for i, v := range values {
		d := dicetray.Die{Value: v, Centre: geom.Vec2{X: 50 + 50*float64(i), Y: 80}, Confidence: 0.95, Colour: "red"}
		if v == 0 {
			d.Unreadable = "cocked or stacked: the outline is not one flat die"
		}
		t.Dice = append(t.Dice, d)
	}
	return t
}

// TestTrayThrows: the snapshots' settled trays, one after another, and
// what each gives.
func TestTrayThrows(t *testing.T) {
	moved := testTray(2, 5)
	moved.Dice[0].Centre.X += 30 // the same values elsewhere: another throw
	steps := []struct {
		name   string
		tray   *vision.Tray
		rolls  []int
		notice bool
	}{
		{"no tray", nil, nil, false},
		{"the dice lying there at the start", testTray(2, 5), nil, false},
		{"the same again", testTray(2, 5), nil, false},
		{"thrown again, landing elsewhere", moved, []int{2, 5}, false},
		{"the same throw in the next snapshot", moved, nil, false},
		{"a cocked die", testTray(3, 0), nil, true},
		{"still the cocked die", testTray(3, 0), nil, false},
		{"the tray emptied", testTray(), nil, false},
		{"a throw", testTray(6, 1, 4), []int{6, 1, 4}, false},
		{"no tray in this snapshot", nil, nil, false},
		{"the same throw", testTray(6, 1, 4), nil, false},
	}
	var tt trayThrows
	for _, st := range steps {
		ds, n := tt.take(st.tray)
		var got []int
		for _, d := range ds {
			got = append(got, d.Value)
			if d.Origin != dice.Camera || d.Device != "tray" || d.Confidence != 0.95 || d.Colour != "red" || d.Validate() != nil {
				t.Errorf("%s: roll %+v", st.name, d)
			}
		}
		if len(got) != len(st.rolls) || (len(got) > 0 && !equalInts(got, st.rolls)) {
			t.Errorf("%s: rolls %v, want %v", st.name, got, st.rolls)
		}
		if (n != nil) != st.notice {
			t.Errorf("%s: notice %v, want one: %v", st.name, n, st.notice)
		}
		if n != nil && (n.Type != "dice_unreadable" || !strings.Contains(n.Text.EN, "cocked") || !strings.Contains(n.Text.EN, "roll again")) {
			t.Errorf("%s: notice %+v", st.name, n)
		}
	}
}

func equalInts(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
