package west1920

import "github.com/sztab/sztab/rules"

// Action is anything a player, the referee or a sensor asks the engine to do.
type Action = rules.Action

// StartGame opens a game with its data and options (set-up 1.4).
type StartGame struct {
	Options Options `json:"options"`
	Data    Data    `json:"data"`
}

// DrawCard: Side draws event card Card (read from its NFC tag; 3.1).
type DrawCard struct {
	Side string `json:"side"`
	Card int    `json:"card,omitempty"` // 0 only in a concealed draw (companion.Concealer)
}

// PlayCard: Side plays Card from the hand (3.1, 3.2).
type PlayCard struct {
	Side string `json:"side"`
	Card int    `json:"card"`
}

// Roll answers a pending roll (State.Pending.Dice dice): the white and red
// resource dice, the first-player dice (Polish, Russian), an activation
// roll, a coordination roll, the combat dice (attacker, defender), cavalry
// attrition rolls, a desertion or East Prussia roll.
type Roll struct {
	Dice []int `json:"dice"`
}

// Pass declines in an alternating phase (5.1, 7.1, 8.0, 9.1, 9.2, 10.0,
// 11.1): the player loses the option for the rest of the phase. It also
// declines an optional pursuit or a card choice that can be refused.
type Pass struct {
	Side string `json:"side"`
}

// BuildDepot sets up a depot in a city (5.2).
type BuildDepot struct {
	Side string `json:"side"`
	Hex  Hex    `json:"hex"`
}

// RemoveDepot removes a depot: voluntarily (5.4, one a phase) or, when the
// engine waits for it, the opponent's choice of a depot that cannot be paid.
type RemoveDepot struct {
	Side string `json:"side"`
	Hex  Hex    `json:"hex"`
}

// AssignChit puts an activation chit on a stack (7.1).
type AssignChit struct {
	Side string `json:"side"`
	Hex  Hex    `json:"hex"`
}

// Order carries out one chit (7.1, 7.2): Units (default: every combat unit
// of the stack) move along Path (hexes after the start; empty: the stack
// only turns) and end facing Facing. HQ names an HQ that began the phase in
// the hex and goes along (7.1). An order that needs the activation roll
// waits for it (Pending "activation").
type Order struct {
	Side   string   `json:"side"`
	Hex    Hex      `json:"hex"`
	Units  []string `json:"units,omitempty"`
	Path   []Hex    `json:"path,omitempty"`
	Facing string   `json:"facing,omitempty"`
	HQ     string   `json:"hq,omitempty"`
	// Card names a card played this stage that spares this order the
	// activation roll (card 31, Russian column: one Polish stack).
	Card int `json:"card,omitempty"`
}

// DiscardChit removes a chit without an order; only from a stack facing an
// enemy stack (7.2's exception).
type DiscardChit struct {
	Side string `json:"side"`
	Hex  Hex    `json:"hex"`
}

// MoveHQ moves an HQ up to five hexes (8.0).
type MoveHQ struct {
	Side string `json:"side"`
	HQ   string `json:"hq"`
	Path []Hex  `json:"path"`
}

// Withdraw is a withdrawal before combat (9.1): an all-cavalry stack
// retreats two hexes along Path.
type Withdraw struct {
	Side   string `json:"side"`
	Hex    Hex    `json:"hex"`
	Path   []Hex  `json:"path"`
	Facing string `json:"facing,omitempty"`
}

// Bonus uses a card played this stage in one combat (9.3, last point):
// the card and the stack (hex) it helps or hinders.
type Bonus struct {
	Card int `json:"card"`
	Hex  Hex `json:"hex"`
}

// Attack declares one attack (9.2): the attacking stack, the defending
// hex, optionally a second stack for a coordinated attack and card bonuses.
type Attack struct {
	Side    string  `json:"side"`
	From    Hex     `json:"from"`
	Target  Hex     `json:"target"`
	Support Hex     `json:"support,omitempty"`
	Bonuses []Bonus `json:"bonuses,omitempty"`
}

// CardBonus answers the card_bonus decision: before the combat roll the
// defending player names the card bonuses it chooses for this combat (9.3,
// last point; "Wybór należy do gracza … przed rzutem 1K6"). An empty list
// uses none.
type CardBonus struct {
	Side    string  `json:"side"`
	Bonuses []Bonus `json:"bonuses"`
}

// Losses allocates the losses a stack must take (9.4): one unit id per
// step, a unit twice to eliminate it from full strength.
type Losses struct {
	Side  string   `json:"side"`
	Units []string `json:"units"`
}

