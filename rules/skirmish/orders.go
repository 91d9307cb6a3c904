package skirmish

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
)

// Order cards (scenarios 3 and 4, "Faza rozkazów"): every player draws
// five cards from the deck of their army before turn 1 and keeps them
// hidden. In each of their orders phases a player may put away one card and
// draw another, and draws new cards for those completed, "tak aby zawsze
// mieć 5 na rękę". The scenario text has the swap "po skończonej turze";
// FAZY ROZGRYWKI puts it in the orders phase at the start of the player's
// turn, which we follow: it is the same moment between two turns. A card
// put away or completed leaves the game. A completed card scores at once.

func (s *State) drawOrders(a DrawOrders) ([]Event, error) {
	if !s.Scenario.orders() {
		return nil, rules.Reject("no_orders", "w tym scenariuszu nie ma kart rozkazów", "this scenario has no order cards")
	}
	if s.Phase != PhaseOrders {
		return nil, rules.Reject("wrong_phase", "karty rozkazów dobiera się w fazie rozkazów (teraz: %[1]s)", "order cards are drawn in the orders phase (now: %[2]s)",
			s.Phase.Name().PL, s.Phase.Name().EN)
	}
	_, p := s.player(a.Seat)
	if p == nil {
		return nil, rules.Reject("unknown_seat", "nie ma gracza na miejscu %d", "no player in seat %d", a.Seat)
	}
	if s.Round > 0 && a.Seat != s.ActiveSeat() {
		return nil, rules.Reject("not_your_turn", "teraz faza rozkazów gracza %s", "it is %s's orders phase", s.Players[s.Active].Name)
	}
	if !a.Origin.Valid() {
		return nil, rules.Reject("bad_card", "karty bez znanego pochodzenia (%q)", "cards of unknown origin (%q)", a.Origin)
	}
	if len(a.Cards) == 0 {
		return nil, rules.Reject("bad_card", "nie podano kart", "no cards given")
	}
	ps := s.seatState(a.Seat)
	if len(ps.Hand)+len(a.Cards) > s.Options.HandSize {
		return nil, rules.Reject("hand_full", "%[1]s ma na ręce %[2]d i dobiera %[3]d: najwyżej %[4]d kart", "%[1]s holds %[2]d and draws %[3]d: at most %[4]d cards",
			p.Name, len(ps.Hand), len(a.Cards), s.Options.HandSize)
	}
	for i, id := range a.Cards {
		card, ok := s.data.Orders[id]
		switch {
		case !ok || card.Faction != p.Faction:
			return nil, rules.Reject("bad_card", "%q nie jest kartą talii %s", "%q is not a card of the %s deck", id, p.Faction)
		case slices.Contains(ps.Drawn, id) || slices.Contains(a.Cards[:i], id):
			return nil, rules.Reject("bad_card", "karta %q była już dobrana", "card %q has already been drawn", id)
		}
	}
	for _, id := range a.Cards {
		ps.Hand = append(ps.Hand, HeldCard{ID: id, Origin: a.Origin, Baseline: cloneTally(ps.Tally)})
		ps.Drawn = append(ps.Drawn, id)
	}
	ps.HandSize = len(ps.Hand)
	evs := []Event{{Type: "orders_drawn", Seat: a.Seat,
		Text: rules.Textf("%[1]s dobiera karty rozkazów: %[4]s (ma %[3]d)", "%[1]s draws %[5]s (holds %[3]d)", p.Name, len(a.Cards), ps.HandSize, plN(len(a.Cards), "kartę", "karty", "kart"), enN(len(a.Cards), "order card", "order cards"))}}
	if s.Round == 0 {
		for _, pl := range s.Players {
			if s.missingCards(pl.Seat) > 0 {
				return evs, nil
			}
		}
		s.Round, s.Active = 1, s.firstIndex()
		evs = append(evs, s.turnEvent())
	}
	return evs, nil
}

func cloneTally(t Tally) Tally {
	t.ByClass = maps.Clone(t.ByClass)
	return t
}

