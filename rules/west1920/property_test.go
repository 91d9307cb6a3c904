package west1920

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// botGame plays from a new game with actions drawn from LegalActions (a
// seeded random bot that passes with probability passP when it may), at most
// max actions or to the end; check runs on every step.
func botGame(t testing.TB, seed uint64, max int, passP float64, check func(prev, next State, a Action)) ([]Action, State) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1920))
	start := StartGame{Data: defaultCat(t).Data}
	s, _, err := Apply(State{}, start)
	if err != nil {
		t.Fatal(err)
	}
	acts := []Action{start}
	for len(acts) < max && s.Phase != PhaseOver {
		legal := LegalActions(s)
		if len(legal) == 0 {
			t.Fatalf("seed %d: no legal action in phase %s stage %d pending %+v", seed, s.Phase, s.Stage, s.Pending)
		}
		var a Action
		var others []Action
		for _, x := range legal {
			if _, ok := x.(Pass); ok && a == nil {
				a = x
			} else if !ok {
				others = append(others, x)
			}
		}
		if a == nil || (len(others) > 0 && rng.Float64() >= passP) {
			a = others[rng.IntN(len(others))]
		}
		next, _, err := Apply(s, a)
		if err != nil {
			t.Fatalf("seed %d: LegalActions listed %s, Apply refused: %v", seed, a.Type(), err)
		}
		if check != nil {
			check(s, next, a)
		}
		s = next
		acts = append(acts, a)
	}
	return acts, s
}

// Random legal play: stacking never above 4 (1.2), Apply never changes its
// input, and replaying the journal gives byte-identical JSON.
func TestPropertyRandomPlay(t *testing.T) {
	n, max := 2, 150
	if testing.Short() {
		n, max = 1, 80
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		acts, final := botGame(t, seed, max, 0.35, func(prev, next State, a Action) {
			before, _ := json.Marshal(prev)
			if _, _, err := Apply(prev, a); err != nil {
				t.Fatalf("replaying %s: %v", a.Type(), err)
			}
			if after, _ := json.Marshal(prev); !bytes.Equal(before, after) {
				t.Fatalf("Apply(%s) changed its input", a.Type())
			}
			count := map[string]int{}
			for _, u := range next.Units {
				if u.Status == OnMap {
					count[u.Side+string(u.Hex)]++
					if count[u.Side+string(u.Hex)] > StackLimit {
						t.Fatalf("after %s: %d units of %s on %s", a.Type(), count[u.Side+string(u.Hex)], u.Side, u.Hex)
					}
				}
			}
		})
		// Replay through the codec: byte-identical state.
		var s State
		for _, a := range acts {
			data, err := EncodeAction(a)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeAction(data)
			if err != nil {
				t.Fatal(err)
			}
			if s, _, err = Apply(s, back); err != nil {
				t.Fatalf("replay %s: %v", a.Type(), err)
			}
		}
		want, _ := json.Marshal(final)
		got, _ := json.Marshal(s)
		if !bytes.Equal(got, want) {
			t.Errorf("seed %d: the replayed journal gives a different state", seed)
		}
		t.Logf("seed %d: %d actions, stage %d, phase %s", seed, len(acts), final.Stage, final.Phase)
	}
}
