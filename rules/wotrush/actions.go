package wotrush

import "github.com/sztab/sztab/rules"

// Action is anything a player or the table asks the engine to do.
type Action = rules.Action

// PlayerInfo is a player at the table; the list is the seating order,
// clockwise ("w kierunku zgodnym z ruchem wskazówek zegara").
type PlayerInfo struct {
	Seat int    `json:"seat" yaml:"seat"`
	Name string `json:"name" yaml:"name"`
}

// SeatOrder is the order of a player's shuffled starting Garage, top first.
type SeatOrder struct {
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
}

// StartGame opens a game (setup, rulebook page 3–4). It carries the game
// data so the action alone rebuilds the same state. First is the seat that
// takes the first-player card (an input: "Osoba, która jako ostatnia grała
// …"). Every shuffle is an input: the vehicle deck order (Deck), the
// starting Garages (Garages) and the achievements in play (Achievements)
// may be given as read at the table; what is left out, and every later
// shuffle (a Magazine into a new Garage, the vehicle discards into a new
// deck), is derived from Seed and the count of shuffles, so a journal
// replays byte for byte.
type StartGame struct {
	Players      []PlayerInfo `json:"players"`
	First        int          `json:"first"`
	Options      Options      `json:"options"`
	Seed         uint64       `json:"seed"`
	Deck         []string     `json:"deck,omitempty"`
	Garages      []SeatOrder  `json:"garages,omitempty"`
	Achievements []string     `json:"achievements,omitempty"`
	Data         Data         `json:"data"`
}

// Buy is a purchase (page 6, "Wykorzystanie surowców z karty do akcji
// zakupu"): the Reserve cards bought (more than one only with Recruitment)
// and the hand cards paying for them (at least one, each with a resource
// symbol; their sum at least the total cost).
type Buy struct {
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
	Pay   []string `json:"pay"`
}

// PlayCard plays a card from the hand for its abilities, then (armour 1–2)
// to defend a base. Skip ignores the abilities ("nie jest zobligowany do
// wykorzystywania jego zdolności") and only defends.
type PlayCard struct {
	Seat int    `json:"seat"`
	Card string `json:"card"`
	Skip bool   `json:"skip,omitempty"`
}

// Defend answers a "defend" decision: the base the played vehicle defends.
type Defend struct {
	Seat int    `json:"seat"`
	Base string `json:"base"`
}

// Research answers a "research" decision: the Reserve vehicle taken, or
// none ("") when the player takes nothing.
type Research struct {
	Seat int    `json:"seat"`
	Take string `json:"take,omitempty"`
}

// Dismantle answers a "dismantle" decision: the Magazine cards sent to the
// Scrapyard.
type Dismantle struct {
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
}

// Siege answers a "siege" decision: an enemy base (defended or not) or the
// vehicle defending one.
type Siege struct {
	Seat   int    `json:"seat"`
	Target string `json:"target"`
}

// Discard answers a "discard" decision (Sabotage): the card the victim
// puts from the hand into the Magazine. Seat is who chooses.
type Discard struct {
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

// Attack declares the turn's one attack: every attacking card from the
// hand, all of one nation, firepower 1–2.
type Attack struct {
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
}

// Fire answers a "fire" decision: which declared attacker fires next and
// at what (an enemy's undefended base or a defending vehicle).
type Fire struct {
	Seat     int    `json:"seat"`
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
}

// TakeMedals answers a "take_medals" decision (option medals "choose"):
// how many double medal cards to take for the vehicles destroyed.
type TakeMedals struct {
	Seat    int `json:"seat"`
	Doubles int `json:"doubles"`
}

// EndTurn ends the active player's turn: Siege medals, the Reserve
// refreshed, the unplayed cards to the Magazine, three new cards drawn.
type EndTurn struct {
	Seat int `json:"seat"`
}

func (StartGame) Type() string  { return "start_game" }
func (Buy) Type() string        { return "buy" }
func (PlayCard) Type() string   { return "play_card" }
func (Defend) Type() string     { return "defend" }
func (Research) Type() string   { return "research" }
func (Dismantle) Type() string  { return "dismantle" }
func (Siege) Type() string      { return "siege" }
func (Discard) Type() string    { return "discard" }
func (Attack) Type() string     { return "attack" }
func (Fire) Type() string       { return "fire" }
func (TakeMedals) Type() string { return "take_medals" }
func (EndTurn) Type() string    { return "end_turn" }

// Actions is the game's action codec: every action type, once.
var Actions = rules.NewCodec("wotrush",
	StartGame{}, Buy{}, PlayCard{}, Defend{}, Research{}, Dismantle{}, Siege{},
	Discard{}, Attack{}, Fire{}, TakeMedals{}, EndTurn{},
	RevealHand{}, RevealReserve{}, Select{}, DeclareEnd{},
)

// EncodeAction writes an action as {"type": ..., fields...}.
func EncodeAction(a Action) ([]byte, error) { return Actions.Encode(a) }

// DecodeAction reads what EncodeAction wrote. Unknown types and unknown
// fields are errors.
func DecodeAction(data []byte) (Action, error) { return Actions.Decode(data) }
