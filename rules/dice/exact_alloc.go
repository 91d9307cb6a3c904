package dice

import "fmt"

// maxAllocStates bounds the allocation state space the exact DP explores.
// Single wounds reach at most Models×Lives+1 states under either policy, and
// Focus keeps at most one wounded model alive; only Spread with d6 packets
// against many models of many lives can come near it.
const maxAllocStates = 50000

// allocTable is the state space of wound allocation, discovered lazily from
// the start state. A state is the number of living models at each level of
// remaining lives (1…Lives); models are interchangeable, so that is all the
// policies need. Transitions are cached per (state, packet size).
type allocTable struct {
	lives  int
	focus  bool
	counts []uint16 // state s: counts[s*lives+l-1] models with l lives left
	dead   []int32  // killed models in state s
	trans  []int32  // trans[s*7+j]: the state after a packet of j wounds; -1 unknown
	// States are indexed by their counts packed 10 bits a level into a
	// uint64 when Lives ≤ 6 (no allocation per state), else as a string.
	small map[uint64]int32
	index map[string]int32
	buf   []uint16
	key   []byte
}

func newAllocTable(t Target) *allocTable {
	a := &allocTable{
		lives: t.Lives,
		focus: t.focus(),
		buf:   make([]uint16, t.Lives),
	}
	// Room for every state up to a point: C(Models+Lives, Lives) bounds them.
	n := 1
	for i := 1; i <= t.Lives && n < 4096; i++ {
		n = n * (t.Models + i) / i
	}
	n = min(n, 4096)
	a.counts = make([]uint16, 0, n*t.Lives)
	a.dead = make([]int32, 0, n)
	a.trans = make([]int32, 0, 7*n)
	if t.Lives <= 6 {
		a.small = make(map[uint64]int32, n)
	} else {
		a.index = make(map[string]int32, n)
		a.key = make([]byte, 2*t.Lives)
	}
	a.buf[t.Lives-1] = uint16(t.Models)
	a.add(a.buf, 0)
	return a
}

// add returns the index of the state with counts c, creating it if needed,
// or -1 when the state space would grow past maxAllocStates.
func (a *allocTable) add(c []uint16, dead int) int32 {
	var packed uint64
	if a.small != nil {
		for _, v := range c {
			packed = packed<<10 | uint64(v) // v ≤ MaxModels < 1024
		}
		if s, ok := a.small[packed]; ok {
			return s
		}
	} else {
		for i, v := range c {
			a.key[2*i], a.key[2*i+1] = byte(v), byte(v>>8)
		}
		if s, ok := a.index[string(a.key)]; ok {
			return s
		}
	}
	if len(a.dead) >= maxAllocStates {
		return -1
	}
	s := int32(len(a.dead))
	if a.small != nil {
		a.small[packed] = s
	} else {
		a.index[string(a.key)] = s
	}
	a.counts = append(a.counts, c...)
	a.dead = append(a.dead, int32(dead))
	a.trans = append(a.trans, s, -1, -1, -1, -1, -1, -1)
	return s
}

// next is the state after a packet of j ≥ 1 unsaved wounds lands on state s.
func (a *allocTable) next(s int32, j int) int32 {
	if t := a.trans[int(s)*7+j]; t >= 0 {
		return t
	}
	L := a.lives
	copy(a.buf, a.counts[int(s)*L:int(s)*L+L])
	dead := int(a.dead[s])
	lvl := -1 // index into buf: lvl+1 lives left
	if a.focus {
		for l := 0; l < L; l++ {
			if a.buf[l] > 0 {
				lvl = l
				break
			}
		}
	} else {
		for l := L - 1; l >= 0; l-- {
			if a.buf[l] > 0 {
				lvl = l
				break
			}
		}
	}
	t := s // everyone is dead already: the wounds are lost
	if lvl >= 0 {
		a.buf[lvl]--
		if nl := lvl - j; nl >= 0 {
			a.buf[nl]++
		} else {
			dead++ // excess wounds of the packet are lost with the model
		}
		t = a.add(a.buf, dead)
		if t < 0 {
			return -1
		}
	}
	a.trans[int(s)*7+j] = t
	return t
}

// killedDist runs the allocation DP: n attacks, each a packet of j unsaved
// wounds with probability r[j].
func killedDist(r Dist, n int, t Target) (Dist, error) {
	a := newAllocTable(t)
	var nz [6]int
	nnz := 0
	for j := 1; j < len(r); j++ {
		if r[j] > 0 {
			nz[nnz] = j
			nnz++
		}
	}
	r0 := r[0]
	cur := make([]float64, 1, 64)
	cur[0] = 1
	next := make([]float64, 0, 64)
	for step := 0; step < n; step++ {
		next = zeroed(next, len(a.dead))
		for s, p := range cur {
			if p == 0 {
				continue
			}
			next[s] += p * r0
			for _, j := range nz[:nnz] {
				ns := a.next(int32(s), j)
				if ns < 0 {
					return nil, &ParamError{Param: ParamModels, Value: t.Models, Reason: fmt.Sprintf(
						"with %d lives each needs more than %d allocation states; use fewer models or the Monte Carlo estimate",
						t.Lives, maxAllocStates)}
				}
				for int(ns) >= len(next) {
					next = append(next, 0)
				}
				next[ns] += p * r[j]
			}
		}
		cur, next = next, cur
	}
	killed := make(Dist, t.Models+1)
	for s, p := range cur {
		killed[a.dead[s]] += p
	}
	return killed, nil
}

func zeroed(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n, 2*n)
	}
	b = b[:n]
	clear(b)
	return b
}
