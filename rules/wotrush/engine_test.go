package wotrush

import (
	"slices"
	"testing"
)

// Cards of the assumed list used below: SU-06 T-28 medium recruitment;
// SU-07 A-20 medium, no ability; SU-12 SU-76 td only_vehicles; SU-15 SU-5
// artillery siege only_bases; SU-17 KV-1 heavy res 0; SU-18 KV-2 heavy
// indestructible; SU-21 GAZ-AA support cost 0 fp 0; SU-22 ZiS-5 national
// goods 3; SU-23 research 3; SU-24 ZiS-6 dismantle 2; SU-01 MS-1 light
// scout; SU-04 BT-7 light sabotage; SU-05 T-50 light reinforcements 2;
// DE-07 medium; DE-17 heavy res 0; US-07 medium.

func TestPurchaseExample(t *testing.T) {
	// "Gracz używa dwóch kart o łącznej wartości 3 surowców (a). Kupuje
	// kartę z Rezerwy o koszcie 3 (b). Następnie uzupełnia Rezerwę nową
	// kartą ze stosu Pojazdów (c)."
	s := newGame(t, 2, 1, Options{})
	hand(&s, 1, "ENG-1-1", "SU-09") // 1 + 2 resources
	reserve(&s, "DE-01", "SU-07", "US-01", "FR-01")
	top := s.Deck[0]
	next, evs := mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-07"}, Pay: []string{"ENG-1-1", "SU-09"}})
	if got := magazine(next, 1); !slices.Equal(got[len(got)-1:], []string{"SU-07"}) {
		t.Errorf("the bought card is not on top of the Magazine: %v", got)
	}
	if want := []string{top, "DE-01", "US-01", "FR-01"}; !slices.Equal(next.Reserve, want) {
		t.Errorf("Reserve %v, want %v (slid away from the deck, new card next to it)", next.Reserve, want)
	}
	if len(evs) == 0 || evs[0].Type != "bought" {
		t.Errorf("events %+v", evs)
	}
	checkConservation(t, next)
}

func TestBadPurchases(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	hand(&s, 1, "ENG-1-1", "VOL-1-1", "SU-17", "TECH-1-1")
	reserve(&s, "SU-21", "SU-07", "DE-07", "SU-06")
	cases := []struct {
		name string
		a    Buy
		code string
	}{
		// FAQ: "Nie można zakupić karty z Rezerwy „za darmo”, nawet gdy
		// jej koszt wynosi 0."
		{"cost 0 not free", Buy{Seat: 1, Cards: []string{"SU-21"}}, "free_purchase"},
		// "nie może użyć karty bez symbolu surowca (np. karty
		// Wolontariuszy, czy zniszczonej Bazy)"
		{"volunteers cannot pay", Buy{Seat: 1, Cards: []string{"SU-21"}, Pay: []string{"VOL-1-1"}}, "no_resource_symbol"},
		{"research is no resource", Buy{Seat: 1, Cards: []string{"SU-21"}, Pay: []string{"TECH-1-1"}}, "no_resource_symbol"},
		{"too little", Buy{Seat: 1, Cards: []string{"SU-07"}, Pay: []string{"ENG-1-1"}}, "too_little"},
		{"two without recruitment", Buy{Seat: 1, Cards: []string{"SU-21", "SU-07"}, Pay: []string{"ENG-1-1"}}, "second_purchase"},
		{"not in reserve", Buy{Seat: 1, Cards: []string{"FR-20"}, Pay: []string{"ENG-1-1"}}, "not_in_reserve"},
		{"unknown card", Buy{Seat: 1, Cards: []string{"XX-99"}, Pay: []string{"ENG-1-1"}}, "unknown_card"},
		{"card not in hand", Buy{Seat: 1, Cards: []string{"SU-21"}, Pay: []string{"ENG-1-2"}}, "not_in_hand"},
		{"base card", Buy{Seat: 1, Cards: []string{"SU-21"}, Pay: []string{"BASE-1-1"}}, "base_card"},
		{"not your turn", Buy{Seat: 2, Cards: []string{"SU-21"}, Pay: []string{"ENG-2-1"}}, "not_your_turn"},
		{"no such seat", Buy{Seat: 9, Cards: []string{"SU-21"}, Pay: []string{"ENG-1-1"}}, "unknown_seat"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantRejection(t, s, c.a, c.code) })
	}
	// FAQ: "Gracz może użyć karty z symbolem surowca o wartości 0" — a
	// 0-resource heavy pays for the cost-0 card.
	next, _ := mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-21"}, Pay: []string{"SU-17"}})
	// Without Recruitment a second purchase is refused.
	wantRejection(t, next, Buy{Seat: 1, Cards: []string{"SU-07"}, Pay: []string{"ENG-1-1"}}, "second_purchase")
	// Each vehicle once a turn: the heavy that paid cannot attack.
	wantRejection(t, next, Attack{Seat: 1, Cards: []string{"SU-17"}}, "not_in_hand")
}

