package maligame

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/vision"
)

const tableConfig = `venue: v
table: t
game: mali-powstancy
tags: tags.yaml
dice: {seed: 7}
mali-powstancy:
  variant: VARIANT
  starter: 1
  deck: DECK
  players:
    - {seat: 1, name: Ania, colour: red}
    - {seat: 2, name: Bartek, colour: green}
`

// newGame is a game at a table, started (its opening action applied).
func newGame(t *testing.T, variant, deck string) *Game {
	t.Helper()
	text := strings.NewReplacer("VARIANT", variant, "DECK", deck).Replace(tableConfig)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := companion.ParseConfig(filepath.Join(dir, "t.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	gm, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*Game)
	start, _ := g.Start()
	apply(t, g, start)
	return g
}

func apply(t *testing.T, g *Game, acts ...companion.Action) {
	t.Helper()
	for _, a := range acts {
		_, commit, err := g.Apply(a)
		if err != nil {
			t.Fatalf("%s: %v", a.Type(), err)
		}
		commit()
	}
}

func keyIn(name string, from wire.Sender, seat int, args ...string) companion.Input {
	aud := wire.Public
	switch from {
	case wire.Seat:
		aud = wire.Player(seat)
	case wire.Ref:
		aud = wire.Referee
	}
	return companion.Input{Key: &hardware.KeyEvent{Keypad: "page", Key: name}, Args: args, From: companion.Sender{Kind: from, Audience: aud}}
}

// cameraIn is a throw the camera read in its tray.
func cameraIn(values ...int) companion.Input {
	var ds []companion.CameraDie
	for _, v := range values {
		ds = append(ds, companion.CameraDie{Roll: dice.Roll{Value: v, Origin: dice.Camera, Device: "tray", Confidence: 0.9}, Colour: "white"})
	}
	return companion.Input{Dice: ds}
}

func tagIn(id string) companion.Input {
	return companion.Input{Tag: &hardware.TagEvent{Reader: "orders", UID: "04AA", Present: true}, TagInfo: &companion.Tag{UID: "04AA", Kind: "card", ID: id}}
}

// The binder's table: what each input becomes, or why it is refused.
func TestBind(t *testing.T) {
	g := newGame(t, mali.Basic, "tags")
	for _, tc := range []struct {
		name string
		in   companion.Input
		want companion.Action
		code string
	}{
		{"an order card read onto the track", tagIn("r04"), mali.DrawOrders{Cards: []string{"r04"}}, ""},
		{"a movement card names its owner by colour", tagIn("green-3"), mali.PlayCard{Seat: 2, Card: 3}, ""},
		{"a movement card of a colour nobody plays", tagIn("purple-2"), nil, "unknown_card"},
		{"the die's face from the keypad", keyIn("5", wire.Keys, 0), mali.RollDie{Colour: mali.Red, Value: 5, Origin: "keypad:page"}, ""},
		{"the die's face from the camera's tray", cameraIn(5), mali.RollDie{Colour: mali.Red, Value: 5, Origin: "camera:tray"}, ""},
		{"two dice in the camera's tray", cameraIn(5, 2), nil, "dice_count"},
		{"a step from the player's page", keyIn("step", wire.Seat, 1, "red-2", "past-dworzec/1"), mali.Move{Courier: "red-2", To: "past-dworzec/1"}, ""},
		{"a step of another player's courier", keyIn("step", wire.Seat, 1, "green-2", "past-dworzec/1"), nil, "not_yours"},
		{"the referee moves anyone's", keyIn("jump", wire.Ref, 0, "green-2", "dworzec-pocztowy"), mali.Jump{Courier: "green-2", To: "dworzec-pocztowy"}, ""},
		{"a pick-up", keyIn("pick", wire.Seat, 2, "green-2", "r04"), mali.PickUp{Courier: "green-2", Order: "r04"}, ""},
		{"a step without its field", keyIn("step", wire.Seat, 1, "red-2"), nil, "bad_command"},
		{"a player's card is for their own seat", keyIn("card", wire.Seat, 2, "4"), mali.PlayCard{Seat: 2, Card: 4}, ""},
		{"the referee names the seat", keyIn("card", wire.Ref, 0, "4", "1"), mali.PlayCard{Seat: 1, Card: 4}, ""},
		{"the referee without a seat", keyIn("card", wire.Ref, 0, "4"), nil, "bad_command"},
		{"a card that is not a number", keyIn("card", wire.Seat, 1, "x"), nil, "bad_command"},
		{"a virtual draw at a table with a physical deck", keyIn("draw", wire.Ref, 0), nil, "physical_deck"},
		{"nothing to choose", keyIn("choose", wire.Ref, 0, "red-1"), nil, "nothing_to_choose"},
		{"a look at a physical deck names no cards", keyIn("rumours", wire.Ref, 0), mali.Rumours{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acts, notes := g.Bind(tc.in)
			if tc.code != "" {
				if len(acts) != 0 || len(notes) != 1 || notes[0].Code != tc.code || notes[0].Text.PL == "" || notes[0].Text.EN == "" {
					t.Fatalf("got %v %+v, want a refusal %s in both languages", acts, notes, tc.code)
				}
				return
			}
			if len(notes) != 0 || len(acts) != 1 || !reflect.DeepEqual(acts[0], tc.want) {
				t.Fatalf("got %#v %+v, want %#v", acts, notes, tc.want)
			}
		})
	}
}

// A player acts only when the game waits for them: a choice owed by
// another seat is refused before it reaches the engine.
func TestChoiceIsTheirsToMake(t *testing.T) {
	g := newGame(t, mali.Basic, "tags")
	s := g.State()
	s.Pending = &mali.Pending{Kind: mali.WaitBlockRoad, Seat: 2, Choices: []string{"krzyzy-szucha"}}
	g.SetState(s)
	if acts, notes := g.Bind(keyIn("choose", wire.Seat, 1, "krzyzy-szucha")); len(acts) != 0 || len(notes) != 1 || notes[0].Code != "not_your_turn" {
		t.Errorf("seat 1 chose for seat 2: %v %+v", acts, notes)
	}
	acts, _ := g.Bind(keyIn("choose", wire.Seat, 2, "krzyzy-szucha"))
	if want := (mali.BlockRoad{Seat: 2, Road: "krzyzy-szucha"}); len(acts) != 1 || acts[0] != want {
		t.Errorf("seat 2's choice became %v", acts)
	}
}

// The virtual deck deals cards the engine takes, the same ones for the
// same seed whatever was drawn before, and puts the Victory card where the
// deck's count says (extended).
func TestVirtualDeck(t *testing.T) {
	g := newGame(t, mali.Extended, "virtual")
	acts, notes := g.Bind(keyIn("deal", wire.Ref, 0))
	if len(notes) != 0 || len(acts) != 1 {
		t.Fatalf("deal: %v %+v", acts, notes)
	}
	apply(t, g, acts...)
	for g.State().Pending.Kind == mali.WaitDealGoals { // a void deal: deal again
		acts, _ = g.Bind(keyIn("deal", wire.Ref, 0))
		apply(t, g, acts...)
	}
	for _, p := range g.State().Players {
		var keep []string
		colours := map[string]bool{}
		for _, id := range p.Dealt {
			if c := g.State().Catalogue().Goals[id].Colour; !colours[c] && len(keep) < 3 {
				colours[c] = true
				keep = append(keep, id)
			}
		}
		acts, notes = g.Bind(keyIn("keep", wire.Seat, p.Seat, keep...))
		if len(notes) != 0 {
			t.Fatalf("keep: %+v", notes)
		}
		apply(t, g, acts...)
	}
	first := g.virtualDeck(g.State())
	acts, notes = g.Bind(keyIn("draw", wire.Keys, 0))
	if len(notes) != 0 || len(acts) != 1 {
		t.Fatalf("draw: %v %+v", acts, notes)
	}
	drawn := acts[0].(mali.DrawOrders).Cards
	if !reflect.DeepEqual(drawn, first[:len(drawn)]) {
		t.Errorf("drew %v, the deck's top is %v", drawn, first[:len(drawn)])
	}
	apply(t, g, acts...)
	after := g.virtualDeck(g.State())
	if !reflect.DeepEqual(after, first[len(drawn):]) {
		t.Errorf("the deck after the draw is %v, want the rest of %v", after[:4], first[len(drawn):][:4])
	}
	s := g.State()
	if i := indexOf(after, mali.VictoryCard); i != s.Deck.Above {
		t.Errorf("the Victory card is %d cards down, the state says %d above it", i, s.Deck.Above)
	}
	if len(after) != s.Deck.Left {
		t.Errorf("the virtual deck holds %d cards, the state %d", len(after), s.Deck.Left)
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// What the camera counts on the board against the state: a courier where
// the state does not have it is a desync, said on the field's name.
func TestDesyncs(t *testing.T) {
	g := newGame(t, mali.Basic, "tags")
	if d := g.Desyncs(); d != nil {
		t.Fatalf("desyncs before any snapshot: %v", d)
	}
	agree := []vision.PieceCount{
		{Node: "plac-wilsona", Colour: "red", Count: 1}, {Node: "plac-wilsona", Colour: "green", Count: 1},
		{Node: "past", Colour: "red", Count: 1}, {Node: "past", Colour: "green", Count: 1},
		{Node: "stary-mokotow", Colour: "red", Count: 1}, {Node: "stary-mokotow", Colour: "green", Count: 1},
		{Node: "plac-narutowicza", Colour: SoldierColour, Count: 1},
	}
	g.Bind(companion.Input{Snapshot: &vision.Snapshot{Pieces: agree}})
	if d := g.Desyncs(); len(d) != 0 {
		t.Errorf("the board agrees, yet: %v", d)
	}
	moved := append([]vision.PieceCount(nil), agree...)
	moved[2] = vision.PieceCount{Node: "past-dworzec/1", Colour: "red", Count: 1, Confidence: 0.5}
	if _, n := g.Bind(companion.Input{Snapshot: &vision.Snapshot{Pieces: moved}}); len(n) != 1 || n[0].Type != "check_board" || !strings.Contains(n[0].Text.EN, "PAST-a – Dworzec Pocztowy (1)") {
		t.Errorf("an unsure count: notices %v, want the players asked to check that field", n)
	}
	d := g.Desyncs()
	var en []string
	for _, x := range d {
		en = append(en, x.EN)
	}
	got := strings.Join(en, "\n")
	for _, want := range []string{"PAST-a: the camera sees 0 (red), the game's state says 1", "the camera is unsure (red, 50%)"} {
		if !strings.Contains(got, want) {
			t.Errorf("desyncs %q lack %q", got, want)
		}
	}
	// The unsure count is a question to the players, not a desync.
	if strings.Contains(got, "the camera sees 1 (red), the game's state says 0") {
		t.Errorf("an unsure count called a desync: %q", got)
	}
	// Fields and colours the game does not know are said.
	odd := append(slices.Clone(agree), vision.PieceCount{Node: "nowhere", Colour: "red", Count: 1, Confidence: 0.99}, vision.PieceCount{Node: "past", Colour: "blue", Count: 1, Confidence: 0.99})
	if _, n := g.Bind(companion.Input{Snapshot: &vision.Snapshot{Pieces: odd}}); n != nil {
		t.Errorf("a sure reading asked the players: %v", n)
	}
	var odds []string
	for _, x := range g.Desyncs() {
		odds = append(odds, x.EN)
	}
	for _, want := range []string{`field "nowhere" the map does not know`, `PAST-a: the camera sees colour "blue"`} {
		if !strings.Contains(strings.Join(odds, "\n"), want) {
			t.Errorf("desyncs %q lack %q", odds, want)
		}
	}
}

// The views: odds and the soldier's route before the die (the red move's
// chances for the referee only), the map and the order cards to draw.
func TestViewBeforeTheDie(t *testing.T) {
	g := newGame(t, mali.Basic, "tags")
	apply(t, g, mali.DrawOrders{Cards: []string{"r04"}}, mali.PlayCard{Seat: 1, Card: 3}, mali.PlayCard{Seat: 2, Card: 2},
		mali.EndTurn{}, mali.EndTurn{})
	if p := g.State().Pending; p == nil || p.Kind != mali.WaitRoll {
		t.Fatalf("pending %+v, want the die", p)
	}
	pub := g.View(companion.Public).(View)
	ref := g.View(companion.Viewer{Role: companion.RoleReferee}).(View)
	if len(pub.Odds) != 6 || len(pub.Routes) == 0 || len(pub.Map.Objects) != 18 || len(pub.Orders) != 42 {
		t.Fatalf("public view: %d odds, %d routes, %d objects, %d orders", len(pub.Odds), len(pub.Routes), len(pub.Map.Objects), len(pub.Orders))
	}
	red := 0.0
	for i := range pub.Odds {
		if pub.Odds[i].RedMax != 0 {
			t.Errorf("the public sees the red move's odds: %+v", pub.Odds[i])
		}
		red += ref.Odds[i].RedMax
	}
	if red == 0 {
		t.Error("the referee's view has no red-move odds")
	}
	// Computed once per state: after the die they are gone.
	apply(t, g, mali.RollDie{Colour: mali.Black, Value: 1})
	if after := g.View(companion.Public).(View); after.Odds != nil || after.Routes != nil {
		t.Errorf("odds %v and routes %v shown after the die", after.Odds, after.Routes)
	}
}
