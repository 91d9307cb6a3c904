// Package skirmish is the rules engine of "Powstanie Warszawskie — więzienna
// gra strategiczna", the miniatures skirmish game. It is pure: Apply takes a
// state and an action (dice and table measurements included) and returns the
// next state and the events, or a *rules.Rejection and the state unchanged.
package skirmish

import (
	"bytes"
	_ "embed"
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
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

// Template kinds: the orange marker decides who is hit.
const (
	TemplateMarker = "orange_marker" // flamethrower, mortar
	TemplateArea   = "orange_area"   // grenades
)

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
	// TargetOn is the "kostka celu" threshold: the marker stays on target
	// when the die shows at least this.
	TargetOn int      `yaml:"target_on" json:"target_on,omitempty"`
	Captured bool     `yaml:"captured" json:"captured,omitempty"`
	Assumed  []string `yaml:"assumed" json:"assumed,omitempty"`
}

// ShotsPerModel is the number of dice each model rolls, counting the MG bonus
// for rounds the unit stood still.
func (w Weapon) ShotsPerModel(stationaryRounds int) int {
	if w.MGBonus == nil || stationaryRounds <= 0 {
		return w.Shots
	}
	return min(w.Shots+w.MGBonus.PerRound*stationaryRounds, w.MGBonus.Max)
}

// Commander is the optional leader a unit card allows ("Oddział można
// wyposażyć w dowódcę").
type Commander struct {
	Name string `yaml:"name" json:"name"`
	Cost int    `yaml:"cost" json:"cost"`
}

// Swap is a weapon a unit card allows instead of its default, and what it
// adds to the cost of each model carrying it.
type Swap struct {
	Weapon string `yaml:"weapon" json:"weapon"`
	Cost   int    `yaml:"cost" json:"cost"`
}

// MaxUnitModels bounds a unit card's max_models: far above any table's
// miniatures, and low enough that checking an army list, which reports
// every model, stays small.
const MaxUnitModels = 1000

// UnitCard is a unit's printed (or assumed) statistics.
type UnitCard struct {
	ID        string `yaml:"id" json:"id"`
	Name      string `yaml:"name" json:"name"`
	Faction   string `yaml:"faction" json:"faction"`
	Cost      int    `yaml:"cost" json:"cost"`
	MinModels int    `yaml:"min_models" json:"min_models"`
	MaxModels int    `yaml:"max_models" json:"max_models"`
	// MaxUnits is how many units of this card one army may field; 0: any.
	MaxUnits  int        `yaml:"max_units" json:"max_units,omitempty"`
	Commander *Commander `yaml:"commander" json:"commander,omitempty"`
	Weapon    string     `yaml:"weapon" json:"weapon"`
	Swaps     []Swap     `yaml:"swaps" json:"swaps,omitempty"`
	Civilian  bool       `yaml:"civilian" json:"civilian,omitempty"`
	Defence   int        `yaml:"defence" json:"defence"`
	Lives     int        `yaml:"lives" json:"lives"`
	Move      int        `yaml:"move" json:"move"`
	Assumed   []string   `yaml:"assumed" json:"assumed,omitempty"`
}

// SwapCost is the extra cost per model of carrying weapon, and whether the
// card allows it at all (its default weapon costs nothing extra).
func (u UnitCard) SwapCost(weapon string) (int, bool) {
	if weapon == u.Weapon {
		return 0, true
	}
	for _, s := range u.Swaps {
		if s.Weapon == weapon {
			return s.Cost, true
		}
	}
	return 0, false
}

// WeaponLimit caps how many models of one army may carry a weapon.
type WeaponLimit struct {
	Weapon string `yaml:"weapon" json:"weapon"`
	Max    int    `yaml:"max" json:"max"`
}

