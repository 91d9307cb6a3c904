package west1920

import "slices"

// Read-only helpers for the table's screens (companion/west1920game): what
// the map shows on top of the counters. None of them changes the state.

// Passable reports whether a unit may stand on h now: on the map, not
// impassable terrain, not a neutral country (1.3, 13.3, 13.5).
func (s State) Passable(h Hex) bool {
	if s.cat == nil {
		return false
	}
	i := s.cat.Board.Index(h)
	return i >= 0 && s.passable(i)
}

// UnitSupply tells, for every combat unit on the map, whether it is
// supplied under sup (6.0: the range of its nation and type; Lithuanians
// from Kaunas only). sup is s.ComputeSupply(), computed once by the caller.
func (s State) UnitSupply(sup Supply) map[string]bool {
	out := make(map[string]bool, len(s.Units))
	if s.cat == nil {
		return out
	}
	b := s.cat.Board
	for i := range s.Units {
		u := &s.Units[i]
		if u.Status != OnMap {
			continue
		}
		out[u.ID] = sup.suppliedAt(u, b.Index(u.Hex))
	}
	return out
}

// HQGap is what the 7.2 activation roll of side's stack on h would count:
// the hexes between the stack and the nearest HQ that may command all its
// units still without an order (all of them when every one has had one),
// over passable hexes free of enemy units; 0 when such an HQ is in or next
// to the stack; −1 when none can be reached (or there is no stack).
func (s State) HQGap(side string, h Hex) int {
	if s.cat == nil {
		return -1
	}
	i := s.cat.Board.Index(h)
	stack := s.ownStack(side, h)
	if i < 0 || len(stack) == 0 {
		return -1
	}
	var units []*Unit
	for _, u := range stack {
		if !u.Ordered {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		units = stack
	}
	return s.hqGap(side, i, units)
}

// ActivationFail is the chance an order fails for an HQGap (7.2): none with
// an HQ in or next to the stack (no roll), gap in 6 (at most certain), and
// certain when no HQ can be reached.
func ActivationFail(gap int) float64 {
	switch {
	case gap == 0:
		return 0
	case gap < 0:
		return 1
	}
	return float64(min(gap, 6)) / 6
}

// LegalTypes is the action types of LegalActions(s), in the same order,
// found by trying the candidates of a type only until one is accepted:
// the referee's screen lists them after every action, and in the orders
// phase LegalActions tries every path of every chit.
func LegalTypes(s State) []string {
	if s.Phase == "" || s.Phase == PhaseOver || s.cat == nil {
		return nil
	}
	var out []string
	for _, a := range s.candidates() {
		if slices.Contains(out, a.Type()) {
			continue
		}
		if _, _, err := Apply(s, a); err == nil {
			out = append(out, a.Type())
		}
	}
	return out
}
