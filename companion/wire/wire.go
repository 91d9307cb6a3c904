// Package wire is the one contract between a table and everything that
// listens to it or talks to it: the MQTT topics, the messages on them and
// the commands a table takes. The daemon, the venue hub, the terminal watch
// and the broker's access rules use it; nothing else spells a topic.
//
// Topics of one table, under sztab/v1/{venue}/{table}/:
//
//	status                 retained StatusMessage (online/offline)
//	state                  retained public StateMessage
//	events                 public EventMessages (and answers to table keys)
//	image                  retained annotated table image (JPEG)
//	catalogue              retained CatalogueMessage: the game's public
//	                       facts that do not change during a game (cards,
//	                       map, texts), which the states name by id
//	referee/state          retained referee StateMessage
//	referee/fairness       retained FairnessMessage
//	referee/events         referee EventMessages (answers to the referee)
//	referee/command        the referee's Commands to the table
//	player/{seat}/state    retained StateMessage for that seat
//	player/{seat}/events   answers to that seat's commands
//	player/{seat}/command  that seat's Commands to the table
//	pairing                retained PairingMessage, written by the venue
//	                       only: the round the table is paired in now
package wire

import (
	"strconv"
	"strings"
	"time"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// Version is the wire contract's version, the second part of every topic.
const Version = "v1"

// Root is the first part of every topic, with the contract's version.
const Root = "sztab/" + Version + "/"

// Audience is who may see a message: Public, Referee or a player's seat.
type Audience string

const (
	Public  Audience = "public"
	Referee Audience = "referee"
)

// Player is the audience of the player in seat.
func Player(seat int) Audience { return Audience("player/" + strconv.Itoa(seat)) }

// Seat returns the seat of a player audience.
func (a Audience) Seat() (int, bool) {
	s, ok := strings.CutPrefix(string(a), "player/")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

// Topics are the topics of one table.
type Topics struct {
	Base                         string
	Status, State, Events, Image string
	// Live carries the public state's headline (the state message without
	// state, summary and the referee's parts), not retained and at QoS 0, over
	// one connection to each of two nodes of a venue's broker cluster: a
	// NATS node lost with a JetStream leader holds a table's retained
	// publications up for the election (5–10 s), and core pub/sub between
	// the nodes left does not wait (docs/venue-brokers.md).
	Live string
	// Catalogue is the game's catalogue (retained, public): what never
	// changes during a game, read once (CatalogueMessage).
	Catalogue string
	// Result is the table's result statement once its game is over
	// (retained, public): what a venue's standings are built from.
	Result string
	// Pairing is the venue's retained PairingMessage for the table: the
	// one topic under the table that the venue writes and the table only
	// reads.
	Pairing string

	RefereeState, RefereeFairness, RefereeEvents string
	RefereeCommand                               string
}

// TopicsFor returns the topics of a table.
func TopicsFor(venue, table string) Topics {
	base := Root + venue + "/" + table + "/"
	return Topics{Base: base, Status: base + "status", State: base + "state", Live: base + "live", Events: base + "events", Image: base + "image",
		Catalogue: base + "catalogue", Result: base + "result", Pairing: base + "pairing", RefereeState: base + "referee/state", RefereeFairness: base + "referee/fairness", RefereeEvents: base + "referee/events",
		RefereeCommand: base + "referee/command"}
}

// PlayerState is the topic of a player's own view.
func (t Topics) PlayerState(seat int) string {
	return t.Base + "player/" + strconv.Itoa(seat) + "/state"
}

// PlayerCommand is where a player sends commands for their seat.
func (t Topics) PlayerCommand(seat int) string {
	return t.Base + "player/" + strconv.Itoa(seat) + "/command"
}

// StateFor is the state topic of an audience.
func (t Topics) StateFor(a Audience) string {
	if a == Referee {
		return t.RefereeState
	}
	if seat, ok := a.Seat(); ok {
		return t.PlayerState(seat)
	}
	return t.State
}

// EventsFor is the events topic of an audience.
func (t Topics) EventsFor(a Audience) string {
	if a == Referee {
		return t.RefereeEvents
	}
	if seat, ok := a.Seat(); ok {
		return t.Base + "player/" + strconv.Itoa(seat) + "/events"
	}
	return t.Events
}

// CommandFilter matches every command topic of the table (the referee's and
// every seat's).
func (t Topics) CommandFilter() []string {
	return []string{t.RefereeCommand, t.Base + "player/+/command"}
}

// VenueFilter matches one kind of message (status, state, …) of every
// table of a venue; venue "+" matches every venue.
func VenueFilter(venue, suffix string) string { return Root + venue + "/+/" + suffix }

// TableFilter matches everything of one table; venue may be "+".
func TableFilter(venue, table string) string { return Root + venue + "/" + table + "/#" }

// Topic is a parsed topic of a table.
type Topic struct {
	Venue, Table string
	// Suffix is what follows the table: "state", "referee/events", …
	Suffix string
}

// ParseTopic splits a table's topic; ok is false for anything else.
func ParseTopic(topic string) (Topic, bool) {
	rest, ok := strings.CutPrefix(topic, Root)
	if !ok {
		return Topic{}, false
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return Topic{}, false
	}
	return Topic{Venue: parts[0], Table: parts[1], Suffix: parts[2]}, true
}

// CommandAudience says who a command topic belongs to: the referee, or the
// player of a seat.
func (t Topic) CommandAudience() (Audience, bool) {
	if t.Suffix == "referee/command" {
		return Referee, true
	}
	seat, ok := strings.CutPrefix(t.Suffix, "player/")
	if !ok {
		return "", false
	}
	seat, ok = strings.CutSuffix(seat, "/command")
	n, err := strconv.Atoi(seat)
	if !ok || err != nil || n < 1 || strconv.Itoa(n) != seat {
		return "", false
	}
	return Player(n), true
}

// HiddenFor says who may read a topic or a subscription filter: "" for
// everyone, else the one audience besides the referee (and the table
// itself). A filter whose table part is a wildcard is judged by the parts
// it names, so sztab/# reaches only public topics message by message. A
// referee level hides everything under it and the level itself; a player
// level without a seat after it is the referee's alone ("player/" is no
// player's audience).
func HiddenFor(topic string) Audience {
	parts := strings.Split(topic, "/")
	// sztab/v1/{venue}/{table}/referee/... or .../player/{seat}/...
	if len(parts) >= 5 && parts[0] == "sztab" {
		switch parts[4] {
		case "referee":
			return Referee
		case "player":
			if len(parts) == 5 {
				return "player/"
			}
			return Audience("player/" + parts[5])
		}
	}
	return ""
}

// StatusMessage is the retained status of a table.
type StatusMessage struct {
	Status  string `json:"status"`
	Game    string `json:"game,omitempty"`
	Version string `json:"version,omitempty"`
	Venue   string `json:"venue"`
	Table   string `json:"table"`
	// Screen is the table screen's URL for the venue wall.
	Screen string `json:"screen,omitempty"`
	// Commands are the game's commands, for the watch's keys.
	Commands Vocabulary `json:"commands,omitempty"`
	// Attention are the event types that ask for a person's attention
	// (the function Attention): the watch marks those events.
	Attention []string `json:"attention,omitempty"`
	// Instance is random per start of the daemon: a venue that hears two
	// instances online for one table id knows that two daemons claim it.
	Instance string `json:"instance,omitempty"`
	// Head is the table's journal head when the status was written: a
	// venue or hub that keeps it can later show that entries were cut
	// from the journal's end (sztab verify --head / --heads).
	Head *ChainHead `json:"head,omitempty"`
}

// ChainHead is a journal's head as a table publishes it. The entry's hash
// itself is not published while a game runs: it covers the hidden
// information, and whoever knows the entries around it could try the few
// hands or goals a player may hold against it. Mark is the hash keyed with
// a random key kept in the journal (HMAC-SHA256), so it binds the entry
// Seq of this journal to its hash while telling nothing of it; Journal
// names the journal (a digest of that key), so a table's new journal is
// told from its old one.
type ChainHead struct {
	Journal string `json:"journal"`
	Seq     int64  `json:"seq"`
	Mark    string `json:"mark"`
}

// ResultMessage is a table's result, retained on .../result once its game
// is over: the result statement (companion/record.Statement's canonical
// text, v2 with the seats' outcomes) and, when the table has a key, its
// Ed25519 signature file ("ed25519 <base64>\n") and the key's fingerprint.
// A venue checks Signature with the table's public key
// (record.VerifyStatement) before it counts the result; an unsigned result
// is shown, never counted.
type ResultMessage struct {
	Statement string `json:"statement"`
	Signature string `json:"signature,omitempty"`
	Key       string `json:"key,omitempty"`
}

// CatalogueMessage is a game's catalogue, retained on .../catalogue: the
// public facts that never change during a game (a card table, a map, the
// names of places), which its states name by id. Catalogue is a JSON
// object whose keys every view of the game leaves out; a screen puts them
// back into the state before it draws.
type CatalogueMessage struct {
	Game      string `json:"game"`
	Catalogue any    `json:"catalogue"`
}

// StateMessage is a view of the state: the retained public one on .../state,
// the referee's on .../referee/state, a player's on .../player/{seat}/state.
type StateMessage struct {
	Seq   int64  `json:"seq"`
	Venue string `json:"venue"`
	Table string `json:"table"`
	Game  string `json:"game"`
	// Headline is a one-line summary for the venue wall.
	Headline *rules.Text `json:"headline,omitempty"`
	// SampleData is set when the game runs on data its rulebook does not
	// print (the shipped assumed data, docs/box.md): the screens show it
	// as a badge ("dane przykładowe" / "sample data").
	SampleData *rules.Text `json:"sample_data,omitempty"`
	// Finished says the game is over (it has an outcome): the headline is
	// then its result (companion.ResultText).
	Finished bool `json:"finished,omitempty"`
	// Summary is a few lines of text for this viewer: the terminal watch
	// and small displays show them without knowing the game.
	Summary []rules.Text `json:"summary,omitempty"`
	// Image says an annotated table image is at /table.jpg and .../image.
	Image bool `json:"image,omitempty"`
	State any  `json:"state"`
	// Instance is the daemon's run (StatusMessage.Instance): a state of a
	// lower seq from another run is a new game's, one from the same run is
	// late (a copy that took the slower way through a broker cluster).
	Instance string `json:"instance,omitempty"`
	// Fairness is the dice fairness watch, in the referee's view only;
	// DiceNames its sources (the reports' keys) in words.
	Fairness  []dice.FairnessReport `json:"fairness,omitempty"`
	DiceNames map[string]rules.Text `json:"dice_names,omitempty"`
	// Desync lists where the camera and the state disagree, for the referee.
	Desync []Desync `json:"desync,omitempty"`
	// Legal are the action types the engine may take now, for the referee.
	Legal []string `json:"legal,omitempty"`
	// Record says, in every view, that the referee took back or corrected
	// actions, let refused ones stand (flagged) and which seats wait for
	// the referee; nil when nothing of the kind happened.
	Record *RecordStatus `json:"record,omitempty"`
}

// RecordStatus is the referee's part of the game so far.
type RecordStatus struct {
	// Corrections counts undos and corrections; Flags actions the rules
	// refused that the referee let stand.
	Corrections int `json:"corrections,omitempty"`
	Flags       int `json:"flags,omitempty"`
	// Last are the latest rulings, oldest first.
	Last []RecordNote `json:"last,omitempty"`
	// Calls are the open referee calls: those seats' input waits.
	Calls []OpenCall `json:"calls,omitempty"`
}

// RecordNote is one ruling: the journal entry (its seq and kind: undo,
// correction, allowed, call, answer), the entry it concerns and what it
// says.
type RecordNote struct {
	Seq    int64      `json:"seq"`
	Kind   string     `json:"kind"`
	Target int64      `json:"target,omitempty"`
	Text   rules.Text `json:"text"`
}

// OpenCall is a referee call waiting for the referee's answer.
type OpenCall struct {
	Seq  int64  `json:"seq"`
	Seat int    `json:"seat"`
	By   string `json:"by"`
	Text string `json:"text,omitempty"`
}

// Desync is one disagreement between the table and the state.
type Desync struct {
	Text rules.Text `json:"text"`
}

// EventMessage is one published event. ID identifies it across
// republishing: "{seq}.{index}" for the events of a journal entry.
type EventMessage struct {
	ID    string    `json:"id"`
	Seq   int64     `json:"seq"`
	Index int       `json:"index"`
	At    time.Time `json:"at"`
	Event any       `json:"event"`
}

// EventID is the identity of the index-th event of journal entry seq.
func EventID(seq int64, index int) string {
	return strconv.FormatInt(seq, 10) + "." + strconv.Itoa(index)
}

// FairnessMessage is the retained fairness watch on the referee topic.
type FairnessMessage struct {
	Seq     int64                 `json:"seq"`
	Sources []dice.FairnessReport `json:"sources"`
	// Names are the sources (their keys) in words.
	Names map[string]rules.Text `json:"names,omitempty"`
}

// Meta is what every screen is told about the table first.
type Meta struct {
	Venue string `json:"venue"`
	Table string `json:"table"`
	Game  string `json:"game"`
	// Title is the game's printed name.
	Title       rules.Text `json:"title"`
	Language    string     `json:"language"`
	Seats       []int      `json:"seats"`
	HeartbeatMS int64      `json:"heartbeat_ms"`
	// Commands are the commands this page's audience may send.
	Commands []CommandSpec `json:"commands,omitempty"`
	// Attention are the event types that ask for a person's attention
	// (the function Attention): the pages mark those events in their log.
	Attention []string `json:"attention,omitempty"`
}

// SampleDataText is how a game on sample data is marked wherever it is
// shown: the table's screens (StateMessage.SampleData), the venue's wall
// and standings, the organiser's pages.
var SampleDataText = rules.Text{PL: "dane przykładowe", EN: "sample data"}