func TestRecruitmentBuysMany(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	hand(&s, 1, "VOL-1-1", "ENG-1-1", "ENG-1-2", "SU-09", "SU-22")
	reserve(&s, "SU-21", "SU-07", "DE-02", "SU-06")
	s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "VOL-1-1"})
	if !s.Recruitment {
		t.Fatal("Volunteers did not give Recruitment")
	}
	// Dobra narodowe (ZiS-5, 3 for Soviet cards) with an Engineer pays for
	// SU-07 (3) and SU-21 (0): "Suma surowców … równa lub większa od sumy
	// kosztów".
	s, _ = mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-07", "SU-21"}, Pay: []string{"SU-22"}})
	// National goods cannot pay for a German card; ordinary resources can.
	wantRejection(t, s, Buy{Seat: 1, Cards: []string{"DE-02"}, Pay: []string{"ENG-1-1"}}, "too_little")
	s, _ = mustApply(t, s, Buy{Seat: 1, Cards: []string{"DE-02"}, Pay: []string{"ENG-1-1", "ENG-1-2"}})
	if s.Purchases != 2 {
		t.Errorf("purchases %d", s.Purchases)
	}
	checkConservation(t, s)
}

func TestNationalGoodsOnlyForTheirNation(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	hand(&s, 1, "SU-22")
	reserve(&s, "DE-01", "SU-01", "US-01", "FR-01")
	wantRejection(t, s, Buy{Seat: 1, Cards: []string{"DE-01"}, Pay: []string{"SU-22"}}, "too_little")
	mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-01"}, Pay: []string{"SU-22"}})
}

func TestRecruitmentDefenceExample(t *testing.T) {
	// "Gracz przeprowadza akcje wynikające ze zdolności Rekrutacji karty i
	// umieszcza Pojazd na karcie Bazy w celu jej obrony (a), przenosząc
	// leżące wcześniej na niej Działo Samobieżne do Magazynu (b)."
	s := newGame(t, 2, 1, Options{})
	defendWith(&s, 1, 0, "SU-12")
	defendWith(&s, 1, 1, "SU-07")
	defendWith(&s, 1, 2, "DE-07")
	hand(&s, 1, "SU-06")
	s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-06"})
	if !s.Recruitment || s.Pending == nil || s.Pending.Kind != DecideDefend || len(s.Pending.Options) != 3 {
		t.Fatalf("want Recruitment and a defence choice among 3 bases, got %+v", s.Pending)
	}
	wantRejection(t, s, Buy{Seat: 1, Cards: []string{s.Reserve[0]}, Pay: []string{"ENG-1-1"}}, "awaiting_decision")
	s, _ = mustApply(t, s, Defend{Seat: 1, Base: "BASE-1-1"})
	if s.Player(1).Bases[0].Defender != "SU-06" || !slices.Contains(magazine(s, 1), "SU-12") {
		t.Errorf("the SPG was not replaced: %+v, magazine %v", s.Player(1).Bases, magazine(s, 1))
	}
	checkConservation(t, s)
}

