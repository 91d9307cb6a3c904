package wotrush

import (
	"math/bits"
	"slices"
)

// LegalActions lists what may be played now. With a decision pending it is
// every legal answer. Otherwise it is the active player's options: EndTurn,
// every card that can be played (with and without its abilities), every
// single-card purchase with each minimal set of paying cards, under
// Recruitment every set of two or more Reserve cards (at most the
// combinations of the Reserve's cards, 11 for a row of 4) with one minimal
// payment (the fewest paying cards, the first such set in hand order), and
// every attack (each non-empty set of same-nation attackers with a
// target). Every action listed is accepted by Apply.
func LegalActions(s State) []Action {
	if s.Phase != PhasePlay {
		return nil
	}
	var cand []Action
	if pd := s.Pending; pd != nil {
		switch pd.Kind {
		case DecideDefend:
			for _, o := range pd.Options {
				cand = append(cand, Defend{Seat: pd.Seat, Base: o})
			}
		case DecideResearch:
			cand = append(cand, Research{Seat: pd.Seat})
			for _, o := range pd.Options {
				cand = append(cand, Research{Seat: pd.Seat, Take: o})
			}
		case DecideDismantle:
			for i, a := range pd.Options {
				if pd.Min <= 1 {
					cand = append(cand, Dismantle{Seat: pd.Seat, Cards: []string{a}})
				}
				if pd.Max >= 2 {
					for _, b := range pd.Options[i+1:] {
						cand = append(cand, Dismantle{Seat: pd.Seat, Cards: []string{a, b}})
					}
				}
			}
		case DecideSiege:
			for _, o := range pd.Options {
				cand = append(cand, Siege{Seat: pd.Seat, Target: o})
			}
		case DecideDiscard:
			for _, o := range pd.Options {
				cand = append(cand, Discard{Seat: pd.Seat, Card: o})
			}
		case DecideFire:
			for _, at := range s.Attack.Attackers {
				for _, t := range s.attackTargets(pd.Seat, at) {
					cand = append(cand, Fire{Seat: pd.Seat, Attacker: at, Target: t})
				}
			}
		case DecideTakeMedals:
			for d := pd.Min; d <= pd.Max; d++ {
				cand = append(cand, TakeMedals{Seat: pd.Seat, Doubles: d})
			}
		}
		return legalOnly(s, cand)
	}
	seat := s.Active
	p := s.Player(seat)
	cand = append(cand, EndTurn{Seat: seat})
	var free []string // hand cards not yet used this turn
	for _, id := range p.Hand {
		if !s.used(id) && !slices.Contains(free, id) {
			free = append(free, id)
		}
	}
	for _, id := range free {
		cand = append(cand, PlayCard{Seat: seat, Card: id}, PlayCard{Seat: seat, Card: id, Skip: true})
	}
	if s.Recruitment || s.Purchases == 0 {
		var payers []string
		for _, id := range free {
			if s.Cards[id].Pays {
				payers = append(payers, id)
			}
		}
		if len(payers) <= 12 {
			for _, r := range s.Reserve {
				for mask := 1; mask < 1<<len(payers); mask++ {
					pay := subset(payers, mask)
					if !s.affords([]string{r}, pay) {
						continue
					}
					minimal := true
					for i := range pay {
						if s.affords([]string{r}, slices.Delete(slices.Clone(pay), i, i+1)) && len(pay) > 1 {
							minimal = false
							break
						}
					}
					if minimal {
						cand = append(cand, Buy{Seat: seat, Cards: []string{r}, Pay: pay})
					}
				}
			}
			// "W tej turze możesz zakupić dowolną liczbę Pojazdów. Suma
			// surowców na kartach przeznaczonych do akcji zakupu musi być
			// równa lub większa od sumy kosztów kart": several Reserve
			// cards in one purchase, each set with one minimal payment.
			if s.Recruitment {
				row := s.Reserve
				if len(row) > 4 {
					row = row[:4]
				}
				for rmask := 1; rmask < 1<<len(row); rmask++ {
					cards := subset(row, rmask)
					if len(cards) < 2 {
						continue
					}
					if pay := minimalPayment(&s, cards, payers); pay != nil {
						cand = append(cand, Buy{Seat: seat, Cards: cards, Pay: pay})
					}
				}
			}
		}
	}
	if !s.Attacked {
		byNation := map[string][]string{}
		var nations []string
		for _, id := range free {
			c := s.Cards[id]
			if c.Kind == KindVehicle && c.Firepower > 0 {
				if _, ok := byNation[c.Nation]; !ok {
					nations = append(nations, c.Nation)
				}
				byNation[c.Nation] = append(byNation[c.Nation], id)
			}
		}
		for _, n := range nations {
			ids := byNation[n]
			if len(ids) > 12 {
				ids = ids[:12]
			}
			for mask := 1; mask < 1<<len(ids); mask++ {
				cand = append(cand, Attack{Seat: seat, Cards: subset(ids, mask)})
			}
		}
	}
	return legalOnly(s, cand)
}

// minimalPayment is the first set of paying cards, fewest first, that
// covers cards; nil if none does. No proper subset of a smallest covering
// set covers, so it is minimal.
func minimalPayment(s *State, cards, payers []string) []string {
	for size := 1; size <= len(payers); size++ {
		for mask := 1; mask < 1<<len(payers); mask++ {
			if bits.OnesCount(uint(mask)) != size {
				continue
			}
			if pay := subset(payers, mask); s.affords(cards, pay) {
				return pay
			}
		}
	}
	return nil
}

func subset(ids []string, mask int) []string {
	var out []string
	for i, id := range ids {
		if mask&(1<<i) != 0 {
			out = append(out, id)
		}
	}
	return out
}

// affords reports whether pay covers buying cards (national goods counted).
func (s *State) affords(cards, pay []string) bool {
	general, national, cost := 0, map[string]int{}, map[string]int{}
	for _, id := range cards {
		cost[s.Cards[id].Nation] += s.Cards[id].Cost
	}
	for _, id := range pay {
		c := s.Cards[id]
		if ng, ok := nationalGoods(c); ok {
			national[ng] += c.Resources
		} else {
			general += c.Resources
		}
	}
	need := 0
	for n, c := range cost {
		need += max(0, c-national[n])
	}
	return len(pay) > 0 && need <= general
}

func legalOnly(s State, cand []Action) []Action {
	var out []Action
	for _, a := range cand {
		if _, _, err := Apply(s, a); err == nil {
			out = append(out, a)
		}
	}
	return out
}
