package wotrush

import (
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
)

// endTurn starts the end of the turn: Siege medals first ("Na koniec tury
// otrzymujesz 1 Medal za każdy Pojazd zniszczony za pomocą karty
// Oblężenia"), then phase III.
func (s *State) endTurn() ([]Event, error) {
	if err := s.busy(); err != nil {
		return nil, err
	}
	s.Ending = true
	return s.finishTurn(), nil
}

// finishTurn hands out the Siege medals still owed (stopping for a
// TakeMedals answer) and plays phase III: the farthest Reserve card to the
// discards, the row slides, a new card next to the deck; the unplayed
// cards to the Magazine; three new cards.
func (s *State) finishTurn() []Event {
	var evs []Event
	for len(s.SiegeKills) > 0 {
		k := s.SiegeKills[0]
		s.SiegeKills = s.SiegeKills[1:]
		evs = append(evs, s.medals(s.Active, k.Nation, k.N)...)
		if s.Pending != nil {
			return evs
		}
	}
	s.Ending = false
	p := s.Player(s.Active)
	if n := len(s.Reserve); n > 0 {
		far := s.Reserve[n-1]
		s.Reserve = s.Reserve[:n-1]
		s.Discard = append(s.Discard, far)
		evs = append(evs, Event{Type: "reserve_discarded", Card: far,
			Text: rules.Textf("Z Rezerwy odrzucony: %[1]s", "Discarded from the Reserve: %[3]s", s.cardName(far), far, s.cardNameEN(far), far)})
		s.refill(&evs)
	}
	if len(p.Hand) > 0 {
		evs = append(evs, Event{Type: "unplayed", Seat: p.Seat, Cards: slices.Clone(p.Hand),
			Text: rules.Textf("%[1]s: niezagrane do Magazynu: %[2]s", "%[3]s: unplayed, to the Magazine: %[4]s", p.Name, s.names(p.Hand), p.Name, s.namesEN(p.Hand))})
		p.Magazine = append(p.Magazine, p.Hand...)
		p.Hand = nil
	}
	evs = append(evs, s.draw(p.Seat, s.HandLimit)...)
	s.Used, s.Purchases, s.Recruitment, s.Attacked, s.Acted = nil, 0, false, false, false
	evs = append(evs, Event{Type: "turn_ended", Seat: p.Seat, Text: rules.Textf("%s kończy turę", "%s ends the turn", p.Name)})
	if s.EndTriggered && s.Active == s.lastSeat() {
		return append(evs, s.score()...)
	}
	s.Active = s.next(s.Active)
	if s.Active == s.First {
		s.Round++
	}
	s.Turn++
	return append(evs, s.startTurn()...)
}

// DeclareEnd is the referee ending a game that cannot end by the rules.
// The rulebook's only ends are a player's last base destroyed and the
// ninth single medal taken ("Gra dobiega końca w jednym z następujących
// przypadków"); it has no rule for a game where neither can happen any
// more (squads scrapped by Demontaż and Badania, nobody able to attack or
// buy). The engine does not guess at that: the table's referee declares
// the end, between turns (before the active player has done anything in
// step II, so no card is half played and no medal is owed), and the game
// is scored exactly as at the normal end. It is no player's action: it
// carries no seat and LegalActions does not list it.
type DeclareEnd struct {
	// Reason is shown in the event (optional).
	Reason string `json:"reason,omitempty"`
}

func (DeclareEnd) Type() string { return "declare_end" }

func (s *State) declareEnd(a DeclareEnd) ([]Event, error) {
	if err := s.busy(); err != nil {
		return nil, err
	}
	if s.Acted {
		return nil, rules.Reject("mid_turn", "koniec gry można ogłosić tylko między turami (%s już gra)", "the end can only be declared between turns (%s has already played)", s.name(s.Active))
	}
	why := a.Reason
	if why == "" {
		why = "—"
	}
	evs := []Event{{Type: "end_declared", Seat: s.Active,
		Text: rules.Textf("Sędzia kończy grę przed turą gracza %[1]s: %[2]s", "The referee ends the game before %[1]s's turn: %[2]s", s.name(s.Active), why)}}
	return append(evs, s.score()...), nil
}

// triggerEnd notes that the game ends with this round: the player to the
// right of the first player plays last.
func (s *State) triggerEnd(why rules.Text) []Event {
	if s.EndTriggered {
		return nil
	}
	s.EndTriggered = true
	last := s.name(s.lastSeat())
	return []Event{{Type: "end_triggered",
		Text: rules.Textf("Koniec gry: %[1]s; ostatnią turę gra %[2]s", "The game ends: %[3]s; %[2]s plays the last turn", why.PL, last, why.EN)}}
}

