package bitwa

// Viewer is who a view of the state is for: Seat 0 is the public (the table
// screen), a seat is that player, and Referee sees everything.
type Viewer struct {
	Seat    int  `json:"seat"`
	Referee bool `json:"referee"`
}

// View is the state as v may see it. Hidden from everyone but a referee:
// the order and content of both army decks (their sizes stay public) and
// the hands of the other players. Allies (3–4 players) see each other's
// hands unless the option ally_hands is "hidden": the rulebook has them
// "podejmują decyzje wspólnie" (decide together), which a table plays with
// the cards shown between allies. Discards, fights and the board are public.
func (s State) View(v Viewer) State {
	if v.Referee {
		return s
	}
	c := s.clone()
	var army string
	if p := c.Player(v.Seat); p != nil {
		army = p.Army
	}
	for i := range c.Players {
		p := &c.Players[i]
		visible := p.Seat == v.Seat || (army != "" && p.Army == army && c.Options.AllyHands == "visible")
		if !visible {
			p.Hand = []string{}
		}
	}
	for i := range c.Armies {
		c.Armies[i].Deck = []string{}
	}
	return c
}
