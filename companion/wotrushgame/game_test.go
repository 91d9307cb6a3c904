package wotrushgame

import (
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/wotrush"
)

// The binder's table: what each sensor event or command becomes, or why
// it is refused (in Polish and English). Seed 1944: Ania (seat 1) holds
// ENG-1-4 ENG-1-3 ENG-1-2 by the engine's guess, her Garage is VOL-1-1
// ENG-1-1 TECH-1-1; the Reserve is US-13 US-14 FR-17 DE-22, the deck
// starts DE-25 SU-16.
func TestBind(t *testing.T) {
	// Shown, shown (swapped from the Garage), played.
	acted := []companion.Input{scan("seat-1", "ENG-1-2"), scan("seat-1", "VOL-1-1"), scan("seat-1", "VOL-1-1")}
	cases := []struct {
		name  string
		setup []companion.Input
		in    companion.Input
		want  []string // action types, in order
		code  string   // or the refusal
		check func(t *testing.T, g *Game)
	}{
		{name: "hand card laid face up", in: scan("seat-1", "ENG-1-4"), want: []string{"reveal_hand"}},
		{name: "the referee ends a game that cannot end", in: page(0, "end_game"), want: []string{"declare_end"},
			check: func(t *testing.T, g *Game) {
				if g.State().Result == nil {
					t.Error("no result after the referee ended the game")
				}
			}},
		{name: "not once a turn is under way", setup: acted, in: page(0, "end_game"), code: "mid_turn"},
		{name: "a Garage card drawn for real", in: scan("seat-1", "TECH-1-1"), want: []string{"reveal_hand"},
			check: func(t *testing.T, g *Game) {
				s := g.State()
				if h := s.Player(1).Hand; !slices.Contains(h, "TECH-1-1") || len(h) != 3 {
					t.Errorf("hand %v, want TECH-1-1 in a hand of 3", h)
				}
			}},
		{name: "shown card scanned again is played", setup: acted[:2], in: scan("seat-1", "VOL-1-1"), want: []string{"play_card"}},
		{name: "after the first play a scan plays", setup: acted, in: scan("seat-1", "TECH-1-1"), want: []string{"reveal_hand", "play_card"}},
		{name: "another seat's reader on Ania's turn", in: scan("seat-2", "ENG-2-1"), code: "not_your_turn"},
		{name: "another player's card on Ania's reader", setup: acted, in: scan("seat-1", "ENG-2-1"), code: "not_in_hand"},
		{name: "a base scanned to play", setup: acted, in: scan("seat-1", "BASE-1-1"), code: "base_card"},
		{name: "reader of no seat", in: scan("stol", "ENG-1-1"), code: "unknown_reader"},
		{name: "card of another game", in: scan("seat-1", "ak"), code: "unknown_card"},
		{name: "market picks a Reserve card", in: scan(Market, "FR-17"), want: []string{"select"},
			check: func(t *testing.T, g *Game) {
				if sel := g.State().Selection; sel == nil || !slices.Equal(sel.Cards, []string{"FR-17"}) {
					t.Errorf("selection %+v", sel)
				}
			}},
		{name: "market corrects the Reserve", in: scan(Market, "SU-16"), want: []string{"reveal_reserve", "select"},
			check: func(t *testing.T, g *Game) {
				if r := g.State().Reserve; r[0] != "SU-16" {
					t.Errorf("reserve %v, want SU-16 where the engine's guess lay", r)
				}
			}},
		{name: "market: a card that is nowhere near", in: scan(Market, "ENG-1-1"), code: "not_in_reserve"},
		{name: "paying scans complete a purchase", setup: []companion.Input{scan(Market, "DE-22")}, in: scan("seat-1", "ENG-1-2"), want: []string{"buy"}},
		{name: "paying too little stays a selection", setup: []companion.Input{scan(Market, "US-13")}, in: scan("seat-1", "ENG-1-2"), want: []string{"select"},
			check: func(t *testing.T, g *Game) {
				if sel := g.State().Selection; sel == nil || !slices.Equal(sel.Pay, []string{"ENG-1-2"}) {
					t.Errorf("selection %+v", sel)
				}
			}},
		{name: "confirm a purchase paying too little", setup: []companion.Input{scan(Market, "US-13"), scan("seat-1", "ENG-1-2")}, in: press("seat-1", "confirm"), code: "too_little"},
		{name: "cancel clears", setup: []companion.Input{scan(Market, "US-13")}, in: press("", "cancel"), want: []string{"select"},
			check: func(t *testing.T, g *Game) {
				if g.State().Selection != nil {
					t.Error("the selection is still there")
				}
			}},
		{name: "confirm with nothing selected", in: press("seat-1", "confirm"), code: "nothing_to_confirm"},
		{name: "seat button ends the turn", in: press("seat-1", "next"), want: []string{"end_turn"}},
		{name: "another seat's button", in: press("seat-2", "next"), code: "not_your_turn"},
		{name: "table key acts for whoever", in: press("", "next"), want: []string{"end_turn"}},
		{name: "referee acts for whoever", in: page(0, "next"), want: []string{"end_turn"}},
		{name: "player 2's page during Ania's turn", in: page(2, "next"), code: "not_your_turn"},
		{name: "player 2 buys for seat 1", in: page(2, "buy", "DE-22", "ENG-1-2"), code: "not_your_turn"},
		{name: "page buy", in: page(1, "buy", "DE-22", "ENG-1-2"), want: []string{"buy"}},
		{name: "page buy without payment", in: page(1, "buy", "DE-22"), code: "bad_args"},
		{name: "page play with two cards", in: page(1, "play", "ENG-1-2", "ENG-1-3"), code: "bad_args"},
		{name: "page fire with one argument", in: page(1, "fire", "DE-02"), code: "bad_args"},
		{name: "page fire outside an attack", in: page(1, "fire", "DE-02", "BASE-2-1"), code: "no_decision"},
		{name: "page names an unknown card", in: page(1, "defend", "BASE-9-9"), code: "unknown_card"},
		{name: "medals not a number", in: page(1, "medals", "dwa"), code: "bad_args"},
		{name: "unknown command", in: page(1, "shuffle"), code: "unknown_key"},
		{name: "arm an attack from a seat button", in: press("seat-1", "attack"), want: []string{"select"}},
		{name: "an attack needs a vehicle", setup: []companion.Input{press("seat-1", "attack")}, in: scan("seat-1", "ENG-1-2"), code: "no_firepower"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := testGame(t)
			for i, in := range tc.setup {
				if _, rej := feed(t, g, in); rej != nil {
					t.Fatalf("setup %d: refused %s: %s", i, rej.Code, rej.Reason.EN)
				}
			}
			took, rej := feed(t, g, tc.in)
			if tc.code != "" {
				if rej == nil || rej.Code != tc.code {
					t.Fatalf("got %v / %+v, want refused %s", types(took), rej, tc.code)
				}
				if rej.Reason.PL == "" || rej.Reason.EN == "" || rej.Reason.PL == rej.Reason.EN && !strings.Contains(rej.Reason.EN, "(") {
					t.Errorf("reason %+v: want Polish and English", rej.Reason)
				}
			} else {
				if rej != nil {
					t.Fatalf("refused %s: %s", rej.Code, rej.Reason.EN)
				}
				if got := types(took); !slices.Equal(got, tc.want) {
					t.Fatalf("took %v, want %v", got, tc.want)
				}
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}

func types(as []companion.Action) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, a.Type())
	}
	return out
}

