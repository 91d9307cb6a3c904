package companion

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
)

// loadResultKey reads the table's private key (config result_key), with
// which its result statement is signed; "" is none.
func loadResultKey(path string) (ed25519.PrivateKey, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("companion: result_key: %w", err)
	}
	key, err := rec.ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("companion: result_key %s: %w", path, err)
	}
	return key, nil
}

// addResult puts the table's result on p when it changed: the result
// statement, signed when the table has a key, once the game is over; an
// empty payload, which clears the retained result, when a game that was
// over is not any more (an undo), or at start when it is not over. The
// statement names the journal's head when the outcome first appeared; a
// later entry (a notice, a call) does not sign it again.
func (t *table) addResult(p *Publication, atStart bool) {
	seats := Outcome(t.game)
	if !atStart && slices.Equal(seats, t.resultSeats) {
		return
	}
	t.resultSeats = seats
	if seats == nil {
		p.Result = []byte{}
		return
	}
	seq, hash := t.journal.Head()
	st := rec.Statement{Identity: rec.Identity{Venue: t.cfg.Venue, Table: t.cfg.Table, Game: t.game.Name()},
		FinalSeq: seq, FinalHash: hash, Finished: true, Seats: seats}
	if h, ok := t.game.(Headliner); ok {
		r := h.Headline()
		st.Result = rec.Text{PL: r.PL, EN: r.EN}
	}
	m := wire.ResultMessage{Statement: string(st.Marshal())}
	if t.resultKey != nil {
		m.Signature = string(rec.Sign(st, t.resultKey))
		m.Key = rec.Fingerprint(t.resultKey.Public().(ed25519.PublicKey))
	}
	p.Result, _ = json.Marshal(m)
}
