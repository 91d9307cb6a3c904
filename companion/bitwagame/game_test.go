package bitwagame

import (
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules/bitwa"
)

// opening plays the demo's opening: both blockades from the players'
// pages, the initiative dice 6 (Marysia) and 3 (Janek) one at a time on
// the dice keypad, the bonus die 2 (the Central front). Then Marysia acts,
// holding 7-dp, zielinski, 1-dj, omelianowicz-pawlenko; Janek holds kork,
// szuwajew, 8-ds, komintern.
var opening = []companion.Input{page(1, "blockade", "order_field", "S"), page(2, "blockade", "order_field", "S"), press("", "6"), press("", "3"), press("", "2")}

// The binder's table: what each sensor event or command becomes, or why
// it is refused (in Polish and English).
func TestBind(t *testing.T) {
	cases := []struct {
		name  string
		setup []companion.Input
		in    companion.Input
		want  []string // action types, in order
		code  string   // or the refusal
		check func(t *testing.T, s bitwa.State)
	}{
		{name: "opening blockade from the page", in: page(1, "blockade", "order_field", "S"), want: []string{"blockade"}},
		{name: "Janek's page during Marysia's opening blockade", in: page(2, "blockade", "order_field", "S"), code: "not_your_turn"},
		{name: "an opening blockade on a commander card", in: page(0, "blockade", "commander_card", "S"), code: "no_commander"},
		{name: "first initiative die from the keypad", setup: opening[:2], in: press("", "6"), want: []string{"roll"},
			check: func(t *testing.T, s bitwa.State) {
				if s.Pending == nil || s.Pending.Kind != bitwa.DecideRollInitiative || !slices.Equal(s.Pending.Dice, []int{6}) {
					t.Errorf("pending %+v, want the initiative roll holding die 6", s.Pending)
				}
			}},
		{name: "both dice from a page", setup: opening[:2], in: page(2, "roll", "6", "3"), want: []string{"roll"},
			check: func(t *testing.T, s bitwa.State) {
				if s.Initiative != 1 {
					t.Errorf("initiative %d, want 1", s.Initiative)
				}
			}},
		{name: "a die out of range", setup: opening[:2], in: page(0, "roll", "7"), code: "out_of_range"},
		{name: "a card scanned on the player's reader is picked", setup: opening, in: scan("seat-1", "7-dp"), want: []string{"select"},
			check: func(t *testing.T, s bitwa.State) {
				if sel := s.Selected; sel == nil || sel.Card != "7-dp" || sel.Seat != 1 || s.Player(1).HandCount != 4 {
					t.Errorf("selected %+v, hand %d", sel, s.Player(1).HandCount)
				}
			}},
		{name: "another seat's reader on Marysia's turn", setup: opening, in: scan("seat-2", "kork"), code: "not_your_turn"},
		{name: "a card not in her hand", setup: opening, in: scan("seat-1", "kork"), code: "not_in_hand"},
		{name: "a card of another game", setup: opening, in: scan("seat-1", "ak"), code: "unknown_card"},
		{name: "a reader of no seat or front", setup: opening, in: scan("stol", "7-dp"), code: "unknown_reader"},
		{name: "a card scanned while a die is awaited", setup: opening[:4], in: scan("seat-1", "7-dp"), code: "awaiting_decision"},
		{name: "a unit card on a front's reader is played there", setup: opening, in: scan("front-c", "7-dp"), want: []string{"play_card"},
			check: func(t *testing.T, s bitwa.State) {
				if l := s.Army(bitwa.WP).Fronts[1]; l.First != 1 || l.Second != 2 {
					t.Errorf("central front %+v, want 1/2", l)
				}
			}},
		{name: "a commander on a front's reader waits for its effect", setup: opening, in: scan("front-s", "zielinski"), want: []string{"select"},
			check: func(t *testing.T, s bitwa.State) {
				if sel := s.Selected; sel == nil || sel.Front != bitwa.South {
					t.Errorf("selected %+v, want zielinski for S", sel)
				}
			}},
		{name: "the keypad's 1 is the picked commander's effect", setup: append(slices.Clone(opening), scan("front-s", "zielinski")), in: press("", "1"), want: []string{"play_card"},
			check: func(t *testing.T, s bitwa.State) {
				if c := s.Army(bitwa.WP).Commanders[2]; c == nil || c.Card != "zielinski" || c.Choice != 0 {
					t.Errorf("southern commander %+v", c)
				}
			}},
		{name: "confirm a picked card without a front", setup: append(slices.Clone(opening), scan("seat-1", "7-dp")), in: press("seat-1", "confirm"), code: "choose_front"},
		{name: "the page plays the picked card", setup: append(slices.Clone(opening), scan("seat-1", "1-dj")), in: page(1, "play", "N"), want: []string{"play_card"},
			check: func(t *testing.T, s bitwa.State) {
				if s.Active != 1 || s.Selected != nil {
					t.Errorf("1. Dywizja Jazdy gives another action: active %d, selected %+v", s.Active, s.Selected)
				}
			}},
		{name: "page play with the effect", setup: opening, in: page(1, "play", "zielinski", "C", "2"), want: []string{"play_card"},
			check: func(t *testing.T, s bitwa.State) {
				if s.Pending == nil || s.Pending.Kind != bitwa.DecideMove {
					t.Errorf("pending %+v, want zielinski's move", s.Pending)
				}
			}},
		{name: "page play of a commander without the effect", setup: opening, in: page(1, "play", "zielinski", "C"), want: []string{"select"}},
		{name: "page play to a front that is not one", setup: opening, in: page(1, "play", "7-dp", "X"), code: "bad_args"},
		{name: "page play with an effect 3", setup: opening, in: page(1, "play", "zielinski", "C", "3"), code: "bad_args"},
		{name: "the move after the effect", setup: append(slices.Clone(opening), page(1, "play", "zielinski", "C", "2")), in: page(1, "move", "C2>C1"), want: []string{"move"}},
		{name: "a card scanned while a move waits", setup: append(slices.Clone(opening), page(1, "play", "zielinski", "C", "2")), in: scan("seat-1", "7-dp"), code: "awaiting_decision"},
		{name: "cancel declines the move", setup: append(slices.Clone(opening), page(1, "play", "zielinski", "C", "2")), in: press("seat-1", "cancel"), want: []string{"move"}},
		{name: "a garbled move", setup: append(slices.Clone(opening), page(1, "play", "zielinski", "C", "2")), in: page(1, "move", "C2-C1"), code: "bad_args"},
		{name: "a move nobody asked for", setup: opening, in: page(1, "move", "C2>C1"), code: "no_decision"},
		{name: "fight with a named card", setup: opening, in: page(1, "fight", "7-dp", "funds"), want: []string{"fight"}},
		{name: "fight with the picked card", setup: append(slices.Clone(opening), scan("seat-1", "7-dp")), in: page(1, "fight", "supply"), want: []string{"fight"}},
		{name: "fight for nothing", setup: opening, in: page(1, "fight", "7-dp", "gold"), code: "bad_args"},
		{name: "fight without a card", setup: opening, in: page(1, "fight", "funds"), code: "no_card"},
		{name: "blockade moved with a discard", setup: opening, in: page(1, "blockade", "7-dp", "wp", "line2", "N"), want: []string{"blockade"}},
		{name: "blockade where it already lies", setup: opening, in: page(1, "blockade", "7-dp", "wp", "order_field", "S"), code: "no_change"},
		{name: "activate without a commander", setup: opening, in: page(1, "activate", "7-dp", "N", "1"), code: "no_commander"},
		{name: "Janek's page passes for Marysia", setup: opening, in: page(2, "pass"), code: "not_your_turn"},
		{name: "Janek's page plays his card on Marysia's turn", setup: opening, in: page(2, "play", "8-ds", "N"), code: "not_your_turn"},
		{name: "Janek's confirm button", setup: opening, in: press("seat-2", "confirm"), code: "not_your_turn"},
		{name: "Marysia's pass button", setup: opening, in: press("seat-1", "pass"), want: []string{"pass"},
			check: func(t *testing.T, s bitwa.State) {
				if s.Active != 2 {
					t.Errorf("active %d, want Janek", s.Active)
				}
			}},
		{name: "the table's keys pass for whoever", setup: opening, in: press("", "pass"), want: []string{"pass"}},
		{name: "the referee passes for whoever", setup: opening, in: page(0, "pass"), want: []string{"pass"}},
		{name: "a digit with nothing to roll or choose", setup: opening, in: press("", "4"), code: "no_roll"},
		{name: "cancel puts the picked card back", setup: append(slices.Clone(opening), scan("seat-1", "7-dp")), in: press("seat-1", "cancel"), want: []string{"select"},
			check: func(t *testing.T, s bitwa.State) {
				if s.Selected != nil {
					t.Errorf("still selected: %+v", s.Selected)
				}
			}},
		{name: "cancel with nothing", setup: opening, in: press("seat-1", "cancel"), code: "nothing_to_cancel"},
		{name: "cancel an initiative roll", setup: opening[:2], in: press("", "cancel"), code: "cannot_decline"},
		{name: "unknown command", setup: opening, in: page(1, "shuffle"), code: "unknown_key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := testGame(t)
			feedAll(t, g, tc.setup...)
			took, rej := feed(t, g, tc.in)
			if tc.code != "" {
				if rej == nil || rej.Code != tc.code {
					t.Fatalf("got %v / %+v, want refused %s", types(took), rej, tc.code)
				}
				if rej.Reason.PL == "" || rej.Reason.EN == "" || rej.Reason.PL == rej.Reason.EN {
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
				tc.check(t, g.State())
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

// A player's command for another seat is refused with the reason in both
// languages, whatever the command, and the state does not change.
func TestOtherSeatRefused(t *testing.T) {
	g := testGame(t)
	feedAll(t, g, opening...)
	for _, c := range []companion.Input{page(2, "pass"), page(2, "select", "kork"), page(2, "fight", "kork", "funds"), press("seat-2", "cancel"), scan("seat-2", "kork")} {
		_, rej := feed(t, g, c)
		if rej == nil || rej.Code != "not_your_turn" || !strings.Contains(rej.Reason.PL, "Marysia") || !strings.Contains(rej.Reason.EN, "cannot act for Marysia") {
			t.Errorf("input %+v %v: %+v, want not_your_turn naming Marysia", c.Key, c.Args, rej)
		}
	}
	if s := g.State(); s.Active != 1 || s.Player(2).HandCount != 4 || s.Selected != nil {
		t.Errorf("the state changed: active %d, Janek's hand %d", s.Active, s.Player(2).HandCount)
	}
}
