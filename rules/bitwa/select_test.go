package bitwa

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/sztab/sztab/rules"
)

// Select keeps the picked card, front and effect in the state (and so in
// the journal); it refuses a card not in the hand, a front the card cannot
// go to, an effect it does not have, and another seat; the next action
// clears it, and the turn does not move on a selection.
func TestSelect(t *testing.T) {
	base := military(t, Options{}, "haller", "1-dp")
	cases := []struct {
		name string
		a    Action
		code string
		want *Selection
	}{
		{"a hand card", Select{Seat: 1, Card: "haller"}, "", &Selection{Seat: 1, Card: "haller"}},
		{"with front and effect", Select{Seat: 1, Card: "haller", Front: South, Choice: 1}, "", &Selection{Seat: 1, Card: "haller", Front: South, Choice: 1}},
		{"not in hand", Select{Seat: 1, Card: "galica"}, "not_in_hand", nil},
		{"unknown card", Select{Seat: 1, Card: "ak"}, "unknown_card", nil},
		{"bad front", Select{Seat: 1, Card: "haller", Front: "X"}, "bad_front", nil},
		{"no such effect", Select{Seat: 1, Card: "haller", Choice: 2}, "out_of_range", nil},
		{"a unit card has one effect", Select{Seat: 1, Card: "1-dp", Choice: 1}, "out_of_range", nil},
		{"another seat", Select{Seat: 2, Card: "haller"}, "not_your_turn", nil},
		{"clear", Select{Seat: 1}, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := json.Marshal(base)
			next, _, err := Apply(base, tc.a)
			after, _ := json.Marshal(base)
			if !bytes.Equal(before, after) {
				t.Fatal("Apply changed its input")
			}
			if tc.code != "" {
				if rej := rejection(err); rej != tc.code {
					t.Fatalf("got %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if next.Active != 1 || next.Stage != StageMilitary {
				t.Errorf("a selection moved the turn: active %d stage %s", next.Active, next.Stage)
			}
			got, _ := json.Marshal(next.Selected)
			want, _ := json.Marshal(tc.want)
			if !bytes.Equal(got, want) {
				t.Errorf("selected %s, want %s", got, want)
			}
		})
	}
	s := must(t, base, Select{Seat: 1, Card: "haller", Front: South})
	s = must(t, s, PlayCard{Seat: 1, Card: "haller", Front: South, Choice: 0})
	if s.Selected != nil {
		t.Errorf("the selection outlived the play: %+v", s.Selected)
	}
}

// The initiative dice may come one at a time: they wait in the decision,
// the last one decides, a die too many is refused.
func TestRollOneDieAtATime(t *testing.T) {
	s := newGame(t, 3, 1, Options{})
	s = must(t, s, Blockade{Seat: 1, Marker: "blockade-wp", Place: BlockOrderField, Front: South})
	s = must(t, s, Blockade{Seat: 2, Marker: "blockade-acz", Place: BlockOrderField, Front: South})
	s = must(t, s, Roll{Seat: 1, Dice: []int{2}})
	if s.Pending == nil || s.Pending.Kind != DecideRollInitiative || len(s.Pending.Dice) != 1 {
		t.Fatalf("after one die: %+v", s.Pending)
	}
	if _, _, err := Apply(s, Roll{Seat: 1, Dice: []int{3, 4, 5}}); rejection(err) != "bad_dice" {
		t.Errorf("three more dice for two missing: %v", err)
	}
	s = must(t, s, Roll{Seat: 2, Dice: []int{6}})
	s = must(t, s, Roll{Seat: 3, Dice: []int{4}})
	if s.Initiative != 2 || s.Player(2).Token != 1 || s.Player(3).Token != 2 || s.Player(1).Token != 3 {
		t.Errorf("initiative %d, tokens %d %d %d; want seat 2 first, then 3, then 1", s.Initiative, s.Player(1).Token, s.Player(2).Token, s.Player(3).Token)
	}
}

func rejection(err error) string {
	if rej, ok := rules.AsRejection(err); ok {
		return rej.Code
	}
	return ""
}

// A supply card won once is resolved once: the next round, without a new
// fight, nobody wins it (it used to stay won for every later round).
func TestSupplyWonOnce(t *testing.T) {
	s := military(t, Options{}, "1-dp")
	s.Player(2).Hand = []string{"8-ds"}
	s = must(t, s, Pass{Seat: 1})
	s = must(t, s, Fight{Seat: 2, Card: "8-ds", Resource: ResSupply})
	if s.Won[ResSupply] != ACz || s.Round != 2 {
		t.Fatalf("round %d, supply won by %q; want round 2, acz", s.Round, s.Won[ResSupply])
	}
	s = must(t, s, Roll{Seat: 1, Dice: []int{1}})
	s = must(t, s, TurnCard{Seat: 2, Face: 0})
	for s.Pending != nil && s.Pending.Kind == DecideSupply {
		s = must(t, s, Supply{Seat: s.Pending.Seat})
	}
	if _, ok := s.Won[ResSupply]; ok {
		t.Errorf("the supply card is still won after it was resolved: %v", s.Won)
	}
}
