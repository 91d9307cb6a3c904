package west1920game

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// toPhase passes (the referee's pass for whoever the game waits for) from
// after the demo's combat until phase.
func toPhase(t *testing.T, g *Game, phase west1920.Phase) {
	t.Helper()
	before(t, g, "")
	must(t, g, page(1, "losses", "pl-1dpleg"))
	must(t, g, page(1, "move", "-", "1504"))
	must(t, g, page(2, "pass")) // no pursuit
	for i := 0; g.State().Phase != phase; i++ {
		if i > 20 {
			t.Fatalf("stuck in %s, pending %+v", g.State().Phase, g.State().Pending)
		}
		must(t, g, page(0, "pass"))
	}
}

// A strategic move (11.x) and a replacement (10.0) from the pages: the
// unit and the destination; the binder finds a path the engine takes.
func TestLaterPhases(t *testing.T) {
	t.Run("replacement", func(t *testing.T) {
		g := testGame(t, false)
		toPhase(t, g, west1920.PhaseReplacement)
		var weak string
		for _, u := range g.State().Units {
			if u.Status == west1920.OnMap && u.Weak && !u.OneSided && u.Side == west1920.Polish {
				weak = u.ID
			}
		}
		if weak == "" {
			t.Fatal("no weakened two-sided Polish unit (the 1. DP Leg. took a loss in the demo's combat)")
		}
		took := must(t, g, page(1, "replace", weak))
		if len(took) != 1 || took[0].Type() != "replace" {
			t.Fatalf("took %v", took)
		}
		if _, rej := feed(t, g, page(2, "replace", weak)); rej == nil || rej.Code == "" {
			t.Errorf("the Russian page replaced a Polish unit: %+v", rej)
		}
	})
	t.Run("strategic", func(t *testing.T) {
		g := testGame(t, false)
		toPhase(t, g, west1920.PhaseStrategic)
		s := g.State()
		var want west1920.StrategicMove
		for _, a := range west1920.LegalActions(s) {
			if m, ok := a.(west1920.StrategicMove); ok && len(m.Path) >= 3 {
				want = m
				break
			}
		}
		if want.Unit == "" {
			t.Fatal("no strategic move of 3 hexes or more")
		}
		seat := SeatOf(want.Side)
		dest := string(want.Path[len(want.Path)-1])
		took := must(t, g, page(seat, "strategic", want.Unit, dest))
		if m, ok := took[0].(west1920.StrategicMove); !ok || string(m.Path[len(m.Path)-1]) != dest || len(m.Path) > len(want.Path) {
			t.Errorf("took %+v, want a path to %s no longer than %d", took[0], dest, len(want.Path))
		}
		if _, rej := feed(t, g, page(SeatOf(want.Side), "strategic", want.Unit, dest)); rej == nil {
			t.Error("a second strategic move of the same unit was accepted")
		}
	})
}

// advance answers for whoever the game waits for — the referee's pass,
// rolls of 5 and 2 (no tie to re-roll), and in the events phase the cards
// pick chooses — until done says stop.
func advance(t *testing.T, g *Game, pick func(west1920.State) (seat int, cmd, card string, ok bool), done func(west1920.State) bool) {
	t.Helper()
	for i := 0; !done(g.State()); i++ {
		s := g.State()
		if i > 200 || s.Phase == west1920.PhaseOver {
			t.Fatalf("stuck in stage %d %s, pending %+v", s.Stage, s.Phase, s.Pending)
		}
		if p := s.Pending; p != nil && p.Action == "roll" {
			must(t, g, page(0, "roll", []string{"5", "2", "4", "1"}[:p.Dice]...))
			continue
		}
		if seat, cmd, card, ok := pick(s); ok {
			must(t, g, page(seat, cmd, card))
			continue
		}
		must(t, g, page(0, "pass"))
	}
}

