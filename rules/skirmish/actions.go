package skirmish

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sztab/sztab/rules/dice"
)

// Action is anything a player, referee or sensor asks the engine to do.
type Action interface {
	// Type is the action's name in the journal and on the wire.
	Type() string
}

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

// InCover counts the target's models behind each kind of cover.
type InCover struct {
	Light int `json:"light"`
	Heavy int `json:"heavy"`
}

// Marker is one orange template marker of a template shot: the models whose
// bases it covers and, for weapons with a range (grenades, mortar), the
// distance from the firing model to the marker's centre.
type Marker struct {
	Models   []string `json:"models"`
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

func (StartGame) Type() string      { return "start_game" }
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

// actionTypes builds an empty action of each type.
var actionTypes = map[string]func() Action{
	"start_game":      func() Action { return &StartGame{} },
	"submit_army":     func() Action { return &SubmitArmy{} },
	"choose_scenario": func() Action { return &ChooseScenario{} },
	"roll_off":        func() Action { return &RollOffDice{} },
	"place_objective": func() Action { return &PlaceObjective{} },
	"deploy":          func() Action { return &Deploy{} },
	"move":            func() Action { return &Move{} },
	"unit_moved":      func() Action { return &UnitMoved{} },
	"draw_orders":     func() Action { return &DrawOrders{} },
	"discard_order":   func() Action { return &DiscardOrder{} },
	"claim_order":     func() Action { return &ClaimOrder{} },
	"end_phase":       func() Action { return &EndPhase{} },
	"declare_shot":    func() Action { return &DeclareShot{} },
	"dice":            func() Action { return &Dice{} },
	"undo_die":        func() Action { return &UndoDie{} },
	"ruling":          func() Action { return &Ruling{} },
	"cancel_shot":     func() Action { return &CancelShot{} },
	"end_game":        func() Action { return &EndGame{} },
}

// EncodeAction writes an action as {"type": ..., fields...}.
func EncodeAction(a Action) ([]byte, error) {
	body, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("skirmish: encode %s: %w", a.Type(), err)
	}
	typ, _ := json.Marshal(a.Type())
	if bytes.Equal(body, []byte("{}")) {
		return []byte(`{"type":` + string(typ) + `}`), nil
	}
	return append([]byte(`{"type":`+string(typ)+`,`), body[1:]...), nil
}

// DecodeAction reads what EncodeAction wrote. Unknown types and unknown
// fields are errors.
func DecodeAction(data []byte) (Action, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("skirmish: action: %w", err)
	}
	mk, ok := actionTypes[head.Type]
	if !ok {
		return nil, fmt.Errorf("skirmish: unknown action type %q", head.Type)
	}
	a := mk()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("skirmish: action %s: %w", head.Type, err)
	}
	delete(fields, "type")
	rest, _ := json.Marshal(fields)
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(a); err != nil {
		return nil, fmt.Errorf("skirmish: action %s: %w", head.Type, err)
	}
	return deref(a), nil
}

// deref returns values, not pointers, so callers switch on one form.
func deref(a Action) Action {
	switch v := a.(type) {
	case *StartGame:
		return *v
	case *SubmitArmy:
		return *v
	case *ChooseScenario:
		return *v
	case *RollOffDice:
		return *v
	case *PlaceObjective:
		return *v
	case *Deploy:
		return *v
	case *Move:
		return *v
	case *UnitMoved:
		return *v
	case *DrawOrders:
		return *v
	case *DiscardOrder:
		return *v
	case *ClaimOrder:
		return *v
	case *EndPhase:
		return *v
	case *DeclareShot:
		return *v
	case *Dice:
		return *v
	case *UndoDie:
		return *v
	case *Ruling:
		return *v
	case *CancelShot:
		return *v
	case *EndGame:
		return *v
	}
	return a
}
