package west1920

import (
	"slices"
	"testing"
)

// 13.4: a Ukrainian HQ commands only Ukrainian combat units and does not
// enable an attack (9.2) by a stack holding Polish and Ukrainian units; a
// Polish HQ does; a Ukrainian HQ enables an all-Ukrainian stack.
func TestUkrainianHQMixedStack(t *testing.T) {
	s := bare(t, PhaseCombat, Polish, 5)
	put(t, &s, "ua-2ds", "1705", "NE")
	put(t, &s, "pl-8dp", "1705", "NE")
	put(t, &s, "ru-2sd", "1804", "SW")
	putHQ(t, &s, "ua-hq", "1705")
	a := Attack{Side: Polish, From: "1705", Target: "1804"}
	rejectCode(t, s, a, "no_hq")
	alone := s.clone()
	alone.unit("pl-8dp").Status = Waiting
	if _, _, err := Apply(alone, a); err != nil {
		t.Fatalf("an all-Ukrainian stack under the Ukrainian HQ: %v", err)
	}
	polishHQ := s.clone()
	putHQ(t, &polishHQ, "pl-hq-1a", "1604")
	if _, _, err := Apply(polishHQ, a); err != nil {
		t.Fatalf("a mixed stack next to a Polish HQ: %v", err)
	}
}

// 9.6: an HQ attacked alone leaves the map at once; the attackers take no
// losses and may pursue; at the next stage's reinforcement phase it returns
// to a city held by a friendly combat unit within five hexes of where it
// was removed (the owner chooses), or is eliminated when there is none.
func TestHQRemovedAndReturns(t *testing.T) {
	s := bare(t, PhaseCombat, Polish, 5)
	put(t, &s, "pl-8dp", "1705", "NE")
	putHQ(t, &s, "pl-hq-1a", "1705")
	putHQ(t, &s, "ru-hq-15a", "1804")
	n, evs := mustApplyEv(t, s, Attack{Side: Polish, From: "1705", Target: "1804"})
	q := n.hq("ru-hq-15a")
	if !hasEvent(evs, "hq_removed") || q.Status != OffMap || q.From != "1804" || q.Return != s.Stage+1 {
		t.Fatalf("HQ %+v: want it off the map until stage %d", q, s.Stage+1)
	}
	if n.Pending == nil || n.Pending.Kind != "pursuit" || n.unit("pl-8dp").Weak {
		t.Fatalf("pending %+v: want the pursuit, no losses", n.Pending)
	}
	// Next stage's reinforcement phase: Bobrujsk (1907) and Połock (1802)
	// hold Russian units, both within five hexes of 1804; Mińsk (1606) is
	// Polish.
	r := bare(t, PhaseStrategic, Polish, 5)
	r.Stage = 3
	*r.hq("ru-hq-15a") = *q
	put(t, &r, "ru-2sd", "1907", "SW")
	put(t, &r, "ru-4sd", "1802", "SW")
	put(t, &r, "pl-10dp", "1606", "NE")
	r.reinforcements()
	wantPending(t, r, "arrival", Russian, -1)
	if len(r.Pending.Options) != 2 {
		t.Fatalf("options %v: want Bobrujsk and Połock", r.Pending.Options)
	}
	rejectCode(t, r, Place{Side: Russian, Unit: "ru-hq-15a", Hex: "1606"}, "bad_place")
	n = mustApply(t, r, Place{Side: Russian, Unit: "ru-hq-15a", Hex: "1907"})
	if h := n.hq("ru-hq-15a"); h.Status != OnMap || h.Hex != "1907" || n.Stage != 4 {
		t.Fatalf("HQ %+v, stage %d: want it back in Bobrujsk and stage 4", h, n.Stage)
	}
	// No city: eliminated.
	r2 := bare(t, PhaseStrategic, Polish, 5)
	r2.Stage = 3
	*r2.hq("ru-hq-15a") = *q
	r2.reinforcements()
	if r2.hq("ru-hq-15a").Status != Eliminated || r2.Stage != 4 {
		t.Fatal("an HQ with no city to return to is eliminated")
	}
}

