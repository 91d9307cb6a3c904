package west1920

import (
	"testing"
)

// 9.3, option tie_combat: equal attack and defence values. "none": no
// winner; "defender": the defender wins by 0. Either way a 9.5a result with
// no losses and nobody moving; the odds before the roll move the tie into
// the defender's wins. The winner is named by the combat event.
func TestTieCombatOption(t *testing.T) {
	for _, c := range []struct {
		tie        string
		wantWinner string
	}{{"none", ""}, {"defender", Polish}} {
		t.Run(c.tie, func(t *testing.T) {
			s := exampleCombat(t)
			s.Options.TieCombat = c.tie
			s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"})
			odds := s.Pending.Odds.Combat
			if c.tie == "defender" && (odds.Tie != 0 || !near(odds.DefenderWins+odds.AttackerWins, 1, 1e-12)) {
				t.Errorf("odds %+v: want the tie counted as the defender's", odds)
			}
			if c.tie == "none" && odds.Tie == 0 {
				t.Errorf("odds: no tie")
			}
			for _, o := range odds.Outcomes {
				if o.Diff == 0 && string(o.Winner) != map[string]string{"none": "", "defender": "defender"}[c.tie] {
					t.Errorf("the 0 outcome's winner %q", o.Winner)
				}
			}
			// 15 + 1 against 10 + 6: a tie.
			n, evs := mustApplyEv(t, s, Roll{Dice: []int{1, 6}})
			var got *Event
			for i := range evs {
				if evs[i].Type == "combat" {
					got = &evs[i]
				}
			}
			if got == nil || got.Side != c.wantWinner {
				t.Fatalf("combat event %+v: want winner %q", got, c.wantWinner)
			}
			if n.Battle != nil || n.Pending != nil || n.Turn != Polish {
				t.Fatalf("battle %+v pending %+v: want the combat over (9.5a) and the Polish turn", n.Battle, n.Pending)
			}
			for _, u := range n.Units {
				if u.Status == OnMap && (u.Weak || u.Hex != s.unit(u.ID).Hex) {
					t.Errorf("%s changed: %+v", u.ID, u)
				}
				// 9.3 fifth point: a 9.5a win does not spare the −1.
				if u.Routed {
					t.Errorf("%s marked as a 9.5c winner", u.ID)
				}
			}
		})
	}
}

// 9.3 fifth point and 9.5c: a defender that wins by 7 or more is spared
// the −1 for having fought in its next combat; only units that enter the
// vacated hex after a 9.5c win may attack again.
func TestDefenderRoutWinner(t *testing.T) {
	s := exampleCombat(t)
	s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"})
	s.Battle.AttCF = 0 // make the defender win by 10: 0 + 1 against 10 + 1
	n := mustApply(t, s, Roll{Dice: []int{1, 1}})
	if n.Battle.Outcome.Winner != Defender || n.Battle.Outcome.Rule != "9.5c" {
		t.Fatalf("outcome %+v", n.Battle.Outcome)
	}
	for _, id := range []string{"pl-7bk", "pl-12dp"} {
		if !n.unit(id).Routed {
			t.Errorf("%s: a 9.5c winner should be spared the −1 (9.3)", id)
		}
	}
}

