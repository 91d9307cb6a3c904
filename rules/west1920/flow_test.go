package west1920

import (
	"testing"
)

// ordersState is a Polish orders phase with one chit on h.
func ordersState(t *testing.T, h Hex) State {
	s := bare(t, PhaseOrders, Polish, 5)
	s.Chits = []Chit{{Side: Polish, Hex: h, Cost: 1}}
	return s
}

// firstOrder is the first legal order moving len(path) == n hexes.
func firstOrder(t *testing.T, s State, n int) Order {
	t.Helper()
	for _, a := range LegalActions(s) {
		if o, ok := a.(Order); ok && len(o.Path) == n && o.HQ == "" {
			return o
		}
	}
	t.Fatalf("no legal order of %d hexes", n)
	return Order{}
}

// 7.4: a cavalry unit that moves five hexes rolls 1d6: 5–6 weakens a full
// unit, eliminates a weak one; 1–4 nothing.
func TestCavalryAttrition(t *testing.T) {
	s := ordersState(t, "1606")
	put(t, &s, "pl-4bk", "1606", "NE")
	putHQ(t, &s, "pl-hq-1a", "1606")
	o := firstOrder(t, s, 5)
	n := mustApply(t, s, o)
	wantPending(t, n, "attrition", Polish, -1)
	if n.Pending.Dice != 1 {
		t.Fatalf("dice %d, want 1 for one cavalry unit", n.Pending.Dice)
	}
	if m := mustApply(t, n, Roll{Dice: []int{4}}); m.unit("pl-4bk").Weak {
		t.Fatal("a 4 weakened the cavalry")
	}
	if m := mustApply(t, n, Roll{Dice: []int{5}}); !m.unit("pl-4bk").Weak || m.unit("pl-4bk").Status != OnMap {
		t.Fatal("a 5 did not weaken the cavalry")
	}
	s.unit("pl-4bk").Weak = true
	n = mustApply(t, s, o)
	if m := mustApply(t, n, Roll{Dice: []int{6}}); m.unit("pl-4bk").Status != Eliminated {
		t.Fatal("a 6 did not eliminate the weak cavalry")
	}
	// Four hexes: no roll.
	if n := mustApply(t, s, firstOrder(t, s, 4)); n.Pending != nil && n.Pending.Kind == "attrition" {
		t.Fatal("attrition roll after four hexes")
	}
}

// 7.2: with no HQ in or next to the stack, the order fails on a roll equal
// to or below the hexes between the stack and the nearest HQ; the pending
// roll shows that chance.
func TestActivationRollOdds(t *testing.T) {
	s := ordersState(t, "1606")
	put(t, &s, "pl-4bk", "1606", "NE")
	putHQ(t, &s, "pl-hq-1a", "1603") // 1605 and 1604 between
	o := firstOrder(t, s, 1)
	n := mustApply(t, s, o)
	wantPending(t, n, "activation", Polish, 2)
	if f := n.Pending.Odds.Fail; f == nil || !near(*f, 2.0/6, 1e-12) {
		t.Fatalf("fail odds %v, want 2/6", f)
	}
	fail := mustApply(t, n, Roll{Dice: []int{2}})
	if fail.unit("pl-4bk").Hex != "1606" || !fail.unit("pl-4bk").Ordered || len(fail.Chits) != 0 {
		t.Fatal("a failed order must leave the unit in place, ordered, its chit gone (7.2)")
	}
	ok := mustApply(t, n, Roll{Dice: []int{3}})
	if ok.unit("pl-4bk").Hex != o.Path[0] {
		t.Fatalf("a 3 against 2 hexes: the unit stays in %s", ok.unit("pl-4bk").Hex)
	}
}

// 10.0: a weakened supplied two-sided unit is restored for 1 RP; not an
// unsupplied one, a one-sided one (1.2), or with no RP left.
func TestReplacementPhase(t *testing.T) {
	s := newGame(t)
	s.Phase, s.Turn = PhaseReplacement, Polish
	for i := range s.Players {
		s.Players[i].TotalRP, s.Players[i].Spent = 2, 0
	}
	s.unit("pl-8dp").Weak = true
	n := mustApply(t, s, Replace{Side: Polish, Unit: "pl-8dp"})
	if n.unit("pl-8dp").Weak || n.player(Polish).Spent != 1 {
		t.Fatal("replacement: want the unit full and 1 RP spent")
	}
	rejectCode(t, s, Replace{Side: Polish, Unit: "pl-41pp"}, "one_sided")
	rejectCode(t, s, Replace{Side: Polish, Unit: "pl-10dp"}, "not_weakened")
	broke := s.clone()
	broke.player(Polish).Spent = 2
	rejectCode(t, broke, Replace{Side: Polish, Unit: "pl-8dp"}, "no_rp")
	cut := bare(t, PhaseReplacement, Polish, 3)
	put(t, &cut, "pl-8dp", "1705", "NE")
	cut.unit("pl-8dp").Weak = true
	if cut.Supplied("pl-8dp") {
		t.Fatal("pl-8dp at 1705 without depots is supplied: the scene no longer tests an unsupplied unit")
	}
	rejectCode(t, cut, Replace{Side: Polish, Unit: "pl-8dp"}, "unsupplied")
}

