package bitwa

import (
	"slices"
	"testing"
)

// The cards fought with lie beside the resource cards through the round's
// end and go to the discard pile only once the next round's stage 2 has
// been resolved (3C. ODRZUCENIE DOWOLNEJ KARTY I WALKA O KARTY ZASOBÓW:
// "Po zastosowaniu tych efektów … karty Wojska należy odłożyć na stos kart
// odrzuconych").
func TestFoughtCardsDiscardedAfterNextResolution(t *testing.T) {
	s := military(t, Options{}, "1-dp", "galica")
	s = must(t, s, Fight{Seat: 1, Card: "1-dp", Resource: ResFunds})
	s = must(t, s, Pass{Seat: 2})
	s = must(t, s, Pass{Seat: 1}) // the battles, the round's end
	if s.Round != 2 || s.Pending == nil || s.Pending.Kind != DecideRollBonus {
		t.Fatalf("round %d pending %+v, want round 2 waiting for the bonus die", s.Round, s.Pending)
	}
	wp := s.Army(WP)
	if s.Won[ResFunds] != WP {
		t.Errorf("funds won by %q, want WP", s.Won[ResFunds])
	}
	if slices.Contains(wp.Discard, "1-dp") {
		t.Errorf("1-dp on the discard pile at the round's end: %v", wp.Discard)
	}
	if got := wp.Fights[ResFunds]; !slices.Equal(got, []string{"1-dp"}) {
		t.Errorf("cards beside the funds card after the round %v, want [1-dp]", got)
	}
	s = must(t, s, Roll{Seat: s.Pending.Seat, Dice: []int{1}})
	if s.Stage != StageMilitary {
		t.Fatalf("stage %s, want military after the funds card", s.Stage)
	}
	wp = s.Army(WP)
	if !slices.Contains(wp.Discard, "1-dp") {
		t.Errorf("1-dp not on the discard pile after stage 2: %v", wp.Discard)
	}
	if n := len(wp.Fights[ResFunds]); n != 0 {
		t.Errorf("%d cards still beside the funds card after stage 2", n)
	}
}
