package bitwa

import (
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
)

// military carries out one action of stage 3 ("DZIAŁANIA MILITARNE").
func (s *State) military(p *Player, a Action) error {
	switch a := a.(type) {
	case PlayCard:
		return s.playCard(p, a)
	case Blockade:
		if a.Card == "" {
			return rules.Reject("no_card", "przesunięcie Blokady wymaga odrzucenia karty", "moving a blockade needs a discarded card")
		}
		c, err := s.takeFromHand(p, a.Card)
		if err != nil {
			return err
		}
		if a.Marker == s.Comp.SpecialBlockade {
			// "Gracze nie mogą poruszyć znacznika Blokady Specjalnej."
			return rules.Reject("special_fixed", "znacznika Blokady Specjalnej nie można poruszać", "the special blockade cannot be moved")
		}
		owner := ""
		for _, ar := range Armies {
			if a.Marker == s.marker(ar) {
				owner = ar
			}
		}
		if owner == "" {
			return rules.Reject("unknown_marker", "nieznany znacznik Blokady %q", "unknown blockade marker %q", a.Marker)
		}
		if err := s.placeMarker(a.Marker, Enemy(owner), a.Place, a.Front); err != nil {
			return err
		}
		s.discard(p.Army, c.ID)
		s.emit("blockade", tr("%s odrzuca kartę i kładzie %s: %s, %s", "%s discards a card and lays %s: %s, %s", s.name(p.Seat), s.markerName(a.Marker), placeName(a.Place), s.frontName(a.Front)), Event{Seat: p.Seat, Card: a.Marker, Front: a.Front})
	case Fight:
		if !slices.Contains(ResourceIDs, a.Resource) {
			return rules.Reject("unknown_resource", "nieznana karta Zasobu %q (funds, supply, support)", "unknown resource card %q (funds, supply, support)", a.Resource)
		}
		if _, err := s.takeFromHand(p, a.Card); err != nil {
			return err
		}
		ar := s.Army(p.Army)
		ar.Fights[a.Resource] = append(ar.Fights[a.Resource], a.Card)
		s.emit("fight", tr("%s odrzuca kartę i walczy o: %s (%d)", "%s discards a card to fight for %s (%d)", s.name(p.Seat), s.resourceName(a.Resource), len(ar.Fights[a.Resource])), Event{Seat: p.Seat, Card: a.Resource, N: len(ar.Fights[a.Resource])})
	case Activate:
		if frontIndex(a.Front) < 0 {
			return badFront(a.Front)
		}
		fi := frontIndex(a.Front)
		c := s.Army(p.Army).Commanders[fi]
		if c == nil {
			return rules.Reject("no_commander", "%[1]s: nie ma tam Twojego Dowódcy", "%[2]s: you have no commander there", s.frontName(a.Front).PL, s.frontName(a.Front).EN)
		}
		if c.Round == s.Round {
			return rules.Reject("used_twice", "%s był już użyty w tej rundzie", "%s has already been used this round", s.cardName(c.Card))
		}
		if s.blocked(p.Army, BlockCommanderCard, a.Front) {
			return rules.Reject("blocked_commander", "karta Dowódcy %s jest zablokowana", "the commander card %s is blocked", s.cardName(c.Card))
		}
		opts := s.Cards[c.Card].Options()
		if a.Choice < 0 || a.Choice >= len(opts) {
			return rules.Reject("out_of_range", "efekt %d poza zakresem 0–%d", "effect %d out of range 0–%d", a.Choice, len(opts)-1)
		}
		if _, err := s.takeFromHand(p, a.Card); err != nil {
			return err
		}
		s.discard(p.Army, a.Card)
		c.Choice, c.Round, c.PlayStrength = a.Choice, s.Round, 0
		s.emit("activate", tr("%s odrzuca kartę i aktywuje: %s (efekt %d)", "%s discards a card and activates %s (effect %d)", s.name(p.Seat), s.cardName(c.Card), a.Choice), Event{Seat: p.Seat, Card: c.Card, Front: a.Front, N: a.Choice})
		s.queueEffects(p, c.Card, a.Front, opts[a.Choice], true)
	case Pass:
		p.Passed = true
		s.emit("pass", tr("%s pasuje", "%s passes", s.name(p.Seat)), Event{Seat: p.Seat})
	}
	return nil
}

func (s *State) discard(army, card string) {
	ar := s.Army(army)
	ar.Discard = append(ar.Discard, card)
}

