package bitwagame

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/vision"
)

// The camera's counts per zone and colour against the state (at the start
// every 2nd line holds 1 unit of each army, 18 in each reserve): a match
// is no desync, a mismatch, an unknown zone or colour is one; an unsure
// reading is listed for the referee with its reason, is no mismatch and
// asks the players once; the state never changes.
func TestDesyncs(t *testing.T) {
	pc := func(node, colour string, n int, conf float64) vision.PieceCount {
		return vision.PieceCount{Node: node, Colour: colour, Count: n, Confidence: conf}
	}
	cases := []struct {
		name   string
		pieces []vision.PieceCount
		want   []string // substrings of the English desyncs, in order
	}{
		{"all as the state", []vision.PieceCount{pc("N2", "wp", 1, 0.99), pc("N2", "acz", 1, 0.99), pc("reserve", "wp", 18, 0.9), pc("reserve", "acz", 18, 0.9)}, nil},
		{"a zone seen empty", []vision.PieceCount{pc("C2", "wp", 1, 0.99)}, []string{"C2: the camera sees 0 ACZ unit(s), the game's state says 1"}},
		{"one unit too many on a 1st line", []vision.PieceCount{pc("S1", "acz", 1, 0.95)}, []string{"S1: the camera sees 1 ACZ unit(s), the game's state says 0"}},
		{"unsure", []vision.PieceCount{pc("N2", "wp", 1, 0.5), pc("N2", "acz", 1, 0.99)}, []string{"the camera is unsure"}},
		{"unsure and different: a question, no desync", []vision.PieceCount{{Node: "N1", Colour: "wp", Count: 1, Confidence: 0.3, Reason: "a wp piece between N2 and N1"}, pc("N2", "wp", 0, 0.3), pc("N2", "acz", 1, 0.99)},
			[]string{"N1: the camera is unsure (wp, 30%: a wp piece between N2 and N1)", "N2: the camera is unsure (wp, 30%)"}},
		{"unknown zone", []vision.PieceCount{pc("X9", "wp", 1, 0.99)}, []string{`zone "X9"`}},
		{"unknown colour", []vision.PieceCount{pc("N2", "green", 1, 0.99)}, []string{`colour "green"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := testGame(t)
			before := g.State()
			asked := strings.Contains(tc.name, "unsure")
			_, n := g.Bind(companion.Input{Snapshot: &vision.Snapshot{Pieces: tc.pieces}})
			switch {
			case asked && (len(n) != 1 || n[0].Type != "check_board" || !strings.Contains(n[0].Text.EN, "check and confirm") || n[0].Text.PL == ""):
				t.Fatalf("an unsure count: notices %v, want the players asked to check", n)
			case !asked && n != nil:
				t.Fatalf("notices %v", n)
			}
			if _, again := g.Bind(companion.Input{Snapshot: &vision.Snapshot{Pieces: tc.pieces}}); again != nil {
				t.Errorf("the same reading asked again: %v", again)
			}
			got := g.Desyncs()
			if len(got) != len(tc.want) {
				t.Fatalf("desyncs %v, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i].EN, w) || got[i].PL == "" {
					t.Errorf("desync %d %+v, want %q", i, got[i], w)
				}
			}
			after := g.State()
			if after.Army("wp").Reserve != before.Army("wp").Reserve || after.Army("acz").Fronts != before.Army("acz").Fronts {
				t.Error("a snapshot changed the state")
			}
		})
	}
}
