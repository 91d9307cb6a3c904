package skirmish

import (
	"fmt"
	"slices"

	"github.com/sztab/sztab/rules/dice"
)

// maxAllocStates bounds the allocation state space the exact DP explores.
// Single wounds reach at most Models×Lives+1 states under either policy, and
// Focus keeps at most one wounded model alive; only Spread with d6 packets
// against many models of many lives can come near it.
const maxAllocStates = 50000

// allocTable is the state space of wound allocation, discovered lazily from
// the start state. A state is the number of living models at each level of
// remaining lives (1…lives, the most any model starts with); models are
// interchangeable, so that is all the policies need. Transitions are cached
// per (state, packet size); a packet of lives wounds or more kills whichever
// model it lands on, so sizes are capped at lives.
type allocTable struct {
	lives  int
	focus  bool
	stride int      // trans entries per state: packet sizes 0…stride-1
	counts []uint16 // state s: counts[s*lives+l-1] models with l lives left
	dead   []int32  // killed models in state s
	trans  []int32  // trans[s*stride+j]: the state after a packet of j wounds; -1 unknown
	// States are indexed by their counts packed 10 bits a level into a
	// uint64 when lives ≤ 6 (no allocation per state), else as a string.
	small map[uint64]int32
	index map[string]int32
	buf   []uint16
	key   []byte
}

// newAllocTable starts from living models with the given remaining lives,
// each 1…MaxLives, at most MaxModels of them, at least one; packets are at
// most maxPacket wounds.
func newAllocTable(lives []int, focus bool, maxPacket int) *allocTable {
	top := slices.Max(lives)
	a := &allocTable{
		lives:  top,
		focus:  focus,
		stride: min(max(maxPacket, 1), top) + 1,
		buf:    make([]uint16, top),
	}
	// Room for every state up to a point: C(Models+Lives, Lives) bounds them.
	n := 1
	for i := 1; i <= top && n < 4096; i++ {
		n = n * (len(lives) + i) / i
	}
	n = min(n, 4096)
	a.counts = make([]uint16, 0, n*top)
	a.dead = make([]int32, 0, n)
	a.trans = make([]int32, 0, a.stride*n)
	if top <= 6 {
		a.small = make(map[uint64]int32, n)
	} else {
		a.index = make(map[string]int32, n)
		a.key = make([]byte, 2*top)
	}
	for _, l := range lives {
		a.buf[l-1]++
	}
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
	a.trans = append(a.trans, s)
	for range a.stride - 1 {
		a.trans = append(a.trans, -1)
	}
	return s
}

// next is the state after a packet of j ≥ 1 unsaved wounds lands on state s.
func (a *allocTable) next(s int32, j int) int32 {
	j = min(j, a.stride-1)
	if t := a.trans[int(s)*a.stride+j]; t >= 0 {
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
	a.trans[int(s)*a.stride+j] = t
	return t
}

// KilledFromLives is the distribution of models killed (Len len(lives)+1)
// when attacks land one after the other on a unit whose living models have
// lives[i] lives left, in any order. packets[i] is the i-th attack's packet
// of unsaved wounds, packets[i][j] the chance of j wounds (Sequence.Packet
// is one). Each packet goes to one model picked by policy — Spread: the
// living model with the most lives left, Focus: the fewest — and wounds
// beyond that model's lives are lost, as in Sequence.Killed, which is this
// for a unit of equal models at full strength.
//
// The limits are those of Target and Sequence: 1…MaxModels models of
// 1…MaxLives lives, at most dice.MaxDice packets, and the allocation states
// the exact computation may explore; beyond them it returns a *ParamError.
func KilledFromLives(lives []int, packets []dice.Dist, policy Allocation) (dice.Dist, error) {
	if len(lives) < 1 {
		return nil, &ParamError{Param: ParamModels, Value: len(lives), Reason: "must be at least 1"}
	}
	if err := checkCount(ParamModels, len(lives), MaxModels); err != nil {
		return nil, err
	}
	for _, l := range lives {
		if l < 1 {
			return nil, &ParamError{Param: ParamLives, Value: l, Reason: "must be at least 1"}
		}
		if err := checkCount(ParamLives, l, MaxLives); err != nil {
			return nil, err
		}
	}
	if err := checkCount(ParamAttacks, len(packets), dice.MaxDice); err != nil {
		return nil, err
	}
	if err := (Target{Models: 1, Lives: 1, Policy: policy}).Validate(); err != nil {
		return nil, err
	}
	maxPacket := 0
	for _, p := range packets {
		maxPacket = max(maxPacket, len(p)-1)
	}
	a := newAllocTable(lives, policy == Focus, maxPacket)
	k, ok := allocDP(a, packets, len(lives))
	if !ok {
		return nil, &ParamError{Param: ParamModels, Value: len(lives), Reason: fmt.Sprintf(
			"with up to %d lives needs more than %d allocation states; use fewer models or the Monte Carlo estimate",
			a.lives, maxAllocStates)}
	}
	return k, nil
}

// killedDist is KilledFromLives for t.Models models of t.Lives lives, n
// attacks of packet r, for a validated t.
func killedDist(r dice.Dist, n int, t Target) (dice.Dist, error) {
	lives := make([]int, t.Models)
	for i := range lives {
		lives[i] = t.Lives
	}
	a := newAllocTable(lives, t.focus(), len(r)-1)
	k, ok := allocDP(a, slices.Repeat([]dice.Dist{r}, n), t.Models)
	if !ok {
		return nil, &ParamError{Param: ParamModels, Value: t.Models, Reason: fmt.Sprintf(
			"with %d lives each needs more than %d allocation states; use fewer models or the Monte Carlo estimate",
			t.Lives, maxAllocStates)}
	}
	return k, nil
}

// allocDP runs the allocation DP over the packets from a's start state, a
// unit of models models; false when the state space grows too big.
func allocDP(a *allocTable, packets []dice.Dist, models int) (dice.Dist, bool) {
	cur := make([]float64, 1, 64)
	cur[0] = 1
	next := make([]float64, 0, 64)
	var nz []int
	for _, r := range packets {
		nz = nz[:0]
		for j := 1; j < len(r); j++ {
			if r[j] > 0 {
				nz = append(nz, j)
			}
		}
		r0 := r.P(0)
		next = zeroed(next, len(a.dead))
		for s, p := range cur {
			if p == 0 {
				continue
			}
			next[s] += p * r0
			for _, j := range nz {
				ns := a.next(int32(s), j)
				if ns < 0 {
					return nil, false
				}
				for int(ns) >= len(next) {
					next = append(next, 0)
				}
				next[ns] += p * r[j]
			}
		}
		cur, next = next, cur
	}
	killed := make(dice.Dist, models+1)
	for s, p := range cur {
		killed[a.dead[s]] += p
	}
	return killed, true
}

func zeroed(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n, 2*n)
	}
	b = b[:n]
	clear(b)
	return b
}