func (s *State) playCard(p *Player, a PlayCard) error {
	c, err := s.takeFromHand(p, a.Card)
	if err != nil {
		return err
	}
	f := a.Front
	fronts := c.Fronts()
	if c.Kind == KindUnit && len(fronts) == 1 {
		f = fronts[0] // a front printed on the card wins
	}
	if frontIndex(f) < 0 {
		return badFront(f)
	}
	if !slices.Contains(fronts, f) {
		// The card stays in the hand: the refusal does not name it.
		return rules.Reject("bad_front", "ta karta nie może iść na: %[1]s", "this card cannot go to the %[2]s", s.frontName(f).PL, s.frontName(f).EN)
	}
	fi := frontIndex(f)
	ar := s.Army(p.Army)
	switch c.Kind {
	case KindUnit:
		s.discard(p.Army, c.ID)
		s.emit("play_unit", tr("%s zagrywa %s (%s)", "%s plays %s (%s)", s.name(p.Seat), c.Names(), s.frontName(f)), Event{Seat: p.Seat, Card: c.ID, Front: f})
		s.queueEffects(p, c.ID, f, c.Effects, false)
	case KindCommander:
		opts := c.Options()
		if a.Choice < 0 || a.Choice >= len(opts) {
			return rules.Reject("out_of_range", "efekt %d poza zakresem 0–%d", "effect %d out of range 0–%d", a.Choice, len(opts)-1)
		}
		if s.blocked(p.Army, BlockCommanderField, f) {
			if err := s.waiver.Breach("blocked_field", "pole Dowódcy (%[1]s) jest zablokowane", "the commander field (%[2]s) is blocked", s.frontName(f).PL, s.frontName(f).EN); err != nil {
				return err
			}
		}
		if old := ar.Commanders[fi]; old != nil {
			s.discard(p.Army, old.Card)
			s.emit("commander_replaced", tr("%s zastępuje %s", "%s replaces %s", c.Names(), s.cardName(old.Card)), Event{Seat: p.Seat, Card: old.Card, Front: f})
		}
		ar.Commanders[fi] = &Commander{Card: c.ID, Choice: a.Choice, Round: s.Round}
		s.emit("play_commander", tr("%s zagrywa %s na %s (efekt %d)", "%s plays %s on the %s (effect %d)", s.name(p.Seat), c.Names(), s.frontName(f), a.Choice+1), Event{Seat: p.Seat, Card: c.ID, Front: f, N: a.Choice})
		// "Dopiero po określeniu nowego limitu Oddziałów, gracz korzysta
		// z wybranego efektu karty nowego Dowódcy."
		s.applyLimit(p.Army, f)
		if s.blocked(p.Army, BlockCommanderCard, f) {
			// The blockade on this commander card stays on the new card.
			ar.Commanders[fi].Choice = -1
			s.emit("blocked", tr("karta Dowódcy jest zablokowana: brak efektu", "the commander card is blocked: no effect"), Event{Card: c.ID, Front: f})
			return nil
		}
		s.queueEffects(p, c.ID, f, opts[a.Choice], true)
	case KindOrder:
		if s.blocked(p.Army, BlockOrderField, f) {
			if err := s.waiver.Breach("blocked_field", "pole Rozkazu (%[1]s) jest zablokowane", "the order field (%[2]s) is blocked", s.frontName(f).PL, s.frontName(f).EN); err != nil {
				return err
			}
		}
		if ar.Orders[fi] != "" {
			return rules.Reject("field_taken", "na polu Rozkazu (%[1]s) leży już %[3]s", "the order field (%[2]s) already holds %[3]s", s.frontName(f).PL, s.frontName(f).EN, s.cardName(ar.Orders[fi]))
		}
		ar.Orders[fi] = c.ID
		s.emit("play_order", tr("%s zagrywa rozkaz %s (%s)", "%s plays the order %s (%s)", s.name(p.Seat), c.Names(), s.frontName(f)), Event{Seat: p.Seat, Card: c.ID, Front: f})
		s.queueEffects(p, c.ID, f, c.Effects, false)
	}
	return nil
}

func (s *State) queueEffects(p *Player, card, f string, effs []Effect, commander bool) {
	var steps []Work
	for _, e := range effs {
		e := e
		steps = append(steps, Work{Op: "effect", Army: p.Army, Seat: p.Seat, Card: card, Front: f, Effect: &e, Commander: commander})
	}
	s.Queue = append(s.Queue, steps...)
}

