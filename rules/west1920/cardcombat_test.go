package west1920

import (
	"slices"
	"strconv"
	"testing"
)

// inForce puts card's column (the instructions for the player who played
// it) in force as the events phase leaves it (3.2), from the card data.
func inForce(t *testing.T, s *State, card int, player string) {
	t.Helper()
	c, ok := s.cat.Cards[card]
	if !ok {
		t.Fatalf("no card %d", card)
	}
	col := c.Polish
	if player == Russian {
		col = c.Russian
	}
	if c.Single() {
		col = c.Both
	}
	for _, e := range col {
		s.Effects = append(s.Effects, CardEffect{Card: card, Player: player, Effect: e})
	}
}

// Every combat_bonus card column (9.3, last point), as printed: whose
// stack, by how much, and who chooses ("Wybór należy do gracza …"). In the
// 9.5 example combat (the Russians attack 2115 → 2014, 15 against 10) a
// Russian-chosen card is named with the attack; a Polish-chosen one in the
// card_bonus decision the defender gets before the roll.
func TestCombatBonusCards(t *testing.T) {
	for _, c := range []struct {
		card       int
		column     string
		chooser    string
		hex        Hex
		att, def   int
		onlyAttack bool
	}{
		{5, Polish, Russian, "2115", 16, 10, false},  // Russian cavalry stack +1
		{5, Russian, Russian, "2115", 17, 10, false}, // Russian cavalry stack +2
		{16, Polish, Polish, "2014", 15, 12, false},  // two Polish stacks +2
		{16, Russian, Polish, "2014", 15, 11, false}, // two Polish stacks +1
		{17, Polish, Polish, "2014", 15, 12, false},  // the attacked Polish stack +2
		{19, Russian, Polish, "2014", 15, 12, false}, // two Polish stacks +2
		{25, Polish, Polish, "2014", 15, 12, false},  // a Polish stack +2
		{25, Russian, Polish, "2115", 13, 10, false}, // a Russian stack −2
		{26, Polish, Polish, "2014", 15, 12, false},
		{26, Russian, Polish, "2115", 13, 10, false},
		{27, Polish, Polish, "2014", 15, 12, false},
		{27, Russian, Polish, "2115", 13, 10, false},
		{30, Polish, Polish, "2014", 15, 12, false},
		{30, Russian, Russian, "2115", 17, 10, false}, // a Russian stack +2
		{38, Polish, Polish, "2014", 15, 12, false},
	} {
		s := exampleCombat(t)
		inForce(t, &s, c.card, c.column)
		a := Attack{Side: Russian, From: "2115", Target: "2014"}
		withBonus := a
		withBonus.Bonuses = []Bonus{{Card: c.card, Hex: c.hex}}
		if c.chooser == Russian {
			s = mustApply(t, s, withBonus)
		} else {
			// The attacker may not name the defender's card.
			rejectCode(t, s, withBonus, "bonus_chooser")
			s = mustApply(t, s, a)
			wantPending(t, s, "card_bonus", Polish, -1)
			if !slices.Contains(s.Pending.Options, strconv.Itoa(c.card)+"@"+string(c.hex)) {
				t.Fatalf("card %d (%s column): options %v", c.card, c.column, s.Pending.Options)
			}
			rejectCode(t, s, CardBonus{Side: Russian, Bonuses: withBonus.Bonuses}, "not_your_decision")
			s = mustApply(t, s, CardBonus{Side: Polish, Bonuses: withBonus.Bonuses})
		}
		if s.Battle.AttCF != c.att || s.Battle.DefCF != c.def {
			t.Errorf("card %d (%s column): CF %d against %d, want %d against %d", c.card, c.column, s.Battle.AttCF, s.Battle.DefCF, c.att, c.def)
		}
		if s.Pending == nil || s.Pending.Kind != "combat_roll" || s.Pending.Odds.Combat == nil {
			t.Fatalf("card %d: want the combat roll with odds after the bonus, got %+v", c.card, s.Pending)
		}
		// "Podczas jednej walki": the card is spent by this combat, even a
		// two-stack card used on one stack.
		again := s.clone()
		again.Pending, again.Battle = nil, nil
		for _, id := range []string{"ru-7sd", "ru-24sd", "ru-11kd", "ru-art-s"} {
			again.unit(id).Attacked = false
		}
		rejectCode(t, again, withBonus, "bonus_used")
		if n := mustApply(t, again, a); n.Pending.Kind != "combat_roll" {
			t.Errorf("card %d (%s column): the spent card is offered again: %+v", c.card, c.column, n.Pending)
		}
	}
}

