package companion

import (
	"context"
	"errors"

	"github.com/sztab/sztab/companion/wire"
)

// receivePairing keeps the venue's latest pairing message for the loop
// that accepts inputs (the game's state is that loop's). It runs on the
// MQTT client's goroutine and never waits: a newer message replaces one
// not yet taken.
func (d *Daemon) receivePairing(m Message) {
	d.pairingMu.Lock()
	d.pairing = &m
	d.pairingMu.Unlock()
	select {
	case d.pairingKick <- struct{}{}:
	default:
	}
}

// receiveOtherPairing hears the table's pairing under every contract: one
// under another contract than the table's (a newer release's venue,
// sztab/v2/…) is not read, and the table says so, once a topic, with the
// release that reads it, in Polish and English. Its own contract's
// pairing is receivePairing's.
func (d *Daemon) receiveOtherPairing(m Message) {
	var other *wire.ErrOtherVersion
	if err := wire.CheckVersion(m.Topic); !errors.As(err, &other) || len(m.Payload) == 0 {
		return
	}
	if _, said := d.otherPairings.LoadOrStore(m.Topic, struct{}{}); said {
		return
	}
	d.log.Warn("the venue's pairing is in a wire contract this table cannot read: the game is paired in no round (the organiser enters its result), until the venue speaks this table's contract or the table is upgraded",
		"topic", m.Topic, "reason", other.Error(), "reason_pl", other.Polish())
	// The referee is told by the loop (the table's events are its own).
	d.pairingMu.Lock()
	d.otherSaid = append(d.otherSaid, other)
	d.pairingMu.Unlock()
	select {
	case d.pairingKick <- struct{}{}:
	default:
	}
}

// tellOtherContracts tells the referee (referee/events, in no journal
// entry) of the pairings heard under another contract (the daemon's loop).
func (d *Daemon) tellOtherContracts() {
	d.pairingMu.Lock()
	said := d.otherSaid
	d.otherSaid = nil
	d.pairingMu.Unlock()
	for _, e := range said {
		d.table.publishLoose(wire.Referee, Notice{Type: wire.NoticeOtherContract, Topic: e.Topic, Code: e.Version, Text: e.Text()})
	}
}

// handlePairing takes the venue's latest pairing (the daemon's loop).
//
// The game's round is the first round the table hears before the game
// is under way (nothing played but its opening), set once per journal (Journal.SetRound) and named in the
// result statement, so that a result the table publishes late (it was
// away; it catches up when it returns) is never counted by the venue in a
// later round. Not taken:
//   - a pairing once the game has its round: a table mid-game when the
//     organiser pairs or forces the next round keeps its game's round;
//   - a pairing once the game is over: its result was signed without a
//     round (v2), which the venue does not count (the organiser enters it);
//   - a pairing that comes while a game is under way (an action played
//     besides its opening): the game was not started under it, so its
//     result counts for no pairing; the referee starts the next game
//     under it (new_game), or the organiser enters the result;
//   - a pairing whose result the venue already has (signed or corrected):
//     a table that starts its next game before the next round is paired
//     hears the round just played, and waits for the next one;
//   - a pairing that names earlier rounds without the table's result
//     (Missing: the organiser forced the next round without it): the game
//     may be one of those, played while the table was away, so it names no
//     round, decided once like a round (the venue does not count such a
//     v2 result: the organiser enters it);
//   - a garbled message, or one for another table: logged with the
//     reason, and ignored.
//
// With the round the table keeps the pairing's ids (the tournament's, the
// pairing's and the players', Journal.SetPairing), which its result names
// (v4): the venue counts a result only for the pairing it issued to the
// table. A table that hears nothing while its game is on (off the venue
// network from before the round was paired until its game ended) signs a
// v2 result, which a venue does not count: the organiser enters it.
func (d *Daemon) handlePairing(ctx context.Context) {
	d.tellOtherContracts()
	d.pairingMu.Lock()
	m := d.pairing
	d.pairing = nil
	d.pairingMu.Unlock()
	if m == nil {
		return
	}
	p, ok, err := wire.ParsePairing(m.Payload, d.cfg.Venue, d.cfg.Table)
	t := d.table
	if err == nil {
		t.heard = nil
		if ok {
			t.heard = &p
		}
	}
	switch {
	case err != nil:
		d.log.Warn("the venue's pairing message is ignored", "topic", m.Topic, "reason", err.Error())
	case !ok:
		d.log.Info("the venue says the table is not paired now", "round", t.round)
	case t.roundSet && t.round == 0:
		d.log.Info("the venue paired a round; this game names none (decided when it first heard the venue)", "heard", p.Round)
	case t.roundSet:
		if p.Round != t.round {
			d.log.Info("the venue paired another round; this game keeps its round", "heard", p.Round, "round", t.round)
		} else {
			d.log.Info("the venue's pairing of this game's round", "round", p.Round, "result", p.Result)
		}
	case Outcome(t.game) != nil:
		d.log.Info("the venue's pairing came after the game was over: its result names no round", "heard", p.Round)
	case t.plan.played():
		d.log.Warn("the venue's pairing came while a game was under way: the game counts for no pairing (its result names none); start the next game under this pairing (new_game), or the organiser enters the result",
			"heard", p.Round)
	case p.Counted():
		d.log.Info("the venue has this table's result of the round it pairs; the game waits for the next round's pairing", "heard", p.Round, "result", p.Result)
	case len(p.Missing) > 0:
		round, err := t.journal.SetRound(ctx, 0)
		if err != nil {
			d.log.Error("the game's round is not kept", "err", err)
			return
		}
		t.round, t.roundSet = round, true
		d.log.Warn("the venue has no result of this table for an earlier round: this game may be that round's, so its result names no round (the organiser enters it if the venue refuses it)",
			"heard", p.Round, "missing", p.Missing)
	case p.Pairing != "":
		round, b, err := t.journal.SetPairing(ctx, p.Round, Binding{Tournament: p.Tournament, Pairing: p.Pairing, Players: p.PlayerIDs})
		if err != nil {
			d.log.Error("the game's round and pairing are not kept; its result will name none", "heard", p.Round, "err", err)
			return
		}
		t.round, t.roundSet, t.pairing = round, true, b
		d.log.Info("the game is a round of the venue's tournament", "round", round, "pairing", b.Pairing, "players", p.Players)
	default:
		// A venue that issues no pairing ids (older software).
		round, err := t.journal.SetRound(ctx, p.Round)
		if err != nil {
			d.log.Error("the game's round is not kept; its result will name none", "heard", p.Round, "err", err)
			return
		}
		t.round, t.roundSet = round, true
		d.log.Info("the game is a round of the venue's tournament", "round", round, "players", p.Players)
	}
}
