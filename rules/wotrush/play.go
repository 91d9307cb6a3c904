package wotrush

import (
	"fmt"
	"slices"

	"github.com/sztab/sztab/rules"
)

// playCard plays a card for its abilities, one after the other, each fully
// resolved before the next; then a vehicle with armour 1–2 defends a base
// ("musi użyć tej karty do obrony jednej ze swoich Baz zaraz po aktywacji
// wszystkich zdolności karty"), anything else goes to the Magazine (or the
// Scrapyard after Research).
func (s *State) playCard(a PlayCard) ([]Event, error) {
	if err := s.busy(); err != nil {
		return nil, err
	}
	if err := s.handCard(a.Seat, a.Card); err != nil {
		return nil, err
	}
	c := s.Cards[a.Card]
	p := s.Player(a.Seat)
	hasAction := false
	for _, ab := range c.Abilities {
		hasAction = hasAction || ab.IsAction()
	}
	canDefend := c.Kind == KindVehicle && c.Armour > 0 && len(p.Bases) > 0
	switch {
	case c.Kind == KindMedal || (c.Kind == KindBarracks && !hasAction):
		return nil, rules.Reject("nothing_to_play", "%[1]s służy tylko do zakupu", "%[3]s is only for buying", c.Name.PL, a.Card, c.Name.EN)
	case !hasAction && !canDefend:
		return nil, rules.Reject("nothing_to_play", "%[1]s nie ma zdolności i nie może bronić Bazy", "%[3]s has no ability and cannot defend a base", c.Name.PL, a.Card, c.Name.EN)
	case a.Skip && !canDefend:
		return nil, rules.Reject("nothing_to_play", "pominięcie zdolności ma sens tylko przy obronie Bazy", "skipping the abilities only makes sense to defend a base")
	}
	p.Hand = removeOne(p.Hand, a.Card)
	s.markUsed(a.Card)
	s.Playing = &Playing{Seat: a.Seat, Card: a.Card, Skip: a.Skip}
	evs := []Event{{Type: "played", Seat: a.Seat, Card: a.Card,
		Text: rules.Textf("%[1]s zagrywa %[2]s", "%[1]s plays %[4]s", p.Name, c.Name.PL, a.Card, c.Name.EN)}}
	evs = append(evs, s.continuePlay()...)
	return evs, nil
}

// continuePlay carries out the played card's abilities from Playing.Next
// until one needs a decision or the card is placed.
func (s *State) continuePlay() []Event {
	var evs []Event
	for s.Playing != nil && s.Pending == nil {
		pl := s.Playing
		c := s.Cards[pl.Card]
		p := s.Player(pl.Seat)
		if !pl.Skip && pl.Next < len(c.Abilities) {
			ab := c.Abilities[pl.Next]
			pl.Next++
			evs = append(evs, s.ability(ab, c)...)
			continue
		}
		if pl.Scrapped {
			s.Playing = nil
			break
		}
		if c.Kind == KindVehicle && c.Armour > 0 && len(p.Bases) > 0 {
			opts := defendable(p)
			if len(opts) == 1 {
				evs = append(evs, s.defend(opts[0])...)
				continue
			}
			s.Pending = &Pending{Kind: DecideDefend, Seat: pl.Seat, Card: pl.Card, Min: 1, Max: 1, Options: opts,
				Text: rules.Textf("%[1]s: której Bazy broni %[2]s?", "%[1]s: which base does %[3]s defend?", p.Name, c.Name.PL, c.Name.EN)}
			break
		}
		p.Magazine = append(p.Magazine, pl.Card)
		s.Playing = nil
	}
	return evs
}

// defendable lists the bases a new defender may take: the undefended ones,
// or every base when all are defended ("nie może wybrać Bazy bronionej,
// jeśli posiada niebronioną").
func defendable(p *Player) []string {
	var free, all []string
	for _, b := range p.Bases {
		all = append(all, b.Card)
		if b.Defender == "" {
			free = append(free, b.Card)
		}
	}
	if len(free) > 0 {
		return free
	}
	return all
}

