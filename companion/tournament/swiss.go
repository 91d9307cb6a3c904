package tournament

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
)

// ByeTable names a bye where a table would be (pairings, CSV files).
const ByeTable = "bye"

// PairInput is what Pair needs: the players to pair, best first, and what
// the rounds so far say about them.
type PairInput struct {
	// Ranked are the players to pair, best first: the standings order,
	// players tied on everything in the seeded order (SeededOrder).
	Ranked []string
	// Points are the players' standings points: the score groups.
	Points map[string]float64
	// Met is how many times two players sat at one table (key: Pairkey).
	Met map[[2]string]int
	// Byes is how many byes each player had.
	Byes map[string]int
	// SeatsHad is how many times each player had each seat (index 0 is
	// seat 1); LastSeat the seat they had in their latest game (1 is seat
	// 1; 0: none yet).
	SeatsHad map[string][]int
	LastSeat map[string]int
	// Seats is the players a table (2 for Swiss proper, more for pods).
	Seats int
	// Tables are the table ids, best table first.
	Tables []string
}

// PairKey is the Met key of two players.
func PairKey(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Pairing is one table of a round: its players in seat order (seat 1 is
// Players[0]).
type Pairing struct {
	Table   string   `json:"table"`
	Players []string `json:"players"`
	// ID is the pairing's id, issued when the round is paired or
	// imported (random, 32 hex digits); empty in a round stored before
	// pairings had ids, whose tables' results the organiser enters.
	ID string `json:"id,omitempty"`
}

// searchBudget bounds the backtracking: past it, pairing takes the best
// it has with rematches allowed (a hall must never wait on a search).
const searchBudget = 50_000

// Pair pairs a round.
//
// Two seats a table — Swiss by score groups (a simplification of the
// Dutch system, FIDE C.04.3): the highest-ranked unpaired player is
// paired first; their preferred opponent is in their own score group
// (same points), at the position of the top-half-versus-bottom-half fold
// (group position ⌊m/2⌋ of the m unpaired players of that group; nearer
// positions next), then players of the nearest score groups (floaters).
// A depth-first search backtracks over those choices so that nobody meets
// a player twice; when no pairing without a rematch exists (or the search
// budget runs out) the search is repeated allowing rematches, preferring
// the opponents met fewest times. With an odd number of players the bye
// goes to the lowest-ranked player among those with the fewest byes for
// whom the rest can be paired without rematches.
//
// More seats a table — pods by score: the ranked players are cut into
// pods in order, each pod filled with the next-ranked players who have
// met nobody already in it (the next-ranked player when everyone has).
// Pods are all of Seats players, or of Seats and Seats−1 (never under 2)
// when that seats everyone; else the remainder get byes, chosen as above.
//
// Seats: at a table of two, seat 1 goes to the player who had it fewer
// times, then to one who did not have it in their latest game, then to
// the higher-ranked. In pods every seat is spread: of the pod's seatings,
// the one that gives its players the seats they had fewest times (summed
// over the pod), then the fewest their latest game's seat again, then
// the first in the order above (seat 1 to who had it fewer times, …).
// Tables: the best-ranked table gets the first table id.
//
// The same input gives the same pairing.
func Pair(in PairInput) ([]Pairing, []string, error) {
	n := len(in.Ranked)
	k := in.Seats
	if k < 2 {
		return nil, nil, fmt.Errorf("tournament: pairing: %d seats a table", k)
	}
	sizes := podSizes(n, k)
	seated := 0
	for _, s := range sizes {
		seated += s
	}
	if len(sizes) > len(in.Tables) {
		return nil, nil, fmt.Errorf("tournament: pairing: %d players need %d tables, the tournament has %d", n, len(sizes), len(in.Tables))
	}
	rank := map[string]int{}
	for i, p := range in.Ranked {
		rank[p] = i
	}
	// Bye candidates: fewest byes, then lowest-ranked.
	cands := slices.Clone(in.Ranked)
	slices.SortStableFunc(cands, func(a, b string) int {
		if c := cmp.Compare(in.Byes[a], in.Byes[b]); c != 0 {
			return c
		}
		return cmp.Compare(rank[b], rank[a])
	})
	nbye := n - seated
	var groups [][]string
	var byes []string
	if k == 2 {
		s := &swiss{in: in, budget: searchBudget}
		found := false
		if nbye == 0 {
			groups, found = s.pairAll(in.Ranked, false)
		} else {
			for _, c := range cands {
				rest := slices.DeleteFunc(slices.Clone(in.Ranked), func(p string) bool { return p == c })
				if groups, found = s.pairAll(rest, false); found {
					byes = []string{c}
					break
				}
				if s.budget <= 0 {
					break
				}
			}
		}
		if !found {
			byes = cands[:nbye]
			rest := slices.DeleteFunc(slices.Clone(in.Ranked), func(p string) bool { return slices.Contains(byes, p) })
			s.budget = searchBudget
			groups, _ = s.pairAll(rest, true)
		}
	} else {
		byes = cands[:nbye]
		rest := slices.DeleteFunc(slices.Clone(in.Ranked), func(p string) bool { return slices.Contains(byes, p) })
		groups = pods(in, rest, sizes)
	}
	// Seat order, then tables in rank order of each table's best player.
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b string) int {
			if c := cmp.Compare(in.had(a, 0), in.had(b, 0)); c != 0 {
				return c
			}
			if fa, fb := in.LastSeat[a] == 1, in.LastSeat[b] == 1; fa != fb {
				if fb {
					return -1
				}
				return 1
			}
			return cmp.Compare(rank[a], rank[b])
		})
		if k > 2 {
			spreadSeats(in, g)
		}
	}
	best := func(g []string) int {
		m := math.MaxInt
		for _, p := range g {
			m = min(m, rank[p])
		}
		return m
	}
	slices.SortStableFunc(groups, func(a, b []string) int { return cmp.Compare(best(a), best(b)) })
	out := make([]Pairing, len(groups))
	for i, g := range groups {
		out[i] = Pairing{Table: in.Tables[i], Players: g}
	}
	if len(byes) == 0 {
		byes = nil
	}
	slices.SortFunc(byes, func(a, b string) int { return cmp.Compare(rank[a], rank[b]) })
	return out, byes, nil
}