// 13.5: an HQ retreating with its stack into East Prussia goes with it:
// a Russian HQ leaves play like the units and returns to Smolensk after the
// 1d6 roll; a Polish HQ is interned. 1.3: a retreat into another neutral
// country interns units and HQs at the first neutral hex.
func TestHQRetreatIntoNeutral(t *testing.T) {
	for _, c := range []struct {
		name     string
		loser    string
		unit, hq string
		at       Hex
		enemy    Hex
		path     []Hex
		want     string
	}{
		{"russian into East Prussia", Russian, "ru-2sd", "ru-hq-15a", "0508", "0608", []Hex{"0507", "0506"}, Prussia},
		{"polish into East Prussia", Polish, "pl-8dp", "pl-hq-1a", "0508", "0608", []Hex{"0507", "0506"}, Interned},
		{"polish into Czechoslovakia", Polish, "pl-8dp", "pl-hq-1a", "0616", "0715", []Hex{"0617", "0618"}, Interned},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := bare(t, PhaseCombat, other(c.loser), 5)
			b := s.cat.Board
			put(t, &s, c.unit, c.at, "N")
			putHQ(t, &s, c.hq, c.at)
			winner := map[string]string{Russian: "pl-10dp", Polish: "ru-4sd"}[c.loser]
			put(t, &s, winner, c.enemy, "N")
			s.Battle = &Battle{Side: other(c.loser), From: c.enemy, Target: c.at, Attackers: []string{winner}, Defenders: []string{c.unit},
				Outcome: &CombatOutcome{Winner: Attacker, Effect: EffectRetreat, Rule: "9.5b"}, Loser: c.loser}
			s.setPending(Pending{Kind: "retreat", Action: "retreat", Side: c.loser})
			if b.Country(b.Index(c.path[0])) == "" {
				t.Fatalf("%s is not in a neutral country", c.path[0])
			}
			n := mustApply(t, s, Retreat{Side: c.loser, Path: c.path})
			if u, q := n.unit(c.unit), n.hq(c.hq); u.Status != c.want || q.Status != c.want {
				t.Fatalf("unit %q HQ %q, want both %q", u.Status, q.Status, c.want)
			}
			if u := n.unit(c.unit); u.Hex != c.path[0] {
				t.Errorf("interned at %s, want the first neutral hex %s", u.Hex, c.path[0])
			}
			if c.want != Prussia {
				return
			}
			// The pursuit first, then the 13.5 roll for each of them.
			n = mustApply(t, n, Pursue{Side: other(c.loser)})
			wantPending(t, n, "prussia", Russian, -1)
			n = mustApply(t, n, Roll{Dice: []int{2}})
			wantPending(t, n, "prussia", Russian, -1)
			if n.Pending.Unit != c.hq {
				t.Fatalf("second roll for %s, want the HQ", n.Pending.Unit)
			}
			n = mustApply(t, n, Roll{Dice: []int{1}})
			if q := n.hq(c.hq); q.Return != s.Stage+1 {
				t.Fatalf("HQ return stage %d, want %d", q.Return, s.Stage+1)
			}
			n.Stage = s.Stage + 1
			n.Pending = nil
			n.reinforcements()
			if q := n.hq(c.hq); q.Status != OnMap || q.Hex != n.cat.Cities["smolensk"].Hex {
				t.Fatalf("HQ %+v: want it back in Smolensk", q)
			}
			if u := n.unit(c.unit); u.Status != Prussia {
				t.Fatalf("the unit (roll 2) is back too early: %+v", u)
			}
		})
	}
}

