package bitwa

// MaxMultiAnswers caps the answers of several units that LegalActions
// lists for one move or supply decision, and MaxMultiTries the candidates
// it tries for them (each is checked by Apply).
const (
	MaxMultiAnswers = 40
	MaxMultiTries   = 400
)

// LegalActions lists actions Apply accepts in s: every answer to the
// pending decision (for moves and supply: declining, each single-unit
// move and add, then answers of several units — every split of up to the
// decision's number of units over the single moves and adds, by size
// with the cap shared between sizes, at most MaxMultiAnswers of them; for
// rolls: one roll a face), or every action of the active player (each
// card to each front with each effect, each discard action, pass). Every
// entry is checked by Apply.
func LegalActions(s State) []Action {
	if s.Phase == "" || s.Phase == PhaseOver {
		return nil
	}
	var cand []Action
	if pd := s.Pending; pd != nil {
		seat := pd.Seat
		switch pd.Kind {
		case DecideRollInitiative:
			d := make([]int, len(s.Players))
			for i := range d {
				d[i] = 6 - i
			}
			cand = append(cand, Roll{Seat: seat, Dice: d})
		case DecideRollBonus:
			for v := 1; v <= 6; v++ {
				cand = append(cand, Roll{Seat: seat, Dice: []int{v}})
			}
		case DecideOpeningBlockade, DecideSupport:
			if pd.Kind == DecideSupport {
				cand = append(cand, Blockade{Seat: seat, Skip: true})
			}
			for _, pl := range BlockPlaces {
				for _, f := range Fronts {
					cand = append(cand, Blockade{Seat: seat, Marker: pd.Marker, Place: pl, Front: f})
				}
			}
		case DecideTurnCard:
			cand = append(cand, TurnCard{Seat: seat, Face: 0}, TurnCard{Seat: seat, Face: 1})
		case DecideAssign:
			seats := make([]int, 0, len(s.Players))
			for _, p := range s.Players {
				seats = append(seats, p.Seat)
			}
			for _, perm := range permutations(seats) {
				cand = append(cand, AssignInitiative{Seat: seat, Order: perm})
			}
		case DecideSupply:
			cand = append(cand, Supply{Seat: seat})
			for _, f := range Fronts {
				cand = append(cand, Supply{Seat: seat, Add: []string{f}})
			}
			singles := s.singleMoves(pd.Army, 0, 0, "")
			for _, m := range singles {
				cand = append(cand, Supply{Seat: seat, Moves: []UnitMove{m}})
			}
			return append(legalOnly(s, cand), s.multiAnswers(pd, seat, singles, true)...)
		case DecideMove:
			cand = append(cand, Move{Seat: seat})
			singles := s.singleMoves(pd.Army, pd.FromLine, pd.ToLine, pd.MoveFront)
			for _, m := range singles {
				cand = append(cand, Move{Seat: seat, Moves: []UnitMove{m}})
			}
			return append(legalOnly(s, cand), s.multiAnswers(pd, seat, singles, false)...)
		case DecideRemove:
			cand = append(cand, Remove{Seat: seat, Front: pd.Front, Line: 1}, Remove{Seat: seat, Front: pd.Front, Line: 2})
		case DecideConfirm:
			cand = append(cand, Confirm{Seat: seat, Yes: true}, Confirm{Seat: seat})
		}
		return legalOnly(s, cand)
	}
	p := s.Player(s.Active)
	if p == nil {
		return nil
	}
	seat := p.Seat
	for _, id := range p.Hand {
		c := s.Cards[id]
		for _, f := range c.Fronts() {
			for ch := range c.Options() {
				cand = append(cand, PlayCard{Seat: seat, Card: id, Front: f, Choice: ch})
				if c.Kind == KindUnit {
					break
				}
			}
		}
		for _, r := range ResourceIDs {
			cand = append(cand, Fight{Seat: seat, Card: id, Resource: r})
		}
		for _, f := range Fronts {
			if cm := s.Army(p.Army).Commanders[frontIndex(f)]; cm != nil {
				for ch := range s.Cards[cm.Card].Options() {
					cand = append(cand, Activate{Seat: seat, Card: id, Front: f, Choice: ch})
				}
			}
		}
		for _, ar := range Armies {
			for _, pl := range BlockPlaces {
				for _, f := range Fronts {
					cand = append(cand, Blockade{Seat: seat, Card: id, Marker: s.marker(ar), Place: pl, Front: f})
				}
			}
		}
	}
	cand = append(cand, Pass{Seat: seat})
	return legalOnly(s, cand)
}

