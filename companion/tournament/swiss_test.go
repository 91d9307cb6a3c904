package tournament

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/sztab/sztab/companion/record"
)

// sim plays a tournament on Pair alone: random results, history kept as
// Tournament keeps it.
type sim struct {
	in      PairInput
	players []string
	rng     *rand.Rand
	byes    map[string]int
}

func newSim(n, seats int, seed uint64) *sim {
	s := &sim{rng: rand.New(rand.NewPCG(seed, 7)), byes: map[string]int{}}
	s.in = PairInput{Points: map[string]float64{}, Met: map[[2]string]int{}, Byes: s.byes,
		SeatsHad: map[string][]int{}, LastSeat: map[string]int{}, Seats: seats}
	for i := range n {
		s.players = append(s.players, fmt.Sprintf("p%02d", i))
		s.in.Tables = append(s.in.Tables, fmt.Sprintf("t%02d", i))
	}
	return s
}

// round pairs and plays one round; it returns the pairing.
func (s *sim) round(t testing.TB, r int) ([]Pairing, []string) {
	t.Helper()
	s.in.Ranked = slices.Clone(s.players)
	slices.SortStableFunc(s.in.Ranked, func(a, b string) int {
		return cmp.Or(cmp.Compare(s.in.Points[b], s.in.Points[a]), SeededOrder("sim", r, a, b))
	})
	tables, byes, err := Pair(s.in)
	if err != nil {
		t.Fatal(err)
	}
	again, byes2, _ := Pair(s.in)
	if !reflect.DeepEqual(tables, again) || !reflect.DeepEqual(byes, byes2) {
		t.Fatalf("round %d: the same input paired differently", r)
	}
	for _, b := range byes {
		s.byes[b]++
		s.in.Points[b] += 3
	}
	for _, p := range tables {
		for i, a := range p.Players {
			s.in.LastSeat[a] = i + 1
			s.in.SeatsHad[a] = countSeat(s.in.SeatsHad[a], i)
			for _, b := range p.Players[i+1:] {
				s.in.Met[PairKey(a, b)]++
			}
		}
		w := p.Players[s.rng.IntN(len(p.Players))]
		if s.rng.IntN(5) == 0 {
			for _, a := range p.Players {
				s.in.Points[a]++
			}
		} else {
			s.in.Points[w] += 3
		}
	}
	return tables, byes
}

// matchable says whether players can all be paired (one left out when odd)
// with nobody meeting a player twice.
func matchable(players []string, met map[[2]string]int) bool {
	if len(players)%2 == 1 {
		for i := range players {
			rest := slices.Delete(slices.Clone(players), i, i+1)
			if matchable(rest, met) {
				return true
			}
		}
		return false
	}
	if len(players) == 0 {
		return true
	}
	p := players[0]
	for j := 1; j < len(players); j++ {
		if met[PairKey(p, players[j])] == 0 {
			rest := slices.Delete(slices.Clone(players[1:]), j-1, j)
			if matchable(rest, met) {
				return true
			}
		}
	}
	return false
}

func TestSwissProperties(t *testing.T) {
	for n := 2; n <= 13; n++ {
		for seed := range uint64(8) {
			t.Run(fmt.Sprintf("%d players seed %d", n, seed), func(t *testing.T) {
				s := newSim(n, 2, seed)
				// Up to a full round robin: the last rounds of one test the
				// search hardest.
				rounds := min(n-1+n%2, 7)
				for r := 1; r <= rounds; r++ {
					metBefore := maps.Clone(s.in.Met)
					firstBefore := map[string]int{}
					for _, p := range s.players {
						firstBefore[p] = s.in.had(p, 0)
					}
					tables, byes := s.round(t, r)
					seen := map[string]int{}
					rematch := false
					for _, p := range tables {
						if len(p.Players) != 2 {
							t.Fatalf("round %d: table %v", r, p)
						}
						for _, a := range p.Players {
							seen[a]++
						}
						if a, b := p.Players[0], p.Players[1]; firstBefore[a] > firstBefore[b] {
							t.Errorf("round %d: %s has seat 1 after %d times, %s after %d", r, a, firstBefore[a], b, firstBefore[b])
						}
						if metBefore[PairKey(p.Players[0], p.Players[1])] > 0 {
							rematch = true
						}
					}
					for _, b := range byes {
						seen[b]++
					}
					if len(byes) != n%2 {
						t.Fatalf("round %d: byes %v with %d players", r, byes, n)
					}
					for _, p := range s.players {
						if seen[p] != 1 {
							t.Fatalf("round %d: %s placed %d times: %v byes %v", r, p, seen[p], tables, byes)
						}
					}
					if rematch && matchable(s.players, metBefore) {
						t.Fatalf("round %d: a rematch although a pairing without one exists: %v", r, tables)
					}
				}
				for _, p := range s.players {
					// Rematches are avoided first: only the last rounds of a
					// round robin may need a second bye.
					if s.byes[p] > 1 && rounds <= n-2 {
						t.Errorf("%s had %d byes in %d rounds of %d players", p, s.byes[p], rounds, n)
					}
					games := rounds - s.byes[p]
					// Seats are given after pairing, not a pairing criterion:
					// seat 1 is at most 3 games off even.
					if d := 2*s.in.had(p, 0) - games; d > 3 || d < -3 {
						t.Errorf("%s had seat 1 %d times in %d games", p, s.in.had(p, 0), games)
					}
				}
			})
		}
	}
}

