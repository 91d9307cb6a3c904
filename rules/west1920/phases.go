package west1920

import (
	"slices"
	"strconv"
	"strings"

	"github.com/sztab/sztab/rules"
)

// ---- 3.x events ----

func (s *State) drawCard(a DrawCard) ([]Event, error) {
	if s.Phase != PhaseEvents {
		return nil, rejectf("wrong_phase", "karty ciągnie się w fazie zdarzeń", "cards are drawn in the events phase")
	}
	p := s.player(a.Side)
	want := 1
	if s.Stage > 1 {
		want = 2
	}
	if len(p.Hand) >= want {
		return nil, rejectf("hand_full", "%s ma już %d karty", "%s already holds %d cards", sideName(a.Side), len(p.Hand))
	}
	if a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "teraz ciągnie %[1]s", "%[2]s draws now", sideName(s.Turn).PL, sideName(s.Turn).EN)
	}
	i := slices.Index(s.Deck, a.Card)
	if i < 0 {
		return nil, rejectf("not_in_deck", "karty %d nie ma w talii", "card %d is not in the deck", a.Card)
	}
	s.Deck = slices.Delete(s.Deck, i, i+1)
	p.Hand = append(p.Hand, a.Card)
	// The card drawn is its holder's secret until played (3.1): the event,
	// public on every channel, names the side only.
	evs := []Event{{Type: "draw", Side: a.Side, Text: textf("%s ciągnie kartę", "%s draws a card", sideName(a.Side))}}
	if s.Stage == 1 {
		// 3.1: stage-1 cards are held; then the single cards go back.
		if a.Side == s.Turn && len(s.player(other(a.Side)).Hand) == 0 {
			s.Turn = other(a.Side)
			return evs, nil
		}
		s.Deck = append(s.Deck, SingleCards...)
		slices.Sort(s.Deck)
		evs = append(evs, ev("singles_back", "Karty 2, 4, 7, 8, 13, 22 i 32 wracają do talii", "Cards 2, 4, 7, 8, 13, 22 and 32 go back into the deck"))
		return append(evs, s.enterResources()...), nil
	}
	// 3.2: a single-instruction card cannot be held and is played right
	// after the opponent's card, whoever was first. When the first player
	// draws one, the opponent draws and plays before them; when both hold
	// one, the normal order is kept.
	if s.cat.Cards[a.Card].Single() && s.player(other(a.Side)).Played == 0 {
		o := s.player(other(a.Side))
		switch {
		case len(o.Hand) < 2:
			s.Turn = other(a.Side)
			// That the card is a single-instruction card is public (the
			// order of play changes); which card it is stays hidden.
			evs = append(evs, Event{Type: "single_waits", Side: a.Side, Text: textf("%s ciągnie kartę z jedną instrukcją i zagra ją po karcie przeciwnika (3.2)", "%s draws a single-instruction card and plays it after the opponent's card (3.2)", sideName(a.Side))})
		case s.holdsSingle(o):
			s.Turn = s.firstForCards()
		}
	}
	return evs, nil
}

func (s *State) holdsSingle(p *Player) bool {
	for _, c := range p.Hand {
		if s.cat.Cards[c].Single() {
			return true
		}
	}
	return false
}

