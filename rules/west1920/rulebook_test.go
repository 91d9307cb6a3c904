package west1920

import (
	"slices"
	"testing"
)

// bare is a started game with every counter off the map and no depots, in
// phase ph with turn, both players holding rp resource points; tests put
// the counters of a rulebook example on it with put/putHQ/depot.
func bare(t *testing.T, ph Phase, turn string, rp int) State {
	t.Helper()
	s := newGame(t)
	for i := range s.Units {
		s.Units[i].Status = Waiting
	}
	for i := range s.HQs {
		s.HQs[i].Status = Waiting
	}
	s.Depots = nil
	s.Phase, s.Turn = ph, turn
	for i := range s.Players {
		s.Players[i].TotalRP, s.Players[i].Rolled = rp, true
	}
	return s
}

func put(t *testing.T, s *State, id string, h Hex, facing string) {
	t.Helper()
	u := s.unit(id)
	if u == nil {
		t.Fatalf("no unit %s", id)
	}
	u.Status, u.Hex = OnMap, h
	if u.Type != Artillery {
		u.Facing = facing
	}
}

func putHQ(t *testing.T, s *State, id string, h Hex) {
	t.Helper()
	q := s.hq(id)
	if q == nil {
		t.Fatalf("no HQ %s", id)
	}
	q.Status, q.Hex = OnMap, h
}

// Rule 5.3's example "zakładanie nowego magazynu": a Russian depot in Kiev,
// Russian units in Vinnytsia and Proskurov. Vinnytsia is two hexes from
// Kiev; Proskurov is reached only through the forest (1716, counting two)
// because a Polish unit (1614) blocks the route north of it; upkeep of Kiev
// plus the two new depots is 3 RP. When Vinnytsia goes later, Proskurov
// still supplies but costs 2 (unconnected, built in an earlier stage).
func TestDepotChainExample(t *testing.T) {
	s := bare(t, PhaseDepots, Russian, 10)
	// Kiev, from an earlier stage; on our assumed map Połtawa links it to
	// the eastern edge (the example takes Kiev's link for granted).
	s.Depots = []Depot{{Hex: "2414", Side: Russian}, {Hex: "2113", Side: Russian}}
	put(t, &s, "ru-58sd", "1915", "SW") // Vinnytsia
	put(t, &s, "ru-45sd", "1616", "SW") // Proskurov
	put(t, &s, "pl-12dp", "1614", "NE") // blocks the route north of the forest
	b := s.cat.Board
	if b.Distance(b.Index("2113"), b.Index("1915"))-1 != 2 {
		t.Fatalf("Kiev–Vinnytsia: want two hexes between")
	}
	if !b.Difficult(b.Index("1716")) {
		t.Fatalf("1716 should be forest")
	}
	// Proskurov first: not connected to anything yet (Kiev is too far).
	rejectCode(t, s, BuildDepot{Side: Russian, Hex: "1616"}, "not_connected")
	s = mustApply(t, s, BuildDepot{Side: Russian, Hex: "1915"})
	s = mustApply(t, s, Pass{Side: Polish})
	// Proskurov: through the forest, 1 + 2 = 3 hexes between: in range.
	s = mustApply(t, s, BuildDepot{Side: Russian, Hex: "1616"})
	// The blocked route: with a Polish unit also next to the forest route the
	// depot could not have been set up.
	alt := s.clone()
	alt.Depots = alt.Depots[:3]
	put(t, &alt, "pl-13dp", "1717", "NE")
	rejectCode(t, alt, BuildDepot{Side: Russian, Hex: "1616"}, "not_connected")

	s, evs := mustApplyEv(t, s, Pass{Side: Russian})
	if got := s.Player(Russian).Spent; got != 1+3 {
		t.Errorf("upkeep: got %d RP, want 1 (Połtawa) + 3 (Kiev, Vinnytsia, Proskurov)", got)
	}
	if !hasEvent(evs, "upkeep") {
		t.Errorf("no upkeep event")
	}
	// A later stage: Vinnytsia removed, Proskurov costs 2 (5.3).
	s.Stage = 2
	s.Pending, s.Phase, s.Turn = nil, PhaseDepots, Russian
	for i := range s.Players {
		s.Players[i].Spent, s.Players[i].Passed, s.Players[i].Removed = 0, false, false
	}
	s = mustApply(t, s, RemoveDepot{Side: Russian, Hex: "1915"})
	rejectCode(t, s, RemoveDepot{Side: Russian, Hex: "2113"}, "not_your_turn")
	s = mustApply(t, s, Pass{Side: Polish})
	rejectCode(t, s, RemoveDepot{Side: Russian, Hex: "2113"}, "one_removal")
	s = mustApply(t, s, Pass{Side: Russian})
	if got := s.Player(Russian).Spent; got != 1+1+2 {
		t.Errorf("upkeep after Vinnytsia went: got %d RP, want 1 (Połtawa) + 1 (Kiev) + 2 (Proskurov)", got)
	}
	if !s.Supplied("ru-45sd") {
		t.Errorf("the Proskurov depot should still supply (5.4)")
	}
}

