// Package wotrush is the rules engine of "World of Tanks: Rush", the
// deck-building card game for two to five players. It is pure: Apply takes a
// state and an action (shuffles come from the seed the game was started
// with, or from orders written into StartGame) and returns the next state
// and the events, or a *rules.Rejection and the state unchanged. It does no
// I/O; its data files are embedded and parsed from bytes.
package wotrush

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
)

// Vehicle classes ("Klasa").
const (
	ClassLight   = "light"   // Czołg Lekki
	ClassMedium  = "medium"  // Czołg Średni
	ClassSPG     = "spg"     // Działo Samobieżne (icons tank_destroyer, artillery)
	ClassHeavy   = "heavy"   // Czołg Ciężki
	ClassSupport = "support" // Jednostka Pomocnicza
)

// Classes lists the vehicle classes; the first four are armoured
// ("Pojazdy Opancerzone") and share firepower and armour within a class.
var Classes = []string{ClassLight, ClassMedium, ClassSPG, ClassHeavy, ClassSupport}

// Ability ids (rulebook page 15, "Zdolności").
const (
	AbReinforcements = "reinforcements" // Posiłki N: draw N cards from the Garage
	AbRecruitment    = "recruitment"    // Rekrutacja: any number of purchases this turn
	AbScout          = "scout"          // Zwiad: replace the whole Reserve
	AbSabotage       = "sabotage"       // Sabotaż: every opponent discards one card
	AbSiege          = "siege"          // Oblężenie: damage or destroy an enemy base or defender
	AbResearch       = "research"       // Badania N: scrap this card, take a vehicle costing ≤ N
	AbDismantle      = "dismantle"      // Demontaż: 1–N Magazine cards to the Scrapyard
	AbIndestructible = "indestructible" // Niezniszczalność: one single medal of the card's nation
	AbNationalGoods  = "national_goods" // Dobra narodowe: resources only for one nation's cards
	AbOnlyBases      = "only_bases"     // may attack bases only
	AbOnlyVehicles   = "only_vehicles"  // may attack vehicles only
)

// AbilityNames are the abilities' printed names (page 15).
var AbilityNames = map[string]rules.Text{
	AbReinforcements: {PL: "Posiłki", EN: "Reinforcements"},
	AbRecruitment:    {PL: "Rekrutacja", EN: "Recruitment"},
	AbScout:          {PL: "Zwiad", EN: "Scout"},
	AbSabotage:       {PL: "Sabotaż", EN: "Sabotage"},
	AbSiege:          {PL: "Oblężenie", EN: "Siege"},
	AbResearch:       {PL: "Badania", EN: "Research"},
	AbDismantle:      {PL: "Demontaż", EN: "Dismantle"},
	AbIndestructible: {PL: "Niezniszczalność", EN: "Indestructible"},
	AbNationalGoods:  {PL: "Dobra narodowe", EN: "National goods"},
	AbOnlyBases:      {PL: "atakuje tylko Bazy", EN: "attacks bases only"},
	AbOnlyVehicles:   {PL: "atakuje tylko Pojazdy", EN: "attacks vehicles only"},
}

// ClassNames are the vehicle classes' printed names.
var ClassNames = map[string]rules.Text{
	ClassLight:   {PL: "Czołg Lekki", EN: "Light tank"},
	ClassMedium:  {PL: "Czołg Średni", EN: "Medium tank"},
	ClassSPG:     {PL: "Działo Samobieżne", EN: "Self-propelled gun"},
	ClassHeavy:   {PL: "Czołg Ciężki", EN: "Heavy tank"},
	ClassSupport: {PL: "Jednostka Pomocnicza", EN: "Support unit"},
}

var abilityIDs = []string{AbReinforcements, AbRecruitment, AbScout, AbSabotage, AbSiege,
	AbResearch, AbDismantle, AbIndestructible, AbNationalGoods, AbOnlyBases, AbOnlyVehicles}

// Ability is one ability symbol on a card: its id, its number (Posiłki,
// Badania, Demontaż) and, for Dobra narodowe, the nation (default: the
// card's own).
type Ability struct {
	ID     string `yaml:"id" json:"id"`
	N      int    `yaml:"n" json:"n,omitempty"`
	Nation string `yaml:"nation" json:"nation,omitempty"`
}