// 11.1, 11.2: an HQ moves strategically like a unit (one move a stage,
// counted against the limit, not out of a hex next to the enemy unless a
// stationary friend holds it, never into an enemy hex), but pays no 13.1
// RP and ignores supply and stacking; cards 4 and 32 forbid it, cards 3,
// 15, 18 and 22 count it.
func TestStrategicHQ(t *testing.T) {
	s := bare(t, PhaseStrategic, Russian, 0)
	putHQ(t, &s, "ru-hq-12a", "2113") // Kiev, south of the line, no depots
	put(t, &s, "ru-7sd", "2109", "SW")
	mv := StrategicMove{Side: Russian, Unit: "ru-hq-12a", Path: []Hex{"2112", "2111", "2110", "2109", "2108", "2107", "2106", "2105"}}
	n := mustApply(t, s, mv)
	if q := n.hq("ru-hq-12a"); q.Hex != "2105" || !q.Strategic || n.player(Russian).StratMoves != 1 || n.player(Russian).Spent != 0 || n.Turn != Polish {
		t.Fatalf("HQ %+v, moves %d, spent %d: want it in 2105, one move counted, no RP for crossing the line", q, n.player(Russian).StratMoves, n.player(Russian).Spent)
	}
	n.Turn = Russian
	rejectCode(t, n, StrategicMove{Side: Russian, Unit: "ru-hq-12a", Path: []Hex{"2104"}}, "strategic_once")
	full := s.clone()
	full.player(Russian).StratLimit = 0
	rejectCode(t, full, mv, "strategic_limit")
	// Cards: 4 bans the south, 32 everything.
	for card, zone := range map[int]string{4: "S", 32: ""} {
		c := s.clone()
		c.Effects = []CardEffect{{Card: card, Effect: Effect{Do: "no_strategic", Side: Russian, Zone: zone}}}
		rejectCode(t, c, mv, "card_forbids")
	}
	north := s.clone()
	north.Effects = []CardEffect{{Card: 4, Effect: Effect{Do: "no_strategic", Side: Russian, Zone: "S"}}}
	putHQ(t, &north, "ru-hq-15a", "2103")
	mustApply(t, north, StrategicMove{Side: Russian, Unit: "ru-hq-15a", Path: []Hex{"2203"}})
	// Next to the enemy: out only with a stationary friend; never into an
	// enemy hex.
	z := s.clone()
	put(t, &z, "pl-8dp", "2013", "NE")
	rejectCode(t, z, mv, "adjacent_move")
	put(t, &z, "ru-24sd", "2113", "SW")
	if _, _, err := Apply(z, StrategicMove{Side: Russian, Unit: "ru-hq-12a", Path: []Hex{"2213"}}); err != nil {
		t.Fatalf("a stationary friend screens the start hex: %v", err)
	}
	rejectCode(t, z, StrategicMove{Side: Russian, Unit: "ru-hq-12a", Path: []Hex{"2013"}}, "impassable")
	// LegalActions offers HQ moves.
	found := false
	for _, a := range LegalActions(s) {
		if m, ok := a.(StrategicMove); ok && m.Unit == "ru-hq-12a" {
			found = true
		}
	}
	if !found {
		t.Error("LegalActions lists no strategic move of the HQ")
	}
}

// extraOrderFrom is the first legal card-31 order from h moving n hexes.
func extraOrderFrom(t *testing.T, s State, h Hex, n int) Order {
	t.Helper()
	for _, a := range LegalActions(s) {
		if o, ok := a.(Order); ok && o.Hex == h && len(o.Path) == n {
			return o
		}
	}
	t.Fatalf("no legal order of %d hexes from %s", n, h)
	return Order{}
}

