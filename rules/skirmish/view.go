package skirmish

// Viewer is who a view of the state is for: Seat 0 is the public (the
// spectators' screen), a seat is that player, and Referee sees everything.
type Viewer struct {
	Seat    int
	Referee bool
}

// View is the state as v may see it. Hidden are: army lists until their
// units are deployed ("Przeciwnik nie może widzieć jaką armię wybraliśmy
// przed startem rozgrywki i fazą rozmieszczenia"), so undeployed units and
// the army cost of the other players; and the order cards in the other
// players' hands, the cards they drew and put away (their number stays
// public). Completed cards are public: they have scored.
func (s State) View(v Viewer) State {
	if v.Referee {
		return s
	}
	c := s.clone()
	kept := []Unit{}
	for _, u := range c.Units {
		if u.Deployed || u.Owner == v.Seat {
			kept = append(kept, u)
		}
	}
	c.Units = kept
	hiding := s.Phase == PhaseSetup || s.Phase == PhaseObjectives || s.Phase == PhaseDeployment
	if hiding {
		for i := range c.Sides {
			c.Sides[i].Alive = 0
			for _, u := range c.Units {
				if u.Faction == c.Sides[i].Faction {
					c.Sides[i].Alive += u.Alive()
				}
			}
		}
	}
	for i := range c.Seats {
		ps := &c.Seats[i]
		if ps.Seat == v.Seat {
			continue
		}
		ps.Hand, ps.Drawn, ps.Discarded = nil, nil, nil
		if hiding {
			ps.ArmyPoints = 0
		}
	}
	return c
}
