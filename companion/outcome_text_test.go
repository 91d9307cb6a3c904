package companion_test

import (
	"testing"

	"github.com/sztab/sztab/companion"
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/rules"
)

// A finished game's result text names the winner (or the seats sharing
// the win, the draw, the defeat of all), every seat's score when the game
// keeps points, and the game's note, in Polish and English.
func TestResultText(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seats []rec.Seat
		note  rules.Text
		want  rules.Text
	}{
		{"one winner", []rec.Seat{{Seat: 1, Name: "Ania", Outcome: rec.Loss, Score: 5}, {Seat: 2, Name: "Bartek", Outcome: rec.Win, Score: 9}}, rules.Text{},
			rules.Text{PL: "koniec gry: wygrywa Bartek · Ania 5 pkt, Bartek 9 pkt", EN: "game over: Bartek wins · Ania 5 pts, Bartek 9 pts"}},
		{"a shared win and the tie-break", []rec.Seat{{Seat: 1, Name: "Ania", Outcome: rec.Draw, Score: 9}, {Seat: 2, Name: "Bartek", Outcome: rec.Draw, Score: 9}, {Seat: 3, Name: "Cela", Outcome: rec.Loss, Score: 2}},
			rules.Textf("remis także w liczbie rozkazów", "tied on orders too"),
			rules.Text{PL: "koniec gry: wygraną dzielą Ania, Bartek · Ania 9 pkt, Bartek 9 pkt, Cela 2 pkt · remis także w liczbie rozkazów", EN: "game over: Ania, Bartek share the win · Ania 9 pts, Bartek 9 pts, Cela 2 pts · tied on orders too"}},
		{"a draw without points, named by side", []rec.Seat{{Seat: 1, Side: "polish", Outcome: rec.Draw}, {Seat: 2, Side: "russian", Outcome: rec.Draw}}, rules.Textf("remis", "a draw"),
			rules.Text{PL: "koniec gry: remis · remis", EN: "game over: a draw · a draw"}},
		{"every seat loses", []rec.Seat{{Seat: 1, Name: "Ania", Outcome: rec.Loss}, {Seat: 2, Outcome: rec.Loss}}, rules.Textf("Niemcy wygrywają", "the Germans win"),
			rules.Text{PL: "koniec gry: przegrywają wszyscy · Niemcy wygrywają", EN: "game over: every seat loses · the Germans win"}},
		{"a seat without name or side", []rec.Seat{{Seat: 1, Outcome: rec.Win, Score: 3}, {Seat: 2, Outcome: rec.Loss}}, rules.Text{},
			rules.Text{PL: "koniec gry: wygrywa #1 · #1 3 pkt, #2 0 pkt", EN: "game over: #1 wins · #1 3 pts, #2 0 pts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := companion.ResultText(tc.seats, tc.note); got != tc.want {
				t.Errorf("got  %q / %q\nwant %q / %q", got.PL, got.EN, tc.want.PL, tc.want.EN)
			}
		})
	}
}

// A game whose seats are sides names them in each language, never by the
// side's id.
func TestResultTextNamed(t *testing.T) {
	side := func(s rec.Seat) rules.Text {
		return map[string]rules.Text{"polish": {PL: "gracz polski", EN: "the Polish player"}, "russian": {PL: "gracz rosyjski", EN: "the Russian player"}}[s.Side]
	}
	got := companion.ResultTextNamed([]rec.Seat{{Seat: 1, Side: "polish", Outcome: rec.Win}, {Seat: 2, Side: "russian", Outcome: rec.Loss}}, rules.Text{}, side)
	want := rules.Text{PL: "koniec gry: wygrywa gracz polski", EN: "game over: the Polish player wins"}
	if got != want {
		t.Errorf("got  %q / %q\nwant %q / %q", got.PL, got.EN, want.PL, want.EN)
	}
}
