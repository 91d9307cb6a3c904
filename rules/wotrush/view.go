package wotrush

// Viewer is who a view of the state is for: Seat 0 is the public (the table
// screen), a seat is that player, and Referee sees everything.
type Viewer struct {
	Seat    int  `json:"seat"`
	Referee bool `json:"referee"`
}

// View is the state as v may see it. Hidden from everyone but a referee:
// the order of every Garage ("the Garage order is never shown to anyone",
// the owner included: the cards are face down), the vehicle deck, the
// achievements left in the box, and the hands of the other players — except
// the active player's hand, laid face up in phase I ("kładzie karty
// trzymane w ręku … odkryte"). Sizes stay public. A Sabotage choice made by
// the victim lists the victim's hand to the victim only.
func (s State) View(v Viewer) State {
	if v.Referee {
		return s
	}
	c := s.clone()
	for i := range c.Players {
		p := &c.Players[i]
		p.Garage = []string{}
		if p.Seat != v.Seat && !(p.Seat == c.Active && c.Phase == PhasePlay) {
			p.Hand = []string{}
			p.Shown = nil
		}
	}
	c.Deck = []string{}
	c.Box = nil
	if pd := c.Pending; pd != nil && pd.Kind == DecideDiscard && pd.Seat != v.Seat && pd.Victim != v.Seat {
		pd.Options = []string{}
	}
	return c
}
