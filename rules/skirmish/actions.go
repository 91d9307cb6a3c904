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

// StartGame opens a game. Units arrive fully resolved (weapon rows and
// defence copied from the catalogue, see Catalogue.NewGame), so the action
// alone rebuilds the same state.
type StartGame struct {
	Players []Player `json:"players"`
	Units   []Unit   `json:"units"`
	Options Options  `json:"options"`
}

// EndPhase closes the active player's phase.
type EndPhase struct{}

// UnitMoved records that a unit moved this round (it loses the MG bonus).
type UnitMoved struct {
	Unit string `json:"unit"`
}

// InCover counts the target's models behind each kind of cover.
type InCover struct {
	Light int `json:"light"`
	Heavy int `json:"heavy"`
}

// DeclareShot opens fire from one unit at another, with the distance and
// cover measured on the table.
type DeclareShot struct {
	Shooter  string  `json:"shooter"`
	Target   string  `json:"target"`
	Distance Measure `json:"distance"`
	InCover  InCover `json:"in_cover"`
}

// Dice enters dice for the stage of the shot in progress: one from a keypad,
// or all of them from a virtual roll.
type Dice struct {
	Rolls []dice.Roll `json:"rolls"`
}

// UndoDie takes back the last die entered in the current stage.
type UndoDie struct{}

// Ruling settles a measurement that was too close to call.
type Ruling struct {
	InRange bool   `json:"in_range"`
	By      string `json:"by"`
}

// CancelShot abandons the shot in progress before any stage is resolved.
type CancelShot struct{}

func (StartGame) Type() string   { return "start_game" }
func (EndPhase) Type() string    { return "end_phase" }
func (UnitMoved) Type() string   { return "unit_moved" }
func (DeclareShot) Type() string { return "declare_shot" }
func (Dice) Type() string        { return "dice" }
func (UndoDie) Type() string     { return "undo_die" }
func (Ruling) Type() string      { return "ruling" }
func (CancelShot) Type() string  { return "cancel_shot" }

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
	var a Action
	switch head.Type {
	case "start_game":
		a = &StartGame{}
	case "end_phase":
		a = &EndPhase{}
	case "unit_moved":
		a = &UnitMoved{}
	case "declare_shot":
		a = &DeclareShot{}
	case "dice":
		a = &Dice{}
	case "undo_die":
		a = &UndoDie{}
	case "ruling":
		a = &Ruling{}
	case "cancel_shot":
		a = &CancelShot{}
	default:
		return nil, fmt.Errorf("skirmish: unknown action type %q", head.Type)
	}
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
	// Return values, not pointers, so callers switch on one form.
	switch v := a.(type) {
	case *StartGame:
		return *v, nil
	case *EndPhase:
		return *v, nil
	case *UnitMoved:
		return *v, nil
	case *DeclareShot:
		return *v, nil
	case *Dice:
		return *v, nil
	case *UndoDie:
		return *v, nil
	case *Ruling:
		return *v, nil
	case *CancelShot:
		return *v, nil
	}
	panic("unreachable")
}
