package west1920

import (
	"slices"
	"strings"
	"testing"
)

// 9.2: artillery takes part in an attack only with infantry: in a stack of
// cavalry and artillery it adds no CF and is not an attacker (no losses,
// no 9.4 cap, no 9.3 fourth-point exception).
func TestArtilleryAttacksOnlyWithInfantry(t *testing.T) {
	withArt := exampleCombat(t)
	withArt.unit("ru-7sd").Status, withArt.unit("ru-24sd").Status = Waiting, Waiting
	alone := withArt.clone()
	alone.unit("ru-art-s").Status = Waiting
	a := Attack{Side: Russian, From: "2115", Target: "2014"}
	x, y := mustApply(t, withArt, a), mustApply(t, alone, a)
	if x.Battle.AttCF != y.Battle.AttCF || slices.Contains(x.Battle.Attackers, "ru-art-s") {
		t.Fatalf("cavalry with artillery: CF %d attackers %v; cavalry alone: CF %d", x.Battle.AttCF, x.Battle.Attackers, y.Battle.AttCF)
	}
	// With infantry the artillery attacks.
	full := mustApply(t, exampleCombat(t), a)
	if !slices.Contains(full.Battle.Attackers, "ru-art-s") {
		t.Fatal("artillery with infantry is not an attacker")
	}
}

// 9.2: "Jednostka może atakować tylko raz na etap" and supporting counts as
// an attack: a stack that already attacked cannot support.
func TestSupportAttacksOnce(t *testing.T) {
	s := exampleCombat(t)
	s.unit("ru-6sd").Facing = "SW"
	a := Attack{Side: Russian, From: "2115", Target: "2014", Support: "2114"}
	mustApply(t, s, a)
	s.unit("ru-6sd").Attacked = true
	rejectCode(t, s, a, "attacked_once")
}

// 1.2, 9.3: a defending stack's facing is its cavalry's and infantry's,
// whatever unit comes first in the stack (artillery has no facing).
func TestDefenderFacingWithArtillery(t *testing.T) {
	cf := map[string]int{}
	for _, facing := range []string{"SE", "N"} {
		s := exampleCombat(t)
		s.unit("pl-7bk").Status = Waiting
		put(t, &s, "pl-art-1", "2014", "")
		s.unit("pl-12dp").Facing = facing
		if st := s.Stack("2014"); st[0].ID != "pl-art-1" {
			t.Fatalf("the artillery should come first in the stack: %v", st)
		}
		cf[facing] = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"}).Battle.DefCF
	}
	if cf["SE"] != cf["N"]+1 {
		t.Fatalf("defence CF facing the attacker %d, facing away %d: want the front factor (3) against the flank (2)", cf["SE"], cf["N"])
	}
}

// 7.5, 7.6, 11.2's note: a combat unit that passes through a hex with an
// enemy depot or a lone enemy HQ destroys the depot and removes the HQ
// (9.6), on the way as at the end of the move; strategic movement may
// enter such a hex.
func TestMovePassesThroughDepotAndHQ(t *testing.T) {
	s := ordersState(t, "1606")
	put(t, &s, "pl-4bk", "1606", "NE")
	putHQ(t, &s, "pl-hq-1a", "1606")
	putHQ(t, &s, "ru-hq-16a", "1706")
	s.Depots = []Depot{{Hex: "1706", Side: Russian}}
	n, evs := mustApplyEv(t, s, Order{Side: Polish, Hex: "1606", Path: []Hex{"1706", "1806"}, Facing: "NE"})
	if len(n.Depots) != 0 || n.hq("ru-hq-16a").Status != OffMap || !hasEvent(evs, "depot_destroyed") || !hasEvent(evs, "hq_removed") {
		t.Fatalf("depots %v, HQ %+v: want both gone", n.Depots, n.hq("ru-hq-16a"))
	}
	st := bare(t, PhaseStrategic, Polish, 3)
	put(t, &st, "pl-8dp", "0710", "NE")
	putHQ(t, &st, "ru-hq-16a", "0810")
	n = mustApply(t, st, StrategicMove{Side: Polish, Unit: "pl-8dp", Path: []Hex{"0810"}})
	if n.hq("ru-hq-16a").Status != OffMap || n.unit("pl-8dp").Hex != "0810" {
		t.Fatal("a strategic move into a lone enemy HQ's hex removes the HQ (11.2, 9.6)")
	}
}