// missingCards is how many cards the player must still draw: up to the hand
// size, as far as the deck goes.
func (s *State) missingCards(seat int) int {
	ps := s.seatState(seat)
	left := 0
	for _, c := range s.data.Deck(s.factionOf(seat)) {
		if !slices.Contains(ps.Drawn, c.ID) {
			left++
		}
	}
	return min(s.Options.HandSize-len(ps.Hand), left)
}

func (s *State) discardOrder(a DiscardOrder) ([]Event, error) {
	if !s.Scenario.orders() {
		return nil, rules.Reject("no_orders", "w tym scenariuszu nie ma kart rozkazów", "this scenario has no order cards")
	}
	if s.Phase != PhaseOrders || s.Round == 0 {
		return nil, rules.Reject("wrong_phase", "kartę odrzuca się w swojej fazie rozkazów", "a card is put away in your own orders phase")
	}
	if a.Seat != s.ActiveSeat() {
		return nil, rules.Reject("not_your_turn", "teraz faza rozkazów gracza %s", "it is %s's orders phase", s.Players[s.Active].Name)
	}
	ps := s.seatState(a.Seat)
	if ps.Swapped {
		return nil, rules.Reject("already_swapped", "w jednej fazie rozkazów można odrzucić jedną kartę", "one card may be put away per orders phase")
	}
	i := slices.IndexFunc(ps.Hand, func(h HeldCard) bool { return h.ID == a.Card })
	if i < 0 {
		return nil, rules.Reject("not_in_hand", "nie masz karty %q", "you do not hold card %q", a.Card)
	}
	ps.Hand = slices.Delete(ps.Hand, i, i+1)
	ps.HandSize = len(ps.Hand)
	ps.Discarded = append(ps.Discarded, a.Card)
	ps.Swapped = true
	return []Event{{Type: "order_discarded", Seat: a.Seat,
		Text: rules.Textf("%s odkłada kartę rozkazu i dobierze nową", "%s puts away an order card and will draw a new one", s.Players[s.Active].Name)}}, nil
}

func (s *State) claimOrder(a ClaimOrder) ([]Event, error) {
	if !s.Scenario.orders() {
		return nil, rules.Reject("no_orders", "w tym scenariuszu nie ma kart rozkazów", "this scenario has no order cards")
	}
	if !s.playing() || s.Round == 0 {
		return nil, rules.Reject("wrong_phase", "karty rozkazów wykonuje się w czasie gry", "order cards are completed during play")
	}
	ps := s.seatState(a.Seat)
	if ps == nil {
		return nil, rules.Reject("unknown_seat", "nie ma gracza na miejscu %d", "no player in seat %d", a.Seat)
	}
	i := slices.IndexFunc(ps.Hand, func(h HeldCard) bool { return h.ID == a.Card })
	if i < 0 {
		return nil, rules.Reject("not_in_hand", "gracz z miejsca %d nie ma karty %q", "seat %d does not hold card %q", a.Seat, a.Card)
	}
	card := s.data.Orders[a.Card]
	if card.Check.Kind != CheckManual {
		return nil, rules.Reject("engine_checks", "%[1]s: tę kartę sprawdza gra sama", "%[2]s: the game checks this card by itself", card.Name.PL, card.Name.EN)
	}
	if a.Referee == "" {
		mine := s.factionOf(a.Seat)
		for _, sd := range s.Sides {
			if sd.Faction == mine {
				continue
			}
			for _, seat := range sd.Seats {
				if !slices.Contains(a.ConfirmedBy, seat) {
					_, p := s.player(seat)
					return nil, rules.Reject("not_confirmed", "%[1]s: potwierdzić musi %[2]s (albo sędzia)", "%[3]s: %[2]s must confirm it (or a referee)",
						card.Name.PL, p.Name, card.Name.EN)
				}
			}
		}
	}
	return s.complete(a.Seat, i), nil
}