// Card 5 needs cavalry in the stack ("rosyjskiego stosu, na którym jest
// kawaleria"); card 17 helps only the attacked Polish stack.
func TestCombatBonusConditions(t *testing.T) {
	s := exampleCombat(t)
	inForce(t, &s, 5, Russian)
	s.unit("ru-11kd").Status = Waiting
	rejectCode(t, s, Attack{Side: Russian, From: "2115", Target: "2014", Bonuses: []Bonus{{Card: 5, Hex: "2115"}}}, "bad_bonus")

	s = exampleCombat(t)
	inForce(t, &s, 17, Polish)
	s.unit("pl-12dp").Status = Waiting
	s.unit("pl-7bk").Status = Waiting
	// The Polish 2nd Legions Division faces NE; no Polish stack is
	// attacked, so a Polish attack may not use card 17.
	put(t, &s, "pl-12dp", "2014", "SE")
	s.Turn = Polish
	putHQ(t, &s, "pl-hq-1a", "2013")
	s.unit("ru-6sd").Status = Waiting
	rejectCode(t, s, Attack{Side: Polish, From: "2014", Target: "2115", Bonuses: []Bonus{{Card: 17, Hex: "2014"}}}, "bad_bonus")
}

// Cards 9, 10 and 39 change the Polish stacks' CF (9.3) in the example
// combat, the Polish stack defending with its front (it faces the
// attacker): card 9 takes one from the front CF of each Polish infantry
// unit; card 39 adds one to a Polish stack with infantry; card 10 makes
// Polish artillery 0 and takes away its 9.3 infantry-with-artillery bonus.
func TestCardsChangingPolishCF(t *testing.T) {
	def := func(card int, art bool) int {
		s := exampleCombat(t)
		if art {
			put(t, &s, "pl-art-1", "2014", "")
		}
		if card > 0 {
			inForce(t, &s, card, Polish)
		}
		return mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"}).Battle.DefCF
	}
	base := def(0, false)
	if got := def(9, false); got != base-1 {
		t.Errorf("card 9: defence %d, want %d − 1 (the 12th Infantry Division's front CF)", got, base)
	}
	if got := def(39, false); got != base+1 {
		t.Errorf("card 39: defence %d, want %d + 1", got, base)
	}
	withArt := def(0, true)
	if withArt != base+1+2 {
		t.Fatalf("artillery joins: defence %d, want %d + 1 (CF) + 2 (9.3: infantry with cavalry and artillery +4, not +2)", withArt, base)
	}
	if got := def(10, true); got != base {
		t.Errorf("card 10: defence %d, want %d (artillery 0, no arms bonus)", got, base)
	}
	// The Russian column of cards 9 and 10 is RP (TestEveryCardColumn).
}

// Card 10: Polish artillery "ani nie daje żadnych korzyści podczas
// atakowania miast/fortyfikacji": a city attacked by Polish infantry with
// artillery under card 10 defends with its front CF (9.3 fourth point).
func TestCard10CityFront(t *testing.T) {
	b := defaultCat(t).Board
	var city, from Hex
	for i := range b.city {
		if b.city[i] < 0 || b.impassable[i] || b.difficult[i] || b.country[i] != "" {
			continue
		}
		for d := N; d <= NW && city == ""; d++ {
			j := b.Neighbour(i, d)
			if j < 0 || b.impassable[j] || b.city[j] >= 0 || b.country[j] != "" {
				continue
			}
			if r, _ := b.River(j, b.DirTo(j, i)); !r {
				city, from = b.HexAt(i), b.HexAt(j)
			}
		}
		if city != "" {
			break
		}
	}
	cf := func(card10 bool) int {
		s := bare(t, PhaseCombat, Polish, 10)
		bb := s.cat.Board
		fi, ci := bb.Index(from), bb.Index(city)
		put(t, &s, "pl-12dp", from, bb.DirTo(fi, ci).String())
		put(t, &s, "pl-art-1", from, "")
		putHQ(t, &s, "pl-hq-1a", from)
		// The Russian faces away: its flank CF unless the city forces the front.
		put(t, &s, "ru-7sd", city, ((bb.DirTo(ci, fi) + 3) % 6).String())
		if card10 {
			inForce(t, &s, 10, Polish)
		}
		return mustApply(t, s, Attack{Side: Polish, From: from, Target: city}).Battle.DefCF
	}
	with, without := cf(true), cf(false)
	g := newGame(t)
	u := g.unit("ru-7sd")
	if u.Full[0] == u.Full[1] {
		t.Fatalf("ru-7sd has equal front and flank CF: the test cannot tell them apart")
	}
	if without != u.Full[1] || with != u.Full[0] {
		t.Errorf("city %s attacked from %s: defence %d with card 10 (want the front %d), %d without (want the flank %d)", city, from, with, u.Full[0], without, u.Full[1])
	}
}

