package companion

import (
	"context"
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
// statement names the last entry that changed the game, so that the same
// game's result is the same statement after a restart, whatever notices
// or calls came after it (a venue takes it once).
func (t *table) addResult(p *Publication, atStart bool) {
	seats := Outcome(t.game)
	if !atStart && slices.Equal(seats, t.resultSeats) {
		return
	}
	if seats == nil {
		t.resultSeats = nil
		p.Result = []byte{}
		return
	}
	seq := t.plan.lastChange()
	e, ok, err := t.journal.Entry(context.Background(), seq)
	if err != nil || !ok {
		t.log.Error("the result statement is not published: its entry is not readable", "seq", seq, "err", err)
		return
	}
	hash := e.Hash
	st := rec.Statement{Identity: rec.Identity{Venue: t.cfg.Venue, Table: t.cfg.Table, Game: t.game.Name()},
		FinalSeq: seq, FinalHash: hash, Finished: true, Seats: seats, Round: t.round}
	if t.pairing.Pairing != "" && t.round > 0 {
		// Bound to the pairing the venue issued (v4).
		st.Tournament, st.Pairing, st.Players = t.pairing.Tournament, t.pairing.Pairing, t.pairing.Players
	}
	if h, ok := t.game.(Headliner); ok {
		r := h.Headline()
		st.Result = rec.Text{PL: r.PL, EN: r.EN}
	}
	if sd, ok := t.game.(SampleDataer); ok && sd.SampleData() {
		st.SampleData = true
	}
	m := wire.ResultMessage{Statement: string(st.Marshal())}
	if t.resultKey != nil {
		m.Signature = string(rec.Sign(st, t.resultKey))
		m.Key = rec.Fingerprint(t.resultKey.Public().(ed25519.PublicKey))
	}
	p.Result, _ = json.Marshal(m)
	t.resultSeats = seats
}