// A refusal names who the game waits for.
func TestAPlayerActsOnlyForTheirSeat(t *testing.T) {
	g := testGame(t)
	_, rej := feed(t, g, page(2, "next"))
	if rej == nil || !strings.Contains(rej.Reason.PL, "Ania") || !strings.Contains(rej.Reason.EN, "seat 2 (Bartek) cannot act for Ania") {
		t.Fatalf("refusal %+v", rej)
	}
	if g.State().Active != 1 {
		t.Error("the refused command changed the turn")
	}
}

// Decisions are answered by scans on the deciding player's reader: the
// base to defend, the target to fire at.
func TestDecisionsByScan(t *testing.T) {
	g := testGame(t)
	s := g.State()
	// Test arrangement (conservation kept): DE-09 (medium, armour 1,
	// Recruitment) and DE-02 (light, firepower 1) from the deck into Ania's
	// hand, two Engineers into their places in the deck.
	p := s.Player(1)
	for _, pair := range [][2]string{{"ENG-1-4", "DE-09"}, {"ENG-1-3", "DE-02"}} {
		i := slices.Index(s.Deck, pair[1])
		p.Hand[slices.Index(p.Hand, pair[0])] = pair[1]
		s.Deck[i] = pair[0]
	}
	g.SetState(s)
	steps := []struct {
		in   companion.Input
		want string
	}{
		{page(1, "play", "DE-09"), "play_card"}, // Recruitment, then defence: three bases
		{scan("seat-1", "BASE-1-2"), "defend"},
		{press("seat-1", "attack"), "select"},
		{scan("seat-1", "DE-02"), "select"},
		{press("seat-1", "confirm"), "attack"},
		{scan("seat-1", "BASE-2-3"), "fire"},
	}
	for i, st := range steps {
		took, rej := feed(t, g, st.in)
		if rej != nil {
			t.Fatalf("step %d: refused %s: %s", i, rej.Code, rej.Reason.EN)
		}
		if got := types(took); len(got) == 0 || got[len(got)-1] != st.want {
			t.Fatalf("step %d: took %v, want %s", i, got, st.want)
		}
	}
	s = g.State()
	if b := s.Player(1).Bases[1]; b.Defender != "DE-09" {
		t.Errorf("BASE-1-2 defended by %q, want DE-09", b.Defender)
	}
	if b := s.Player(2).Bases[2]; !b.Damaged {
		t.Errorf("BASE-2-3 %+v, want damaged", b)
	}
}