func (s *State) defend(base string) []Event {
	pl := s.Playing
	p := s.Player(pl.Seat)
	var evs []Event
	for i := range p.Bases {
		b := &p.Bases[i]
		if b.Card != base {
			continue
		}
		if b.Defender != "" {
			// "zamienić kartę broniącą na nową kartę Pojazdu. Usuwaną
			// kartę odkłada do Magazynu."
			p.Magazine = append(p.Magazine, b.Defender)
			evs = append(evs, Event{Type: "defender_replaced", Seat: pl.Seat, Card: b.Defender, Target: base,
				Text: rules.Textf("%[1]s zdejmuje %[2]s z Bazy %[3]s do Magazynu", "%[1]s moves %[4]s off base %[3]s to the Magazine", p.Name, s.cardName(b.Defender), baseNo(base), s.cardNameEN(b.Defender))})
		}
		b.Defender, b.DefenderDamaged = pl.Card, false
	}
	evs = append(evs, Event{Type: "defended", Seat: pl.Seat, Card: pl.Card, Target: base,
		Text: rules.Textf("%[1]s broni Bazy %[2]s pojazdem %[3]s", "%[1]s defends base %[2]s with %[4]s", p.Name, baseNo(base), s.cardName(pl.Card), s.cardNameEN(pl.Card))})
	s.Playing = nil
	return evs
}

// ability carries out one ability of the played card c (page 15).
func (s *State) ability(ab Ability, c Card) []Event {
	pl := s.Playing
	p := s.Player(pl.Seat)
	switch ab.ID {
	case AbReinforcements:
		return s.draw(pl.Seat, ab.N)
	case AbRecruitment:
		s.Recruitment = true
		return []Event{{Type: "recruitment", Seat: pl.Seat, Card: pl.Card,
			Text: rules.Textf("%s: Rekrutacja — w tej turze dowolna liczba zakupów", "%s: Recruitment — any number of purchases this turn", p.Name)}}
	case AbScout:
		// "Odłóż wszystkie karty z Rezerwy na stos odrzuconych kart
		// Pojazdów i dobierz 4 nowe karty."
		old := s.Reserve
		s.Discard = append(s.Discard, old...)
		s.Reserve = nil
		var evs []Event
		for i := 0; i < s.ReserveSize; i++ {
			c := s.deckTop(&evs)
			if c == "" {
				break
			}
			s.Reserve = append(s.Reserve, c)
		}
		return append(evs, Event{Type: "scouted", Seat: pl.Seat, Cards: slices.Clone(s.Reserve),
			Text: rules.Textf("%[1]s: Zwiad — nowa Rezerwa: %[2]s", "%[3]s: Scout — a new Reserve: %[4]s", p.Name, s.names(s.Reserve), p.Name, s.namesEN(s.Reserve))})
	case AbSabotage:
		// "Każdy z twoich przeciwników musi odłożyć jedną wybraną kartę
		// ze swojej ręki do swojego Magazynu." In seating order from the
		// saboteur's left; an opponent with an empty hand has nothing to
		// discard.
		for seat := s.next(pl.Seat); seat != pl.Seat; seat = s.next(seat) {
			if len(s.Player(seat).Hand) > 0 {
				pl.Victims = append(pl.Victims, seat)
			}
		}
		evs := []Event{{Type: "sabotage", Seat: pl.Seat, Card: pl.Card,
			Text: rules.Textf("%s: Sabotaż — każdy przeciwnik odkłada kartę z ręki", "%s: Sabotage — every opponent discards a card from the hand", p.Name)}}
		s.nextVictim()
		return evs
	case AbSiege:
		opts := s.siegeTargets(pl.Seat)
		if len(opts) == 0 {
			return []Event{{Type: "no_target", Seat: pl.Seat, Card: pl.Card,
				Text: rules.Textf("%s: Oblężenie — brak celu", "%s: Siege — no target", p.Name)}}
		}
		s.Pending = &Pending{Kind: DecideSiege, Seat: pl.Seat, Card: pl.Card, Min: 1, Max: 1, Options: opts,
			Text: rules.Textf("%s: cel Oblężenia (wroga Baza lub broniący ją Pojazd)", "%s: the Siege's target (an enemy base or its defender)", p.Name)}
	case AbResearch:
		// "Umieść tę kartę na Złomowisku. Weź kartę Pojazdu, której
		// koszt nie przekracza wskazanej liczby."
		s.Scrapyard = append(s.Scrapyard, pl.Card)
		pl.Scrapped = true
		var opts []string
		for _, id := range s.Reserve {
			if s.Cards[id].Cost <= ab.N {
				opts = append(opts, id)
			}
		}
		evs := []Event{{Type: "research", Seat: pl.Seat, Card: pl.Card, N: ab.N,
			Text: rules.Textf("%[1]s: Badania %[2]d — %[3]s na Złomowisko", "%[1]s: Research %[2]d — %[4]s to the Scrapyard", p.Name, ab.N, c.Name.PL, c.Name.EN)}}
		if len(opts) == 0 {
			return append(evs, Event{Type: "no_target", Seat: pl.Seat, Card: pl.Card,
				Text: rules.Textf("%[1]s: w Rezerwie nic nie kosztuje ≤ %[2]d", "%[1]s: nothing in the Reserve costs ≤ %[2]d", p.Name, ab.N)})
		}
		s.Pending = &Pending{Kind: DecideResearch, Seat: pl.Seat, Card: pl.Card, Min: 0, Max: 1, Options: opts,
			Text: rules.Textf("%[1]s: weź z Rezerwy Pojazd o koszcie ≤ %[2]d", "%[1]s: take a Reserve vehicle costing ≤ %[2]d", p.Name, ab.N)}
		return evs
	case AbDismantle:
		// "Wybierz jedną lub dwie karty ze swojego Magazynu": the played
		// card is not there yet, so it can never be chosen.
		if len(p.Magazine) == 0 {
			return []Event{{Type: "no_target", Seat: pl.Seat, Card: pl.Card,
				Text: rules.Textf("%s: Demontaż — Magazyn pusty", "%s: Dismantle — the Magazine is empty", p.Name)}}
		}
		opts := slices.Clone(p.Magazine)
		slices.Sort(opts)
		opts = slices.Compact(opts)
		s.Pending = &Pending{Kind: DecideDismantle, Seat: pl.Seat, Card: pl.Card, Min: 1, Max: min(ab.N, len(opts)), Options: opts,
			Text: rules.Textf("%[1]s: Demontaż — wybierz 1–%[2]d kart(y) z Magazynu na Złomowisko", "%[1]s: Dismantle — choose 1–%[2]d Magazine card(s) for the Scrapyard", p.Name, min(ab.N, len(opts)))}
	case AbIndestructible:
		// "Weź kartę z jednym Medalem ze stosu kraju, który reprezentuje
		// karta Niezniszczalności."
		var evs []Event
		if !s.takeMedal(pl.Seat, c.Nation, false, &evs) {
			evs = append(evs, Event{Type: "no_medal", Seat: pl.Seat, Text: rules.Textf("%[1]s: brak pojedynczych Medali (%[2]s)", "%[1]s: no single medals left (%[3]s)", p.Name, s.nationName(c.Nation).PL, s.nationName(c.Nation).EN)})
		}
		return evs
	}
	return nil
}

