package wotrush

import (
	"slices"

	"github.com/sztab/sztab/rules"
)

// buy is the purchase (page 6): the paying cards go to the Magazine, the
// bought cards on top of it, the Reserve slides away from the deck and is
// refilled next to it, one card for each card bought.
func (s *State) buy(a Buy) ([]Event, error) {
	if err := s.busy(); err != nil {
		return nil, err
	}
	p := s.Player(a.Seat)
	if len(a.Cards) == 0 {
		return nil, rules.Reject("nothing_to_buy", "nie wskazano karty z Rezerwy", "no Reserve card named")
	}
	// "Gracz nie może zakupić więcej niż jedną kartę z Rezerwy w swojej
	// turze, chyba że posiada zdolność Rekrutacji."
	if !s.Recruitment && (s.Purchases > 0 || len(a.Cards) > 1) {
		if err := s.waiver.Breach("second_purchase", "bez Rekrutacji można kupić tylko jedną kartę w turze", "without Recruitment only one card may be bought a turn"); err != nil {
			return nil, err
		}
	}
	cost := map[string]int{}
	total := 0
	for i, id := range a.Cards {
		c, ok := s.Cards[id]
		if !ok {
			return nil, rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", id)
		}
		if !slices.Contains(s.Reserve, id) {
			return nil, rules.Reject("not_in_reserve", "%[1]s nie leży w Rezerwie", "%[3]s is not in the Reserve", c.Name.PL, id, c.Name.EN)
		}
		if slices.Contains(a.Cards[:i], id) {
			return nil, rules.Reject("duplicate_card", "karta %s podana dwa razy", "card %s named twice", id)
		}
		cost[c.Nation] += c.Cost
		total += c.Cost
	}
	// "nawet jeśli koszt kupowanej karty wynosi 0, gracz musi wykorzystać
	// do jej zakupu co najmniej jedną kartę z symbolem surowca" (and the
	// FAQ: not "za darmo").
	if len(a.Pay) == 0 {
		return nil, rules.Reject("free_purchase", "zakup wymaga co najmniej jednej karty z symbolem surowca, nawet za koszt 0", "a purchase needs at least one card with a resource symbol, even at cost 0")
	}
	general := 0
	national := map[string]int{}
	for i, id := range a.Pay {
		if slices.Contains(a.Pay[:i], id) {
			return nil, rules.Reject("duplicate_card", "karta %s podana dwa razy", "card %s named twice", id)
		}
		if err := s.handCard(a.Seat, id); err != nil {
			return nil, err
		}
		c := s.Cards[id]
		// "Jeśli karta nie posiada wartości w surowcach, nie może zostać
		// wykorzystana do akcji zakupu" — Technicians, Volunteers, bases.
		// A vehicle with 0 resources has the symbol and may pay (FAQ).
		if !c.Pays {
			return nil, rules.Reject("no_resource_symbol", "%[1]s nie ma symbolu surowca i nie może płacić", "%[3]s has no resource symbol and cannot pay", c.Name.PL, id, c.Name.EN)
		}
		if ng, ok := nationalGoods(c); ok {
			national[ng] += c.Resources
		} else {
			general += c.Resources
		}
	}
	// Dobra narodowe pay only for their nation's cards; the rest of the
	// cost must come from ordinary resources.
	need := 0
	for nat, c := range cost {
		need += max(0, c-national[nat])
	}
	if need > general {
		have := general
		for _, v := range national {
			have += v
		}
		if err := s.waiver.Breach("too_little", "koszt %[1]d, a karty dają %[2]d surowców (z tego %[3]d zwykłych, brakuje %[4]d)", "cost %[1]d, the cards give %[2]d resources (%[3]d ordinary, %[4]d short)", total, have, general, need-general); err != nil {
			return nil, err
		}
	}
	for _, id := range a.Pay {
		p.Hand = removeOne(p.Hand, id)
		p.Magazine = append(p.Magazine, id)
		s.markUsed(id)
	}
	evs := []Event{{Type: "bought", Seat: a.Seat, Cards: slices.Clone(a.Cards), Target: "",
		Text: rules.Textf("%[1]s kupuje %[2]s, płacąc %[3]s", "%[4]s buys %[5]s, paying with %[6]s",
			p.Name, s.names(a.Cards), s.names(a.Pay), p.Name, s.namesEN(a.Cards), s.namesEN(a.Pay))}}
	for _, id := range a.Cards {
		s.Reserve = removeOne(s.Reserve, id)
		p.Magazine = append(p.Magazine, id)
		s.refill(&evs)
	}
	s.Purchases++
	return evs, nil
}

// nationalGoods is the nation a card's resources are bound to.
func nationalGoods(c Card) (string, bool) {
	for _, ab := range c.Abilities {
		if ab.ID == AbNationalGoods {
			if ab.Nation != "" {
				return ab.Nation, true
			}
			return c.Nation, true
		}
	}
	return "", false
}