// IsAction reports whether the ability is one a played card carries out;
// the others restrict the card (page 15, "Zdolności niebędące akcją").
func (a Ability) IsAction() bool {
	switch a.ID {
	case AbNationalGoods, AbOnlyBases, AbOnlyVehicles:
		return false
	}
	return true
}

// ClassStats are the firepower and armour every card of an armoured class
// shares.
type ClassStats struct {
	Firepower int `yaml:"firepower" json:"firepower"`
	Armour    int `yaml:"armour" json:"armour"`
	// Assumed marks the class's values as the project's guess, not read
	// off the box's cards (docs/box.md; not game state, so not journalled).
	Assumed bool `yaml:"assumed" json:"-"`
}

// Vehicle is one vehicle card as the data file gives it. Firepower and
// Armour of an armoured class come from the class when left out.
type Vehicle struct {
	ID        string    `yaml:"id" json:"id"`
	Name      string    `yaml:"name" json:"name"`
	Nation    string    `yaml:"nation" json:"nation"`
	Class     string    `yaml:"class" json:"class"`
	Icon      string    `yaml:"icon" json:"icon,omitempty"`
	Cost      int       `yaml:"cost" json:"cost"`
	Resources int       `yaml:"resources" json:"resources"`
	Firepower *int      `yaml:"firepower" json:"firepower,omitempty"`
	Armour    *int      `yaml:"armour" json:"armour,omitempty"`
	Abilities []Ability `yaml:"abilities" json:"abilities,omitempty"`
	// Assumed marks a card the project had to guess, not yet read off the
	// box (docs/box.md; not game state, so not journalled).
	Assumed bool `yaml:"assumed" json:"-"`
}

// Nation is a nation of the game and its medal pile.
type Nation struct {
	ID      string     `yaml:"id" json:"id"`
	Name    rules.Text `yaml:"name" json:"name"`
	Medal   string     `yaml:"medal" json:"medal"`
	Tag     string     `yaml:"tag" json:"tag"`
	Singles int        `yaml:"singles" json:"singles"`
	Doubles int        `yaml:"doubles" json:"doubles"`
}

// BarracksKind is one kind of starting card (Koszary).
type BarracksKind struct {
	ID     string     `yaml:"id" json:"id"`
	Tag    string     `yaml:"tag" json:"tag"`
	Name   rules.Text `yaml:"name" json:"name"`
	PerSet int        `yaml:"per_set" json:"per_set"`
	// Resources is nil for a card without a resource symbol.
	Resources *int      `yaml:"resources" json:"resources,omitempty"`
	Abilities []Ability `yaml:"abilities" json:"abilities,omitempty"`
}

// BaseKind says how many bases a set has and what each is worth.
type BaseKind struct {
	Tag    string `yaml:"tag" json:"tag"`
	PerSet int    `yaml:"per_set" json:"per_set"`
	Points int    `yaml:"points" json:"points"`
}

// Achievement conditions: the player with the most of something.
const (
	MostBasesDestroyed = "bases_destroyed" // Zniszczone bazy
	MostClass          = "class"           // vehicles of Class in the squad
	MostMedals         = "medals"          // medals of Nation in the squad
	MostDoubleMedals   = "double_medals"   // Skomasowany atak: cards with two medals
	MostSquad          = "squad"           // Największy oddział: cards in the squad
)

// AchievementCard is one of the printed achievements.
type AchievementCard struct {
	ID     string     `yaml:"id" json:"id"`
	Name   rules.Text `yaml:"name" json:"name"`
	Most   string     `yaml:"most" json:"most"`
	Class  string     `yaml:"class" json:"class,omitempty"`
	Nation string     `yaml:"nation" json:"nation,omitempty"`
}

// Components is everything but the vehicles (components.yaml).
type Components struct {
	Sets              int               `yaml:"sets" json:"sets"`
	Nations           []Nation          `yaml:"nations" json:"nations"`
	Barracks          []BarracksKind    `yaml:"barracks" json:"barracks"`
	Bases             BaseKind          `yaml:"bases" json:"bases"`
	AchievementPoints int               `yaml:"achievement_points" json:"achievement_points"`
	HandSize          int               `yaml:"hand_size" json:"hand_size"`
	ReserveSize       int               `yaml:"reserve_size" json:"reserve_size"`
	Achievements      []AchievementCard `yaml:"achievements" json:"achievements"`
}

