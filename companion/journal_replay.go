package companion

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// GameRecord is what a replay of a journal says of its game, for the
// referee's record (`sztab export`): who played, how it stands or ended,
// what the journal holds, and the physical dice's fairness.
type GameRecord struct {
	Players []RecordPlayer
	// Finished says the game is over; Result is its headline then (the
	// result), or how it stands.
	Finished bool
	Result   rules.Text
	// Seats is each seat's outcome and score once the game is over (the
	// game's Outcomer), for the signed result statement.
	Seats []rec.Seat
	// Standing is the game's summary for the public (Summarizer), if it
	// has one.
	Standing []rules.Text
	// Entries, Actions and Notices are counted in the journal; Refusals
	// are the notices of refused actions.
	Entries, Actions, Notices, Refusals int
	First, Last                         time.Time
	Dice                                []dice.FairnessReport
	// Rulings (referee calls and answers), Corrections (undos and
	// corrections) and Breaches (refused actions the referee let stand,
	// flagged) are one line each, in journal order.
	Rulings, Corrections, Breaches []string
}

// RecordPlayer is a player of the record: seat, name, and side (faction,
// colour or army), as the public view shows them.
type RecordPlayer = gamespec.Player

// ReplayJournal replays a journal's actions on g, a fresh game of the
// journal's game built by its registered spec (GameSpec.New), the way the
// daemon does at start (table.replay): every action decoded and applied in
// order, the physical dice of each fed to a fairness watch (cfg). Nothing
// is published and nothing written. The players and the result come from
// the game's own seams: its public view's "players" and "result", its
// Headliner and Summarizer. Entries after seq through are left out (0:
// none), so that a record read beside a playing daemon is of one moment.
func ReplayJournal(ctx context.Context, j *Journal, g Game, table string, cfg dice.WatchConfig, through int64) (GameRecord, error) {
	var r GameRecord
	watch := dice.NewWatch(cfg)
	dc, _ := g.(DiceCarrier)
	p := newPlan()
	err := j.Entries(ctx, 0, func(e Entry) error {
		if through > 0 && e.Seq > through {
			return nil
		}
		r.Entries++
		if r.First.IsZero() {
			r.First = e.At
		}
		r.Last = e.At
		if e.Game != g.Name() {
			return &JournalError{Path: j.Path(), Err: fmt.Errorf("entry %d belongs to a %s game, not %s", e.Seq, e.Game, g.Name())}
		}
		switch e.Kind {
		case KindNotice:
			r.Notices++
			var n struct {
				Type wire.NoticeType `json:"type"`
			}
			if json.Unmarshal(e.Body, &n) == nil && n.Type == wire.NoticeRejected {
				r.Refusals++
			}
		case KindAction:
			r.Actions++
		}
		if err := p.add(e); err != nil {
			return &JournalError{Path: j.Path(), Err: err}
		}
		return nil
	})
	if err != nil {
		return GameRecord{}, err
	}
	// The actions as the journal says they stand: undone ones left out,
	// corrected ones replaced, allowed ones with the referee's waiver.
	err = build(g, p.steps, func(a Action) {
		if dc != nil {
			for _, roll := range dc.RollsIn(a) {
				if roll.Origin == dice.Keypad || roll.Origin == dice.Camera || roll.Origin == dice.NFC {
					watch.Observe(dice.SourceKey(table, roll), roll)
				}
			}
		}
	})
	if err != nil {
		return GameRecord{}, &JournalError{Path: j.Path(), Err: err}
	}
	r.Rulings, r.Corrections, r.Breaches = p.rulings, p.corrections, p.breaches
	r.Dice = watch.Reports()
	r.Players = viewPlayers(g)
	r.Seats = Outcome(g)
	r.Finished = r.Seats != nil
	if h, ok := g.(Headliner); ok {
		r.Result = h.Headline()
	}
	if s, ok := g.(Summarizer); ok {
		r.Standing = s.Summary(Public)
	}
	return r, nil
}
