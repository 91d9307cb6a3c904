package west1920

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
)

// Stages is the length of the game (2.1).
const Stages = 14

// StackLimit is the most friendly combat units on a hex (1.2).
const StackLimit = 4

// Phase is where a stage is (2.1), in order.
type Phase string

const (
	PhaseEvents        Phase = "events"         // 3.x
	PhaseResources     Phase = "resources"      // 4.0
	PhaseDepots        Phase = "depots"         // 5.x
	PhaseChits         Phase = "chits"          // 7.1, first part (after the 6.0 supply check)
	PhaseOrders        Phase = "orders"         // 7.1, second part
	PhaseHQ            Phase = "hq"             // 8.0
	PhaseWithdrawal    Phase = "withdrawal"     // 9.1
	PhaseCombat        Phase = "combat"         // 9.2–9.7
	PhaseReplacement   Phase = "replacement"    // 10.0
	PhaseStrategic     Phase = "strategic"      // 11.x
	PhaseReinforcement Phase = "reinforcements" // 12.0
	PhaseOver          Phase = "over"
)

// Unit statuses.
const (
	OnMap      = ""           // on the map
	Waiting    = "waiting"    // not yet arrived (12.0, card 2)
	Eliminated = "eliminated" // out of the game (may return with card 37)
	Interned   = "interned"   // entered a neutral country (1.3, 13.5)
	Prussia    = "prussia"    // Russian unit in East Prussia, back in Smolensk later (13.5)
	OffMap     = "off_map"    // an HQ removed by 9.6, back next Reinforcement phase
)

// Unit is one combat unit's counter.
type Unit struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Side     string `json:"side"`
	Nation   string `json:"nation"`
	Type     string `json:"type"`
	Hex      Hex    `json:"hex,omitempty"`
	Facing   string `json:"facing,omitempty"`
	Weak     bool   `json:"weak,omitempty"`
	OneSided bool   `json:"one_sided,omitempty"`
	Full     [2]int `json:"full"`
	WeakCF   [2]int `json:"weak_cf"`
	Status   string `json:"status,omitempty"`
	Return   int    `json:"return_stage,omitempty"`
	// This stage / phase.
	Ordered    bool `json:"ordered,omitempty"`    // carried out an order (7.2)
	Moved      bool `json:"moved,omitempty"`      // moved this phase (7.4, 11.2)
	Attacked   bool `json:"attacked,omitempty"`   // attacked (9.2)
	Fought     bool `json:"fought,omitempty"`     // fought (9.3, fifth point)
	Routed     bool `json:"routed,omitempty"`     // won under 9.5c (exempt from the −1 of 9.3)
	Again      bool `json:"again,omitempty"`      // entered the hex vacated after 9.5c: may attack again
	Strategic  bool `json:"strategic,omitempty"`  // moved strategically (11.2)
	Unsupplied bool `json:"unsupplied,omitempty"` // began the movement phase unsupplied (7.3, 7.4)
}

// HQ is one HQ counter.
type HQ struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Side   string `json:"side"`
	Nation string `json:"nation"`
	Zone   string `json:"zone,omitempty"`
	Hex    Hex    `json:"hex,omitempty"`
	Status string `json:"status,omitempty"`
	From   Hex    `json:"from,omitempty"` // where 9.6 removed it
	Return int    `json:"return_stage,omitempty"`
	Moved  bool   `json:"moved,omitempty"`
	// Strategic: moved strategically this stage (11.1, 11.2).
	Strategic bool `json:"strategic,omitempty"`
}

// Depot is a depot counter (5.x). Stage is when it was set up.
type Depot struct {
	Hex   Hex    `json:"hex"`
	Side  string `json:"side"`
	Stage int    `json:"stage"`
}

// Chit is an activation chit on a stack (7.1); Cost is what it was paid.
type Chit struct {
	Side string `json:"side"`
	Hex  Hex    `json:"hex"`
	Cost int    `json:"cost"`
}

