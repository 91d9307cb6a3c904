package mali

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

// The rulebook's examples 1–10, each played on the engine. The helpers set
// the scene directly (positions, track, whose turn) as the example
// describes it, then play the example's actions through Apply.

func newGame(t *testing.T, variant string, colours ...string) State {
	t.Helper()
	cat := defaultCat(t)
	setup := Setup{Variant: variant, Starter: 1}
	for i, c := range colours {
		setup.Players = append(setup.Players, PlayerSetup{Seat: i + 1, Colour: c})
	}
	s, _, err := Apply(State{}, cat.NewGame(setup))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scene clears the map and puts the couriers where given (others go off to
// the prison so they do not interfere), with the given seat to move its
// card, after the seats in order.
func scene(t *testing.T, s State, at map[string]Node, order []int, card int) State {
	t.Helper()
	s = s.clone()
	for i := range s.Couriers {
		c := &s.Couriers[i]
		if n, ok := at[c.ID]; ok {
			c.At, c.Off = n, ""
		} else {
			c.At, c.Off = "", InPrison
		}
	}
	for i := range s.Track {
		s.Track[i] = []string{}
	}
	s.Phase = PhaseMove
	s.Turn = &Turn{Order: order, Index: len(order) - 1, Card: card}
	for i := range s.Players {
		s.Players[i].Played = slices.Index(order, s.Players[i].Seat) + 1
	}
	s.Pending = &Pending{Kind: WaitTurn, Seat: order[len(order)-1]}
	return s
}

func apply(t *testing.T, s State, acts ...Action) (State, []Event) {
	t.Helper()
	var all []Event
	for _, a := range acts {
		next, evs, err := Apply(s, a)
		if err != nil {
			t.Fatalf("%s: %v", a.Type(), err)
		}
		s, all = next, append(all, evs...)
	}
	return s, all
}

func at(t *testing.T, s State, id string, want Node) {
	t.Helper()
	c, _ := s.Courier(id)
	if c.At != want {
		t.Errorf("%s at %q (off %q), want %q", id, c.At, c.Off, want)
	}
}

func orderID(t *testing.T, s State, from, to string) string {
	t.Helper()
	for _, o := range s.cat.Data.Orders {
		if o.From == from && o.To == to {
			return o.ID
		}
	}
	t.Fatalf("no order %s → %s", from, to)
	return ""
}

func TestExample1PickUpAndDeliver(t *testing.T) {
	s := newGame(t, Basic, ColourRed, ColourGreen)
	s = scene(t, s, map[string]Node{"red-1": "plac-wilsona", "green-1": "plac-wilsona"}, []int{1}, 5)
	card := orderID(t, s, "plac-wilsona", "port")
	s.Track[0] = []string{card}
	s.Turn.Order = []int{2, 1}
	s, _ = apply(t, s, PickUp{Courier: "red-1", Order: card})
	// Green may take the same order (a courier of another player).
	s.Pending.Seat = 2
	s, _ = apply(t, s, PickUp{Courier: "green-1", Order: card})
	s.Pending.Seat = 1
	// Red walks to Port: the first to arrive scores 15 and every token comes off.
	c, _ := s.Courier("red-1")
	s = s.clone()
	s.courier("red-1").At = "elektrownia-port/2"
	_ = c
	s.Turn.Points = 0
	s, evs := apply(t, s, Move{Courier: "red-1", To: "port"})
	if p := s.player(1); !slices.Equal(p.Delivered, []string{card}) {
		t.Errorf("red delivered %v, want [%s]", p.Delivered, card)
	}
	if g, _ := s.Courier("green-1"); g.Carrying != "" || s.TrackField(card) != 0 {
		t.Errorf("green still carries %q / card on field %d", g.Carrying, s.TrackField(card))
	}
	if evs[len(evs)-1].Type != "delivered" || evs[len(evs)-1].Points != 15 {
		t.Errorf("last event %+v, want delivered for 15", evs[len(evs)-1])
	}
}

func TestExample2SplitPoints(t *testing.T) {
	s := newGame(t, Basic, ColourRed, ColourGreen)
	s = scene(t, s, map[string]Node{"red-2": "past", "red-1": "plac-wilsona"}, []int{1}, 2)
	got, _ := apply(t, s, Move{Courier: "red-2", To: "past-dworzec/1"}, Move{Courier: "red-2", To: "dworzec-pocztowy"})
	at(t, got, "red-2", "dworzec-pocztowy")
	got, _ = apply(t, s, Move{Courier: "red-2", To: "past-dworzec/1"}, Move{Courier: "red-1", To: "wilsona-cytadela/1"})
	at(t, got, "red-1", "wilsona-cytadela/1")
	if _, _, err := Apply(got, Move{Courier: "red-1", To: "wilsona-cytadela/2"}); rejection(err) != "too_far" {
		t.Errorf("a third point on card 2: %v, want too_far", err)
	}
}

func rejection(err error) string {
	if err == nil {
		return ""
	}
	var r interface{ Error() string } = err
	if rej, ok := asRejection(r.(error)); ok {
		return rej
	}
	return "not a rejection: " + err.Error()
}

func TestExample3Jumps(t *testing.T) {
	s := newGame(t, Basic, ColourRed, ColourOrange)
	s = scene(t, s, map[string]Node{"red-1": "plac-trzech-krzyzy", "orange-1": "past-elektrownia/1"}, []int{2, 1}, 3)
	var got []Node
	for _, a := range LegalActions(s) {
		if j, ok := a.(Jump); ok && j.Courier == "red-1" {
			got = append(got, j.To)
		}
	}
	slices.Sort(got)
	want := []Node{"al-szucha", "dworzec-pocztowy", "elektrownia-powisle", "past", "przyczolek-czerniakowski"}
	if !slices.Equal(got, want) {
		t.Errorf("red jumps to %v, want %v", got, want)
	}
	s.Pending.Seat = 2
	if _, _, err := Apply(s, Jump{Courier: "orange-1", To: "past"}); rejection(err) != "not_in_object" {
		t.Errorf("orange on a road jumps: %v, want not_in_object", err)
	}
}

func TestExample4ArrestInBankPolski(t *testing.T) {
	s := newGame(t, Basic, ColourRed, ColourGreen)
	s = scene(t, s, map[string]Node{"red-1": "bank-polski", "green-1": "bank-polski", "green-2": "browary-michla/2", "red-2": "plac-wilsona"}, []int{1, 2}, 1)
	s.Soldier = "browary-warszawskie"
	s, _ = apply(t, s, EndTurn{})
	if s.Pending.Kind != WaitRoll {
		t.Fatalf("waiting for %+v, want the roll", s.Pending)
	}
	// The odds before the roll: the soldier reaches the bank and the
	// road field (2 fields) on a black 2 or 3, and green chooses.
	odds, err := SoldierOdds(s)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][4]float64{
		"red-1":   {0, 2.0 / 6, 0, 0},
		"green-1": {0, 2.0 / 6, 0, 0.5},
		"green-2": {0, 2.0 / 6, 0, 0.5},
		"red-2":   {0, 0, 0, 0},
	}
	for _, o := range odds {
		w := want[o.Courier]
		g := [4]float64{o.ArrestMin, o.ArrestMax, o.RedMin, o.RedMax}
		for i := range w {
			if math.Abs(g[i]-w[i]) > 1e-12 {
				t.Errorf("%s odds %v, want %v", o.Courier, g, w)
				break
			}
		}
	}
	routes, _ := SoldierPath(s, 3)
	if len(routes) != 2 || !slices.Equal(routes[0].Path, []Node{"browary-bank/1", "bank-polski"}) || !slices.Equal(routes[0].Arrests, []string{"red-1", "green-1"}) {
		t.Errorf("routes %+v", routes)
	}
	s, _ = apply(t, s, RollDie{Colour: Black, Value: 3})
	if s.Pending == nil || s.Pending.Kind != WaitSoldierTarget || s.Pending.Seat != 2 || !slices.Equal(s.Pending.Choices, []string{"green-1", "green-2"}) {
		t.Fatalf("pending %+v, want green's choice between green-1 and green-2", s.Pending)
	}
	s, evs := apply(t, s, ChooseCourier{Seat: 2, Courier: "green-1"})
	if s.Soldier != "bank-polski" {
		t.Errorf("soldier at %s, want Bank Polski", s.Soldier)
	}
	for _, id := range []string{"red-1", "green-1"} {
		if c, _ := s.Courier(id); c.Off != InPrison {
			t.Errorf("%s not in prison: %+v", id, c)
		}
	}
	if c, _ := s.Courier("green-2"); !c.OnMap() {
		t.Errorf("green-2 arrested too")
	}
	var path []Node
	for _, e := range evs {
		if e.Type == "soldier_moved" {
			path = e.Path
		}
	}
	if !slices.Equal(path, []Node{"browary-bank/1", "bank-polski"}) {
		t.Errorf("soldier's path %v, want two fields to Bank Polski", path)
	}
}

func TestExample5BlockedRoad(t *testing.T) {
	s := newGame(t, Basic, ColourRed, ColourOrange)
	s = scene(t, s, map[string]Node{"orange-1": "szucha-przyczolek/3", "red-1": "plac-wilsona"}, []int{2, 1}, 1)
	card := orderID(t, s, "pwpw", "al-szucha")
	s.Track[4] = []string{card}
	s.Soldier = "sggw"
	s, _ = apply(t, s, EndTurn{}, RollDie{Colour: Red, Value: 4})
	// The red move goes to the courier nearest the soldier.
	if s.Pending.Kind != WaitBonusMove {
		t.Fatalf("pending %+v", s.Pending)
	}
	s, _ = apply(t, s, EndTurn{})
	if s.Pending == nil || s.Pending.Kind != WaitBlockRoad || s.Pending.Seat != 1 {
		t.Fatalf("pending %+v, want the last mover (red, seat 1) to block a road", s.Pending)
	}
	if want := []string{"krzyzy-szucha", "mokotow-szucha", "szucha-przyczolek"}; !slices.Equal(s.Pending.Choices, want) {
		t.Errorf("roads from al. Szucha %v, want %v", s.Pending.Choices, want)
	}
	before, _ := json.Marshal(s)
	if _, _, err := Apply(s, BlockRoad{Seat: 1, Road: "past-bank"}); rejection(err) != "bad_choice" {
		t.Errorf("a road not from al. Szucha: %v", err)
	}
	if after, _ := json.Marshal(s); string(before) != string(after) {
		t.Error("a refused action changed the state")
	}
	s, _ = apply(t, s, BlockRoad{Seat: 1, Road: "szucha-przyczolek"})
	at(t, s, "orange-1", "przyczolek-czerniakowski")
	if s.Tokens != 1 || len(s.Blocks) != 1 {
		t.Errorf("tokens %d, blocks %v", s.Tokens, s.Blocks)
	}
}

func TestExample6BackyardMates(t *testing.T) {
	s := newGame(t, Extended, ColourRed, ColourGreen)
	s = scene(t, s, map[string]Node{"green-1": "starowka", "green-2": "palacyk-michla"}, []int{1, 2}, 1)
	s, _ = apply(t, s, Move{Courier: "green-1", To: "starowka-pawiak/1"}, SwapCouriers{A: "green-1", B: "green-2"})
	at(t, s, "green-1", "palacyk-michla")
	at(t, s, "green-2", "starowka-pawiak/1")
	if !s.Turn.MoveDone {
		t.Error("the move goes on after the action split it")
	}
}

func TestExample7InsurgentUnit(t *testing.T) {
	s := newGame(t, Extended, ColourRed, ColourPurple)
	s = scene(t, s, map[string]Node{"purple-1": "elektrownia-powisle", "purple-2": "past"}, []int{1, 2}, 2)
	s, _ = apply(t, s, UnitJump{Courier: "purple-1", To: "pwpw"}, Move{Courier: "purple-1", To: "cytadela"}, Move{Courier: "purple-2", To: "past-bank/1"})
	at(t, s, "purple-1", "cytadela")
	at(t, s, "purple-2", "past-bank/1")
}

func TestExample8SwapOrders(t *testing.T) {
	s := newGame(t, Extended, ColourRed, ColourGreen)
	s = scene(t, s, map[string]Node{"red-1": "plac-trzech-krzyzy"}, []int{2, 1}, 3)
	toWilsona := orderID(t, s, "port", "plac-wilsona")
	other := orderID(t, s, "pwpw", "al-szucha")
	s.Track[3], s.Track[2], s.Track[1] = []string{toWilsona}, []string{other}, []string{VictoryCard}
	if _, _, err := Apply(s, SwapOrders{A: other, B: VictoryCard}); rejection(err) != "victory_card" {
		t.Errorf("moving the Victory card: %v", err)
	}
	s, _ = apply(t, s, SwapOrders{A: toWilsona, B: other},
		Move{Courier: "red-1", To: "past"}, Move{Courier: "red-1", To: "past-bank/1"}, Move{Courier: "red-1", To: "bank-polski"})
	if s.TrackField(toWilsona) != 3 || s.TrackField(other) != 4 {
		t.Errorf("track %v", s.Track)
	}
	at(t, s, "red-1", "bank-polski")
}

func TestExample9Rumours(t *testing.T) {
	s := newGame(t, Extended, ColourRed, ColourGreen, ColourOrange, ColourPurple)
	s = scene(t, s, map[string]Node{"orange-3": "stary-mokotow"}, []int{1, 2, 4, 3}, 4)
	fromPort := orderID(t, s, "port", "plac-wilsona")
	if _, _, err := Apply(s, Rumours{Cards: []string{fromPort}}); rejection(err) != "too_few_cards" {
		t.Errorf("one card of two: %v", err)
	}
	// A physical deck: the player looks at the real cards; the daemon
	// records that the action was used.
	if looked, evs, err := Apply(s, Rumours{}); err != nil || !looked.Turn.ActionDone || len(looked.Deck.Peeked) != 0 || len(evs) != 1 {
		t.Errorf("a look at a physical deck: %v, %+v, %v", err, looked.Turn, evs)
	}
	s, _ = apply(t, s, Rumours{Cards: []string{fromPort, "r10"}},
		Move{Courier: "orange-3", To: "mokotow-port/1"}, Move{Courier: "orange-3", To: "mokotow-port/2"},
		Move{Courier: "orange-3", To: "mokotow-port/3"}, Move{Courier: "orange-3", To: "port"})
	at(t, s, "orange-3", "port")
	if !slices.Equal(s.Deck.Peeked, []string{fromPort, "r10"}) || s.Deck.PeekedBy != 3 {
		t.Errorf("peeked %v by %d", s.Deck.Peeked, s.Deck.PeekedBy)
	}
	if v := s.View(Viewer{Seat: 1}); slices.Contains(v.Deck.Peeked, fromPort) {
		t.Error("another player sees the peeked cards")
	}
	// The next draw must be those cards.
	s.Pending = &Pending{Kind: WaitDrawOrders, Seat: 1, Count: 2}
	if _, _, err := Apply(s, DrawOrders{Cards: []string{"r10", fromPort}}); rejection(err) != "wrong_card" {
		t.Errorf("drawing other than the peeked cards: %v", err)
	}
	// Cards read one at a time from their tags: the phase waits for the
	// second.
	one, _, err := Apply(s, DrawOrders{Cards: []string{fromPort}})
	if err != nil || one.Pending == nil || one.Pending.Kind != WaitDrawOrders || one.Pending.Count != 1 || !slices.Equal(one.Track[0], []string{fromPort}) {
		t.Fatalf("first of two cards: %v, pending %+v, track %v", err, one.Pending, one.Track[0])
	}
	both, _, err := Apply(one, DrawOrders{Cards: []string{"r10"}})
	if err != nil || both.Pending == nil || both.Pending.Kind != WaitPlayCard || !slices.Equal(both.Track[0], []string{fromPort, "r10"}) {
		t.Errorf("second card: %v, pending %+v, track %v", err, both.Pending, both.Track[0])
	}
	if _, _, err := Apply(one, DrawOrders{}); rejection(err) != "too_few_cards" {
		t.Errorf("no card: %v", err)
	}
}

func TestExample10MokotowFalls(t *testing.T) {
	s := newGame(t, Extended, ColourRed, ColourGreen)
	s = scene(t, s, map[string]Node{"green-1": "sggw", "red-1": "krzyzy-szucha/1", "red-2": "plac-wilsona"}, []int{1, 2}, 1)
	s.Blocks = []Block{{Road: "sggw-mokotow", Order: "x", District: "mokotow"}}
	s.Tokens = 1
	s.district("mokotow").Missed = 1
	card := orderID(t, s, "dworzec-pocztowy", "stary-mokotow")
	s.Track[3] = []string{card}
	s, evs := apply(t, s, EndTurn{})
	if !s.fallen("mokotow") || s.Tokens != 2 {
		t.Fatalf("Mokotów fallen %v, tokens %d; events %v", s.fallen("mokotow"), s.Tokens, evs)
	}
	// Red goes to plac Trzech Krzyży at once (green's choice is first in
	// courier order, so red waits behind it).
	if s.Pending == nil || s.Pending.Kind != WaitDisplace || s.Pending.Courier != "green-1" {
		t.Fatalf("pending %+v, want green's choice", s.Pending)
	}
	if want := []string{"sggw-dworzec/2", "sggw-narutowicza/2"}; !slices.Equal(sorted(s.Pending.Choices), want) {
		t.Errorf("green's safe fields %v, want %v", s.Pending.Choices, want)
	}
	s, _ = apply(t, s, Displace{Courier: "green-1", To: "sggw-narutowicza/2"})
	at(t, s, "green-1", "sggw-narutowicza/2")
	at(t, s, "red-1", "plac-trzech-krzyzy")
	// Then a card comes onto field 1 at once.
	if s.Pending == nil || s.Pending.Kind != WaitDrawOrders || s.Pending.Count != 1 {
		t.Fatalf("pending %+v, want the immediate draw", s.Pending)
	}
	// Nobody may enter Mokotów now.
	s = scene(t, s, map[string]Node{"red-1": "plac-trzech-krzyzy"}, []int{2, 1}, 5)
	if _, _, err := Apply(s, Move{Courier: "red-1", To: "krzyzy-szucha/1"}); rejection(err) != "fallen_district" {
		t.Errorf("entering fallen Mokotów: %v", err)
	}
}

func sorted(l []string) []string { l = slices.Clone(l); slices.Sort(l); return l }