func (s *State) nextVictim() {
	pl := s.Playing
	for len(pl.Victims) > 0 {
		v := pl.Victims[0]
		vp := s.Player(v)
		if len(vp.Hand) == 0 {
			pl.Victims = pl.Victims[1:]
			continue
		}
		chooser := v
		if s.Options.SabotageChooser == "active" {
			chooser = pl.Seat
		}
		s.Pending = &Pending{Kind: DecideDiscard, Seat: chooser, Card: pl.Card, Victim: v, Min: 1, Max: 1, Options: slices.Clone(vp.Hand),
			Text: rules.Textf("Sabotaż: %[1]s odkłada kartę z ręki gracza %[2]s do Magazynu", "Sabotage: %[1]s discards a card from %[2]s's hand to the Magazine", s.name(chooser), vp.Name)}
		return
	}
}

// siegeTargets: every enemy base, defended or not, and every defender.
func (s *State) siegeTargets(seat int) []string {
	var out []string
	for _, p := range s.Players {
		if p.Seat == seat {
			continue
		}
		for _, b := range p.Bases {
			out = append(out, b.Card)
			if b.Defender != "" {
				out = append(out, b.Defender)
			}
		}
	}
	return out
}

func (s *State) answer(a Action) ([]Event, error) {
	pd := s.Pending
	pick := func(id string) error {
		if !slices.Contains(pd.Options, id) {
			if _, ok := s.Cards[id]; !ok && id != "" {
				return rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", id)
			}
			if pd.Kind == DecideDiscard {
				// The choices are the victim's hand: a refusal is read
				// by everyone, so it does not list them.
				return rules.Reject("illegal_choice", "%[1]q nie jest na ręce gracza %[2]s", "%[1]q is not in %[2]s's hand", id, s.name(pd.Victim))
			}
			return rules.Reject("illegal_choice", "%[1]q nie jest dozwolone; do wyboru: %[2]v", "%[1]q is not allowed; the choices: %[2]v", id, pd.Options)
		}
		return nil
	}
	var evs []Event
	switch a := a.(type) {
	case Defend:
		if err := pick(a.Base); err != nil {
			return nil, err
		}
		s.Pending = nil
		evs = s.defend(a.Base)
		return append(evs, s.continuePlay()...), nil
	case Research:
		if a.Take != "" {
			if err := pick(a.Take); err != nil {
				return nil, err
			}
		}
		s.Pending = nil
		p := s.Player(a.Seat)
		if a.Take != "" {
			s.Reserve = removeOne(s.Reserve, a.Take)
			p.Magazine = append(p.Magazine, a.Take)
			evs = append(evs, Event{Type: "researched", Seat: a.Seat, Card: a.Take,
				Text: rules.Textf("%[1]s bierze %[2]s do Magazynu", "%[1]s takes %[4]s into the Magazine", p.Name, s.cardName(a.Take), a.Take, s.cardNameEN(a.Take))})
			s.refill(&evs)
		} else {
			evs = append(evs, Event{Type: "researched", Seat: a.Seat, Text: rules.Textf("%s nie bierze nic", "%s takes nothing", p.Name)})
		}
		return append(evs, s.continuePlay()...), nil
	case Dismantle:
		if len(a.Cards) < pd.Min || len(a.Cards) > pd.Max {
			return nil, rules.Reject("out_of_range", "Demontaż: %[1]d kart(y), dozwolone %[2]d–%[3]d", "Dismantle: %[1]d card(s), allowed %[2]d–%[3]d", len(a.Cards), pd.Min, pd.Max)
		}
		for i, id := range a.Cards {
			if err := pick(id); err != nil {
				return nil, err
			}
			if slices.Contains(a.Cards[:i], id) {
				return nil, rules.Reject("duplicate_card", "karta %s podana dwa razy", "card %s named twice", id)
			}
		}
		s.Pending = nil
		p := s.Player(a.Seat)
		for _, id := range a.Cards {
			p.Magazine = removeOne(p.Magazine, id)
			s.Scrapyard = append(s.Scrapyard, id)
		}
		evs = append(evs, Event{Type: "dismantled", Seat: a.Seat, Cards: slices.Clone(a.Cards),
			Text: rules.Textf("%[1]s: na Złomowisko %[2]s", "%[3]s: to the Scrapyard %[4]s", p.Name, s.names(a.Cards), p.Name, s.namesEN(a.Cards))})
		return append(evs, s.continuePlay()...), nil
	case Siege:
		if err := pick(a.Target); err != nil {
			return nil, err
		}
		s.Pending = nil
		evs = s.siege(a.Target)
		return append(evs, s.continuePlay()...), nil
	case Discard:
		if err := pick(a.Card); err != nil {
			return nil, err
		}
		s.Pending = nil
		vp := s.Player(pd.Victim)
		vp.Hand = removeOne(vp.Hand, a.Card)
		vp.Magazine = append(vp.Magazine, a.Card)
		evs = append(evs, Event{Type: "discarded", Seat: pd.Victim, Card: a.Card,
			Text: rules.Textf("%[1]s odkłada %[2]s do Magazynu", "%[1]s discards %[4]s to the Magazine", vp.Name, s.cardName(a.Card), a.Card, s.cardNameEN(a.Card))})
		s.Playing.Victims = s.Playing.Victims[1:]
		s.nextVictim()
		return append(evs, s.continuePlay()...), nil
	case Fire:
		return s.fire(a)
	case TakeMedals:
		if a.Doubles < pd.Min || a.Doubles > pd.Max {
			return nil, rules.Reject("out_of_range", "kart z dwoma Medalami: %[1]d, dozwolone %[2]d–%[3]d", "double medal cards: %[1]d, allowed %[2]d–%[3]d", a.Doubles, pd.Min, pd.Max)
		}
		s.Pending = nil
		evs = s.awardMedals(a.Seat, pd.Nation, pd.Owed, a.Doubles)
		if s.Ending {
			evs = append(evs, s.finishTurn()...)
		}
		return evs, nil
	}
	return nil, fmt.Errorf("wotrush: answer %T: %w", a, rules.Reject("unknown_action", "nieznana odpowiedź", "unknown answer"))
}

