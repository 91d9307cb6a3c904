package bitwagame

import (
	"slices"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules/bitwa"
)

// tokens are the players' initiative tokens, by seat.
func tokens(s bitwa.State) map[int]int {
	out := map[int]int{}
	for _, p := range s.Players {
		out[p.Seat] = p.Token
	}
	return out
}

func refusedCode(t *testing.T, g *Game, in companion.Input, code string) {
	t.Helper()
	before := g.State()
	took, rej := feed(t, g, in)
	if rej == nil || rej.Code != code {
		t.Fatalf("input %v %v: took %v / %+v, want refused %s", in.Key, in.Args, types(took), rej, code)
	}
	if rej.Reason.PL == "" || rej.Reason.EN == "" || rej.Reason.PL == rej.Reason.EN {
		t.Errorf("reason %+v: want Polish and English", rej.Reason)
	}
	if after := g.State(); after.Active != before.Active || !samePending(after.Pending, before.Pending) {
		t.Errorf("a refused input changed the game: active %d→%d", before.Active, after.Active)
	}
}

func samePending(a, b *bitwa.Pending) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Kind == b.Kind && a.Seat == b.Seat && a.Army == b.Army
}

// Three players, Marysia and Zuzia (WP) against Janek (ACz): an ally
// answers the army's decisions, the dice hand out the initiative tokens and
// the turns follow them, and a player of the other army is refused.
func TestThreePlayersAllies(t *testing.T) {
	g := testGameN(t, 3)
	// The WP opening blockade waits for the army: Janek may not lay it,
	// Zuzia may, from her page, for her army.
	if pd := g.State().Pending; pd == nil || pd.Kind != bitwa.DecideOpeningBlockade || pd.Army != bitwa.WP {
		t.Fatalf("pending %+v, want the WP opening blockade", pd)
	}
	refusedCode(t, g, page(2, "blockade", "order_field", "S"), "not_your_turn")
	took, rej := feed(t, g, page(3, "blockade", "order_field", "S"))
	if rej != nil || len(took) != 1 || took[0].(bitwa.Blockade).Seat != 3 {
		t.Fatalf("Zuzia's blockade: %v / %+v, want a blockade for seat 3", types(took), rej)
	}
	// Zuzia may not lay the ACz marker.
	refusedCode(t, g, page(3, "blockade", "order_field", "S"), "not_your_turn")
	feedAll(t, g, page(2, "blockade", "order_field", "S"))
	// The initiative dice one a player, in the players' order, on the
	// table's keypad: Marysia 6, Janek 4, Zuzia 2 → tokens 1, 2, 3.
	feedAll(t, g, press("", "6"), press("", "4"), press("", "2"))
	if got := tokens(g.State()); got[1] != 1 || got[2] != 2 || got[3] != 3 {
		t.Fatalf("tokens %v, want Marysia 1, Janek 2, Zuzia 3", got)
	}
	// The bonus die from Zuzia's page: dice are read at the table.
	feedAll(t, g, page(3, "roll", "2"))
	s := g.State()
	if s.Stage != bitwa.StageMilitary || s.Active != 1 {
		t.Fatalf("stage %s, active %d: want Marysia (token 1) to act", s.Stage, s.Active)
	}
	if h := []int{len(s.Player(1).Hand), len(s.Player(2).Hand), len(s.Player(3).Hand)}; !slices.Equal(h, []int{3, 6, 3}) {
		t.Errorf("hands %v, want 3+3 against 6", h)
	}
	// Marysia's turn is hers alone: her ally may not play for her.
	refusedCode(t, g, page(3, "play", "5-dp", "C"), "not_your_turn")
	// Zieliński's move waits for the army; the decider is the ally with the
	// higher token (Zuzia), but Marysia may answer too; Janek may not.
	feedAll(t, g, page(1, "play", "zielinski", "C", "2"))
	pd := g.State().Pending
	if pd == nil || pd.Kind != bitwa.DecideMove || pd.Army != bitwa.WP || pd.Seat != 3 {
		t.Fatalf("pending %+v, want a WP move decided by Zuzia (seat 3)", pd)
	}
	refusedCode(t, g, page(2, "move", "C2>C1"), "not_your_turn")
	refusedCode(t, g, press("seat-2", "cancel"), "not_your_turn")
	took, rej = feed(t, g, page(1, "move", "C2>C1"))
	if rej != nil || len(took) != 1 || took[0].(bitwa.Move).Seat != 1 {
		t.Fatalf("Marysia's answer: %v / %+v", types(took), rej)
	}
	// Then Janek (token 2), then Zuzia (token 3).
	if a := g.State().Active; a != 2 {
		t.Fatalf("active %d, want Janek", a)
	}
	refusedCode(t, g, page(3, "pass"), "not_your_turn")
	feedAll(t, g, page(2, "pass"))
	if a := g.State().Active; a != 3 {
		t.Fatalf("active %d, want Zuzia", a)
	}
}