// Rule 6.0's example "sprawdzenie zaopatrzenia": the 58th Rifle Division
// four hexes between it and the Zhytomyr depot is weakened; the Polish 15th
// Infantry Division two hexes from Zamość but across the unbridged Bug is
// weakened; Russian cavalry six hexes between is supplied; HQs always are.
func TestSupplyExample(t *testing.T) {
	s := bare(t, PhaseDepots, Polish, 10)
	s.Depots = []Depot{{Hex: "1814", Side: Russian}, {Hex: "1013", Side: Polish}}
	put(t, &s, "ru-58sd", "1314", "SW") // [A] 4 between Zhytomyr
	put(t, &s, "ru-24sd", "1414", "SW") // [C] 3 between
	put(t, &s, "ru-8kd", "1114", "SW")  // [D] cavalry, 6 between
	put(t, &s, "pl-15dp", "1312", "NE") // [B] 2 between Zamość, across the Bug
	put(t, &s, "pl-12dp", "0913", "NE") // [C] next to Zamość, same bank
	putHQ(t, &s, "ru-hq-12a", "0916")   // [E] far from any depot
	b := s.cat.Board
	for _, c := range []struct {
		id, from string
		between  int
	}{{"ru-58sd", "1814", 4}, {"ru-24sd", "1814", 3}, {"ru-8kd", "1814", 6}, {"pl-15dp", "1013", 2}} {
		if got := b.Distance(b.Index(s.unit(c.id).Hex), b.Index(Hex(c.from))) - 1; got != c.between {
			t.Fatalf("%s: %d hexes between, the example needs %d", c.id, got, c.between)
		}
	}
	s = mustApply(t, s, Pass{Side: Polish})
	s = mustApply(t, s, Pass{Side: Russian})
	want := map[string]bool{"ru-58sd": true, "pl-15dp": true, "ru-24sd": false, "ru-8kd": false, "pl-12dp": false}
	for id, weak := range want {
		if u := s.unit(id); u.Weak != weak || u.Unsupplied != weak || u.Status != OnMap {
			t.Errorf("%s: weak %v unsupplied %v status %q, want weak %v", id, u.Weak, u.Unsupplied, u.Status, weak)
		}
	}
	if !s.Supplied("ru-hq-12a") {
		t.Errorf("HQs are always supplied (6.0)")
	}
	// Already weakened and still unsupplied: eliminated at the next check.
	s2 := s.clone()
	s2.Pending, s2.Phase, s2.Turn = nil, PhaseDepots, Polish
	for i := range s2.Players {
		s2.Players[i].Spent, s2.Players[i].Passed = 0, false
	}
	s2 = mustApply(t, s2, Pass{Side: Polish})
	s2 = mustApply(t, s2, Pass{Side: Russian})
	if s2.unit("ru-58sd").Status != Eliminated || s2.unit("pl-15dp").Status != Eliminated {
		t.Errorf("weakened unsupplied units should be eliminated (6.0)")
	}
}