func TestDefenceRules(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	defendWith(&s, 1, 0, "SU-12")
	hand(&s, 1, "SU-07", "SU-06", "ENG-1-1", "SU-01", "OCS-1-01")
	// Two undefended bases: a choice between them only.
	s1, _ := mustApply(t, s, PlayCard{Seat: 1, Card: "SU-07"})
	if s1.Pending == nil || slices.Contains(s1.Pending.Options, "BASE-1-1") {
		t.Fatalf("pending %+v", s1.Pending)
	}
	wantRejection(t, s1, Defend{Seat: 1, Base: "BASE-1-1"}, "illegal_choice")
	wantRejection(t, s1, Defend{Seat: 2, Base: "BASE-1-2"}, "not_your_decision")
	// Skip the abilities, defend only ("ignorując je").
	s2, _ := mustApply(t, s, PlayCard{Seat: 1, Card: "SU-06", Skip: true})
	if s2.Recruitment {
		t.Error("skipped Recruitment was used")
	}
	// Engineers, medals and armour 0 never defend.
	wantRejection(t, s, PlayCard{Seat: 1, Card: "ENG-1-1"}, "nothing_to_play")
	wantRejection(t, s, PlayCard{Seat: 1, Card: "OCS-1-01"}, "nothing_to_play")
	wantRejection(t, s, PlayCard{Seat: 1, Card: "SU-01", Skip: true}, "nothing_to_play")
	// A light tank (armour 0) goes to the Magazine after its Scout.
	s3, _ := mustApply(t, s, PlayCard{Seat: 1, Card: "SU-01"})
	if !slices.Contains(magazine(s3, 1), "SU-01") || s3.Pending != nil {
		t.Errorf("light tank not in the Magazine: %v", magazine(s3, 1))
	}
	// The last undefended base: no choice, defended at once.
	s4, _ := mustApply(t, s1, Defend{Seat: 1, Base: "BASE-1-2"})
	s4, _ = mustApply(t, s4, PlayCard{Seat: 1, Card: "SU-06"})
	if s4.Pending != nil || s4.Player(1).Bases[2].Defender != "SU-06" {
		t.Errorf("bases %+v pending %+v", s4.Player(1).Bases, s4.Pending)
	}
	// A vehicle played twice in a turn.
	wantRejection(t, s4, PlayCard{Seat: 1, Card: "SU-06"}, "not_in_hand")
	checkConservation(t, s4)
}

func TestAttack(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	defendWith(&s, 2, 0, "DE-17") // heavy, armour 2
	hand(&s, 1, "SU-07", "SU-08", "SU-17", "DE-07", "SU-21", "SU-15", "SU-12")
	wantRejection(t, s, Attack{Seat: 1, Cards: []string{"SU-07", "DE-07"}}, "mixed_nations")
	wantRejection(t, s, Attack{Seat: 1, Cards: []string{"SU-21"}}, "firepower_zero")
	wantRejection(t, s, Attack{Seat: 1, Cards: []string{"ENG-1-1"}}, "not_in_hand")
	wantRejection(t, s, Attack{Seat: 1, Cards: []string{"ZZ"}}, "unknown_card")
	s, _ = mustApply(t, s, Attack{Seat: 1, Cards: []string{"SU-07", "SU-08", "SU-17", "SU-15", "SU-12"}})
	// Defended base: cannot be attacked.
	wantRejection(t, s, Fire{Seat: 1, Attacker: "SU-07", Target: "BASE-2-1"}, "defended_base")
	wantRejection(t, s, Fire{Seat: 1, Attacker: "SU-15", Target: "DE-17"}, "only_bases")
	wantRejection(t, s, Fire{Seat: 1, Attacker: "SU-12", Target: "BASE-2-2"}, "only_vehicles")
	wantRejection(t, s, Fire{Seat: 1, Attacker: "SU-07", Target: "BASE-1-2"}, "illegal_target")
	wantRejection(t, s, Fire{Seat: 1, Attacker: "DE-07", Target: "BASE-2-2"}, "not_attacking")
	wantRejection(t, s, EndTurn{Seat: 1}, "awaiting_decision")
	// Firepower 1 against armour 2: damaged; hit again: destroyed.
	s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-07", Target: "DE-17"})
	if !s.Player(2).Bases[0].DefenderDamaged {
		t.Fatal("the heavy is not damaged")
	}
	s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-08", Target: "DE-17"})
	if s.Player(2).Bases[0].Defender != "" || !slices.Contains(magazine(s, 2), "DE-17") {
		t.Fatal("the destroyed heavy is not in its owner's Magazine")
	}
	// Now the base is open; a medium damages a base, the heavy destroys one
	// at once.
	// SU-12 (only vehicles) has no vehicle left to hit: it fires at
	// nothing when the others are done.
	s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-17", Target: "BASE-2-2"})
	if len(s.Player(2).Bases) != 2 || !slices.Contains(magazine(s, 1), "BASE-2-2") {
		t.Fatalf("the heavy did not destroy the base at once: %+v", s.Player(2).Bases)
	}
	s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-15", Target: "BASE-2-1"})
	if !s.Player(2).Bases[0].Damaged {
		t.Fatal("the base is not damaged")
	}
	if s.Attack != nil || s.Pending != nil {
		t.Fatalf("the attack is not over: %+v", s.Attack)
	}
	// One vehicle destroyed: one single from the Soviet pile, nothing for
	// the base.
	if got := s.pile("ussr"); len(got.Singles) != 8 || len(got.Doubles) != 3 {
		t.Errorf("pile %+v", got)
	}
	if s.Player(1).VehiclesDestroyed != 1 || s.Player(1).BasesDestroyed != 1 {
		t.Errorf("counters %+v", s.Player(1))
	}
	hand(&s, 1, "SU-10")
	wantRejection(t, s, Attack{Seat: 1, Cards: []string{"SU-10"}}, "second_attack")
	checkConservation(t, s)
	// The damage lasts through other turns; the owner repairs it.
	s, _ = mustApply(t, s, EndTurn{Seat: 1})
	if s.Player(2).Bases[0].Damaged {
		t.Error("the base was not repaired at its owner's turn")
	}
}