// Player is one side's track.
type Player struct {
	Side string `json:"side"`
	Hand []int  `json:"hand"`
	// HandSize is set in a View that hides the hand.
	HandSize int `json:"hand_size,omitempty"`
	Played   int `json:"played,omitempty"`
	// Resource points (4.0): base, white − red, cards, total, spent.
	BaseRP  int  `json:"base_rp"`
	Dice    int  `json:"dice"`
	CardRP  int  `json:"card_rp"`
	TotalRP int  `json:"total_rp"`
	Spent   int  `json:"spent"`
	Rolled  bool `json:"rolled,omitempty"`
	Passed  bool `json:"passed,omitempty"`
	// 5.4: one voluntary removal a phase.
	Removed bool `json:"removed,omitempty"`
	// 11.2: strategic moves made and allowed.
	StratMoves int `json:"strat_moves,omitempty"`
	StratLimit int `json:"strat_limit"`
}

// RP is what is left to spend.
func (p Player) RP() int { return p.TotalRP - p.Spent }

// CardEffect is an instruction of a card played this stage, in force until
// the end of the stage (or used up, for one-combat bonuses).
type CardEffect struct {
	Card   int    `json:"card"`
	Player string `json:"player"` // who played the card
	Effect Effect `json:"effect"`
	Used   int    `json:"used,omitempty"`
	// Hexes are the stacks chosen for card 21 (no chit there, 7.1).
	Hexes []string `json:"hexes,omitempty"`
	// Units took one of card 31's orders after combat (Polish column).
	Units []string `json:"units,omitempty"`
}

// Pending is a decision the engine waits for: who answers (Side; "" for a
// roll made by both players, e.g. the combat dice), which action, how many
// dice, the legal answers where they are few, and the odds of a roll.
type Pending struct {
	Kind    string     `json:"kind"`
	Action  string     `json:"action"`
	Side    string     `json:"side,omitempty"`
	Dice    int        `json:"dice,omitempty"`
	N       int        `json:"n,omitempty"`
	Options []string   `json:"options,omitempty"`
	Hex     Hex        `json:"hex,omitempty"`   // the hex the decision is about (a vacated hex, 9.1)
	Role    string     `json:"role,omitempty"`  // whose losses: attacker or defender (9.4)
	Unit    string     `json:"unit,omitempty"`  // the unit to place or retreat (cards, 9.6, 12.0)
	UpTo    bool       `json:"up_to,omitempty"` // a choice of at most N (card 37)
	Text    rules.Text `json:"text"`
	Odds    *Odds      `json:"odds,omitempty"`
}

// Odds is shown before a roll: the exact distribution of what it decides.
type Odds struct {
	// Fail is the chance an activation order fails (7.2).
	Fail *float64 `json:"fail,omitempty"`
	// RP is total RP → probability (4.0).
	RP map[string]float64 `json:"rp,omitempty"`
	// Combat is the combat's exact outcome distribution (9.3–9.5).
	Combat *CombatOdds `json:"combat,omitempty"`
	// Coordinated gives the 9.2 coordination roll's branches.
	Coordinated *CoordinatedOdds `json:"coordinated,omitempty"`
}

// Battle is the combat being resolved.
type Battle struct {
	Side      string         `json:"side"` // the attacker
	From      Hex            `json:"from"`
	Target    Hex            `json:"target"`
	Support   Hex            `json:"support,omitempty"`
	Supported bool           `json:"supported,omitempty"`
	Attackers []string       `json:"attackers"`
	Defenders []string       `json:"defenders"`
	AttCF     int            `json:"att_cf"`
	DefCF     int            `json:"def_cf"`
	SupportCF int            `json:"support_cf,omitempty"`
	Outcome   *CombatOutcome `json:"outcome,omitempty"`
	// Steps still to do: losses for each side, retreat, pursuit.
	AttLosses int     `json:"att_losses,omitempty"`
	DefLosses int     `json:"def_losses,omitempty"`
	Loser     string  `json:"loser,omitempty"`
	Retreated bool    `json:"retreated,omitempty"`
	Bonuses   []Bonus `json:"bonuses,omitempty"`
	// Supporters are the supporting stack's units (9.2; card bonuses).
	Supporters []string `json:"supporters,omitempty"`
	// BonusAsked: the defender's card_bonus decision was offered (9.3).
	BonusAsked bool `json:"bonus_asked,omitempty"`
}

// Move is an order waiting for its activation roll or attrition rolls.
type Move struct {
	Order   Order    `json:"order"`
	Cavalry []string `json:"cavalry,omitempty"` // cavalry that moved five hexes (7.4)
}

