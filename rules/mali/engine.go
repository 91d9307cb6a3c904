package mali

import "github.com/sztab/sztab/rules"

// Apply plays action a on state s. It returns the next state and what
// happened, or a *rules.Rejection and s itself: nothing is half-applied.
// When the rules need a player's choice the state's Pending names the
// player and lists the legal answers.
func Apply(s State, a Action) (State, []Event, error) {
	next := s.clone()
	evs, err := next.apply(a)
	if err != nil {
		return s, nil, err
	}
	return next, evs, nil
}

func (s *State) apply(a Action) ([]Event, error) {
	return nil, rules.Reject("unknown_action", "nieznana akcja %T", "unknown action %T", a)
}

// LegalActions lists actions the engine would accept now, for a screen's
// buttons: every answer of a pending choice, every step and jump of the
// active player, pick-ups, drops and EndTurn. Inputs that come from the
// table (die rolls, drawn cards, goal hands) are not listed.
func LegalActions(s State) []Action { return nil }
