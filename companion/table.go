package companion

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	rec "github.com/sztab/sztab/companion/record"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
)

// table is the authoritative game at one table: the game, its journal and
// the last sequence number. It takes one input at a time, from the daemon's
// loop only; every action is journaled before it takes effect, and what
// changed is handed to the fan-out after the commit. It never waits for a
// broker or a screen.
type table struct {
	// catalogue is the game's catalogue as last published.
	catalogue []byte
	cfg       *Config
	spec      GameSpec
	game      Game
	journal   *Journal
	tags      *TagRegistry
	clock     func() time.Time
	log       *slog.Logger
	out       Sink
	onEvent   func(seq int64, text rules.Text)
	// instance is the daemon's run, in every view (wire.StateMessage).
	instance string
	// loose numbers the messages outside the journal (answers, loose
	// events) for their ids: per table, so no table's ids say how busy
	// another is.
	loose atomic.Int64
	// hasImage says the camera has sent an annotated image.
	hasImage func() bool
	// tray takes each dice tray throw the camera settles on once
	// (camera_dice.go)
	tray trayThrows
	// trace times the stages of an action (Options.Trace); nil: none.
	trace func(stage string, took time.Duration)
	// metrics counts and times what the table does (nil: nothing).
	metrics *metrics
	// opened is the last seq the journal held when the daemon started.
	opened int64

	seq   atomic.Int64 // last journaled entry; read from any goroutine
	watch *dice.Watch
	// input is the evidence of the input being handled (nil outside
	// handle): every entry the input makes keeps it (see Evidence).
	input *Evidence
	// lastSnap is the camera's last snapshot, the one the game binds tags
	// and keys against; lastJPEG its image until an entry needs it stored,
	// lastImage once stored in evidence (opened on first use).
	lastSnap  *vision.Snapshot
	lastJPEG  []byte
	lastImage *ImageRef
	evidence  *EvidenceStore
	// answered keeps the answers to recent commands with an id, so a
	// redelivered command is answered again and carried out once (the
	// journal keeps them too, for a command redelivered after a restart).
	// A command is known by its sender and its id (senderKey):
	// two senders' ids never meet.
	answered []answeredCommand
	// plan is the game as the journal says it: the actions replay
	// applies, the referee's rulings, the open calls and the refusal the
	// referee may let stand.
	plan *plan
	// cmd is the key of the command being handled (its sender and id),
	// for the journal.
	cmd string
	// resultKey signs the result statement (config result_key; nil:
	// published unsigned); resultSeats is the outcome published last.
	resultKey   ed25519.PrivateKey
	resultSeats []rec.Seat
	// round is the game's tournament round (Journal.Round; 0: none),
	// named in the result statement; roundSet says it is decided.
	round    int
	roundSet bool
	// pairing is the pairing the game's round was issued with
	// (Journal.Pairing; zero: none), signed into the result (v4).
	pairing Binding
	// heard is the venue's latest pairing for this table (nil: none, or
	// the table is not paired now): the next game's players come from it
	// (newGame). nextGame says the referee started the next game: the
	// daemon's loop ends and the table opens again on its journal.
	heard    *wire.PairingMessage
	nextGame bool
}

// Seq is the sequence number of the last journal entry.
func (t *table) Seq() int64 { return t.seq.Load() }