// Faction is an army's rules: its weapon limits and what its civilians
// cannot use.
type Faction struct {
	Name         string        `yaml:"name" json:"name"`
	WeaponLimits []WeaponLimit `yaml:"weapon_limits" json:"weapon_limits,omitempty"`
	// CivilianForbidden are the weapon classes civilians cannot use ("cywile
	// ... nie umieją korzystać z niektórych typów broni").
	CivilianForbidden []string `yaml:"civilian_forbidden" json:"civilian_forbidden,omitempty"`
	Assumed           []string `yaml:"assumed" json:"assumed,omitempty"`
}

// Order card check kinds. All but CheckManual are decided by the engine from
// the state; a manual card is scored when the other side (or a referee)
// confirms it.
const (
	CheckKillModels   = "kill_models"   // kill N enemy models
	CheckDestroyUnits = "destroy_units" // wipe out N enemy units
	CheckKillWith     = "kill_with"     // kill N enemy models with a weapon class (or captured weapons)
	CheckAdvance      = "advance"       // a model ends within N kroki of an enemy table edge
	CheckManual       = "manual"        // the players confirm it
)

// OrderCheck is what completes an order card. Counts run from the moment the
// card was drawn.
type OrderCheck struct {
	Kind     string `yaml:"kind" json:"kind"`
	N        int    `yaml:"n" json:"n,omitempty"`
	Class    string `yaml:"class" json:"class,omitempty"`
	Captured bool   `yaml:"captured" json:"captured,omitempty"`
}

// OrderCard is one card of a faction's order deck (scenarios 3 and 4).
type OrderCard struct {
	ID      string     `yaml:"id" json:"id"`
	Faction string     `yaml:"faction" json:"faction"`
	Name    rules.Text `yaml:"name" json:"name"`
	Task    rules.Text `yaml:"task" json:"task"`
	Points  int        `yaml:"points" json:"points"`
	Check   OrderCheck `yaml:"check" json:"check"`
}

// Data is all the game data an engine runs with, as plain lists. It travels
// inside StartGame so a journal replays the same even after the data files
// are edited.
type Data struct {
	Weapons  []Weapon    `json:"weapons"`
	Factions []Faction   `json:"factions"`
	Units    []UnitCard  `json:"units"`
	Orders   []OrderCard `json:"orders"`
}

// Catalogue is Data indexed for look-ups.
type Catalogue struct {
	Data     Data
	Weapons  map[string]Weapon
	Units    map[string]UnitCard
	Factions map[string]Faction
	Orders   map[string]OrderCard
	// WeaponOrder keeps the rulebook's order for listings.
	WeaponOrder []string
}

//go:embed weapons.yaml
var weaponsYAML []byte

//go:embed units.yaml
var unitsYAML []byte

//go:embed orders.yaml
var ordersYAML []byte

// DefaultCatalogue parses the embedded data files.
func DefaultCatalogue() (*Catalogue, error) {
	return ParseCatalogue(weaponsYAML, unitsYAML, ordersYAML)
}

// DefaultFiles returns the embedded data files, for users who want to edit a
// copy: weapons.yaml, units.yaml, orders.yaml.
func DefaultFiles() map[string][]byte {
	return map[string][]byte{"weapons.yaml": weaponsYAML, "units.yaml": unitsYAML, "orders.yaml": ordersYAML}
}

// ParseCatalogue parses weapon, unit and order data (the formats of
// weapons.yaml, units.yaml and orders.yaml) and checks every row. A nil
// orders file means no order decks.
func ParseCatalogue(weapons, units, orders []byte) (*Catalogue, error) {
	var d Data
	var w struct {
		Weapons []Weapon `yaml:"weapons"`
	}
	if err := strictYAML(weapons, &w); err != nil {
		return nil, fmt.Errorf("skirmish: weapons: %w", err)
	}
	var u struct {
		Factions []Faction  `yaml:"factions"`
		Units    []UnitCard `yaml:"units"`
	}
	if err := strictYAML(units, &u); err != nil {
		return nil, fmt.Errorf("skirmish: units: %w", err)
	}
	var o struct {
		Orders []OrderCard `yaml:"orders"`
	}
	if len(orders) > 0 {
		if err := strictYAML(orders, &o); err != nil {
			return nil, fmt.Errorf("skirmish: orders: %w", err)
		}
	}
	d.Weapons, d.Factions, d.Units, d.Orders = w.Weapons, u.Factions, u.Units, o.Orders
	return NewCatalogue(d)
}

