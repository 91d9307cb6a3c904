package west1920

import (
	"testing"
)

// Every column of the 40 event cards, as printed in "Tłumaczenia kart"
// (the table below is written from the rulebook, not from cards.yaml):
// each is played through the events phase (3.1, 3.2) and what it leaves is
// checked. RP columns (4.0) change the card RP; strategic limits (11.2) the
// player's limit; effects in force for the stage are in force. The columns
// that act at once with a choice have their own tests, named here.
func TestEveryCardColumn(t *testing.T) {
	type want struct {
		rpPL, rpRU   int    // card RP changes (4.0)
		stratPL      int    // strategic limit (11.2; 0 unchanged)
		stratRU      int    //
		effect, side string // an effect in force this stage
		zone         string // no_strategic's zone
		test         string // a column acting at once: its own test
	}
	P, R := Polish, Russian
	type col struct {
		card   int
		column string // Polish, Russian or "" (single instruction, 3.2)
		want   want
	}
	cols := []col{
		{1, P, want{rpPL: 3}}, {1, R, want{rpRU: -3}},
		{2, "", want{rpPL: -2, effect: "lithuania", test: "TestCard2Lithuania"}},
		{3, P, want{stratRU: 3}}, {3, R, want{rpRU: -2}},
		{4, "", want{effect: "no_strategic", side: R, zone: "S", test: "TestStrategicMovement"}},
		{5, P, want{effect: "combat_bonus", side: R, test: "TestCombatBonusCards"}}, {5, R, want{effect: "combat_bonus", side: R, test: "TestCombatBonusCards"}},
		{6, P, want{rpPL: -2}}, {6, R, want{rpRU: 2}},
		{7, "", want{test: "TestCard7UkrainianPartisans"}},
		{8, "", want{test: "TestCard8Desertions"}},
		{9, P, want{effect: "front_cf", side: P, test: "TestCardsChangingPolishCF"}}, {9, R, want{rpRU: 2}},
		{10, P, want{effect: "artillery_zero", side: P, test: "TestCardsChangingPolishCF, TestCard10CityFront"}}, {10, R, want{rpRU: 2}},
		{11, P, want{rpPL: -3}}, {11, R, want{rpRU: 3}},
		{12, P, want{rpPL: 2}}, {12, R, want{rpRU: -2}},
		{13, "", want{effect: "move_limit", test: "TestCard13Rain"}},
		{14, P, want{test: "TestCard14CossackRevolt"}}, {14, R, want{test: "TestCard14CossackRevolt"}},
		{15, P, want{stratRU: 2}}, {15, R, want{rpRU: -2}},
		{16, P, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}}, {16, R, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}},
		{17, P, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}}, {17, R, want{rpRU: -1}},
		{18, P, want{effect: "no_depot_removal", side: P, test: "TestCard18NoDepotRemoval"}}, {18, R, want{stratRU: 8}},
		{19, P, want{rpPL: 2}}, {19, R, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}},
		{20, P, want{test: "TestCards20And28ForcedRetreat"}}, {20, R, want{test: "TestCards20And28ForcedRetreat"}},
		{21, P, want{test: "TestCard21NoChit"}}, {21, R, want{test: "TestCard21NoChit"}},
		{22, "", want{stratPL: 3, stratRU: 3}},
		{23, P, want{rpPL: -2}}, {23, R, want{rpRU: 2}},
		{24, P, want{test: "TestCard24Torun"}}, {24, R, want{test: "TestCard24Torun"}},
		{25, P, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}}, {25, R, want{effect: "combat_bonus", side: R, test: "TestCombatBonusCards"}},
		{26, P, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}}, {26, R, want{effect: "combat_bonus", side: R, test: "TestCombatBonusCards"}},
		{27, P, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}}, {27, R, want{effect: "combat_bonus", side: R, test: "TestCombatBonusCards"}},
		{28, P, want{test: "TestCards20And28ForcedRetreat"}}, {28, R, want{test: "TestCards20And28ForcedRetreat"}},
		{29, P, want{test: "TestCards29And34FreeReplacement"}}, {29, R, want{test: "TestCards29And34FreeReplacement"}},
		{30, P, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}}, {30, R, want{effect: "combat_bonus", side: R, test: "TestCombatBonusCards"}},
		{31, P, want{effect: "extra_moves", side: P, test: "TestCard31ExtraOrders"}}, {31, R, want{effect: "no_activation_roll", side: P, test: "TestCard31NoActivationRoll"}},
		{32, "", want{effect: "no_strategic", side: R, zone: "", test: "TestStrategicMovement"}},
		{33, P, want{rpPL: 1}}, {33, R, want{rpRU: -1}},
		{34, P, want{test: "TestCards29And34FreeReplacement"}}, {34, R, want{test: "TestCards29And34FreeReplacement"}},
		{35, P, want{rpPL: -2}}, {35, R, want{rpRU: 2}},
		{36, P, want{test: "TestCards36And40Czechoslovakia"}}, {36, R, want{test: "TestCards36And40Czechoslovakia"}},
		{37, P, want{test: "TestCard37ReturnEliminated"}}, {37, R, want{test: "TestCard37ReturnEliminated"}},
		{38, P, want{effect: "combat_bonus", side: P, test: "TestCombatBonusCards"}}, {38, R, want{rpRU: -2}},
		{39, P, want{effect: "cf_if", side: P, test: "TestCardsChangingPolishCF"}}, {39, R, want{rpRU: -2}},
		{40, P, want{test: "TestCards36And40Czechoslovakia"}}, {40, R, want{rpRU: 2}},
	}
	seen := map[[2]int]bool{}
	for _, c := range cols {
		card, ok := defaultCat(t).Cards[c.card]
		if !ok || card.Single() != (c.column == "") {
			t.Fatalf("card %d: in the data %v, single %v; the rulebook's column %q", c.card, ok, card.Single(), c.column)
		}
		k := 0
		if c.column == R {
			k = 1
		}
		seen[[2]int{c.card, k}] = true
		if c.column == "" {
			seen[[2]int{c.card, 1}] = true
		}
		if c.want.test != "" && c.want.effect == "" && c.want.rpPL == 0 && c.want.rpRU == 0 {
			continue // acts at once with a choice: its own test
		}
		s := newGame(t)
		// The other hand plays an RP card of known effect: the Poles 12
		// (Polish +2), the Russians 33 (Russian −1); a single card
		// overrides it (3.2).
		var n State
		base := want{}
		switch c.column {
		case P:
			n, _ = playCards(t, s, c.card, 33)
			base.rpRU = -1
		case R:
			n, _ = playCards(t, s, 12, c.card)
			base.rpPL = 2
		default:
			n, _ = playCards(t, s, c.card, 33)
		}
		w := c.want
		if got, want := n.Player(Polish).CardRP, base.rpPL+w.rpPL; got != want {
			t.Errorf("card %d (%q column): Polish card RP %d, want %d", c.card, c.column, got, want)
		}
		if got, want := n.Player(Russian).CardRP, base.rpRU+w.rpRU; got != want {
			t.Errorf("card %d (%q column): Russian card RP %d, want %d", c.card, c.column, got, want)
		}
		for _, sl := range []struct {
			side string
			n    int
		}{{Polish, w.stratPL}, {Russian, w.stratRU}} {
			if sl.n != 0 && n.Player(sl.side).StratLimit != sl.n {
				t.Errorf("card %d (%q column): %s strategic limit %d, want %d", c.card, c.column, sl.side, n.Player(sl.side).StratLimit, sl.n)
			}
		}
		switch w.effect {
		case "":
		case "lithuania":
			if !n.Lithuania {
				t.Errorf("card %d: Lithuania not at war", c.card)
			}
		default:
			e := n.effect(w.effect, w.side)
			if e == nil || e.Card != c.card || e.Effect.Zone != w.zone {
				t.Errorf("card %d (%q column): effect %s of %s not in force (%+v)", c.card, c.column, w.effect, w.side, n.Effects)
			}
		}
	}
	for id := 1; id <= 40; id++ {
		for k := range 2 {
			if !seen[[2]int{id, k}] {
				t.Errorf("card %d column %d has no row", id, k)
			}
		}
	}
}

