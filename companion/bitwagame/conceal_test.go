package bitwagame

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/rules/bitwa"
)

// A pick is its player's secret until the card is played: told as the
// public may know it (an undo's or a correction's line in the record),
// picks of different cards, fronts and effects read the same and name no
// card, in both languages; a played card is told by its name.
func TestConcealedPickTellsNoCard(t *testing.T) {
	g := testGame(t)
	s := g.State()
	hand := slices.Sorted(maps.Keys(s.Cards))[:4]
	var first string
	for i, id := range hand {
		told := g.TellAction(g.Conceal(bitwa.Select{Seat: 1, Card: id, Front: bitwa.Fronts[i%len(bitwa.Fronts)], Choice: i % 2}))
		line := told.PL + " | " + told.EN
		for _, c := range hand {
			if n := s.Cards[c].Names(); strings.Contains(line, n.PL) || strings.Contains(line, n.EN) || strings.Contains(line, c) {
				t.Errorf("the pick of %s is told %q: it names %s", id, line, n.EN)
			}
		}
		if i == 0 {
			first = line
		} else if line != first {
			t.Errorf("picks of two cards are told apart: %q and %q", first, line)
		}
	}
	if !strings.Contains(first, "zakryta karta") || !strings.Contains(first, "a hidden card") {
		t.Errorf("a concealed pick is told %q", first)
	}
	played := g.TellAction(g.Conceal(bitwa.PlayCard{Seat: 1, Card: hand[0], Front: bitwa.Fronts[0]}))
	if n := s.Cards[hand[0]].Names(); !strings.Contains(played.PL, n.PL) || !strings.Contains(played.EN, n.EN) {
		t.Errorf("a played card is told %q / %q, want its name %q / %q", played.PL, played.EN, n.PL, n.EN)
	}
}