// NewCatalogue checks data and indexes it.
func NewCatalogue(d Data) (*Catalogue, error) {
	c := &Catalogue{Data: d, Weapons: map[string]Weapon{}, Units: map[string]UnitCard{},
		Factions: map[string]Faction{}, Orders: map[string]OrderCard{}}
	for i, wp := range d.Weapons {
		if err := wp.check(); err != nil {
			return nil, fmt.Errorf("skirmish: weapons[%d] %q: %w", i, wp.Name, err)
		}
		if _, dup := c.Weapons[wp.Name]; dup {
			return nil, fmt.Errorf("skirmish: weapons[%d]: %q listed twice", i, wp.Name)
		}
		c.Weapons[wp.Name] = wp
		c.WeaponOrder = append(c.WeaponOrder, wp.Name)
	}
	for i, f := range d.Factions {
		if f.Name == "" {
			return nil, fmt.Errorf("skirmish: factions[%d]: no name", i)
		}
		if _, dup := c.Factions[f.Name]; dup {
			return nil, fmt.Errorf("skirmish: factions[%d]: %q listed twice", i, f.Name)
		}
		for _, l := range f.WeaponLimits {
			if _, ok := c.Weapons[l.Weapon]; !ok {
				return nil, fmt.Errorf("skirmish: faction %q: limit on %q, which is not in the weapons table", f.Name, l.Weapon)
			}
			if l.Max < 0 {
				return nil, fmt.Errorf("skirmish: faction %q: limit %d on %q", f.Name, l.Max, l.Weapon)
			}
		}
		c.Factions[f.Name] = f
	}
	for i, uc := range d.Units {
		if err := uc.check(c); err != nil {
			return nil, fmt.Errorf("skirmish: units[%d] %q: %w", i, uc.ID, err)
		}
		if _, dup := c.Units[uc.ID]; dup {
			return nil, fmt.Errorf("skirmish: units[%d]: %q listed twice", i, uc.ID)
		}
		c.Units[uc.ID] = uc
	}
	for i, oc := range d.Orders {
		if err := oc.check(c); err != nil {
			return nil, fmt.Errorf("skirmish: orders[%d] %q: %w", i, oc.ID, err)
		}
		if _, dup := c.Orders[oc.ID]; dup {
			return nil, fmt.Errorf("skirmish: orders[%d]: %q listed twice", i, oc.ID)
		}
		c.Orders[oc.ID] = oc
	}
	return c, nil
}

// Deck lists the order cards of a faction in data-file order.
func (c *Catalogue) Deck(faction string) []OrderCard {
	var out []OrderCard
	for _, o := range c.Data.Orders {
		if o.Faction == faction {
			out = append(out, o)
		}
	}
	return out
}

func strictYAML(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	return yamlsafe.Decode(dec, v)
}

var weaponClasses = []string{"pistol", "smg", "rifle", "assault_rifle", "hmg", "antitank", "heavy", "grenade"}

