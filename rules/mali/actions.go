package mali

import (
	"github.com/sztab/sztab/rules"
)

// Action is anything a player, referee or sensor asks the engine to do.
type Action = rules.Action

// StartGame opens a game. It carries the game data so the action alone
// rebuilds the same state. Players are listed clockwise; Starter is the
// seat that starts the first round (the players' choice: "ostatnia
// odwiedziła Muzeum Powstania Warszawskiego").
type StartGame struct {
	Variant string        `json:"variant"`
	Players []PlayerSetup `json:"players"`
	Starter int           `json:"starter"`
	Options Options       `json:"options"`
	Data    Data          `json:"data"`
}

// PlayerSetup is a seat and its colour.
type PlayerSetup struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name,omitempty"`
	Colour string `json:"colour"`
}

// DealGoals records the six secret goals dealt to each player (extended),
// one hand per seat in the order of State.Players. A hand showing only one
// or two colours makes the deal void: the engine asks for a new one.
type DealGoals struct {
	Hands [][]string `json:"hands"`
}

// KeepGoals is a player's three kept goals, of three different colours.
type KeepGoals struct {
	Seat  int      `json:"seat"`
	Goals []string `json:"goals"`
}

// DrawOrders records the cards the round-starter took from the deck, top
// first, as read from their tags (or dealt virtually); in the extended
// variant it may include the Victory card ("zwyciestwo") and cards of
// fallen districts, which are discarded and replaced by the next ones.
type DrawOrders struct {
	Cards []string `json:"cards"`
}

// PlayCard lays a movement card (1–5) face down.
type PlayCard struct {
	Seat int `json:"seat"`
	Card int `json:"card"`
}

// Place puts an escaped courier on any free field just before its owner's
// move.
type Place struct {
	Courier string `json:"courier"`
	At      Node   `json:"at"`
}

// Move moves a courier one field (one movement point), in a turn or in the
// red die's extra move. Its wire name is "step". (Step is a script line
// played, as in the other engines.)
type Move struct {
	Courier string `json:"courier"`
	To      Node   `json:"to"`
}

// Jump is the whole move spent on one courier's jump from an object to a
// neighbouring object ("skok do sąsiedniego obiektu").
type Jump struct {
	Courier string `json:"courier"`
	To      Node   `json:"to"`
}

// PickUp puts a courier's token on an active order whose start object it
// stands in.
type PickUp struct {
	Courier string `json:"courier"`
	Order   string `json:"order"`
}

// Drop takes a courier's token off its order.
type Drop struct {
	Courier string `json:"courier"`
}

// EndTurn ends the active player's move (or the red extra move).
type EndTurn struct{}

// SwapCouriers is card 1's action "Kumple z podwórka": two of the player's
// couriers in one district change places (extended).
type SwapCouriers struct {
	A string `json:"a"`
	B string `json:"b"`
}

// UnitJump is card 2's action "Oddział powstańczy": a courier in an object
// goes to a neighbouring object (extended).
type UnitJump struct {
	Courier string `json:"courier"`
	To      Node   `json:"to"`
}

// SwapOrders is card 3's action "Zamiana rozkazów": two orders on adjacent
// fields of the track change places; never the Victory card (extended).
type SwapOrders struct {
	A string `json:"a"`
	B string `json:"b"`
}

// Rumours is card 4's action "Plotki z ulicy": the cards the player saw on
// top of the deck, top first, as many as the next order phase draws plus
// any of fallen districts, which are shown, discarded and replaced
// (extended).
type Rumours struct {
	Cards []string `json:"cards"`
}

// RollDie is the soldier phase's roll, as read from the die (keypad,
// camera or virtual): a face of the die in die.yaml.
type RollDie struct {
	Colour string `json:"colour"`
	Value  int    `json:"value"`
	Origin string `json:"origin,omitempty"`
}

// ChooseCourier answers WaitSoldierTarget and WaitBonusCourier.
type ChooseCourier struct {
	Seat    int    `json:"seat"`
	Courier string `json:"courier"`
}

// ChooseSoldierStep answers the soldier's fork when Options.SoldierPath is
// "starter": the field he goes to next.
type ChooseSoldierStep struct {
	To Node `json:"to"`
}

// BlockRoad is the last mover's choice of the road a missed order blocks.
type BlockRoad struct {
	Seat int    `json:"seat"`
	Road string `json:"road"`
}

// Displace is the owner's choice among the nearest safe fields for a
// courier pushed off a blocked road or out of a fallen district.
type Displace struct {
	Courier string `json:"courier"`
	To      Node   `json:"to"`
}

func (StartGame) Type() string         { return "start_game" }
func (DealGoals) Type() string         { return "deal_goals" }
func (KeepGoals) Type() string         { return "keep_goals" }
func (DrawOrders) Type() string        { return "draw_orders" }
func (PlayCard) Type() string          { return "play_card" }
func (Place) Type() string             { return "place" }
func (Move) Type() string              { return "step" }
func (Jump) Type() string              { return "jump" }
func (PickUp) Type() string            { return "pick_up" }
func (Drop) Type() string              { return "drop" }
func (EndTurn) Type() string           { return "end_turn" }
func (SwapCouriers) Type() string      { return "swap_couriers" }
func (UnitJump) Type() string          { return "unit_jump" }
func (SwapOrders) Type() string        { return "swap_orders" }
func (Rumours) Type() string           { return "rumours" }
func (RollDie) Type() string           { return "roll_die" }
func (ChooseCourier) Type() string     { return "choose_courier" }
func (ChooseSoldierStep) Type() string { return "choose_soldier_step" }
func (BlockRoad) Type() string         { return "block_road" }
func (Displace) Type() string          { return "displace" }

// Actions is the game's action codec: every action type, once.
var Actions = rules.NewCodec("mali",
	StartGame{}, DealGoals{}, KeepGoals{}, DrawOrders{}, PlayCard{}, Place{},
	Move{}, Jump{}, PickUp{}, Drop{}, EndTurn{}, SwapCouriers{}, UnitJump{},
	SwapOrders{}, Rumours{}, RollDie{}, ChooseCourier{}, ChooseSoldierStep{},
	BlockRoad{}, Displace{},
)

// EncodeAction writes an action as {"type": ..., fields...}.
func EncodeAction(a Action) ([]byte, error) { return Actions.Encode(a) }

// DecodeAction reads what EncodeAction wrote.
func DecodeAction(data []byte) (Action, error) { return Actions.Decode(data) }

// Event is something that happened, for the journal, the screens and the
// players. Events are public: they never carry a secret goal or a card a
// player peeked at.
type Event struct {
	Type     string     `json:"type"`
	Text     rules.Text `json:"text"`
	Seat     int        `json:"seat,omitempty"`
	Courier  string     `json:"courier,omitempty"`
	Order    string     `json:"order,omitempty"`
	From     Node       `json:"from,omitempty"`
	To       Node       `json:"to,omitempty"`
	Road     string     `json:"road,omitempty"`
	District string     `json:"district,omitempty"`
	Path     []Node     `json:"path,omitempty"`
	Roll     *DieFace   `json:"roll,omitempty"`
	Cards    []string   `json:"cards,omitempty"`
	Points   int        `json:"points,omitempty"`
	Result   *Result    `json:"result,omitempty"`
}
