package tournament

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/record"
)

// line is a standings row in brief: "rank[=] player points".
func line(s Standing) string {
	tie := ""
	if s.Tied {
		tie = "="
	}
	return fmt.Sprintf("%d%s %s %v", s.Rank, tie, s.Player, s.Points)
}

func g(players string, seats ...record.Seat) game {
	return game{players: strings.Fields(players), seats: seats}
}

// TestHeadToHeadOnlyWhereNeeded: the tie-break's value is kept for the
// players it was worked out for, 0 included, and for no one else.
func TestHeadToHeadOnlyWhereNeeded(t *testing.T) {
	four := []Player{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	win, loss, draw := record.Win, record.Loss, record.Draw
	cfg := &Config{Points: Points{Mode: ModeWDL, Win: 3, Draw: 1, Loss: 0}, TieBreaks: []string{TieScore, TieHeadToHead}, Bye: Bye{Outcome: win}}
	// b and c 3 points and score 0 each, c beat b; a (score 5) and d tie
	// on points but not on score
	st := standings(cfg, four, []game{g("b c", seat(1, loss, 0), seat(2, win, 0)), g("a b", seat(1, loss, 0), seat(2, win, 0)),
		g("a d", seat(1, draw, 5), seat(2, draw, 0))}, nil)
	got := map[string]string{}
	for _, s := range st {
		got[s.Player] = "-"
		if s.HeadToHead != nil {
			got[s.Player] = fmt.Sprint(*s.HeadToHead)
		}
	}
	if want := map[string]string{"c": "3", "b": "0", "a": "-", "d": "-"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("head-to-head %v, want %v", got, want)
	}
}

func TestStandings(t *testing.T) {
	four := []Player{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	wdl := Points{Mode: ModeWDL, Win: 3, Draw: 1, Loss: 0}
	win, loss, draw := record.Win, record.Loss, record.Draw
	cases := []struct {
		name  string
		pts   Points
		tbs   []string
		bye   Bye
		games []game
		byes  []string
		want  string
	}{
		{
			name: "points, then ties shared", pts: wdl,
			games: []game{g("a b", seat(1, win, 5), seat(2, loss, 1)), g("c d", seat(1, draw, 3), seat(2, draw, 3))},
			want:  "1 a 3; 2= c 1; 2= d 1; 4 b 0",
		},
		{
			name: "score breaks the tie", pts: wdl, tbs: []string{TieScore},
			games: []game{g("a b", seat(1, win, 5), seat(2, loss, 1)), g("c d", seat(1, win, 9), seat(2, loss, 0))},
			want:  "1 c 3; 2 a 3; 3 b 0; 4 d 0",
		},
		{
			name: "sos: who you beat", pts: wdl, tbs: []string{TieSOS},
			// Round 1: a beats b, c beats d. Round 2: a loses to c, b beats d.
			// a and b have 3; a's opponents b (3) and c (6) = 9, b's a (3) and d (0) = 3.
			games: []game{g("a b", seat(1, win, 0), seat(2, loss, 0)), g("c d", seat(1, win, 0), seat(2, loss, 0)),
				g("a c", seat(1, loss, 0), seat(2, win, 0)), g("b d", seat(1, win, 0), seat(2, loss, 0))},
			want: "1 c 6; 2 a 3; 3 b 3; 4 d 0",
		},
		{
			name: "head-to-head among the tied only", pts: wdl, tbs: []string{TieHeadToHead},
			// b and c both 3 points; c beat b.
			games: []game{g("b c", seat(1, loss, 0), seat(2, win, 0)), g("a b", seat(1, loss, 0), seat(2, win, 0)),
				g("a d", seat(1, draw, 0), seat(2, draw, 0))},
			want: "1 c 3; 2 b 3; 3= a 1; 3= d 1",
		},
		{
			name: "wins before score", pts: wdl, tbs: []string{TieWins, TieScore},
			// a: win + loss = 3, 1 win; b: 3 draws = 3, 0 wins.
			games: []game{g("a c", seat(1, win, 1), seat(2, loss, 0)), g("a d", seat(1, loss, 1), seat(2, win, 0)),
				g("b c", seat(1, draw, 9), seat(2, draw, 0)), g("b d", seat(1, draw, 9), seat(2, draw, 0)), g("b c", seat(1, draw, 9), seat(2, draw, 0))},
			// d: win + draw = 4; c: loss + 2 draws = 2.
			want: "1 d 4; 2 a 3; 3 b 3; 4 c 2",
		},
		{
			name: "vp sums the game's score", pts: Points{Mode: ModeVP},
			games: []game{g("a b c d", seat(1, loss, 7), seat(2, win, 12), seat(3, loss, 7), seat(4, loss, 2))},
			want:  "1 b 12; 2= a 7; 2= c 7; 4 d 2",
		},
		{
			name: "a bye as a win", pts: wdl, bye: Bye{Outcome: win},
			games: []game{g("a b", seat(1, win, 0), seat(2, loss, 0))}, byes: []string{"c"},
			want: "1= a 3; 1= c 3; 3= b 0; 3= d 0",
		},
		{
			name: "a bye as a draw", pts: wdl, bye: Bye{Outcome: draw},
			games: []game{g("a b", seat(1, win, 0), seat(2, loss, 0))}, byes: []string{"c"},
			want: "1 a 3; 2 c 1; 3= b 0; 3= d 0",
		},
		{
			name: "a bye's score in vp", pts: Points{Mode: ModeVP}, bye: Bye{Outcome: win, Score: 8},
			games: []game{g("a b", seat(1, win, 10), seat(2, loss, 4))}, byes: []string{"c"},
			want: "1 a 10; 2 c 8; 3 b 4; 4 d 0",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.bye.Outcome == "" {
				c.bye.Outcome = win
			}
			cfg := &Config{Points: c.pts, TieBreaks: c.tbs, Bye: c.bye}
			st := standings(cfg, four, c.games, c.byes)
			var got []string
			for _, s := range st {
				got = append(got, line(s))
			}
			if g := strings.Join(got, "; "); g != c.want {
				t.Errorf("got  %s\nwant %s", g, c.want)
			}
		})
	}
}