// Four players, two against two: the funds card is turned and the tokens
// handed out by either player of the winning army, never by the other
// army; the new tokens set the order of the next stage.
func TestFourPlayersTokensAndAllies(t *testing.T) {
	g := testGameN(t, 4)
	feedAll(t, g, page(1, "blockade", "order_field", "S"), page(4, "blockade", "order_field", "S"))
	// Dice from a page, all four at once: Marysia 6, Janek 4, Zuzia 2,
	// Staś 1.
	feedAll(t, g, page(0, "roll", "6", "4", "2", "1"))
	if got := tokens(g.State()); got[1] != 1 || got[2] != 2 || got[3] != 3 || got[4] != 4 {
		t.Fatalf("tokens %v, want 1 2 3 4 by seat", got)
	}
	feedAll(t, g, press("", "2"))
	// Janek's commander Kork moves for the ACz army: Staś (token 4, the
	// ACz decider) answers; the WP players may not.
	feedAll(t, g, page(1, "fight", "7-dp", "funds"), page(2, "play", "kork", "C", "2"))
	pd := g.State().Pending
	if pd == nil || pd.Kind != bitwa.DecideMove || pd.Army != bitwa.ACz || pd.Seat != 4 {
		t.Fatalf("pending %+v, want an ACz move decided by Staś", pd)
	}
	refusedCode(t, g, page(1, "move", "C2>C1"), "not_your_turn")
	refusedCode(t, g, page(3, "move"), "not_your_turn")
	took, rej := feed(t, g, page(4, "move", "C2>C1"))
	if rej != nil || len(took) != 1 || took[0].(bitwa.Move).Seat != 4 {
		t.Fatalf("Staś's answer: %v / %+v", types(took), rej)
	}
	// Everybody passes in token order: Zuzia, Staś, Marysia, Janek.
	for _, seat := range []int{3, 4, 1, 2} {
		if a := g.State().Active; a != seat {
			t.Fatalf("active %d, want %d", a, seat)
		}
		feedAll(t, g, page(seat, "pass"))
	}
	s := g.State()
	if s.Round != 2 || s.Won[bitwa.ResFunds] != bitwa.WP {
		t.Fatalf("round %d, funds won by %q: want round 2, WP", s.Round, s.Won[bitwa.ResFunds])
	}
	feedAll(t, g, press("", "3"))
	pd = g.State().Pending
	if pd == nil || pd.Kind != bitwa.DecideTurnCard || pd.Army != bitwa.WP {
		t.Fatalf("pending %+v, want WP to turn the funds card", pd)
	}
	refusedCode(t, g, page(2, "turn", "1"), "not_your_turn")
	// Marysia turns it (3+3 cards and the tokens); the tokens are WP's to
	// hand out: Staś may not, Zuzia may.
	feedAll(t, g, page(1, "turn", "1"))
	pd = g.State().Pending
	if pd == nil || pd.Kind != bitwa.DecideAssign || pd.Army != bitwa.WP {
		t.Fatalf("pending %+v, want WP to hand out the tokens", pd)
	}
	refusedCode(t, g, page(4, "assign", "4", "3", "2", "1"), "not_your_turn")
	feedAll(t, g, page(3, "assign", "3", "2", "1", "4"))
	s = g.State()
	if got := tokens(s); got[3] != 1 || got[2] != 2 || got[1] != 3 || got[4] != 4 {
		t.Fatalf("tokens %v, want Zuzia 1, Janek 2, Marysia 3, Staś 4", got)
	}
	if s.Stage != bitwa.StageMilitary || s.Active != 3 {
		t.Fatalf("stage %s, active %d: want Zuzia (token 1) to act", s.Stage, s.Active)
	}
}