// replay rebuilds the state from the journal, or opens a new game in an
// empty one.
//
// The journal is read whole first: an undo or correction entry changes an
// action before it, so the actions to apply are known only at the end
// (plan). Then they are applied in order, with the undone ones left out
// and the corrected ones replaced.
func (t *table) replay(ctx context.Context) error {
	// Images kept beside the journal are pruned by the policy at start too
	// (an age limit applies while no camera is sending).
	if fi, err := os.Stat(EvidenceDir(t.journal.Path())); err == nil && fi.IsDir() {
		s, err := OpenEvidenceStore(EvidenceDir(t.journal.Path()), t.cfg.Evidence.Policy(), t.log)
		if err != nil {
			return err
		}
		s.Prune(t.clock())
		t.evidence = s
	}
	t.plan = newPlan()
	err := t.journal.Entries(ctx, 0, func(e Entry) error {
		if e.Game != t.game.Name() {
			return &JournalError{Path: t.journal.Path(), Err: fmt.Errorf("entry %d belongs to a %s game and the config plays %s; use another journal file", e.Seq, e.Game, t.game.Name())}
		}
		t.seq.Store(e.Seq)
		if err := t.plan.add(e); err != nil {
			return &JournalError{Path: t.journal.Path(), Err: err}
		}
		return nil
	})
	if err != nil {
		return err
	}
	n := 0
	err = build(t.game, t.plan.steps, func(a Action) { t.observeDice(a, true); n++ })
	if err != nil {
		return &JournalError{Path: t.journal.Path(), Err: err}
	}
	t.opened = t.seq.Load()
	if n > 0 {
		t.log.Info("state rebuilt from the journal", "journal", t.journal.Path(), "actions", n, "seq", t.seq.Load())
		return nil
	}
	start, err := t.game.Start()
	if err != nil {
		return err
	}
	_, rej, err := t.accept(ctx, start)
	if rej != nil {
		return fmt.Errorf("companion: the game's opening action is refused: %w", rej)
	}
	return err
}

// handle runs one sensor event through the game's binder and the engine,
// and answers it when it was a command.
func (t *table) handle(ctx context.Context, in Input) {
	t.metrics.input(in)
	if in.Snapshot != nil {
		t.lastSnap, t.lastJPEG, t.lastImage = in.Snapshot, in.Image, nil
	}
	ev := evidenceOf(in)
	t.input = &ev
	defer func() { t.input = nil }()
	if f, device := faultOf(in); f != nil {
		t.metrics.fault(device, string(f.Kind))
		pl, en := f.Text(device)
		t.notice(ctx, Notice{Type: wire.NoticeDeviceFault, Code: string(f.Kind), Device: device, UID: f.UID, Text: rules.Text{PL: pl, EN: en}}, nil)
		return
	}
	if in.Tag != nil {
		tag, ok := t.tags.Lookup(in.Tag.UID)
		if !ok {
			if in.Tag.Present {
				t.notice(ctx, Notice{Type: wire.NoticeUnknownTag, Device: in.Tag.Reader, UID: in.Tag.UID, Text: unknownTagText(t.game, in.Tag.UID, in.Tag.Reader)}, nil)
			}
			return
		}
		in.TagInfo = &tag
		ev.Tag.Kind, ev.Tag.ID = tag.Kind, tag.ID
	}
	if in.Key != nil {
		if res, ok := t.redelivered(ctx, in.From); ok {
			t.log.Info("command received twice; carried out once", "id", in.From.ID)
			t.answer(res, in.From.Audience)
			return
		}
		if rej := t.checkRole(in); rej != nil {
			t.refuseInput(ctx, in, rej)
			return
		}
		if in.From.ID != "" {
			t.cmd = senderKey(in.From)
			defer func() { t.cmd = "" }()
		}
	}
	if rej := t.paused(in); rej != nil {
		t.refuseInput(ctx, in, rej)
		return
	}
	if in.Key != nil && isTableCommand(in.Key.Key) {
		seq, rej, err := t.rule(ctx, in)
		var took []int64
		switch {
		case err != nil:
			t.log.Error("ruling not taken", "command", in.Key.Key, "err", err)
			rej = &rules.Rejection{Code: "not_saved", Reason: rules.Textf("nie zapisano: %v", "not saved: %v", err)}
		case rej == nil:
			took = append(took, seq)
		}
		t.finish(in, took, rej)
		return
	}
	actions, notices := t.game.Bind(in)
	var seen func()
	if in.Snapshot != nil {
		// The camera may now disagree with the state: the referee's view
		// shows it.
		seen = func() { t.out.Send(Publication{Views: t.views(wire.Referee)}) }
	}
	took, refused := t.run(ctx, actions, notices, seen)
	if in.Snapshot != nil {
		// a new throw in the camera's dice tray (camera_dice.go)
		t.cameraDice(ctx, in)
	}
	if in.Key != nil {
		t.finish(in, took, refused)
	}
}

