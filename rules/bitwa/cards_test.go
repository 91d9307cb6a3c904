package bitwa

import "testing"

// TestPrintedCards plays each of the 12 cards the rulebook prints in full
// on a known board and checks its effect.
func TestPrintedCards(t *testing.T) {
	// setup: WP N 0/1, C 1/2, S 0/1; ACz N 0/1, C 2/2, S 0/1.
	board := func(t *testing.T, hand ...string) State {
		s := military(t, Options{}, hand...)
		clearBoard(&s)
		wp, acz := s.Army(WP), s.Army(ACz)
		wp.Fronts = [3]Line{{0, 1}, {1, 2}, {0, 1}}
		acz.Fronts = [3]Line{{0, 1}, {2, 2}, {0, 1}}
		wp.Reserve, acz.Reserve = 16, 15
		return s
	}
	t.Run("pilsudski", func(t *testing.T) {
		s := board(t, "pilsudski")
		s = must(t, s, PlayCard{Seat: 1, Card: "pilsudski", Front: Central})
		s = must(t, s, Confirm{Seat: 1, Yes: true}) // start the battle now
		s = must(t, s, Confirm{Seat: 1, Yes: true}) // all 2nd-line units to the 1st
		// WP 3 units on the 1st line (6) against ACz 2×2+2 = 6: a tie; losses at once.
		if !s.Fought[1] || s.Advantage[1] != "" {
			t.Errorf("fought %v advantage %q", s.Fought, s.Advantage[1])
		}
		if s.Army(WP).Fronts[1] != (Line{0, 0}) || s.Army(ACz).Fronts[1] != (Line{0, 2}) {
			t.Errorf("after the battle WP %+v ACz %+v", s.Army(WP).Fronts[1], s.Army(ACz).Fronts[1])
		}
		if !s.Army(WP).Commanders[1].StartedBattle {
			t.Error("Piłsudski did not start the battle")
		}
	})
	t.Run("haller fewer", func(t *testing.T) {
		s := board(t, "haller")
		s = must(t, s, PlayCard{Seat: 1, Card: "haller", Front: Central, Choice: 0})
		if got := s.Strength(WP, Central); got != 2+2+2 {
			t.Errorf("strength %d, want 6 (3 fewer units than 4: +2)", got)
		}
	})
	t.Run("haller more", func(t *testing.T) {
		s := board(t, "haller")
		s = must(t, s, PlayCard{Seat: 1, Card: "haller", Front: North, Choice: 1})
		if s.Pending != nil {
			t.Errorf("1 against 1 unit is not more: no move, got %+v", s.Pending)
		}
	})
	t.Run("galica", func(t *testing.T) {
		s := board(t, "galica")
		s = must(t, s, PlayCard{Seat: 1, Card: "galica", Front: South, Choice: 1})
		if s.Pending == nil || s.Pending.Kind != DecideMove || s.Pending.N != 2 {
			t.Fatalf("pending %+v", s.Pending)
		}
		s = must(t, s, Move{Seat: 1, Moves: []UnitMove{{From: "N2", To: "S1", N: 1}, {From: "C1", To: "S1", N: 1}}})
		if s.Army(WP).Fronts[2].First != 2 {
			t.Errorf("S %+v", s.Army(WP).Fronts[2])
		}
		if s.Limit(WP, South) != 6 {
			t.Errorf("limit %d", s.Limit(WP, South))
		}
	})
	t.Run("do broni", func(t *testing.T) {
		s := board(t, "do-broni")
		s = must(t, s, PlayCard{Seat: 1, Card: "do-broni", Front: Central})
		s = must(t, s, Move{Seat: 1, Moves: []UnitMove{{From: "C2", To: "C1", N: 1}}})
		if got := s.Strength(WP, Central); got != 2*2+1 {
			t.Errorf("2 on the 1st line: %d, want 5 (no bonus)", got)
		}
		s.Army(WP).Fronts[1].First = 3
		if got := s.Strength(WP, Central); got != 3*2+1+2 {
			t.Errorf("3 on the 1st line: %d, want 9", got)
		}
	})
	t.Run("boj na przedmosciu", func(t *testing.T) {
		s := board(t, "boj-na-przedmosciu")
		s = must(t, s, PlayCard{Seat: 1, Card: "boj-na-przedmosciu", Front: North})
		if s.Pending.N != 3 {
			t.Errorf("N %d", s.Pending.N)
		}
		refused(t, s, Move{Seat: 1, Moves: []UnitMove{{From: "C2", To: "C1", N: 2}, {From: "N2", To: "N1", N: 1}, {From: "S2", To: "S1", N: 1}}}, "too_many")
	})
	// The ACz cards: Janek (seat 2) acts after Marysia passes.
	acz := func(t *testing.T, hand ...string) State {
		s := board(t)
		s.Player(1).Hand = []string{"1-dp"}
		s = must(t, s, Pass{Seat: 1})
		// one card more keeps Janek acting (an empty hand ends his round)
		s.Player(2).Hand = append([]string{"2-ds"}, hand...)
		return s
	}
	t.Run("jakir", func(t *testing.T) {
		s := acz(t, "jakir")
		s = must(t, s, PlayCard{Seat: 2, Card: "jakir", Front: North, Choice: 0})
		if got := s.Strength(ACz, North); got != 1+1 {
			t.Errorf("strength %d, want 2", got)
		}
	})
	t.Run("gaj north battle", func(t *testing.T) {
		s := acz(t, "gaj")
		s = must(t, s, PlayCard{Seat: 2, Card: "gaj", Front: North, Choice: 0})
		if !s.Fought[0] {
			t.Error("no battle on the north")
		}
	})
	t.Run("gaj south not north", func(t *testing.T) {
		s := acz(t, "gaj")
		s = must(t, s, PlayCard{Seat: 2, Card: "gaj", Front: South, Choice: 0})
		if s.Fought[2] {
			t.Error("a battle although not on the north")
		}
	})
	t.Run("gaj remove", func(t *testing.T) {
		s := acz(t, "gaj")
		s = must(t, s, PlayCard{Seat: 2, Card: "gaj", Front: Central, Choice: 1})
		if s.Pending == nil || s.Pending.Kind != DecideRemove {
			t.Fatalf("pending %+v", s.Pending)
		}
		s = must(t, s, Remove{Seat: 2, Front: Central, Line: 2})
		if s.Army(WP).Fronts[1] != (Line{1, 1}) {
			t.Errorf("WP C %+v", s.Army(WP).Fronts[1])
		}
	})
	t.Run("stalin", func(t *testing.T) {
		s := acz(t, "stalin")
		s = must(t, s, PlayCard{Seat: 2, Card: "stalin", Front: Central, Choice: 1})
		// 2 on the 1st line: up to 2 units from the 2nd to the 1st, on this front.
		if s.Pending.N != 2 || s.Pending.MoveFront != Central {
			t.Fatalf("pending %+v", s.Pending)
		}
		refused(t, s, Move{Seat: 2, Moves: []UnitMove{{From: "N2", To: "C1", N: 1}}}, "bad_front")
		s = must(t, s, Move{Seat: 2, Moves: []UnitMove{{From: "C2", To: "C1", N: 2}}})
		if s.Army(ACz).Fronts[1] != (Line{4, 0}) {
			t.Errorf("ACz C %+v", s.Army(ACz).Fronts[1])
		}
	})
	t.Run("14 dywizja kawalerii", func(t *testing.T) {
		s := acz(t, "14-dk")
		s = must(t, s, PlayCard{Seat: 2, Card: "14-dk", Front: North}) // printed front wins
		if s.Army(ACz).Fronts[1].First != 4 {
			t.Errorf("ACz C %+v", s.Army(ACz).Fronts[1])
		}
	})
	t.Run("53 dywizja strzelcow", func(t *testing.T) {
		s := acz(t, "53-ds")
		s = must(t, s, PlayCard{Seat: 2, Card: "53-ds", Front: South})
		if s.Army(ACz).Fronts[2] != (Line{1, 2}) {
			t.Errorf("ACz S %+v", s.Army(ACz).Fronts[2])
		}
	})
	t.Run("za proletariat", func(t *testing.T) {
		s := acz(t, "za-proletariat")
		s.Army(ACz).Fronts[1].Second = 3
		s.Army(ACz).Reserve--
		s = must(t, s, PlayCard{Seat: 2, Card: "za-proletariat", Front: Central})
		s = must(t, s, Move{Seat: 2})
		// 3 on the 2nd line: one WP unit from the 1st line.
		if s.Army(WP).Fronts[1] != (Line{0, 2}) {
			t.Errorf("WP C %+v", s.Army(WP).Fronts[1])
		}
	})
	t.Run("niemiecka blokada", func(t *testing.T) {
		s := acz(t, "niemiecka-blokada")
		s = must(t, s, PlayCard{Seat: 2, Card: "niemiecka-blokada", Front: North})
		if s.Pending.N != 4 {
			t.Errorf("N %d", s.Pending.N)
		}
	})
}