func TestMedalReward(t *testing.T) {
	for _, c := range []struct {
		name           string
		o              Options
		singles, kills int
		doubles        int
		wantS, wantD   int // medal cards taken
		wantEnd        bool
	}{
		// "Przykład nagrody": three vehicles destroyed by Soviet tanks →
		// one double and one single Order of the Red Banner.
		{"reward example", Options{}, 9, 3, 3, 1, 1, false},
		{"singles option", Options{Medals: "singles"}, 9, 3, 3, 3, 0, false},
		{"doubles gone: singles", Options{}, 9, 2, 0, 2, 0, false},
		// FAQ: "Gracz nie otrzymuje Medalu."
		{"empty pile: nothing", Options{}, 0, 1, 0, 0, 0, false},
		{"one owed, only doubles: nothing", Options{}, 0, 1, 2, 0, 0, false},
		{"one owed, only doubles: option double", Options{OddMedal: "double"}, 0, 1, 2, 0, 1, false},
		{"the ninth single ends the game", Options{}, 1, 1, 0, 1, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newGame(t, 2, 1, c.o)
			p := s.pile("ussr")
			for len(p.Singles) > c.singles {
				s.Box = append(s.Box, p.Singles[0]) // out of play for the test
				p.Singles = p.Singles[1:]
			}
			for len(p.Doubles) > c.doubles {
				s.Box = append(s.Box, p.Doubles[0])
				p.Doubles = p.Doubles[1:]
			}
			before := len(magazine(s, 1))
			s.medals(1, "ussr", c.kills)
			var gotS, gotD int
			for _, id := range magazine(s, 1)[before:] {
				if s.Cards[id].Medals == 2 {
					gotD++
				} else {
					gotS++
				}
			}
			if gotS != c.wantS || gotD != c.wantD || s.EndTriggered != c.wantEnd {
				t.Errorf("got %d singles, %d doubles, end %v; want %d, %d, %v", gotS, gotD, s.EndTriggered, c.wantS, c.wantD, c.wantEnd)
			}
		})
	}
}

func TestChooseMedals(t *testing.T) {
	s := newGame(t, 2, 1, Options{Medals: "choose"})
	defendWith(&s, 2, 0, "DE-07")
	defendWith(&s, 2, 1, "DE-08")
	hand(&s, 1, "SU-16", "SU-14")
	s, _ = mustApply(t, s, Attack{Seat: 1, Cards: []string{"SU-16", "SU-14"}})
	s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-16", Target: "DE-07"})
	s, _ = mustApply(t, s, Fire{Seat: 1, Attacker: "SU-14", Target: "DE-08"})
	if s.Pending == nil || s.Pending.Kind != DecideTakeMedals || s.Pending.Max != 1 {
		t.Fatalf("pending %+v", s.Pending)
	}
	wantRejection(t, s, TakeMedals{Seat: 1, Doubles: 2}, "out_of_range")
	s, _ = mustApply(t, s, TakeMedals{Seat: 1, Doubles: 0})
	if got := len(s.pile("ussr").Singles); got != 7 {
		t.Errorf("singles left %d, want 7", got)
	}
}

func TestAchievementsInPlay(t *testing.T) {
	// "w grze 5-osobowej należy przygotować 6 kart Osiągnięć"
	for n := 2; n <= 5; n++ {
		s := newGame(t, n, 3, Options{})
		if len(s.Achievements) != n+1 || len(s.Box) != 12-n-1 {
			t.Errorf("%d players: %d achievements in play, %d in the box", n, len(s.Achievements), len(s.Box))
		}
	}
}

