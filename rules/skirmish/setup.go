package skirmish

import (
	"fmt"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// Setup is a game as configured at a table or in the first line of a
// script. Everything but Players may be left for the game itself: armies
// handed in with SubmitArmy, the scenario chosen with ChooseScenario, the
// first player rolled with RollOffDice.
type Setup struct {
	Players []Player `json:"players" yaml:"players"`
	// Units lists units with their owner seat, the short form of Armies.
	Units    []UnitSpec      `json:"units,omitempty" yaml:"units"`
	Armies   []SeatArmy      `json:"armies,omitempty" yaml:"armies"`
	Options  Options         `json:"options" yaml:"options"`
	Scenario *ChooseScenario `json:"scenario,omitempty" yaml:"scenario"`
	// RollOff is the first-player roll made before the game; a roll with no
	// origin was entered by the referee or organiser.
	RollOff []SeatRoll `json:"roll_off,omitempty" yaml:"roll_off"`
}

// SeatArmy is an army list and the seat that plays it.
type SeatArmy struct {
	Seat int      `json:"seat" yaml:"seat"`
	Army ArmyList `json:"army" yaml:"army"`
}

// NewGame resolves a setup against the catalogue into the StartGame action
// that opens the journal, and checks that the engine accepts it.
func (c *Catalogue) NewGame(s Setup) (StartGame, error) {
	start := StartGame{Players: s.Players, Options: s.Options, Data: c.Data, Scenario: s.Scenario}
	byOwner := map[int]int{}
	for _, spec := range s.Units {
		i, ok := byOwner[spec.Owner]
		if !ok {
			var faction string
			for _, p := range s.Players {
				if p.Seat == spec.Owner {
					faction = p.Faction
				}
			}
			if faction == "" {
				return StartGame{}, fmt.Errorf("skirmish: unit %q: owner seat %d is not a player", spec.ID, spec.Owner)
			}
			i = len(start.Armies)
			byOwner[spec.Owner] = i
			start.Armies = append(start.Armies, SubmitArmy{Seat: spec.Owner, Army: ArmyList{Faction: faction}})
		}
		spec.Owner = 0
		start.Armies[i].Army.Units = append(start.Armies[i].Army.Units, spec)
	}
	for _, a := range s.Armies {
		if _, dup := byOwner[a.Seat]; dup {
			return StartGame{}, fmt.Errorf("skirmish: seat %d has both units and an army list", a.Seat)
		}
		byOwner[a.Seat] = len(start.Armies)
		start.Armies = append(start.Armies, SubmitArmy{Seat: a.Seat, Army: a.Army})
	}
	for _, r := range s.RollOff {
		if r.Origin == "" {
			r.Origin = dice.Referee
		}
		start.RollOff = append(start.RollOff, r)
	}
	if _, _, err := Apply(State{}, start); err != nil {
		if rej, ok := rules.AsRejection(err); ok {
			return StartGame{}, fmt.Errorf("skirmish: %s", rej.Reason.EN)
		}
		return StartGame{}, err
	}
	return start, nil
}
