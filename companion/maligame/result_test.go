package maligame

import (
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/mali"
)

// The end's headline names the winner and each player's points, and says
// how a tie on points was settled (the most delivered orders) or that it
// was not (the win shared), or why every player lost; the summary's points
// are the same final scores.
func TestResultHeadline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		result  mali.Result
		want    rules.Text
		summary []string
	}{
		{"a winner on points", mali.Result{Scores: []mali.Score{{Seat: 1, Orders: 1, OrderPoints: 4, HomeBonus: 1, Total: 5}, {Seat: 2, Orders: 1, OrderPoints: 8, HomeBonus: 1, Total: 9}}, Winners: []int{2}},
			rules.Text{PL: "koniec gry: wygrywa Bartek · Ania 5 pkt, Bartek 9 pkt", EN: "game over: Bartek wins · Ania 5 pts, Bartek 9 pts"},
			[]string{"Ania (red): 0 orders, 5 pts", "Bartek (green): 0 orders, 9 pts"}},
		{"a tie on points broken by orders", mali.Result{Scores: []mali.Score{{Seat: 1, Orders: 2, Total: 9}, {Seat: 2, Orders: 1, Total: 9}}, Winners: []int{1}},
			rules.Text{PL: "koniec gry: wygrywa Ania · Ania 9 pkt, Bartek 9 pkt · remis punktowy rozstrzygnęła liczba dostarczonych rozkazów", EN: "game over: Ania wins · Ania 9 pts, Bartek 9 pts · a tie on points, broken by the most delivered orders"},
			[]string{"Ania (red): 0 orders, 9 pts", "Bartek (green): 0 orders, 9 pts"}},
		{"a tie on orders too", mali.Result{Scores: []mali.Score{{Seat: 1, Orders: 1, Total: 9}, {Seat: 2, Orders: 1, Total: 9}}, Winners: []int{1, 2}},
			rules.Text{PL: "koniec gry: remis · Ania 9 pkt, Bartek 9 pkt · remis także w liczbie dostarczonych rozkazów", EN: "game over: a draw · Ania 9 pts, Bartek 9 pts · tied on delivered orders too"},
			[]string{"Ania (red): 0 orders, 9 pts", "Bartek (green): 0 orders, 9 pts"}},
		{"the Germans' victory", mali.Result{Defeat: true, Reason: rules.Textf("Niemcy zajęli dzielnice", "the Germans took the districts")},
			rules.Text{PL: "koniec gry: przegrywają wszyscy · Niemcy zajęli dzielnice", EN: "game over: every seat loses · the Germans took the districts"},
			[]string{"Ania (red): 0 orders, 0 pts", "Bartek (green): 0 orders, 0 pts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, "basic", "virtual")
			s := g.State()
			r := tc.result
			s.Result = &r
			g.SetState(s)
			if got := g.Headline(); got != tc.want {
				t.Errorf("headline:\n got %q / %q\nwant %q / %q", got.PL, got.EN, tc.want.PL, tc.want.EN)
			}
			sum := g.Summary(companion.Viewer{})
			if len(sum) < 1+len(tc.summary) || sum[0] != tc.want {
				t.Fatalf("summary %+v, want the headline first", sum)
			}
			for i, want := range tc.summary {
				if got := sum[1+i].EN; got != want {
					t.Errorf("summary line %d: got %q, want %q", i+1, got, want)
				}
			}
		})
	}
}