func TestAchievementTieIsNobody(t *testing.T) {
	cat := defaultCat(t)
	st, err := cat.NewGame(Setup{Players: []PlayerInfo{{1, "A"}, {2, "B"}, {3, "C"}}, First: 1, Seed: 1,
		Achievements: []string{"ACH-02", "ACH-05", "ACH-07", "ACH-12"}})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := mustApply(t, State{}, st)
	// Two light tanks each for A and B, one for C: a tie — nobody.
	for _, id := range []string{"SU-01", "DE-01"} {
		take(&s, id)
		s.Player(1).Magazine = append(s.Player(1).Magazine, id)
	}
	for _, id := range []string{"US-01", "FR-01"} {
		take(&s, id)
		s.Player(2).Magazine = append(s.Player(2).Magazine, id)
	}
	// A has the only heavy; Soviet medals: B has a double (2 medals), A two
	// singles in medals count (2) — a tie; with "cards" A wins (2 cards).
	take(&s, "SU-17")
	s.Player(1).Magazine = append(s.Player(1).Magazine, "SU-17")
	for _, id := range []string{"OCS-1-01", "OCS-1-02"} {
		take(&s, id)
		s.Player(1).Magazine = append(s.Player(1).Magazine, id)
	}
	take(&s, "OCS-2-01")
	s.Player(2).Magazine = append(s.Player(2).Magazine, "OCS-2-01")
	for _, mode := range []string{"medals", "cards"} {
		c := s.clone()
		c.Options.MedalAchievement = mode
		c.score()
		want1 := []string{"ACH-05", "ACH-12"}
		if mode == "cards" {
			want1 = []string{"ACH-05", "ACH-07", "ACH-12"}
		}
		if !slices.Equal(c.Player(1).Won, want1) || len(c.Player(2).Won) != 0 {
			t.Errorf("%s: A won %v, B %v; want A %v", mode, c.Player(1).Won, c.Player(2).Won, want1)
		}
		if c.Phase != PhaseOver || c.Result == nil {
			t.Fatal("not scored")
		}
	}
	// Largest squad (ACH-12) counts hand + Garage + Magazine: A has 11.
	if n := s.AchievementCount(1, *s.Cards["ACH-12"].Achievement); n != 6+2+1+2 {
		t.Errorf("A's squad %d", n)
	}
}

func TestScoringAndTieBreaks(t *testing.T) {
	s := newGame(t, 3, 1, Options{})
	s.Achievements = nil
	// A: a base (3); B: three singles (3), more vehicles destroyed: B wins
	// the tie on medals.
	take(&s, "BASE-3-1")
	s.Players[2].Bases = s.Players[2].Bases[1:]
	s.Player(1).Magazine = append(s.Player(1).Magazine, "BASE-3-1")
	for _, id := range []string{"ZK-1-01", "ZK-1-02", "ZK-1-03"} {
		take(&s, id)
		s.Player(2).Magazine = append(s.Player(2).Magazine, id)
	}
	s.Player(2).VehiclesDestroyed = 3
	s.Player(1).BasesDestroyed = 1
	c := s.clone()
	c.score()
	if !slices.Equal(c.Result.Winners, []int{2}) || c.Result.Scores[0].Total != 3 || c.Result.Scores[1].Total != 3 {
		t.Errorf("result %+v", c.Result)
	}
	// A full tie is shared.
	s.Player(2).VehiclesDestroyed = 0
	s.Player(2).BasesDestroyed = 1
	c = s.clone()
	c.score()
	if !slices.Equal(c.Result.Winners, []int{1, 2}) {
		t.Errorf("winners %v, want a shared win", c.Result.Winners)
	}
}

