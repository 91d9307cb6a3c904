package wotrush

import (
	"encoding/json"
	"testing"
)

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSmokeRandomGame(t *testing.T) {
	s := newGame(t, 3, 7, Options{})
	checkConservation(t, s)
	x := uint64(1)
	for i := 0; i < 3000 && s.Phase == PhasePlay; i++ {
		acts := LegalActions(s)
		if len(acts) == 0 {
			t.Fatalf("no legal action at step %d: pending %+v", i, s.Pending)
		}
		x = x*6364136223846793005 + 1442695040888963407
		a := acts[int((x>>33)%uint64(len(acts)))]
		s, _ = mustApply(t, s, a)
		checkConservation(t, s)
	}
	t.Logf("phase %s round %d result %+v", s.Phase, s.Round, s.Result)
}
