package wotrush

import (
	"slices"

	"github.com/sztab/sztab/rules"
)

// At a real table the players draw physical cards and lay out physical
// Reserve cards: the engine's seeded orders are only its guess of what
// lies face down. The actions here let the table say what it sees. The
// Garage's and the vehicle deck's orders are hidden from everyone, so
// swapping a guessed card for the one seen changes nothing anybody knew;
// every card stays in exactly one place.

// RevealHand says that Cards lie in Seat's hand, as scanned when the hand
// is laid face up (turn step I), when a card drawn later (Posiłki) is
// played, or when a Sabotage victim puts a card away. Each card must be in
// that player's hand or Garage. A card from the Garage takes the place of a
// hand card not yet seen (the first in hand order), which goes to the
// Garage where the seen card was. It is the active player's (nothing
// pending) or a Sabotage victim's while they choose.
type RevealHand struct {
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
}

// RevealReserve says that Cards lie in the Reserve row, as scanned on the
// market reader. Each must be in the Reserve or the vehicle deck; a card
// from the deck takes the place of a Reserve card not yet seen (the one
// nearest the deck first: the newest), which goes into the deck where the
// seen card was. It is the active player's (nothing pending but Research).
type RevealReserve struct {
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
}

// Select keeps what a player is putting together before a purchase or an
// attack, so the table's scans survive a restart: Mode "buy" (Reserve
// Cards and hand cards to Pay with), "attack" (the attackers in Cards) or
// "" (clears the selection). Any other action but a reveal clears it.
type Select struct {
	Seat  int      `json:"seat"`
	Mode  string   `json:"mode,omitempty"`
	Cards []string `json:"cards,omitempty"`
	Pay   []string `json:"pay,omitempty"`
}

func (RevealHand) Type() string    { return "reveal_hand" }
func (RevealReserve) Type() string { return "reveal_reserve" }
func (Select) Type() string        { return "select" }

// Selection modes.
const (
	SelectBuy    = "buy"
	SelectAttack = "attack"
)

// SelectNames are the selection modes in words (what the cards are
// selected for).
var SelectNames = map[string]rules.Text{
	SelectBuy:    {PL: "zakupu", EN: "a purchase"},
	SelectAttack: {PL: "ataku", EN: "an attack"},
}

// Selection is a purchase or an attack being put together (see Select).
type Selection struct {
	Seat  int      `json:"seat"`
	Mode  string   `json:"mode"`
	Cards []string `json:"cards"`
	Pay   []string `json:"pay"`
}

// keepsSelection: the actions after which a selection stays.
func keepsSelection(a Action) bool {
	switch a.(type) {
	case Select, RevealHand, RevealReserve:
		return true
	}
	return false
}

func (s *State) checkReveal(a Action, seat int) error {
	pd := s.Pending
	switch a.(type) {
	case RevealHand:
		if pd == nil && seat == s.Active || pd != nil && pd.Kind == DecideDiscard && pd.Victim == seat {
			return nil
		}
	case RevealReserve:
		if seat == s.Active && (pd == nil || pd.Kind == DecideResearch) {
			return nil
		}
	}
	if pd != nil {
		return rules.Reject("awaiting_decision", "najpierw: %[1]s", "first: %[2]s", pd.Text.PL, pd.Text.EN)
	}
	return rules.Reject("not_your_turn", "teraz tura gracza %[1]s, nie %[2]s", "it is %[1]s's turn, not %[2]s's", s.name(s.Active), s.name(seat))
}

func distinct(ids []string) error {
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			return rules.Reject("duplicate_card", "karta %s podana dwa razy", "card %s named twice", id)
		}
	}
	return nil
}