func legalOnly(s State, cand []Action) []Action {
	var out []Action
	for _, a := range cand {
		if _, _, err := Apply(s, a); err == nil {
			out = append(out, a)
		}
	}
	return out
}

func permutations(xs []int) [][]int {
	if len(xs) <= 1 {
		return [][]int{append([]int(nil), xs...)}
	}
	var out [][]int
	for i := range xs {
		rest := append(append([]int(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]int{xs[i]}, p...))
		}
	}
	return out
}

// multiAnswers lists answers of 2 to pd.N units to a move (or, with
// supply, a supply) decision: each multiset of the single moves (and, for
// a supply, of the adds to a front's 2nd line), by size, the moves of the
// same path merged into one UnitMove; the budget is shared between the
// sizes. Splits that take more units from a
// line than it holds (counting the adds made first) or add more than the
// Reserve holds are skipped before Apply; Apply checks the rest (limits,
// blockades). At most MaxMultiAnswers accepted ones are returned and at
// most MaxMultiTries candidates tried.
func (s *State) multiAnswers(pd *Pending, seat int, singles []UnitMove, supply bool) []Action {
	var items []UnitMove // adds are items with an empty From, To the front
	if supply {
		for _, f := range Fronts {
			items = append(items, UnitMove{To: f, N: 1})
		}
	}
	items = append(items, singles...)
	if len(items) == 0 || pd.N < 2 {
		return nil
	}
	ar := s.Army(pd.Army)
	var out []Action
	tries, found := 0, 0
	maxTries, maxFound := 0, 0
	idx := make([]int, 0, pd.N)
	var walk func(start, size int) bool // false: this size is done
	walk = func(start, size int) bool {
		if len(idx) == size {
			a, ok := s.multiCandidate(ar, items, idx, seat, supply)
			if !ok {
				return true
			}
			if tries++; tries > maxTries {
				return false
			}
			if _, _, err := Apply(*s, a); err == nil {
				out = append(out, a)
				found++
			}
			return found < maxFound
		}
		for i := start; i < len(items); i++ {
			idx = append(idx, i)
			goOn := walk(i, size)
			idx = idx[:len(idx)-1]
			if !goOn {
				return false
			}
		}
		return true
	}
	// The budget is shared between the sizes still to come, so that the
	// largest splits are listed too; what a size leaves goes to the next.
	usedTries := 0
	for size := 2; size <= pd.N; size++ {
		left := pd.N - size + 1
		maxFound = (MaxMultiAnswers - len(out) + left - 1) / left
		maxTries = (MaxMultiTries - usedTries + left - 1) / left
		tries, found = 0, 0
		walk(0, size)
		usedTries += min(tries, maxTries)
	}
	return out
}

// multiCandidate builds the answer of the chosen items, or reports that it
// cannot be right (more units from a line than it holds, more adds than
// the Reserve).
func (s *State) multiCandidate(ar *Army, items []UnitMove, idx []int, seat int, supply bool) (Action, bool) {
	var adds []string
	var moves []UnitMove
	taken := map[string]int{}
	for _, i := range idx {
		it := items[i]
		if it.From == "" {
			adds = append(adds, it.To)
			taken[it.To+"2"]--
			continue
		}
		taken[it.From]++
		if n := len(moves); n > 0 && moves[n-1].From == it.From && moves[n-1].To == it.To {
			moves[n-1].N++
		} else {
			moves = append(moves, it)
		}
	}
	if len(adds) > ar.Reserve {
		return nil, false
	}
	for pos, n := range taken {
		if n <= 0 {
			continue
		}
		l := ar.Fronts[frontIndex(pos[:1])]
		have := l.First
		if pos[1:] == "2" {
			have = l.Second
		}
		if n > have {
			return nil, false
		}
	}
	if supply {
		return Supply{Seat: seat, Add: adds, Moves: moves}, true
	}
	return Move{Seat: seat, Moves: moves}, true
}