func (s *State) playCard(a PlayCard) ([]Event, error) {
	if s.Phase != PhaseEvents || s.Stage == 1 {
		return nil, rejectf("wrong_phase", "karty zagrywa się w fazie zdarzeń od etapu 2 (3.1)", "cards are played in the events phase from stage 2 (3.1)")
	}
	if a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "teraz kolej: %[1]s", "%[2]s's turn", sideName(s.Turn).PL, sideName(s.Turn).EN)
	}
	p := s.player(a.Side)
	if len(p.Hand) < 2 {
		return nil, rejectf("draw_first", "najpierw dociągnij do dwóch kart (3.1)", "draw to two cards first (3.1)")
	}
	if !slices.Contains(p.Hand, a.Card) {
		return nil, rejectf("not_in_hand", "karty %d nie ma na ręce", "card %d is not in the hand", a.Card)
	}
	// 3.2: a single-instruction card cannot be held; it is played after
	// the opponent's card. With one in the hand, that is the card to play.
	for _, c := range p.Hand {
		if s.cat.Cards[c].Single() && c != a.Card {
			// The refusal is public: it does not name the card in the hand.
			return nil, rejectf("single_card", "karta z jedną instrukcją na ręce musi zostać zagrana (3.2)", "the single-instruction card in the hand must be played (3.2)")
		}
	}
	card := s.cat.Cards[a.Card]
	opp := s.player(other(a.Side))
	if card.Single() && opp.Played == 0 && !s.holdsSingle(opp) {
		return nil, rejectf("single_after", "karta pojedynczej instrukcji jest zagrywana po karcie przeciwnika (3.2)", "a single-instruction card is played after the opponent's card (3.2)")
	}
	i := slices.Index(p.Hand, a.Card)
	p.Hand = slices.Delete(p.Hand, i, i+1)
	p.Played = a.Card
	evs := []Event{{Type: "play", Side: a.Side, N: a.Card, Text: textf("%s zagrywa kartę %d %s", "%s plays card %d %s", sideName(a.Side), a.Card, quoted(card.Titles()))}}
	if opp.Played == 0 {
		s.Turn = other(a.Side)
		return evs, nil
	}
	return append(evs, s.resolveCards()...), nil
}

// resolveCards applies both played cards (3.2): a single-instruction card
// overrides the opponent's card; two single cards both apply, in order
// (option both_singles).
func (s *State) resolveCards() []Event {
	first := s.firstForCards()
	a, b := s.player(first).Played, s.player(other(first)).Played
	ca, cb := s.cat.Cards[a], s.cat.Cards[b]
	var evs []Event
	apply := func(side string, c Card) {
		effs := c.Polish
		if side == Russian {
			effs = c.Russian
		}
		if c.Single() {
			effs = c.Both
		}
		for _, e := range effs {
			evs = append(evs, s.applyEffect(side, c.ID, e)...)
		}
	}
	switch {
	case ca.Single() && !cb.Single():
		evs = append(evs, ev("overridden", "Karta %d zastępuje kartę %d (3.2)", "Card %d overrides card %d (3.2)", a, b))
		apply(first, ca)
	case cb.Single() && !ca.Single():
		evs = append(evs, ev("overridden", "Karta %d zastępuje kartę %d (3.2)", "Card %d overrides card %d (3.2)", b, a))
		apply(other(first), cb)
	case ca.Single() && cb.Single() && s.Options.BothSingles == "second":
		apply(other(first), cb)
	default:
		apply(first, ca)
		apply(other(first), cb)
	}
	s.Discards = append(s.Discards, a, b)
	return append(evs, s.runCardTasks()...)
}

// applyEffect carries out one instruction (3.2: at once, or it stays in
// force for the stage's phases).
func (s *State) applyEffect(player string, card int, e Effect) []Event {
	switch e.Do {
	case "rp":
		s.player(e.Side).CardRP += e.N
		return []Event{{Type: "card_rp", Side: e.Side, N: e.N, Text: textf("Karta %d: %s %+d PZ (4.0)", "Card %d: %s %+d RP (4.0)", card, sideName(e.Side), e.N)}}
	case "strategic_limit":
		s.player(e.Side).StratLimit = e.N
	case "lithuania_joins":
		s.Lithuania = true
		kaunas := s.cat.Cities[s.cat.Data.Map.Bases.Lithuanian].Hex
		for i := range s.Units {
			if s.Units[i].Nation == NatLithuanian && s.Units[i].Status == Waiting {
				s.Units[i].Status, s.Units[i].Hex = OnMap, kaunas
			}
		}
		for i := range s.HQs {
			if s.HQs[i].Nation == NatLithuanian && s.HQs[i].Status == Waiting {
				s.HQs[i].Status, s.HQs[i].Hex = OnMap, kaunas
			}
		}
		return []Event{ev("lithuania", "Litwa przystępuje do wojny po stronie Rosji (13.3)", "Lithuania joins the war on the Russian side (13.3)")}
	}
	if immediate(e.Do) {
		// 3.2: carried out at once, in order, each choice asked of its chooser.
		s.CardTasks = append(s.CardTasks, CardTask{Card: card, Player: player, Effect: e})
		return nil
	}
	s.Effects = append(s.Effects, CardEffect{Card: card, Player: player, Effect: e})
	return []Event{{Type: "card_effect", N: card, Text: textf("Karta %d (%s) w mocy w tym etapie", "Card %d (%s) in force this stage", card, s.cardTitle(card))}}
}