func (s *State) revealHand(a RevealHand) ([]Event, error) {
	p := s.Player(a.Seat)
	if len(a.Cards) == 0 {
		return nil, rules.Reject("nothing_revealed", "nie podano żadnej karty", "no card named")
	}
	if err := distinct(a.Cards); err != nil {
		return nil, err
	}
	for _, id := range a.Cards {
		c, ok := s.Cards[id]
		if !ok {
			return nil, rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", id)
		}
		if !slices.Contains(p.Hand, id) && !slices.Contains(p.Garage, id) {
			return nil, rules.Reject("not_yours_to_reveal", "%[1]s (%[2]s) nie może być na ręce gracza %[3]s: nie ma jej ani na ręce, ani w Garażu", "%[4]s (%[2]s) cannot be in %[3]s's hand: it is neither in the hand nor in the Garage", c.Name.PL, id, p.Name, c.Name.EN)
		}
	}
	var free []string // hand cards nobody has seen: the engine's guesses
	for _, h := range p.Hand {
		if !slices.Contains(p.Shown, h) && !slices.Contains(a.Cards, h) {
			free = append(free, h)
		}
	}
	swapped := 0
	for _, id := range a.Cards {
		if slices.Contains(p.Hand, id) {
			continue
		}
		if len(free) == 0 {
			return nil, rules.Reject("hand_full", "%[1]s ma na ręce %[2]d kart(y), a pokazano więcej", "%[1]s holds %[2]d card(s), more were shown", p.Name, len(p.Hand))
		}
		h := free[0]
		free = free[1:]
		hi, gi := slices.Index(p.Hand, h), slices.Index(p.Garage, id)
		p.Hand[hi], p.Garage[gi] = id, h
		swapped++
	}
	for _, id := range a.Cards {
		if !slices.Contains(p.Shown, id) {
			p.Shown = append(p.Shown, id)
		}
	}
	if pd := s.Pending; pd != nil && pd.Kind == DecideDiscard && pd.Victim == a.Seat {
		pd.Options = slices.Clone(p.Hand)
	}
	ev := Event{Type: "hand_shown", Seat: a.Seat, N: swapped}
	if a.Seat == s.Active {
		ev.Cards = slices.Clone(a.Cards)
		ev.Text = rules.Textf("%[1]s pokazuje: %[2]s", "%[3]s shows: %[4]s", p.Name, s.names(a.Cards), p.Name, s.namesEN(a.Cards))
	} else {
		// A victim's hand stays hidden: counted, not named.
		ev.Text = rules.Textf("%[1]s pokazuje sędziemu %[2]d kart(y)", "%[1]s shows %[2]d card(s) to the table", p.Name, len(a.Cards))
	}
	return []Event{ev}, nil
}

func (s *State) revealReserve(a RevealReserve) ([]Event, error) {
	if len(a.Cards) == 0 {
		return nil, rules.Reject("nothing_revealed", "nie podano żadnej karty", "no card named")
	}
	if err := distinct(a.Cards); err != nil {
		return nil, err
	}
	for _, id := range a.Cards {
		c, ok := s.Cards[id]
		if !ok {
			return nil, rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", id)
		}
		if !slices.Contains(s.Reserve, id) && !slices.Contains(s.Deck, id) {
			return nil, rules.Reject("not_in_reserve", "%[1]s (%[2]s) nie może leżeć w Rezerwie: nie ma jej ani w Rezerwie, ani w stosie Pojazdów", "%[3]s (%[2]s) cannot lie in the Reserve: it is neither in the Reserve nor in the vehicle deck", c.Name.PL, id, c.Name.EN)
		}
	}
	var free []string
	for _, r := range s.Reserve {
		if !slices.Contains(s.ReserveShown, r) && !slices.Contains(a.Cards, r) {
			free = append(free, r)
		}
	}
	swapped := 0
	for _, id := range a.Cards {
		if slices.Contains(s.Reserve, id) {
			continue
		}
		if len(free) == 0 {
			return nil, rules.Reject("reserve_full", "w Rezerwie leży %d kart, a pokazano więcej", "the Reserve holds %d cards, more were shown", len(s.Reserve))
		}
		r := free[0]
		free = free[1:]
		ri, di := slices.Index(s.Reserve, r), slices.Index(s.Deck, id)
		s.Reserve[ri], s.Deck[di] = id, r
		swapped++
	}
	for _, id := range a.Cards {
		if !slices.Contains(s.ReserveShown, id) {
			s.ReserveShown = append(s.ReserveShown, id)
		}
	}
	if pd := s.Pending; pd != nil && pd.Kind == DecideResearch {
		n := 0
		for _, ab := range s.Cards[pd.Card].Abilities {
			if ab.ID == AbResearch {
				n = ab.N
			}
		}
		pd.Options = nil
		for _, id := range s.Reserve {
			if s.Cards[id].Cost <= n {
				pd.Options = append(pd.Options, id)
			}
		}
	}
	return []Event{{Type: "reserve_shown", Seat: a.Seat, Cards: slices.Clone(s.Reserve), N: swapped,
		Text: rules.Textf("Rezerwa na stole: %s", "The Reserve on the table: %s", s.names(s.Reserve))}}, nil
}