// Card 31, Polish column: after the combat phase the Polish player may
// give two more orders, to stacks that had orders already this stage; 7.2
// (the activation roll) and 7.4 (allowances) apply, 7.3 does not (no chit,
// no RP); no unit twice under the card; a pass gives the rest up; then the
// replacement phase. Without the card combat goes straight to replacement.
func TestCard31ExtraOrders(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	n, _ := playCards(t, s, 31, 33)
	if n.effect("extra_moves", Polish) == nil {
		t.Fatal("card 31's Polish column is not in force")
	}
	n.Phase, n.Turn, n.Pending = PhaseCombat, Polish, nil
	put(t, &n, "pl-4bk", "1606", "NE")
	put(t, &n, "pl-8dp", "1608", "NE")
	putHQ(t, &n, "pl-hq-1a", "1606")
	n.unit("pl-4bk").Ordered = true // moved in the movement phase
	n.unit("pl-8dp").Ordered = true
	spent := n.player(Polish).Spent
	n = mustApply(t, n, Pass{Side: Polish})
	n, evs := mustApplyEv(t, n, Pass{Side: Russian})
	if !hasEvent(evs, "extra_orders") {
		t.Error("no extra_orders event")
	}
	wantPending(t, n, "extra_order", Polish, 2)
	if n.Phase != PhaseCombat {
		t.Fatalf("phase %s: the orders come before replacement", n.Phase)
	}
	rejectCode(t, n, Pass{Side: Russian}, "awaiting_decision")
	// Declining at once: straight to replacement.
	if d := mustApply(t, n, Pass{Side: Polish}); d.Phase != PhaseReplacement || d.Pending != nil {
		t.Fatalf("after a pass: phase %s pending %+v", d.Phase, d.Pending)
	}
	// 7.4 applies: infantry moves at most three hexes.
	far := n.paths(n.cat.Board.Index("1608"), 4)
	for _, p := range far {
		if len(p) == 4 {
			if _, _, err := Apply(n, Order{Side: Polish, Hex: "1608", Path: p}); err == nil {
				t.Fatalf("infantry moved four hexes under card 31 (7.4)")
			}
			break
		}
	}
	// First order: the cavalry with its HQ, no roll, no RP.
	o := extraOrderFrom(t, n, "1606", 1)
	n = mustApply(t, n, o)
	if u := n.unit("pl-4bk"); u.Hex != o.Path[0] {
		t.Fatalf("pl-4bk at %s, want %s", u.Hex, o.Path[0])
	}
	wantPending(t, n, "extra_order", Polish, 1)
	if n.player(Polish).Spent != spent {
		t.Errorf("RP spent %d, want %d: 7.3 does not apply", n.player(Polish).Spent, spent)
	}
	// Not the same unit twice.
	rejectCode(t, n, Order{Side: Polish, Hex: o.Path[0], Facing: "N"}, "no_units_left")
	// Second order: one hex between the stack and the HQ, the 7.2 roll.
	o2 := extraOrderFrom(t, n, "1608", 1)
	r := mustApply(t, n, o2)
	wantPending(t, r, "activation", Polish, 1)
	failed := mustApply(t, r, Roll{Dice: []int{1}})
	if failed.unit("pl-8dp").Hex != "1608" || failed.Phase != PhaseReplacement {
		t.Fatalf("a failed roll: pl-8dp at %s, phase %s", failed.unit("pl-8dp").Hex, failed.Phase)
	}
	moved := mustApply(t, r, Roll{Dice: []int{6}})
	if moved.unit("pl-8dp").Hex != o2.Path[0] || moved.Phase != PhaseReplacement || moved.player(Polish).Spent != spent {
		t.Fatalf("a good roll: pl-8dp at %s, phase %s, spent %d", moved.unit("pl-8dp").Hex, moved.Phase, moved.player(Polish).Spent)
	}
	for _, u := range moved.Units {
		if u.Moved {
			t.Errorf("%s still marked as moved in the replacement phase", u.ID)
		}
	}
	// Without the card: combat ends in replacement.
	w := bare(t, PhaseCombat, Polish, 5)
	put(t, &w, "pl-8dp", "1608", "NE")
	w = mustApply(t, w, Pass{Side: Polish})
	if w = mustApply(t, w, Pass{Side: Russian}); w.Phase != PhaseReplacement || w.Pending != nil {
		t.Fatalf("without card 31: phase %s pending %+v", w.Phase, w.Pending)
	}
}

// The assumed set-up's depots (5.2, 5.3): every start depot of both sides
// is linked to its main base, so stage 1's upkeep is 1 RP a depot (7 for
// the Poles, 8 for the Russians), leaving both players RP for chits.
func TestStartDepotsConnected(t *testing.T) {
	s := newGame(t)
	sup := s.computeSupply()
	n := map[string]int{}
	for i, d := range s.Depots {
		n[d.Side]++
		if !sup.Connected[i] {
			t.Errorf("%s depot in %s is not linked to its main base", d.Side, d.Hex)
		}
	}
	for side, want := range map[string]int{Polish: 7, Russian: 8} {
		if got := s.upkeep(side, &sup); got != want || n[side] != want {
			t.Errorf("%s: %d depots cost %d RP at the start, want %d", side, n[side], got, want)
		}
	}
}
