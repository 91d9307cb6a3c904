package bitwa

import (
	"os"
	"slices"
	"testing"

	"github.com/sztab/sztab/rules"
)

// playStory plays a hand-written script of testdata/games line by line
// (refused lines leave the state as it was) and returns every state after
// an accepted line, the steps and the final state.
func playStory(t *testing.T, name string) (states []State, steps []Step) {
	t.Helper()
	data, err := os.ReadFile("testdata/games/" + name)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := ParseScript(defaultCat(t), name, data)
	if err != nil {
		t.Fatal(err)
	}
	var s State
	for _, l := range lines {
		next, evs, err := Apply(s, l.Action)
		steps = append(steps, Step{Line: l.Line, Action: l.Action, Events: evs, Err: err})
		if err == nil {
			s = next
			states = append(states, s)
		}
	}
	return states, steps
}

func refusals(steps []Step) []string {
	var out []string
	for _, st := range steps {
		if rej, ok := rules.AsRejection(st.Err); ok {
			out = append(out, rej.Code)
		} else if st.Err != nil {
			out = append(out, st.Err.Error())
		}
	}
	return out
}

// tiebreak-13.jsonl: the game reaches the 13th round with equal VP and the
// units on the 2nd lines decide ("ZAKOŃCZENIE GRY").
func TestStoryThirteenRoundsTieBreak(t *testing.T) {
	states, steps := playStory(t, "tiebreak-13.jsonl")
	if r := refusals(steps); len(r) > 0 {
		t.Fatalf("refused lines: %v", r)
	}
	s := states[len(states)-1]
	if s.Phase != PhaseOver || s.Result == nil {
		t.Fatalf("phase %s, the game is not over", s.Phase)
	}
	r := s.Result
	if s.Round != 13 || r.Reason != "rounds" {
		t.Errorf("ended in round %d for %q, want round 13, reason rounds", s.Round, r.Reason)
	}
	if r.VP[0] != r.VP[1] {
		t.Errorf("VP %v, want equal VP (the tie-break decides)", r.VP)
	}
	if r.Second != [2]int{5, 3} || r.Winner != WP {
		t.Errorf("2nd lines %v, winner %q; want [5 3], wp", r.Second, r.Winner)
	}
	for _, st := range states {
		if st.Phase == PhaseOver && st.Round < 13 {
			t.Fatalf("the game ended in round %d", st.Round)
		}
	}
}

// blockades.jsonl: every one of the five placements is taken at some point
// (by a marker or a card), the special blockade is laid and returned, a
// commander swap lowers the 2nd-line limit and sends the excess back, and
// the blocked plays are refused.
func TestStoryBlockadesAndLimitSwap(t *testing.T) {
	states, steps := playStory(t, "blockades.jsonl")
	seen := map[string]bool{}
	special := false
	for _, s := range states {
		for _, m := range s.Blockades {
			seen[m.Place] = true
			if m.Marker == s.Comp.SpecialBlockade {
				special = true
			}
		}
	}
	for _, pl := range BlockPlaces {
		if !seen[pl] {
			t.Errorf("no blockade ever on %s", pl)
		}
	}
	if !special {
		t.Error("the special blockade was never laid")
	}
	last := states[len(states)-1]
	for _, m := range last.Blockades {
		if m.Marker == last.Comp.SpecialBlockade {
			t.Error("the special blockade is still on the board after the round's end")
		}
	}
	want := []string{"blocked_field", "blocked_line2", "blocked_field", "special_fixed"}
	got := refusals(steps)
	if len(got) != len(want) {
		t.Fatalf("refusals %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("refusal %d: %s, want %s", i, got[i], want[i])
		}
	}
	// Haller (limit 4) replaces Galica (limit 6) over 5 units on the
	// Central 2nd line: one goes back before his effect.
	swapped := false
	for i, st := range steps {
		var types []string
		for _, e := range st.Events {
			types = append(types, e.Type)
		}
		if j := slices.Index(types, "commander_replaced"); j >= 0 && slices.Contains(types[j:], "over_limit") {
			swapped = true
			for _, e := range st.Events {
				if e.Type == "over_limit" && (e.N != 1 || e.Front != Central) {
					t.Errorf("step %d: over_limit %+v, want 1 unit on C", i, e)
				}
			}
		}
	}
	if !swapped {
		t.Error("no commander swap sent units over the new limit back")
	}
}
