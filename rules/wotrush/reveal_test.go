package wotrush

import (
	"bytes"
	"slices"
	"testing"
)

// The physical hand replaces the engine's guess: a card from the Garage
// takes the place of a hand card nobody has seen, which goes to the Garage
// where the seen card was.
func TestRevealHandSwapsWithTheGarage(t *testing.T) {
	s := newGame(t, 2, 7, Options{})
	hand(&s, 1, "ENG-1-1", "ENG-1-2", "TECH-1-1")
	p := s.Player(1)
	gi := slices.Index(p.Garage, "VOL-1-1")
	if gi < 0 {
		t.Fatalf("VOL-1-1 not in the Garage: %v", p.Garage)
	}
	next, evs := mustApply(t, s, RevealHand{Seat: 1, Cards: []string{"ENG-1-2", "VOL-1-1"}})
	np := next.Player(1)
	if want := []string{"VOL-1-1", "ENG-1-2", "TECH-1-1"}; !slices.Equal(np.Hand, want) {
		t.Errorf("hand %v, want %v (the first unseen card swapped)", np.Hand, want)
	}
	if np.Garage[gi] != "ENG-1-1" {
		t.Errorf("garage[%d] = %s, want ENG-1-1 where VOL-1-1 was", gi, np.Garage[gi])
	}
	if !slices.Equal(np.Shown, []string{"ENG-1-2", "VOL-1-1"}) {
		t.Errorf("shown %v", np.Shown)
	}
	if len(evs) != 1 || evs[0].Type != "hand_shown" || evs[0].N != 1 {
		t.Errorf("events %+v", evs)
	}
	checkConservation(t, next)
	// A seen card is never swapped out again: the third card is the only
	// one left to swap.
	g2 := np.Garage[0]
	if g2 == "ENG-1-1" {
		g2 = np.Garage[1]
	}
	third, _ := mustApply(t, next, RevealHand{Seat: 1, Cards: []string{g2}})
	if h := third.Player(1).Hand; !slices.Equal(h, []string{"VOL-1-1", "ENG-1-2", g2}) {
		t.Errorf("hand %v after the third card", h)
	}
	checkConservation(t, third)
}

func TestBadReveals(t *testing.T) {
	s := newGame(t, 2, 7, Options{})
	hand(&s, 1, "ENG-1-1", "ENG-1-2", "TECH-1-1")
	hand(&s, 2, "ENG-2-1", "ENG-2-2", "ENG-2-3")
	shown, _ := mustApply(t, s, RevealHand{Seat: 1, Cards: []string{"ENG-1-1", "ENG-1-2", "TECH-1-1"}})
	cases := []struct {
		name string
		s    State
		a    Action
		code string
	}{
		{"no card", s, RevealHand{Seat: 1}, "nothing_revealed"},
		{"twice", s, RevealHand{Seat: 1, Cards: []string{"ENG-1-1", "ENG-1-1"}}, "duplicate_card"},
		{"unknown", s, RevealHand{Seat: 1, Cards: []string{"XX-1"}}, "unknown_card"},
		{"another player's card", s, RevealHand{Seat: 1, Cards: []string{"ENG-2-4"}}, "not_yours_to_reveal"},
		{"a Reserve card", s, RevealHand{Seat: 1, Cards: []string{s.Reserve[0]}}, "not_yours_to_reveal"},
		{"a base", s, RevealHand{Seat: 1, Cards: []string{"BASE-1-1"}}, "not_yours_to_reveal"},
		{"more than the hand", shown, RevealHand{Seat: 1, Cards: []string{"VOL-1-1"}}, "hand_full"},
		{"four cards", s, RevealHand{Seat: 1, Cards: []string{"ENG-1-1", "ENG-1-2", "TECH-1-1", "VOL-1-1"}}, "hand_full"},
		{"not your turn", s, RevealHand{Seat: 2, Cards: []string{"ENG-2-1"}}, "not_your_turn"},
		{"reserve: not there", s, RevealReserve{Seat: 1, Cards: []string{"ENG-1-1"}}, "not_in_reserve"},
		{"reserve: not your turn", s, RevealReserve{Seat: 2, Cards: []string{s.Reserve[0]}}, "not_your_turn"},
		{"reserve: five cards", s, RevealReserve{Seat: 1, Cards: append(slices.Clone(s.Reserve), s.Deck[0])}, "reserve_full"},
		{"select: bad mode", s, Select{Seat: 1, Mode: "steal"}, "bad_selection"},
		{"select: pay without symbol", s, Select{Seat: 1, Mode: SelectBuy, Cards: s.Reserve[:1], Pay: []string{"TECH-1-1"}}, "no_resource_symbol"},
		{"select: not in reserve", s, Select{Seat: 1, Mode: SelectBuy, Cards: []string{s.Deck[0]}}, "not_in_reserve"},
		{"select: two without recruitment", s, Select{Seat: 1, Mode: SelectBuy, Cards: s.Reserve[:2]}, "second_purchase"},
		{"select: attack with barracks", s, Select{Seat: 1, Mode: SelectAttack, Cards: []string{"ENG-1-1"}}, "no_firepower"},
		{"select: not your turn", s, Select{Seat: 2, Mode: SelectBuy}, "not_your_turn"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { wantRejection(t, tc.s, tc.a, tc.code) })
	}
}