// Rule 7.2's example "usunięcie Żetonu Aktywacji": a Polish division moves
// into Ostrog facing a Russian division that faces Ostrog; the Russian may
// then discard its chit (or turn, or try to move). A stack not facing an
// enemy may not discard.
func TestOstrogChitDiscard(t *testing.T) {
	s := bare(t, PhaseChits, Polish, 10)
	put(t, &s, "pl-12dp", "1414", "NE")
	putHQ(t, &s, "pl-hq-3a", "1414")
	put(t, &s, "ru-58sd", "1614", "NW") // faces Ostrog (1514)
	putHQ(t, &s, "ru-hq-12a", "1614")
	put(t, &s, "ru-24sd", "1916", "SW") // a second Russian stack facing nobody
	s = mustApply(t, s, AssignChit{Side: Polish, Hex: "1414"})
	s = mustApply(t, s, AssignChit{Side: Russian, Hex: "1614"})
	s = mustApply(t, s, Pass{Side: Polish})
	s = mustApply(t, s, AssignChit{Side: Russian, Hex: "1916"})
	s = mustApply(t, s, Pass{Side: Russian})
	if got := s.Player(Russian).Spent; got != 2 {
		t.Errorf("Russian chits: %d RP, want 2 (7.3)", got)
	}
	s = mustApply(t, s, Roll{Dice: []int{6, 1}}) // Poles order first
	rejectCode(t, s, DiscardChit{Side: Polish, Hex: "1414"}, "must_order")
	s = mustApply(t, s, Order{Side: Polish, Hex: "1414", Path: []Hex{"1514"}, Facing: "SE"})
	if u := s.unit("pl-12dp"); u.Hex != "1514" || u.Facing != "SE" {
		t.Fatalf("12. DP at %s facing %s, want Ostrog facing SE", u.Hex, u.Facing)
	}
	if s.Turn != Russian {
		t.Fatalf("turn %s", s.Turn)
	}
	rejectCode(t, s, DiscardChit{Side: Russian, Hex: "1916"}, "must_order")
	before := *s.unit("ru-58sd")
	s = mustApply(t, s, DiscardChit{Side: Russian, Hex: "1614"})
	if u := s.unit("ru-58sd"); u.Hex != before.Hex || u.Facing != before.Facing || u.Ordered {
		t.Errorf("after the discard: %+v, want unchanged", u)
	}
	if s.Player(Russian).Spent != 2 {
		t.Errorf("the discarded chit's RP stay spent (7.3)")
	}
}

// exampleCombat is the position of "Przykład - rozstrygnięcie walki" after
// the withdrawal: hex B (2115) the Russian stack of two rifle divisions, the
// 11th Cavalry Division and artillery facing hex C (2014, forest) with the
// Polish 7th Cavalry Brigade and 12th Infantry Division facing back; the
// Russian HQ (2214) next to B and D; the 6th Rifle Division on D (2114) next
// to C but facing away; the Polish 2nd L-B Division on E (1914) next to C.
func exampleCombat(t *testing.T) State {
	s := bare(t, PhaseCombat, Russian, 10)
	for _, id := range []string{"ru-7sd", "ru-24sd", "ru-11kd", "ru-art-s"} {
		put(t, &s, id, "2115", "NW")
	}
	putHQ(t, &s, "ru-hq-12a", "2214")
	put(t, &s, "ru-6sd", "2114", "N")
	put(t, &s, "pl-7bk", "2014", "SE")
	put(t, &s, "pl-12dp", "2014", "SE")
	put(t, &s, "pl-2dlb", "1914", "NE")
	return s
}

