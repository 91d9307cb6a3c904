package bitwa

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

func moveKey(ms []UnitMove) string {
	var parts []string
	for _, m := range ms {
		for range m.N {
			parts = append(parts, m.From+">"+m.To)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// Zieliński moves up to 2 units from 2nd to 1st lines, one unit on each
// 2nd line: LegalActions lists every accepted answer of 2 units (found
// here by brute force over every pair of paths), and each once.
func TestLegalActionsListsMultiUnitMoves(t *testing.T) {
	s := military(t, Options{}, "zielinski")
	s = must(t, s, PlayCard{Seat: 1, Card: "zielinski", Front: Central, Choice: 1})
	if s.Pending == nil || s.Pending.Kind != DecideMove || s.Pending.N != 2 {
		t.Fatalf("pending %+v, want a move of up to 2", s.Pending)
	}
	var paths []UnitMove
	for _, f := range Fronts {
		for _, l := range []string{"1", "2"} {
			for _, g := range Fronts {
				for _, k := range []string{"1", "2"} {
					paths = append(paths, UnitMove{From: f + l, To: g + k, N: 1})
				}
			}
		}
	}
	want := map[string]bool{}
	for i, a := range paths {
		for _, b := range paths[i:] {
			ms := []UnitMove{a, b}
			if a == b {
				ms = []UnitMove{{From: a.From, To: a.To, N: 2}}
			}
			if _, _, err := Apply(s, Move{Seat: 1, Moves: ms}); err == nil {
				want[moveKey(ms)] = true
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("no answer of 2 units is accepted: the test proves nothing")
	}
	got := map[string]bool{}
	for _, a := range LegalActions(s) {
		m, ok := a.(Move)
		if !ok {
			t.Fatalf("listed %T during a move decision", a)
		}
		if _, _, err := Apply(s, m); err != nil {
			t.Errorf("listed %+v refused: %v", m, err)
		}
		if moved(m.Moves) == 2 {
			k := moveKey(m.Moves)
			if got[k] {
				t.Errorf("%s listed twice", k)
			}
			got[k] = true
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("accepted answer %s not listed", k)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d answers of 2 units listed, want %d", len(got), len(want))
	}
}

// A supply of 4: answers mixing adds and moves are listed, capped at
// MaxMultiAnswers, every one accepted by Apply.
func TestLegalActionsListsMultiUnitSupplyCapped(t *testing.T) {
	s := military(t, Options{})
	s.Pending = &Pending{Kind: DecideSupply, Seat: 1, Army: WP, N: 4, Resource: ResSupply}
	var multi, mixed, four int
	for _, a := range LegalActions(s) {
		sp, ok := a.(Supply)
		if !ok {
			t.Fatalf("listed %T during a supply decision", a)
		}
		if _, _, err := Apply(s, sp); err != nil {
			t.Errorf("listed %+v refused: %v", sp, err)
		}
		n := len(sp.Add) + moved(sp.Moves)
		if n > 4 {
			t.Errorf("%+v uses %d units, the supply is 4", sp, n)
		}
		if n >= 2 {
			multi++
		}
		if len(sp.Add) > 0 && len(sp.Moves) > 0 {
			mixed++
		}
		if n == 4 {
			four++
		}
	}
	if multi == 0 || multi > MaxMultiAnswers {
		t.Errorf("%d answers of several units, want 1 to %d", multi, MaxMultiAnswers)
	}
	if mixed == 0 {
		t.Error("no answer both adds and moves")
	}
	if four == 0 {
		t.Error("no answer uses all 4 units")
	}
	t.Logf("%d multi-unit answers, %d mixed, %d of 4 units", multi, mixed, four)
}

// The cap holds however many units a move allows.
func TestLegalActionsMultiBounded(t *testing.T) {
	s := military(t, Options{})
	for i := range s.Armies[0].Fronts {
		s.Armies[0].Fronts[i] = Line{First: 2, Second: 3}
	}
	s.Armies[0].Reserve = 21 - 15
	s.Pending = &Pending{Kind: DecideMove, Seat: 1, Army: WP, N: 6}
	acts := LegalActions(s)
	singles := len(s.singleMoves(WP, 0, 0, ""))
	if max := 1 + singles + MaxMultiAnswers; len(acts) > max {
		t.Errorf("%d actions listed, want at most %d", len(acts), max)
	}
	if !slices.ContainsFunc(acts, func(a Action) bool { m, ok := a.(Move); return ok && moved(m.Moves) > 1 }) {
		t.Error("no move of several units listed")
	}
}
