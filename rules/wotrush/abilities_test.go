package wotrush

import (
	"slices"
	"testing"
)

// TestEveryAbilityRefuses gives each ability and restriction of page 15 a
// direct test with at least one refusal: what its text allows happens, and
// what it does not allow is a typed rejection that leaves the state as it
// was. (TestAbilities covers the ordinary plays in more detail.)
func TestEveryAbilityRefuses(t *testing.T) {
	t.Run("Posiłki", func(t *testing.T) {
		// "Dobierz wskazaną liczbę kart z Garażu."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-02") // BT-2: Posiłki 1, light (armour 0)
		g := len(s.Player(1).Garage)
		// Armour 0 cannot defend, so skipping its ability plays nothing.
		wantRejection(t, s, PlayCard{Seat: 1, Card: "SU-02", Skip: true}, "nothing_to_play")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-02"})
		if len(s.Player(1).Hand) != 1 || len(s.Player(1).Garage) != g-1 {
			t.Errorf("Posiłki 1 drew %d (garage %d→%d)", len(s.Player(1).Hand), g, len(s.Player(1).Garage))
		}
		// The card is spent: not twice a turn.
		wantRejection(t, s, PlayCard{Seat: 1, Card: "SU-02"}, "not_in_hand")
		// Nothing left to draw anywhere: Posiłki draws nothing, no error.
		s = newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-05")
		p := s.Player(1)
		s.Scrapyard = append(s.Scrapyard, p.Garage...)
		p.Garage = nil
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-05"})
		if len(s.Player(1).Hand) != 0 {
			t.Errorf("drew from nowhere: %v", s.Player(1).Hand)
		}
		checkConservation(t, s)
	})
	t.Run("Rekrutacja", func(t *testing.T) {
		// "W tej turze możesz zakupić dowolną liczbę Pojazdów. Suma
		// surowców … musi być równa lub większa od sumy kosztów kart."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-06", "ENG-1-1", "ENG-1-2", "ENG-1-3")
		reserve(&s, "SU-21", "DE-01", "US-01", "FR-07")
		// Skipped (only defending), Recruitment is not had.
		s1, _ := mustApply(t, s, PlayCard{Seat: 1, Card: "SU-06", Skip: true})
		s1, _ = mustApply(t, s1, Defend{Seat: 1, Base: "BASE-1-1"})
		wantRejection(t, s1, Buy{Seat: 1, Cards: []string{"SU-21", "DE-01"}, Pay: []string{"ENG-1-1"}}, "second_purchase")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-06"})
		s, _ = mustApply(t, s, Defend{Seat: 1, Base: "BASE-1-1"})
		// The sum must cover the sum: 2 cards of cost 1 + 3 with 2.
		wantRejection(t, s, Buy{Seat: 1, Cards: []string{"DE-01", "FR-07"}, Pay: []string{"ENG-1-1", "ENG-1-2"}}, "too_little")
		s, _ = mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-21", "DE-01"}, Pay: []string{"ENG-1-1"}})
		s, _ = mustApply(t, s, Buy{Seat: 1, Cards: []string{"US-01"}, Pay: []string{"ENG-1-2"}})
		// A paying card pays once.
		wantRejection(t, s, Buy{Seat: 1, Cards: []string{s.Reserve[0]}, Pay: []string{"ENG-1-1"}}, "not_in_hand")
		if s.Purchases != 2 {
			t.Errorf("purchases %d", s.Purchases)
		}
		checkConservation(t, s)
	})
	t.Run("Zwiad", func(t *testing.T) {
		// "Odłóż wszystkie karty z Rezerwy na stos odrzuconych … i dobierz
		// 4 nowe karty."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-01", "DE-07")
		reserve(&s, "DE-01", "SU-07", "US-01", "FR-01")
		wantRejection(t, s, PlayCard{Seat: 1, Card: "SU-01", Skip: true}, "nothing_to_play")
		// Not in the middle of another card's play.
		s1, _ := mustApply(t, s, PlayCard{Seat: 1, Card: "DE-07"})
		wantRejection(t, s1, PlayCard{Seat: 1, Card: "SU-01"}, "awaiting_decision")
		top := slices.Clone(s.Deck[:4])
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-01"})
		if !slices.Equal(s.Reserve, top) {
			t.Errorf("Reserve %v, want the deck's top 4 %v", s.Reserve, top)
		}
		checkConservation(t, s)
	})
	t.Run("Sabotaż", func(t *testing.T) {
		// "Każdy z twoich przeciwników musi odłożyć jedną wybraną kartę ze
		// swojej ręki do swojego Magazynu. Gracze nie mogą uzupełnić puli
		// kart na ręce."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-04")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-04"})
		victim := s.Player(2).Hand[0]
		// The victim chooses (default): not the saboteur.
		wantRejection(t, s, Discard{Seat: 1, Card: victim}, "not_your_decision")
		wantRejection(t, s, EndTurn{Seat: 1}, "awaiting_decision")
		wantRejection(t, s, Discard{Seat: 2, Card: "SU-04"}, "illegal_choice")
		s, _ = mustApply(t, s, Discard{Seat: 2, Card: victim})
		if len(s.Player(2).Hand) != 2 || !slices.Contains(magazine(s, 2), victim) {
			t.Errorf("victim's hand %v", s.Player(2).Hand)
		}
		checkConservation(t, s)
	})
	t.Run("Oblężenie", func(t *testing.T) {
		// "Wybierz wrogą Bazę lub broniący wrogą Bazę Pojazd."
		s := newGame(t, 2, 1, Options{})
		defendWith(&s, 1, 1, "SU-07")
		defendWith(&s, 2, 0, "DE-07")
		hand(&s, 1, "SU-16")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-16"})
		wantRejection(t, s, Siege{Seat: 1, Target: "SU-07"}, "illegal_choice")    // own defender
		wantRejection(t, s, Siege{Seat: 1, Target: "BASE-1-2"}, "illegal_choice") // own base
		wantRejection(t, s, Siege{Seat: 1, Target: "DE-08"}, "illegal_choice")    // not on a base
		s, _ = mustApply(t, s, Siege{Seat: 1, Target: "DE-07"})
		if !s.Player(2).Bases[0].DefenderDamaged {
			t.Error("the defender is not damaged")
		}
	})
	t.Run("Badania", func(t *testing.T) {
		// "Weź kartę Pojazdu, której koszt nie przekracza wskazanej liczby
		// … Nie możesz połączyć Badań z surowcami pochodzącymi z innych
		// kart."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "TECH-1-1", "ENG-1-1")
		reserve(&s, "DE-01", "SU-07", "US-21", "FR-01")
		// Research 1 with an Engineer's 1 cannot reach a cost-3 card: the
		// Technicians do not pay, and the decision offers only cost ≤ 1.
		wantRejection(t, s, Buy{Seat: 1, Cards: []string{"SU-07"}, Pay: []string{"TECH-1-1", "ENG-1-1"}}, "no_resource_symbol")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "TECH-1-1"})
		wantRejection(t, s, Research{Seat: 1, Take: "SU-07"}, "illegal_choice")
		wantRejection(t, s, Buy{Seat: 1, Cards: []string{"SU-07"}, Pay: []string{"ENG-1-1"}}, "awaiting_decision")
		s, _ = mustApply(t, s, Research{Seat: 1, Take: "US-21"})
		if !slices.Contains(s.Scrapyard, "TECH-1-1") || !slices.Contains(magazine(s, 1), "US-21") {
			t.Errorf("scrapyard %v magazine %v", s.Scrapyard, magazine(s, 1))
		}
		checkConservation(t, s)
	})
	t.Run("Demontaż", func(t *testing.T) {
		// "Wybierz jedną lub dwie karty ze swojego Magazynu … nie odkładaj
		// na Złomowisko zagranej karty ze zdolnością Demontażu."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-24")
		p := s.Player(1)
		p.Magazine = append(p.Magazine, p.Garage[:3]...)
		p.Garage = p.Garage[3:]
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-24"})
		wantRejection(t, s, Dismantle{Seat: 1}, "out_of_range")
		wantRejection(t, s, Dismantle{Seat: 1, Cards: []string{"SU-24"}}, "illegal_choice")
		wantRejection(t, s, Dismantle{Seat: 1, Cards: []string{s.Player(2).Garage[0]}}, "illegal_choice")
		one := s.Pending.Options[0]
		wantRejection(t, s, Dismantle{Seat: 1, Cards: []string{one, one}}, "duplicate_card")
		s, _ = mustApply(t, s, Dismantle{Seat: 1, Cards: []string{one}})
		if !slices.Contains(s.Scrapyard, one) || slices.Contains(s.Scrapyard, "SU-24") {
			t.Errorf("scrapyard %v", s.Scrapyard)
		}
		checkConservation(t, s)
	})
	t.Run("Niezniszczalność", func(t *testing.T) {
		// "Weź kartę z jednym Medalem ze stosu kraju, który reprezentuje
		// karta Niezniszczalności."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-18", "SU-20")
		// Skipped (only defending): no medal.
		s1, _ := mustApply(t, s, PlayCard{Seat: 1, Card: "SU-18", Skip: true})
		s1, _ = mustApply(t, s1, Defend{Seat: 1, Base: "BASE-1-1"})
		if len(s1.pile("ussr").Singles) != 9 {
			t.Error("a skipped Niezniszczalność gave a medal")
		}
		wantRejection(t, s1, PlayCard{Seat: 1, Card: "SU-18"}, "not_in_hand")
		// Singles gone: nothing, not a double ("z jednym Medalem").
		p := s.pile("ussr")
		s.Box = append(s.Box, p.Singles...)
		p.Singles = nil
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-18"})
		if len(s.pile("ussr").Doubles) != 3 || s.EndTriggered {
			t.Errorf("pile %+v end %v", s.pile("ussr"), s.EndTriggered)
		}
		// The last single taken by Niezniszczalność ends the game.
		s = newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-20")
		p = s.pile("ussr")
		s.Box = append(s.Box, p.Singles[1:]...)
		p.Singles = p.Singles[:1]
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-20"})
		if !s.EndTriggered {
			t.Error("the ninth single taken did not trigger the end")
		}
		checkConservation(t, s)
	})
	t.Run("Dobra narodowe", func(t *testing.T) {
		// "Surowce z karty mogą zostać wykorzystane tylko do zakupu kart
		// reprezentujących wskazany kraj. … możesz połączyć surowce z Dóbr
		// narodowych z surowcami ze zwykłych kart."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-22", "ENG-1-1", "VOL-1-1")
		reserve(&s, "DE-07", "SU-10", "US-01", "FR-01")
		wantRejection(t, s, Buy{Seat: 1, Cards: []string{"DE-07"}, Pay: []string{"SU-22"}}, "too_little")
		wantRejection(t, s, Buy{Seat: 1, Cards: []string{"DE-07"}, Pay: []string{"SU-22", "ENG-1-1"}}, "too_little")
		// Soviet KV-13 (5) with ZiS-5 (3) + Engineer (1): 4 < 5.
		wantRejection(t, s, Buy{Seat: 1, Cards: []string{"SU-10"}, Pay: []string{"SU-22", "ENG-1-1"}}, "too_little")
		// Under Recruitment, a pool: the national 3 covers only the Soviet
		// share; US-01 needs the Engineer.
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "VOL-1-1"})
		reserve(&s, "DE-07", "SU-07", "US-01", "FR-01")
		wantRejection(t, s, Buy{Seat: 1, Cards: []string{"SU-07", "US-01"}, Pay: []string{"SU-22"}}, "too_little")
		mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-07", "US-01"}, Pay: []string{"SU-22", "ENG-1-1"}})
	})
	t.Run("only bases / only vehicles", func(t *testing.T) {
		// "Może być użyta tylko do ataku na Bazę" / "tylko do ataku na
		// Pojazd."
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-12", "SU-15")
		// No defender anywhere: an only-vehicles attacker has no target.
		wantRejection(t, s, Attack{Seat: 1, Cards: []string{"SU-12"}}, "no_target")
		// Every base defended: an only-bases attacker has no target.
		for i, id := range []string{"DE-07", "DE-08", "DE-09"} {
			defendWith(&s, 2, i, id)
		}
		wantRejection(t, s, Attack{Seat: 1, Cards: []string{"SU-15"}}, "no_target")
		s, _ = mustApply(t, s, Attack{Seat: 1, Cards: []string{"SU-12", "SU-15"}})
		wantRejection(t, s, Fire{Seat: 1, Attacker: "SU-15", Target: "DE-07"}, "only_bases")
		wantRejection(t, s, Fire{Seat: 1, Attacker: "SU-12", Target: "BASE-2-1"}, "defended_base")
		// Firepower 2 against armour 1: destroyed; the base is open.
		s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-12", Target: "DE-07"})
		if !slices.Contains(magazine(s, 2), "DE-07") {
			t.Error("the tank destroyer did not destroy the defender")
		}
		wantRejection(t, s, Fire{Seat: 1, Attacker: "SU-15", Target: "DE-08"}, "only_bases")
		s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-15", Target: "BASE-2-1"})
		if !s.Player(2).Bases[0].Damaged || s.Attack != nil {
			t.Errorf("base %+v, attack %+v", s.Player(2).Bases[0], s.Attack)
		}
		checkConservation(t, s)
	})
}