func TestSwissScoreGroups(t *testing.T) {
	// Eight players after one round: four winners (3 points), four losers.
	// The fold pairs the first of each group with its third, and nobody
	// meets a round-1 opponent.
	in := PairInput{
		Ranked:   []string{"a", "b", "c", "d", "e", "f", "g", "h"},
		Points:   map[string]float64{"a": 3, "b": 3, "c": 3, "d": 3},
		Met:      map[[2]string]int{PairKey("a", "e"): 1, PairKey("b", "f"): 1, PairKey("c", "g"): 1, PairKey("d", "h"): 1},
		SeatsHad: map[string][]int{"a": {1}, "b": {1}, "c": {1}, "d": {1}},
		LastSeat: map[string]int{"a": 1, "b": 1, "c": 1, "d": 1},
		Seats:    2, Tables: []string{"t1", "t2", "t3", "t4"},
	}
	got, byes, err := Pair(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []Pairing{{Table: "t1", Players: []string{"a", "c"}}, {Table: "t2", Players: []string{"b", "d"}}, {Table: "t3", Players: []string{"e", "g"}}, {Table: "t4", Players: []string{"f", "h"}}}
	if !reflect.DeepEqual(got, want) || len(byes) != 0 {
		t.Errorf("got %v byes %v, want %v", got, byes, want)
	}
	// A rematch in the fold moves down the group: a met c.
	in.Met[PairKey("a", "c")] = 1
	got, _, _ = Pair(in)
	if got[0].Players[0] != "a" && got[0].Players[1] != "a" || slices.Contains(got[0].Players, "c") {
		t.Errorf("a paired with c again: %v", got)
	}
	// Too few tables.
	in.Tables = in.Tables[:3]
	if _, _, err := Pair(in); err == nil {
		t.Error("8 players on 3 tables")
	}
}

func TestSwissByeToLowest(t *testing.T) {
	in := PairInput{
		Ranked: []string{"a", "b", "c", "d", "e"},
		Points: map[string]float64{"a": 6, "b": 3, "c": 3, "d": 0, "e": 0},
		Byes:   map[string]int{"e": 1},
		Met:    map[[2]string]int{}, Seats: 2, Tables: []string{"t1", "t2", "t3"},
	}
	_, byes, _ := Pair(in)
	if !reflect.DeepEqual(byes, []string{"d"}) {
		t.Errorf("bye to %v, want d (lowest without a bye)", byes)
	}
}

func TestPodsProperties(t *testing.T) {
	for _, seats := range []int{3, 4, 5} {
		for n := 2; n <= 17; n++ {
			t.Run(fmt.Sprintf("%d seats %d players", seats, n), func(t *testing.T) {
				s := newSim(n, seats, uint64(n))
				for r := 1; r <= 4; r++ {
					tables, byes := s.round(t, r)
					seen := map[string]int{}
					for _, p := range tables {
						if len(p.Players) < 2 || len(p.Players) > seats {
							t.Fatalf("round %d: a table of %d: %v", r, len(p.Players), p)
						}
						for _, a := range p.Players {
							seen[a]++
						}
					}
					for _, b := range byes {
						seen[b]++
					}
					if len(byes) >= seats {
						t.Fatalf("round %d: %d byes at %d seats", r, len(byes), seats)
					}
					for _, p := range s.players {
						if seen[p] != 1 {
							t.Fatalf("round %d: %s placed %d times", r, p, seen[p])
						}
					}
				}
			})
		}
	}
}

func TestPodSizes(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want []int
	}{
		{8, 4, []int{4, 4}}, {9, 4, []int{3, 3, 3}}, {10, 4, []int{4, 3, 3}}, {11, 4, []int{4, 4, 3}},
		{5, 4, []int{4}}, {7, 2, []int{2, 2, 2}}, {6, 3, []int{3, 3}}, {7, 3, []int{3, 2, 2}}, {3, 5, []int{}},
		{5, 3, []int{3, 2}},
	} {
		if got := podSizes(c.n, c.k); !slices.Equal(got, c.want) {
			t.Errorf("podSizes(%d, %d) = %v, want %v", c.n, c.k, got, c.want)
		}
	}
}

