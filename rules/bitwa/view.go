package bitwa

// Viewer is who a view of the state is for: Seat 0 is the public (the table
// screen), a seat is that player, and Referee sees everything.
type Viewer struct {
	Seat    int  `json:"seat"`
	Referee bool `json:"referee"`
}

// View is the state as v may see it. Hidden from everyone but a referee:
// the order and content of both army decks (their sizes stay public), the
// seed they were shuffled from (it rebuilds both decks and every hand), the
// hands of the other players and the card another player has picked
// (Selected: it is in their hand until it is played, and a pick put back
// stays theirs). Allies (3–4 players) see each other's hands, and picks,
// unless the option ally_hands is "hidden": the rulebook has them
// "podejmują decyzje wspólnie" (decide together), which a table plays with
// the cards shown between allies. Discards, fights and the board are public.
func (s State) View(v Viewer) State {
	if v.Referee {
		return s
	}
	c := s.clone()
	c.Seed = 0
	for i := range c.Players {
		p := &c.Players[i]
		if !s.SeesHand(v, p.Seat) {
			p.Hand = []string{}
		}
	}
	if c.Selected != nil && !s.SeesHand(v, c.Selected.Seat) {
		c.Selected = nil
	}
	for i := range c.Armies {
		c.Armies[i].Deck = []string{}
	}
	return c
}

// SeesHand reports whether v sees the hand (and the pick) of the player at
// seat: the referee, the player, and an ally unless ally_hands is "hidden".
func (s State) SeesHand(v Viewer, seat int) bool {
	if v.Referee {
		return true
	}
	me, p := s.Player(v.Seat), s.Player(seat)
	return me != nil && p != nil && (me.Seat == p.Seat || (me.Army == p.Army && s.Options.AllyHands == "visible"))
}