// 11.1, 11.2: strategic moves alternate, one per unit a stage, at most
// four a player (cards change it), not into or out of a hex next to the
// enemy.
func TestStrategicMovement(t *testing.T) {
	s := newGame(t)
	s.Phase, s.Turn = PhaseStrategic, Polish
	var mv StrategicMove
	for _, a := range LegalActions(s) {
		if m, ok := a.(StrategicMove); ok {
			mv = m
			break
		}
	}
	if mv.Unit == "" {
		t.Fatal("no legal strategic move at the start")
	}
	n := mustApply(t, s, mv)
	if !n.unit(mv.Unit).Strategic || n.Turn != Russian || n.player(Polish).StratMoves != 1 {
		t.Fatal("a strategic move: want the unit marked, one move counted, the turn passed (11.1)")
	}
	n.Turn = Polish
	back := []Hex{s.unit(mv.Unit).Hex}
	rejectCode(t, n, StrategicMove{Side: Polish, Unit: mv.Unit, Path: back}, "strategic_once")
	full := s.clone()
	full.player(Polish).StratMoves = full.player(Polish).StratLimit
	rejectCode(t, full, mv, "strategic_limit")
	// A unit in a hex next to an enemy combat unit may not leave it.
	f := bare(t, PhaseStrategic, Polish, 3)
	put(t, &f, "pl-8dp", "0609", "NE")
	put(t, &f, "ru-2sd", "0709", "SW")
	if err := func() error {
		_, _, err := Apply(f, StrategicMove{Side: Polish, Unit: "pl-8dp", Path: []Hex{"0509"}})
		return err
	}(); err == nil {
		t.Fatal("a unit left a hex next to the enemy strategically (11.2)")
	}
}

// 2.2: a supplied Polish unit in Smolensk or a supplied Russian unit in
// Warsaw wins at once; an unsupplied one does not. At the end of stage 14
// a side holding six victory cities wins, otherwise a draw.
func TestVictory(t *testing.T) {
	s := bare(t, PhaseReplacement, Polish, 3)
	put(t, &s, "pl-8dp", "2304", "NE")
	n := mustApply(t, s, Adjust{Unit: "pl-8dp", Hex: "2404"})
	if n.Supplied("pl-8dp") || n.Phase == PhaseOver {
		t.Fatalf("unsupplied in Smolensk: phase %s (supplied %v)", n.Phase, n.Supplied("pl-8dp"))
	}
	s.Depots = []Depot{{Hex: "2404", Side: Polish, Stage: 1}}
	n = mustApply(t, s, Adjust{Unit: "pl-8dp", Hex: "2404"})
	if n.Phase != PhaseOver || n.Winner != Polish {
		t.Fatalf("supplied Polish unit in Smolensk: winner %q", n.Winner)
	}
	r := bare(t, PhaseReplacement, Polish, 3)
	r.Depots = []Depot{{Hex: "0609", Side: Russian, Stage: 1}}
	put(t, &r, "ru-2sd", "0610", "NE")
	if n := mustApply(t, r, Adjust{Unit: "ru-2sd", Hex: "0609"}); n.Winner != Russian {
		t.Fatalf("supplied Russian unit in Warsaw: winner %q", n.Winner)
	}
	// Stage 14's end: six victory cities.
	e := bare(t, PhaseReinforcement, Polish, 3)
	e.Stage = Stages
	cities := []Hex{"0609", "0707", "0912", "1115", "0907", "1106"}
	ids := []string{"pl-8dp", "pl-10dp", "pl-11dp", "pl-5dp", "pl-1dlb", "pl-2dlb"}
	for k, h := range cities {
		put(t, &e, ids[k], h, "NE")
	}
	w := e.clone()
	w.endStage()
	if w.Winner != Polish {
		t.Fatalf("six cities: winner %q", w.Winner)
	}
	e.unit("pl-2dlb").Status = Waiting
	e.endStage()
	if e.Winner != "draw" || e.Phase != PhaseOver {
		t.Fatalf("five cities: winner %q, want a draw", e.Winner)
	}
}