// Data is all the game data an engine runs with. It travels inside
// StartGame so a journal replays the same after the files are edited.
type Data struct {
	Assumed    bool                  `yaml:"assumed" json:"assumed,omitempty"`
	Classes    map[string]ClassStats `yaml:"classes" json:"classes"`
	Vehicles   []Vehicle             `yaml:"vehicles" json:"vehicles"`
	Components Components            `yaml:"-" json:"components"`
}

// Catalogue is Data checked and indexed.
type Catalogue struct {
	Data     Data
	Vehicles map[string]Vehicle
	Nations  map[string]Nation
}

//go:embed data/vehicles.yaml
var vehiclesYAML []byte

//go:embed data/components.yaml
var componentsYAML []byte

// Embedded file names, as errors name them.
const (
	VehiclesFile   = "vehicles.yaml"
	ComponentsFile = "components.yaml"
)

// DefaultFiles returns the embedded data files, for users who want to edit
// a copy.
func DefaultFiles() map[string][]byte {
	return map[string][]byte{VehiclesFile: slices.Clone(vehiclesYAML), ComponentsFile: slices.Clone(componentsYAML)}
}

// DefaultCatalogue parses the embedded data files.
func DefaultCatalogue() (*Catalogue, error) {
	return ParseCatalogue(VehiclesFile, vehiclesYAML, ComponentsFile, componentsYAML)
}

// entryError is a check that failed on one entry of a list; ParseCatalogue
// turns its index into a file line.
type entryError struct {
	file  string // VehiclesFile or ComponentsFile
	list  string // "vehicles", "nations", "barracks", "achievements"
	index int
	id    string
	err   error
}

func (e *entryError) Error() string {
	return fmt.Sprintf("%s[%d] %q: %v", e.list, e.index, e.id, e.err)
}

func (e *entryError) Unwrap() error { return e.err }

// ParseCatalogue parses a vehicles file and a components file (the formats
// of data/vehicles.yaml and data/components.yaml) and checks every entry.
// Errors start with "wotrush: FILE:LINE:" and name the entry.
func ParseCatalogue(vehiclesName string, vehicles []byte, componentsName string, components []byte) (*Catalogue, error) {
	var d Data
	if err := yamlsafe.Strict(vehicles, &d); err != nil {
		return nil, fmt.Errorf("wotrush: %s: %w", vehiclesName, err)
	}
	if err := yamlsafe.Strict(components, &d.Components); err != nil {
		return nil, fmt.Errorf("wotrush: %s: %w", componentsName, err)
	}
	cat, err := newCatalogue(d)
	if err != nil {
		var ee *entryError
		if errors.As(err, &ee) {
			name, data := vehiclesName, vehicles
			if ee.file == ComponentsFile {
				name, data = componentsName, components
			}
			line := yamlsafe.EntryLine(data, ee.list, ee.index)
			return nil, fmt.Errorf("wotrush: %s:%d: %w", name, line, ee)
		}
		return nil, fmt.Errorf("wotrush: %s, %s: %w", vehiclesName, componentsName, err)
	}
	return cat, nil
}

// NewCatalogue checks data (as StartGame carries it) and indexes it.
func NewCatalogue(d Data) (*Catalogue, error) {
	c, err := newCatalogue(d)
	if err != nil {
		return nil, fmt.Errorf("wotrush: %w", err)
	}
	return c, nil
}

