package companion

import (
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
)

// Outcome is gamespec.Outcome.
func Outcome(g Game) []rec.Seat { return gamespec.Outcome(g) }

// viewPlayers are the players of the game's public view (gamespec.ViewPlayers).
func viewPlayers(g Game) []RecordPlayer { return gamespec.ViewPlayers(g) }

// ResultText is gamespec.ResultText.
func ResultText(seats []rec.Seat, note rules.Text) rules.Text {
	return gamespec.ResultText(seats, note)
}

// ResultTextNamed is gamespec.ResultTextNamed.
func ResultTextNamed(seats []rec.Seat, note rules.Text, name func(rec.Seat) rules.Text) rules.Text {
	return gamespec.ResultTextNamed(seats, note, name)
}