func TestEndOfGameFinishesTheRound(t *testing.T) {
	s := newGame(t, 3, 1, Options{})
	// Seat 2 destroys seat 3's last base; seat 3 still plays (it is the
	// last: to the right of the first player), then the game is scored.
	s.Players[2].Bases = s.Players[2].Bases[:1]
	take(&s, "BASE-3-2")
	take(&s, "BASE-3-3")
	s.Box = append(s.Box, "BASE-3-2", "BASE-3-3")
	s, _ = mustApply(t, s, EndTurn{Seat: 1})
	hand(&s, 2, "DE-17")
	s, _ = mustApply(t, s, Attack{Seat: 2, Cards: []string{"DE-17"}})
	s, _ = mustApply(t, s, Fire{Seat: 2, Attacker: "DE-17", Target: "BASE-3-1"})
	if !s.EndTriggered || s.Phase != PhasePlay {
		t.Fatalf("end not triggered: %v %s", s.EndTriggered, s.Phase)
	}
	s, _ = mustApply(t, s, EndTurn{Seat: 2})
	if s.Active != 3 || s.Phase != PhasePlay {
		t.Fatalf("the player without bases must still play: active %d", s.Active)
	}
	hand(&s, 3, "SU-07")
	// With no bases, an armoured vehicle has nothing to defend.
	wantRejection(t, s, PlayCard{Seat: 3, Card: "SU-07"}, "nothing_to_play")
	s, evs := mustApply(t, s, EndTurn{Seat: 3})
	if s.Phase != PhaseOver || evs[len(evs)-1].Type != "game_over" {
		t.Fatalf("the game did not end after the last seat: %s", s.Phase)
	}
	wantRejection(t, s, EndTurn{Seat: 1}, "game_over")
}