func newCatalogue(d Data) (*Catalogue, error) {
	c := &Catalogue{Data: d, Vehicles: map[string]Vehicle{}, Nations: map[string]Nation{}}
	comp := d.Components
	switch {
	case comp.Sets < 2 || comp.Sets > 8:
		return nil, fmt.Errorf("%s: sets %d, want 2–8 (one per player)", ComponentsFile, comp.Sets)
	case comp.Bases.Tag == "" || comp.Bases.PerSet < 1 || comp.Bases.PerSet > 10 || comp.Bases.Points < 0:
		return nil, fmt.Errorf("%s: bases %+v: want a tag, per_set 1–10 and points ≥ 0", ComponentsFile, comp.Bases)
	case comp.AchievementPoints < 0:
		return nil, fmt.Errorf("%s: achievement_points %d", ComponentsFile, comp.AchievementPoints)
	case comp.HandSize < 1 || comp.HandSize > 10:
		return nil, fmt.Errorf("%s: hand_size %d, want 1–10", ComponentsFile, comp.HandSize)
	case comp.ReserveSize < 1 || comp.ReserveSize > 10:
		return nil, fmt.Errorf("%s: reserve_size %d, want 1–10", ComponentsFile, comp.ReserveSize)
	case len(comp.Nations) == 0:
		return nil, fmt.Errorf("%s: no nations", ComponentsFile)
	}
	tags := map[string]bool{comp.Bases.Tag: true}
	for i, n := range comp.Nations {
		bad := func(f string, args ...any) error {
			return &entryError{file: ComponentsFile, list: "nations", index: i, id: n.ID, err: fmt.Errorf(f, args...)}
		}
		switch {
		case n.ID == "" || n.Tag == "" || n.Medal == "":
			return nil, bad("needs id, tag and medal")
		case n.Name.PL == "" || n.Name.EN == "":
			return nil, bad("name needs pl and en")
		case n.Singles < 1 || n.Singles > 50 || n.Doubles < 0 || n.Doubles > 50:
			return nil, bad("singles %d, doubles %d: want 1–50 and 0–50", n.Singles, n.Doubles)
		case tags[n.Tag]:
			return nil, bad("tag %q used twice", n.Tag)
		}
		if _, dup := c.Nations[n.ID]; dup {
			return nil, bad("listed twice")
		}
		tags[n.Tag] = true
		c.Nations[n.ID] = n
	}
	if len(comp.Barracks) == 0 {
		return nil, fmt.Errorf("%s: no barracks", ComponentsFile)
	}
	seenB := map[string]bool{}
	for i, b := range comp.Barracks {
		bad := func(f string, args ...any) error {
			return &entryError{file: ComponentsFile, list: "barracks", index: i, id: b.ID, err: fmt.Errorf(f, args...)}
		}
		switch {
		case b.ID == "" || b.Tag == "":
			return nil, bad("needs id and tag")
		case b.Name.PL == "" || b.Name.EN == "":
			return nil, bad("name needs pl and en")
		case b.PerSet < 1 || b.PerSet > 20:
			return nil, bad("per_set %d, want 1–20", b.PerSet)
		case b.Resources != nil && (*b.Resources < 0 || *b.Resources > 6):
			return nil, bad("resources %d, want 0–6", *b.Resources)
		case tags[b.Tag] || seenB[b.ID]:
			return nil, bad("id or tag %q used twice", b.Tag)
		}
		tags[b.Tag], seenB[b.ID] = true, true
		if err := c.checkAbilities(b.Abilities, ""); err != nil {
			return nil, bad("%v", err)
		}
	}
	seenA := map[string]bool{}
	for i, a := range comp.Achievements {
		bad := func(f string, args ...any) error {
			return &entryError{file: ComponentsFile, list: "achievements", index: i, id: a.ID, err: fmt.Errorf(f, args...)}
		}
		if a.ID == "" || a.Name.PL == "" || a.Name.EN == "" {
			return nil, bad("needs id and a name in pl and en")
		}
		if seenA[a.ID] {
			return nil, bad("listed twice")
		}
		seenA[a.ID] = true
		switch a.Most {
		case MostClass:
			if !slices.Contains(Classes, a.Class) {
				return nil, bad("class %q, want one of %v", a.Class, Classes)
			}
		case MostMedals:
			if _, ok := c.Nations[a.Nation]; !ok {
				return nil, bad("nation %q is not under nations", a.Nation)
			}
		case MostBasesDestroyed, MostDoubleMedals, MostSquad:
		default:
			return nil, bad("most %q, want bases_destroyed, class, medals, double_medals or squad", a.Most)
		}
	}
	for cls, st := range d.Classes {
		if !slices.Contains(Classes[:4], cls) {
			return nil, fmt.Errorf("%s: classes: %q is not an armoured class (light, medium, spg, heavy)", VehiclesFile, cls)
		}
		if st.Firepower < 0 || st.Firepower > 2 || st.Armour < 0 || st.Armour > 2 {
			return nil, fmt.Errorf("%s: classes: %s: firepower %d, armour %d: want 0–2", VehiclesFile, cls, st.Firepower, st.Armour)
		}
	}
	if len(d.Vehicles) == 0 {
		return nil, fmt.Errorf("%s: no vehicles", VehiclesFile)
	}
	for i, v := range d.Vehicles {
		bad := func(f string, args ...any) error {
			return &entryError{file: VehiclesFile, list: "vehicles", index: i, id: v.ID, err: fmt.Errorf(f, args...)}
		}
		if v.ID == "" || v.Name == "" {
			return nil, bad("needs id and name")
		}
		if _, dup := c.Vehicles[v.ID]; dup {
			return nil, bad("listed twice")
		}
		if _, ok := c.Nations[v.Nation]; !ok {
			return nil, bad("nation %q is not under nations in %s", v.Nation, ComponentsFile)
		}
		if !slices.Contains(Classes, v.Class) {
			return nil, bad("class %q, want one of %v", v.Class, Classes)
		}
		switch {
		case v.Icon != "" && v.Class != ClassSPG:
			return nil, bad("icon %q on a %s: only self-propelled guns carry one", v.Icon, v.Class)
		case v.Class == ClassSPG && v.Icon != "tank_destroyer" && v.Icon != "artillery":
			return nil, bad("icon %q, want tank_destroyer or artillery", v.Icon)
		case v.Cost < 0 || v.Cost > 20:
			return nil, bad("cost %d, want 0–20", v.Cost)
		case v.Resources < 0 || v.Resources > 6:
			return nil, bad("resources %d, want 0–6", v.Resources)
		}
		if v.Class == ClassSupport {
			if v.Firepower == nil || v.Armour == nil {
				return nil, bad("a support unit needs its own firepower and armour")
			}
		} else {
			st, ok := d.Classes[v.Class]
			if !ok {
				return nil, bad("class %s has no firepower and armour under classes", v.Class)
			}
			if (v.Firepower != nil && *v.Firepower != st.Firepower) || (v.Armour != nil && *v.Armour != st.Armour) {
				return nil, bad("every %s shares firepower %d and armour %d", v.Class, st.Firepower, st.Armour)
			}
			fp, ar := st.Firepower, st.Armour
			v.Firepower, v.Armour = &fp, &ar
		}
		if *v.Firepower < 0 || *v.Firepower > 2 || *v.Armour < 0 || *v.Armour > 2 {
			return nil, bad("firepower %d, armour %d: want 0–2", *v.Firepower, *v.Armour)
		}
		if err := c.checkAbilities(v.Abilities, v.Nation); err != nil {
			return nil, bad("%v", err)
		}
		if hasAbility(v.Abilities, AbOnlyBases) && hasAbility(v.Abilities, AbOnlyVehicles) {
			return nil, bad("only_bases and only_vehicles together: the card could attack nothing")
		}
		c.Vehicles[v.ID] = v
	}
	return c, nil
}

