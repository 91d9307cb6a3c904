// Package bitwa is the rules engine of "Bitwa Warszawska", the card game of
// three fronts for two, three (two allies sharing a deck against one) and
// four players (two against two). It is pure: Apply takes a state and an
// action and returns the next state and the events, or a *rules.Rejection
// and the state unchanged. Dice and the deck orders are inputs (Roll
// actions, StartGame.Decks or its Seed), so a journal replays byte for
// byte. It does no I/O; its data files are embedded and parsed from bytes.
package bitwa

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
)

// Armies.
const (
	WP  = "wp"  // Wojsko Polskie
	ACz = "acz" // Armia Czerwona
)

// Armies lists the two armies.
var Armies = []string{WP, ACz}

// Enemy is the other army.
func Enemy(army string) string {
	if army == WP {
		return ACz
	}
	return WP
}

// Card kinds.
const (
	KindUnit      = "unit"      // karta Oddziału
	KindCommander = "commander" // karta Dowódcy
	KindOrder     = "order"     // karta Rozkazu
)

// Fronts, north to south.
const (
	North   = "N"
	Central = "C"
	South   = "S"
)

// Fronts lists the fronts in the order their battles are fought.
var Fronts = []string{North, Central, South}

// Front sets a card or an effect may name: one front, a pair, any, or
// "this" (the front of the card; the default on effects).
var frontSets = map[string][]string{
	"N": {North}, "C": {Central}, "S": {South},
	"NC": {North, Central}, "CS": {Central, South}, "NS": {North, South},
	"any": {North, Central, South},
}

// FrontSet returns the fronts a front set names; nil for an unknown set.
func FrontSet(set string) []string {
	if set == "" {
		set = "any"
	}
	return frontSets[set]
}

// Effect kinds: the rulebook's symbol legend ("Na kartach znajdują się
// następujące symbole").
const (
	DoStrength   = "strength"    // Siła Armii ±N
	DoMove       = "move"        // Liczba poruszanych Oddziałów
	DoAdd        = "add"         // Liczba Oddziałów (from the Reserve)
	DoAdvanceAll = "advance_all" // Przeniesienie wszystkich Oddziałów (2LF → 1LF)
	DoRemove     = "remove"      // Usunięcie Oddziału (of the enemy)
	DoBattle     = "battle"      // Rozpoczęcie Bitwy
	DoAgain      = "again"       // Ponowne wykonanie akcji
	DoBlock      = "block"       // Blokada karty Dowódcy / pola Dowódcy / pola Rozkazu
)

// EffectKinds lists every effect kind.
var EffectKinds = []string{DoStrength, DoMove, DoAdd, DoAdvanceAll, DoRemove, DoBattle, DoAgain, DoBlock}

// Blockade placements ("Znacznik Blokady można położyć w poniższych
// miejscach"), and the fields a card's block effect may block.
const (
	BlockLine1          = "line1"           // 🅰 no units may be added to that 1st line
	BlockLine2          = "line2"           // 🅱 no moves between fronts, on every front
	BlockCommanderCard  = "commander_card"  // 🅲 the commander's ability cannot be used
	BlockCommanderField = "commander_field" // 🅳 no commander card may be laid there
	BlockOrderField     = "order_field"     // 🅴 no order card may be laid there
)

// BlockPlaces lists the five blockade placements.
var BlockPlaces = []string{BlockLine1, BlockLine2, BlockCommanderCard, BlockCommanderField, BlockOrderField}

// Cond is the condition of an effect; every field set must hold.
type Cond struct {
	// Units: "fewer" or "more" units (both lines) on this front than the enemy.
	Units string `yaml:"units" json:"units,omitempty"`
	// Min: at least Min own units on line Line (0 = both lines) of this front.
	Min  int `yaml:"min" json:"min,omitempty"`
	Line int `yaml:"line" json:"line,omitempty"`
	// On: the card lies on one of these fronts (a front set).
	On string `yaml:"on" json:"on,omitempty"`
}

// Per multiplies an effect's N by every Each own units on line Line (0 =
// both) of this front, rounded down ("za każde twoje 3 Oddziały").
type Per struct {
	Each int `yaml:"each" json:"each"`
	Line int `yaml:"line" json:"line,omitempty"`
}