// cardsFor plays card c for the Poles from stage 2: drawn and played from
// the Polish page; the Russians draw and play the first card they may that
// is not a single-instruction card (3.2: it would override c).
func cardsFor(c int) func(west1920.State) (int, string, string, bool) {
	return func(s west1920.State) (int, string, string, bool) {
		if s.Phase != west1920.PhaseEvents || s.Stage < 2 || s.Pending != nil {
			return 0, "", "", false
		}
		for _, a := range west1920.LegalActions(s) {
			switch a := a.(type) {
			case west1920.DrawCard:
				if a.Side == west1920.Polish && a.Card == c || a.Side == west1920.Russian && a.Card != c && !slices.Contains(west1920.SingleCards, a.Card) {
					return SeatOf(a.Side), "draw", strconv.Itoa(a.Card), true
				}
			case west1920.PlayCard:
				if a.Side == west1920.Polish && a.Card == c || a.Side == west1920.Russian && !slices.Contains(west1920.SingleCards, a.Card) {
					return SeatOf(a.Side), "play", strconv.Itoa(a.Card), true
				}
			}
		}
		return 0, "", "", false
	}
}

// Card 31 played by the Poles: after combat the engine asks for up to two
// more Polish orders (extra_order); a stack dragged on the Polish page
// becomes an order the engine takes, with no chit.
func TestCard31ExtraOrderFromPage(t *testing.T) {
	g := testGame(t, false)
	toPhase(t, g, west1920.PhaseStrategic)
	advance(t, g, cardsFor(31), func(s west1920.State) bool {
		return s.Pending != nil && s.Pending.Kind == "extra_order"
	})
	s := g.State()
	var want west1920.Order
	for _, a := range west1920.LegalActions(s) {
		if o, ok := a.(west1920.Order); ok && len(o.Path) == 1 {
			want = o
			break
		}
	}
	if want.Hex == "" {
		t.Fatal("no one-hex order legal under card 31")
	}
	if _, rej := feed(t, g, page(2, "move", string(want.Hex), string(want.Path[0]))); rej == nil {
		t.Error("the Russian page gave the Poles' card-31 order")
	}
	took := must(t, g, page(1, "move", string(want.Hex), string(want.Path[0])))
	if o, ok := took[0].(west1920.Order); !ok || o.Hex != want.Hex || len(o.Path) != 1 || o.Path[0] != want.Path[0] {
		t.Fatalf("took %+v, want an order %s → %s", took[0], want.Hex, want.Path[0])
	}
	if len(g.State().Chits) != 0 {
		t.Errorf("card 31's order left chits %+v (7.3 does not apply)", g.State().Chits)
	}
}

// An HQ moves strategically from the page like a unit (11.1).
func TestHQStrategicMoveFromPage(t *testing.T) {
	g := testGame(t, false)
	toPhase(t, g, west1920.PhaseStrategic)
	s := g.State()
	var want west1920.StrategicMove
	for _, a := range west1920.LegalActions(s) {
		if m, ok := a.(west1920.StrategicMove); ok && strings.Contains(m.Unit, "hq") && len(m.Path) >= 2 {
			want = m
			break
		}
	}
	if want.Unit == "" {
		t.Fatal("no strategic move of an HQ legal")
	}
	dest := string(want.Path[len(want.Path)-1])
	took := must(t, g, page(SeatOf(want.Side), "strategic", want.Unit, dest))
	if m, ok := took[0].(west1920.StrategicMove); !ok || m.Unit != want.Unit || string(m.Path[len(m.Path)-1]) != dest {
		t.Errorf("took %+v, want %s to %s", took[0], want.Unit, dest)
	}
}

// adjustNextTo moves unit (referee's adjust) onto a free neighbour of hex.
func adjustNextTo(t *testing.T, g *Game, unit string, hex west1920.Hex, not ...string) string {
	t.Helper()
	b := g.State().Catalogue().Board
	for d := west1920.N; d <= west1920.NW; d++ {
		n := b.Neighbour(b.Index(hex), d)
		if n < 0 || slices.Contains(not, string(b.HexAt(n))) {
			continue
		}
		h := string(b.HexAt(n))
		if _, rej := feed(t, g, page(0, "adjust", unit, "hex="+h)); rej == nil {
			return h
		}
	}
	t.Fatalf("no neighbour of %s takes %s", hex, unit)
	return ""
}