func (w Weapon) check() error {
	switch {
	case w.Name == "":
		return fmt.Errorf("no name")
	case !slices.Contains(weaponClasses, w.Class):
		return fmt.Errorf("class %q, want one of %v", w.Class, weaponClasses)
	case w.Shots < 1:
		return fmt.Errorf("shots %d, want at least 1", w.Shots)
	case w.Jump != JumpNoLoss && w.Jump != JumpMoveLoss && w.Jump != JumpImpossible:
		return fmt.Errorf("jump %q, want no_loss, move_loss or impossible", w.Jump)
	case w.Template != "" && w.Template != TemplateMarker && w.Template != TemplateArea:
		return fmt.Errorf("template %q, want orange_marker or orange_area", w.Template)
	case w.Template == "" && (w.Hit < 2 || w.Hit > 6):
		return fmt.Errorf("hit %d, want 2–6", w.Hit)
	case w.Template != "" && w.Hit != 0:
		return fmt.Errorf("hit %d on a template weapon: the orange marker decides the hit", w.Hit)
	case w.Template == "" && w.Range < 1:
		return fmt.Errorf("range %d, want at least 1 krok", w.Range)
	case !w.D6Wounds && (w.Wound < 2 || w.Wound > 6):
		return fmt.Errorf("wound %d, want 2–6 or d6_wounds", w.Wound)
	case w.D6Wounds && w.Wound != 0:
		return fmt.Errorf("both wound %d and d6_wounds", w.Wound)
	case w.MGBonus != nil && (w.MGBonus.PerRound < 1 || w.MGBonus.Max < w.Shots):
		return fmt.Errorf("mg_bonus %+v does not fit %d shots", *w.MGBonus, w.Shots)
	case w.TargetDie && (w.TargetOn < 2 || w.TargetOn > 6):
		return fmt.Errorf("target_on %d, want 2–6 with target_die", w.TargetOn)
	case !w.TargetDie && w.TargetOn != 0:
		return fmt.Errorf("target_on %d without target_die", w.TargetOn)
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
	case u.Move < 0:
		return fmt.Errorf("move %d", u.Move)
	case u.Cost < 0:
		return fmt.Errorf("cost %d", u.Cost)
	case u.MinModels < 1:
		return fmt.Errorf("min_models %d, want at least 1", u.MinModels)
	case u.MaxModels < u.MinModels:
		return fmt.Errorf("max_models %d is below min_models %d", u.MaxModels, u.MinModels)
	case u.MaxModels > MaxUnitModels:
		return fmt.Errorf("max_models %d, want at most %d", u.MaxModels, MaxUnitModels)
	case u.MaxUnits < 0:
		return fmt.Errorf("max_units %d", u.MaxUnits)
	case u.Commander != nil && u.Commander.Cost < 0:
		return fmt.Errorf("commander cost %d", u.Commander.Cost)
	}
	if _, ok := c.Factions[u.Faction]; !ok {
		return fmt.Errorf("faction %q is not listed under factions", u.Faction)
	}
	if _, ok := c.Weapons[u.Weapon]; !ok {
		return fmt.Errorf("weapon %q is not in the weapons table", u.Weapon)
	}
	for _, s := range u.Swaps {
		if _, ok := c.Weapons[s.Weapon]; !ok {
			return fmt.Errorf("swap to %q, which is not in the weapons table", s.Weapon)
		}
		if s.Weapon == u.Weapon {
			return fmt.Errorf("swap to its own default weapon %q", s.Weapon)
		}
	}
	return nil
}

func (o OrderCard) check(c *Catalogue) error {
	switch {
	case o.ID == "":
		return fmt.Errorf("no id")
	case o.Name.PL == "" || o.Name.EN == "" || o.Task.PL == "" || o.Task.EN == "":
		return fmt.Errorf("name and task need both pl and en")
	case o.Points < 1:
		return fmt.Errorf("points %d, want at least 1", o.Points)
	}
	if _, ok := c.Factions[o.Faction]; !ok {
		return fmt.Errorf("faction %q is not listed under factions", o.Faction)
	}
	ch := o.Check
	switch ch.Kind {
	case CheckKillModels, CheckDestroyUnits, CheckAdvance:
		if ch.N < 1 {
			return fmt.Errorf("check %s needs n ≥ 1", ch.Kind)
		}
	case CheckKillWith:
		if ch.N < 1 || (ch.Class == "") == !ch.Captured {
			return fmt.Errorf("check kill_with needs n ≥ 1 and either class or captured")
		}
		if ch.Class != "" && !slices.Contains(weaponClasses, ch.Class) {
			return fmt.Errorf("check kill_with: class %q, want one of %v", ch.Class, weaponClasses)
		}
	case CheckManual:
	default:
		return fmt.Errorf("check kind %q, want kill_models, destroy_units, kill_with, advance or manual", ch.Kind)
	}
	return nil
}
