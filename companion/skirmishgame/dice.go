package skirmishgame

import (
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/skirmish"
)

// RollsIn lists the dice an action carries, for the fairness watch.
func (g *Game) RollsIn(a gamespec.Action) []dice.Roll {
	if d, ok := a.(skirmish.Dice); ok {
		return d.Rolls
	}
	return nil
}