func TestCombatExampleThroughApply(t *testing.T) {
	s := exampleCombat(t)
	// 9.2: the 6th Rifle Division cannot support: it does not face C.
	rejectCode(t, s, Attack{Side: Russian, From: "2115", Target: "2014", Support: "2114"}, "bad_support")
	s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"})
	if s.Battle.AttCF != 15 || s.Battle.DefCF != 10 {
		t.Fatalf("modified CF: attacker %d defender %d, want 15 and 10", s.Battle.AttCF, s.Battle.DefCF)
	}
	if s.Pending == nil || s.Pending.Kind != "combat_roll" || s.Pending.Odds == nil || s.Pending.Odds.Combat == nil {
		t.Fatalf("want the combat roll with odds, got %+v", s.Pending)
	}
	s = mustApply(t, s, Roll{Dice: []int{2, 4}}) // Russian 2, Polish 4: 17 vs 14
	if o := s.Battle.Outcome; o.Diff != 3 || o.Rule != "9.5b" || o.DefenderLosses != 1 || o.AttackerLosses != 0 {
		t.Fatalf("outcome %+v", o)
	}
	if s.Pending.Kind != "losses" || s.Pending.Side != Polish || s.Pending.N != 1 {
		t.Fatalf("pending %+v, want the Polish player to allocate one loss", s.Pending)
	}
	rejectCode(t, s, Losses{Side: Polish, Units: []string{"pl-12dp", "pl-7bk"}}, "losses_count")
	s = mustApply(t, s, Losses{Side: Polish, Units: []string{"pl-12dp"}})
	if !s.unit("pl-12dp").Weak || s.unit("pl-7bk").Weak {
		t.Fatalf("want the 12th Division weakened, the 7th Brigade not")
	}
	// None back (half of 1 is 0): straight to the retreat.
	if s.Pending.Kind != "retreat" || s.Pending.Side != Polish {
		t.Fatalf("pending %+v, want the Polish retreat", s.Pending)
	}
	for _, u := range s.Units {
		if u.Side == Russian && u.Weak {
			t.Errorf("%s weakened: the Russians take no loss", u.ID)
		}
	}
	rejectCode(t, s, Retreat{Side: Polish, Path: []Hex{"1914"}}, "retreat_two")
	rejectCode(t, s, Retreat{Side: Polish, Path: []Hex{"2013", "1913"}}, "enemy_adjacent")
	s = mustApply(t, s, Retreat{Side: Polish, Path: []Hex{"1914", "1813"}, Facing: "SE"})
	if u := s.unit("pl-7bk"); u.Hex != "1813" {
		t.Fatalf("7th Brigade at %s, want 1813", u.Hex)
	}
	if s.Pending.Kind != "pursuit" || s.Pending.Side != Russian || slices.Contains(s.Pending.Options, "ru-art-s") == false {
		t.Fatalf("pending %+v", s.Pending)
	}
	rejectCode(t, s, Pursue{Side: Russian, Units: []string{"ru-art-s"}}, "cannot_pursue")
	rejectCode(t, s, Pursue{Side: Russian, Units: []string{"ru-7sd"}, Further: []PursuitStep{{Unit: "ru-7sd", Hex: "1915"}}}, "cannot_pursue")
	s = mustApply(t, s, Pursue{Side: Russian, Units: []string{"ru-7sd", "ru-24sd", "ru-11kd"}, Facing: "SW",
		Further: []PursuitStep{{Unit: "ru-11kd", Hex: "1915", Facing: "NW"}}})
	for id, h := range map[string]Hex{"ru-7sd": "2014", "ru-24sd": "2014", "ru-11kd": "1915", "ru-art-s": "2115"} {
		if got := s.unit(id).Hex; got != h {
			t.Errorf("%s at %s, want %s", id, got, h)
		}
	}
	// Markers (9.7): attackers and the detached cavalry attacked; the Poles fought.
	if !s.unit("ru-11kd").Attacked || !s.unit("pl-12dp").Fought || !s.unit("pl-7bk").Fought {
		t.Errorf("attack/defence markers missing")
	}
	if s.Battle != nil || s.Pending != nil || s.Turn != Polish {
		t.Errorf("after the combat: battle %v pending %v turn %s, want the Polish turn", s.Battle, s.Pending, s.Turn)
	}
}

