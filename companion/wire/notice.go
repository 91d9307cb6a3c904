package wire

// NoticeType is the type of a notice: an event the table publishes that
// changes no game state (a refusal, an unknown tag, a device fault, a
// referee's ruling). Every notice type is one of the constants below and
// listed in Notices; a test fails when a producer publishes any other.
type NoticeType string

// The notice types of the contract. A game's binder uses them as well as
// the table; a game that needs another adds it here, with its attention.
const (
	// NoticeRejected: an action the rules refuse (code, text, the refused
	// action's type).
	NoticeRejected NoticeType = "rejected"
	// NoticeCommandRejected: a command refused before any game saw it
	// (garbled, retained, over its sender's rate, a key no game takes).
	NoticeCommandRejected NoticeType = "command_rejected"
	// NoticeCommandsNotRecorded: how many more of a sender's refused
	// commands were counted, not recorded one by one.
	NoticeCommandsNotRecorded NoticeType = "commands_not_recorded"
	// NoticeUnknownTag: a tag that is not in the table's registry.
	NoticeUnknownTag NoticeType = "unknown_tag"
	// NoticeTagIgnored: a known tag that means nothing now.
	NoticeTagIgnored NoticeType = "tag_ignored"
	// NoticeDeviceFault and NoticeDeviceMissing: a reader or keypad that
	// misreads, stopped answering or was never found.
	NoticeDeviceFault   NoticeType = "device_fault"
	NoticeDeviceMissing NoticeType = "device_missing"
	// NoticeDiceUnreadable and NoticeDiceIgnored: a camera throw that was
	// not read, or read when no roll was wanted.
	NoticeDiceUnreadable NoticeType = "dice_unreadable"
	NoticeDiceIgnored    NoticeType = "dice_ignored"
	// NoticeDieEntered and NoticeDiceCleared: a die typed on a keypad
	// waits for the rest of its throw; the dice typed so far are cleared.
	NoticeDieEntered  NoticeType = "die_entered"
	NoticeDiceCleared NoticeType = "dice_cleared"
	// NoticeDieSuspect: a die starts to look loaded (the referee's only).
	NoticeDieSuspect NoticeType = "die_suspect"
	// NoticeJournalFailed: an action was not saved.
	NoticeJournalFailed NoticeType = "journal_failed"
	// NoticeSelectionCleared: what a player had picked is put down.
	NoticeSelectionCleared NoticeType = "selection_cleared"
	// NoticeCheckBoard: the camera is unsure of the board; the players
	// look.
	NoticeCheckBoard NoticeType = "check_board"
	// NoticeNextGame: the referee opened the table's next game.
	NoticeNextGame NoticeType = "next_game"
	// The referee's rulings and calls: an undo, a correction, a refused
	// action let stand (flagged), a seat's call and its answer.
	NoticeUndo       NoticeType = "undo"
	NoticeCorrection NoticeType = "correction"
	NoticeAllowed    NoticeType = "allowed"
	NoticeCall       NoticeType = "call"
	NoticeAnswer     NoticeType = "answer"
	// NoticeOtherContract: a message for the table under a wire contract
	// it cannot read (a newer release's venue pairing it): the referee's,
	// with the release that reads it.
	NoticeOtherContract NoticeType = "other_contract"
)

// NoticeSpec is one notice type and whether it asks for a person's
// attention (a refusal, a fault, a call): the watch marks such an event,
// the pages colour it (EventMessage.Attention).
type NoticeSpec struct {
	Type      NoticeType `json:"type"`
	Attention bool       `json:"attention,omitempty"`
}

// Notices are every notice type of the contract.
var Notices = []NoticeSpec{
	{NoticeRejected, true},
	{NoticeCommandRejected, true},
	{NoticeCommandsNotRecorded, true},
	{NoticeUnknownTag, true},
	{NoticeTagIgnored, false},
	{NoticeDeviceFault, true},
	{NoticeDeviceMissing, true},
	{NoticeDiceUnreadable, true},
	{NoticeDiceIgnored, false},
	{NoticeDieEntered, false},
	{NoticeDiceCleared, false},
	{NoticeDieSuspect, true},
	{NoticeJournalFailed, true},
	{NoticeSelectionCleared, false},
	{NoticeCheckBoard, true},
	{NoticeNextGame, false},
	{NoticeUndo, false},
	{NoticeCorrection, false},
	{NoticeAllowed, true},
	{NoticeCall, true},
	{NoticeAnswer, false},
	{NoticeOtherContract, true},
}

func (t NoticeType) spec() (NoticeSpec, bool) {
	for _, s := range Notices {
		if s.Type == t {
			return s, true
		}
	}
	return NoticeSpec{}, false
}

// Declared says t is one of the contract's notice types.
func (t NoticeType) Declared() bool {
	_, ok := t.spec()
	return ok
}

// Attention says a notice of type t asks for a person's attention.
func (t NoticeType) Attention() bool {
	s, _ := t.spec()
	return s.Attention
}

// Attention lists the event types that ask for a person's attention: the
// contract's notices that do, then the game's own (a game declares them in
// its spec: a measurement too close to call). The table sends the
// list in its status and its screens' meta; the watch and the pages mark
// an event by it and never by a type they know themselves.
func Attention(game []string) []string {
	var out []string
	for _, n := range Notices {
		if n.Attention {
			out = append(out, string(n.Type))
		}
	}
	return append(out, game...)
}