// A Sabotage victim may show the card they put away even when the engine
// guessed another hand; the choices follow the hand shown.
func TestRevealHandForASabotageVictim(t *testing.T) {
	s := newGame(t, 2, 3, Options{})
	hand(&s, 1, "SU-04")
	hand(&s, 2, "ENG-2-1", "ENG-2-2", "ENG-2-3")
	s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "SU-04"})
	if s.Pending == nil || s.Pending.Kind != DecideDiscard {
		t.Fatalf("pending %+v, want a discard", s.Pending)
	}
	s, evs := mustApply(t, s, RevealHand{Seat: 2, Cards: []string{"VOL-2-1"}})
	if !slices.Contains(s.Pending.Options, "VOL-2-1") || slices.Contains(s.Pending.Options, "ENG-2-1") {
		t.Errorf("options %v after the reveal", s.Pending.Options)
	}
	if len(evs[0].Cards) != 0 {
		t.Errorf("a hidden hand's card named in a public event: %+v", evs[0])
	}
	s, _ = mustApply(t, s, Discard{Seat: 2, Card: "VOL-2-1"})
	checkConservation(t, s)
	// Seat 1 may not correct seat 2's hand, nor seat 2 while nobody waits
	// for them.
	wantRejection(t, s, RevealHand{Seat: 2, Cards: []string{"ENG-2-1"}}, "not_your_turn")
}

func TestRevealReserveSwapsWithTheDeck(t *testing.T) {
	s := newGame(t, 2, 5, Options{})
	reserve(&s, "SU-07", "DE-07", "US-07", "FR-07")
	di := slices.Index(s.Deck, "SU-06")
	next, _ := mustApply(t, s, RevealReserve{Seat: 1, Cards: []string{"DE-07", "SU-06"}})
	if want := []string{"SU-06", "DE-07", "US-07", "FR-07"}; !slices.Equal(next.Reserve, want) {
		t.Errorf("reserve %v, want %v (the card nearest the deck swapped)", next.Reserve, want)
	}
	if next.Deck[di] != "SU-07" {
		t.Errorf("deck[%d] = %s, want SU-07", di, next.Deck[di])
	}
	checkConservation(t, next)
	// A seen card is bought: it leaves the seen list.
	hand(&next, 1, "ENG-1-1", "ENG-1-2", "ENG-1-3")
	after, _ := mustApply(t, next, Buy{Seat: 1, Cards: []string{"DE-07"}, Pay: []string{"ENG-1-1", "ENG-1-2", "ENG-1-3"}})
	if slices.Contains(after.ReserveShown, "DE-07") || !slices.Contains(after.ReserveShown, "SU-06") {
		t.Errorf("reserve shown %v", after.ReserveShown)
	}
}

// The selection is state: it survives the journal, a reveal keeps it, any
// other action clears it.
func TestSelectionIsState(t *testing.T) {
	s := newGame(t, 2, 5, Options{})
	hand(&s, 1, "ENG-1-1", "SU-09", "SU-05")
	reserve(&s, "SU-07", "DE-07", "US-07", "FR-07")
	s, _ = mustApply(t, s, Select{Seat: 1, Mode: SelectBuy, Cards: []string{"SU-07"}, Pay: []string{"ENG-1-1"}})
	if s.Selection == nil || !slices.Equal(s.Selection.Pay, []string{"ENG-1-1"}) {
		t.Fatalf("selection %+v", s.Selection)
	}
	kept, _ := mustApply(t, s, RevealHand{Seat: 1, Cards: []string{"SU-09"}})
	if kept.Selection == nil {
		t.Error("a reveal cleared the selection")
	}
	bought, _ := mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-07"}, Pay: []string{"ENG-1-1", "SU-09"}})
	if bought.Selection != nil || !bought.Acted {
		t.Errorf("after the purchase: selection %+v, acted %v", bought.Selection, bought.Acted)
	}
	cleared, _ := mustApply(t, s, Select{Seat: 1})
	if cleared.Selection != nil {
		t.Error("an empty Select did not clear")
	}
	// Never shown to anyone but as it is: the active hand is public.
	if v := s.View(Viewer{Seat: 2}); v.Selection == nil {
		t.Error("the selection is missing from the public view")
	}
}