// 9.5c: the winner picks the loser's route but must pick one that
// eliminates the fewest units.
func TestRoutRouteFewestLosses(t *testing.T) {
	s := bare(t, PhaseCombat, Russian, 5)
	put(t, &s, "pl-8dp", "0812", "SE")
	put(t, &s, "pl-10dp", "0812", "SE")
	for _, id := range []string{"pl-11dp", "pl-5dp", "pl-1dlb"} {
		put(t, &s, id, "0612", "NE")
	}
	put(t, &s, "ru-4sd", "0912", "NW")
	s.Battle = &Battle{Side: Russian, From: "0912", Target: "0812", Attackers: []string{"ru-4sd"}, Defenders: []string{"pl-8dp", "pl-10dp"},
		Outcome: &CombatOutcome{Winner: Attacker, Effect: EffectRout, Rule: "9.5c"}, Loser: Polish}
	s.setPending(Pending{Kind: "retreat", Action: "retreat", Side: Russian})
	rejectCode(t, s, Retreat{Side: Russian, Path: []Hex{"0712", "0612"}, Eliminate: []string{"pl-8dp"}}, "retreat_costly")
	n := mustApply(t, s, Retreat{Side: Russian, Path: []Hex{"0712", "0711"}})
	if n.unit("pl-8dp").Hex != "0711" || n.unit("pl-8dp").Status != OnMap {
		t.Fatalf("pl-8dp %+v", n.unit("pl-8dp"))
	}
	// 9.5b: the loser picks and may pick the costly route.
	b := s.clone()
	b.Battle.Outcome = &CombatOutcome{Winner: Attacker, Effect: EffectRetreat, Rule: "9.5b"}
	b.setPending(Pending{Kind: "retreat", Action: "retreat", Side: Polish})
	mustApply(t, b, Retreat{Side: Polish, Path: []Hex{"0712", "0612"}, Eliminate: []string{"pl-8dp"}})
}

// 13.3, 13.4: a Ukrainian unit north of the line is eliminated as soon as
// it gets there; a Lithuanian unit may not join a Russian stack, in
// strategic movement too.
func TestSpecialRulesAtOnce(t *testing.T) {
	s := ordersState(t, "0511")
	put(t, &s, "ua-2ds", "0511", "N")
	putHQ(t, &s, "ua-hq", "0511")
	n, evs := mustApplyEv(t, s, Order{Side: Polish, Hex: "0511", Path: []Hex{"0510"}, Facing: "N"})
	if n.unit("ua-2ds").Status != Eliminated || !hasEvent(evs, "eliminated") {
		t.Fatalf("ua-2ds %+v: want it eliminated north of the line at once (13.4)", n.unit("ua-2ds"))
	}
	l := bare(t, PhaseStrategic, Russian, 3)
	l.Lithuania = true
	put(t, &l, "lt-1dp", "1103", "S")
	put(t, &l, "ru-2sd", "1104", "S")
	rejectCode(t, l, StrategicMove{Side: Russian, Unit: "lt-1dp", Path: []Hex{"1104"}}, "lithuanian_stack")
}