// had is how many times p had seat i+1.
func (in PairInput) had(p string, i int) int {
	if h := in.SeatsHad[p]; i < len(h) {
		return h[i]
	}
	return 0
}

// countSeat adds a game at seat i+1 to a player's SeatsHad.
func countSeat(had []int, i int) []int {
	for len(had) <= i {
		had = append(had, 0)
	}
	had[i]++
	return had
}

// spreadSeats reorders a pod, given in its seat-1 order, into the seating
// whose players had their seats fewest times, then repeat their latest
// game's seat least; ties keep the earliest seating in lexicographic
// order from the one given.
func spreadSeats(in PairInput, g []string) {
	order := make([]int, len(g)) // order[seat] is the index in g of who sits there
	for i := range order {
		order[i] = i
	}
	cost := func() (repeats, same int) {
		for seat, j := range order {
			repeats += in.had(g[j], seat)
			if in.LastSeat[g[j]] == seat+1 {
				same++
			}
		}
		return repeats, same
	}
	best := slices.Clone(order)
	br, bs := cost()
	for nextPermutation(order) {
		if r, sm := cost(); r < br || (r == br && sm < bs) {
			best, br, bs = slices.Clone(order), r, sm
		}
	}
	seated := make([]string, len(g))
	for seat, j := range best {
		seated[seat] = g[j]
	}
	copy(g, seated)
}

// nextPermutation steps p to the next permutation in lexicographic
// order; false after the last.
func nextPermutation(p []int) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// podSizes are the table sizes for n players at k seats.
func podSizes(n, k int) []int {
	if k > 2 && n%k != 0 {
		p := (n + k - 1) / k
		if k-1 >= 2 && n >= p*(k-1) {
			sizes := make([]int, p)
			full := n - p*(k-1)
			for i := range sizes {
				sizes[i] = k - 1
				if i < full {
					sizes[i] = k
				}
			}
			return sizes
		}
	}
	sizes := make([]int, n/k)
	for i := range sizes {
		sizes[i] = k
	}
	return sizes
}

type swiss struct {
	in     PairInput
	budget int
}

// pairAll pairs players (best first) without rematches, or with the
// fewest-met opponents first when rematches are allowed.
func (s *swiss) pairAll(players []string, rematches bool) ([][]string, bool) {
	used := make([]bool, len(players))
	var out [][]string
	var dfs func() bool
	dfs = func() bool {
		s.budget--
		if s.budget < 0 && !rematches {
			return false
		}
		i := slices.Index(used, false)
		if i < 0 {
			return true
		}
		used[i] = true
		p := players[i]
		for _, j := range s.candidates(players, used, i, rematches) {
			used[j] = true
			out = append(out, []string{p, players[j]})
			if dfs() {
				return true
			}
			out = out[:len(out)-1]
			used[j] = false
			if rematches {
				break // any opponent will do: take the best and go on
			}
		}
		used[i] = false
		return false
	}
	if !dfs() {
		return nil, false
	}
	return out, true
}

