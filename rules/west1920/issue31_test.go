package west1920

import "testing"

// #31: 9.5b forbids retreat hexes holding enemy combat units (or next to
// them, unscreened); a hex holding only an enemy HQ is entered, the HQ
// removed (9.6), as for moves (AMBIGUITIES.md, 7.5/7.6/11.2). The
// rulebook's combat example (17 vs 14, 9.5b) with a lone Russian HQ in
// the Poles' retreat hex.
func TestRetreatIntoLoneEnemyHQ(t *testing.T) {
	s := exampleCombat(t)
	putHQ(t, &s, "ru-hq-15a", "1813")
	s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"})
	s = mustApply(t, s, Roll{Dice: []int{2, 4}})
	s = mustApply(t, s, Losses{Side: Polish, Units: []string{"pl-12dp"}})
	if !s.anyRetreat(Polish, "2014") {
		t.Fatal("anyRetreat: no retreat for the Poles")
	}
	s = mustApply(t, s, Retreat{Side: Polish, Path: []Hex{"1914", "1813"}, Facing: "SE"})
	if u := s.unit("pl-7bk"); u.Hex != "1813" {
		t.Fatalf("7th Brigade at %s, want 1813", u.Hex)
	}
	if q := s.hq("ru-hq-15a"); q.Status == OnMap && q.Hex == "1813" {
		t.Errorf("the Russian HQ stays in 1813 with the Poles (9.6)")
	}
}

// The same through the first hex: a lone enemy HQ in the hex passed
// through is removed and the retreat goes on; anyRetreat (cards 20, 28, a
// stack with no other route) finds the route.
func TestRetreatThroughLoneEnemyHQ(t *testing.T) {
	s := bare(t, PhaseCombat, Russian, 10)
	put(t, &s, "pl-7bk", "1813", "SE")
	putHQ(t, &s, "ru-hq-15a", "1713")
	if err := s.checkRetreatPath(Polish, "1813", []Hex{"1713", "1613"}, 1); err != nil {
		t.Errorf("the retreat through the lone Russian HQ: %v", err)
	}
	if !s.anyRetreat(Polish, "1813") {
		t.Error("anyRetreat finds no route")
	}
}

// #31: a coordinated attack cancelled by its roll (1–2, 9.2 "atak jest
// anulowany") is no combat: both stacks count as having attacked, but
// nobody fought, so a later attack that stage finds the defenders without
// 9.3's −1 ("uczestniczyła w walce").
func TestCancelledCoordinatedAttackIsNoCombat(t *testing.T) {
	s := exampleCombat(t)
	s.unit("ru-6sd").Facing = "SW" // 2114 now faces 2014
	s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014", Support: "2114"})
	s = mustApply(t, s, Roll{Dice: []int{1}})
	for _, id := range []string{"ru-7sd", "ru-24sd", "ru-11kd", "ru-6sd"} {
		if u := s.unit(id); !u.Attacked || u.Fought {
			t.Errorf("%s: attacked %v, fought %v; want attacked, not fought", id, u.Attacked, u.Fought)
		}
	}
	for _, id := range []string{"pl-7bk", "pl-12dp"} {
		if s.unit(id).Fought {
			t.Errorf("%s marked as having fought after a cancelled attack", id)
		}
	}
}

// #31: 13.1 "jeden (1) Punkt Zasobów za każdą rosyjską jednostkę bojową,
// która przekracza linię": one RP per unit that crosses, however often
// its path crosses the line (here there and back, with one RP left).
func TestStrategicLineCostPerUnit(t *testing.T) {
	b := defaultCat(t).Board
	var path []Hex
	var from Hex
	for r := 2; r < b.Rows && path == nil; r++ {
		for c := b.Columns - 1; c >= b.Columns-3 && path == nil; c-- {
			i := b.Index(cc(c, r))
			if i < 0 || !b.south[i] || b.impassable[i] {
				continue
			}
			n := b.Neighbour(i, N)
			if n < 0 || b.south[n] || b.impassable[n] {
				continue
			}
			for d := N; d <= NW; d++ {
				x := b.Neighbour(n, d)
				if x >= 0 && x != i && b.south[x] && !b.impassable[x] {
					from, path = b.HexAt(i), []Hex{b.HexAt(n), b.HexAt(x)}
					break
				}
			}
		}
	}
	if path == nil {
		t.Fatal("no path by the eastern edge that crosses the line twice")
	}
	s := bare(t, PhaseStrategic, Russian, 1)
	put(t, &s, "ru-7sd", from, "N")
	n := mustApply(t, s, StrategicMove{Side: Russian, Unit: "ru-7sd", Path: path, Facing: "N"})
	if got := n.player(Russian).Spent; got != 1 {
		t.Errorf("%s → %v crosses the line twice: %d RP spent, want 1 (13.1: per unit)", from, path, got)
	}
}

// #31, decided (AMBIGUITIES.md, 5.2/9.5b): "zajęty przez sojuszniczą
// jednostkę" screens a hex next to an enemy combat unit; the rule names
// the enemy "jednostka bojowa" and the friend only "jednostka", and the
// rulebook calls an HQ "jednostka dowodzenia": a friendly HQ screens for
// supply (5.2, 6.0) and retreats (9.5b). Option screen: combat_unit keeps
// to combat units.
func TestFriendlyHQScreens(t *testing.T) {
	s := bare(t, PhaseCombat, Russian, 10)
	b := s.cat.Board
	enemy, at := Hex("1813"), -1
	e := b.Index(enemy)
	for d := N; d <= NW; d++ {
		if j := b.Neighbour(e, d); j >= 0 && !b.unbridged(e, d) && s.passable(j) {
			at = j
			break
		}
	}
	if at < 0 {
		t.Fatal("no neighbour of 1813 without a river")
	}
	put(t, &s, "ru-7sd", enemy, "N")
	putHQ(t, &s, "pl-hq-3a", b.HexAt(at))
	for _, c := range []struct {
		screen  string
		exposed bool
	}{{"unit", false}, {"combat_unit", true}} {
		s.Options.Screen = c.screen
		o := s.occupancy(Polish)
		if got := s.exposed(at, &o); got != c.exposed {
			t.Errorf("screen %s: %s next to the Russians with a Polish HQ: exposed %v, want %v", c.screen, b.HexAt(at), got, c.exposed)
		}
		if _, ok := s.between(at, &o); ok == c.exposed {
			t.Errorf("screen %s: %s may lie between a depot and its unit: %v, want %v", c.screen, b.HexAt(at), ok, !c.exposed)
		}
	}
	bad := Options{Screen: "hq"}
	bad.defaults()
	if err := bad.check(); err == nil {
		t.Error("screen: hq accepted")
	}
}
