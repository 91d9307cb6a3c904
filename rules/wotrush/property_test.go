package wotrush

import (
	"bytes"
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

// TestRandomPlayProperties plays random legal games for 2–5 players and
// checks after every action: every card is in exactly one place, Apply
// did not change its input, every listed legal action is accepted; and at
// the end that replaying the journal (actions through the codec) gives the
// same state, byte for byte.
func TestRandomPlayProperties(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 4
	}
	for g := 0; g < games; g++ {
		n := 2 + g%4
		o := Options{}
		if g%2 == 1 {
			o = Options{Medals: "choose", SabotageChooser: "active", OddMedal: "double", DefendersInSquad: true, MedalAchievement: "cards", HeavySiege: true, DefenderOfSiegedBase: true, TurnDoubles: true}
		}
		s := newGame(t, n, uint64(100+g), o)
		var journal [][]byte
		x := uint64(g + 1)
		for i := 0; i < 4000 && s.Phase == PhasePlay; i++ {
			acts := LegalActions(s)
			if len(acts) == 0 {
				t.Fatalf("game %d step %d: no legal action (pending %+v)", g, i, s.Pending)
			}
			x = x*6364136223846793005 + 1442695040888963407
			a := acts[int((x>>33)%uint64(len(acts)))]
			before := mustJSON(t, s)
			next, _, err := Apply(s, a)
			if err != nil {
				t.Fatalf("game %d step %d: a listed legal action was refused: %s %+v: %v", g, i, a.Type(), a, err)
			}
			if !bytes.Equal(before, mustJSON(t, s)) {
				t.Fatalf("game %d step %d: Apply changed its input", g, i)
			}
			checkConservation(t, next)
			enc, err := EncodeAction(a)
			if err != nil {
				t.Fatal(err)
			}
			journal = append(journal, enc)
			s = next
		}
		// Replay from the journal's form.
		r := newGame(t, n, uint64(100+g), o)
		for _, line := range journal {
			a, err := DecodeAction(line)
			if err != nil {
				t.Fatal(err)
			}
			r, _ = mustApply(t, r, a)
		}
		if !bytes.Equal(mustJSON(t, r), mustJSON(t, s)) {
			t.Fatalf("game %d: the replay differs", g)
		}
		// The state survives JSON.
		var back State
		if err := json.Unmarshal(mustJSON(t, s), &back); err != nil || !bytes.Equal(mustJSON(t, back), mustJSON(t, s)) {
			t.Fatalf("game %d: the state does not round-trip through JSON: %v", g, err)
		}
	}
}
