package west1920

// Viewer is who a view of the state is for: Seat "polish" or "russian" is
// that player, "" the public table screen; Referee sees everything.
type Viewer struct {
	Seat    string `json:"seat,omitempty"`
	Referee bool   `json:"referee,omitempty"`
}

// View is the state as v may see it. Hidden from all but the referee: the
// other player's event-card hand (3.1: cards are held until played; its size
// stays public as HandSize) and the deck. Played cards, discards and the
// effects in force are public (3.2). Counters stay visible: the companion
// keeps the record the paper map shows; 13.2's hidden stacks are a matter
// for the players at the map (AMBIGUITIES.md).
func (s State) View(v Viewer) State {
	if v.Referee {
		return s
	}
	c := s.clone()
	for i := range c.Players {
		p := &c.Players[i]
		p.HandSize = len(p.Hand)
		if p.Side != v.Seat {
			p.Hand = []int{}
		}
	}
	c.DeckSize = len(c.Deck)
	c.Deck = []int{}
	return c
}