// AchievementCount is what an achievement counts for a player at the end
// (the 12 cards on the rulebook's last pages):
//   - 1 "gracz, który zniszczył najwięcej Baz": the running counter (attack
//     and Siege), not the base cards still in the squad;
//   - 2–6 "najwięcej Lekkich Czołgów [Czołgów Średnich, Dział Samobieżnych,
//     Ciężkich Czołgów, Jednostek Pomocniczych] w swoim oddziale,
//     niezależnie od kraju": vehicles of the class in the squad (both
//     self-propelled icons; barracks are not support units);
//   - 7–10 "najwięcej Orderów Czerwonego Sztandaru [Żelaznych Krzyży, Medali
//     Honoru, Médailles Militaires]": medals of the nation, a double counts
//     2 (option medal_achievement "cards": medal cards);
//   - 11 "najwięcej kart z dwoma Medalami": double medal cards, any nation;
//   - 12 "najwięcej kart w swoim oddziale, wliczając karty Medali i
//     zniszczonych Baz": the squad's size.
//
// The squad is "ręka, Garaż i Magazyn" ("ocalałe Bazy gracza nie są częścią
// oddziału"), defenders only with option defenders_in_squad.
func (s *State) AchievementCount(seat int, ac AchievementCard) int {
	p := s.Player(seat)
	n := 0
	switch ac.Most {
	case MostBasesDestroyed:
		return p.BasesDestroyed
	case MostSquad:
		return len(s.Squad(seat))
	}
	for _, id := range s.Squad(seat) {
		c := s.Cards[id]
		switch ac.Most {
		case MostClass:
			if c.Kind == KindVehicle && c.Class == ac.Class {
				n++
			}
		case MostMedals:
			if c.Kind == KindMedal && c.Nation == ac.Nation {
				if s.Options.MedalAchievement == "cards" {
					n++
				} else {
					n += c.Medals
				}
			}
		case MostDoubleMedals:
			if c.Kind == KindMedal && c.Medals == 2 {
				n++
			}
		}
	}
	return n
}

// score ends the game: achievements one by one (a tie at the top: nobody),
// then medals, 3 per captured base, 5 per achievement (the points the
// data files give: a base card's and achievement_points); ties broken by
// vehicles destroyed, bases destroyed, achievements; a full tie is a
// shared win.
func (s *State) score() []Event {
	var evs []Event
	for _, id := range s.Achievements {
		ac := s.Cards[id].Achievement
		best, who := -1, []int{}
		for _, p := range s.Players {
			n := s.AchievementCount(p.Seat, *ac)
			switch {
			case n > best:
				best, who = n, []int{p.Seat}
			case n == best:
				who = append(who, p.Seat)
			}
		}
		name := s.Cards[id].Name
		if len(who) == 1 {
			w := s.Player(who[0])
			w.Won = append(w.Won, id)
			evs = append(evs, Event{Type: "achievement", Seat: w.Seat, Card: id, N: best,
				Text: rules.Textf("%[1]s: zdobywa %[2]s (%[3]d)", "%[4]s: won by %[2]s (%[3]d)", name.PL, w.Name, best, name.EN)})
		} else {
			evs = append(evs, Event{Type: "achievement", Card: id, N: best,
				Text: rules.Textf("%[1]s: remis (%[2]d) — nikt", "%[3]s: a tie (%[2]d) — nobody", name.PL, best, name.EN)})
		}
	}
	// Achievement cards won leave the table's list of achievements in play.
	for _, p := range s.Players {
		for _, id := range p.Won {
			s.Achievements = removeOne(s.Achievements, id)
		}
	}
	res := &Result{}
	for _, p := range s.Players {
		sc := Score{Seat: p.Seat, Achievements: slices.Clone(p.Won), VehiclesDestroyed: p.VehiclesDestroyed, BasesDestroyed: p.BasesDestroyed}
		if sc.Achievements == nil {
			sc.Achievements = []string{}
		}
		squad := s.Squad(p.Seat)
		sc.Squad = len(squad)
		for _, id := range squad {
			c := s.Cards[id]
			switch c.Kind {
			case KindMedal:
				sc.MedalPoints += c.Medals
			case KindBase:
				sc.BasePoints += c.Points
			}
		}
		for _, id := range p.Won {
			sc.AchievementPoints += s.Cards[id].Points
		}
		sc.Total = sc.MedalPoints + sc.BasePoints + sc.AchievementPoints
		res.Scores = append(res.Scores, sc)
	}
	better := func(a, b Score) int { // >0: a ahead
		for _, d := range []int{a.Total - b.Total, a.VehiclesDestroyed - b.VehiclesDestroyed, a.BasesDestroyed - b.BasesDestroyed, len(a.Achievements) - len(b.Achievements)} {
			if d != 0 {
				return d
			}
		}
		return 0
	}
	top := res.Scores[0]
	for _, sc := range res.Scores[1:] {
		if better(sc, top) > 0 {
			top = sc
		}
	}
	var names []string
	for _, sc := range res.Scores {
		if better(sc, top) == 0 {
			res.Winners = append(res.Winners, sc.Seat)
			names = append(names, s.name(sc.Seat))
		}
		evs = append(evs, Event{Type: "score", Seat: sc.Seat, N: sc.Total,
			Text: rules.Textf("%[1]s: %[2]d (medale %[3]d, bazy %[4]d, osiągnięcia %[5]d; zniszczone pojazdy %[6]d, bazy %[7]d)",
				"%[1]s: %[2]d (medals %[3]d, bases %[4]d, achievements %[5]d; destroyed vehicles %[6]d, bases %[7]d)",
				s.name(sc.Seat), sc.Total, sc.MedalPoints, sc.BasePoints, sc.AchievementPoints, sc.VehiclesDestroyed, sc.BasesDestroyed)})
	}
	if len(names) == 1 {
		res.Text = rules.Textf("Wygrywa %s", "%s wins", names[0])
	} else {
		res.Text = rules.Textf("Wspólne zwycięstwo: %s", "A shared win: %s", strings.Join(names, ", "))
	}
	s.Result = res
	s.Phase = PhaseOver
	r := *res
	evs = append(evs, Event{Type: "game_over", Result: &r, Text: res.Text})
	return evs
}
