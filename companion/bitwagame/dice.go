package bitwagame

import (
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/bitwa"
	"github.com/sztab/sztab/rules/dice"
)

// RollsIn lists the dice a roll carries, for the entry's evidence and the
// fairness watch. The dice are physical, read at the table and entered by
// hand (a seat's keypad digit or a page's roll); the engine's action keeps
// no origin, so they are given as keypad dice (the entry's evidence names
// the keypad or page that sent them).
func (g *Game) RollsIn(a gamespec.Action) []dice.Roll {
	r, ok := a.(bitwa.Roll)
	if !ok {
		return nil
	}
	out := make([]dice.Roll, len(r.Dice))
	for i, v := range r.Dice {
		out[i] = dice.Roll{Value: v, Origin: dice.Keypad}
	}
	return out
}