// State is a whole game: plain data, JSON-serialisable, copied by Apply.
type State struct {
	Phase   Phase    `json:"phase"`
	Stage   int      `json:"stage"`
	Options Options  `json:"options"`
	Players []Player `json:"players"` // Polish, Russian
	Units   []Unit   `json:"units"`
	HQs     []HQ     `json:"hqs"`
	Depots  []Depot  `json:"depots"`
	Chits   []Chit   `json:"chits,omitempty"`
	// Deck is the event cards not drawn or discarded; Discards the used ones.
	Deck     []int        `json:"deck"`
	DeckSize int          `json:"deck_size,omitempty"` // set in a View that hides the deck
	Discards []int        `json:"discards,omitempty"`
	Effects  []CardEffect `json:"effects,omitempty"`
	// CardTasks are card instructions carried out at once that wait for a
	// choice, roll, placement or retreat (3.2), first first.
	CardTasks []CardTask `json:"card_tasks,omitempty"`
	// Arrivals wait to be placed in the reinforcement phase (12.0, 9.6, 13.5).
	Arrivals []Arrival `json:"arrivals,omitempty"`
	// Turn is whose move it is in an alternating phase.
	Turn      string   `json:"turn,omitempty"`
	Pending   *Pending `json:"pending,omitempty"`
	Battle    *Battle  `json:"battle,omitempty"`
	Move      *Move    `json:"move,omitempty"`
	Lithuania bool     `json:"lithuania_at_war,omitempty"`
	// Control: victory city hex → the side whose combat units held it last
	// (2.2; only under the option city_control: last).
	Control map[Hex]string `json:"control,omitempty"`
	Winner  string         `json:"winner,omitempty"` // polish, russian or "draw"
	Result  *rules.Text    `json:"result,omitempty"`

	cat *Catalogue

	// waiver is the referee's leave for the action being applied
	// (ApplyAllowing); nil in every state an engine call returns.
	waiver *rules.Waiver
}

// Options are the choices where the rulebook leaves room (AMBIGUITIES.md).
type Options struct {
	// TieCombat: equal attack and defence values (9.3 names no winner):
	// "none" (default: nothing happens, 9.5a) or "defender" (the defender wins
	// by 0, also 9.5a, but counts as the winner).
	TieCombat string `json:"tie_combat,omitempty"`
	// LossesChosenBy: who allocates a stack's losses (9.4 "Gracz wybiera"):
	// "owner" (default) or "winner".
	LossesChosenBy string `json:"losses_chosen_by,omitempty"`
	// BothSingles: both players drew single-instruction cards (3.2):
	// "both" (default: both apply in the normal order) or "second" (the
	// later one overrides the earlier).
	BothSingles string `json:"both_singles,omitempty"`
	// CityControl: who "zajmuje" a victory city at the end of stage 14
	// (2.2): "occupied" (default: the side with a combat unit in it then)
	// or "last" (the side whose combat units were in it last, as a control
	// marker would show; a city nobody entered counts for nobody).
	CityControl string `json:"city_control,omitempty"`
	// Screen: what screens a hex next to an enemy combat unit for supply
	// (5.2, 6.0) and retreats (9.5b), "zajęty przez sojuszniczą
	// jednostkę": "unit" (default: any friendly unit, an HQ included; the
	// rule qualifies the enemy as "jednostka bojowa" and the friend not)
	// or "combat_unit" (friendly combat units only).
	Screen string `json:"screen,omitempty"`
}

func (o *Options) defaults() {
	if o.TieCombat == "" {
		o.TieCombat = "none"
	}
	if o.LossesChosenBy == "" {
		o.LossesChosenBy = "owner"
	}
	if o.BothSingles == "" {
		o.BothSingles = "both"
	}
	if o.Screen == "" {
		o.Screen = "unit"
	}
	if o.CityControl == "" {
		o.CityControl = "occupied"
	}
}

func (o Options) check() error {
	switch {
	case o.TieCombat != "none" && o.TieCombat != "defender":
		return rules.Reject("bad_option", "tie_combat %q: none albo defender", "tie_combat %q: none or defender", o.TieCombat)
	case o.LossesChosenBy != "owner" && o.LossesChosenBy != "winner":
		return rules.Reject("bad_option", "losses_chosen_by %q: owner albo winner", "losses_chosen_by %q: owner or winner", o.LossesChosenBy)
	case o.BothSingles != "both" && o.BothSingles != "second":
		return rules.Reject("bad_option", "both_singles %q: both albo second", "both_singles %q: both or second", o.BothSingles)
	case o.CityControl != "occupied" && o.CityControl != "last":
		return rules.Reject("bad_option", "city_control %q: occupied albo last", "city_control %q: occupied or last", o.CityControl)
	case o.Screen != "unit" && o.Screen != "combat_unit":
		return rules.Reject("bad_option", "screen %q: unit albo combat_unit", "screen %q: unit or combat_unit", o.Screen)
	}
	return nil
}