// Effect is one effect of a card in the effect language (see the header
// of data/cards.yaml).
type Effect struct {
	Do       string `yaml:"do" json:"do"`
	N        int    `yaml:"n" json:"n,omitempty"`
	Line     int    `yaml:"line" json:"line,omitempty"`
	FromLine int    `yaml:"from_line" json:"from_line,omitempty"`
	ToLine   int    `yaml:"to_line" json:"to_line,omitempty"`
	// Front: "" or "this" is the card's front; for move it restricts both
	// ends of every move ("" = any front, "this" = only the card's front).
	Front    string `yaml:"front" json:"front,omitempty"`
	Target   string `yaml:"target" json:"target,omitempty"`
	When     string `yaml:"when" json:"when,omitempty"`
	Optional bool   `yaml:"optional" json:"optional,omitempty"`
	If       *Cond  `yaml:"if" json:"if,omitempty"`
	Per      *Per   `yaml:"per" json:"per,omitempty"`
}

// WhenBattle marks an effect acting at the start of the battle ("W etapie
// Bitwy", "na początku Bitwy").
const WhenBattle = "battle"

// Card is one card of an army deck.
type Card struct {
	ID   string `yaml:"id" json:"id"`
	Army string `yaml:"army" json:"army"`
	Kind string `yaml:"kind" json:"kind"`
	// Name and Text are as printed (Polish); NameEN and TextEN their
	// English, optional (a club's pack enrols the Polish print): see
	// Names and Texts.
	Name   string `yaml:"name" json:"name"`
	NameEN string `yaml:"name_en" json:"name_en,omitempty"`
	Text   string `yaml:"text" json:"text"`
	TextEN string `yaml:"text_en" json:"text_en,omitempty"`
	Note   string `yaml:"note" json:"note,omitempty"`
	Front  string `yaml:"front" json:"front,omitempty"`
	Limit  int    `yaml:"limit" json:"limit,omitempty"`
	// Assumed: the card is not printed in the rulebook; this project wrote it.
	Assumed bool `yaml:"assumed" json:"assumed,omitempty"`
	// AssumedFields: fields of a printed card the rulebook's text lost.
	AssumedFields []string   `yaml:"assumed_fields" json:"assumed_fields,omitempty"`
	Effects       []Effect   `yaml:"effects" json:"effects,omitempty"`
	Choose        [][]Effect `yaml:"choose" json:"choose,omitempty"`
}

// Names is the card's name in both languages: the English is the Polish
// as printed when the data has none.
func (c Card) Names() rules.Text { return rules.Text{PL: c.Name, EN: or(c.NameEN, c.Name)} }

// Texts is the card's text in both languages, as Names.
func (c Card) Texts() rules.Text { return rules.Text{PL: c.Text, EN: or(c.TextEN, c.Text)} }

func or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

// Options returns the card's alternatives: a commander's "lub" choices, or
// one alternative holding all of the effects.
func (c Card) Options() [][]Effect {
	if len(c.Choose) > 0 {
		return c.Choose
	}
	return [][]Effect{c.Effects}
}

// Fronts returns the fronts the card may go to (units: where the units go;
// commanders and orders: the fields they may be laid on).
func (c Card) Fronts() []string { return FrontSet(c.Front) }

// Name2 is a name in two languages.
type Name2 = rules.Text

// ArmyComp is an army's components.
type ArmyComp struct {
	ID            string         `yaml:"id" json:"id"`
	Name          Name2          `yaml:"name" json:"name"`
	Units         int            `yaml:"units" json:"units"`
	EffectMarkers int            `yaml:"effect_markers" json:"effect_markers"`
	Blockade      string         `yaml:"blockade" json:"blockade"`
	Deck          map[string]int `yaml:"deck" json:"deck"`
}

// FrontComp is a front of the board.
type FrontComp struct {
	ID   string `yaml:"id" json:"id"`
	Name Name2  `yaml:"name" json:"name"`
	Die  int    `yaml:"die" json:"die"`
}

