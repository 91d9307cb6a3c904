package mali

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sztab/sztab/rules"
)

// TestBadInput: each refusal is a *rules.Rejection with a stable code and
// both languages, and the state is unchanged.
func TestBadInput(t *testing.T) {
	s := newGame(t, Basic, ColourRed, ColourGreen)
	s = scene(t, s, map[string]Node{"red-1": "plac-wilsona", "red-2": "wilsona-cytadela/1", "red-3": "past", "green-1": "plac-wilsona"}, []int{2, 1}, 2)
	s.Soldier = "past-dworzec/1"
	card := orderID(t, s, "plac-wilsona", "port")
	s.Track[0] = []string{card}
	s.courier("red-3").Carrying = ""
	s.Blocks = []Block{{Road: "wilsona-pwpw", Order: "x", District: "zoliborz"}}
	withOrder := s.clone()
	withOrder.courier("red-1").Carrying = card
	moved, _ := apply(t, s, Move{Courier: "red-1", To: "wilsona-cytadela/1"}, Move{Courier: "red-1", To: "wilsona-cytadela/2"})
	ext := newGame(t, Extended, ColourRed, ColourGreen)
	ext = scene(t, ext, map[string]Node{"red-1": "krzyzy-szucha/1"}, []int{2, 1}, 5)
	ext.district("mokotow").Fallen = true
	ext.courier("red-1").At = "plac-trzech-krzyzy"
	for _, tc := range []struct {
		name  string
		state State
		act   Action
		code  string
	}{
		{"move longer than the card", moved, Move{Courier: "red-1", To: "cytadela"}, "too_far"},
		{"jump from a road field", s, Jump{Courier: "red-2", To: "cytadela"}, "not_in_object"},
		{"entering the soldier's field", s, Move{Courier: "red-3", To: "past-dworzec/1"}, "soldier_field"},
		{"a blocked road", s, Move{Courier: "red-1", To: "wilsona-pwpw/1"}, "blocked_road"},
		{"jump along a blocked road", s, Jump{Courier: "red-1", To: "pwpw"}, "not_adjacent"},
		{"a fallen district", ext, Move{Courier: "red-1", To: "krzyzy-szucha/1"}, "fallen_district"},
		{"second courier of one player on an order", withOrder, PickUp{Courier: "red-1", Order: card}, "already_carrying"},
		{"a step to a far field", s, Move{Courier: "red-1", To: "port"}, "not_adjacent"},
		{"another player's courier", s, Move{Courier: "green-1", To: "wilsona-cytadela/1"}, "not_your_courier"},
		{"a die face the die lacks", s, RollDie{Colour: Red, Value: 1}, "not_now"},
		{"a card action in the basic variant", s, SwapCouriers{A: "red-1", B: "red-2"}, "basic_variant"},
		{"an order not on the track", s, PickUp{Courier: "red-1", Order: "r02"}, "not_on_track"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := json.Marshal(tc.state)
			next, evs, err := Apply(tc.state, tc.act)
			r, ok := rules.AsRejection(err)
			if !ok || r.Code != tc.code || r.Reason.PL == "" || r.Reason.EN == "" {
				t.Fatalf("got %v, want a rejection %q in both languages", err, tc.code)
			}
			after, _ := json.Marshal(tc.state)
			got, _ := json.Marshal(next)
			if !bytes.Equal(before, after) || !bytes.Equal(before, got) || evs != nil {
				t.Error("the state changed on a refusal")
			}
		})
	}
	// Second courier of a player on the same order.
	two := s.clone()
	two.courier("red-2").At = "plac-wilsona"
	two, _ = apply(t, two, PickUp{Courier: "red-1", Order: card})
	if _, _, err := Apply(two, PickUp{Courier: "red-2", Order: card}); rejection(err) != "one_per_player" {
		t.Errorf("second courier of red on one order: %v", err)
	}
	// A die face that is not on the die.
	roll := s.clone()
	roll.Pending = &Pending{Kind: WaitRoll, Seat: 1}
	if _, _, err := Apply(roll, RollDie{Colour: Red, Value: 1}); rejection(err) != "no_such_face" {
		t.Errorf("red 1: %v", err)
	}
	// Setup errors.
	cat := defaultCat(t)
	for _, st := range []Setup{
		{Variant: "chess", Starter: 1, Players: players(2)},
		{Variant: Basic, Starter: 1, Players: players(1)},
		{Variant: Basic, Starter: 9, Players: players(2)},
		{Variant: Basic, Starter: 1, Players: []PlayerSetup{{Seat: 1, Colour: ColourRed}, {Seat: 2, Colour: ColourRed}}},
	} {
		if _, _, err := Apply(State{}, cat.NewGame(st)); rejection(err) != "bad_setup" {
			t.Errorf("%+v: %v", st, err)
		}
	}
}