// The hand cards seen are as hidden as the hand.
func TestShownCardsHiddenLikeTheHand(t *testing.T) {
	s := newGame(t, 2, 5, Options{})
	s.Player(2).Shown = slices.Clone(s.Player(2).Hand[:1])
	if v := s.View(Viewer{Seat: 1}); len(v.Player(2).Shown) != 0 {
		t.Errorf("seat 1 sees seat 2's shown cards %v", v.Player(2).Shown)
	}
	if v := s.View(Viewer{Seat: 2}); len(v.Player(2).Shown) != 1 {
		t.Errorf("seat 2 does not see their own shown cards")
	}
}

// TestRevealProperties plays random legal games in which, before random
// actions, the table shows a random set of cards from the active player's
// hand and Garage and a random Reserve: every card stays in exactly one
// place, the hand keeps its size, what was shown is in the hand or the
// Reserve, and the journal replays byte for byte.
func TestRevealProperties(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 3
	}
	for g := 0; g < games; g++ {
		n := 2 + g%4
		s := newGame(t, n, uint64(500+g), Options{})
		start := s
		var journal []Action
		swaps := 0
		x := uint64(g*7 + 3)
		rnd := func(k int) int {
			x = x*6364136223846793005 + 1442695040888963407
			return int((x >> 33) % uint64(k))
		}
		for i := 0; i < 3000 && s.Phase == PhasePlay; i++ {
			var a Action
			p := s.Player(s.Active)
			switch r := rnd(10); {
			case r < 2 && s.Pending == nil && len(p.Hand) > 0:
				pool := slices.Concat(p.Hand, p.Garage)
				k := 1 + rnd(len(p.Hand))
				var cards []string
				for len(cards) < k {
					if c := pool[rnd(len(pool))]; !slices.Contains(cards, c) {
						cards = append(cards, c)
					}
				}
				a = RevealHand{Seat: p.Seat, Cards: cards}
			case r == 2 && s.Pending == nil && len(s.Reserve) > 0 && len(s.Deck) > 0:
				a = RevealReserve{Seat: s.Active, Cards: []string{s.Deck[rnd(len(s.Deck))]}}
			default:
				acts := LegalActions(s)
				a = acts[rnd(len(acts))]
			}
			next, evs, err := Apply(s, a)
			if err == nil && (a.Type() == "reveal_hand" || a.Type() == "reveal_reserve") {
				swaps += evs[0].N
			}
			if err != nil {
				if a.Type() == "reveal_hand" || a.Type() == "reveal_reserve" {
					continue // more shown than fits: refused, fine
				}
				t.Fatalf("game %d step %d: %s %+v: %v", g, i, a.Type(), a, err)
			}
			checkConservation(t, next)
			switch a := a.(type) {
			case RevealHand:
				np := next.Player(a.Seat)
				if len(np.Hand) != len(p.Hand) {
					t.Fatalf("game %d step %d: hand size %d → %d", g, i, len(p.Hand), len(np.Hand))
				}
				for _, c := range a.Cards {
					if !slices.Contains(np.Hand, c) || !slices.Contains(np.Shown, c) {
						t.Fatalf("game %d step %d: %s shown but not in hand %v / shown %v", g, i, c, np.Hand, np.Shown)
					}
				}
			case RevealReserve:
				if len(next.Reserve) != len(s.Reserve) || !slices.Contains(next.Reserve, a.Cards[0]) {
					t.Fatalf("game %d step %d: reserve %v → %v", g, i, s.Reserve, next.Reserve)
				}
			}
			journal = append(journal, a)
			s = next
		}
		if swaps == 0 {
			t.Fatalf("game %d: no reveal swapped a card: the property was not exercised", g)
		}
		r := start
		for _, a := range journal {
			enc, err := EncodeAction(a)
			if err != nil {
				t.Fatal(err)
			}
			dec, err := DecodeAction(enc)
			if err != nil {
				t.Fatal(err)
			}
			r, _ = mustApply(t, r, dec)
		}
		if !bytes.Equal(mustJSON(t, r), mustJSON(t, s)) {
			t.Fatalf("game %d: the replay differs", g)
		}
	}
}
