package mali

// LegalActions lists the actions the engine accepts now, for a screen's
// buttons and for tests: every answer of a pending choice, the active
// player's steps, jumps, pick-ups, drops, card actions (except "Plotki z
// ulicy", which carries the cards seen) and EndTurn, the cards each player
// may lay, and the die's faces. Cards drawn and goal hands come from the
// table and are not listed. The list is in a fixed order.
func LegalActions(s State) []Action {
	if s.cat == nil || s.Pending == nil || s.Phase == PhaseOver {
		return nil
	}
	p := s.Pending
	var out []Action
	switch p.Kind {
	case WaitPlayCard:
		for _, seat := range p.Seats {
			for _, c := range s.player(seat).Cards {
				out = append(out, PlayCard{Seat: seat, Card: c})
			}
		}
	case WaitPlace:
		for _, id := range p.Choices {
			for _, n := range s.cat.Nodes {
				if s.enterable(n) {
					out = append(out, Place{Courier: id, At: n})
				}
			}
		}
	case WaitRoll:
		for _, f := range s.cat.Data.Die {
			out = append(out, RollDie{Colour: f.Colour, Value: f.Value})
		}
	case WaitSoldierTarget, WaitBonusCourier:
		for _, c := range p.Choices {
			out = append(out, ChooseCourier{Seat: p.Seat, Courier: c})
		}
	case WaitSoldierStep:
		for _, c := range p.Choices {
			out = append(out, ChooseSoldierStep{To: Node(c)})
		}
	case WaitBlockRoad:
		for _, r := range p.Choices {
			out = append(out, BlockRoad{Seat: p.Seat, Road: r})
		}
	case WaitDisplace:
		for _, n := range p.Choices {
			out = append(out, Displace{Courier: p.Courier, To: Node(n)})
		}
	case WaitBonusMove:
		c, _ := s.Courier(p.Courier)
		if p.Count > 0 {
			out = append(out, s.steps(c)...)
		}
		if !s.Options.RedMoveNoPickUp {
			out = append(out, s.pickUps(c)...)
			if c.Carrying != "" {
				out = append(out, Drop{Courier: c.ID})
			}
		}
		out = append(out, EndTurn{})
	case WaitTurn:
		t := s.Turn
		var mine []Courier
		for _, c := range s.Couriers {
			if c.Seat == p.Seat && c.OnMap() {
				mine = append(mine, c)
			}
		}
		for _, c := range mine {
			if !t.Jumped && !t.MoveDone && t.Points < t.Card {
				out = append(out, s.steps(c)...)
			}
			if t.Points == 0 && !t.Jumped && !t.MoveDone && s.cat.IsObject(c.At) {
				for _, n := range s.jumpTargets(string(c.At)) {
					out = append(out, Jump{Courier: c.ID, To: n})
				}
			}
			out = append(out, s.pickUps(c)...)
			if c.Carrying != "" {
				out = append(out, Drop{Courier: c.ID})
			}
		}
		if s.Variant == Extended && !t.ActionDone {
			switch t.Card {
			case 1:
				for i, a := range mine {
					for _, b := range mine[i+1:] {
						if s.cat.DistrictOf[a.At] == s.cat.DistrictOf[b.At] {
							out = append(out, SwapCouriers{A: a.ID, B: b.ID})
						}
					}
				}
			case 2:
				for _, c := range mine {
					if s.cat.IsObject(c.At) {
						for _, n := range s.jumpTargets(string(c.At)) {
							out = append(out, UnitJump{Courier: c.ID, To: n})
						}
					}
				}
			case 3:
				for f := 0; f+1 < len(s.Track); f++ {
					for _, a := range s.Track[f] {
						for _, b := range s.Track[f+1] {
							if a != VictoryCard && b != VictoryCard {
								out = append(out, SwapOrders{A: a, B: b})
							}
						}
					}
				}
			}
		}
		out = append(out, EndTurn{})
	}
	return out
}

func (s State) steps(c Courier) []Action {
	var out []Action
	for _, n := range s.cat.Neighbours(c.At) {
		if s.courierEdge(c.At, n) {
			out = append(out, Move{Courier: c.ID, To: n})
		}
	}
	return out
}

func (s State) pickUps(c Courier) []Action {
	if c.Carrying != "" || !s.cat.IsObject(c.At) {
		return nil
	}
	var out []Action
	for _, f := range s.Track {
		for _, id := range f {
			if o, ok := s.cat.Orders[id]; ok && o.From == string(c.At) && !s.seatCarries(c.Seat, id) {
				out = append(out, PickUp{Courier: c.ID, Order: id})
			}
		}
	}
	return out
}

func (s State) seatCarries(seat int, order string) bool {
	for _, c := range s.Couriers {
		if c.Seat == seat && c.Carrying == order {
			return true
		}
	}
	return false
}
