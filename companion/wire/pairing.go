package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/sztab/sztab/companion/record"
)

// PairingMessage is the venue's retained message on a table's .../pairing
// topic: the round the table is paired in and its players, seat 1 first.
// `sztab venue` publishes it whenever a round is paired, imported or
// forced, when the table's result of that round is counted or corrected,
// and again after each (re)connect; a table not paired in the current
// round has its topic cleared (an empty retained message).
//
// A table keeps the first round it hears while its game is not finished
// as its game's round (named in its result statement, v3), unless Result
// says that round's result is already in: a table that starts its next
// game before the next round is paired does not take the round just
// played. When Missing names an earlier round, the table's game may be
// that round's (the table was away when the next round was forced
// without its result): the game then names no round at all.
type PairingMessage struct {
	Venue string `json:"venue"`
	Table string `json:"table"`
	Round int    `json:"round"`
	// Players are the players' names (their ids where a name is not
	// known), seat 1 first.
	Players []string `json:"players"`
	// Result is the state of the table's result for this round at the
	// venue: "awaiting", "signed", "corrected" or "refused".
	Result string `json:"result,omitempty"`
	// Missing are the earlier rounds the table was paired in that have no
	// result of it at the venue (neither signed nor corrected: the next
	// round was forced without it), in ascending order.
	Missing []int `json:"missing,omitempty"`
	// Tournament is the tournament's id and Pairing the id the venue
	// issued this pairing (random, 128 bits in hex: nobody can guess it
	// before the venue publishes it); PlayerIDs are the players' ids,
	// seat 1 first. The table signs all three and the round into its
	// result (record.Statement v4), and the venue counts a result only for
	// the pairing it issued to that table, with those players. A venue
	// older than these fields sends none (the table then signs a v3).
	Tournament string   `json:"tournament,omitempty"`
	Pairing    string   `json:"pairing,omitempty"`
	PlayerIDs  []string `json:"player_ids,omitempty"`
}

// The states of a pairing's result that mean it is in.
const (
	PairingSigned    = "signed"
	PairingCorrected = "corrected"
)

// Counted says the round's result of the table is in (signed or
// corrected): a table does not take that round for a new game.
func (m PairingMessage) Counted() bool {
	return m.Result == PairingSigned || m.Result == PairingCorrected
}

// MaxPairingBytes bounds a pairing message: a table of eight players with
// long names is well under 4 KiB.
const MaxPairingBytes = 16 << 10

// MaxPairingRound is the highest round a pairing names.
const MaxPairingRound = 10000

// ParsePairing reads a pairing message for the table venue/table. An
// empty payload (a cleared topic: the table is not paired now) is
// ok == false with no error; anything that is not one well-formed
// message for this table is an error saying why.
func ParsePairing(payload []byte, venue, table string) (m PairingMessage, ok bool, err error) {
	if len(payload) == 0 {
		return m, false, nil
	}
	if len(payload) > MaxPairingBytes {
		return m, false, fmt.Errorf("wire: pairing: %d bytes, more than %d", len(payload), MaxPairingBytes)
	}
	if !utf8.Valid(payload) {
		return m, false, errors.New("wire: pairing: not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return PairingMessage{}, false, fmt.Errorf("wire: pairing: not a pairing message: %w", err)
	}
	if dec.More() {
		return PairingMessage{}, false, errors.New("wire: pairing: more after the message")
	}
	switch {
	case m.Venue != venue || m.Table != table:
		return PairingMessage{}, false, fmt.Errorf("wire: pairing: for table %q of venue %q, this is %s of %s", clipText(m.Table), clipText(m.Venue), table, venue)
	case m.Round < 1 || m.Round > MaxPairingRound:
		return PairingMessage{}, false, fmt.Errorf("wire: pairing: round %d, want 1 to %d", m.Round, MaxPairingRound)
	case len(m.Players) == 0 || len(m.Players) > 16:
		return PairingMessage{}, false, fmt.Errorf("wire: pairing: %d players, want 1 to 16", len(m.Players))
	}
	for i, r := range m.Missing {
		if r < 1 || r >= m.Round || (i > 0 && r <= m.Missing[i-1]) {
			return PairingMessage{}, false, fmt.Errorf("wire: pairing: missing rounds %v: want earlier rounds than %d, ascending, each once", clipRounds(m.Missing), m.Round)
		}
	}
	switch {
	case m.Pairing == "" && (m.Tournament != "" || m.PlayerIDs != nil):
		return PairingMessage{}, false, errors.New("wire: pairing: a tournament or player ids without the pairing's id")
	case m.Pairing == "":
	case !record.ValidID(m.Pairing):
		return PairingMessage{}, false, fmt.Errorf("wire: pairing: pairing id %q: want 8 to 64 letters, digits, '-' or '_'", clipText(m.Pairing))
	case !record.ValidID(m.Tournament):
		return PairingMessage{}, false, fmt.Errorf("wire: pairing: tournament id %q: want 8 to 64 letters, digits, '-' or '_'", clipText(m.Tournament))
	case len(m.PlayerIDs) != len(m.Players):
		return PairingMessage{}, false, fmt.Errorf("wire: pairing: %d player ids for %d players", len(m.PlayerIDs), len(m.Players))
	}
	for i, id := range m.PlayerIDs {
		if id == "" || len(id) > record.MaxPlayerID {
			return PairingMessage{}, false, fmt.Errorf("wire: pairing: seat %d: player id of %d bytes, want 1 to %d", i+1, len(id), record.MaxPlayerID)
		}
	}
	switch m.Result {
	case "", "awaiting", PairingSigned, PairingCorrected, "refused":
	default:
		return PairingMessage{}, false, fmt.Errorf("wire: pairing: result %q, want awaiting, signed, corrected or refused", clipText(m.Result))
	}
	return m, true, nil
}

func clipRounds(rs []int) []int {
	if len(rs) > 8 {
		return rs[:8]
	}
	return rs
}

func clipText(s string) string {
	if len(s) <= 64 {
		return s
	}
	n := 64
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
