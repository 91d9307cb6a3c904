package wotrush

import (
	"slices"

	"github.com/sztab/sztab/rules"
)

// attack declares the turn's one attack (page 7–8): the attackers leave the
// hand together; their targets are then chosen card by card with Fire.
func (s *State) attack(a Attack) ([]Event, error) {
	if err := s.busy(); err != nil {
		return nil, err
	}
	if s.Attacked {
		if err := s.waiver.Breach("second_attack", "w turze można przeprowadzić tylko jeden atak", "only one attack is allowed a turn"); err != nil {
			return nil, err
		}
	}
	if len(a.Cards) == 0 {
		return nil, rules.Reject("no_attackers", "atak wymaga co najmniej jednego Pojazdu", "an attack needs at least one vehicle")
	}
	nation := ""
	for i, id := range a.Cards {
		if slices.Contains(a.Cards[:i], id) {
			return nil, rules.Reject("duplicate_card", "karta %[1]s podana dwa razy", "card %[2]s named twice", s.cardName(id), s.cardNameEN(id))
		}
		if err := s.handCard(a.Seat, id); err != nil {
			return nil, err
		}
		c := s.Cards[id]
		if c.Kind != KindVehicle {
			return nil, rules.Reject("not_a_vehicle", "%[1]s nie jest Pojazdem i nie atakuje", "%[3]s is not a vehicle and cannot attack", c.Name.PL, id, c.Name.EN)
		}
		// "posiadać siłę ognia o wartości 1 lub 2 (ale nie 0)"
		if c.Firepower < 1 {
			return nil, rules.Reject("firepower_zero", "%[1]s ma siłę ognia 0 i nie może atakować", "%[3]s has firepower 0 and cannot attack", c.Name.PL, id, c.Name.EN)
		}
		// "i reprezentować ten sam kraj"
		if nation == "" {
			nation = c.Nation
		} else if c.Nation != nation {
			if err := s.waiver.Breach("mixed_nations", "wszystkie atakujące Pojazdy muszą być z jednego kraju (%[1]s i %[2]s)", "every attacker must be of one nation (%[3]s and %[4]s)",
				s.nationName(nation).PL, s.nationName(c.Nation).PL, s.nationName(nation).EN, s.nationName(c.Nation).EN); err != nil {
				return nil, err
			}
		}
	}
	any := false
	for _, id := range a.Cards {
		any = any || len(s.attackTargets(a.Seat, id)) > 0
	}
	if !any {
		return nil, rules.Reject("no_target", "żaden z tych Pojazdów nie ma celu (Bazy bronione nie mogą być atakowane)", "none of these vehicles has a target (defended bases cannot be attacked)")
	}
	p := s.Player(a.Seat)
	for _, id := range a.Cards {
		p.Hand = removeOne(p.Hand, id)
		s.markUsed(id)
	}
	s.Attacked = true
	s.Attack = &AttackState{Nation: nation, Attackers: slices.Clone(a.Cards)}
	evs := []Event{{Type: "attack", Seat: a.Seat, Cards: slices.Clone(a.Cards),
		Text: rules.Textf("%[1]s atakuje: %[2]s", "%[3]s attacks with %[4]s", p.Name, s.names(a.Cards), p.Name, s.namesEN(a.Cards))}}
	return append(evs, s.nextFire()...), nil
}

// attackTargets are what attacker may hit now: an enemy's undefended base
// (not with "only vehicles") or a vehicle defending an enemy base (not
// with "only bases"). Defended bases cannot be attacked.
func (s *State) attackTargets(seat int, attacker string) []string {
	c := s.Cards[attacker]
	var out []string
	for _, p := range s.Players {
		if p.Seat == seat {
			continue
		}
		for _, b := range p.Bases {
			if b.Defender != "" {
				if !c.has(AbOnlyBases) {
					out = append(out, b.Defender)
				}
			} else if !c.has(AbOnlyVehicles) {
				out = append(out, b.Card)
			}
		}
	}
	return out
}

