// Counting on generated boards with their truth: exact counts under
// several camera poses and lights (go test -short: the first only).

package board_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sztab/sztab/vision/board"
	"github.com/sztab/sztab/vision/synth"
)

// Bitwa Warszawska: every army's 21 units spread over the lines and the
// reserve (the reserve's block of up to 21 touching cubes included), read
// exactly under every pose and light.
func TestCountBitwa(t *testing.T) {
	d, err := printed.Builtin("bitwa-warszawska")
	if err != nil {
		t.Fatal(err)
	}
	zones := []string{"N1", "N2", "C1", "C2", "S1", "S2"}
	for i, c := range testConditions() {
		for j := range 2 {
			seed := uint64(10*i + j + 1)
			rng := rand.New(rand.NewPCG(seed, 7))
			counts := map[string]map[string]int{}
			for _, army := range []string{"wp", "acz"} {
				counts[army] = map[string]int{}
				left := 21
				if j == 1 && army == "wp" {
					left = 21 // all in the reserve: one block of 21
				} else {
					for _, z := range zones {
						n := min(left, rng.IntN(4))
						if z[1] == '1' {
							n = min(left, rng.IntN(7))
						}
						counts[army][z] = n
						left -= n
					}
				}
				counts[army]["reserve"] = left
				for _, z := range zones {
					if _, ok := counts[army][z]; !ok {
						counts[army][z] = 0
					}
				}
			}
			t.Run(fmt.Sprintf("%s/%d", c.name, j), func(t *testing.T) {
				res := frame(t, d, bitwaPieces(t, d, counts, rng), c, seed)
				if f := check(t, res, bitwaWant(counts)); f > 1 {
					t.Errorf("%d counts flagged for the players, at most 1 a frame: %v", f, res.Warnings)
				}
				if len(res.Counts) != 14 {
					t.Errorf("%d counts, want every zone × army (14)", len(res.Counts))
				}
			})
		}
	}
}

// Mali Powstańcy: all 12 couriers and the soldier found on their fields
// exactly, pawns of one colour touching included.
func TestCountMali(t *testing.T) {
	d, err := printed.Builtin("mali-powstancy")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range testConditions() {
		for j := range 2 {
			seed := uint64(100 + 10*i + j)
			pieces, want := maliPieces(d, rand.New(rand.NewPCG(seed, 9)))
			t.Run(fmt.Sprintf("%s/%d", c.name, j), func(t *testing.T) {
				res := frame(t, d, pieces, c, seed)
				if f := check(t, res, want); f > 1 {
					t.Errorf("%d counts flagged for the players, at most 1 a frame: %v", f, res.Warnings)
				}
			})
		}
	}
}

// A unit standing across the line between N2 and N1, and a pawn between
// two fields: counted, never silently — low confidence and the reason.
func TestCountBetween(t *testing.T) {
	bitwa, _ := printed.Builtin("bitwa-warszawska")
	pieces := []synth.BoardPiece{{Colour: "wp", X: 60, Y: 157.5}, {Colour: "wp", X: 120, Y: 130}, {Colour: "acz", X: 300, Y: 380}}
	res := frame(t, bitwa, pieces, conditions[1], 1)
	var unsure []board.Count
	for _, c := range res.Counts {
		if c.Confidence < 0.8 {
			unsure = append(unsure, c)
			if !strings.Contains(c.Reason, "between N2 and N1") && !strings.Contains(c.Reason, "between N1 and N2") {
				t.Errorf("%+v: the reason should name both lines", c)
			}
		}
	}
	if len(unsure) == 0 || len(res.Warnings) == 0 {
		t.Fatalf("a unit between two lines read as sure: %+v %v", res.Counts, res.Warnings)
	}
	m, _ := printed.Builtin("mali-powstancy")
	var a, b board.Node
	for _, n := range m.Nodes {
		if n.ID == "wilsona-michla/2" {
			a = n
		}
		if n.ID == "wilsona-michla/3" {
			b = n
		}
	}
	res = frame(t, m, []synth.BoardPiece{{Colour: "red", X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}}, conditions[0], 2)
	if len(res.Counts) != 1 || res.Counts[0].Confidence >= 0.8 || !strings.Contains(res.Counts[0].Reason, "off every field") {
		t.Errorf("a pawn between two fields: %+v", res.Counts)
	}
}

// testConditions are the conditions a run covers: all, or with -short the
// first.
func testConditions() []condition {
	if testing.Short() {
		return conditions[:1]
	}
	return conditions
}