// candidates are the indexes of the unused players p (players[i]) may
// meet, best first.
func (s *swiss) candidates(players []string, used []bool, i int, rematches bool) []int {
	p := players[i]
	pp := s.in.Points[p]
	var group []int // p's unpaired score group, p first
	for j := i; j < len(players); j++ {
		if j == i || (!used[j] && s.in.Points[players[j]] == pp) {
			group = append(group, j)
		}
	}
	target := len(group) / 2
	type cand struct {
		j, met  int
		diff    float64
		fold, r int
	}
	var cs []cand
	for j := range players {
		if used[j] {
			continue
		}
		q := players[j]
		met := s.in.Met[PairKey(p, q)]
		if met > 0 && !rematches {
			continue
		}
		c := cand{j: j, diff: math.Abs(pp - s.in.Points[q]), r: j}
		if pos := slices.Index(group, j); pos >= 0 {
			c.fold = abs(pos - target)
		}
		if rematches {
			c.met = met
		}
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.met, b.met), cmp.Compare(a.diff, b.diff), cmp.Compare(a.fold, b.fold), cmp.Compare(a.r, b.r))
	})
	out := make([]int, len(cs))
	for x, c := range cs {
		out[x] = c.j
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pods cuts ranked players into tables of the given sizes. A depth-first
// search seats them so that nobody meets anyone they met before: the pods
// are filled in order, each opened by the best-ranked player left and
// completed with the next-ranked who met nobody in it, backtracking when a
// later pod cannot be filled (at most searchBudget steps). When it finds
// none, podsFewestMet seats them with the fewest meetings.
func pods(in PairInput, players []string, sizes []int) [][]string {
	used := make([]bool, len(players))
	out := make([][]string, len(sizes))
	budget := searchBudget
	var fill func(pod, from int) bool
	fill = func(pod, from int) bool {
		if pod == len(sizes) {
			return true
		}
		if len(out[pod]) == sizes[pod] {
			return fill(pod+1, 0)
		}
		if budget--; budget < 0 {
			return false
		}
		if len(out[pod]) == 0 {
			i := slices.Index(used, false)
			used[i], out[pod] = true, append(out[pod], players[i])
			if fill(pod, i+1) {
				return true
			}
			used[i], out[pod] = false, out[pod][:0]
			return false
		}
		for i := from; i < len(players) && budget >= 0; i++ {
			if used[i] || slices.ContainsFunc(out[pod], func(m string) bool { return in.Met[PairKey(m, players[i])] > 0 }) {
				continue
			}
			used[i], out[pod] = true, append(out[pod], players[i])
			if fill(pod, i+1) {
				return true
			}
			used[i], out[pod] = false, out[pod][:len(out[pod])-1]
		}
		return false
	}
	if fill(0, 0) {
		return out
	}
	return podsFewestMet(in, players, sizes)
}

// podsFewestMet fills the pods in order, each with the next-ranked players
// who met the fewest of those already in it.
func podsFewestMet(in PairInput, players []string, sizes []int) [][]string {
	used := map[string]bool{}
	var out [][]string
	for _, size := range sizes {
		var pod []string
		for len(pod) < size {
			pick := ""
			bestMet := math.MaxInt
			for _, q := range players {
				if used[q] {
					continue
				}
				met := 0
				for _, m := range pod {
					met += in.Met[PairKey(m, q)]
				}
				if met < bestMet {
					pick, bestMet = q, met
				}
				if met == 0 {
					break
				}
			}
			used[pick] = true
			pod = append(pod, pick)
		}
		out = append(out, pod)
	}
	return out
}

// SeededOrder is the order of players the standings cannot tell apart:
// by FNV-1a of seed, round and id (then id), so a round is drawn the
// same way every time for the same seed.
func SeededOrder(seed string, round int, a, b string) int {
	h := func(id string) uint64 {
		f := fnv.New64a()
		fmt.Fprintf(f, "%s\x00%d\x00%s", seed, round, id)
		return f.Sum64()
	}
	return cmp.Or(cmp.Compare(h(a), h(b)), cmp.Compare(a, b))
}