// TestTurnDoubles: Ania destroys one vehicle by Siege and one by her attack
// in the same turn, both Soviet. By default they are two awards (the
// attack's "po skończonym ataku", Siege's "na koniec tury"): two singles.
// With turn_doubles (the medal card: "w jednej turze zniszczy dwa") they
// count together at the end of the turn: one double.
func TestTurnDoubles(t *testing.T) {
	for _, c := range []struct {
		name string
		o    Options
		want []string
	}{
		{"default: two awards", Options{}, []string{"OCS-1-01", "OCS-1-02"}},
		{"turn_doubles", Options{TurnDoubles: true}, []string{"OCS-2-01"}},
		{"turn_doubles, medals singles", Options{TurnDoubles: true, Medals: "singles"}, []string{"OCS-1-01", "OCS-1-02"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newGame(t, 2, 1, c.o)
			defendWith(&s, 2, 0, "DE-01")
			s.Player(2).Bases[0].DefenderDamaged = true
			defendWith(&s, 2, 1, "DE-02")
			hand(&s, 1, "SU-16", "SU-07")
			s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-16"})
			s, _ = mustApply(t, s, Siege{Seat: 1, Target: "DE-01"})
			// SU-16 is armoured: it defends a base after its abilities.
			s, _ = mustApply(t, s, Defend{Seat: 1, Base: "BASE-1-1"})
			s, _ = mustApply(t, s, Attack{Seat: 1, Cards: []string{"SU-07"}})
			s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-07", Target: "DE-02"})
			if s.Player(1).VehiclesDestroyed != 2 {
				t.Fatalf("vehicles destroyed %d, want 2 (Siege and attack)", s.Player(1).VehiclesDestroyed)
			}
			s, _ = mustApply(t, s, EndTurn{Seat: 1})
			var got []string
			for _, id := range s.Squad(1) {
				if s.Cards[id].Kind == KindMedal {
					got = append(got, id)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("medals %v, want %v", got, c.want)
			}
			checkConservation(t, s)
		})
	}
}