// Face is one face of a resource card: what the army it is turned to gets.
type Face struct {
	Hands      []int `yaml:"hands" json:"hands,omitempty"`
	Initiative bool  `yaml:"initiative" json:"initiative,omitempty"`
	Units      int   `yaml:"units" json:"units,omitempty"`
	Special    bool  `yaml:"special" json:"special,omitempty"`
}

// Resource is a resource card and its two faces per player count.
type Resource struct {
	ID    string             `yaml:"id" json:"id"`
	Name  Name2              `yaml:"name" json:"name"`
	Faces map[string][2]Face `yaml:"faces" json:"faces"`
	// Assumed: the rulebook does not print every face (a box pack lists
	// it as still assumed; not game state, so not in the journal).
	Assumed bool `yaml:"assumed" json:"-"`
}

// Resource card ids, in the order they are resolved.
const (
	ResFunds   = "funds"   // Fundusze (I)
	ResSupply  = "supply"  // Zaopatrzenie (II)
	ResSupport = "support" // Poparcie społeczne (III)
)

// ResourceIDs lists the resource cards in their order.
var ResourceIDs = []string{ResFunds, ResSupply, ResSupport}

// FirstHands are the round-1 hand sizes.
type FirstHands struct {
	Two  int `yaml:"two" json:"two"`   // 2 players: each
	Ally int `yaml:"ally" json:"ally"` // 3 players: each of the two allies
	Lone int `yaml:"lone" json:"lone"` // 3 players: the lone player
	Four int `yaml:"four" json:"four"` // 4 players: each
}

// Components is everything but the cards (components.yaml).
type Components struct {
	Armies           []ArmyComp  `yaml:"armies" json:"armies"`
	Fronts           []FrontComp `yaml:"fronts" json:"fronts"`
	SecondLineLimit  int         `yaml:"second_line_limit" json:"second_line_limit"`
	StartSecondLine  int         `yaml:"start_second_line" json:"start_second_line"`
	VPToWin          int         `yaml:"vp_to_win" json:"vp_to_win"`
	Rounds           int         `yaml:"rounds" json:"rounds"`
	AdvantageMarkers int         `yaml:"advantage_markers" json:"advantage_markers"`
	StrengthMarkers  int         `yaml:"strength_markers" json:"strength_markers"`
	InitiativeTokens int         `yaml:"initiative_tokens" json:"initiative_tokens"`
	SpecialBlockade  string      `yaml:"special_blockade" json:"special_blockade"`
	FirstHands       FirstHands  `yaml:"first_hands" json:"first_hands"`
	Resources        []Resource  `yaml:"resources" json:"resources"`
}

// Data is all the game data an engine runs with. It travels inside
// StartGame so a journal replays the same after the files are edited.
type Data struct {
	Cards      []Card     `yaml:"cards" json:"cards"`
	Components Components `yaml:"-" json:"components"`
}

// Catalogue is Data checked and indexed.
type Catalogue struct {
	Data      Data
	Cards     map[string]Card
	Armies    map[string]ArmyComp
	Resources map[string]Resource
}

//go:embed data/cards.yaml
var cardsYAML []byte

//go:embed data/components.yaml
var componentsYAML []byte

// Embedded file names, as errors name them.
const (
	CardsFile      = "cards.yaml"
	ComponentsFile = "components.yaml"
)

// DefaultFiles returns the embedded data files, for users who want to edit
// a copy.
func DefaultFiles() map[string][]byte {
	return map[string][]byte{CardsFile: slices.Clone(cardsYAML), ComponentsFile: slices.Clone(componentsYAML)}
}

// DefaultCatalogue parses the embedded data files.
func DefaultCatalogue() (*Catalogue, error) {
	return ParseCatalogue(CardsFile, cardsYAML, ComponentsFile, componentsYAML)
}

// entryError is a check that failed on one entry of a list; ParseCatalogue
// turns its index into a file line.
type entryError struct {
	file  string
	list  string
	index int
	id    string
	err   error
}

func (e *entryError) Error() string {
	return fmt.Sprintf("%s[%d] %q: %v", e.list, e.index, e.id, e.err)
}

