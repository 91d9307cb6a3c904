package gamespec

import (
	"encoding/json"
	"fmt"
	"strings"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/rules"
)

// Outcomer is implemented by games that say, once the game is over, each
// seat's result: what a venue's standings count (the signed result
// statement, record.Statement v2).
type Outcomer interface {
	// Outcome is each seat's outcome and score in seat order once the game
	// is over, nil while it is not. Name and Side may be left empty: they
	// are filled in from the public view's players.
	Outcome() []rec.Seat
}

// ResultText is a finished game's result as every place says it (the
// headline at the end, the table's screen, the venue wall, the watch, the
// export's summary and the signed statement's result_pl/en), made from the
// game's outcome alone so that they cannot disagree: the winner by name, or
// the seats sharing the win, a draw, or a defeat of every seat; then each
// seat's final score (left out when no seat scored: a game that keeps no
// points); then the game's note, when it has one (how the game ended, the
// tie-break that decided it). A seat is named by its player's name, else
// its side, else its number.
func ResultText(seats []rec.Seat, note rules.Text) rules.Text {
	return ResultTextNamed(seats, note, nil)
}

// ResultTextNamed is ResultText with each seat named by name (nil: by
// its player, else its side, else its number, the same in both
// languages): for a game whose seats are sides with a name in each
// language and no player's name.
func ResultTextNamed(seats []rec.Seat, note rules.Text, name func(rec.Seat) rules.Text) rules.Text {
	if name == nil {
		name = func(s rec.Seat) rules.Text { n := seatName(s); return rules.Text{PL: n, EN: n} }
	}
	var wonPL, wonEN, drewPL, drewEN []string
	scored := false
	for _, s := range seats {
		n := name(s)
		switch s.Outcome {
		case rec.Win:
			wonPL, wonEN = append(wonPL, n.PL), append(wonEN, n.EN)
		case rec.Draw:
			drewPL, drewEN = append(drewPL, n.PL), append(drewEN, n.EN)
		}
		scored = scored || s.Score != 0
	}
	var t rules.Text
	switch {
	case len(wonPL) > 0:
		t = rules.Text{PL: "koniec gry: wygrywa " + strings.Join(wonPL, ", "), EN: "game over: " + strings.Join(wonEN, ", ") + " wins"}
	case len(drewPL) == len(seats) && len(seats) > 0:
		t = rules.Textf("koniec gry: remis", "game over: a draw")
	case len(drewPL) > 0:
		t = rules.Text{PL: "koniec gry: wygraną dzielą " + strings.Join(drewPL, ", "), EN: "game over: " + strings.Join(drewEN, ", ") + " share the win"}
	default:
		t = rules.Textf("koniec gry: przegrywają wszyscy", "game over: every seat loses")
	}
	if scored {
		var pl, en []string
		for _, s := range seats {
			n := name(s)
			pl = append(pl, fmt.Sprintf("%s %d pkt", n.PL, s.Score))
			en = append(en, fmt.Sprintf("%s %d pts", n.EN, s.Score))
		}
		t.PL += " · " + strings.Join(pl, ", ")
		t.EN += " · " + strings.Join(en, ", ")
	}
	if note.PL != "" || note.EN != "" {
		t.PL += " · " + note.PL
		t.EN += " · " + note.EN
	}
	return t
}

// seatName names a seat in a result: its player, else its side, else its
// number (the same in both languages but the last).
func seatName(s rec.Seat) string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Side != "":
		return s.Side
	}
	return fmt.Sprintf("#%d", s.Seat)
}

// ScoredSeat is one seat's final score in a game that ranks its players by
// points (Mali Powstańcy, World of Tanks: Rush).
type ScoredSeat struct{ Seat, Score int }

// OutcomeByWinners is the outcome of a game that names its winners among
// scored seats: a single winner wins and the others lose; several winners
// (tied on the game's own tie-breaks too) share the win, which a standings
// table counts as a draw for each of them, the others losing. A game lost
// by all (lost is true: Mali Powstańcy's defeat) is a loss for every seat.
func OutcomeByWinners(scores []ScoredSeat, winners []int, lost bool) []rec.Seat {
	won := map[int]bool{}
	for _, w := range winners {
		won[w] = true
	}
	shared := len(winners) > 1
	out := []rec.Seat{}
	for _, s := range scores {
		outcome := rec.Loss
		switch {
		case lost:
		case won[s.Seat] && shared:
			outcome = rec.Draw
		case won[s.Seat]:
			outcome = rec.Win
		}
		out = append(out, rec.Seat{Seat: s.Seat, Outcome: outcome, Score: s.Score})
	}
	return out
}

// Outcome is the game's seat results with the players' names and sides
// (filled in from the public view's players where the game leaves them
// out); nil while the game is not over, or for a game that cannot say.
func Outcome(g Game) []rec.Seat {
	o, ok := g.(Outcomer)
	if !ok {
		return nil
	}
	seats := o.Outcome()
	if seats == nil {
		return nil
	}
	players := map[int]Player{}
	for _, p := range ViewPlayers(g) {
		players[p.Seat] = p
	}
	out := make([]rec.Seat, len(seats))
	for i, s := range seats {
		p := players[s.Seat]
		if s.Name == "" {
			s.Name = p.Name
		}
		if s.Side == "" {
			s.Side = p.Side
		}
		out[i] = s
	}
	return out
}

// Player is a player as the public view shows them: seat, name, and side
// (faction, colour or army).
type Player struct {
	Seat int
	Name string
	Side string
}

// ViewPlayers are the players of the game's public view ("players": seat,
// name and faction, colour, army or side).
func ViewPlayers(g Game) []Player {
	var v struct {
		Players []struct {
			Seat                              int
			Name, Faction, Colour, Army, Side string
		} `json:"players"`
	}
	if b, err := json.Marshal(g.View(Public)); err == nil {
		json.Unmarshal(b, &v)
	}
	var out []Player
	for _, p := range v.Players {
		side := p.Faction
		for _, s := range []string{p.Colour, p.Army, p.Side} {
			if side == "" {
				side = s
			}
		}
		out = append(out, Player{Seat: p.Seat, Name: p.Name, Side: side})
	}
	return out
}