func (s *State) effect(do, side string) *CardEffect {
	for i := range s.Effects {
		if s.Effects[i].Effect.Do == do && (side == "" || s.Effects[i].Effect.Side == side) {
			return &s.Effects[i]
		}
	}
	return nil
}

// ---- 4.0 resource points ----

func (s *State) enterResources() []Event {
	s.Phase, s.Turn = PhaseResources, ""
	return s.nextResourceRoll()
}

func (s *State) nextResourceRoll() []Event {
	for _, side := range []string{Russian, Polish} {
		p := s.player(side)
		if !p.Rolled {
			rp := ResourcePoints(p.BaseRP + p.CardRP)
			m := map[string]float64{}
			for k, v := range rp.Dist {
				m[strconv.Itoa(rp.Min+k)] = v
			}
			s.rollPending("resource_roll", side, 2, "rzut białą i czerwoną kostką: "+sideName(side).PL, "roll the white and red dice: "+sideName(side).EN, &Odds{RP: m})
			return nil
		}
	}
	s.Pending = nil
	return s.enterDepots()
}

func (s *State) resourceRoll(r Roll) ([]Event, error) {
	if err := checkDice(r, 2); err != nil {
		return nil, err
	}
	p := s.player(s.Pending.Side)
	p.Dice = r.Dice[0] - r.Dice[1]
	p.TotalRP = max(0, p.BaseRP+p.Dice+p.CardRP)
	p.Rolled = true
	evs := []Event{{Type: "rp", Side: p.Side, N: p.TotalRP, Text: textf("%s: %d %+d (biała %d − czerwona %d) %+d z kart = %d PZ (4.0)",
		"%s: %d %+d (white %d − red %d) %+d from cards = %d RP (4.0)", sideName(p.Side), p.BaseRP, p.Dice, r.Dice[0], r.Dice[1], p.CardRP, p.TotalRP)}}
	return append(evs, s.nextResourceRoll()...), nil
}

// ---- alternating phases ----

func (s *State) startAlternating(ph Phase, first string) {
	s.Phase, s.Turn = ph, first
	for i := range s.Players {
		s.Players[i].Passed = false
		s.Players[i].Removed = false
	}
}

// passTurn hands the turn to the opponent unless they passed (5.1 etc.).
func (s *State) passTurn() {
	o := other(s.Turn)
	if !s.player(o).Passed {
		s.Turn = o
	}
}

func (s *State) pass(a Pass) ([]Event, error) {
	switch s.Phase {
	case PhaseDepots, PhaseChits, PhaseHQ, PhaseWithdrawal, PhaseCombat, PhaseStrategic, PhaseReplacement:
	default:
		return nil, rejectf("cannot_pass", "w tej fazie nie można spasować", "no passing in this phase")
	}
	if s.Phase != PhaseReplacement && a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "teraz kolej: %[1]s", "%[2]s's turn", sideName(s.Turn).PL, sideName(s.Turn).EN)
	}
	p := s.player(a.Side)
	if p.Passed {
		return nil, rejectf("already_passed", "%[1]s już zrezygnował", "%[2]s has already passed", sideName(a.Side).PL, sideName(a.Side).EN)
	}
	p.Passed = true
	evs := []Event{{Type: "pass", Side: a.Side, Text: textf("%[1]s rezygnuje do końca fazy", "%[2]s passes for the rest of the phase", sideName(a.Side).PL, sideName(a.Side).EN)}}
	if !s.player(other(a.Side)).Passed {
		s.Turn = other(a.Side)
		return evs, nil
	}
	return append(evs, s.endPhase()...), nil
}