// 9.5c from the pages: the demo's attack made a rout (the defender
// weakened, a second Russian stack beside it: 6+4 against 1+2), the
// pursuers enter 1704 facing a Polish stack, and the Russian page's drag
// onto it is the attack again the engine waits for (attack_again).
func TestAttackAgainFromPage(t *testing.T) {
	g := testGame(t, false)
	before(t, g, "attack")
	must(t, g, page(0, "adjust", "pl-1dpleg", "weak=true"))
	adjustNextTo(t, g, "ru-2sd", "1704", "1804")
	must(t, g, page(2, "move", "1804", "1704"))
	must(t, g, page(0, "roll", "6", "1"))
	if o := g.State().Battle.Outcome; o == nil || o.Rule != "9.5c" {
		t.Fatalf("outcome %+v, want 9.5c", o)
	}
	must(t, g, page(1, "losses", "pl-1dpleg"))
	target := adjustNextTo(t, g, "pl-8dp", "1704", "1804", "1703")
	must(t, g, page(0, "adjust", "ru-hq-3a", "hex=1804"))
	b := g.State().Catalogue().Board
	must(t, g, page(2, "move", "1804", "1704", b.DirTo(b.Index("1704"), b.Index(west1920.Hex(target))).String()))
	if p := g.State().Pending; p == nil || p.Kind != "attack_again" {
		t.Fatalf("pending %+v, want attack_again", p)
	}
	if _, rej := feed(t, g, page(1, "move", "1704", target)); rej == nil {
		t.Error("the Polish page made the Russians' attack again")
	}
	took := must(t, g, page(2, "move", "1704", target))
	if a, ok := took[0].(west1920.Attack); !ok || a.From != "1704" || string(a.Target) != target {
		t.Fatalf("took %+v, want the attack 1704 → %s", took[0], target)
	}
}

// Card 8 played by the Poles: before the desertion roll the screens show
// what each face costs (half the roll rounded down of the roller's units).
func TestDesertionOdds(t *testing.T) {
	g := testGame(t, false)
	toPhase(t, g, west1920.PhaseStrategic)
	advance(t, g, cardsFor(8), func(s west1920.State) bool {
		return s.Pending != nil && s.Pending.Kind == "desertion"
	})
	o := viewOf(t, g, companion.Public).Overlay
	want := map[string]float64{"0 unit(s) desert": 1.0 / 6, "1 unit(s) desert": 2.0 / 6, "2 unit(s) desert": 2.0 / 6, "3 unit(s) desert": 1.0 / 6}
	if len(o.Outcomes) != len(want) {
		t.Fatalf("outcomes %+v, want %v", o.Outcomes, want)
	}
	for _, out := range o.Outcomes {
		if p, ok := want[out.Text.EN]; !ok || math.Abs(p-out.P) > 1e-12 {
			t.Errorf("%q: %v, want %v", out.Text.EN, out.P, want[out.Text.EN])
		}
	}
}

func TestDieOutcomes(t *testing.T) {
	got := dieOutcomes(func(face int) rules.Text {
		if face+12 <= west1920.Stages {
			return rules.Text{EN: "back in stage " + strconv.Itoa(face+12)}
		}
		return rules.Text{EN: "not back"}
	})
	want := []Outcome{{rules.Text{EN: "back in stage 13"}, 1.0 / 6}, {rules.Text{EN: "back in stage 14"}, 1.0 / 6}, {rules.Text{EN: "not back"}, 4.0 / 6}}
	if len(got) != len(want) {
		t.Fatalf("%+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Text != want[i].Text || math.Abs(got[i].P-want[i].P) > 1e-12 {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