// Card 2 (13.3): two Lithuanian infantry units and the Lithuanian HQ are
// set up in Kaunas at once, under the Russian player; the Poles lose 2 RP.
func TestCard2Lithuania(t *testing.T) {
	s := newGame(t)
	if s.Lithuania {
		t.Fatal("Lithuania at war before card 2")
	}
	n, _ := playCards(t, s, 2, 33)
	kaunas := n.cat.Cities[n.cat.Data.Map.Bases.Lithuanian].Hex
	inf := 0
	for _, u := range n.Units {
		if u.Nation == NatLithuanian && u.Status == OnMap && u.Hex == kaunas && u.Side == Russian && u.Type == Infantry {
			inf++
		}
	}
	hq := n.hq("lt-hq")
	if inf != 2 || hq == nil || hq.Status != OnMap || hq.Hex != kaunas {
		t.Fatalf("%d Lithuanian infantry in Kaunas (%s), HQ %+v: want 2 and the HQ", inf, kaunas, hq)
	}
	if n.Player(Polish).CardRP != -2 {
		t.Fatalf("Polish card RP %d, want −2", n.Player(Polish).CardRP)
	}
}

// Card 13 (7.4): no combat unit moves more than one hex; difficult terrain
// counts one.
func TestCard13Rain(t *testing.T) {
	s := ordersState(t, "1606")
	put(t, &s, "pl-4bk", "1606", "NE")
	putHQ(t, &s, "pl-hq-1a", "1606")
	two := firstOrder(t, s, 2)
	mustApply(t, s, two)
	inForce(t, &s, 13, Polish)
	rejectCode(t, s, two, "too_far")
	mustApply(t, s, firstOrder(t, s, 1))

	// Infantry into difficult terrain: one hex under rain.
	b := s.cat.Board
	for i := range b.difficult {
		if !b.difficult[i] || b.impassable[i] || b.country[i] != "" {
			continue
		}
		for d := N; d <= NW; d++ {
			j := b.Neighbour(i, d)
			if j < 0 || b.impassable[j] || b.country[j] != "" || b.difficult[j] {
				continue
			}
			if r, _ := b.River(j, b.DirTo(j, i)); r {
				continue
			}
			from, to := b.HexAt(j), b.HexAt(i)
			r := bare(t, PhaseOrders, Polish, 5)
			r.Chits = []Chit{{Side: Polish, Hex: from, Cost: 1}}
			put(t, &r, "pl-12dp", from, "N")
			putHQ(t, &r, "pl-hq-1a", from)
			inForce(t, &r, 13, Polish)
			mustApply(t, r, Order{Side: Polish, Hex: from, Path: []Hex{to}, Facing: "N"})
			return
		}
	}
	t.Fatal("no difficult hex next to a clear one")
}

// Card 18, Polish column (5.4): the Polish player may not remove a depot.
func TestCard18NoDepotRemoval(t *testing.T) {
	s := newGame(t)
	s.Phase, s.Turn = PhaseDepots, Polish
	var h Hex
	for _, d := range s.Depots {
		if d.Side == Polish {
			h = d.Hex
			break
		}
	}
	if h == "" {
		t.Fatal("no Polish depot")
	}
	mustApply(t, s, RemoveDepot{Side: Polish, Hex: h})
	inForce(t, &s, 18, Polish)
	rejectCode(t, s, RemoveDepot{Side: Polish, Hex: h}, "card_forbids")
}
