package bitwa

import (
	"github.com/sztab/sztab/rules"
)

// Event is something that happened, for the journal, the screens and the
// players. Events are public: they never name a card drawn into a hand.
type Event struct {
	Type  string     `json:"type"`
	Text  rules.Text `json:"text"`
	Seat  int        `json:"seat,omitempty"`
	Army  string     `json:"army,omitempty"`
	Card  string     `json:"card,omitempty"`
	Front string     `json:"front,omitempty"`
	N     int        `json:"n,omitempty"`
	Dice  []int      `json:"dice,omitempty"`
}

// Apply plays action a on state s. It returns the next state and what
// happened, or a *rules.Rejection (or, for a StartGame with bad data, an
// error wrapping one) and s itself: nothing is half-applied, s is never
// changed.
func Apply(s State, a Action) (State, []Event, error) {
	next := s.clone()
	evs, err := next.apply(a)
	if err != nil {
		return s, nil, err
	}
	next.tally()
	return next, evs, nil
}

func (s *State) apply(a Action) ([]Event, error) {
	return nil, rules.Reject("unknown_action", "nieznana akcja %T", "unknown action %T", a)
}