// The "Bad input" list: each is a typed rejection with a reason
// in Polish and in English (the English one with English side names) and
// the state unchanged. (A river on a missing hex side: TestRiverOnMissingSide.)
func TestBadInputList(t *testing.T) {
	orders := func(t *testing.T) State {
		s := ordersState(t, "1606")
		put(t, &s, "pl-8dp", "1606", "NE")
		putHQ(t, &s, "pl-hq-1a", "1606")
		return s
	}
	combat := func(t *testing.T) State { return exampleCombat(t) }
	cases := []struct {
		name  string
		scene func(*testing.T) State
		act   Action
		code  string
	}{
		{"impassable", func(t *testing.T) State {
			s := orders(t)
			s.Chits[0].Hex = "1611"
			put(t, &s, "pl-8dp", "1611", "N")
			putHQ(t, &s, "pl-hq-1a", "1611")
			return s
		}, Order{Side: Polish, Hex: "1611", Path: []Hex{"1610"}}, "impassable"},
		{"enemy-occupied", func(t *testing.T) State {
			s := orders(t)
			put(t, &s, "ru-2sd", "1706", "SW")
			return s
		}, Order{Side: Polish, Hex: "1606", Path: []Hex{"1706"}}, "enemy_occupied"},
		{"over-stacking", func(t *testing.T) State {
			s := orders(t)
			for _, id := range []string{"pl-10dp", "pl-11dp", "pl-5dp", "pl-1dlb"} {
				put(t, &s, id, "1605", "NE")
			}
			return s
		}, Order{Side: Polish, Hex: "1606", Path: []Hex{"1605"}}, "overstacked"},
		{"attack without facing", func(t *testing.T) State {
			s := combat(t)
			for _, id := range []string{"ru-7sd", "ru-24sd", "ru-11kd"} {
				s.unit(id).Facing = "N"
			}
			return s
		}, Attack{Side: Russian, From: "2115", Target: "2014"}, "not_facing"},
		{"attack without an HQ", func(t *testing.T) State {
			s := combat(t)
			s.hq("ru-hq-12a").Status = Waiting
			return s
		}, Attack{Side: Russian, From: "2115", Target: "2014"}, "no_hq"},
		{"RP that are not there", func(t *testing.T) State {
			s := bare(t, PhaseChits, Polish, 0)
			put(t, &s, "pl-8dp", "1606", "NE")
			return s
		}, AssignChit{Side: Polish, Hex: "1606"}, "no_rp"},
		{"a chit on a stack with no units left", func(t *testing.T) State {
			s := bare(t, PhaseChits, Polish, 5)
			put(t, &s, "pl-8dp", "1606", "NE")
			s.Chits = []Chit{{Side: Polish, Hex: "1606", Cost: 1}}
			return s
		}, AssignChit{Side: Polish, Hex: "1606"}, "no_units_left"},
		{"a depot without RP", func(t *testing.T) State {
			s := bare(t, PhaseDepots, Polish, 0)
			put(t, &s, "pl-8dp", "0707", "NE")
			return s
		}, BuildDepot{Side: Polish, Hex: "0707"}, "no_rp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkRefused(t, c.scene(t), c.act, c.code)
		})
	}
}

// Side names in events are in each text's own language.
func TestEventTextLanguages(t *testing.T) {
	s := newGame(t)
	_, evs := mustApplyEv(t, s, DrawCard{Side: Russian, Card: 1})
	if evs[0].Text.EN != "the Russian player draws a card" || evs[0].Text.PL != "gracz rosyjski ciągnie kartę" {
		t.Fatalf("texts %+v", evs[0].Text)
	}
}

// 9.6: after attacking a lone HQ the attackers may occupy its hex, but the
// cavalry's extra hex of 9.5b does not apply.
func TestLoneHQNoFurtherPursuit(t *testing.T) {
	s := bare(t, PhaseCombat, Polish, 5)
	put(t, &s, "pl-4bk", "1705", "NE")
	putHQ(t, &s, "pl-hq-1a", "1705")
	putHQ(t, &s, "ru-hq-15a", "1804")
	s = mustApply(t, s, Attack{Side: Polish, From: "1705", Target: "1804"})
	wantPending(t, s, "pursuit", Polish, -1)
	rejectCode(t, s, Pursue{Side: Polish, Units: []string{"pl-4bk"}, Further: []PursuitStep{{Unit: "pl-4bk", Hex: "1904"}}}, "cannot_pursue")
	if n := mustApply(t, s, Pursue{Side: Polish, Units: []string{"pl-4bk"}}); n.unit("pl-4bk").Hex != "1804" {
		t.Fatal("the cavalry did not occupy the HQ's hex")
	}
}

