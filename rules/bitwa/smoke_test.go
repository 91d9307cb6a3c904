package bitwa

import "testing"

func TestSmokeRandom(t *testing.T) {
	for g := 0; g < 3; g++ {
		s := newGame(t, 2+g, uint64(g+1), Options{})
		r := rng(g + 7)
		for i := 0; i < 3000 && s.Phase != PhaseOver; i++ {
			acts := LegalActions(s)
			if len(acts) == 0 {
				t.Fatalf("game %d step %d: no legal action; pending %+v stage %s", g, i, s.Pending, s.Stage)
			}
			s = must(t, s, acts[r.next(len(acts))])
		}
		t.Logf("game %d: phase %s round %d result %+v", g, s.Phase, s.Round, s.Result)
	}
}
