package west1920

import "testing"

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