func TestGoalsDeal(t *testing.T) {
	s := newGame(t, Extended, ColourRed, ColourGreen)
	// Two colours only in the first hand (niebieski c01,c05,c09,…; zolty c02,c06,…): redeal.
	bad := DealGoals{Hands: [][]string{{"c01", "c05", "c09", "c02", "c06", "c10"}, {"c03", "c04", "c07", "c08", "c11", "c12"}}}
	s2, evs := apply(t, s, bad)
	if s2.Pending.Kind != WaitDealGoals || evs[0].Type != "goals_redeal" {
		t.Errorf("a two-colour hand: pending %+v, events %v", s2.Pending, evs)
	}
	good := DealGoals{Hands: [][]string{{"c01", "c02", "c03", "c05", "c06", "c07"}, {"c04", "c08", "c09", "c10", "c11", "c12"}}}
	s, _ = apply(t, s, good)
	if _, _, err := Apply(s, KeepGoals{Seat: 1, Goals: []string{"c01", "c05", "c02"}}); rejection(err) != "bad_goals" {
		t.Errorf("two goals of one colour: %v", err)
	}
	s, _ = apply(t, s, KeepGoals{Seat: 1, Goals: []string{"c01", "c02", "c03"}})
	if v := s.View(Viewer{Seat: 2}); v.Players[0].Goals != nil || v.Players[0].Dealt != nil {
		t.Error("player 2 sees player 1's goals")
	}
	if v := s.View(Viewer{Seat: 1}); len(v.Players[0].Goals) != 3 {
		t.Error("player 1 does not see their own goals")
	}
	if v := s.View(Viewer{Referee: true}); len(v.Players[0].Goals) != 3 {
		t.Error("the referee does not see the goals")
	}
}

func TestScores(t *testing.T) {
	s := newGame(t, Extended, ColourRed, ColourGreen, ColourOrange)
	s.Players[0].Delivered = []string{"r01", "r03"} // 15 + 15, from Żoliborz and Powiśle
	s.Players[1].Delivered = []string{"r03x"}[:0]
	s.Players[2].Delivered = []string{"r04", "r05"}
	s.Players[0].Goals = []string{"c16"} // most_orders (tied with orange: both achieve)
	s.Players[2].Goals = []string{"c16", "c24"}
	s.Players[1].Goals = []string{"c23"} // most_important, nothing delivered
	// Couriers: red all home (7), green two home (3), orange one (1); all
	// of them went out and came back.
	for i := range s.Couriers {
		s.Couriers[i].Left = true
	}
	s.courier("green-1").At = "port"
	s.courier("orange-1").At = "port"
	s.courier("orange-2").At, s.courier("orange-2").Off = "", InPrison
	sc := s.Scores()
	if sc[0].HomeBonus != 7 || sc[1].HomeBonus != 3 || sc[2].HomeBonus != 1 {
		t.Errorf("home bonuses %d %d %d, want 7 3 1", sc[0].HomeBonus, sc[1].HomeBonus, sc[2].HomeBonus)
	}
	if len(sc[0].GoalsDone) != 1 || len(sc[2].GoalsDone) != 1 || len(sc[1].GoalsDone) != 0 {
		t.Errorf("goals done %v %v %v", sc[0].GoalsDone, sc[1].GoalsDone, sc[2].GoalsDone)
	}
	if sc[0].OrderPoints != 30 || sc[0].Total != 30+7+8 {
		t.Errorf("red %+v", sc[0])
	}
	if w := Winners([]Score{{Seat: 1, Total: 10, Orders: 2}, {Seat: 2, Total: 10, Orders: 3}, {Seat: 3, Total: 9}}); len(w) != 1 || w[0] != 2 {
		t.Errorf("tie-break by orders: %v", w)
	}
	if w := Winners([]Score{{Seat: 1, Total: 10, Orders: 2}, {Seat: 2, Total: 10, Orders: 2}}); len(w) != 2 {
		t.Errorf("still tied: both win, got %v", w)
	}
}

func TestDieOdds(t *testing.T) {
	o, err := Odds(defaultCat(t).Data.Die)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(o.PBlack()-0.5) > 1e-15 || math.Abs(o.PRed()-0.5) > 1e-15 {
		t.Errorf("black %v red %v", o.PBlack(), o.PRed())
	}
	for d, want := range map[int]float64{1: 0.5, 2: 2.0 / 6, 3: 1.0 / 6, 4: 0} {
		if got, _ := o.SoldierReaches(d); math.Abs(got-want) > 1e-15 {
			t.Errorf("reaches %d: %v, want %v", d, got, want)
		}
	}
	var de *DieError
	if _, err := Odds([]DieFace{{Colour: "green", Value: 1}}); !errors.As(err, &de) || !strings.HasPrefix(err.Error(), "mali: ") {
		t.Errorf("green face: %v", err)
	}
	if _, err := o.SoldierReaches(0); err == nil {
		t.Error("distance 0 accepted")
	}
}

// The return-home bonus goes to couriers that came back to a start object
// ("harcerze wrócili", "szczęśliwy powrót"): one that never left it earns
// nothing, unless the table's home_bonus_needs_return is false (issue #31).
func TestHomeBonusNeedsReturn(t *testing.T) {
	s := newGame(t, Basic, ColourRed, ColourGreen)
	// red-1 never left plac Wilsona; red-2 went out and came back to PAST-a;
	// red-3 is out on the map.
	s.courier("red-2").Left = true
	s.courier("red-3").At, s.courier("red-3").Left = "port", true
	if sc := s.Scores(); sc[0].Home != 1 || sc[0].HomeBonus != 1 {
		t.Errorf("by default: %d couriers home (%d points), want 1 (1): only red-2 returned", sc[0].Home, sc[0].HomeBonus)
	}
	never := false
	s.Options.HomeBonusNeedsReturn = &never
	if sc := s.Scores(); sc[0].Home != 2 || sc[0].HomeBonus != 3 {
		t.Errorf("home_bonus_needs_return false: %d couriers home (%d points), want 2 (3)", sc[0].Home, sc[0].HomeBonus)
	}
}
