// Package gamespec is the contract between the daemon and a game: what a game
// package implements (Game, its optional capabilities, the shared Adapter),
// what it is given (Input, the table's config) and what it registers
// (GameSpec). It imports nothing of the daemon, so a game package needs
// neither the broker, nor the journal's database, nor the daemon to build.
package gamespec

import (
	"errors"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
)

// Action is a game action as the journal stores it.
type Action = rules.Action

// Input is one sensor event for the game's binder. Exactly one of Tag, Key,
// Snapshot and Dice is set. TagInfo is what the registry says the tag is.
//
// A Key is a command: a key on the table's keypad (Keypad is its name) or
// a command from a page, the watch or MQTT (Keypad is "referee" or
// "player/N"). From says who sent it; a player's command is for their seat.
type Input struct {
	Tag      *hardware.TagEvent
	TagInfo  *Tag
	Key      *hardware.KeyEvent
	Snapshot *vision.Snapshot
	// Dice are a throw the camera read in its dice tray, settled and new
	// (camera_dice.go): the binder enters them as it enters keypad dice,
	// each roll with origin camera. Never set with another field.
	Dice []CameraDie
	// Image is the camera's annotated JPEG of Snapshot, when it made one:
	// kept beside the journal as the evidence of the entries it leads to.
	Image []byte
	// Args are a command's arguments (a move's piece and field), checked
	// against nothing but their size on the way in: the binder reads them.
	Args []string
	// Text and Action are a command's text (a reason, a question) and
	// game action (a correction's), when its spec takes them.
	Text   string
	Action []byte
	From   Sender
}

// Sender is who sent a command, for the rules of who may do what and for
// the answer.
type Sender struct {
	Kind wire.Sender
	// Audience is where the answer goes: public for the table's keys.
	Audience wire.Audience
	// ID is the command's id, when it had one.
	ID string
}

// Seat is the seat a player's command is for, 0 for the table or referee.
func (s Sender) Seat() int {
	n, _ := s.Audience.Seat()
	return n
}

// Press is a key pressed on the table's keypad (with a command's
// arguments, as a page sends them).
func Press(keypad, key string, args ...string) Input {
	return Input{Key: &hardware.KeyEvent{Keypad: keypad, Key: key, Args: args}, Args: args,
		From: Sender{Kind: wire.Keys, Audience: wire.Public}}
}

// Page is a command from seat's page (0: the referee's).
func Page(seat int, key string, args ...string) Input {
	from := Sender{Kind: wire.Ref, Audience: wire.Referee}
	pad := "referee"
	if seat > 0 {
		from = Sender{Kind: wire.Seat, Audience: wire.Player(seat)}
		pad = string(wire.Player(seat))
	}
	return Input{Key: &hardware.KeyEvent{Keypad: pad, Key: key}, Args: args, From: from}
}

// Notice is a published event that changes no state: an unknown tag, a
// refused action, a device fault.
type Notice struct {
	Type wire.NoticeType `json:"type"`
	Code string          `json:"code,omitempty"`
	Text rules.Text      `json:"text"`
	// Device is the reader or keypad it concerns; Topic the MQTT topic of a
	// refused command; Die the dice source of a fairness warning.
	Device string `json:"device,omitempty"`
	Topic  string `json:"topic,omitempty"`
	Die    string `json:"die,omitempty"`
	UID    string `json:"uid,omitempty"`
	// Action is the type of the refused action, when there is one.
	Action string `json:"action,omitempty"`
}