// nextFire asks for the next shot, or ends the attack when no attacker
// left has a target (those go to the Magazine having done nothing).
func (s *State) nextFire() []Event {
	at := s.Attack
	seat := s.Active
	p := s.Player(seat)
	var opts []string
	for _, id := range at.Attackers {
		for _, t := range s.attackTargets(seat, id) {
			if !slices.Contains(opts, t) {
				opts = append(opts, t)
			}
		}
	}
	if len(opts) > 0 {
		s.Pending = &Pending{Kind: DecideFire, Seat: seat, Min: 1, Max: 1, Options: opts,
			Text: rules.Textf("%s: wybierz atakujący Pojazd i jego cel", "%s: choose an attacker and its target", p.Name)}
		return nil
	}
	var evs []Event
	if len(at.Attackers) > 0 {
		// An attacker with no legal target left fires at nothing.
		evs = append(evs, Event{Type: "no_target", Seat: seat, Cards: slices.Clone(at.Attackers),
			Text: rules.Textf("Bez celu, do Magazynu: %[1]s", "No target left, to the Magazine: %[2]s", s.names(at.Attackers), s.namesEN(at.Attackers))})
		p.Magazine = append(p.Magazine, at.Attackers...)
	}
	s.Attack = nil
	evs = append(evs, Event{Type: "attack_over", Seat: seat, N: at.Kills,
		Text: rules.Textf("Koniec ataku: zniszczone Pojazdy %d", "The attack is over: vehicles destroyed %d", at.Kills)})
	switch {
	case at.Kills > 0 && s.Options.TurnDoubles:
		for i := 0; i < at.Kills; i++ {
			s.addSiegeKill(at.Nation)
		}
		evs = append(evs, Event{Type: "medals_owed", Seat: seat, N: at.Kills,
			Text: rules.Textf("%[1]s: Medale za zniszczone Pojazdy (%[2]d) na koniec tury, razem z Oblężeniem", "%[1]s: the medals for the vehicles destroyed (%[2]d) come at the end of the turn, with Siege's", p.Name, at.Kills)})
	case at.Kills > 0:
		evs = append(evs, s.medals(seat, at.Nation, at.Kills)...)
	}
	return evs
}

func (s *State) fire(a Fire) ([]Event, error) {
	at := s.Attack
	if !slices.Contains(at.Attackers, a.Attacker) {
		if _, ok := s.Cards[a.Attacker]; !ok {
			return nil, rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", a.Attacker)
		}
		return nil, rules.Reject("not_attacking", "%[1]s nie jest zadeklarowanym atakującym, który jeszcze nie strzelał", "%[2]s is not a declared attacker yet to fire", s.cardName(a.Attacker), s.cardNameEN(a.Attacker))
	}
	if _, ok := s.Cards[a.Target]; !ok {
		return nil, rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", a.Target)
	}
	if !slices.Contains(s.attackTargets(a.Seat, a.Attacker), a.Target) {
		owner, bi, isDef := s.locateTarget(a.Target)
		c := s.Cards[a.Attacker]
		switch {
		case bi < 0:
			return nil, rules.Reject("illegal_target", "%[1]s nie broni żadnej Bazy ani nie jest Bazą w grze", "%[2]s neither defends a base nor is a base in play", s.cardName(a.Target), s.cardNameEN(a.Target))
		case owner == a.Seat:
			return nil, rules.Reject("illegal_target", "nie można atakować własnych kart", "you cannot attack your own cards")
		case !isDef && s.Player(owner).Bases[bi].Defender != "":
			return nil, rules.Reject("defended_base", "%[1]s jest broniona i nie może zostać zaatakowana", "%[2]s is defended and cannot be attacked", s.cardName(a.Target), s.cardNameEN(a.Target))
		case isDef && c.has(AbOnlyBases):
			return nil, rules.Reject("only_bases", "%[1]s może atakować tylko Bazy", "%[2]s may only attack bases", s.cardName(a.Attacker), s.cardNameEN(a.Attacker))
		default:
			return nil, rules.Reject("only_vehicles", "%[1]s może atakować tylko Pojazdy", "%[2]s may only attack vehicles", s.cardName(a.Attacker), s.cardNameEN(a.Attacker))
		}
	}
	s.Pending = nil
	p := s.Player(a.Seat)
	c := s.Cards[a.Attacker]
	owner, bi, isDef := s.locateTarget(a.Target)
	op := s.Player(owner)
	b := &op.Bases[bi]
	var evs []Event
	if isDef {
		d := s.Cards[a.Target]
		// "Jeśli wartość siły ognia karty atakującej jest równa lub większa
		// od wartości opancerzenia karty atakowanej" — destroyed; less:
		// damaged; a damaged card hit again is destroyed.
		if c.Firepower >= d.Armour || b.DefenderDamaged {
			evs = append(evs, s.destroyDefender(a.Seat, owner, bi, "Atak", "Attack")...)
			at.Kills++
		} else {
			b.DefenderDamaged = true
			evs = append(evs, Event{Type: "damaged", Seat: a.Seat, Card: a.Attacker, Target: a.Target,
				Text: rules.Textf("%[1]s (siła %[2]d) uszkadza %[3]s (pancerz %[4]d)", "%[5]s (firepower %[2]d) damages %[6]s (armour %[4]d)", c.Name.PL, c.Firepower, d.Name.PL, d.Armour, c.Name.EN, d.Name.EN)})
		}
	} else if b.Damaged || c.Class == ClassHeavy {
		// "Jeśli gracz używa Ciężkiego Czołgu do ataku na Bazę
		// przeciwnika, Baza zostaje od razu zniszczona."
		evs = append(evs, s.destroyBase(a.Seat, owner, bi, "Atak", "Attack")...)
	} else {
		b.Damaged = true
		evs = append(evs, Event{Type: "damaged", Seat: a.Seat, Card: a.Attacker, Target: a.Target,
			Text: rules.Textf("%[1]s uszkadza Bazę %[2]s gracza %[3]s", "%[4]s damages %[3]s's base %[2]s", c.Name.PL, baseNo(a.Target), op.Name, c.Name.EN)})
	}
	at.Attackers = removeOne(at.Attackers, a.Attacker)
	p.Magazine = append(p.Magazine, a.Attacker)
	return append(evs, s.nextFire()...), nil
}