func (e *entryError) Unwrap() error { return e.err }

// ParseCatalogue parses a cards file and a components file (the formats of
// data/cards.yaml and data/components.yaml) and checks every entry. Errors
// start with "bitwa: FILE:LINE:" and name the card.
func ParseCatalogue(cardsName string, cards []byte, componentsName string, components []byte) (*Catalogue, error) {
	var d Data
	if err := yamlsafe.Strict(cards, &d); err != nil {
		return nil, fmt.Errorf("bitwa: %s: %w", cardsName, err)
	}
	if err := yamlsafe.Strict(components, &d.Components); err != nil {
		return nil, fmt.Errorf("bitwa: %s: %w", componentsName, err)
	}
	cat, err := newCatalogue(d)
	if err != nil {
		var ee *entryError
		if errors.As(err, &ee) {
			name, data := cardsName, cards
			if ee.file == ComponentsFile {
				name, data = componentsName, components
			}
			return nil, fmt.Errorf("bitwa: %s:%d: %w", name, yamlsafe.EntryLine(data, ee.list, ee.index), ee)
		}
		return nil, fmt.Errorf("bitwa: %s, %s: %w", cardsName, componentsName, err)
	}
	return cat, nil
}

// NewCatalogue checks data (as StartGame carries it) and indexes it.
func NewCatalogue(d Data) (*Catalogue, error) {
	c, err := newCatalogue(d)
	if err != nil {
		return nil, fmt.Errorf("bitwa: %w", err)
	}
	return c, nil
}