// 9.2: a coordinated attack rolls 1d6: 1–2 the attack is cancelled (both
// stacks count as having attacked), 3–4 it goes in alone, 5–6 the second
// stack's combat factor is added.
func TestCoordinatedAttack(t *testing.T) {
	s := exampleCombat(t)
	s.unit("ru-6sd").Facing = "SW" // 2114 now faces 2014
	a := Attack{Side: Russian, From: "2115", Target: "2014", Support: "2114"}
	n := mustApply(t, s, a)
	wantPending(t, n, "coordination", Russian, -1)
	if n.Pending.Odds == nil || n.Pending.Odds.Coordinated == nil {
		t.Fatal("the coordination roll shows no odds")
	}
	base, sup := n.Battle.AttCF, n.Battle.SupportCF
	if sup <= 0 {
		t.Fatalf("support CF %d", sup)
	}
	c := mustApply(t, n, Roll{Dice: []int{2}})
	if c.Battle != nil || !c.unit("ru-6sd").Attacked || !c.unit("ru-7sd").Attacked || c.Turn != Polish {
		t.Fatal("1–2: the attack is cancelled, both stacks have attacked, the turn passes")
	}
	alone := mustApply(t, n, Roll{Dice: []int{4}})
	if alone.Battle.AttCF != base || alone.Pending.Kind != "combat_roll" {
		t.Fatalf("3–4: AttCF %d, want %d", alone.Battle.AttCF, base)
	}
	with := mustApply(t, n, Roll{Dice: []int{5}})
	if with.Battle.AttCF != base+sup || !with.Battle.Supported {
		t.Fatalf("5–6: AttCF %d, want %d", with.Battle.AttCF, base+sup)
	}
}

// pendingStep answers the pending decision with the first legal action
// accepted by pick.
func pendingStep(t *testing.T, s State, pick func(Action) bool) State {
	t.Helper()
	for _, a := range LegalActions(s) {
		if pick(a) {
			return mustApply(t, s, a)
		}
	}
	t.Fatalf("no legal answer to %+v", s.Pending)
	return s
}

// 9.5c: after a difference of 7 or more the winner takes no losses, picks
// the loser's route, and units entering the vacated hex may attack again
// at once (if in HQ range, next to and facing an enemy stack); after a
// 9.5b win they may not (one attack a stage, 9.2).
func TestRoutExtraAttack(t *testing.T) {
	for _, c := range []struct {
		dice  []int
		rout  bool
		wantE string
	}{{[]int{3, 1}, true, ""}, {[]int{2, 4}, false, "attacked_once"}} {
		s := exampleCombat(t)
		putHQ(t, &s, "ru-hq-14a", "2013") // in range of 2014 after the pursuit
		s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"})
		s = mustApply(t, s, Roll{Dice: c.dice})
		if c.rout && (s.Battle.Outcome.Rule != "9.5c" || s.Battle.AttLosses != 0) {
			t.Fatalf("outcome %+v: want 9.5c with no attacker losses", s.Battle.Outcome)
		}
		for s.Pending != nil && s.Pending.Kind == "losses" {
			s = pendingStep(t, s, func(Action) bool { return true })
		}
		wantPending(t, s, "retreat", map[bool]string{true: Russian, false: Polish}[c.rout], -1)
		s = pendingStep(t, s, func(a Action) bool { return len(a.(Retreat).Path) > 0 })
		wantPending(t, s, "pursuit", Russian, -1)
		s = mustApply(t, s, Pursue{Side: Russian, Units: []string{"ru-7sd", "ru-24sd"}, Facing: "NW"})
		if s.Turn == Polish {
			s = mustApply(t, s, Pass{Side: Polish})
		}
		_, _, err := Apply(s, Attack{Side: Russian, From: "2014", Target: "1914"})
		if c.wantE == "" && err != nil {
			t.Fatalf("9.5c: the pursuers may attack again: %v", err)
		}
		if c.wantE != "" {
			if r, ok := asRejection(err); !ok || r.Code != c.wantE {
				t.Fatalf("9.5b: got %v, want %s", err, c.wantE)
			}
		}
	}
}