// run publishes a binder's notices and takes its actions in order, up to
// the first refusal (a rejected notice refuses them all): the seqs taken
// and the refusal. between, if set, runs after the notices.
func (t *table) run(ctx context.Context, actions []Action, notices []Notice, between func()) ([]int64, *rules.Rejection) {
	var refused *rules.Rejection
	for _, n := range notices {
		t.notice(ctx, n, nil)
		if n.Type == wire.NoticeRejected && refused == nil {
			refused = &rules.Rejection{Code: n.Code, Reason: n.Text}
			t.metrics.refusedAction(n.Code)
		}
	}
	if between != nil {
		between()
	}
	var took []int64
	for _, a := range actions {
		if refused != nil {
			break // nothing after a refusal: the rest depended on it
		}
		seq, rej, err := t.accept(ctx, a)
		switch {
		case err != nil:
			t.log.Error("action not taken", "action", a.Type(), "err", err)
			refused = &rules.Rejection{Code: "not_saved", Reason: rules.Textf("nie zapisano: %v", "not saved: %v", err)}
			t.metrics.refusedAction("not_saved")
		case rej != nil:
			refused = rej
		default:
			took = append(took, seq)
		}
	}
	return took, refused
}

// finish answers a command: taken with the seq of the last entry it
// produced, or refused with the reason.
func (t *table) finish(in Input, took []int64, refused *rules.Rejection) {
	res := wire.CommandResult{Type: wire.ResultType, ID: in.From.ID, Name: in.Key.Key, From: in.Key.Keypad, Seq: t.seq.Load()}
	switch {
	case refused != nil:
		res.Code, res.Text = refused.Code, refused.Reason
	default:
		res.OK = true
		if len(took) > 0 {
			res.Seq = took[len(took)-1]
		}
		// the command by its label, the way the page's button names it
		name := rules.Text{PL: in.Key.Key, EN: in.Key.Key}
		if c, ok := t.spec.Commands.Lookup(in.Key.Key); ok && c.Label.PL != "" {
			name = c.Label
		}
		res.Text = rules.Textf("przyjęto: %s (wpis %d)", "taken: %s (entry %d)", name, res.Seq)
	}
	if in.From.ID != "" {
		if len(t.answered) == 256 {
			t.answered = t.answered[1:]
		}
		t.answered = append(t.answered, answeredCommand{key: senderKey(in.From), res: res})
		b, _ := json.Marshal(res)
		if err := t.journal.Answered(context.Background(), senderKey(in.From), res.Seq, b); err != nil {
			t.log.Warn("command's answer not kept in the journal", "id", in.From.ID, "err", err)
		}
	}
	t.answer(res, in.From.Audience)
}

// refuseInput refuses an input before the game sees it: a notice for the
// record, and the answer when it was a command.
func (t *table) refuseInput(ctx context.Context, in Input, rej *rules.Rejection) {
	t.metrics.refusedAction(rej.Code)
	n := Notice{Type: wire.NoticeRejected, Code: rej.Code, Text: rej.Reason}
	switch {
	case in.Key != nil:
		n.Type, n.Device = wire.NoticeCommandRejected, in.Key.Keypad
	case in.Tag != nil:
		n.Device, n.UID = in.Tag.Reader, in.Tag.UID
	}
	t.notice(ctx, n, nil)
	if in.Key != nil {
		t.finish(in, nil, rej)
	}
}

// answeredCommand is a recent command's answer, under its key.
type answeredCommand struct {
	key string
	res wire.CommandResult
}

// senderKey is what tells a command with an id from every other: its
// sender's audience and the id ("referee/r-17", "player/2/r-17"). Each
// sender picks its own ids, so a player's "r-17" is not the referee's.
func senderKey(s Sender) string { return string(s.Audience) + "/" + s.ID }

