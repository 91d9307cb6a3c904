package skirmish

import (
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// Action is anything a player, referee or sensor asks the engine to do.
type Action = rules.Action

// StartGame opens a game. It carries the game data (weapons, unit cards,
// order decks) so the action alone rebuilds the same state. Armies,
// Scenario and RollOff are setup steps a table may settle before the game
// (they are applied as SubmitArmy, ChooseScenario and RollOff would be).
type StartGame struct {
	Players  []Player        `json:"players"`
	Options  Options         `json:"options"`
	Data     Data            `json:"data"`
	Armies   []SubmitArmy    `json:"armies,omitempty"`
	Scenario *ChooseScenario `json:"scenario,omitempty"`
	RollOff  []SeatRoll      `json:"roll_off,omitempty"`
}

// SubmitArmy hands in a player's army list ("WYBÓR ARMII"). It stays hidden
// from the other players until its units are deployed. A list may be
// handed in again, replacing the first, until setup is over.
type SubmitArmy struct {
	Seat int      `json:"seat"`
	Army ArmyList `json:"army"`
}

// ChooseScenario picks the scenario ("WYBÓR SCENARIUSZA") and its numbers;
// zero numbers take the defaults (see Scenario).
type ChooseScenario struct {
	Number           int `json:"number" yaml:"number"`
	PointsToWin      int `json:"points_to_win,omitempty" yaml:"points_to_win"`
	OrderPointsToWin int `json:"order_points_to_win,omitempty" yaml:"order_points_to_win"`
	Objectives       int `json:"objectives,omitempty" yaml:"objectives"`
}

// RollOffDice enters the first-player dice: one per player, or one per tied
// player when the top roll was tied.
type RollOffDice struct {
	Rolls []SeatRoll `json:"rolls"`
}

// PlaceObjective puts an objective marker on the table where the camera (or
// a measuring tape) says it is.
type PlaceObjective struct {
	Seat int   `json:"seat"`
	At   Point `json:"at"`
}

// Placement is where one model stands, as measured: base centre in kroki
// from the table's south-west corner, base diameter (0: the table's
// default) and the standard uncertainty of each coordinate.
type Placement struct {
	Model string  `json:"model"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Base  float64 `json:"base,omitempty"`
	Sigma float64 `json:"sigma,omitempty"`
}

// Deploy places a whole unit ("Rozmieszczenie"), every living model.
type Deploy struct {
	Unit   string      `json:"unit"`
	Models []Placement `json:"models"`
}

// Move records where the active player's models stand now, in the movement
// phase. Each move is measured from where the model stood when the phase
// began. Jumped lists the models whose path crossed an obstacle.
type Move struct {
	Models []Placement `json:"models"`
	Jumped []string    `json:"jumped,omitempty"`
	// EndPhase ends the movement phase once the move is taken, unless it
	// needs a ruling first (the table's "next" key: move, then shoot).
	EndPhase bool `json:"end_phase,omitempty"`
}

// UnitMoved records that a unit moved this round without a measurement (a
// table without a camera). It loses the MG bonus.
type UnitMoved struct {
	Unit string `json:"unit"`
}

// DrawOrders records order cards drawn from a player's deck, read from the
// cards' tags or drawn virtually.
type DrawOrders struct {
	Seat   int         `json:"seat"`
	Cards  []string    `json:"cards"`
	Origin dice.Origin `json:"origin"`
	Device string      `json:"device,omitempty"`
}

// DiscardOrder puts away one order card in the orders phase ("może odrzucić
// jedną kartę zwycięstwa, która mu nie pasuje").
type DiscardOrder struct {
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

// ClaimOrder scores an order card the engine cannot check by itself. Every
// player of the other side confirms it (ConfirmedBy), or a referee does.
type ClaimOrder struct {
	Seat        int    `json:"seat"`
	Card        string `json:"card"`
	ConfirmedBy []int  `json:"confirmed_by,omitempty"`
	Referee     string `json:"referee,omitempty"`
}

// EndPhase closes the active player's phase.
type EndPhase struct{}

// InCover counts the target's models behind each kind of cover. AtMost,
// when the camera could not tell for some models, counts them on the most
// favourable reading within its uncertainty; when the unit's cover differs
// between the two readings the shot waits for a ruling (too close to call).
type InCover struct {
	Light  int         `json:"light"`
	Heavy  int         `json:"heavy"`
	AtMost *CoverCount `json:"at_most,omitempty"`
}

// CoverCount counts models behind light and behind heavy cover.
type CoverCount struct {
	Light int `json:"light"`
	Heavy int `json:"heavy"`
}

// Marker is one orange template marker of a template shot: the models whose
// bases it covers and, for weapons with a range (grenades, mortar), the
// distance from the firing model to the marker's centre.
// Unsure are models too close to the marker's edge for the camera to call;
// each waits for a ruling before the shot opens.
type Marker struct {
	Models   []string `json:"models"`
	Unsure   []string `json:"unsure,omitempty"`
	Distance *Measure `json:"distance,omitempty"`
}

// DeclareShot opens fire from one unit at another with the measurements
// the camera took. Distance is base to base between the closest models; when
// it is left out the engine measures it from the positions it holds.
// NoLineOfFire lists shooting models that see no model of the target; they do
// not fire. Weapon picks which of the unit's weapons fires when it carries
// more than one.
type DeclareShot struct {
	Shooter      string   `json:"shooter"`
	Target       string   `json:"target"`
	Weapon       string   `json:"weapon,omitempty"`
	Distance     *Measure `json:"distance,omitempty"`
	InCover      InCover  `json:"in_cover"`
	NoLineOfFire []string `json:"no_line_of_fire,omitempty"`
	Markers      []Marker `json:"markers,omitempty"`
}

// Dice enters dice for the stage of the shot in progress: one from a keypad,
// or all of them from a virtual roll.
type Dice struct {
	Rolls []dice.Roll `json:"rolls"`
}

// UndoDie takes back the last die entered in the current stage.
type UndoDie struct{}

// Ruling settles a measurement that was too close to call: InRange says the
// measured distance is within the limit the call names.
type Ruling struct {
	InRange bool   `json:"in_range"`
	By      string `json:"by"`
}

// CancelShot abandons the shot in progress before any stage is resolved.
type CancelShot struct{}

// EndGame ends the game by agreement or by the referee ("gra kończy się
// kiedy odczuwalna jest nieprzyjemna atmosfera lub próbą oszustwa"). Winner
// is a faction, or empty for no winner.
type EndGame struct {
	By     string `json:"by"`
	Winner string `json:"winner,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// SelectShooter picks the unit that fires next and its weapon (the first
// unit card scanned in the shooting phase); the next unit card is its
// target. An empty Unit clears the selection. The selection is game state,
// journaled, so a restart mid-selection loses nothing.
type SelectShooter struct {
	Unit   string `json:"unit,omitempty"`
	Weapon string `json:"weapon,omitempty"`
}

// ArmDiscard makes the next order card scanned in the orders phase a
// discard rather than a draw (the table's "discard" key).
type ArmDiscard struct{}

// NoteJumps records the models the camera saw cross an obstacle in this
// movement phase; the move that ends the phase carries them. Unsure are
// models whose path passed too close to an obstacle to call: each waits
// for a ruling ("did it jump?").
type NoteJumps struct {
	Models []string `json:"models"`
	Unsure []string `json:"unsure,omitempty"`
}

func (StartGame) Type() string      { return "start_game" }
func (SelectShooter) Type() string  { return "select_shooter" }
func (ArmDiscard) Type() string     { return "arm_discard" }
func (NoteJumps) Type() string      { return "note_jumps" }
func (SubmitArmy) Type() string     { return "submit_army" }
func (ChooseScenario) Type() string { return "choose_scenario" }
func (RollOffDice) Type() string    { return "roll_off" }
func (PlaceObjective) Type() string { return "place_objective" }
func (Deploy) Type() string         { return "deploy" }
func (Move) Type() string           { return "move" }
func (UnitMoved) Type() string      { return "unit_moved" }
func (DrawOrders) Type() string     { return "draw_orders" }
func (DiscardOrder) Type() string   { return "discard_order" }
func (ClaimOrder) Type() string     { return "claim_order" }
func (EndPhase) Type() string       { return "end_phase" }
func (DeclareShot) Type() string    { return "declare_shot" }
func (Dice) Type() string           { return "dice" }
func (UndoDie) Type() string        { return "undo_die" }
func (Ruling) Type() string         { return "ruling" }
func (CancelShot) Type() string     { return "cancel_shot" }
func (EndGame) Type() string        { return "end_game" }

// Actions is the skirmish game's action codec: every action type, once.
var Actions = rules.NewCodec("skirmish",
	StartGame{}, SubmitArmy{}, ChooseScenario{}, RollOffDice{}, PlaceObjective{},
	Deploy{}, Move{}, UnitMoved{}, DrawOrders{}, DiscardOrder{}, ClaimOrder{},
	EndPhase{}, DeclareShot{}, Dice{}, UndoDie{}, Ruling{}, CancelShot{}, EndGame{},
	SelectShooter{}, ArmDiscard{}, NoteJumps{},
)

// EncodeAction writes an action as {"type": ..., fields...}.
func EncodeAction(a Action) ([]byte, error) { return Actions.Encode(a) }

// DecodeAction reads what EncodeAction wrote. Unknown types and unknown
// fields are errors.
func DecodeAction(data []byte) (Action, error) { return Actions.Decode(data) }
