package skirmish

import "testing"

// A discard armed and then the end of the orders phase: the selection is
// dropped whole (it crashed the engine: the phase's end cleared it, and the
// jumps were then cleared on nothing).
func TestEndPhaseDropsAnArmedDiscard(t *testing.T) {
	cat := looseCat(t)
	units := []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 4}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 4}}
	s := deployed(t, cat, units, Options{}, ChooseScenario{Number: 3})
	for _, p := range s.Players {
		var cards []string
		for _, c := range cat.Deck(p.Faction)[:s.Options.HandSize] {
			cards = append(cards, c.ID)
		}
		s = mustApply(t, s, DrawOrders{Seat: p.Seat, Cards: cards, Origin: "virtual"})
	}
	if s.Phase != PhaseOrders || s.Round != 1 {
		t.Fatalf("phase %s round %d", s.Phase, s.Round)
	}
	s = mustApply(t, s, ArmDiscard{})
	s = mustApply(t, s, EndPhase{})
	if s.Selection != nil || s.Phase != PhaseMovement {
		t.Errorf("selection %+v, phase %s", s.Selection, s.Phase)
	}
}