// The referee's correction of an HQ refuses an unknown status.
func TestAdjustHQStatus(t *testing.T) {
	s := newGame(t)
	rejectCode(t, s, Adjust{Unit: "pl-hq-1a", Status: "sunk"}, "bad_status")
	if n := mustApply(t, s, Adjust{Unit: "pl-hq-1a", Status: OffMap}); n.hq("pl-hq-1a").Status != OffMap {
		t.Fatal("a valid HQ status was not set")
	}
}

// 9.5c: "może natychmiast wykonać kolejny atak": right after the pursuit
// the winner is asked (attack_again): an attack by a stack of the units
// that entered the vacated hex, or a pass that forfeits it (and is not a
// pass for the phase). A side that passed for the phase is not asked.
func TestAttackAgainAtOnce(t *testing.T) {
	rout := func(t *testing.T, passed bool) State {
		s := exampleCombat(t)
		putHQ(t, &s, "ru-hq-14a", "2013")
		if passed {
			s.player(Russian).Passed = true
		}
		s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"})
		s = mustApply(t, s, Roll{Dice: []int{3, 1}})
		for s.Pending != nil && s.Pending.Kind == "losses" {
			s = pendingStep(t, s, func(Action) bool { return true })
		}
		s = pendingStep(t, s, func(a Action) bool { return len(a.(Retreat).Path) > 0 })
		return mustApply(t, s, Pursue{Side: Russian, Units: []string{"ru-7sd", "ru-24sd"}, Facing: "NW"})
	}
	s := rout(t, false)
	wantPending(t, s, "attack_again", Russian, -1)
	if s.Pending.Hex != "2014" {
		t.Errorf("pending hex %s, want the vacated 2014", s.Pending.Hex)
	}
	rejectCode(t, s, Attack{Side: Russian, From: "2115", Target: "2014"}, "not_again")
	rejectCode(t, s, Pass{Side: Polish}, "awaiting_decision")
	n := mustApply(t, s, Attack{Side: Russian, From: "2014", Target: "1914"})
	wantPending(t, n, "combat_roll", "", -1)
	// Declined: the flags go, the turn passes, the Russians have not passed.
	d, evs := mustApplyEv(t, s, Pass{Side: Russian})
	if !hasEvent(evs, "no_attack_again") || d.Turn != Polish || d.player(Russian).Passed || d.unit("ru-7sd").Again {
		t.Fatalf("after declining: turn %s, passed %v, again %v", d.Turn, d.player(Russian).Passed, d.unit("ru-7sd").Again)
	}
	d = mustApply(t, d, Pass{Side: Polish})
	rejectCode(t, d, Attack{Side: Russian, From: "2014", Target: "1914"}, "attacked_once")
	// A side that passed for the phase is not asked.
	if p := rout(t, true); p.Pending != nil {
		t.Fatalf("pending %+v after a pass for the phase", p.Pending)
	}
}

// checkRefused: act on s is refused with code, a reason in Polish and
// English, no events, and neither s nor the returned state changed.
func checkRefused(t *testing.T, s State, act Action, code string) {
	t.Helper()
	before := string(mustJSON(t, s))
	n, evs, err := Apply(s, act)
	r, ok := asRejection(err)
	if !ok || r.Code != code {
		t.Fatalf("got %v, want %s", err, code)
	}
	if r.Reason.PL == "" || r.Reason.EN == "" || r.Reason.PL == r.Reason.EN || strings.Contains(r.Reason.EN, "gracz") {
		t.Errorf("reason %+v: want Polish and English", r.Reason)
	}
	if evs != nil || string(mustJSON(t, n)) != before || string(mustJSON(t, s)) != before {
		t.Error("the state changed")
	}
}
