package west1920game

import (
	"testing"

	"github.com/sztab/sztab/rules/west1920"
)

// toPhase passes (the referee's pass for whoever the game waits for) from
// after the demo's combat until phase.
func toPhase(t *testing.T, g *Game, phase west1920.Phase) {
	t.Helper()
	before(t, g, "")
	must(t, g, page(1, "losses", "pl-1dpleg"))
	must(t, g, page(1, "move", "-", "1504"))
	must(t, g, page(2, "pass")) // no pursuit
	for i := 0; g.State().Phase != phase; i++ {
		if i > 20 {
			t.Fatalf("stuck in %s, pending %+v", g.State().Phase, g.State().Pending)
		}
		must(t, g, page(0, "pass"))
	}
}

// A strategic move (11.x) and a replacement (10.0) from the pages: the
// unit and the destination; the binder finds a path the engine takes.
func TestLaterPhases(t *testing.T) {
	t.Run("replacement", func(t *testing.T) {
		g := testGame(t, false)
		toPhase(t, g, west1920.PhaseReplacement)
		var weak string
		for _, u := range g.State().Units {
			if u.Status == west1920.OnMap && u.Weak && !u.OneSided && u.Side == west1920.Polish {
				weak = u.ID
			}
		}
		if weak == "" {
			t.Fatal("no weakened two-sided Polish unit (the 1. DP Leg. took a loss in the demo's combat)")
		}
		took := must(t, g, page(1, "replace", weak))
		if len(took) != 1 || took[0].Type() != "replace" {
			t.Fatalf("took %v", took)
		}
		if _, rej := feed(t, g, page(2, "replace", weak)); rej == nil || rej.Code == "" {
			t.Errorf("the Russian page replaced a Polish unit: %+v", rej)
		}
	})
	t.Run("strategic", func(t *testing.T) {
		g := testGame(t, false)
		toPhase(t, g, west1920.PhaseStrategic)
		s := g.State()
		var want west1920.StrategicMove
		for _, a := range west1920.LegalActions(s) {
			if m, ok := a.(west1920.StrategicMove); ok && len(m.Path) >= 3 {
				want = m
				break
			}
		}
		if want.Unit == "" {
			t.Fatal("no strategic move of 3 hexes or more")
		}
		seat := SeatOf(want.Side)
		dest := string(want.Path[len(want.Path)-1])
		took := must(t, g, page(seat, "strategic", want.Unit, dest))
		if m, ok := took[0].(west1920.StrategicMove); !ok || string(m.Path[len(m.Path)-1]) != dest || len(m.Path) > len(want.Path) {
			t.Errorf("took %+v, want a path to %s no longer than %d", took[0], dest, len(want.Path))
		}
		if _, rej := feed(t, g, page(SeatOf(want.Side), "strategic", want.Unit, dest)); rej == nil {
			t.Error("a second strategic move of the same unit was accepted")
		}
	})
}
