package mali

import "slices"

// Viewer is who a view is for: Seat 0 is the public (the spectators'
// screen), a seat is that player, and Referee sees everything.
type Viewer struct {
	Seat    int  `json:"seat"`
	Referee bool `json:"referee"`
}

// View is the state as v may see it. Hidden from other players: the secret
// goals dealt and kept, the movement card laid face down before all are
// revealed, and the cards a player saw on top of the deck ("Plotki z
// ulicy"; their number stays). The deck's order is never in the state.
func (s State) View(v Viewer) State {
	if v.Referee {
		return s
	}
	c := s.clone()
	for i := range c.Players {
		p := &c.Players[i]
		if p.Seat == v.Seat {
			continue
		}
		if s.Phase != PhaseOver {
			p.Goals = nil
		}
		p.Dealt = nil
		if p.Chosen != 0 {
			p.Chosen = -1 // laid, face down
		}
	}
	if c.Deck.PeekedBy != v.Seat && len(c.Deck.Peeked) > 0 {
		c.Deck.Peeked = slices.Repeat([]string{"?"}, len(c.Deck.Peeked))
	}
	return c
}