// siege resolves Oblężenie on target: damage, or destroy what was already
// damaged. It ignores defenders ("Możesz użyć karty Oblężenia także
// przeciwko bronionej Bazie") and firepower.
func (s *State) siege(target string) []Event {
	pl := s.Playing
	c := s.Cards[pl.Card]
	p := s.Player(pl.Seat)
	var evs []Event
	owner, bi, isDefender := s.locateTarget(target)
	op := s.Player(owner)
	b := &op.Bases[bi]
	if isDefender {
		if !b.DefenderDamaged {
			b.DefenderDamaged = true
			return append(evs, Event{Type: "damaged", Seat: pl.Seat, Card: pl.Card, Target: target,
				Text: rules.Textf("Oblężenie: %[1]s uszkadza %[2]s", "Siege: %[1]s damages %[4]s", p.Name, s.cardName(target), target, s.cardNameEN(target))})
		}
		evs = append(evs, s.destroyDefender(pl.Seat, owner, bi, "Oblężenie", "Siege")...)
		s.addSiegeKill(c.Nation)
		return evs
	}
	heavy := s.Options.HeavySiege && c.Class == ClassHeavy
	if !b.Damaged && !heavy {
		b.Damaged = true
		return append(evs, Event{Type: "damaged", Seat: pl.Seat, Card: pl.Card, Target: target,
			Text: rules.Textf("Oblężenie: %[1]s uszkadza: %[2]s", "Siege: %[1]s damages %[3]s", p.Name, s.cardName(target), s.cardNameEN(target))})
	}
	if b.Defender != "" {
		// "Po jej zniszczeniu kartę Pojazdu, który jej bronił należy
		// natychmiast odłożyć do Magazynu jej właściciela."
		d := b.Defender
		op.Magazine = append(op.Magazine, d)
		b.Defender, b.DefenderDamaged = "", false
		evs = append(evs, Event{Type: "defender_returned", Seat: owner, Card: d,
			Text: rules.Textf("%[1]s wraca do Magazynu gracza %[2]s", "%[3]s returns to %[2]s's Magazine", s.cardName(d), op.Name, s.cardNameEN(d))})
		if s.Options.DefenderOfSiegedBase {
			p.VehiclesDestroyed++
			s.addSiegeKill(c.Nation)
		}
	}
	return append(evs, s.destroyBase(pl.Seat, owner, bi, "Oblężenie", "Siege")...)
}