// Retreat moves a beaten stack two hexes (9.5b; in 9.5c the winner picks
// the route). Eliminate names units removed to meet the stacking limit.
type Retreat struct {
	Side      string   `json:"side"`
	Path      []Hex    `json:"path"`
	Facing    string   `json:"facing,omitempty"`
	Eliminate []string `json:"eliminate,omitempty"`
}

// Pursue enters the vacated hex (9.5b): Units (cavalry, infantry, HQs of
// the winning stack) move in; Further sends cavalry one hex on.
type Pursue struct {
	Side    string        `json:"side"`
	Units   []string      `json:"units"`
	Facing  string        `json:"facing,omitempty"`
	Further []PursuitStep `json:"further,omitempty"`
}

// PursuitStep places one unit on a hex (9.5b: cavalry one hex further).
type PursuitStep struct {
	Unit   string `json:"unit"`
	Hex    Hex    `json:"hex"`
	Facing string `json:"facing,omitempty"`
}

// Replace restores a weakened supplied unit for 1 RP (10.0).
type Replace struct {
	Side string `json:"side"`
	Unit string `json:"unit"`
}

// StrategicMove moves one unit any distance (11.1, 11.2): Unit names a
// combat unit or an HQ (11.1: "dowództwo lub jednostkę bojową").
type StrategicMove struct {
	Side   string `json:"side"`
	Unit   string `json:"unit"`
	Path   []Hex  `json:"path"`
	Facing string `json:"facing,omitempty"`
}

// Place answers a placement decision: a reinforcement, a returning HQ
// (9.6) or a unit a card moves (12.0, 13.5, cards 24, 36, 37, 40).
type Place struct {
	Side   string `json:"side"`
	Unit   string `json:"unit"`
	Hex    Hex    `json:"hex"`
	Facing string `json:"facing,omitempty"`
}

// Choose answers a card's choice (units or hexes, as the pending decision
// lists them).
type Choose struct {
	Side    string   `json:"side"`
	Targets []string `json:"targets"`
}

// Adjust is the referee's correction of one counter, journalled like any
// action: a new hex, strength or status. It also carries out card
// instructions the engine leaves to the table.
type Adjust struct {
	Unit   string `json:"unit"`
	Hex    Hex    `json:"hex,omitempty"`
	Weak   *bool  `json:"weak,omitempty"`
	Status string `json:"status,omitempty"`
	Facing string `json:"facing,omitempty"`
	Note   string `json:"note,omitempty"`
}

func (StartGame) Type() string     { return "start_game" }
func (DrawCard) Type() string      { return "draw_card" }
func (PlayCard) Type() string      { return "play_card" }
func (Roll) Type() string          { return "roll" }
func (Pass) Type() string          { return "pass" }
func (BuildDepot) Type() string    { return "build_depot" }
func (RemoveDepot) Type() string   { return "remove_depot" }
func (AssignChit) Type() string    { return "assign_chit" }
func (Order) Type() string         { return "order" }
func (DiscardChit) Type() string   { return "discard_chit" }
func (MoveHQ) Type() string        { return "move_hq" }
func (Withdraw) Type() string      { return "withdraw" }
func (Attack) Type() string        { return "attack" }
func (CardBonus) Type() string     { return "card_bonus" }
func (Losses) Type() string        { return "losses" }
func (Retreat) Type() string       { return "retreat" }
func (Pursue) Type() string        { return "pursue" }
func (Replace) Type() string       { return "replace" }
func (StrategicMove) Type() string { return "strategic_move" }
func (Place) Type() string         { return "place" }
func (Choose) Type() string        { return "choose" }
func (Adjust) Type() string        { return "adjust" }

// Actions is the game's action codec: every action type, once.
var Actions = rules.NewCodec("west1920",
	StartGame{}, DrawCard{}, PlayCard{}, Roll{}, Pass{}, BuildDepot{}, RemoveDepot{}, AssignChit{}, Order{},
	DiscardChit{}, MoveHQ{}, Withdraw{}, Attack{}, CardBonus{}, Losses{}, Retreat{}, Pursue{}, Replace{}, StrategicMove{},
	Place{}, Choose{}, Adjust{},
)

// EncodeAction writes an action as {"type": ..., fields...}.
func EncodeAction(a Action) ([]byte, error) { return Actions.Encode(a) }

// DecodeAction reads what EncodeAction wrote.
func DecodeAction(data []byte) (Action, error) { return Actions.Decode(data) }