// placeMarker lays marker on army's field (the army it blocks).
func (s *State) placeMarker(marker, army, place, f string) error {
	if !slices.Contains(BlockPlaces, place) {
		return rules.Reject("bad_place", "nieznane miejsce Blokady %q", "unknown blockade place %q", place)
	}
	if frontIndex(f) < 0 {
		return badFront(f)
	}
	if place == BlockCommanderCard && s.Army(army).Commanders[frontIndex(f)] == nil {
		return rules.Reject("no_commander", "%[1]s: nie ma tam karty Dowódcy do zablokowania", "%[2]s: no commander card to block there", s.frontName(f).PL, s.frontName(f).EN)
	}
	for _, m := range s.Blockades {
		if m.Marker == marker {
			if m.Army == army && m.Place == place && m.Front == f {
				return rules.Reject("no_change", "znacznik już tam leży", "the marker already lies there")
			}
			continue
		}
		if m.Army == army && m.Place == place && m.Front == f {
			return rules.Reject("occupied", "na tym polu leży już %[1]s", "%[2]s already lies there", s.markerName(m.Marker).PL, s.markerName(m.Marker).EN)
		}
	}
	var keep []Marker
	for _, m := range s.Blockades {
		if m.Marker != marker {
			keep = append(keep, m)
		}
	}
	s.Blockades = append(keep, Marker{Marker: marker, Army: army, Place: place, Front: f})
	return nil
}

// answer carries out the answer to the pending decision.
func (s *State) answer(p *Player, a Action) error {
	pd := *s.Pending
	s.Pending = nil
	switch a := a.(type) {
	case Roll:
		return s.roll(pd, a)
	case Blockade:
		if a.Card != "" {
			return rules.Reject("no_card", "ta Blokada nie wymaga odrzucenia karty", "this blockade needs no discarded card")
		}
		if pd.Kind == DecideSupport && a.Skip {
			s.emit("support_skipped", tr("Blokada Specjalna zostaje na karcie", "the special blockade stays on its card"), Event{Army: pd.Army})
			return nil
		}
		if a.Marker != "" && a.Marker != pd.Marker {
			return rules.Reject("wrong_marker", "teraz kładzie się: %s", "the marker to lay now is %s", s.markerName(pd.Marker))
		}
		if err := s.placeMarker(pd.Marker, Enemy(pd.Army), a.Place, a.Front); err != nil {
			return err
		}
		s.emit("blockade", tr("%s kładzie %s: %s, %s", "%s lays %s: %s, %s", s.armyName(pd.Army), s.markerName(pd.Marker), placeName(a.Place), s.frontName(a.Front)), Event{Army: pd.Army, Card: pd.Marker, Front: a.Front})
	case TurnCard:
		if a.Face != 0 && a.Face != 1 {
			return rules.Reject("out_of_range", "strona %d: 0 albo 1", "face %d: 0 or 1", a.Face)
		}
		if pd.Resource == ResFunds {
			faces := s.faces(ResFunds)
			initArmy := pd.Army
			if !faces[a.Face].Initiative {
				initArmy = Enemy(pd.Army)
			}
			s.push(Work{Op: "assign", Army: initArmy}, Work{Op: "funds_draw", Army: pd.Army, N: a.Face})
			return nil
		}
		faces := s.faces(ResSupply)
		vals := map[string]int{pd.Army: faces[a.Face].Units, Enemy(pd.Army): faces[1-a.Face].Units}
		s.emit("supply", tr("Zaopatrzenie zdobywa %s: %d, przeciwnik %d", "Supply won by %s: %d, the enemy %d", s.armyName(pd.Army), vals[pd.Army], vals[Enemy(pd.Army)]), Event{Army: pd.Army, N: vals[pd.Army]})
		var steps []Work
		for _, ar := range s.armyOrder() {
			steps = append(steps, Work{Op: "supply_army", Army: ar, N: vals[ar]})
		}
		s.push(steps...)
	case AssignInitiative:
		seats := make([]int, 0, len(s.Players))
		for _, x := range s.Players {
			seats = append(seats, x.Seat)
		}
		if !sameInts(a.Order, seats) {
			return rules.Reject("bad_order", "rozdaj wszystkie znaczniki: każde miejsce dokładnie raz", "hand out every token: each seat exactly once")
		}
		for i, seat := range a.Order {
			s.Player(seat).Token = i + 1
		}
		var order []string
		for _, seat := range a.Order {
			order = append(order, s.name(seat))
		}
		s.emit("tokens", tr("nowa kolejność Inicjatywy: %s", "new initiative order: %s", strings.Join(order, ", ")), Event{Seat: a.Order[0]})
	case Supply:
		return s.supplyAnswer(pd, a)
	case Move:
		if err := s.applyMoves(pd.Army, a.Moves, pd.N, pd.FromLine, pd.ToLine, pd.MoveFront); err != nil {
			return err
		}
		s.emit("moved", tr("%s: ruch %d Oddz.", "%s: %d unit(s) moved", s.armyName(pd.Army), moved(a.Moves)), Event{Army: pd.Army, Card: pd.Card, N: moved(a.Moves)})
	case Remove:
		if a.Front != pd.Front {
			return rules.Reject("bad_front", "usuwa się z: %[1]s", "the unit is removed from the %[2]s", s.frontName(pd.Front).PL, s.frontName(pd.Front).EN)
		}
		enemy := Enemy(pd.Army)
		l := &s.Army(enemy).Fronts[frontIndex(a.Front)]
		var n *int
		switch a.Line {
		case 1:
			n = &l.First
		case 2:
			n = &l.Second
		default:
			return rules.Reject("out_of_range", "linia %d: 1 albo 2", "line %d: 1 or 2", a.Line)
		}
		if pd.Line != 0 && a.Line != pd.Line {
			return rules.Reject("bad_line", "karta usuwa z %d. linii", "the card removes from line %d", pd.Line)
		}
		if *n == 0 {
			return rules.Reject("no_units", "przeciwnik nie ma tam Oddziałów", "the enemy has no units there")
		}
		s.removeUnit(enemy, a.Front, a.Line)
		if pd.N > 1 {
			s.push(Work{Op: "remove_n", Army: pd.Army, Front: pd.Front, Card: pd.Card, N: pd.N - 1, Effect: &Effect{Do: DoRemove, Line: pd.Line}})
		}
	case Confirm:
		if a.Yes {
			s.push(*pd.Step)
		} else {
			s.emit("declined", tr("%s: efekt pominięty", "%s: effect declined", s.cardName(pd.Card)), Event{Card: pd.Card})
		}
	}
	return nil
}