// endPhase moves on when both players have passed.
func (s *State) endPhase() []Event {
	switch s.Phase {
	case PhaseDepots:
		return s.depotUpkeep()
	case PhaseChits:
		return s.enterOrders()
	case PhaseHQ:
		s.startAlternating(PhaseWithdrawal, s.firstByBaseRP())
		return []Event{ev("phase", "Walka: wycofanie przed walką (9.1)", "Combat: withdrawal before combat (9.1)")}
	case PhaseWithdrawal:
		s.startAlternating(PhaseCombat, "")
		s.rollPending("first_roll", "", 2, "kto atakuje pierwszy: 1K6 gracza polskiego i rosyjskiego (9.2)", "who attacks first: the Polish and the Russian 1d6 (9.2)", nil)
		return nil
	case PhaseCombat:
		return s.enterExtraOrders()
	case PhaseReplacement:
		s.startAlternating(PhaseStrategic, s.firstByTotalRP())
		return []Event{ev("phase", "Ruch strategiczny (11.0)", "Strategic movement (11.0)")}
	case PhaseStrategic:
		return s.reinforcements()
	}
	return nil
}

// ---- 5.x depots ----

func (s *State) enterDepots() []Event {
	s.startAlternating(PhaseDepots, s.firstByTotalRP())
	return []Event{ev("phase", "Magazyny (5.0); zaczyna %[1]s", "Depots (5.0); %[2]s starts", sideName(s.Turn).PL, sideName(s.Turn).EN)}
}

// upkeep is what the side's depots cost now (5.3).
func (s *State) upkeep(side string, sup *Supply) int {
	n := 0
	for i, d := range s.Depots {
		if d.Side == side {
			n += DepotCost(sup.Connected[i] || d.Stage == s.Stage)
		}
	}
	return n
}

func (s *State) buildDepot(a BuildDepot) ([]Event, error) {
	if s.Phase != PhaseDepots {
		return nil, rejectf("wrong_phase", "magazyny zakłada się w fazie magazynów", "depots are set up in the depots phase")
	}
	if a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "teraz kolej: %[1]s", "%[2]s's turn", sideName(s.Turn).PL, sideName(s.Turn).EN)
	}
	if err := s.canBuildDepot(a.Side, a.Hex); err != nil {
		return nil, err
	}
	s.Depots = append(s.Depots, Depot{Hex: a.Hex, Side: a.Side, Stage: s.Stage})
	sup := s.computeSupply()
	p := s.player(a.Side)
	if need := s.upkeep(a.Side, &sup); need > p.TotalRP {
		return nil, rejectf("no_rp", "magazyny kosztowałyby %d PZ, %s ma %d (5.3)", "the depots would cost %d RP, %s has %d (5.3)", need, sideName(a.Side), p.TotalRP)
	}
	s.passTurn()
	return []Event{{Type: "depot", Side: a.Side, Hex: a.Hex, Text: textf("%s zakłada magazyn w %s", "%s sets up a depot in %s", sideName(a.Side), s.cat.cityAt[a.Hex].Name)}}, nil
}