// 9.6: an HQ whose stack's combat units are all eliminated in combat
// leaves the map.
func TestHQStrandedByLosses(t *testing.T) {
	s := bare(t, PhaseCombat, Polish, 5)
	putHQ(t, &s, "ru-hq-15a", "1804")
	put(t, &s, "pl-8dp", "1705", "NE")
	s.Battle = &Battle{Side: Polish, From: "1705", Target: "1804"}
	evs := s.strandedHQs()
	if !hasEvent(evs, "hq_removed") || s.hq("ru-hq-15a").Status != OffMap {
		t.Fatal("the HQ left alone stays on the map")
	}
}

// 12.0: a reinforcement whose hex is enemy-held goes to an adjacent hex of
// the owner's choice; with none usable it is removed, except the Russian
// cavalry and HQ due at Uman in stage 4, which may enter along the eastern
// edge south of the Sejm.
func TestReinforcementDisplaced(t *testing.T) {
	s := bare(t, PhaseStrategic, Polish, 5)
	s.Stage = 6
	put(t, &s, "pl-8dp", "2404", "NE") // Smolensk held by the Poles
	s.reinforcements()
	wantPending(t, s, "arrival", Russian, -1)
	if slices.Contains(s.Pending.Options, "2404") || len(s.Pending.Options) == 0 {
		t.Fatalf("options %v: want Smolensk's free neighbours", s.Pending.Options)
	}
	n := mustApply(t, s, Place{Side: Russian, Unit: s.Pending.Unit, Hex: Hex(s.Pending.Options[0]), Facing: "SW"})
	if u := n.unit("ru-5sd"); u.Status != OnMap || u.Hex != Hex(s.Pending.Options[0]) {
		t.Fatalf("ru-5sd %+v: want it on the chosen neighbour", u)
	}
	// Uman (2117) and all its neighbours Polish: the stage-4 cavalry and HQ
	// may use the eastern edge south of the Sejm.
	u := bare(t, PhaseStrategic, Polish, 5)
	u.Stage = 4
	b := u.cat.Board
	blockers := []string{"pl-8dp", "pl-10dp", "pl-11dp", "pl-5dp", "pl-1dlb", "pl-2dlb", "pl-4bk"}
	at := b.Index("2117")
	put(t, &u, blockers[0], "2117", "NE")
	k := 1
	for d := N; d <= NW; d++ {
		if j := b.Neighbour(at, d); j >= 0 {
			put(t, &u, blockers[k], b.HexAt(j), "NE")
			k++
		}
	}
	u.reinforcements()
	wantPending(t, u, "arrival", Russian, -1)
	for _, h := range u.Pending.Options {
		if !u.cat.sejmEdge[Hex(h)] {
			t.Fatalf("option %s is not on the eastern edge south of the Sejm", h)
		}
	}
}

// 13.5: a Russian unit entering East Prussia leaves play; the Russian
// player rolls 1d6 (an input) and it returns weakened to Smolensk that
// many stages later; a Polish unit is interned for good.
func TestEastPrussia(t *testing.T) {
	s := bare(t, PhaseCombat, Polish, 5)
	b := s.cat.Board
	put(t, &s, "ru-2sd", "0304", "SW")
	put(t, &s, "pl-8dp", "0305", "NE")
	s.enterHex(Russian, b.Index("0304"))
	s.enterHex(Polish, b.Index("0305"))
	if s.unit("ru-2sd").Status != Prussia || s.unit("pl-8dp").Status != Interned {
		t.Fatalf("statuses %q %q", s.unit("ru-2sd").Status, s.unit("pl-8dp").Status)
	}
	s.prussiaRollDue()
	wantPending(t, s, "prussia", Russian, -1)
	n := mustApply(t, s, Roll{Dice: []int{3}})
	if n.unit("ru-2sd").Return != s.Stage+3 || n.Pending != nil {
		t.Fatalf("return stage %d, want %d", n.unit("ru-2sd").Return, s.Stage+3)
	}
	early := n.clone()
	early.Stage = s.Stage + 2
	early.reinforcements()
	if early.unit("ru-2sd").Status != Prussia {
		t.Fatal("back too early")
	}
	n.Stage = s.Stage + 3
	n.reinforcements()
	if u := n.unit("ru-2sd"); u.Status != OnMap || u.Hex != "2404" || !u.Weak {
		t.Fatalf("ru-2sd %+v: want it weakened in Smolensk", u)
	}
	if n.unit("pl-8dp").Status != Interned {
		t.Fatal("the interned Polish unit came back")
	}
}
