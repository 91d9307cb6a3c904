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
// trzymane w ręku … odkryte"), and every hand once the game is over (the
// squads are counted in front of everyone: nothing is secret any more).
// Sizes stay public. The seed and the count of
// shuffles made are the referee's: from them anyone would deal every
// future shuffle. A Sabotage choice lists the victim's hand to the victim
// only: with sabotage_chooser "active" the saboteur picks blind, a card
// drawn from the face-down hand and scanned.
func (s State) View(v Viewer) State {
	if v.Referee {
		return s
	}
	c := s.clone()
	c.Seed, c.Shuffles = 0, 0
	for i := range c.Players {
		p := &c.Players[i]
		p.Garage = []string{}
		if p.Seat != v.Seat && c.Phase == PhasePlay && p.Seat != c.Active {
			p.Hand = []string{}
			p.Shown = nil
		}
	}
	c.Deck = []string{}
	c.Box = nil
	if pd := c.Pending; pd != nil && pd.Kind == DecideDiscard && pd.Victim != v.Seat {
		pd.Options = []string{}
	}
	return c
}