// complete scores the i-th card of seat's hand.
func (s *State) complete(seat, i int) []Event {
	ps := s.seatState(seat)
	id := ps.Hand[i].ID
	card := s.data.Orders[id]
	ps.Hand = slices.Delete(ps.Hand, i, i+1)
	ps.HandSize = len(ps.Hand)
	ps.Completed = append(ps.Completed, id)
	sd := s.side(s.factionOf(seat))
	sd.OrderPoints += card.Points
	_, p := s.player(seat)
	return []Event{{Type: "order_completed", Seat: seat, Unit: id,
		Text: rules.Textf("%[1]s wykonuje rozkaz „%[2]s” (%[3]s): +%[4]d pkt, %[5]s ma %[6]d", "%[1]s completes the order “%[7]s” (%[8]s): +%[9]s, %[5]s has %[6]d",
			p.Name, card.Name.PL, card.Task.PL, card.Points, sd.Faction, sd.OrderPoints, card.Name.EN, card.Task.EN, enN(card.Points, "point", "points"))}}
}

// checkOrders completes every card in a hand whose task the state shows
// done.
func (s *State) checkOrders() []Event {
	if !s.Scenario.orders() || !s.playing() || s.Round == 0 {
		return nil
	}
	var evs []Event
	for _, p := range s.Players {
		ps := s.seatState(p.Seat)
		for i := 0; i < len(ps.Hand); {
			if s.orderDone(p, ps.Hand[i]) {
				evs = append(evs, s.complete(p.Seat, i)...)
				continue
			}
			i++
		}
	}
	return evs
}

func (s *State) orderDone(p Player, h HeldCard) bool {
	card := s.data.Orders[h.ID]
	t := s.seatState(p.Seat).Tally
	ch := card.Check
	switch ch.Kind {
	case CheckKillModels:
		return t.Kills-h.Baseline.Kills >= ch.N
	case CheckDestroyUnits:
		return t.UnitsDestroyed-h.Baseline.UnitsDestroyed >= ch.N
	case CheckKillWith:
		key := ch.Class
		if ch.Captured {
			key = "captured"
		}
		return t.ByClass[key]-h.Baseline.ByClass[key] >= ch.N
	case CheckAdvance:
		var edges []string
		for _, q := range s.Players {
			if q.Faction != p.Faction && !slices.Contains(edges, q.Edge) {
				edges = append(edges, q.Edge)
			}
		}
		for _, u := range s.Units {
			if u.Owner != p.Seat {
				continue
			}
			for _, m := range u.Models {
				if m.Removed || m.At == nil {
					continue
				}
				for _, e := range edges {
					far := Measure{Kroki: s.fromEdge(e, *m.At) + m.Base/2, Uncertainty: 2 * m.At.Sigma}
					if judge(far, float64(ch.N)) == inside {
						return true
					}
				}
			}
		}
	}
	return false
}

// countObjectives scores the active side's objectives at the end of its
// turn ("Zdobądź i utrzymaj"): one point for each it holds, that is, with a
// model within ObjectiveRadius kroki of the marker (base edge to marker
// centre) and no enemy model as close. Contested markers score for nobody.
func (s *State) countObjectives() ([]Event, error) {
	mine := s.factionOf(s.ActiveSeat())
	r := s.Options.ObjectiveRadius
	var held []string
	for oi := range s.Objectives {
		o := &s.Objectives[oi]
		// status: a model surely within, or else the first call to ask.
		status := func(own bool) (bool, error) {
			var pending error
			for _, u := range s.Units {
				if (u.Faction == mine) != own {
					continue
				}
				for _, m := range u.Models {
					if m.Removed || m.At == nil {
						continue
					}
					d := baseGap(*m.At, m.Base, o.At, 0)
					q := rules.Textf("czy %s stoi do %s kroków od %s?", "is %s within %s kroki of %s?", m.ID, fmtNum(r), o.ID)
					in, err := s.within("objective:"+o.ID+":"+m.ID, d, r, q)
					switch {
					case err != nil && pending == nil:
						pending = err
					case err == nil && in:
						return true, nil
					}
				}
			}
			return false, pending
		}
		// Enemy first: a sure enemy presence makes own calls unnecessary.
		enemy, errE := status(false)
		if errE == nil && enemy {
			if o.Holder == mine {
				o.Holder = ""
			}
			continue
		}
		own, errO := status(true)
		if errO == nil && !own {
			if o.Holder == mine {
				o.Holder = ""
			}
			continue
		}
		if errE != nil {
			return nil, errE
		}
		if errO != nil {
			return nil, errO
		}
		o.Holder = mine
		held = append(held, o.ID)
	}
	if len(held) == 0 {
		return nil, nil
	}
	sd := s.side(mine)
	sd.ObjectivePoints += len(held)
	return []Event{{Type: "objectives_held", Models: held,
		Text: rules.Textf("%[1]s utrzymuje %[2]s: +%[3]d pkt (razem %[4]d)", "%[1]s holds %[2]s: +%[5]s (%[4]d in all)", mine, strings.Join(held, ", "), len(held), sd.ObjectivePoints, enN(len(held), "point", "points"))}}, nil
}