func (s *State) selectCards(a Select) ([]Event, error) {
	if err := s.busy(); err != nil {
		return nil, err
	}
	p := s.Player(a.Seat)
	if err := distinct(a.Cards); err != nil {
		return nil, err
	}
	if err := distinct(a.Pay); err != nil {
		return nil, err
	}
	switch a.Mode {
	case "":
		if len(a.Cards)+len(a.Pay) > 0 {
			return nil, rules.Reject("bad_selection", "wybór bez trybu (kupno/atak) musi być pusty", "a selection without a mode (buy/attack) must be empty")
		}
		s.Selection = nil
		return []Event{{Type: "selection_cleared", Seat: a.Seat, Text: rules.Textf("%s: wybór anulowany", "%s: selection cleared", p.Name)}}, nil
	case SelectBuy:
		if !s.Recruitment && s.Purchases > 0 {
			return nil, rules.Reject("second_purchase", "bez Rekrutacji można kupić tylko jedną kartę w turze", "without Recruitment only one card may be bought a turn")
		}
		if !s.Recruitment && len(a.Cards) > 1 {
			return nil, rules.Reject("second_purchase", "bez Rekrutacji można kupić tylko jedną kartę w turze", "without Recruitment only one card may be bought a turn")
		}
		for _, id := range a.Cards {
			c, ok := s.Cards[id]
			if !ok {
				return nil, rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", id)
			}
			if !slices.Contains(s.Reserve, id) {
				return nil, rules.Reject("not_in_reserve", "%[1]s (%[2]s) nie leży w Rezerwie", "%[3]s (%[2]s) is not in the Reserve", c.Name.PL, id, c.Name.EN)
			}
		}
		for _, id := range a.Pay {
			if err := s.handCard(a.Seat, id); err != nil {
				return nil, err
			}
			if c := s.Cards[id]; !c.Pays {
				return nil, rules.Reject("no_resource_symbol", "%[1]s (%[2]s) nie ma symbolu surowca i nie może płacić", "%[3]s (%[2]s) has no resource symbol and cannot pay", c.Name.PL, id, c.Name.EN)
			}
		}
	case SelectAttack:
		if s.Attacked {
			return nil, rules.Reject("second_attack", "w tej turze był już atak", "there was an attack this turn already")
		}
		if len(a.Pay) > 0 {
			return nil, rules.Reject("bad_selection", "atak nie ma zapłaty", "an attack has nothing to pay")
		}
		for _, id := range a.Cards {
			if err := s.handCard(a.Seat, id); err != nil {
				return nil, err
			}
			c := s.Cards[id]
			if c.Kind != KindVehicle || c.Firepower < 1 {
				return nil, rules.Reject("no_firepower", "%[1]s (%[2]s) nie ma siły ognia", "%[3]s (%[2]s) has no firepower", c.Name.PL, id, c.Name.EN)
			}
			if first := s.Cards[a.Cards[0]]; c.Nation != first.Nation {
				return nil, rules.Reject("mixed_nations", "atakują Pojazdy jednego kraju", "attackers must be of one nation")
			}
		}
	default:
		return nil, rules.Reject("bad_selection", "tryb wyboru %q: dozwolone buy, attack", "selection mode %q: allowed buy, attack", a.Mode)
	}
	s.Selection = &Selection{Seat: a.Seat, Mode: a.Mode, Cards: slices.Clone(a.Cards), Pay: slices.Clone(a.Pay)}
	if s.Selection.Cards == nil {
		s.Selection.Cards = []string{}
	}
	if s.Selection.Pay == nil {
		s.Selection.Pay = []string{}
	}
	return []Event{{Type: "selected", Seat: a.Seat, Cards: slices.Concat(a.Cards, a.Pay),
		Text: rules.Textf("%[1]s wybiera do %[2]s: %[3]s", "%[4]s selects for %[6]s: %[5]s", p.Name, SelectNames[a.Mode].PL, s.names(slices.Concat(a.Cards, a.Pay)), p.Name, s.namesEN(slices.Concat(a.Cards, a.Pay)), SelectNames[a.Mode].EN)}}, nil
}
