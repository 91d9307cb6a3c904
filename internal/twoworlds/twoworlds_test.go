package twoworlds

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
)

// secretGame is the smallest game with a secret: each seat holds a number
// that only it and the referee see. leaks names the channel that shows it
// to everyone, to prove the harness sees each one.
type secretGame struct {
	secret [3]int
	moves  int
	leaks  string
}

type move struct{}

func (move) Type() string { return "move" }

func (g *secretGame) Name() string                     { return "secret" }
func (g *secretGame) Start() (companion.Action, error) { return move{}, nil }
func (g *secretGame) EncodeAction(companion.Action) ([]byte, error) {
	return []byte(`{"type":"move"}`), nil
}
func (g *secretGame) DecodeAction([]byte) (companion.Action, error) { return move{}, nil }
func (g *secretGame) Apply(companion.Action) ([]any, func(), error) {
	ev := map[string]any{"type": "moved", "text": rules.Textf("ruch", "a move")}
	if g.leaks == "event" {
		ev["secret"] = g.secret[1]
	}
	if g.leaks == "refusal" && g.secret[1] > 5 {
		return nil, nil, &rules.Rejection{Code: "big", Reason: rules.Textf("za dużo", "too big")}
	}
	return []any{ev}, func() { g.moves++ }, nil
}
func (g *secretGame) Bind(in companion.Input) ([]companion.Action, []companion.Notice) {
	if g.leaks == "notice" {
		return nil, []companion.Notice{{Type: "hint", Text: rules.Textf("%d", "%[1]d", g.secret[2])}}
	}
	return []companion.Action{move{}}, nil
}
func (g *secretGame) View(v companion.Viewer) any {
	view := map[string]any{"moves": g.moves}
	switch {
	case v.Role == companion.RoleReferee:
		view["secrets"] = g.secret
	case v.Role == companion.RolePlayer:
		view["mine"] = g.secret[v.Seat]
	case g.leaks == "view":
		view["total"] = g.secret[1] + g.secret[2]
	}
	return view
}
func (g *secretGame) Headline() rules.Text {
	if g.leaks == "headline" {
		return rules.Textf("%d", "%[1]d", g.secret[1])
	}
	return rules.Textf("gra", "game")
}

func worlds(leaks string, a, b [3]int) Pair {
	in := []companion.Input{{}, {}}
	return Pair{Name: leaks, Viewer: companion.Public,
		A: World{Game: &secretGame{secret: a, leaks: leaks}, Inputs: in},
		B: World{Game: &secretGame{secret: b, leaks: leaks}, Inputs: in}}
}

// fakeT records a failure instead of failing the test.
type fakeT struct {
	testing.TB
	failed []string
}

func (f *fakeT) Helper()                   {}
func (f *fakeT) Errorf(s string, a ...any) { f.failed = append(f.failed, fmt.Sprintf(s, a...)) }
func (f *fakeT) Fatalf(s string, a ...any) { f.failed = append(f.failed, fmt.Sprintf(s, a...)) }

func TestCheckSeesEveryChannel(t *testing.T) {
	for _, leaks := range []string{"", "view", "event", "notice", "headline", "refusal"} {
		t.Run("leaks="+leaks, func(t *testing.T) {
			f := &fakeT{TB: t}
			Check(f, worlds(leaks, [3]int{0, 3, 4}, [3]int{0, 9, 1}))
			if caught := len(f.failed) > 0; caught != (leaks != "") {
				t.Fatalf("caught %v, want %v: %v", caught, leaks != "", f.failed)
			}
			if leaks != "" && !strings.Contains(f.failed[0], "A:") {
				t.Errorf("the failure does not show the two worlds: %s", f.failed[0])
			}
		})
	}
}

// TestCheckPerSeat: a seat sees its own secret, so two worlds that differ
// in it are told apart by that seat and not by another.
func TestCheckPerSeat(t *testing.T) {
	p := worlds("", [3]int{0, 3, 4}, [3]int{0, 3, 7})
	p.Viewer = companion.Viewer{Role: companion.RolePlayer, Seat: 1}
	Check(t, p)
	f := &fakeT{TB: t}
	p.Viewer.Seat = 2
	Check(f, p)
	if len(f.failed) == 0 {
		t.Fatal("seat 2 sees its own secret change, and the harness did not notice")
	}
	var view map[string]any
	json.Unmarshal([]byte(strings.SplitN(Record(t, p.B, p.Viewer)[0], " ", 3)[2]), &view)
	if view["mine"] != float64(7) {
		t.Errorf("seat 2's view %v: want its secret 7", view)
	}
}