// afterAction runs after every accepted action: order cards whose task is
// done score, and the game ends when a side has won.
func (s *State) afterAction() []Event {
	for i := range s.Sides {
		s.Sides[i].Alive = 0
	}
	for _, u := range s.Units {
		if sd := s.side(u.Faction); sd != nil {
			sd.Alive += u.Alive()
		}
	}
	if !s.playing() {
		return nil
	}
	evs := s.checkOrders()
	return append(evs, s.checkVictory()...)
}

// checkVictory ends the game when a side has reached the points its
// scenario asks for, or has no models left (in every scenario: a side with
// nothing on the table cannot hold or complete anything). Points are looked
// at first: when the last kill also completes the order target, the game is
// won by orders.
func (s *State) checkVictory() []Event {
	sc := s.Scenario
	if sc.holds() {
		for _, sd := range s.Sides {
			if sd.ObjectivePoints >= sc.PointsToWin {
				return s.finish(sd.Faction, WinObjectives, rules.Textf("zwycięża %s: %d pkt za utrzymane punkty (cel %d)", "%s wins: %d points for held objectives (target %d)",
					sd.Faction, sd.ObjectivePoints, sc.PointsToWin))
			}
		}
	}
	if sc.orders() {
		for _, sd := range s.Sides {
			if sd.OrderPoints >= sc.OrderPointsToWin {
				return s.finish(sd.Faction, WinOrders, rules.Textf("zwycięża %s: %d pkt z kart rozkazów (cel %d)", "%s wins: %d order card points (target %d)",
					sd.Faction, sd.OrderPoints, sc.OrderPointsToWin))
			}
		}
	}
	var standing []string
	for _, sd := range s.Sides {
		if sd.Alive > 0 {
			standing = append(standing, sd.Faction)
		}
	}
	switch len(standing) {
	case 0:
		return s.finish("", WinAnnihilation, rules.Textf("obie strony wybite: remis", "both sides wiped out: a draw"))
	case 1:
		return s.finish(standing[0], WinAnnihilation, rules.Textf("zwycięża %s: przeciwnik nie ma już modeli na polu walki", "%s wins: the enemy has no models left on the field", standing[0]))
	}
	return nil
}

// ScenarioPoints are a side's points in the scenario played: kill points in
// scenario 1, objective plus order points in the others.
func (s *State) ScenarioPoints(sd Side) int {
	if s.Scenario.Number == ScenarioAttrition {
		return sd.KillPoints
	}
	return sd.ObjectivePoints + sd.OrderPoints
}

// finishByRounds ends a game that reached Options.MaxRounds: the side with
// more scenario points wins (kill points in scenario 1, objective plus order
// points in the others); equal scores are a draw.
func (s *State) finishByRounds() []Event {
	score := s.ScenarioPoints
	best, winner, tie := -1, "", false
	var parts []string
	for _, sd := range s.Sides {
		v := score(sd)
		parts = append(parts, fmt.Sprintf("%s %d", sd.Faction, v))
		switch {
		case v > best:
			best, winner, tie = v, sd.Faction, false
		case v == best:
			tie = true
		}
	}
	if tie {
		return s.finish("", WinRounds, rules.Textf("koniec ostatniej rundy (%d): %s — remis", "the last round (%d) is over: %s — a draw", s.Round, strings.Join(parts, ", ")))
	}
	return s.finish(winner, WinRounds, rules.Textf("koniec ostatniej rundy (%d): %s — zwycięża %s", "the last round (%d) is over: %s — %s wins", s.Round, strings.Join(parts, ", "), winner))
}
