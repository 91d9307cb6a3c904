package bitwa

// LegalActions lists actions Apply accepts in s: every answer to the
// pending decision (for moves and supply: declining, each single-unit
// move and add; for rolls: one roll a face), or every action of the
// active player (each card to each front with each effect, each discard
// action, pass). Every entry is checked by Apply. Moves of several units
// at once are legal too but not listed.
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
			for _, m := range s.singleMoves(pd.Army, 0, 0, "") {
				cand = append(cand, Supply{Seat: seat, Moves: []UnitMove{m}})
			}
		case DecideMove:
			cand = append(cand, Move{Seat: seat})
			for _, m := range s.singleMoves(pd.Army, pd.FromLine, pd.ToLine, pd.MoveFront) {
				cand = append(cand, Move{Seat: seat, Moves: []UnitMove{m}})
			}
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