func moved(ms []UnitMove) int {
	n := 0
	for _, m := range ms {
		n += m.N
	}
	return n
}

func sameInts(a, b []int) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func (s *State) roll(pd Pending, a Roll) error {
	want := 1
	if pd.Kind == DecideRollInitiative {
		want = len(s.Players) - len(pd.Dice)
	}
	if len(a.Dice) == 0 || len(a.Dice) > want || (pd.Kind == DecideRollBonus && len(a.Dice) != want) {
		return rules.Reject("bad_dice", "potrzeba %d kości, jest %d", "%d dice needed, got %d", want, len(a.Dice))
	}
	for _, d := range a.Dice {
		if d < 1 || d > 6 {
			return rules.Reject("out_of_range", "wynik kości %d poza 1–6", "die %d out of range 1–6", d)
		}
	}
	if pd.Kind == DecideRollInitiative {
		// Dice entered one at a time wait in the decision for the rest.
		all := append(slices.Clone(pd.Dice), a.Dice...)
		if len(all) < len(s.Players) {
			pd.Dice = all
			s.emit("die_entered", tr("kość %d z %d: %d (%s)", "die %d of %d: %d (%s)", len(all), len(s.Players), a.Dice[len(a.Dice)-1], s.name(s.Players[len(all)-1].Seat)), Event{Dice: a.Dice, N: len(all)})
			s.pend(pd)
			return nil
		}
		pd.Dice = nil
		a.Dice = all
	}
	if pd.Kind == DecideRollBonus {
		d := a.Dice[0]
		if d > 3 {
			if s.Options.BonusHigh == "reroll" {
				s.emit("bonus_reroll", tr("wynik %d: rzut powtórzony", "rolled %d: roll again", d), Event{Dice: a.Dice})
				s.pend(pd)
				return nil
			}
			s.emit("bonus_none", tr("wynik %d: bez Dodatkowej Punktacji w tej rundzie", "rolled %d: no bonus front this round", d), Event{Dice: a.Dice})
			return nil
		}
		f := Fronts[d-1]
		if f == s.LastBonus {
			// "W każdej rundzie znacznik musi leżeć na innym Froncie niż poprzednio."
			s.emit("bonus_none", tr("wylosowano ten sam Front (%s): bez Dodatkowej Punktacji w tej rundzie", "the same front (%s) again: no bonus front this round", s.frontName(f)), Event{Dice: a.Dice, Front: f})
			return nil
		}
		s.Bonus = f
		s.emit("bonus", tr("Dodatkowa Punktacja: %s", "bonus front: %s", s.frontName(f)), Event{Dice: a.Dice, Front: f})
		return nil
	}
	// The initiative: the highest die; with 3–4 players the tokens by the
	// results. Any tie: everybody rolls again.
	seen := map[int]bool{}
	tie := false
	for _, d := range a.Dice {
		if seen[d] {
			tie = true
		}
		seen[d] = true
	}
	if tie {
		s.emit("initiative_reroll", tr("remis w rzucie o inicjatywę: rzut powtórzony", "a tie in the initiative roll: roll again"), Event{Dice: a.Dice})
		s.pend(pd)
		return nil
	}
	seats := make([]int, len(s.Players))
	for i, p := range s.Players {
		seats[i] = p.Seat
	}
	idx := make([]int, len(seats))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int { return a.Dice[y] - a.Dice[x] })
	s.Initiative = seats[idx[0]]
	if len(s.Players) > 2 {
		for tok, i := range idx {
			s.Player(seats[i]).Token = tok + 1
		}
	}
	s.emit("initiative", tr("inicjatywa: %s", "initiative: %s", s.name(s.Initiative)), Event{Seat: s.Initiative, Dice: a.Dice})
	s.baseHands()
	s.push(Work{Op: "round_start"})
	return nil
}

