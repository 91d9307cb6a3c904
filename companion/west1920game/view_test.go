package west1920game

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules/west1920"
)

func viewOf(t testing.TB, g *Game, v companion.Viewer) View {
	t.Helper()
	out, ok := g.View(v).(View)
	if !ok {
		t.Fatalf("view is %T", g.View(v))
	}
	return out
}

var (
	polishPage  = companion.Viewer{Role: companion.RolePlayer, Seat: PolishSeat}
	russianPage = companion.Viewer{Role: companion.RolePlayer, Seat: RussianSeat}
	refereePage = companion.Viewer{Role: companion.RoleReferee}
)

// Hands are private: each player sees their own, the table and the other
// player only the count; the referee sees both and the deck.
func TestViewHandsArePrivate(t *testing.T) {
	g := testGame(t, false)
	before(t, g, "roll") // both have drawn: Russian 1, Polish 3
	hand := func(v View, side string) (int, []int) {
		for _, p := range v.Game.Players {
			if p.Side == side {
				return p.HandSize, p.Hand
			}
		}
		return -1, nil
	}
	cases := []struct {
		name         string
		v            companion.Viewer
		polish, russ int // cards shown
		deck         bool
	}{
		{"public", companion.Public, 0, 0, false},
		{"polish page", polishPage, 1, 0, false},
		{"russian page", russianPage, 0, 1, false},
		{"referee", refereePage, 1, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := viewOf(t, g, tc.v)
			if _, h := hand(v, west1920.Polish); len(h) != tc.polish {
				t.Errorf("polish hand %v shown, want %d cards", h, tc.polish)
			}
			if _, h := hand(v, west1920.Russian); len(h) != tc.russ {
				t.Errorf("russian hand %v shown, want %d cards", h, tc.russ)
			}
			if n, _ := hand(v, west1920.Russian); !tc.deck && n != 1 {
				t.Errorf("russian hand size %d, want 1", n)
			}
			if (len(v.Game.Deck) > 0) != tc.deck {
				t.Errorf("deck shown: %v, want %v", len(v.Game.Deck) > 0, tc.deck)
			}
			b, _ := json.Marshal(v)
			if !tc.deck && strings.Contains(string(b), `"deck":[1`) {
				t.Error("the deck leaks into the JSON")
			}
		})
	}
}

// Before every roll the views carry its odds: the RP distribution before
// the resource roll, the combat outcome table (9.5 a/b/c with the losses
// of each side) before the combat roll, each stack's activation chance.
func TestViewOddsBeforeRolls(t *testing.T) {
	sum := func(rows []OddsRow) float64 {
		s := 0.0
		for _, r := range rows {
			s += r.P
		}
		return s
	}
	t.Run("resource roll", func(t *testing.T) {
		g := testGame(t, false)
		before(t, g, "roll")
		o := viewOf(t, g, companion.Public).Overlay
		if len(o.RP) != 11 || o.RP[0].N != 12-5 || o.RP[10].N != 12+5 {
			t.Fatalf("RP odds %+v, want 7…17", o.RP)
		}
		if p := o.RP[5].P; math.Abs(p-6.0/36) > 1e-12 || o.RP[5].N != 12 {
			t.Errorf("P(12 RP) = %v, want 6/36", p)
		}
	})
	t.Run("combat roll", func(t *testing.T) {
		g := testGame(t, false)
		before(t, g, "attack")
		must(t, g, page(2, "move", "1804", "1704"))
		o := viewOf(t, g, russianPage).Overlay
		if len(o.Combat) != 1 {
			t.Fatalf("combat odds %+v, want one table", o.Combat)
		}
		c := o.Combat[0]
		if math.Abs(sum(c.Rows)-1) > 1e-9 || math.Abs(c.AttackerWins+c.DefenderWins+c.Tie-1) > 1e-9 {
			t.Errorf("the outcomes do not sum to 1: %+v", c)
		}
		rules := map[string]bool{}
		for _, r := range c.Rows {
			rules[r.Rule+r.Winner] = true
			if r.Rule == "9.5b" && r.Winner == "attacker" && r.DefenderLosses < 1 {
				t.Errorf("a 9.5b win costs the defender nothing: %+v", r)
			}
		}
		for _, want := range []string{"9.5a", "9.5battacker", "9.5bdefender"} {
			if !rules[want] {
				t.Errorf("no row %s in %+v", want, c.Rows)
			}
		}
	})
	t.Run("activation", func(t *testing.T) {
		g := testGame(t, false)
		o := viewOf(t, g, companion.Public).Overlay
		if len(o.Stacks) == 0 {
			t.Fatal("no stacks")
		}
		withHQ, without := false, false
		for _, s := range o.Stacks {
			if s.Fail != west1920.ActivationFail(s.Gap) {
				t.Errorf("stack %s: fail %v for gap %d", s.Hex, s.Fail, s.Gap)
			}
			withHQ = withHQ || (s.Hex == "2015" && s.Gap == 0)
			without = without || s.Gap > 0
		}
		if !withHQ || !without {
			t.Errorf("want 2015 (HQ in the stack) without a roll and some stack needing one: %+v", o.Stacks)
		}
	})
}