// The same combat with the winner choosing the losses (option) and the
// defender winning: the losses pending names the right side each time.
func TestCombatLossesSideTracked(t *testing.T) {
	s := exampleCombat(t)
	s.Options.LossesChosenBy = "winner"
	s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"})
	s = mustApply(t, s, Roll{Dice: []int{6, 1}}) // 21 vs 11: 9.5c, 5 losses capped at 4 units… to the Poles
	if s.Pending.Kind != "losses" || s.Pending.Side != Russian || s.Pending.Role != "defender" {
		t.Fatalf("pending %+v, want the Russian (winner) allocating Polish losses", s.Pending)
	}
	s = mustApply(t, s, Losses{Side: Russian, Units: []string{"pl-12dp", "pl-12dp", "pl-7bk", "pl-7bk"}})
	if s.unit("pl-12dp").Status != Eliminated || s.unit("pl-7bk").Status != Eliminated {
		t.Errorf("both Polish units should be eliminated")
	}
	if s.Battle != nil && s.Pending != nil && s.Pending.Kind == "losses" {
		t.Errorf("9.5c: the winner takes no losses, got %+v", s.Pending)
	}
}

// Rule 9.1 and the first part of the combat example: the Russian 8th
// Cavalry Division, faced only by a Polish stack without cavalry, withdraws
// two hexes to hex A held by the 18th Rifle Division and takes its facing;
// the Polish stack enters the vacated hex.
func TestWithdrawalBeforeCombat(t *testing.T) {
	s := bare(t, PhaseWithdrawal, Russian, 10)
	put(t, &s, "ru-8kd", "2017", "NW")
	put(t, &s, "ru-18sd", "2118", "N")  // hex A
	put(t, &s, "pl-13dp", "1917", "SE") // faces 2017
	rejectCode(t, s, Withdraw{Side: Russian, Hex: "2118", Path: []Hex{"2117", "2017"}}, "not_all_cavalry")
	rejectCode(t, s, Withdraw{Side: Russian, Hex: "2017", Path: []Hex{"2117"}}, "retreat_two")
	// With cavalry in the facing stack: refused.
	withCav := s.clone()
	put(t, &withCav, "pl-7bk", "1917", "SE")
	rejectCode(t, withCav, Withdraw{Side: Russian, Hex: "2017", Path: []Hex{"2117", "2118"}}, "enemy_cavalry")
	// Two enemy stacks facing: refused.
	two := s.clone()
	put(t, &two, "pl-18dp", "2016", "S")
	rejectCode(t, two, Withdraw{Side: Russian, Hex: "2017", Path: []Hex{"2117", "2118"}}, "not_one_facing")

	s = mustApply(t, s, Withdraw{Side: Russian, Hex: "2017", Path: []Hex{"2117", "2118"}, Facing: "SW"})
	if u := s.unit("ru-8kd"); u.Hex != "2118" || u.Facing != "N" {
		t.Fatalf("8th Cavalry at %s facing %s, want hex A facing N (the 18th's facing)", u.Hex, u.Facing)
	}
	if s.Pending == nil || s.Pending.Kind != "withdraw_follow" || s.Pending.Side != Polish {
		t.Fatalf("pending %+v, want the Polish choice to enter the vacated hex", s.Pending)
	}
	s = mustApply(t, s, Pursue{Side: Polish, Units: []string{"pl-13dp"}})
	if u := s.unit("pl-13dp"); u.Hex != "2017" {
		t.Errorf("13. DP at %s, want 2017", u.Hex)
	}
	if s.Pending != nil || s.Turn != Polish {
		t.Errorf("pending %+v turn %s: want the Polish turn to withdraw", s.Pending, s.Turn)
	}
}