func newCatalogue(d Data) (*Catalogue, error) {
	c := &Catalogue{Data: d, Cards: map[string]Card{}, Armies: map[string]ArmyComp{}, Resources: map[string]Resource{}}
	comp := d.Components
	switch {
	case comp.SecondLineLimit < 1 || comp.SecondLineLimit > 21:
		return nil, fmt.Errorf("%s: second_line_limit %d, want 1–21", ComponentsFile, comp.SecondLineLimit)
	case comp.StartSecondLine < 0 || comp.StartSecondLine > comp.SecondLineLimit:
		return nil, fmt.Errorf("%s: start_second_line %d, want 0–%d", ComponentsFile, comp.StartSecondLine, comp.SecondLineLimit)
	case comp.VPToWin < 1 || comp.VPToWin > 50:
		return nil, fmt.Errorf("%s: vp_to_win %d, want 1–50", ComponentsFile, comp.VPToWin)
	case comp.Rounds < 1 || comp.Rounds > 50:
		return nil, fmt.Errorf("%s: rounds %d, want 1–50", ComponentsFile, comp.Rounds)
	case comp.AdvantageMarkers != 3:
		return nil, fmt.Errorf("%s: advantage_markers %d, want 3 (one per front)", ComponentsFile, comp.AdvantageMarkers)
	case comp.InitiativeTokens != 4:
		return nil, fmt.Errorf("%s: initiative_tokens %d, want 4", ComponentsFile, comp.InitiativeTokens)
	case comp.SpecialBlockade == "":
		return nil, fmt.Errorf("%s: no special_blockade", ComponentsFile)
	case len(comp.Armies) != 2:
		return nil, fmt.Errorf("%s: %d armies, want wp and acz", ComponentsFile, len(comp.Armies))
	case len(comp.Fronts) != 3:
		return nil, fmt.Errorf("%s: %d fronts, want N, C and S", ComponentsFile, len(comp.Fronts))
	}
	fh := comp.FirstHands
	for _, n := range []int{fh.Two, fh.Ally, fh.Lone, fh.Four} {
		if n < 1 || n > 20 {
			return nil, fmt.Errorf("%s: first_hands %+v: want 1–20 each", ComponentsFile, fh)
		}
	}
	for i, f := range comp.Fronts {
		if f.ID != Fronts[i] || f.Die != i+1 {
			return nil, &entryError{file: ComponentsFile, list: "fronts", index: i, id: f.ID, err: fmt.Errorf("want %s with die %d", Fronts[i], i+1)}
		}
	}
	for i, a := range comp.Armies {
		bad := func(f string, args ...any) error {
			return &entryError{file: ComponentsFile, list: "armies", index: i, id: a.ID, err: fmt.Errorf(f, args...)}
		}
		switch {
		case a.ID != WP && a.ID != ACz:
			return nil, bad("army id must be wp or acz")
		case c.Armies[a.ID].ID != "":
			return nil, bad("army listed twice")
		case a.Units < 3*comp.StartSecondLine || a.Units > 99:
			return nil, bad("units %d, want %d–99", a.Units, 3*comp.StartSecondLine)
		case a.EffectMarkers < 1 || a.EffectMarkers > 3:
			return nil, bad("effect_markers %d, want 1–3", a.EffectMarkers)
		case a.Blockade == "" || a.Blockade == comp.SpecialBlockade:
			return nil, bad("blockade %q: want its own marker id", a.Blockade)
		}
		for k := range a.Deck {
			if k != KindUnit && k != KindCommander && k != KindOrder {
				return nil, bad("deck: unknown kind %q", k)
			}
		}
		c.Armies[a.ID] = a
	}
	for i, r := range comp.Resources {
		bad := func(f string, args ...any) error {
			return &entryError{file: ComponentsFile, list: "resources", index: i, id: r.ID, err: fmt.Errorf(f, args...)}
		}
		if i >= len(ResourceIDs) || r.ID != ResourceIDs[i] {
			return nil, bad("want the resources funds, supply, support in that order")
		}
		for n := 2; n <= 4; n++ {
			faces, ok := r.Faces[strconv.Itoa(n)]
			if !ok {
				return nil, bad("no faces for %d players", n)
			}
			for _, f := range faces {
				for _, h := range f.Hands {
					if h < 0 || h > 20 {
						return nil, bad("%d players: hand limit %d, want 0–20", n, h)
					}
				}
				if len(f.Hands) > 2 || f.Units < 0 || f.Units > 21 {
					return nil, bad("%d players: face %+v: at most two hand limits, units 0–21", n, f)
				}
				if r.ID == ResFunds && len(f.Hands) == 0 {
					return nil, bad("%d players: a funds face needs hand limits", n)
				}
			}
		}
		c.Resources[r.ID] = r
	}
	if len(c.Resources) != len(ResourceIDs) {
		return nil, fmt.Errorf("%s: want the resources funds, supply, support", ComponentsFile)
	}
	count := map[string]map[string]int{WP: {}, ACz: {}}
	for i, card := range d.Cards {
		if err := checkCard(card, c.Cards); err != nil {
			return nil, &entryError{file: CardsFile, list: "cards", index: i, id: card.ID, err: err}
		}
		c.Cards[card.ID] = card
		count[card.Army][card.Kind]++
	}
	for _, a := range comp.Armies {
		for _, k := range []string{KindUnit, KindCommander, KindOrder} {
			if count[a.ID][k] != a.Deck[k] {
				return nil, fmt.Errorf("%s: army %s has %d %s cards, %s says %d", CardsFile, a.ID, count[a.ID][k], k, ComponentsFile, a.Deck[k])
			}
		}
	}
	return c, nil
}