func (s *State) supplyAnswer(pd Pending, a Supply) error {
	if len(a.Add) > pd.N {
		if err := s.waiver.Breach("too_many", "Zaopatrzenie pozwala na %d działań", "the supply allows %d", pd.N); err != nil {
			return err
		}
	}
	ar := s.Army(pd.Army)
	for _, f := range a.Add {
		fi := frontIndex(f)
		if fi < 0 {
			return badFront(f)
		}
		if ar.Reserve == 0 {
			return rules.Reject("no_reserve", "Rezerwa jest pusta", "the Reserve is empty")
		}
		ar.Reserve--
		ar.Fronts[fi].Second++ // "Gracze dokładają Oddziały zawsze na 2LF."
	}
	if err := s.applyMoves(pd.Army, a.Moves, pd.N-len(a.Add), 0, 0, ""); err != nil {
		return err
	}
	s.emit("supplied", tr("%s: dołożono %d, poruszono %d Oddz.", "%s: %d unit(s) added, %d moved", s.armyName(pd.Army), len(a.Add), moved(a.Moves)), Event{Army: pd.Army, N: len(a.Add) + moved(a.Moves)})
	return nil
}

// selectCard keeps the card the active player picked, with the front and
// effect chosen so far; the card must be in the hand, the front one of the
// card's, the effect one of its options.
func (s *State) selectCard(p *Player, a Select) error {
	if a.Card == "" {
		if s.Selected != nil {
			s.emit("selection_cleared", tr("%s odkłada wybraną kartę", "%s puts the picked card back", s.name(p.Seat)), Event{Seat: p.Seat})
		}
		s.Selected = nil
		return nil
	}
	// The pick is the player's (their reader, their page) until the card
	// is played: a pick put back reveals nothing. Neither the event nor a
	// refusal, which everyone sees, names the card, its front or effect.
	c, ok := s.Cards[a.Card]
	if !ok {
		return rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", a.Card)
	}
	if !slices.Contains(p.Hand, a.Card) {
		return rules.Reject("not_in_hand", "%s nie ma tej karty na ręku", "%s does not hold that card", s.name(p.Seat))
	}
	if a.Front != "" {
		if frontIndex(a.Front) < 0 {
			return badFront(a.Front)
		}
		if c.Kind != KindUnit && !slices.Contains(c.Fronts(), a.Front) {
			return rules.Reject("bad_front", "wybrana karta nie może iść na ten Front", "the picked card cannot go to that front")
		}
	}
	if a.Choice < 0 || a.Choice >= max(1, len(c.Options())) {
		return rules.Reject("out_of_range", "wybrana karta nie ma takiego efektu", "the picked card has no such effect")
	}
	s.Selected = &Selection{Seat: p.Seat, Card: a.Card, Front: a.Front, Choice: a.Choice}
	s.emit("selected", tr("%s wybiera kartę", "%s picks a card", s.name(p.Seat)), Event{Seat: p.Seat})
	return nil
}