// redelivered finds the answer to a command already carried out by the
// same sender: in memory, or in the journal when it came before a
// restart.
func (t *table) redelivered(ctx context.Context, from Sender) (wire.CommandResult, bool) {
	if from.ID == "" {
		return wire.CommandResult{}, false
	}
	key := senderKey(from)
	i := slices.IndexFunc(t.answered, func(a answeredCommand) bool { return a.key == key })
	if i >= 0 {
		return t.answered[i].res, true
	}
	seen, ok, err := t.journal.Command(ctx, key)
	if err != nil || !ok {
		return wire.CommandResult{}, false
	}
	var res wire.CommandResult
	if len(seen.Answer) > 0 && json.Unmarshal(seen.Answer, &res) == nil {
		return res, true
	}
	// Its entry was written and the daemon stopped before it answered.
	return wire.CommandResult{Type: wire.ResultType, ID: from.ID, OK: seen.Kind != KindNotice, Seq: seen.Seq, Code: map[bool]string{true: "refused"}[seen.Kind == KindNotice],
		Text: rules.Textf("polecenie wykonane przed restartem (wpis %d)", "the command was carried out before a restart (entry %d)", seen.Seq)}, true
}

// answer publishes a command's answer to its sender's audience.
func (t *table) answer(res wire.CommandResult, to wire.Audience) {
	if to == "" {
		to = wire.Public
	}
	msg, _ := json.Marshal(wire.EventMessage{ID: fmt.Sprintf("r%d.%d", res.Seq, t.loose.Add(1)), Seq: res.Seq, At: t.clock().UTC(), Event: res})
	t.out.Send(Publication{Results: []Outgoing{{Audience: to, Data: msg}}})
}

// accept applies, journals, then hands one action to the fan-out. A
// refusal is journaled and published as a "rejected" notice and returned.
func (t *table) accept(ctx context.Context, a Action) (int64, *rules.Rejection, error) {
	start := time.Now()
	events, commit, err := t.game.Apply(a)
	t.traced("rules", start)
	t.metrics.applied(time.Since(start))
	if err != nil {
		rej, ok := rules.AsRejection(err)
		if !ok {
			return 0, nil, err
		}
		t.metrics.refusedAction(rej.Code)
		// The refused action itself stays out of the notice: it may carry
		// hidden information (an army list, the cards drawn).
		body, _ := t.game.EncodeAction(a)
		t.noticeDice(ctx, Notice{Type: wire.NoticeRejected, Code: rej.Code, Text: rej.Reason, Action: a.Type()}, body, t.rollsIn(a))
		// The referee may let it stand (allow) until the state changes.
		if t.observeDice(a, false) {
			t.out.Send(Publication{Views: t.views(wire.Referee), Fairness: t.fairness()})
		}
		return 0, rej, nil
	}
	body, err := t.game.EncodeAction(a)
	if err != nil {
		return 0, nil, err
	}
	// The journal's events end with the evidence; the published ones
	// (events) never have it.
	journaled := events
	if ev := t.entryEvidence(body, t.rollsIn(a)); ev != nil {
		journaled = append(slices.Clip(events), ev)
	}
	evJSON, err := json.Marshal(journaled)
	if err != nil {
		return 0, nil, fmt.Errorf("companion: events of %s: %w", a.Type(), err)
	}
	at := t.clock()
	start = time.Now()
	seq, err := t.journal.AppendFor(ctx, t.cmd, KindAction, t.game.Name(), at, body, evJSON)
	t.traced("journal", start)
	t.metrics.committed(time.Since(start))
	if err != nil {
		// Not durable, so not applied: the table is told and nothing changes.
		t.publishLoose(wire.Public, Notice{Type: wire.NoticeJournalFailed, Text: rules.Textf("nie zapisano akcji %s: %v", "action %s not saved: %v", a.Type(), err)})
		return 0, nil, err
	}
	commit()
	t.seq.Store(seq)
	t.plan.add(Entry{Seq: seq, At: at, Kind: KindAction, Game: t.game.Name(), Body: body})
	t.metrics.acceptedAction(a.Type())
	// The dice go to the fairness watch before the views are made: the
	// referee's state carries the watch's counts, which must be the
	// fairness topic's (this roll included), not one roll behind.
	observed := t.observeDice(a, true)
	start = time.Now()
	p := Publication{Seq: seq, Views: t.views(), Events: t.eventMessages(seq, at, events), Committed: time.Now()}
	t.traced("views", start)
	if observed {
		p.Fairness = t.fairness()
	}
	t.addOutputs(&p)
	t.out.Send(p)
	return seq, nil, nil
}