// `sztab tags enroll --cards table.yaml`: every card of the configured
// game that is ever scanned, once; a bad section is an error.
func TestCards(t *testing.T) {
	cases := []struct {
		section string
		want    int // 100 vehicles, 6 barracks and 3 bases a player, 48 medals
		err     bool
	}{
		{"players: [{seat: 1, name: A}, {seat: 2, name: B}, {seat: 3, name: C}]\nfirst: 2\n", 100 + 3*9 + 48, false},
		{"players: [{seat: 1, name: A}, {seat: 2, name: B}]\nfirst: 1\n", 100 + 2*9 + 48, false},
		{"players: [{seat: 1, name: A}]\nfirst: 1\n", 0, true},
		{"players: [{seat: 1, name: A}, {seat: 2, name: B}]\nfirst: 1\noptions: {medals: all}\n", 0, true},
	}
	for _, tc := range cases {
		cs, err := cards([]byte(tc.section))
		if (err != nil) != tc.err || len(cs) != tc.want {
			t.Errorf("%q: %d cards, err %v; want %d, error %v", tc.section, len(cs), err, tc.want, tc.err)
		}
		seen := map[string]bool{}
		for _, c := range cs {
			if seen[c.ID] || c.Kind != "card" || c.Label == "" {
				t.Errorf("card %+v twice, or without kind/label", c)
			}
			seen[c.ID] = true
		}
	}
}

// TestMedalsChosenAtATable: the medal card gives the player the choice
// ("może wziąć kartę z dwoma Medalami zamiast dwóch kart z jednym
// Medalem"), so a table's config asks (medals: choose) unless it names
// another rule; the demo table does. The engine's zero value stays
// "doubles" for scripts and journals written before.
func TestMedalsChosenAtATable(t *testing.T) {
	for _, c := range []struct {
		options map[string]any
		want    string
	}{
		{nil, "choose"},
		{map[string]any{"odd_medal": "double"}, "choose"},
		{map[string]any{"medals": "doubles"}, "doubles"},
		{map[string]any{"medals": "singles"}, "singles"},
	} {
		cfg := Config{Players: []wotrush.PlayerInfo{{Seat: 1, Name: "A"}, {Seat: 2, Name: "B"}}, First: 1, Options: c.options}
		s, err := cfg.setup()
		if err != nil || s.Options.Medals != c.want {
			t.Errorf("options %v: medals %q (%v), want %q", c.options, s.Options.Medals, err, c.want)
		}
	}
	cfg := tabletest.DemoConfig(t, t.TempDir(), "wot-rush.yaml", false)
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start, _ := g.Start()
	_, commit, err := g.Apply(start)
	if err != nil {
		t.Fatal(err)
	}
	commit()
	if m := g.(*Game).State().Options.Medals; m != "choose" {
		t.Errorf("the demo table takes medals by %q, want choose", m)
	}
}