// 9.5b: "Jednostki kawalerii, piechoty i dowodzenia mogą wykonać pościg":
// an HQ in the winning stack may enter the vacated hex with the pursuers
// (not alone: AMBIGUITIES.md), never one hex further.
func TestHQPursues(t *testing.T) {
	s := exampleCombat(t)
	putHQ(t, &s, "ru-hq-12a", "2115") // with the attacking stack
	s = mustApply(t, s, Attack{Side: Russian, From: "2115", Target: "2014"})
	s = mustApply(t, s, Roll{Dice: []int{2, 4}}) // 17 against 14: 9.5b
	s = mustApply(t, s, Losses{Side: Polish, Units: []string{"pl-12dp"}})
	s = mustApply(t, s, Retreat{Side: Polish, Path: []Hex{"1914", "1813"}, Facing: "SE"})
	wantPending(t, s, "pursuit", Russian, -1)
	if !slices.Contains(s.Pending.Options, "ru-hq-12a") {
		t.Fatalf("pursuit options %v: want the HQ of the winning stack", s.Pending.Options)
	}
	rejectCode(t, s, Pursue{Side: Russian, Units: []string{"ru-hq-12a"}}, "cannot_pursue")
	rejectCode(t, s, Pursue{Side: Russian, Units: []string{"ru-7sd", "ru-hq-12a"}, Further: []PursuitStep{{Unit: "ru-hq-12a", Hex: "1915"}}}, "cannot_pursue")
	n := mustApply(t, s, Pursue{Side: Russian, Units: []string{"ru-7sd", "ru-hq-12a"}, Facing: "SW"})
	if n.hq("ru-hq-12a").Hex != "2014" || n.unit("ru-7sd").Hex != "2014" || n.unit("ru-24sd").Hex != "2115" {
		t.Fatalf("HQ at %s, 7th at %s, 24th at %s: want the HQ and the 7th in 2014, the 24th staying", n.hq("ru-hq-12a").Hex, n.unit("ru-7sd").Hex, n.unit("ru-24sd").Hex)
	}
	// Without it the HQ stays.
	if n := mustApply(t, s, Pursue{Side: Russian, Units: []string{"ru-7sd"}, Facing: "SW"}); n.hq("ru-hq-12a").Hex != "2115" {
		t.Fatalf("HQ at %s, want 2115", n.hq("ru-hq-12a").Hex)
	}
}

// Card 16 (Polish column), "każdego z dwóch polskich stosów": in a Polish
// coordinated attack both the attacking and the supporting stack get +2;
// the supporting stack's bonus counts only when it supports (9.2, 5–6).
func TestTwoStackBonusInCoordinatedAttack(t *testing.T) {
	b := defaultCat(t).Board
	tgt := b.Index("2115")
	var from, sup Hex
	for d := N; d <= NW; d++ {
		j := b.Neighbour(tgt, d)
		if j < 0 || b.impassable[j] || b.country[j] != "" || b.unbridged(j, b.DirTo(j, tgt)) {
			continue
		}
		if from == "" {
			from = b.HexAt(j)
		} else if b.DirTo(b.Index(from), j) >= 0 {
			sup = b.HexAt(j) // next to the attacker too: one HQ reaches both
			break
		}
	}
	if sup == "" {
		t.Fatal("no two neighbouring hexes next to 2115")
	}
	scene := func() State {
		s := bare(t, PhaseCombat, Polish, 10)
		put(t, &s, "ru-7sd", "2115", "N")
		put(t, &s, "pl-12dp", from, b.DirTo(b.Index(from), tgt).String())
		put(t, &s, "pl-8dp", sup, b.DirTo(b.Index(sup), tgt).String())
		putHQ(t, &s, "pl-hq-1a", from)
		return s
	}
	a := Attack{Side: Polish, From: from, Target: "2115", Support: sup}
	plain := mustApply(t, scene(), a)
	s := scene()
	inForce(t, &s, 16, Polish)
	a.Bonuses = []Bonus{{Card: 16, Hex: from}, {Card: 16, Hex: sup}}
	s = mustApply(t, s, a)
	if s.Battle.AttCF != plain.Battle.AttCF+2 || s.Battle.SupportCF != plain.Battle.SupportCF+2 {
		t.Fatalf("attack %d support %d, want %d and %d", s.Battle.AttCF, s.Battle.SupportCF, plain.Battle.AttCF+2, plain.Battle.SupportCF+2)
	}
	if n := mustApply(t, s, Roll{Dice: []int{5}}); n.Battle.AttCF != plain.Battle.AttCF+2+plain.Battle.SupportCF+2 {
		t.Errorf("supported: attack %d, want %d", n.Battle.AttCF, plain.Battle.AttCF+4+plain.Battle.SupportCF)
	}
	if n := mustApply(t, s, Roll{Dice: []int{3}}); n.Battle.AttCF != plain.Battle.AttCF+2 {
		t.Errorf("alone: attack %d, want %d", n.Battle.AttCF, plain.Battle.AttCF+2)
	}
	// One stack twice: refused.
	twice := scene()
	inForce(t, &twice, 16, Polish)
	a.Bonuses = []Bonus{{Card: 16, Hex: from}, {Card: 16, Hex: from}}
	rejectCode(t, twice, a, "bonus_used")
}
