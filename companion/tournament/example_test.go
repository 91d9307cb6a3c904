package tournament_test

import (
	"fmt"

	"github.com/sztab/sztab/companion/tournament"
)

// Round 2 of five players: a and b won round 1, c had the bye, d and e
// lost. The bye goes to the lowest-ranked player without one (e); in the
// 3-point group a, b, c the top half (a) meets the first of the bottom
// half (b), and c floats down to d; no one meets a player again. Seat 1:
// a and b both had it, so the higher-ranked a; c and d neither, so c.
func ExamplePair() {
	in := tournament.PairInput{
		Ranked:   []string{"a", "b", "c", "d", "e"},
		Points:   map[string]float64{"a": 3, "b": 3, "c": 3},
		Met:      map[[2]string]int{tournament.PairKey("a", "d"): 1, tournament.PairKey("b", "e"): 1},
		Byes:     map[string]int{"c": 1},
		SeatsHad: map[string][]int{"a": {1}, "b": {1}, "d": {0, 1}, "e": {0, 1}},
		LastSeat: map[string]int{"a": 1, "b": 1, "d": 2, "e": 2},
		Seats:    2,
		Tables:   []string{"t1", "t2", "t3"},
	}
	tables, byes, err := tournament.Pair(in)
	if err != nil {
		panic(err)
	}
	for _, p := range tables {
		fmt.Println(p.Table, p.Players)
	}
	fmt.Println("bye", byes)
	// Output:
	// t1 [a b]
	// t2 [c d]
	// bye [e]
}