// rollsIn are the dice an action carries.
func (t *table) rollsIn(a Action) []dice.Roll {
	if dc, ok := t.game.(DiceCarrier); ok {
		return dc.RollsIn(a)
	}
	return nil
}

// entryEvidence is the evidence of an entry with body made by the input
// being handled (nil outside handle): the input, the dice, the snapshot
// the game bound against (what body involves, within its bound) and its
// image, stored before the entry that names it is journaled.
func (t *table) entryEvidence(body []byte, rolls []dice.Roll) *Evidence {
	if t.input == nil {
		return nil
	}
	ev := *t.input
	ev.Dice = rolls
	if t.lastSnap == nil {
		return &ev
	}
	ev.Snapshot = snapshotSeen(t.lastSnap, ev.Input == "snapshot", body)
	if t.lastImage == nil && t.lastJPEG != nil {
		if ref, err := t.storeImage(t.lastJPEG); err != nil {
			t.log.Error("evidence image not stored; the entry names none", "err", err)
		} else {
			t.lastImage, t.lastJPEG = &ref, nil
		}
	}
	ev.Image = t.lastImage
	return &ev
}

// storeImage keeps an image beside the journal, opening the store on first
// use.
func (t *table) storeImage(jpeg []byte) (ImageRef, error) {
	if t.evidence == nil {
		s, err := OpenEvidenceStore(EvidenceDir(t.journal.Path()), t.cfg.Evidence.Policy(), t.log)
		if err != nil {
			return ImageRef{}, err
		}
		t.evidence = s
	}
	return t.evidence.Put(jpeg, t.clock())
}

// keepEvidence pins the image of entry seq so that no policy prunes it:
// the referee's ruling on an entry calls it.
func (t *table) keepEvidence(ctx context.Context, seq int64) error {
	e, ok, err := t.journal.Entry(ctx, seq)
	if err != nil {
		return err
	}
	if !ok {
		return &JournalError{Path: t.journal.Path(), Err: fmt.Errorf("no entry %d", seq)}
	}
	_, ev, err := SplitEvidence(e.Events)
	if err != nil || ev == nil || ev.Image == nil {
		return err
	}
	if t.evidence == nil {
		if t.evidence, err = OpenEvidenceStore(EvidenceDir(t.journal.Path()), t.cfg.Evidence.Policy(), t.log); err != nil {
			return err
		}
	}
	return t.evidence.Pin(ev.Image.SHA256)
}

func (t *table) traced(stage string, since time.Time) {
	if t.trace != nil {
		t.trace(stage, time.Since(since))
	}
}

// notice journals a notice with the refused action in full (the record
// loses nothing) and publishes the notice alone.
func (t *table) notice(ctx context.Context, n Notice, refused []byte) {
	t.noticeDice(ctx, n, refused, nil)
}

// noticeDice is notice with the dice of the refused action, for the
// evidence.
func (t *table) noticeDice(ctx context.Context, n Notice, refused []byte, rolls []dice.Roll) {
	body, _ := json.Marshal(struct {
		Notice
		Refused json.RawMessage `json:"refused,omitempty"`
	}{n, refused})
	journaled := []any{n}
	if ev := t.entryEvidence(body, rolls); ev != nil {
		journaled = append(journaled, ev)
	}
	evJSON, _ := json.Marshal(journaled)
	at := t.clock()
	start := time.Now()
	seq, err := t.journal.AppendFor(ctx, t.cmd, KindNotice, t.game.Name(), at, body, evJSON)
	if err == nil {
		t.metrics.committed(time.Since(start))
	}
	if err != nil {
		t.log.Error("notice not journaled", "type", n.Type, "err", err)
		t.publishLoose(wire.Public, n)
		return
	}
	t.seq.Store(seq)
	t.plan.add(Entry{Seq: seq, At: at, Kind: KindNotice, Game: t.game.Name(), Body: body})
	// The views go again with the notice's seq: a published state's seq is
	// always the journal's last entry, so a venue can tell it is current.
	t.out.Send(Publication{Seq: seq, Views: t.views(), Events: t.eventMessages(seq, at, []any{n}), Refused: n.Type == wire.NoticeRejected, Committed: time.Now()})
}