// TestTournamentSwiss plays a whole tournament through Tournament: no
// rematches in five rounds of ten, one game a round each.
func TestTournamentSwiss(t *testing.T) {
	f := newFixture(t, "skirmish", 11, 6)
	ctx := context.Background()
	met := map[[2]string]bool{}
	var first []Round
	for r := 1; r <= 5; r++ {
		rd, err := f.tr.PairNext(ctx)
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, rd)
		if len(rd.Byes) != 1 {
			t.Fatalf("round %d: byes %v", r, rd.Byes)
		}
		for _, p := range rd.Tables {
			k := PairKey(p.Players[0], p.Players[1])
			if met[k] {
				t.Fatalf("round %d: rematch %v", r, k)
			}
			met[k] = true
		}
		f.playRound(rd)
	}
	// Byes spread: five different players.
	byes := map[string]bool{}
	for _, r := range first {
		byes[r.Byes[0]] = true
	}
	if len(byes) != 5 {
		t.Errorf("byes %v", first)
	}
	st := f.tr.Standings()
	if st[0].Points < st[len(st)-1].Points {
		t.Errorf("standings not in order: %+v", st)
	}
	_ = record.Win
}

func BenchmarkPair100(b *testing.B) {
	s := newSim(100, 2, 1)
	for r := 1; r <= 6; r++ {
		s.round(b, r)
	}
	s.in.Ranked = slices.Clone(s.players)
	for b.Loop() {
		if _, _, err := Pair(s.in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPairLate is the search at its hardest: the 19th round of 20
// players, where a pairing without rematches is nearly a round robin's.
func BenchmarkPairLate(b *testing.B) {
	s := newSim(20, 2, 3)
	for r := 1; r <= 18; r++ {
		s.round(b, r)
	}
	s.in.Ranked = slices.Clone(s.players)
	for b.Loop() {
		if _, _, err := Pair(s.in); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPodsAvoidRematches: pods seat nobody with anyone they met before
// while that is possible (the greedy fill before the search did, about one
// pair in two rounds of 24 players). With 16 or 20 players in pods of four,
// or 25 in pods of five, a fourth round may have no such seating left
// after the first three (the search finds none even with 100 times its
// budget): three rounds are asserted there, and the fourth seats them with
// the fewest meetings.
func TestPodsAvoidRematches(t *testing.T) {
	for _, c := range []struct{ n, seats, rounds int }{{16, 4, 3}, {20, 4, 3}, {24, 4, 4}, {40, 4, 4}, {15, 3, 4}, {25, 5, 3}} {
		for seed := uint64(1); seed <= 6; seed++ {
			s := newSim(c.n, c.seats, seed)
			met := map[[2]string]bool{}
			for r := 1; r <= c.rounds; r++ {
				tables, _ := s.round(t, r)
				for _, p := range tables {
					for i, a := range p.Players {
						for _, b := range p.Players[i+1:] {
							if met[PairKey(a, b)] {
								t.Errorf("%d players at %d seats, seed %d, round %d: %s and %s meet again (%v)", c.n, c.seats, seed, r, a, b, p.Players)
							}
							met[PairKey(a, b)] = true
						}
					}
				}
			}
		}
	}
}

// TestPodsSpreadSeats: in pods every seat is spread, not only seat 1. Over
// six rounds nobody sits in one seat more than three times, nor three
// times more often in one seat than in another (ranking the rest of the
// pod by rank, as before, put the same players last round after round:
// five times in six).
func TestPodsSpreadSeats(t *testing.T) {
	for _, seats := range []int{3, 4, 5} {
		for _, n := range []int{12, 15, 16, 20, 24} {
			for seed := range uint64(8) {
				s := newSim(n, seats, seed)
				for r := 1; r <= 6; r++ {
					s.round(t, r)
				}
				for _, p := range s.players {
					most, least := 0, math.MaxInt
					for i := range seats {
						most, least = max(most, s.in.had(p, i)), min(least, s.in.had(p, i))
					}
					if most > 3 || most-least > 3 {
						t.Errorf("%d players in %ds, seed %d: %s sat %v (seat 1 first) in six rounds", n, seats, seed, p, s.in.SeatsHad[p])
					}
				}
			}
		}
	}
}
