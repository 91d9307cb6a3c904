package skirmish

import "fmt"

// UnitSpec is a unit as a table lists it before the game: which card, how
// many models, which weapon.
type UnitSpec struct {
	ID     string `json:"id" yaml:"id"`
	Card   string `json:"card" yaml:"card"`
	Owner  int    `json:"owner" yaml:"owner"`
	Models int    `json:"models" yaml:"models"`
	// Weapon overrides the card's default weapon when set.
	Weapon string `json:"weapon,omitempty" yaml:"weapon"`
	// Name overrides the card name on displays ("AK pluton Zośka").
	Name string `json:"name,omitempty" yaml:"name"`
}

// Setup is a game as configured at a table.
type Setup struct {
	Players []Player   `json:"players" yaml:"players"`
	Units   []UnitSpec `json:"units" yaml:"units"`
	Options Options    `json:"options" yaml:"options"`
}

// NewGame resolves a setup against the catalogue into the StartGame action
// that opens the journal. Errors name the unit and what is wrong with it.
func (c *Catalogue) NewGame(s Setup) (StartGame, error) {
	seats := map[int]bool{}
	for _, p := range s.Players {
		if seats[p.Seat] {
			return StartGame{}, fmt.Errorf("skirmish: seat %d listed twice", p.Seat)
		}
		seats[p.Seat] = true
	}
	ids := map[string]bool{}
	var units []Unit
	for i, spec := range s.Units {
		card, ok := c.Units[spec.Card]
		switch {
		case spec.ID == "":
			return StartGame{}, fmt.Errorf("skirmish: units[%d]: no id", i)
		case ids[spec.ID]:
			return StartGame{}, fmt.Errorf("skirmish: unit %q listed twice", spec.ID)
		case !ok:
			return StartGame{}, fmt.Errorf("skirmish: unit %q: no unit card %q", spec.ID, spec.Card)
		case !seats[spec.Owner]:
			return StartGame{}, fmt.Errorf("skirmish: unit %q: owner seat %d is not a player", spec.ID, spec.Owner)
		case spec.Models < 1:
			return StartGame{}, fmt.Errorf("skirmish: unit %q: %d models, want at least 1", spec.ID, spec.Models)
		}
		ids[spec.ID] = true
		weapon := card.Weapon
		if spec.Weapon != "" {
			weapon = spec.Weapon
		}
		w, ok := c.Weapons[weapon]
		if !ok {
			return StartGame{}, fmt.Errorf("skirmish: unit %q: no weapon %q in SPIS BRONI", spec.ID, weapon)
		}
		name := card.Name
		if spec.Name != "" {
			name = spec.Name
		}
		u := Unit{ID: spec.ID, Name: name, Card: card.ID, Faction: card.Faction, Owner: spec.Owner, Weapon: w, Defence: card.Defence}
		for m := range spec.Models {
			u.Models = append(u.Models, Model{ID: fmt.Sprintf("%s-%d", spec.ID, m+1), Lives: card.Lives})
		}
		units = append(units, u)
	}
	return StartGame{Players: s.Players, Units: units, Options: s.Options}, nil
}