// publishLoose publishes an event that is in no journal entry (the journal
// failed, a fairness warning); it has an identity of its own.
func (t *table) publishLoose(to wire.Audience, ev Notice) {
	id := fmt.Sprintf("n%d.%d", t.seq.Load(), t.loose.Add(1))
	msg, _ := json.Marshal(wire.EventMessage{ID: id, Seq: t.seq.Load(), At: t.clock().UTC(), Event: ev})
	if t.onEvent != nil {
		t.onEvent(t.seq.Load(), ev.Text)
	}
	t.out.Send(Publication{Loose: []Outgoing{{Audience: to, Data: msg}}})
}

// eventMessages encodes a journal entry's events as they are published,
// the same now and when republished from the journal.
func (t *table) eventMessages(seq int64, at time.Time, events []any) []Outgoing {
	out := make([]Outgoing, 0, len(events))
	for i, ev := range events {
		msg, err := json.Marshal(wire.EventMessage{ID: wire.EventID(seq, i), Seq: seq, Index: i, At: at.UTC(), Event: ev})
		if err != nil {
			t.log.Error("event not encoded", "seq", seq, "err", err)
			continue
		}
		if t.onEvent != nil {
			t.onEvent(seq, textOf(ev))
		}
		out = append(out, Outgoing{Audience: wire.Public, Data: msg})
	}
	return out
}

// observeDice feeds the physical dice of an action to the fairness watch:
// the faces of an accepted action, and the impossible readings of a refused
// one (a refused action's valid dice were never rolled into the game). It
// reports whether the watch changed.
func (t *table) observeDice(a Action, accepted bool) bool {
	dc, ok := t.game.(DiceCarrier)
	if !ok {
		return false
	}
	changed := false
	for _, r := range dc.RollsIn(a) {
		if r.Origin != dice.Keypad && r.Origin != dice.Camera && r.Origin != dice.NFC {
			continue
		}
		if !accepted && r.Validate() == nil {
			continue
		}
		key := dice.SourceKey(t.cfg.Table, r)
		before, _ := t.watch.Report(key)
		t.watch.Observe(key, r)
		after, _ := t.watch.Report(key)
		changed = true
		if after.Loaded && !before.Loaded {
			if t.metrics != nil {
				t.metrics.suspect.Inc()
			}
			t.publishLoose(wire.Referee, Notice{Type: wire.NoticeDieSuspect, Die: key,
				Text: rules.Textf("kość z: %s wygląda na nieuczciwą: %d rzutów, χ²=%.1f, p=%.4f; sprawdźcie ją",
					"the die from %s looks loaded: %d rolls, χ²=%.1f, p=%.4f; have it checked",
					dieName(t.cfg, key), after.Rolls, after.ChiSquare, after.PValue)})
		}
	}
	return changed
}

func (t *table) fairness() []byte {
	reports := t.watch.Reports()
	msg, _ := json.Marshal(wire.FairnessMessage{Seq: t.seq.Load(), Sources: reports, Names: diceNames(t.cfg, reports)})
	return msg
}

// audiences are every view the table publishes: public, referee and each
// seat.
func (t *table) audiences() []wire.Audience {
	out := []wire.Audience{wire.Public, wire.Referee}
	for _, s := range t.seats() {
		out = append(out, wire.Player(s))
	}
	return out
}

// views encodes the state for the given audiences, or all of them.
func (t *table) views(only ...wire.Audience) map[wire.Audience][]byte {
	if len(only) == 0 {
		only = t.audiences()
	}
	out := make(map[wire.Audience][]byte, len(only))
	for _, a := range only {
		v := Viewer{Role: RolePublic}
		switch a {
		case wire.Referee:
			v = Viewer{Role: RoleReferee}
		case wire.Public:
		default:
			seat, _ := a.Seat()
			v = Viewer{Role: RolePlayer, Seat: seat}
		}
		msg, err := t.view(v)
		if err != nil {
			t.log.Error("view not encoded", "audience", a, "err", err)
			continue
		}
		out[a] = msg
	}
	return out
}