// TestEffects covers each effect kind of the language on its own.
func TestEffects(t *testing.T) {
	s := military(t, Options{}, "1-dp")
	clearBoard(&s)
	s.Army(WP).Fronts = [3]Line{{1, 1}, {0, 3}, {0, 0}}
	s.Army(WP).Reserve = 16
	s.Army(ACz).Fronts[0].Second = 1
	s.Army(ACz).Reserve--
	run := func(e Effect, f string) State {
		c := s.clone()
		c.Queue = []Work{{Op: "effect", Army: WP, Seat: 1, Card: "1-dp", Front: f, Effect: &e}}
		c.run()
		return c
	}
	if c := run(Effect{Do: DoAdd, N: 2, Line: 2}, Central); c.Army(WP).Fronts[1].Second != 3 || c.Army(WP).Reserve != 16 {
		t.Errorf("add over the limit stays in the reserve: %+v", c.Army(WP).Fronts[1])
	}
	if c := run(Effect{Do: DoAdd, N: 2, Line: 1}, South); c.Army(WP).Fronts[2].First != 2 {
		t.Errorf("add line 1: %+v", c.Army(WP).Fronts[2])
	}
	if c := run(Effect{Do: DoAdvanceAll}, Central); c.Army(WP).Fronts[1] != (Line{3, 0}) {
		t.Errorf("advance_all: %+v", c.Army(WP).Fronts[1])
	}
	if c := run(Effect{Do: DoAgain}, Central); !c.Again {
		t.Error("again")
	}
	if c := run(Effect{Do: DoBlock, Target: BlockOrderField}, North); !c.blocked(ACz, BlockOrderField, North) {
		t.Error("block")
	}
	if c := run(Effect{Do: DoMove, N: 1, If: &Cond{Units: "more"}}, South); c.Pending != nil {
		t.Error("a failed condition still asked for a move")
	}
	if c := run(Effect{Do: DoMove, N: 1, Per: &Per{Each: 1, Line: 2}}, Central); c.Pending == nil || c.Pending.N != 3 {
		t.Errorf("per: %+v", c.Pending)
	}
	if c := run(Effect{Do: DoBattle}, North); !c.Fought[0] || c.Army(WP).Fronts[0].First != 0 {
		t.Errorf("battle: fought %v, N %+v", c.Fought, c.Army(WP).Fronts[0])
	}
	if c := run(Effect{Do: DoRemove, N: 1, Line: 1}, North); c.Army(ACz).Fronts[0].Second != 1 {
		t.Errorf("remove from an empty 1st line does nothing: %+v", c.Army(ACz).Fronts[0])
	}
	if c := run(Effect{Do: DoMove, N: 1, If: &Cond{On: "NS"}}, Central); c.Pending != nil {
		t.Error("if.on")
	}
}
