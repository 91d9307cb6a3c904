package bitwa

import "github.com/sztab/sztab/rules"

// Action is anything a player or the table asks the engine to do.
type Action = rules.Action

// PlayerInfo is a player at the table and the army they play ("wp" or
// "acz"). Two players: one each; three: two allies share one army's deck,
// each with their own hand; four: two against two.
type PlayerInfo struct {
	Seat int    `json:"seat" yaml:"seat"`
	Name string `json:"name" yaml:"name"`
	Army string `json:"army" yaml:"army"`
}

// StartGame opens a game ("PRZYGOTOWANIE GRY"). It carries the game data so
// the action alone rebuilds the same state. Decks are the shuffled army
// decks, top first, as read at the table; an army left out is shuffled from
// Seed. Decks are never reshuffled.
type StartGame struct {
	Players []PlayerInfo        `json:"players"`
	Options Options             `json:"options"`
	Seed    uint64              `json:"seed"`
	Decks   map[string][]string `json:"decks,omitempty"`
	Data    Data                `json:"data"`
}

// Roll answers a roll_initiative decision (one die per player, in the order
// of the players list) or a roll_bonus decision (one die). Dice are read at
// the table: any seat may enter them. An initiative roll may come a die at
// a time (a keypad): fewer dice than players are kept in the decision
// (Pending.Dice) until the last one arrives.
type Roll struct {
	Seat int   `json:"seat"`
	Dice []int `json:"dice"`
}

// PlayCard plays a card from the hand ("Zagranie karty Wojska"): a unit
// card (Front: where the units go, among the card's fronts; a card printed
// with one front goes there whatever Front says), a commander (Front: the
// commander field; Choice: which of its effects, 0-based) or an order
// (Front: the order field).
type PlayCard struct {
	Seat   int    `json:"seat"`
	Card   string `json:"card"`
	Front  string `json:"front,omitempty"`
	Choice int    `json:"choice,omitempty"`
}

// Blockade moves a blockade marker ("Odrzucenie dowolnej karty i
// poruszenie znacznikiem Blokady"): Card is discarded from the hand; Marker
// is "blockade-wp" or "blockade-acz" (either army's); Place is one of
// BlockPlaces and Front the front of the field. The same action without a
// card answers the opening_blockade decision (the army's own marker) and
// the support decision (the special blockade, or Skip to leave it).
type Blockade struct {
	Seat   int    `json:"seat"`
	Card   string `json:"card,omitempty"`
	Marker string `json:"marker,omitempty"`
	Place  string `json:"place,omitempty"`
	Front  string `json:"front,omitempty"`
	Skip   bool   `json:"skip,omitempty"`
}

// Fight discards a card to fight for a resource card ("Odrzucenie dowolnej
// karty i walka o karty Zasobów"): funds, supply or support.
type Fight struct {
	Seat     int    `json:"seat"`
	Card     string `json:"card"`
	Resource string `json:"resource"`
}

// Activate discards a card to use again the commander on Front
// ("Odrzucenie dowolnej karty i aktywacja Dowódcy na Froncie"), with its
// effect Choice.
type Activate struct {
	Seat   int    `json:"seat"`
	Card   string `json:"card"`
	Front  string `json:"front"`
	Choice int    `json:"choice,omitempty"`
}

// Select picks a card of the active player's hand before it is played or
// discarded: the card scanned on the player's reader, waiting for the field
// (Front) and the effect (Choice) chosen on the screens or the buttons. It
// changes nothing on the board; it keeps the choice in progress in the
// state (and the journal). An empty Card clears the selection; any other
// military action clears it too.
type Select struct {
	Seat   int    `json:"seat"`
	Card   string `json:"card,omitempty"`
	Front  string `json:"front,omitempty"`
	Choice int    `json:"choice,omitempty"`
}

// Pass ends the player's actions for the round ("pas"); the hand is kept.
type Pass struct {
	Seat int `json:"seat"`
}

// UnitMove moves N own units between two positions of the board, written
// front and line: "N1" is the 1st line of the Northern Front, "S2" the 2nd
// line of the Southern one.
type UnitMove struct {
	From string `json:"from"`
	To   string `json:"to"`
	N    int    `json:"n"`
}

// Move answers a move decision: at most the decision's N units in all
// ("Porusz maksymalnie N"); no moves declines.
type Move struct {
	Seat  int        `json:"seat"`
	Moves []UnitMove `json:"moves,omitempty"`
}

// Remove answers a remove decision: the enemy unit taken from Front, line
// Line.
type Remove struct {
	Seat  int    `json:"seat"`
	Front string `json:"front"`
	Line  int    `json:"line"`
}

// Confirm answers a confirm decision (an effect the card says "możesz").
type Confirm struct {
	Seat int  `json:"seat"`
	Yes  bool `json:"yes"`
}

// TurnCard answers a turn_card decision: the winner of a resource turns
// face Face (0 or 1, as listed in components.yaml) to their army; the
// other face points at the enemy.
type TurnCard struct {
	Seat int `json:"seat"`
	Face int `json:"face"`
}

// AssignInitiative answers an assign_initiative decision (3–4 players):
// the seats in the order of the tokens 1, 2, 3 (, 4).
type AssignInitiative struct {
	Seat  int   `json:"seat"`
	Order []int `json:"order"`
}

// Supply answers a supply decision: the army adds units from the Reserve
// to the 2nd lines of the fronts in Add (one entry a unit) and/or moves
// units; at most the supply value in all. Limits hold after the whole
// answer.
type Supply struct {
	Seat  int        `json:"seat"`
	Add   []string   `json:"add,omitempty"`
	Moves []UnitMove `json:"moves,omitempty"`
}

func (StartGame) Type() string        { return "start_game" }
func (Roll) Type() string             { return "roll" }
func (PlayCard) Type() string         { return "play_card" }
func (Blockade) Type() string         { return "blockade" }
func (Fight) Type() string            { return "fight" }
func (Activate) Type() string         { return "activate" }
func (Pass) Type() string             { return "pass" }
func (Select) Type() string           { return "select" }
func (Move) Type() string             { return "move" }
func (Remove) Type() string           { return "remove" }
func (Confirm) Type() string          { return "confirm" }
func (TurnCard) Type() string         { return "turn_card" }
func (AssignInitiative) Type() string { return "assign_initiative" }
func (Supply) Type() string           { return "supply" }

// Actions is the game's action codec: every action type, once.
var Actions = rules.NewCodec("bitwa",
	StartGame{}, Roll{}, PlayCard{}, Blockade{}, Fight{}, Activate{}, Pass{},
	Move{}, Remove{}, Confirm{}, TurnCard{}, AssignInitiative{}, Supply{}, Select{},
)

// EncodeAction writes an action as {"type": ..., fields...}.
func EncodeAction(a Action) ([]byte, error) { return Actions.Encode(a) }

// DecodeAction reads what EncodeAction wrote. Unknown types and unknown
// fields are errors.
func DecodeAction(data []byte) (Action, error) { return Actions.Decode(data) }

func actionSeat(a Action) int {
	switch a := a.(type) {
	case Roll:
		return a.Seat
	case PlayCard:
		return a.Seat
	case Blockade:
		return a.Seat
	case Fight:
		return a.Seat
	case Activate:
		return a.Seat
	case Pass:
		return a.Seat
	case Move:
		return a.Seat
	case Remove:
		return a.Seat
	case Confirm:
		return a.Seat
	case TurnCard:
		return a.Seat
	case AssignInitiative:
		return a.Seat
	case Supply:
		return a.Seat
	case Select:
		return a.Seat
	}
	return 0
}
