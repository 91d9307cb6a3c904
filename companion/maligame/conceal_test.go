package maligame

import (
	"testing"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/mali"
)

// What the view hides is concealed where the public reads an action (an
// undo's or a correction's line in the record): two actions that differ
// only in a player's secrets (the goals dealt and kept, the card laid face
// down, the cards seen on the deck) read the same; a public action is
// told whole.
func TestConcealHidesWhatTheViewHides(t *testing.T) {
	g := newGame(t, "basic", "")
	public := func(a gamespec.Action) string {
		t.Helper()
		b, err := g.EncodeAction(g.Conceal(a))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name string
		a, b gamespec.Action
	}{
		{"goals dealt", mali.DealGoals{Hands: [][]string{{"c1", "c2"}, {"c3", "c4"}}}, mali.DealGoals{Hands: [][]string{{"c5", "c6"}, {"c7", "c8"}}}},
		{"goals kept", mali.KeepGoals{Seat: 1, Goals: []string{"c1", "c2", "c3"}}, mali.KeepGoals{Seat: 1, Goals: []string{"c4", "c5", "c6"}}},
		{"card laid face down", mali.PlayCard{Seat: 2, Card: 1}, mali.PlayCard{Seat: 2, Card: 5}},
		{"cards seen on the deck", mali.Rumours{Cards: []string{"r01", "r02"}}, mali.Rumours{Cards: []string{"r03", "r04"}}},
	} {
		if pa, pb := public(tc.a), public(tc.b); pa != pb {
			t.Errorf("%s: told apart in public: %s and %s", tc.name, pa, pb)
		}
	}
	if a, b := public(mali.KeepGoals{Seat: 1, Goals: []string{"c1"}}), public(mali.KeepGoals{Seat: 2, Goals: []string{"c1"}}); a == b {
		t.Errorf("the seat of kept goals is public, told the same: %s", a)
	}
	move := mali.Move{Courier: "a1", To: "n1"}
	if got := g.Conceal(move); got != gamespec.Action(move) {
		t.Errorf("a move is concealed: %+v", got)
	}
}