func (s *State) removeDepot(a RemoveDepot) ([]Event, error) {
	if s.Phase != PhaseDepots || a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "magazyn usuwa się w swojej kolejce fazy magazynów", "a depot is removed on one's turn in the depots phase")
	}
	i := s.depotAt(a.Hex)
	if i < 0 || s.Depots[i].Side != a.Side {
		return nil, rejectf("no_depot", "%s nie ma magazynu w %s", "%s has no depot in %s", sideName(a.Side), a.Hex)
	}
	p := s.player(a.Side)
	if p.Removed {
		return nil, rejectf("one_removal", "tylko jeden magazyn można zlikwidować (5.4)", "only one depot may be removed (5.4)")
	}
	if s.effect("no_depot_removal", a.Side) != nil {
		return nil, rejectf("card_forbids", "karta 18: gracz polski nie może zlikwidować magazynu", "card 18: the Polish player may not remove a depot")
	}
	p.Removed = true
	s.Depots = slices.Delete(s.Depots, i, i+1)
	s.passTurn()
	return []Event{{Type: "depot_removed", Side: a.Side, Hex: a.Hex, Text: textf("%s likwiduje magazyn w %s (5.4)", "%s removes the depot in %s (5.4)", sideName(a.Side), a.Hex)}}, nil
}

// depotUpkeep pays 5.3 at the end of the phase; when RP fall short the
// opponent picks depots to remove (5.4).
func (s *State) depotUpkeep() []Event {
	sup := s.computeSupply()
	for _, side := range []string{Polish, Russian} {
		p := s.player(side)
		if need := s.upkeep(side, &sup); need > p.TotalRP {
			var opts []string
			for _, d := range s.Depots {
				if d.Side == side {
					opts = append(opts, string(d.Hex))
				}
			}
			s.setPending(Pending{Kind: "depot_shortfall", Action: "remove_depot", Side: other(side), Options: opts,
				Text: textf("%s wybiera magazyn przeciwnika do usunięcia: koszt %d PZ, jest %d (5.4)", "%s picks an enemy depot to remove: upkeep %d RP, only %d (5.4)", sideName(other(side)), need, p.TotalRP)})
			return nil
		}
	}
	var evs []Event
	for _, side := range []string{Polish, Russian} {
		p := s.player(side)
		n := s.upkeep(side, &sup)
		p.Spent += n
		evs = append(evs, Event{Type: "upkeep", Side: side, N: n, Text: textf("%s płaci %d PZ za magazyny (5.3)", "%s pays %d RP for depots (5.3)", sideName(side), n)})
	}
	return append(evs, s.supplyCheck()...)
}

func (s *State) shortfallRemove(a RemoveDepot) ([]Event, error) {
	if !slices.Contains(s.Pending.Options, string(a.Hex)) {
		return nil, rejectf("bad_choice", "%s: wybierz jeden z %v", "%s: pick one of %v", a.Hex, s.Pending.Options)
	}
	i := s.depotAt(a.Hex)
	s.Depots = slices.Delete(s.Depots, i, i+1)
	s.Pending = nil
	evs := []Event{{Type: "depot_removed", Hex: a.Hex, Text: textf("Magazyn w %s usunięty z braku PZ (5.4)", "The depot in %s is removed for want of RP (5.4)", a.Hex)}}
	return append(evs, s.depotUpkeep()...), nil
}

// ---- 6.0 supply check ----