func TestAbilities(t *testing.T) {
	t.Run("reinforcements", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-05")
		g := len(s.Player(1).Garage)
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-05"})
		if len(s.Player(1).Hand) != 2 || len(s.Player(1).Garage) != g-2 {
			t.Errorf("hand %v", s.Player(1).Hand)
		}
		checkConservation(t, s)
	})
	t.Run("reinforcements reshuffle the Magazine and set bases aside", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-05")
		p := s.Player(1)
		p.Magazine = append(p.Magazine, p.Garage...)
		p.Garage = nil
		take(&s, "BASE-2-1")
		s.Players[1].Bases = s.Players[1].Bases[1:]
		p.Garage = []string{"BASE-2-1"}
		s, evs := mustApply(t, s, PlayCard{Seat: 1, Card: "SU-05"})
		types := []string{}
		for _, e := range evs {
			types = append(types, e.Type)
		}
		if !slices.Contains(types, "base_set_aside") || !slices.Contains(types, "garage_shuffled") || len(s.Player(1).Hand) != 1 {
			t.Errorf("events %v, hand %v", types, s.Player(1).Hand)
		}
		checkConservation(t, s)
	})
	t.Run("scout", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-01")
		reserve(&s, "DE-01", "SU-07", "US-01", "FR-01")
		old := slices.Clone(s.Reserve)
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-01"})
		if len(s.Reserve) != 4 || len(s.Discard) < 4 || !slices.Equal(s.Discard[len(s.Discard)-4:], old) {
			t.Errorf("reserve %v discard %v", s.Reserve, s.Discard)
		}
	})
	t.Run("sabotage", func(t *testing.T) {
		s := newGame(t, 3, 1, Options{})
		hand(&s, 1, "SU-04")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-04"})
		if s.Pending == nil || s.Pending.Kind != DecideDiscard || s.Pending.Seat != 2 {
			t.Fatalf("pending %+v", s.Pending)
		}
		// The view of seat 3 does not show seat 2's hand in the options.
		if v := s.View(Viewer{Seat: 3}); len(v.Pending.Options) != 0 || len(v.Player(2).Hand) != 0 {
			t.Error("the victim's hand leaks")
		}
		wantRejection(t, s, Discard{Seat: 2, Card: s.Player(3).Hand[0]}, "illegal_choice")
		s, _ = mustApply(t, s, Discard{Seat: 2, Card: s.Player(2).Hand[0]})
		s, _ = mustApply(t, s, Discard{Seat: 3, Card: s.Player(3).Hand[0]})
		if len(s.Player(2).Hand) != 2 || len(s.Player(3).Hand) != 2 || s.Pending != nil {
			t.Errorf("hands %v %v", s.Player(2).Hand, s.Player(3).Hand)
		}
		checkConservation(t, s)
	})
	t.Run("sabotage chosen by the saboteur", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{SabotageChooser: "active"})
		hand(&s, 1, "SU-04")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-04"})
		if s.Pending.Seat != 1 || s.Pending.Victim != 2 {
			t.Fatalf("pending %+v", s.Pending)
		}
		mustApply(t, s, Discard{Seat: 1, Card: s.Player(2).Hand[0]})
	})
	t.Run("siege", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{})
		defendWith(&s, 2, 0, "DE-07")
		hand(&s, 1, "SU-16", "SU-15")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-16"})
		// A defended base is a legal Siege target.
		if !slices.Contains(s.Pending.Options, "BASE-2-1") || !slices.Contains(s.Pending.Options, "DE-07") {
			t.Fatalf("options %v", s.Pending.Options)
		}
		wantRejection(t, s, Siege{Seat: 1, Target: "BASE-1-1"}, "illegal_choice")
		s, _ = mustApply(t, s, Siege{Seat: 1, Target: "BASE-2-1"})
		s, _ = mustApply(t, s, Defend{Seat: 1, Base: "BASE-1-1"})
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-15"})
		s, _ = mustApply(t, s, Siege{Seat: 1, Target: "BASE-2-1"})
		// Destroyed with its defender: the base to the besieger, the
		// defender back to its owner (not a kill by default).
		if !slices.Contains(magazine(s, 1), "BASE-2-1") || !slices.Contains(magazine(s, 2), "DE-07") || s.Player(1).VehiclesDestroyed != 0 {
			t.Errorf("magazines %v / %v", magazine(s, 1), magazine(s, 2))
		}
		checkConservation(t, s)
	})
	t.Run("siege medals at the end of the turn", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{})
		defendWith(&s, 2, 0, "DE-07")
		hand(&s, 1, "SU-16", "US-16")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-16"})
		s, _ = mustApply(t, s, Siege{Seat: 1, Target: "DE-07"})
		s, _ = mustApply(t, s, Defend{Seat: 1, Base: "BASE-1-1"})
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "US-16"})
		s, _ = mustApply(t, s, Siege{Seat: 1, Target: "DE-07"})
		if len(s.pile("usa").Singles) != 9 || s.SiegeKills[0].Nation != "usa" {
			t.Fatalf("medal before the end of the turn: %+v", s.SiegeKills)
		}
		s, _ = mustApply(t, s, Defend{Seat: 1, Base: "BASE-1-2"})
		s, _ = mustApply(t, s, EndTurn{Seat: 1})
		// The medal comes from the nation of the Siege card that destroyed.
		if len(s.pile("usa").Singles) != 8 || len(s.pile("ussr").Singles) != 9 {
			t.Errorf("usa %d ussr %d", len(s.pile("usa").Singles), len(s.pile("ussr").Singles))
		}
	})
	t.Run("research", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-23", "TECH-1-1")
		reserve(&s, "DE-01", "SU-07", "US-20", "FR-01")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-23"})
		if !slices.Contains(s.Scrapyard, "SU-23") || slices.Contains(s.Pending.Options, "US-20") {
			t.Fatalf("scrapyard %v options %v", s.Scrapyard, s.Pending.Options)
		}
		wantRejection(t, s, Research{Seat: 1, Take: "US-20"}, "illegal_choice")
		s, _ = mustApply(t, s, Research{Seat: 1, Take: "SU-07"})
		if !slices.Contains(magazine(s, 1), "SU-07") || len(s.Reserve) != 4 {
			t.Errorf("magazine %v reserve %v", magazine(s, 1), s.Reserve)
		}
		// Research is not a purchase: one may still buy.
		if s.Purchases != 0 {
			t.Error("research counted as a purchase")
		}
		checkConservation(t, s)
	})
	t.Run("dismantle", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "SU-24")
		p := s.Player(1)
		p.Magazine = append(p.Magazine, p.Garage[:3]...)
		p.Garage = p.Garage[3:]
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-24"})
		if slices.Contains(s.Pending.Options, "SU-24") || s.Pending.Max != 2 {
			t.Fatalf("pending %+v", s.Pending)
		}
		wantRejection(t, s, Dismantle{Seat: 1, Cards: s.Pending.Options}, "out_of_range")
		wantRejection(t, s, Dismantle{Seat: 1, Cards: []string{"SU-24"}}, "illegal_choice")
		two := s.Pending.Options[:2]
		s, _ = mustApply(t, s, Dismantle{Seat: 1, Cards: two})
		if !slices.Contains(s.Scrapyard, two[0]) || !slices.Contains(s.Scrapyard, two[1]) {
			t.Errorf("scrapyard %v", s.Scrapyard)
		}
		checkConservation(t, s)
	})
	t.Run("indestructible", func(t *testing.T) {
		s := newGame(t, 2, 1, Options{})
		hand(&s, 1, "DE-18")
		s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "DE-18"})
		if len(s.pile("germany").Singles) != 8 || !slices.Contains(magazine(s, 1), "ZK-1-01") {
			t.Errorf("no Iron Cross: %v", magazine(s, 1))
		}
	})
}

