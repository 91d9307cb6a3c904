// Package skirmish is the rules engine of "Powstanie Warszawskie — więzienna
// gra strategiczna", the miniatures skirmish game. It is pure: Apply takes a
// state and an action (dice included) and returns the next state and the
// events, or a *rules.Rejection and the state unchanged.
package skirmish

import (
	"bytes"
	_ "embed"
	"fmt"

	"gopkg.in/yaml.v3"
)

// Jump says what jumping an obstacle costs a model carrying the weapon.
type Jump string

const (
	JumpNoLoss     Jump = "no_loss"    // "brak straty ruchu"
	JumpMoveLoss   Jump = "move_loss"  // "strata ruchu"
	JumpImpossible Jump = "impossible" // "niemożliwy"
)

// MGBonus is the heavy machine gun's extra shots for standing still.
type MGBonus struct {
	PerRound int `yaml:"per_round" json:"per_round"`
	Max      int `yaml:"max" json:"max"`
}

// Weapon is one row of SPIS BRONI.
type Weapon struct {
	Name      string   `yaml:"name" json:"name"`
	Type      string   `yaml:"type" json:"type"`
	Class     string   `yaml:"class" json:"class"`
	Range     int      `yaml:"range" json:"range,omitempty"`
	Shots     int      `yaml:"shots" json:"shots"`
	Hit       int      `yaml:"hit" json:"hit,omitempty"`
	Wound     int      `yaml:"wound" json:"wound,omitempty"`
	D6Wounds  bool     `yaml:"d6_wounds" json:"d6_wounds,omitempty"`
	Jump      Jump     `yaml:"jump" json:"jump"`
	MGBonus   *MGBonus `yaml:"mg_bonus" json:"mg_bonus,omitempty"`
	Template  string   `yaml:"template" json:"template,omitempty"`
	TargetDie bool     `yaml:"target_die" json:"target_die,omitempty"`
	Captured  bool     `yaml:"captured" json:"captured,omitempty"`
	Assumed   []string `yaml:"assumed" json:"assumed,omitempty"`
}

// ShotsPerModel is the number of dice each model rolls, counting the MG bonus
// for rounds the unit stood still.
func (w Weapon) ShotsPerModel(stationaryRounds int) int {
	if w.MGBonus == nil || stationaryRounds <= 0 {
		return w.Shots
	}
	return min(w.Shots+w.MGBonus.PerRound*stationaryRounds, w.MGBonus.Max)
}

// UnitCard is a unit's printed (or assumed) statistics.
type UnitCard struct {
	ID        string   `yaml:"id" json:"id"`
	Name      string   `yaml:"name" json:"name"`
	Faction   string   `yaml:"faction" json:"faction"`
	Cost      int      `yaml:"cost" json:"cost"`
	MinModels int      `yaml:"min_models" json:"min_models"`
	Weapon    string   `yaml:"weapon" json:"weapon"`
	Defence   int      `yaml:"defence" json:"defence"`
	Lives     int      `yaml:"lives" json:"lives"`
	Move      int      `yaml:"move" json:"move"`
	Assumed   []string `yaml:"assumed" json:"assumed,omitempty"`
}

// Catalogue is the game data an engine runs with.
type Catalogue struct {
	Weapons map[string]Weapon
	Units   map[string]UnitCard
	// WeaponOrder keeps the rulebook's order for listings.
	WeaponOrder []string
}

//go:embed weapons.yaml
var weaponsYAML []byte

//go:embed units.yaml
var unitsYAML []byte

// DefaultCatalogue parses the embedded data files.
func DefaultCatalogue() (*Catalogue, error) {
	return ParseCatalogue(weaponsYAML, unitsYAML)
}

// ParseCatalogue parses weapon and unit data (the formats of weapons.yaml and
// units.yaml) and checks every row.
func ParseCatalogue(weapons, units []byte) (*Catalogue, error) {
	var w struct {
		Weapons []Weapon `yaml:"weapons"`
	}
	if err := strictYAML(weapons, &w); err != nil {
		return nil, fmt.Errorf("skirmish: weapons: %w", err)
	}
	var u struct {
		Units []UnitCard `yaml:"units"`
	}
	if err := strictYAML(units, &u); err != nil {
		return nil, fmt.Errorf("skirmish: units: %w", err)
	}
	c := &Catalogue{Weapons: map[string]Weapon{}, Units: map[string]UnitCard{}}
	for i, wp := range w.Weapons {
		if err := wp.check(); err != nil {
			return nil, fmt.Errorf("skirmish: weapons[%d] %q: %w", i, wp.Name, err)
		}
		if _, dup := c.Weapons[wp.Name]; dup {
			return nil, fmt.Errorf("skirmish: weapons[%d]: %q listed twice", i, wp.Name)
		}
		c.Weapons[wp.Name] = wp
		c.WeaponOrder = append(c.WeaponOrder, wp.Name)
	}
	for i, uc := range u.Units {
		if err := uc.check(c); err != nil {
			return nil, fmt.Errorf("skirmish: units[%d] %q: %w", i, uc.ID, err)
		}
		if _, dup := c.Units[uc.ID]; dup {
			return nil, fmt.Errorf("skirmish: units[%d]: %q listed twice", i, uc.ID)
		}
		c.Units[uc.ID] = uc
	}
	return c, nil
}

func strictYAML(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	return dec.Decode(v)
}

func (w Weapon) check() error {
	switch {
	case w.Name == "":
		return fmt.Errorf("no name")
	case w.Shots < 1:
		return fmt.Errorf("shots %d, want at least 1", w.Shots)
	case w.Jump != JumpNoLoss && w.Jump != JumpMoveLoss && w.Jump != JumpImpossible:
		return fmt.Errorf("jump %q, want no_loss, move_loss or impossible", w.Jump)
	case w.Template != "" && w.Template != "orange_marker" && w.Template != "orange_area":
		return fmt.Errorf("template %q, want orange_marker or orange_area", w.Template)
	case w.Template == "" && (w.Hit < 2 || w.Hit > 6):
		return fmt.Errorf("hit %d, want 2–6", w.Hit)
	case w.Template == "" && w.Range < 1:
		return fmt.Errorf("range %d, want at least 1 krok", w.Range)
	case !w.D6Wounds && (w.Wound < 2 || w.Wound > 6):
		return fmt.Errorf("wound %d, want 2–6 or d6_wounds", w.Wound)
	case w.D6Wounds && w.Wound != 0:
		return fmt.Errorf("both wound %d and d6_wounds", w.Wound)
	case w.MGBonus != nil && (w.MGBonus.PerRound < 1 || w.MGBonus.Max < w.Shots):
		return fmt.Errorf("mg_bonus %+v does not fit %d shots", *w.MGBonus, w.Shots)
	}
	return nil
}

func (u UnitCard) check(c *Catalogue) error {
	switch {
	case u.ID == "" || u.Name == "":
		return fmt.Errorf("no id or name")
	case u.Defence < 2 || u.Defence > 7:
		return fmt.Errorf("defence %d, want 2–7 (7: no save)", u.Defence)
	case u.Lives < 1:
		return fmt.Errorf("lives %d, want at least 1", u.Lives)
	}
	if _, ok := c.Weapons[u.Weapon]; !ok {
		return fmt.Errorf("weapon %q is not in the weapons table", u.Weapon)
	}
	return nil
}