// The overlays: every combat unit's supply, both sides' reach, the depots
// and whether each is linked, the HQs' ranges.
func TestViewOverlays(t *testing.T) {
	g := testGame(t, false)
	s := g.State()
	o := viewOf(t, g, companion.Public).Overlay
	for _, u := range s.Units {
		if u.Status != west1920.OnMap {
			continue
		}
		want := "unsupplied"
		if s.Supplied(u.ID) {
			want = "supplied"
		}
		if o.Supply[u.ID] != want {
			t.Errorf("%s: supply %q, want %q", u.ID, o.Supply[u.ID], want)
		}
	}
	if len(o.Reach[west1920.Polish]) == 0 || len(o.Reach[west1920.Russian]) == 0 {
		t.Error("a side without supply reach")
	}
	if len(o.Depots) != len(s.Depots) {
		t.Errorf("%d depots shown, %d on the map", len(o.Depots), len(s.Depots))
	}
	for _, d := range o.Depots {
		if !d.Connected {
			t.Errorf("start depot %s (%s) shown unlinked; the assumed set-up links them all (oob.yaml)", d.Hex, d.Side)
		}
	}
	// Lida's depot taken away: Wilno and Mińsk lose their link to Warszawa,
	// the others keep theirs.
	cut := s
	cut.Depots = slices.DeleteFunc(slices.Clone(s.Depots), func(d west1920.Depot) bool { return d.Hex == "1306" })
	g.SetState(cut)
	for _, d := range viewOf(t, g, companion.Public).Overlay.Depots {
		want := d.Hex != "1304" && d.Hex != "1606"
		if d.Connected != want {
			t.Errorf("without Lida: depot %s linked %v, want %v", d.Hex, d.Connected, want)
		}
	}
	g.SetState(s)
	o = viewOf(t, g, companion.Public).Overlay
	for _, q := range o.HQs {
		if len(q.Range) < 4 || q.Range[0] != q.Hex {
			t.Errorf("HQ %s range %v", q.ID, q.Range)
		}
	}
	if len(o.Legal) == 0 {
		t.Error("no legal actions listed")
	}
}

// The overlays are computed once per state, for every viewer, and renewed
// on commit.
func TestOverlaysOncePerState(t *testing.T) {
	g := testGame(t, false)
	a := viewOf(t, g, companion.Public).Overlay
	b := viewOf(t, g, refereePage).Overlay
	if a != b {
		t.Error("two viewers of one state got overlays computed twice")
	}
	must(t, g, scan("seat-2", CardID(1)))
	if c := viewOf(t, g, companion.Public).Overlay; c == a {
		t.Error("the overlays were not renewed after a commit")
	}
}

// BenchmarkView is the cost of one published view: cold (the overlays
// computed, once per state), warm (another viewer of the same state) and
// the overlays alone, before an order (the legal actions list every
// path) and before an attack.
func BenchmarkView(b *testing.B) {
	for _, at := range []string{"order", "attack"} {
		g := testGame(b, false)
		before(b, g, at)
		b.Run("cold_"+at, func(b *testing.B) {
			for b.Loop() {
				g.derived = nil
				_, _ = json.Marshal(g.View(companion.Public))
			}
		})
		b.Run("warm_"+at, func(b *testing.B) {
			for b.Loop() {
				_, _ = json.Marshal(g.View(russianPage))
			}
		})
		b.Run("overlay_"+at, func(b *testing.B) {
			s := g.State()
			for b.Loop() {
				computeOverlay(s)
			}
		})
	}
}

// Before an activation roll (an order with no HQ in or next to the stack,
// 7.2) the views carry its chance of failure, the same as the stack's
// overlay said before the order.
func TestViewActivationOdds(t *testing.T) {
	g := testGame(t, false)
	before(t, g, "assign_chit")
	var stack StackView
	for _, s := range viewOf(t, g, companion.Public).Overlay.Stacks {
		if s.Side == west1920.Russian && s.Gap > 0 {
			stack = s
			break
		}
	}
	if stack.Hex == "" {
		t.Fatal("no Russian stack needs an activation roll")
	}
	must(t, g, page(2, "chit", string(stack.Hex)))
	must(t, g, press("red", "pass"))
	must(t, g, press("red", "pass"))
	must(t, g, page(0, "roll", "2", "4"))
	var dest west1920.Hex
	for _, a := range west1920.LegalActions(g.State()) {
		if o, ok := a.(west1920.Order); ok && o.Hex == stack.Hex && len(o.Path) > 0 {
			dest = o.Path[len(o.Path)-1]
			break
		}
	}
	if dest == "" {
		t.Fatalf("no legal move from %s", stack.Hex)
	}
	must(t, g, page(2, "move", string(stack.Hex), string(dest)))
	p := g.State().Pending
	if p == nil || p.Kind != "activation" {
		t.Fatalf("pending %+v, want the activation roll", p)
	}
	o := viewOf(t, g, polishPage).Overlay
	if o.Fail == nil || *o.Fail != stack.Fail || *o.Fail != float64(stack.Gap)/6 {
		t.Errorf("activation odds %v, want the stack's %v (gap %d)", o.Fail, stack.Fail, stack.Gap)
	}
}
