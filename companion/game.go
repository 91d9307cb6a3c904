package companion

import (
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
)

// Action is a game action as the journal stores it.
type Action interface {
	Type() string
}

// Input is one sensor event for the game's binder. Exactly one of Tag, Key
// and Snapshot is set. TagInfo is what the registry says the tag is.
type Input struct {
	Tag      *hardware.TagEvent
	TagInfo  *Tag
	Key      *hardware.KeyEvent
	Snapshot *vision.Snapshot
}

// Notice is a published event that changes no state: an unknown tag, a
// refused action, a selection made on the table.
type Notice struct {
	Type   string     `json:"type"`
	Code   string     `json:"code,omitempty"`
	Text   rules.Text `json:"text"`
	Reader string     `json:"reader,omitempty"`
	UID    string     `json:"uid,omitempty"`
	// Action is the type of the refused action, when there is one.
	Action string `json:"action,omitempty"`
}

// Game is the game in play, as the daemon drives it. Each game's adapter
// implements it over its pure engine.
type Game interface {
	// Name is the config's game id ("skirmish").
	Name() string
	// Start is the action that opens a new journal.
	Start() (Action, error)
	EncodeAction(Action) ([]byte, error)
	DecodeAction([]byte) (Action, error)
	// Apply checks an action against the current state. On success it
	// returns the events and a commit that makes the new state current; the
	// daemon commits only once the journal holds the action. A refusal is a
	// *rules.Rejection.
	Apply(Action) (events []any, commit func(), err error)
	// Bind turns a sensor event into actions and notices.
	Bind(Input) ([]Action, []Notice)
	// View is the state as viewer may see it: hidden information (hands,
	// secret goals, army lists before deployment) is filtered here, before it
	// leaves the daemon.
	View(viewer Viewer) any
}

// Viewer is who a view is for.
type Viewer struct {
	Role Role `json:"role"`
	// Seat is the player's seat when Role is RolePlayer.
	Seat int `json:"seat,omitempty"`
}

// Role is a kind of viewer.
type Role string

const (
	RolePublic  Role = "public"
	RolePlayer  Role = "player"
	RoleReferee Role = "referee"
)

// Public is the spectators' view.
var Public = Viewer{Role: RolePublic}

// DiceCarrier is implemented by games whose actions carry dice, so the
// daemon can watch the physical dice for fairness.
type DiceCarrier interface {
	RollsIn(Action) []dice.Roll
}

// SeatLister is implemented by games that know their players' seats, so
// each seat gets its own view.
type SeatLister interface {
	Seats() []int
}

// Headliner is implemented by games that can say in one line how the game
// stands (round, score), for the venue wall.
type Headliner interface {
	Headline() rules.Text
}

// TurnTeller is implemented by games that say whose turn it is, for the
// table's "your turn" lights.
type TurnTeller interface {
	ActiveSeat() int
}

// Desyncer is implemented by games that can tell where the table and the
// state disagree (a dead model still standing, a model the camera lost),
// for the referee.
type Desyncer interface {
	Desyncs() []rules.Text
}
