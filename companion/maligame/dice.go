package maligame

import (
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/mali"
)

// RollsIn lists the die a soldier's roll carries, for the entry's evidence
// and the fairness watch: the physical die's face (its number in die.yaml,
// as a keypad digit enters it; every face equally likely), with the origin
// and device the action keeps ("keypad:<keypad>", "camera:<tray>"). A
// roll whose face die.yaml does not list carries none.
func (g *Game) RollsIn(a gamespec.Action) []dice.Roll {
	r, ok := a.(mali.RollDie)
	if !ok {
		return nil
	}
	for i, f := range g.State().Catalogue().Data.Die {
		if f.Colour == r.Colour && f.Value == r.Value {
			origin, device, _ := strings.Cut(r.Origin, ":")
			return []dice.Roll{{Value: i + 1, Origin: dice.Origin(origin), Device: device}}
		}
	}
	return nil
}