func (t *table) view(v Viewer) ([]byte, error) {
	m := wire.StateMessage{Seq: t.seq.Load(), Venue: t.cfg.Venue, Table: t.cfg.Table, Game: t.game.Name(), State: t.game.View(v), Instance: t.instance}
	if t.hasImage != nil {
		m.Image = t.hasImage()
	}
	if h, ok := t.game.(Headliner); ok {
		text := h.Headline()
		m.Headline = &text
	}
	m.Finished = Outcome(t.game) != nil
	if s, ok := t.game.(SampleDataer); ok && s.SampleData() {
		text := SampleDataText
		m.SampleData = &text
	}
	if s, ok := t.game.(Summarizer); ok {
		m.Summary = s.Summary(v)
	}
	if t.plan != nil {
		m.Record = t.plan.status()
	}
	if v.Role == RoleReferee {
		m.Fairness = t.watch.Reports()
		m.DiceNames = diceNames(t.cfg, m.Fairness)
		if ds, ok := t.game.(Desyncer); ok {
			for _, text := range ds.Desyncs() {
				m.Desync = append(m.Desync, wire.Desync{Text: text})
			}
		}
		if l, ok := t.game.(LegalLister); ok {
			m.Legal = l.LegalActions()
		}
	}
	return json.Marshal(m)
}

// seats are the player seats that get a view of their own.
func (t *table) seats() []int {
	var out []int
	add := func(s int) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if sl, ok := t.game.(SeatLister); ok {
		for _, s := range sl.Seats() {
			add(s)
		}
	}
	for _, p := range t.cfg.Display.Players {
		add(p.Seat)
	}
	return out
}

// addOutputs says what the table's own lights and displays show.
func (t *table) addOutputs(p *Publication) {
	t.addResult(p, false)
	st := hardware.Status{Ready: true}
	if tt, ok := t.game.(TurnTeller); ok {
		st.Turn = tt.ActiveSeat()
	}
	p.Status = &st
	switch g := t.game.(type) {
	case Scorer:
		sb := g.Scoreboard()
		p.Scoreboard = &sb
	case Summarizer:
		var lines []string
		for _, text := range g.Summary(Public) {
			lines = append(lines, t.cfg.say(text))
		}
		p.Scoreboard = &hardware.Scoreboard{Lines: lines}
	}
}

// say picks the table's language.
func (c *Config) say(text rules.Text) string {
	if c.Language == "en" {
		return text.EN
	}
	return text.PL
}

func faultOf(in Input) (*hardware.Fault, string) {
	switch {
	case in.Tag != nil && in.Tag.Fault != nil:
		return in.Tag.Fault, in.Tag.Reader
	case in.Key != nil && in.Key.Fault != nil:
		return in.Key.Fault, in.Key.Keypad
	}
	return nil, ""
}

func textOf(ev any) rules.Text {
	switch v := ev.(type) {
	case Notice:
		return v.Text
	case json.RawMessage:
		var t struct {
			Text rules.Text `json:"text"`
		}
		json.Unmarshal(v, &t)
		return t.Text
	}
	b, _ := json.Marshal(ev)
	return textOf(json.RawMessage(b))
}

// unknownTagText is the notice of a card not in the registry, naming the
// reader in the game's words (ReaderNamer) or a seat's reader (seat-N) by
// its seat, never by the config name a person would read as an id.
func unknownTagText(g Game, uid, reader string) rules.Text {
	if rn, ok := g.(ReaderNamer); ok {
		if name, ok := rn.ReaderName(reader); ok {
			return rules.Textf("nieznana karta %s na %s", "unknown tag %s on %s", uid, name)
		}
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(reader, "seat-")); err == nil && strings.HasPrefix(reader, "seat-") {
		return rules.Textf("nieznana karta %s na czytniku miejsca %d", "unknown tag %s on seat %d's reader", uid, n)
	}
	return rules.Textf("nieznana karta %s na czytniku %s", "unknown tag %s on reader %s", uid, reader)
}