func checkCard(card Card, seen map[string]Card) error {
	switch {
	case card.ID == "":
		return fmt.Errorf("no id")
	case seen[card.ID].ID != "":
		return fmt.Errorf("id listed twice")
	case card.Army != WP && card.Army != ACz:
		return fmt.Errorf("army %q, want wp or acz", card.Army)
	case card.Kind != KindUnit && card.Kind != KindCommander && card.Kind != KindOrder:
		return fmt.Errorf("kind %q, want unit, commander or order", card.Kind)
	case card.Name == "":
		return fmt.Errorf("no name")
	case card.TextEN != "" && card.Text == "":
		return fmt.Errorf("text_en but no text (the Polish as printed)")
	case FrontSet(card.Front) == nil:
		return fmt.Errorf("front %q, want N, C, S, NC, CS, NS or any", card.Front)
	case len(card.Effects) > 0 && len(card.Choose) > 0:
		return fmt.Errorf("both effects and choose: a card has one or the other")
	case len(card.Effects) == 0 && len(card.Choose) == 0:
		return fmt.Errorf("no effects")
	case len(card.Choose) > 0 && card.Kind != KindCommander:
		return fmt.Errorf("choose is for commanders (one of two effects); a %s does all of its effects", card.Kind)
	case card.Kind == KindCommander && (card.Limit < 1 || card.Limit > 21):
		return fmt.Errorf("commander limit %d, want 1–21 (its 2nd-line limit)", card.Limit)
	case card.Kind != KindCommander && card.Limit != 0:
		return fmt.Errorf("limit is for commanders")
	case card.Kind == KindUnit && (card.Front == "" || card.Front == "this"):
		return fmt.Errorf("a unit card names its front (N, C, S, a pair or any)")
	}
	for _, f := range card.AssumedFields {
		if f != "limit" && f != "effects" && f != "front" && f != "army" {
			return fmt.Errorf("assumed_fields: unknown field %q", f)
		}
	}
	for oi, opt := range card.Options() {
		if len(opt) == 0 {
			return fmt.Errorf("choose[%d]: no effects", oi)
		}
		for ei, e := range opt {
			if err := checkEffect(e); err != nil {
				return fmt.Errorf("effect %d.%d (%s): %w", oi+1, ei+1, e.Do, err)
			}
		}
	}
	return nil
}

func checkEffect(e Effect) error {
	if !slices.Contains(EffectKinds, e.Do) {
		return fmt.Errorf("unknown effect %q, want one of %v", e.Do, EffectKinds)
	}
	line := func(l int) bool { return l >= 0 && l <= 2 }
	switch {
	case e.N < -10 || e.N > 21:
		return fmt.Errorf("n %d out of range -10–21", e.N)
	case !line(e.Line) || !line(e.FromLine) || !line(e.ToLine):
		return fmt.Errorf("lines are 1, 2 or 0 (either)")
	case e.Front != "" && e.Front != "this" && FrontSet(e.Front) == nil:
		return fmt.Errorf("front %q", e.Front)
	case e.When != "" && e.When != WhenBattle:
		return fmt.Errorf("when %q, want battle or nothing", e.When)
	case e.When == WhenBattle && e.Do != DoStrength && e.Do != DoAdvanceAll:
		return fmt.Errorf("only strength and advance_all act in the battle stage")
	}
	switch e.Do {
	case DoStrength:
		if e.N == 0 {
			return fmt.Errorf("strength needs n")
		}
	case DoMove, DoRemove:
		if e.N < 1 {
			return fmt.Errorf("%s needs n ≥ 1", e.Do)
		}
	case DoAdd:
		if e.N < 1 || e.Line == 0 {
			return fmt.Errorf("add needs n ≥ 1 and line 1 or 2")
		}
	case DoBlock:
		if e.Target != BlockCommanderCard && e.Target != BlockCommanderField && e.Target != BlockOrderField {
			return fmt.Errorf("block target %q, want commander_card, commander_field or order_field", e.Target)
		}
	}
	if e.Do != DoBlock && e.Target != "" {
		return fmt.Errorf("target is for block")
	}
	if c := e.If; c != nil {
		switch {
		case c.Units != "" && c.Units != "fewer" && c.Units != "more":
			return fmt.Errorf("if.units %q, want fewer or more", c.Units)
		case c.Min < 0 || c.Min > 21 || !line(c.Line):
			return fmt.Errorf("if.min 0–21, if.line 0–2")
		case c.On != "" && FrontSet(c.On) == nil:
			return fmt.Errorf("if.on %q", c.On)
		case c.Units == "" && c.Min == 0 && c.On == "":
			return fmt.Errorf("empty condition")
		}
	}
	if p := e.Per; p != nil && (p.Each < 1 || p.Each > 21 || !line(p.Line)) {
		return fmt.Errorf("per: each 1–21, line 0–2")
	}
	return nil
}

// frontName is the front's name in both languages.
func (c *Catalogue) frontName(f string) Name2 {
	for _, fc := range c.Data.Components.Fronts {
		if fc.ID == f {
			return fc.Name
		}
	}
	return Name2{PL: f, EN: f}
}