func (s *State) supplyCheck() []Event {
	sup := s.computeSupply()
	b := s.cat.Board
	var evs []Event
	type hit struct {
		i    int
		elim bool
	}
	var hits []hit
	for i := range s.Units {
		u := &s.Units[i]
		if u.Status != OnMap {
			continue
		}
		ok := sup.suppliedAt(u, b.Index(u.Hex))
		u.Unsupplied = !ok
		if !ok {
			hits = append(hits, hit{i, u.Weak})
		}
	}
	// Simultaneous (6.0): decided first, applied after.
	for _, h := range hits {
		u := &s.Units[h.i]
		if h.elim {
			u.Status = Eliminated
			evs = append(evs, Event{Type: "eliminated", Unit: u.ID, Hex: u.Hex, Text: textf("%s bez zaopatrzenia: wyeliminowana (6.0)", "%s unsupplied: eliminated (6.0)", u.Name)})
		} else {
			u.Weak = true
			evs = append(evs, Event{Type: "weakened", Unit: u.ID, Hex: u.Hex, Text: textf("%s bez zaopatrzenia: osłabiona (6.0)", "%s unsupplied: weakened (6.0)", u.Name)})
		}
	}
	evs = append(evs, s.specialChecks()...)
	s.startAlternating(PhaseChits, "")
	s.rollPending("first_roll", "", 2, "kto zaczyna przydział żetonów aktywacji: 1K6 polski i rosyjski (7.1)", "who starts assigning chits: the Polish and the Russian 1d6 (7.1)", nil)
	return evs
}

// specialChecks: 13.3 (Lithuanians within two hexes of the border) and
// 13.4 (Ukrainians south of the line).
func (s *State) specialChecks() []Event {
	b := s.cat.Board
	var evs []Event
	for i := range s.Units {
		u := &s.Units[i]
		if u.Status != OnMap {
			continue
		}
		at := b.Index(u.Hex)
		switch {
		case u.Nation == NatUkrainian && !b.south[at]:
			u.Status = Eliminated
			evs = append(evs, Event{Type: "eliminated", Unit: u.ID, Text: textf("%s na północ od linii: wyeliminowana (13.4)", "%s north of the line: eliminated (13.4)", u.Name)})
		case u.Nation == NatLithuanian && s.lithuanianTooFar(at):
			u.Status = Eliminated
			evs = append(evs, Event{Type: "eliminated", Unit: u.ID, Text: textf("%s ponad 2 heksy od granicy Litwy: wyeliminowana (13.3)", "%s more than 2 hexes from Lithuania: eliminated (13.3)", u.Name)})
		}
	}
	return evs
}

func (s *State) lithuanianTooFar(at int) bool {
	b := s.cat.Board
	if b.country[at] == Lithuania {
		return false
	}
	for i := 0; i < b.Size(); i++ {
		if b.country[i] == Lithuania && b.Distance(at, i)-1 <= 2 {
			return false
		}
	}
	return true
}

// firstRoll answers a "who starts" roll: Polish die, Russian die; a tie is
// rolled again (7.1, 9.2).
func (s *State) firstRoll(r Roll) ([]Event, error) {
	if err := checkDice(r, 2); err != nil {
		return nil, err
	}
	if r.Dice[0] == r.Dice[1] {
		return []Event{ev("reroll", "Remis %d–%d: rzut powtórzony", "A tie %d–%d: roll again", r.Dice[0], r.Dice[1])}, nil
	}
	s.Pending = nil
	s.Turn = Polish
	if r.Dice[1] > r.Dice[0] {
		s.Turn = Russian
	}
	// 7.1: the roll winner with no chit to carry out cannot give an order
	// (and orders cannot be passed): the opponent starts.
	if s.Phase == PhaseOrders && !s.hasChit(s.Turn) {
		s.Turn = other(s.Turn)
	}
	return []Event{{Type: "first", Side: s.Turn, Text: textf("Polacy %[1]d, Rosjanie %[2]d: zaczyna %[3]s", "Poles %[1]d, Russians %[2]d: %[4]s starts", r.Dice[0], r.Dice[1], sideName(s.Turn).PL, sideName(s.Turn).EN)}}, nil
}

// quoted is a card's title in each language's quotation marks, unless the
// title is itself a quotation (card 6, „Ręce precz od Rosji”).
func quoted(t rules.Text) rules.Text {
	q := func(s, open, close string) string {
		if strings.HasPrefix(s, "„") || strings.HasPrefix(s, "“") {
			return s
		}
		return open + s + close
	}
	return rules.Text{PL: q(t.PL, "„", "”"), EN: q(t.EN, "“", "”")}
}
