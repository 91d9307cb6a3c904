package wotrush

import (
	"slices"
	"testing"
)

// Rekrutacja: "W tej turze możesz zakupić dowolną liczbę Pojazdów. Suma
// surowców … musi być równa lub większa od sumy kosztów kart" — Apply
// takes several Reserve cards in one Buy, so LegalActions lists them: every
// set of two or more Reserve cards that the hand can pay for, once, with a
// minimal payment.
func TestLegalActionsListRecruitmentPurchases(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	hand(&s, 1, "VOL-1-1", "ENG-1-1", "ENG-1-2")
	reserve(&s, "SU-21", "DE-01", "US-01", "FR-01") // costs 0, 1, 1, 1
	multi := func(s State) []Buy {
		var out []Buy
		for _, a := range LegalActions(s) {
			if b, ok := a.(Buy); ok && len(b.Cards) > 1 {
				out = append(out, b)
			}
		}
		return out
	}
	if got := multi(s); len(got) != 0 {
		t.Fatalf("without Recruitment several cards are listed: %+v", got)
	}
	s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "VOL-1-1"})
	got := multi(s)
	// Two Engineers pay 2: SU-21 with any one light (3), two lights (3),
	// SU-21 with two lights (3); three lights (cost 3) and all four are
	// out of reach.
	if len(got) != 9 {
		t.Fatalf("%d multi-card purchases listed, want 9: %+v", len(got), got)
	}
	seen := map[string]bool{}
	for _, b := range got {
		key := ""
		for _, id := range b.Cards {
			key += id + " "
		}
		if seen[key] {
			t.Errorf("%v listed twice", b.Cards)
		}
		seen[key] = true
		if _, _, err := Apply(s, b); err != nil {
			t.Errorf("listed %+v refused: %v", b, err)
		}
		for i := range b.Pay {
			less := slices.Delete(slices.Clone(b.Pay), i, i+1)
			if len(less) > 0 && s.affords(b.Cards, less) {
				t.Errorf("%+v: payment not minimal (%v is enough)", b, less)
			}
		}
		if slices.Contains(b.Cards, "SU-21") && len(b.Cards) == 2 && len(b.Pay) != 1 {
			t.Errorf("%+v: one Engineer pays for a light and the cost-0 card", b)
		}
	}
	if !seen["SU-21 DE-01 "] || !seen["DE-01 US-01 "] || !seen["SU-21 DE-01 US-01 "] || seen["DE-01 US-01 FR-01 "] {
		t.Errorf("listed sets %v", seen)
	}
	// After a purchase Recruitment still lists sets of the refilled row.
	s, _ = mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-21"}, Pay: []string{"ENG-1-1"}})
	for _, b := range multi(s) {
		if slices.Contains(b.Pay, "ENG-1-1") {
			t.Errorf("%+v pays with a card already spent", b)
		}
	}
}

// With a full hand of payers and Recruitment the listing stays bounded:
// at most the 11 sets of two or more of the Reserve's 4 cards.
func TestLegalActionsRecruitmentBounded(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	hand(&s, 1, "VOL-1-1", "ENG-1-1", "ENG-1-2", "ENG-1-3", "ENG-1-4", "SU-09", "SU-22", "DE-05")
	reserve(&s, "SU-21", "DE-01", "US-01", "FR-01")
	s, _ = mustApply(t, s, PlayCard{Seat: 1, Card: "VOL-1-1"})
	n := 0
	for _, a := range LegalActions(s) {
		if b, ok := a.(Buy); ok && len(b.Cards) > 1 {
			n++
		}
	}
	if n != 11 {
		t.Errorf("%d multi-card purchases, want all 11 sets of the row", n)
	}
}