// addSiegeKill owes one medal of nation at the end of the turn.
func (s *State) addSiegeKill(nation string) {
	for i := range s.SiegeKills {
		if s.SiegeKills[i].Nation == nation {
			s.SiegeKills[i].N++
			return
		}
	}
	s.SiegeKills = append(s.SiegeKills, NationCount{Nation: nation, N: 1})
}

// locateTarget finds a base card or a defender among the players' bases.
func (s *State) locateTarget(id string) (owner, base int, defender bool) {
	for _, p := range s.Players {
		for i, b := range p.Bases {
			if b.Card == id {
				return p.Seat, i, false
			}
			if b.Defender == id {
				return p.Seat, i, true
			}
		}
	}
	return 0, -1, false
}

func (s *State) destroyDefender(by, owner, bi int, pl, en string) []Event {
	op := s.Player(owner)
	b := &op.Bases[bi]
	d := b.Defender
	op.Magazine = append(op.Magazine, d)
	b.Defender, b.DefenderDamaged = "", false
	s.Player(by).VehiclesDestroyed++
	return []Event{{Type: "vehicle_destroyed", Seat: by, Card: d, Target: b.Card,
		Text: rules.Textf("%[1]s: %[2]s niszczy %[3]s — do Magazynu gracza %[5]s", "%[6]s: %[2]s destroys %[7]s — to %[5]s's Magazine",
			pl, s.name(by), s.cardName(d), d, op.Name, en, s.cardNameEN(d))}}
}

func (s *State) destroyBase(by, owner, bi int, pl, en string) []Event {
	op := s.Player(owner)
	base := op.Bases[bi].Card
	op.Bases = slices.Delete(op.Bases, bi, bi+1)
	s.Player(by).Magazine = append(s.Player(by).Magazine, base)
	s.Player(by).BasesDestroyed++
	evs := []Event{{Type: "base_destroyed", Seat: by, Target: base,
		Text: rules.Textf("%[1]s: %[2]s niszczy Bazę %[3]s gracza %[4]s — do swojego Magazynu", "%[5]s: %[2]s destroys %[4]s's base %[3]s — into their Magazine", pl, s.name(by), baseNo(base), op.Name, en)}}
	if len(op.Bases) == 0 {
		evs = append(evs, s.triggerEnd(rules.Textf("%s stracił ostatnią Bazę", "%s lost the last base", op.Name))...)
	}
	return evs
}