func TestBadNumbers(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	wantRejection(t, s, TakeMedals{Seat: 1, Doubles: -1}, "no_decision")
	wantRejection(t, s, Defend{Seat: 1, Base: "BASE-1-1"}, "no_decision")
	wantRejection(t, State{}, EndTurn{Seat: 1}, "not_started")
	cat := defaultCat(t)
	for _, bad := range []Setup{
		{Players: []PlayerInfo{{1, "A"}}, First: 1},
		{Players: []PlayerInfo{{1, "A"}, {2, "B"}, {3, "C"}, {4, "D"}, {5, "E"}, {6, "F"}}, First: 1},
		{Players: []PlayerInfo{{1, "A"}, {1, "B"}}, First: 1},
		{Players: []PlayerInfo{{1, "A"}, {2, "B"}}, First: 3},
		{Players: []PlayerInfo{{1, "A"}, {2, "B"}}, First: 1, Options: Options{Medals: "all"}},
		{Players: []PlayerInfo{{1, "A"}, {2, "B"}}, First: 1, Achievements: []string{"ACH-01"}},
		{Players: []PlayerInfo{{1, "A"}, {2, "B"}}, First: 1, Deck: []string{"SU-01"}},
	} {
		if _, err := cat.NewGame(bad); err == nil {
			t.Errorf("setup %+v accepted", bad)
		}
	}
}

func TestView(t *testing.T) {
	s := newGame(t, 3, 1, Options{})
	pub := s.View(Viewer{})
	if len(pub.Deck) != 0 || pub.DeckSize != len(s.Deck) || len(pub.Box) != 0 {
		t.Error("the deck or the box shows")
	}
	for _, p := range pub.Players {
		if len(p.Garage) != 0 || p.GarageSize == 0 {
			t.Errorf("seat %d: Garage order shown or its size hidden", p.Seat)
		}
		if p.Seat != s.Active && len(p.Hand) != 0 {
			t.Errorf("seat %d: hand shown to the public", p.Seat)
		}
	}
	if len(pub.Player(1).Hand) != 3 {
		t.Error("the active hand is face up and should show")
	}
	own := s.View(Viewer{Seat: 2})
	if len(own.Player(2).Hand) != 3 || len(own.Player(3).Hand) != 0 || len(own.Player(2).Garage) != 0 {
		t.Error("seat 2's own view")
	}
	ref := s.View(Viewer{Referee: true})
	if len(ref.Deck) == 0 || len(ref.Player(2).Garage) == 0 {
		t.Error("the referee sees everything")
	}
	if string(mustJSON(t, s)) != string(mustJSON(t, newGame(t, 3, 1, Options{}))) {
		t.Error("View changed the state")
	}
	if pub.Seed != 0 || pub.Shuffles != 0 || own.Seed != 0 || own.Shuffles != 0 || ref.Seed != 1 || ref.Shuffles == 0 {
		t.Errorf("seed and shuffles: public %d/%d, seat 2 %d/%d, referee %d/%d; the referee's only", pub.Seed, pub.Shuffles, own.Seed, own.Shuffles, ref.Seed, ref.Shuffles)
	}
}

// TestViewAtTheEnd: once the game is over nothing is secret any more
// (every squad is counted in front of everyone): every hand shows to
// everyone. The Garages' and the deck's orders are never shown.
func TestViewAtTheEnd(t *testing.T) {
	s := newGame(t, 3, 1, Options{})
	s, _ = mustApply(t, s, DeclareEnd{})
	if s.Phase != PhaseOver {
		t.Fatal("not over")
	}
	for _, v := range []Viewer{{}, {Seat: 2}} {
		view := s.View(v)
		for _, p := range view.Players {
			if !slices.Equal(p.Hand, s.Player(p.Seat).Hand) || len(p.Hand) == 0 {
				t.Errorf("viewer %+v: seat %d's hand %v at the end, want %v", v, p.Seat, p.Hand, s.Player(p.Seat).Hand)
			}
			if len(p.Garage) != 0 {
				t.Errorf("viewer %+v: seat %d's Garage order shown", v, p.Seat)
			}
		}
	}
}
