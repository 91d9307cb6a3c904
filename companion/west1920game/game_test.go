package west1920game

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/west1920"
)

// demoInput is a demo step as the table sends it.
func demoInput(st demoStep) companion.Input {
	if st.Reader != "" {
		return scan(st.Reader, st.Card)
	}
	return press(st.Keypad, st.Key, st.Args...)
}

// before plays the demo session up to (not including) its first step
// taking a want action; "" plays it all.
func before(t testing.TB, g *Game, want string) {
	t.Helper()
	for _, st := range demo {
		if st.Say != "" || st.Card == tabletest.UnknownCard {
			continue
		}
		if st.Want == want {
			return
		}
		must(t, g, demoInput(st))
	}
	if want != "" {
		t.Fatalf("no demo step takes %s", want)
	}
}

func stateJSON(t testing.TB, g *Game) string {
	b, err := json.Marshal(g.State())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The binder's table: what each sensor event or command becomes, or why it
// is refused (in Polish and English, the state unchanged).
func TestBind(t *testing.T) {
	cmdTag := companion.Input{Tag: &hardware.TagEvent{Reader: "seat-1", UID: "04000001", Present: true}, TagInfo: &companion.Tag{Kind: "command", ID: "next"}}
	cases := []struct {
		name    string
		at      string            // the demo step the test starts before ("" the start, "end" after the demo)
		setup   []companion.Input // then these
		virtual bool              // a virtual deck
		in      companion.Input
		want    []string   // action types, in order
		code    string     // or the refusal
		reason  rules.Text // words the refusal's reason holds, if given
		check   func(t *testing.T, g *Game, took []companion.Action)
	}{
		{name: "russian card drawn on its reader", in: scan("seat-2", CardID(1)), want: []string{"draw_card"},
			check: func(t *testing.T, g *Game, _ []companion.Action) {
				if h := g.State().Player(west1920.Russian).Hand; !slices.Equal(h, []int{1}) {
					t.Errorf("russian hand %v, want [1]", h)
				}
			}},
		{name: "the polish reader out of turn", in: scan("seat-1", CardID(1)), code: "not_your_turn"},
		{name: "card number without the prefix", in: scan("seat-2", "5"), want: []string{"draw_card"}},
		{name: "card outside the game", in: scan("seat-1", "event-99"), code: "unknown_card"},
		{name: "card of another game", in: scan("seat-1", "ak"), code: "unknown_card"},
		{name: "reader of no seat", in: scan("events", CardID(1)), code: "unknown_reader"},
		{name: "a command tag means nothing", in: cmdTag},
		{name: "the opponent's card on the wrong reader", setup: []companion.Input{scan("seat-2", CardID(1))}, in: scan("seat-1", CardID(1)), code: "wrong_side",
			reason: rules.Text{PL: "karta 1 (Józef Piłsudski)", EN: "card 1 (Józef Piłsudski)"}},
		{name: "a held card is played from stage 2 only", setup: []companion.Input{scan("seat-2", CardID(1))}, in: scan("seat-2", CardID(1)), want: nil, code: "wrong_phase"},
		{name: "a single-instruction card set aside in stage 1 (3.1)", in: scan("seat-2", CardID(2)), code: "not_in_play",
			reason: rules.Text{PL: "karta 2 (Traktat rosyjsko-litewski)", EN: "card 2 (Russo-Lithuanian Treaty)"}},
		{name: "virtual draw on a table with tags", in: page(0, "draw"), code: "physical_deck"},
		{name: "virtual draw", virtual: true, in: page(2, "draw"), want: []string{"draw_card"},
			check: func(t *testing.T, g *Game, took []companion.Action) {
				d := took[0].(west1920.DrawCard)
				if first := g.virtualOrder(g.State())[0]; d.Card != first && !slices.Contains([]int{2, 4, 7, 8, 13, 22, 32}, first) {
					t.Errorf("drew %d, want the virtual deck's first card %d", d.Card, first)
				}
			}},
		{name: "a player draws for the opponent", in: page(1, "draw", "5"), code: "not_your_turn"},
		{name: "the referee names the card drawn", in: page(0, "draw", "5"), want: []string{"draw_card"}},
		{name: "white die waits for the red", at: "roll", in: press("white", "6")},
		{name: "red die completes the resource roll", at: "roll", setup: []companion.Input{press("white", "6")}, in: press("red", "3"), want: []string{"roll"},
			check: func(t *testing.T, g *Game, took []companion.Action) {
				if rp := g.State().Player(west1920.Russian).TotalRP; rp != 15 {
					t.Errorf("russian RP %d, want 12 + 6 − 3 = 15", rp)
				}
				rolls := g.RollsIn(took[0])
				want := []dice.Roll{{Value: 6, Origin: dice.Keypad, Device: "white"}, {Value: 3, Origin: dice.Keypad, Device: "red"}}
				if !slices.Equal(rolls, want) {
					t.Errorf("rolls %+v, want %+v", rolls, want)
				}
			}},
		{name: "red first, then white: the slots are the keypads'", at: "roll", setup: []companion.Input{press("red", "3")}, in: press("white", "6"), want: []string{"roll"},
			check: func(t *testing.T, g *Game, _ []companion.Action) {
				if rp := g.State().Player(west1920.Russian).TotalRP; rp != 15 {
					t.Errorf("russian RP %d, want 15", rp)
				}
			}},
		{name: "undo clears the dice entered", at: "roll", setup: []companion.Input{press("white", "6"), press("white", "undo")}, in: press("red", "3"),
			check: func(t *testing.T, g *Game, _ []companion.Action) {
				if g.State().Pending == nil || len(g.entered) != 2 || g.entered[0].Value != 0 {
					t.Errorf("entered %+v; want only the red die, the roll still pending", g.entered)
				}
			}},
		{name: "the camera's throw, the red die lying first: white − red by colour", at: "roll", in: camera("red", 3, "white", 6), want: []string{"roll"},
			check: func(t *testing.T, g *Game, took []companion.Action) {
				if rp := g.State().Player(west1920.Russian).TotalRP; rp != 15 {
					t.Errorf("russian RP %d, want 12 + 6 − 3 = 15", rp)
				}
				want := []dice.Roll{{Value: 6, Origin: dice.Camera, Device: "tray", Confidence: 0.9}, {Value: 3, Origin: dice.Camera, Device: "tray", Confidence: 0.9}}
				if rolls := g.RollsIn(took[0]); !slices.Equal(rolls, want) {
					t.Errorf("rolls %+v, want %+v", rolls, want)
				}
			}},
		{name: "two white dice from the camera: no guess which is red", at: "roll", in: camera("white", 3, "white", 6), code: "dice_colours"},
		{name: "a die of another colour from the camera", at: "roll", in: camera("white", 3, "blue", 6), code: "dice_colours"},
		{name: "one die in the tray for a roll of two", at: "roll", in: camera("white", 3), code: "dice_count"},
		{name: "the camera's dice when nothing is rolled", in: camera("white", 3, "red", 2), code: "no_roll"},
		{name: "a die when nothing is rolled", in: press("white", "3"), code: "no_roll"},
		{name: "a roll of the wrong number of dice", at: "roll", in: page(0, "roll", "6"), code: "bad_args"},
		{name: "a die that is no face", at: "roll", in: page(0, "roll", "7", "1"), code: "bad_args"},
		{name: "the referee's roll", at: "roll", in: page(0, "roll", "6", "3"), want: []string{"roll"},
			check: func(t *testing.T, g *Game, took []companion.Action) {
				if r := g.RollsIn(took[0]); len(r) != 2 || r[0].Origin != dice.Referee {
					t.Errorf("rolls %+v, want the referee's", r)
				}
			}},
		{name: "a virtual roll", at: "roll", in: page(2, "roll"), want: []string{"roll"},
			check: func(t *testing.T, g *Game, took []companion.Action) {
				if r := g.RollsIn(took[0]); len(r) != 2 || r[0].Origin != dice.Virtual {
					t.Errorf("rolls %+v, want two virtual dice", r)
				}
			}},
		{name: "the Polish page enters the Russian roll", at: "roll", in: page(1, "roll", "6", "3"), code: "not_your_turn"},
		{name: "a depot", at: "build_depot", in: page(2, "depot", "1812"), want: []string{"build_depot"}},
		{name: "a depot where no city is", at: "build_depot", in: page(2, "depot", "1803"), code: "not_a_city"},
		{name: "a hex off the map", at: "build_depot", in: page(2, "depot", "9999"), code: "bad_hex"},
		{name: "no hex at all", at: "build_depot", in: page(2, "depot"), code: "bad_args"},
		{name: "the other side's depot", at: "build_depot", in: page(1, "depot", "0609"), code: "not_your_turn"},
		{name: "a pass for the wrong side", at: "build_depot", in: page(2, "pass", "polish"), code: "not_your_side"},
		{name: "a chit", at: "assign_chit", in: page(2, "chit", "1904"), want: []string{"assign_chit"}},
		{name: "a chit where no stack is", at: "assign_chit", in: page(2, "chit", "1803"), code: "no_stack"},
		{name: "an order: the stack dragged to a hex", at: "order", in: page(2, "move", "1904", "1804", "NW"), want: []string{"order"},
			check: func(t *testing.T, g *Game, took []companion.Action) {
				o := took[0].(west1920.Order)
				if !slices.Equal(o.Path, []west1920.Hex{"1804"}) || o.Facing != "NW" {
					t.Errorf("order %+v, want the path 1804 facing NW", o)
				}
				for _, u := range g.State().Stack("1804") {
					if u.ID == "ru-4sd" && u.Facing == "NW" {
						return
					}
				}
				t.Error("4. DS is not in 1804 facing NW")
			}},
		{name: "an order by a unit's id", at: "order", in: page(2, "move", "ru-4sd", "1804"), want: []string{"order"}},
		{name: "an order two hexes away finds its path", at: "order", in: page(2, "move", "1904", "1803"), want: []string{"order"}},
		{name: "an order onto the enemy: the engine's reason", at: "order", in: page(2, "move", "1904", "1704"), code: "enemy_occupied"},
		{name: "an order beyond reach", at: "order", in: page(2, "move", "1904", "0609"), code: "no_path"},
		{name: "a bad facing", at: "order", in: page(2, "move", "1904", "1804", "E"), code: "bad_args"},
		{name: "a turn", at: "order", in: page(2, "turn", "1904", "SW"), want: []string{"order"}},
		{name: "a stack that is not there", at: "order", in: page(2, "move", "ru-99", "1804"), code: "no_stack"},
		{name: "the Polish page moves a Russian stack", at: "order", in: page(1, "move", "1904", "1804"), code: "not_your_turn"},
		{name: "an HQ move by its hex", at: "move_hq", in: page(2, "move", "2004", "1905"), want: []string{"move_hq"}},
		{name: "an HQ move by its id", at: "move_hq", in: page(2, "hq", "ru-hq-3a", "1905"), want: []string{"move_hq"}},
		{name: "no HQ there", at: "move_hq", in: page(2, "move", "1804", "1905"), code: "no_hq"},
		{name: "an attack: the stack dragged onto the enemy", at: "attack", in: page(2, "move", "1804", "1704"), want: []string{"attack"},
			check: func(t *testing.T, g *Game, _ []companion.Action) {
				if p := g.State().Pending; p == nil || p.Kind != "combat_roll" || p.Odds == nil || p.Odds.Combat == nil {
					t.Errorf("pending %+v, want the combat roll with its odds", p)
				}
			}},
		{name: "an attack command", at: "attack", in: page(0, "attack", "1804", "1704", "-"), want: []string{"attack"}},
		{name: "an attack without a target", at: "attack", in: page(0, "attack", "1804"), code: "bad_args"},
		{name: "a card bonus of no card", at: "attack", in: page(0, "attack", "1804", "1704", "-", "x@1804"), code: "unknown_card"},
		{name: "a card bonus the engine refuses", at: "attack", in: page(0, "attack", "1804", "1704", "-", "5@1804"), code: "no_bonus"},
		{name: "the defender's card bonus with no combat waiting for it", at: "attack", in: page(0, "card_bonus", "17@1704"), code: "no_decision"},
		{name: "the defender's card bonus of no card", at: "attack", in: page(0, "card_bonus", "x@1704"), code: "unknown_card"},
		{name: "the defender's card bonus without a hex", at: "attack", in: page(0, "card_bonus", "17"), code: "bad_args"},
		{name: "the defender's losses", at: "end", in: page(1, "losses", "pl-1dpleg"), want: []string{"losses"},
			check: func(t *testing.T, g *Game, _ []companion.Action) {
				if p := g.State().Pending; p == nil || p.Action != "retreat" {
					t.Errorf("pending %+v, want the retreat", p)
				}
			}},
		{name: "the attacker may not allocate the defender's losses", at: "end", in: page(2, "losses", "pl-1dpleg"), code: "not_your_turn"},
		{name: "a retreat dragged two hexes", at: "end", setup: []companion.Input{page(1, "losses", "pl-1dpleg")}, in: page(1, "move", "1704", "1504"), want: []string{"retreat"}},
		{name: "a retreat by a click on the hex alone", at: "end", setup: []companion.Input{page(1, "losses", "pl-1dpleg")}, in: page(1, "move", "-", "1504"), want: []string{"retreat"}},
		{name: "a move of no stack outside a decision", at: "order", in: page(2, "move", "-", "1804"), code: "no_stack"},
		{name: "a pursuit onto the vacated hex", at: "end", setup: []companion.Input{page(1, "losses", "pl-1dpleg"), page(1, "move", "1704", "1504")},
			in: page(2, "move", "1804", "1704"), want: []string{"pursue"},
			check: func(t *testing.T, g *Game, _ []companion.Action) {
				if st := g.State().Stack("1704"); len(st) == 0 || st[0].ID != "ru-4sd" {
					t.Errorf("1704 holds %+v, want the 4. DS", st)
				}
			}},
		{name: "declining the pursuit", at: "end", setup: []companion.Input{page(1, "losses", "pl-1dpleg"), page(1, "move", "1704", "1504")},
			in: page(2, "pass"), want: []string{"pursue"}},
		{name: "a correction from a player", in: page(1, "adjust", "ru-4sd", "weak=true"), code: "referee_only"},
		{name: "the referee's correction", in: page(0, "adjust", "ru-4sd", "weak=true", "note=counter flipped"), want: []string{"adjust"},
			check: func(t *testing.T, g *Game, _ []companion.Action) {
				for _, u := range g.State().Units {
					if u.ID == "ru-4sd" && !u.Weak {
						t.Error("4. DS not weakened")
					}
				}
			}},
		{name: "a correction with a bad key", in: page(0, "adjust", "ru-4sd", "colour=red"), code: "bad_args"},
		{name: "a correction that is no key=value", in: page(0, "adjust", "ru-4sd", "weak"), code: "bad_args"},
		{name: "an unknown command", in: page(0, "sing"), code: "unknown_command"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := testGame(t, tc.virtual)
			switch tc.at {
			case "":
			case "end":
				before(t, g, "")
			default:
				before(t, g, tc.at)
			}
			for _, in := range tc.setup {
				feed(t, g, in)
			}
			was := stateJSON(t, g)
			took, rej := feed(t, g, tc.in)
			if tc.code != "" {
				if rej == nil || rej.Code != tc.code {
					t.Fatalf("took %v, refusal %+v; want refused %s", took, rej, tc.code)
				}
				if rej.Reason.PL == "" || rej.Reason.EN == "" {
					t.Errorf("reason %+v, want Polish and English", rej.Reason)
				}
				if !strings.Contains(rej.Reason.PL, tc.reason.PL) || !strings.Contains(rej.Reason.EN, tc.reason.EN) {
					t.Errorf("reason %+v, want it to hold %+v", rej.Reason, tc.reason)
				}
				if len(took) == 0 && stateJSON(t, g) != was {
					t.Error("a refusal changed the state")
				}
				return
			}
			if rej != nil {
				t.Fatalf("refused %s: %s", rej.Code, rej.Reason.EN)
			}
			var types []string
			for _, a := range took {
				types = append(types, a.Type())
			}
			if !slices.Equal(types, tc.want) {
				t.Fatalf("took %v, want %v", types, tc.want)
			}
			if tc.check != nil {
				tc.check(t, g, took)
			}
		})
	}
}

// camera is a throw the camera read in its tray: colour, value pairs.
func camera(cv ...any) companion.Input {
	var ds []companion.CameraDie
	for i := 0; i+1 < len(cv); i += 2 {
		ds = append(ds, companion.CameraDie{Roll: dice.Roll{Value: cv[i+1].(int), Origin: dice.Camera, Device: "tray", Confidence: 0.9}, Colour: cv[i].(string)})
	}
	return companion.Input{Dice: ds}
}