func (c *Catalogue) checkAbilities(abs []Ability, nation string) error {
	seen := map[string]bool{}
	for _, a := range abs {
		if !slices.Contains(abilityIDs, a.ID) {
			return fmt.Errorf("ability %q, want one of %v", a.ID, abilityIDs)
		}
		if seen[a.ID] {
			return fmt.Errorf("ability %s twice", a.ID)
		}
		seen[a.ID] = true
		switch a.ID {
		case AbReinforcements:
			if a.N < 1 || a.N > 5 {
				return fmt.Errorf("reinforcements n %d, want 1–5", a.N)
			}
		case AbResearch:
			if a.N < 0 || a.N > 20 {
				return fmt.Errorf("research n %d, want 0–20", a.N)
			}
		case AbDismantle:
			if a.N < 1 || a.N > 2 {
				return fmt.Errorf("dismantle n %d, want 1–2 (\"jedną lub dwie karty\")", a.N)
			}
		default:
			if a.N != 0 {
				return fmt.Errorf("ability %s takes no n", a.ID)
			}
		}
		if a.Nation != "" {
			if a.ID != AbNationalGoods {
				return fmt.Errorf("ability %s takes no nation", a.ID)
			}
			if _, ok := c.Nations[a.Nation]; !ok {
				return fmt.Errorf("national_goods nation %q is not under nations", a.Nation)
			}
		}
		if a.ID == AbNationalGoods && a.Nation == "" && nation == "" {
			return fmt.Errorf("national_goods needs a nation")
		}
	}
	return nil
}

func hasAbility(abs []Ability, id string) bool {
	for _, a := range abs {
		if a.ID == id {
			return true
		}
	}
	return false
}
