package west1920

import (
	"slices"
	"testing"

	"github.com/sztab/sztab/rules"
)

// Flag but allow: the referee's waiver lets a strategic move over the
// limit and out of a hex next to the enemy stand; the state goes on from
// the move; a waiver for one code does not pass another; malformed input
// (a hex off the map) is refused whatever the waiver says. (The other
// engines' waivers are played through the daemon in
// companion/rulings_games_test.go.)
func TestApplyAllowing(t *testing.T) {
	s := bare(t, PhaseStrategic, Russian, 0)
	putHQ(t, &s, "ru-hq-12a", "2113")
	put(t, &s, "ru-7sd", "2109", "SW")
	mv := StrategicMove{Side: Russian, Unit: "ru-hq-12a", Path: []Hex{"2112", "2111", "2110", "2109", "2108", "2107", "2106", "2105"}}
	full := s.clone()
	full.player(Russian).StratLimit = 0
	rejectCode(t, full, mv, "strategic_limit")
	w := rules.Allow("strategic_limit")
	n, _, err := ApplyAllowing(full, mv, w)
	if err != nil {
		t.Fatalf("allowed: %v", err)
	}
	if q := n.hq("ru-hq-12a"); q.Hex != "2105" || n.player(Russian).StratMoves != 1 {
		t.Errorf("the state did not go on from the allowed move: HQ %+v", q)
	}
	if !slices.Equal(w.Waived(), []string{"strategic_limit"}) {
		t.Errorf("waived %v, want [strategic_limit]", w.Waived())
	}
	if n.waiver != nil {
		t.Error("the waiver stayed in the state")
	}
	// The same move next to the enemy breaks two rules: one waiver code
	// is not enough.
	z := full.clone()
	put(t, &z, "pl-8dp", "2013", "NE")
	if _, _, err := ApplyAllowing(z, mv, rules.Allow("strategic_limit")); err == nil {
		t.Fatal("a second breach passed a waiver for the first")
	} else if r, _ := rules.AsRejection(err); r.Code != "adjacent_move" {
		t.Fatalf("got %v, want adjacent_move", err)
	}
	if _, _, err := ApplyAllowing(z, mv, rules.Allow("strategic_limit", "adjacent_move")); err != nil {
		t.Fatalf("both allowed: %v", err)
	}
	// Malformed input is never waived.
	bad := StrategicMove{Side: Russian, Unit: "ru-hq-12a", Path: []Hex{"9999"}}
	_, _, err = ApplyAllowing(s, bad, rules.Allow(append(Allowable, "bad_path", "impassable", "bad_hex")...))
	if _, ok := rules.AsRejection(err); !ok {
		t.Errorf("a hex off the map: got %v, want a refusal", err)
	}
	// Apply without a waiver is unchanged: the breach is refused.
	rejectCode(t, full, mv, "strategic_limit")
}