// medals gives the medals owed for n vehicles destroyed from nation's
// pile, or asks (option "choose") how many doubles to take.
func (s *State) medals(seat int, nation string, n int) []Event {
	pile := s.pile(nation)
	maxD := min(n/2, len(pile.Doubles))
	switch {
	case s.Options.Medals == "choose" && maxD > 0:
		s.Pending = &Pending{Kind: DecideTakeMedals, Seat: seat, Nation: nation, Owed: n, Min: 0, Max: maxD,
			Text: rules.Textf("%[1]s: zniszczone Pojazdy %[2]d — ile kart z dwoma Medalami (0–%[3]d)?", "%[1]s: %[2]d vehicles destroyed — how many double medal cards (0–%[3]d)?", s.name(seat), n, maxD)}
		return nil
	case s.Options.Medals == "singles":
		return s.awardMedals(seat, nation, n, 0)
	}
	return s.awardMedals(seat, nation, n, maxD)
}

func (s *State) pile(nation string) *MedalPile {
	for i := range s.Medals {
		if s.Medals[i].Nation == nation {
			return &s.Medals[i]
		}
	}
	s.Medals = append(s.Medals, MedalPile{Nation: nation})
	return &s.Medals[len(s.Medals)-1]
}

// awardMedals takes doubles double cards, then singles for the rest; when
// the singles run out a double stands for two; one medal still owed with
// only doubles left follows the OddMedal option; an empty pile gives
// nothing ("Gracz nie otrzymuje Medalu").
func (s *State) awardMedals(seat int, nation string, owed, doubles int) []Event {
	var evs []Event
	pile := s.pile(nation)
	got := 0
	for i := 0; i < doubles && owed >= 2 && len(pile.Doubles) > 0; i++ {
		s.takeMedal(seat, nation, true, &evs)
		owed -= 2
		got += 2
	}
	for owed > 0 {
		switch {
		case len(pile.Singles) > 0:
			s.takeMedal(seat, nation, false, &evs)
			owed--
			got++
		case len(pile.Doubles) > 0 && (owed >= 2 || s.Options.OddMedal == "double"):
			s.takeMedal(seat, nation, true, &evs)
			owed -= min(2, owed)
			got += 2
		default:
			evs = append(evs, Event{Type: "no_medal", Seat: seat, N: owed,
				Text: rules.Textf("%[1]s: brak Medali do wzięcia (%[2]s), przepada %[3]d", "%[1]s: no medals left to take (%[4]s), %[3]d lost", s.name(seat), s.nationName(nation).PL, owed, s.nationName(nation).EN)})
			owed = 0
		}
	}
	return evs
}

// takeMedal moves the top single (or double) of nation's pile into seat's
// Magazine; taking the last single triggers the end of the game.
func (s *State) takeMedal(seat int, nation string, double bool, evs *[]Event) bool {
	pile := s.pile(nation)
	from := &pile.Singles
	if double {
		from = &pile.Doubles
	}
	if len(*from) == 0 {
		return false
	}
	id := (*from)[0]
	*from = (*from)[1:]
	p := s.Player(seat)
	p.Magazine = append(p.Magazine, id)
	*evs = append(*evs, Event{Type: "medal", Seat: seat, Card: id, N: s.Cards[id].Medals,
		Text: rules.Textf("%[1]s otrzymuje %[2]s", "%[1]s receives %[2]s", p.Name, s.cardName(id))})
	if !double && len(pile.Singles) == 0 {
		*evs = append(*evs, s.triggerEnd(rules.Textf("zabrano ostatni pojedynczy Medal (%[1]s)", "the last single medal was taken (%[2]s)", s.nationName(nation).PL, s.nationName(nation).EN))...)
	}
	return true
}