// Catalogue is the data the game was started with.
func (s State) Catalogue() *Catalogue { return s.cat }

func (s State) clone() State {
	c := s
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		c.Players[i].Hand = slices.Clone(s.Players[i].Hand)
	}
	c.Units = slices.Clone(s.Units)
	c.HQs = slices.Clone(s.HQs)
	c.Depots = slices.Clone(s.Depots)
	c.Chits = slices.Clone(s.Chits)
	c.Deck = slices.Clone(s.Deck)
	c.Discards = slices.Clone(s.Discards)
	c.Effects = slices.Clone(s.Effects)
	c.CardTasks = slices.Clone(s.CardTasks)
	c.Arrivals = slices.Clone(s.Arrivals)
	c.Control = maps.Clone(s.Control)
	if s.Pending != nil {
		p := *s.Pending
		p.Options = slices.Clone(p.Options)
		c.Pending = &p
	}
	if s.Battle != nil {
		b := *s.Battle
		b.Attackers = slices.Clone(b.Attackers)
		b.Defenders = slices.Clone(b.Defenders)
		b.Bonuses = slices.Clone(b.Bonuses)
		b.Supporters = slices.Clone(b.Supporters)
		if b.Outcome != nil {
			o := *b.Outcome
			b.Outcome = &o
		}
		c.Battle = &b
	}
	if s.Move != nil {
		m := *s.Move
		m.Order.Units = slices.Clone(m.Order.Units)
		m.Order.Path = slices.Clone(m.Order.Path)
		m.Cavalry = slices.Clone(m.Cavalry)
		c.Move = &m
	}
	return c
}

// MarshalJSON is the plain fields (the catalogue stays out: it is in the
// StartGame action).
func (s State) MarshalJSON() ([]byte, error) {
	type plain State
	return json.Marshal(plain(s))
}

func (s *State) player(side string) *Player {
	for i := range s.Players {
		if s.Players[i].Side == side {
			return &s.Players[i]
		}
	}
	return nil
}

// Player is the track of side (polish or russian), or nil.
func (s State) Player(side string) *Player {
	for i := range s.Players {
		if s.Players[i].Side == side {
			p := s.Players[i]
			return &p
		}
	}
	return nil
}

func (s *State) unit(id string) *Unit {
	for i := range s.Units {
		if s.Units[i].ID == id {
			return &s.Units[i]
		}
	}
	return nil
}

// cardTitle is an event card's title in both languages.
func (s *State) cardTitle(id int) rules.Text {
	if s.cat != nil {
		if c, ok := s.cat.Cards[id]; ok {
			return c.Titles()
		}
	}
	return rules.Text{}
}

// optionNames are a decision's options in words: units and HQs by name,
// hexes by number.
func (s *State) optionNames(opts []string) string {
	var out []string
	for _, o := range opts {
		switch {
		case s.unit(o) != nil:
			out = append(out, s.unit(o).Name)
		case s.hq(o) != nil:
			out = append(out, s.hq(o).Name)
		default:
			out = append(out, o)
		}
	}
	return strings.Join(out, ", ")
}

func (s *State) hq(id string) *HQ {
	for i := range s.HQs {
		if s.HQs[i].ID == id {
			return &s.HQs[i]
		}
	}
	return nil
}

// Stack is the combat units on h, in order of the order of battle.
func (s State) Stack(h Hex) []Unit {
	var out []Unit
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == h {
			out = append(out, u)
		}
	}
	return out
}

func (s *State) stackIDs(h Hex) []string {
	var out []string
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == h {
			out = append(out, u.ID)
		}
	}
	return out
}

func (s *State) depotAt(h Hex) int {
	for i, d := range s.Depots {
		if d.Hex == h {
			return i
		}
	}
	return -1
}

func other(side string) string {
	if side == Polish {
		return Russian
	}
	return Polish
}

func sideName(side string) rules.Text {
	if side == Polish {
		return rules.Text{PL: "gracz polski", EN: "the Polish player"}
	}
	return rules.Text{PL: "gracz rosyjski", EN: "the Russian player"}
}
