package companion

import (
	"encoding/json"
	"github.com/sztab/sztab/gamespec"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/rules"
)

// Outcome is the game's seat results with the players' names and sides;
// nil while the game is not over, or for a game that cannot say.
func Outcome(g Game) []rec.Seat {
	o, ok := g.(Outcomer)
	if !ok {
		return nil
	}
	seats := o.Outcome()
	if seats == nil {
		return nil
	}
	players := map[int]RecordPlayer{}
	for _, p := range viewPlayers(g) {
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

// viewPlayers are the players of the game's public view ("players": seat,
// name and faction, colour, army or side).
func viewPlayers(g Game) []RecordPlayer {
	var v struct {
		Players []struct {
			Seat                              int
			Name, Faction, Colour, Army, Side string
		} `json:"players"`
	}
	if b, err := json.Marshal(g.View(Public)); err == nil {
		json.Unmarshal(b, &v)
	}
	var out []RecordPlayer
	for _, p := range v.Players {
		side := p.Faction
		for _, s := range []string{p.Colour, p.Army, p.Side} {
			if side == "" {
				side = s
			}
		}
		out = append(out, RecordPlayer{Seat: p.Seat, Name: p.Name, Side: side})
	}
	return out
}

// ResultText is gamespec.ResultText.
func ResultText(seats []rec.Seat, note rules.Text) rules.Text {
	return gamespec.ResultText(seats, note)
}

// ResultTextNamed is gamespec.ResultTextNamed.
func ResultTextNamed(seats []rec.Seat, note rules.Text, name func(rec.Seat) rules.Text) rules.Text {
	return gamespec.ResultTextNamed(seats, note, name)
}
