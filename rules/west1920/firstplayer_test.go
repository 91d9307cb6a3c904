package west1920

import "testing"

// Who goes first in each alternating phase: the higher total RP for depots
// (5.1), HQ movement (8.0) and strategic movement (11.1), the Poles on a
// tie; the higher base RP for withdrawals (9.1; the Poles on a tie,
// AMBIGUITIES.md); a roll of 1d6 each for chits, orders and combat (7.1,
// 9.2), re-rolled on a tie. Each phase is entered the way play enters it:
// the phase before ends with both players' passes.
func TestWhoGoesFirst(t *testing.T) {
	type rp struct{ pl, ru int }
	check := func(t *testing.T, name string, enter func(s *State), total, base rp, want string) {
		t.Helper()
		s := bare(t, PhaseChits, Polish, 0)
		s.player(Polish).TotalRP, s.player(Russian).TotalRP = total.pl, total.ru
		s.player(Polish).BaseRP, s.player(Russian).BaseRP = base.pl, base.ru
		enter(&s)
		if s.Turn != want {
			t.Errorf("%s: total RP %v, base RP %v: %s starts, want %s", name, total, base, s.Turn, want)
		}
	}
	phases := []struct {
		name   string
		enter  func(s *State)
		byBase bool
	}{
		{"5.1 depots", func(s *State) { s.enterDepots() }, false},
		{"8.0 HQ movement", func(s *State) { s.enterHQ() }, false},
		{"9.1 withdrawals", func(s *State) {
			s.startAlternating(PhaseHQ, Polish)
			*s = passBoth(t, *s)
		}, true},
		{"11.1 strategic movement", func(s *State) {
			s.startAlternating(PhaseReplacement, "")
			*s = passBoth(t, *s)
		}, false},
	}
	for _, p := range phases {
		for _, c := range []struct {
			more rp
			want string
		}{{rp{10, 12}, Russian}, {rp{12, 10}, Polish}, {rp{11, 11}, Polish}} {
			other := rp{11, 11}
			if p.byBase {
				// The total RP point the other way: only the base counts.
				check(t, p.name, p.enter, rp{c.more.ru, c.more.pl}, c.more, c.want)
			} else {
				check(t, p.name, p.enter, c.more, other, c.want)
			}
		}
	}
	// 9.2: the combat roll, a tie rolled again; the higher die starts.
	s := bare(t, PhaseWithdrawal, Polish, 5)
	s = passBoth(t, s)
	wantPending(t, s, "first_roll", "", -1)
	s2, evs := mustApplyEv(t, s, Roll{Dice: []int{4, 4}})
	if s2.Pending == nil || s2.Pending.Kind != "first_roll" || len(evs) != 1 || evs[0].Type != "reroll" {
		t.Fatalf("a tie: pending %+v events %v, want the roll again", s2.Pending, evs)
	}
	if n := mustApply(t, s2, Roll{Dice: []int{2, 5}}); n.Turn != Russian || n.Pending != nil {
		t.Fatalf("Poles 2, Russians 5: %s starts, pending %+v", n.Turn, n.Pending)
	}
	if n := mustApply(t, s2, Roll{Dice: []int{6, 1}}); n.Turn != Polish {
		t.Fatalf("Poles 6, Russians 1: %s starts", n.Turn)
	}
}

// passBoth ends an alternating phase with both players' passes, the one
// whose turn it is first.
func passBoth(t *testing.T, s State) State {
	t.Helper()
	first := s.Turn
	if first == "" {
		first = Polish
	}
	s = mustApply(t, s, Pass{Side: first})
	return mustApply(t, s, Pass{Side: other(first)})
}