// Game is the game in play, as the daemon drives it. Each game's adapter
// implements it over its pure engine.
type Game interface {
	// Name is the config's game id (GameSpec.ID).
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

// Summarizer is implemented by games that can say in a few lines how the
// game stands for a viewer; the terminal watch and text displays show them
// without knowing the game.
type Summarizer interface {
	Summary(Viewer) []rules.Text
}

// Scorer is implemented by games that have a score for the table's own
// displays, in the form each kind of display can show.
type Scorer interface {
	Scoreboard() hardware.Scoreboard
}

// LegalLister is implemented by games whose engine says which actions it
// may take now; the referee's view shows them.
type LegalLister interface {
	LegalActions() []string
}

// Viewer is who a view is for.
type Viewer struct {
	Role Role `json:"role"`
	// Seat is the player's seat when Role is RolePlayer.
	Seat int `json:"seat,omitempty"`
}

// Audience is the wire audience of a viewer.
func (v Viewer) Audience() wire.Audience {
	switch v.Role {
	case RoleReferee:
		return wire.Referee
	case RolePlayer:
		return wire.Player(v.Seat)
	}
	return wire.Public
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

// Concealer is implemented by games whose actions carry what not everyone
// may see (a card drawn into a hand): Conceal is the action as the public
// may know it, hidden fields left out. The table says it, not the action,
// where it names an action's values in public (an undo's or a
// correction's text); the journal keeps the action whole.
type Concealer interface {
	Conceal(Action) Action
}

// ActionTeller is implemented by games that can say an action in the
// game's words: its name and its values as a person reads them (who,
// which card, unit or place by its name, the dice), never an id, for the
// referee's record: the line of a correction ("rzut kością (Marysia): 2
// → rzut kością (Marysia): 3") or of an undo. The table tells the action
// as the public may know it (Concealer).
type ActionTeller interface {
	TellAction(Action) rules.Text
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

// SampleDataer is implemented by games whose data can be a club's box
// (docs/box.md): SampleData says the game runs on data the rulebook does
// not print, which the screens then say.
type SampleDataer interface {
	SampleData() bool
}

// SampleDataText is what the screens show of a game on sample data.
var SampleDataText = wire.SampleDataText

// ReaderNamer is implemented by games whose readers and keypads belong to
// a seat or a place of the game: ReaderName is the reader in the game's
// words as it follows "na" / "on" ("czytniku gracza polskiego", "the
// Polish player's reader"), for the notices that name a reader (an
// unknown card), never its config name; ok is false for a reader the
// game does not know.
type ReaderNamer interface {
	ReaderName(reader string) (name rules.Text, ok bool)
}

// TurnTeller is implemented by games that say whose turn it is, for the
// table's "your turn" lights.
type TurnTeller interface {
	ActiveSeat() int
}

// Allower is implemented by games whose engine can let an action stand
// that the rules refuse, when the referee allows the breach ("flag but
// allow"; rules.Waiver). ApplyAllowing is Apply with the rejection codes
// the referee lets stand; waived are those the action actually broke. An
// engine honours the codes only at its rule-breach checks (distances,
// ranges, turn and timing, costs, limits), never for malformed input.
type Allower interface {
	ApplyAllowing(a Action, codes []string) (events []any, waived []string, commit func(), err error)
}

// ErrCannotAllow: the game's engine lets no breach stand.
var ErrCannotAllow = errors.New("this game's engine cannot let a refused action stand")

// Desyncer is implemented by games that can tell where the table and the
// state disagree (a dead model still standing, a model the camera lost),
// for the referee.
type Desyncer interface {
	Desyncs() []rules.Text
}

// Cataloguer is implemented by games whose views name what they show by
// id from a catalogue: the public facts that do not change during a game
// (the card table, the map, the names of places and abilities). The table
// publishes it once, retained on its catalogue topic, and sends it once to
// each screen, instead of in every state to every subscriber. Catalogue
// is a JSON object whose keys the game's views leave out; the screens put
// them back before a panel draws. It holds only what every viewer may see
// (never a hand, a deck's order or a seed), and it is read again only when
// the game is opened anew (a new game, or a ruling that replaces the
// opening).
type Cataloguer interface {
	Catalogue() any
}

// Tag is what a tag UID stands for (a line of the table's tag registry).
type Tag struct {
	UID string `yaml:"uid" json:"uid"`
	// Kind is unit, card, die, seat or command.
	Kind string `yaml:"kind" json:"kind"`
	// ID is the unit, card, die, seat or command the tag names. Several UIDs
	// may name the same ID (a card reprinted, a unit with two cards).
	ID    string `yaml:"id" json:"id"`
	Label string `yaml:"label" json:"label,omitempty"`
}

// CameraDie is one die of a throw the camera read in its dice tray: the
// roll (origin camera, the tray as its device, the reader's confidence)
// and the die's body colour (white, red, …), for games whose dice differ
// by colour.
type CameraDie struct {
	dice.Roll
	Colour string `json:"colour,omitempty"`
}

// CameraRolls are the rolls of a camera throw, in the tray's order.
func CameraRolls(ds []CameraDie) []dice.Roll {
	out := make([]dice.Roll, len(ds))
	for i, d := range ds {
		out[i] = d.Roll
	}
	return out
}
