package companion

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sztab/sztab/gamespec"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// The table's own commands live in the game contract (a game may not use
// their names).
const (
	CmdUndo    = gamespec.CmdUndo
	CmdCorrect = gamespec.CmdCorrect
	CmdAllow   = gamespec.CmdAllow
	CmdCall    = gamespec.CmdCall
	CmdAnswer  = gamespec.CmdAnswer
	CmdNewGame = gamespec.CmdNewGame
)

// TableCommands are the table's own commands (see the constants).
var TableCommands = gamespec.TableCommands

// WithTableCommands is a game's vocabulary with the table's own commands.
func WithTableCommands(v wire.Vocabulary) wire.Vocabulary { return gamespec.WithTableCommands(v) }

func isTableCommand(name string) bool {
	_, ok := TableCommands.Lookup(name)
	return ok
}

// refuse is a refused ruling: a code and the reason, in both languages.
func refuse(code, pl, en string, args ...any) *rules.Rejection {
	return rules.Reject(code, pl, en, args...)
}

// senderName says who sent a command, for the record: "referee",
// "player/2", "keys/seat-2".
func senderName(in Input) string {
	switch in.From.Kind {
	case wire.Ref:
		return "referee"
	case wire.Seat:
		return string(in.From.Audience)
	case wire.Keys:
		if in.Key != nil {
			return "keys/" + in.Key.Keypad
		}
		return "keys"
	}
	return "unknown"
}

// checkRole refuses a command whose sender is no role the table knows: a
// sender that is not exactly one of the table's keys, a seat or the
// referee, a player without a seat of this table, a referee or player
// whose answers would go elsewhere, or a command its role may not send.
func (t *table) checkRole(in Input) *rules.Rejection {
	f := in.From
	switch f.Kind {
	case wire.Keys:
	case wire.Ref:
		if f.Audience != wire.Referee {
			return refuse("unknown_role", "polecenie sędziego z %q: sędzia wysyła ze swojej strony lub tematu", "a referee's command from %q: the referee sends from their page or topic", string(f.Audience))
		}
	case wire.Seat:
		seat, ok := f.Audience.Seat()
		if !ok {
			return refuse("unknown_role", "polecenie gracza bez miejsca (%q)", "a player's command without a seat (%q)", string(f.Audience))
		}
		if seats := t.seats(); len(seats) > 0 && !slices.Contains(seats, seat) {
			return refuse("unknown_role", "miejsca %d nie ma przy tym stole (miejsca: %v)", "there is no seat %d at this table (seats: %v)", seat, seats)
		}
	default:
		return refuse("unknown_role", "nieznana rola nadawcy (%d): polecenia wysyła sędzia, gracz za swoje miejsce albo klawisze stołu",
			"unknown sender role (%d): commands come from the referee, a player for their seat or the table's keys", int(f.Kind))
	}
	may := f.Kind
	if f.Kind == wire.Keys && deviceSeat(in.Key.Keypad) > 0 {
		may |= wire.Seat // a seat's own keypad ("seat-N") acts for that seat
	}
	if spec, ok := t.spec.Commands.Lookup(in.Key.Key); ok && spec.From&may == 0 {
		return refuse("not_your_role", "%q może wysłać tylko: %s", "%q may be sent only by: %s", in.Key.Key, roleNames(spec.From))
	}
	return nil
}

func roleNames(s wire.Sender) string {
	b, _ := s.MarshalJSON()
	return strings.Trim(string(b), "[]")
}

// seatOf is the seat an input comes from: a player's command, or a keypad
// or reader named "seat-N" (the devices of seat N); 0 for the table's
// shared devices and the referee.
func seatOf(in Input) int {
	switch {
	case in.Key != nil && in.From.Kind == wire.Seat:
		return in.From.Seat()
	case in.Key != nil && in.From.Kind == wire.Keys:
		return deviceSeat(in.Key.Keypad)
	case in.Tag != nil:
		return deviceSeat(in.Tag.Reader)
	}
	return 0
}

// deviceSeat reads the seat from a device named "seat-N" (the naming the
// hardware config's examples use for a seat's own keypad or reader).
func deviceSeat(name string) int {
	s, ok := strings.CutPrefix(name, "seat-")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// paused refuses an input of a seat that waits for the referee.
func (t *table) paused(in Input) *rules.Rejection {
	seat := seatOf(in)
	c, ok := t.plan.calls[seat]
	if seat == 0 || !ok {
		return nil
	}
	if in.Key != nil && (in.Key.Key == CmdCall || in.Key.Key == CmdAnswer) {
		return nil
	}
	return refuse("paused_for_referee", "miejsce %d czeka na sędziego (wezwanie, wpis %d): jego polecenia czekają na odpowiedź",
		"seat %d waits for the referee (call, entry %d): its input waits for the answer", seat, c.Seq)
}

// rule carries out one of the table's own commands.
func (t *table) rule(ctx context.Context, in Input) (int64, *rules.Rejection, error) {
	switch in.Key.Key {
	case CmdUndo:
		return t.undo(ctx, in)
	case CmdCorrect:
		return t.correct(ctx, in)
	case CmdAllow:
		return t.allow(ctx, in)
	case CmdCall:
		return t.call(ctx, in)
	case CmdAnswer:
		return t.answerCall(ctx, in)
	case CmdNewGame:
		return t.newGame(ctx, in)
	}
	return 0, refuse("unknown_command", "nieznane polecenie %q", "unknown command %q", in.Key.Key), nil
}

// target reads the entry a ruling answers (its first argument); def is
// used when there is none.
func target(in Input, def int64) (int64, *rules.Rejection) {
	if len(in.Args) == 0 || in.Args[0] == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(in.Args[0], "#"), 10, 64)
	if err != nil || n < 1 {
		return 0, refuse("bad_target", "%q nie jest numerem wpisu", "%q is not an entry number", in.Args[0])
	}
	return n, nil
}

func needReason(in Input) *rules.Rejection {
	if strings.TrimSpace(in.Text) == "" {
		return refuse("reason_missing", "podaj powód (tekst polecenia): zapis sędziego mówi kto, kiedy i dlaczego",
			"give the reason (the command's text): the referee's record says who, when and why")
	}
	return nil
}

// actionStep finds the action step of entry seq, or says what that entry is.
func (t *table) actionStep(ctx context.Context, seq int64) (int, *rules.Rejection) {
	if i, ok := t.plan.bySeq[seq]; ok {
		return i, nil
	}
	e, ok, err := t.journal.Entry(ctx, seq)
	switch {
	case err != nil:
		return 0, refuse("not_saved", "wpisu %d nie da się odczytać: %v", "entry %d cannot be read: %v", seq, err)
	case !ok:
		return 0, refuse("no_such_entry", "nie ma wpisu %d (ostatni: %d)", "there is no entry %d (the last is %d)", seq, t.seq.Load())
	}
	what := e.Kind
	var n struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(e.Body, &n) == nil && n.Type != "" {
		what += " " + n.Type
	}
	return 0, refuse("not_an_action", "wpis %d to %s, nie akcja: cofnąć lub poprawić można tylko akcję", "entry %d is a %s, not an action: only an action can be taken back or corrected", seq, what)
}

// undo takes back an accepted action: by default the last one standing;
// an earlier one only if every action after it still applies without it.
func (t *table) undo(ctx context.Context, in Input) (int64, *rules.Rejection, error) {
	if rej := needReason(in); rej != nil {
		return 0, rej, nil
	}
	last := int64(0)
	for i := len(t.plan.steps) - 1; i > 0; i-- {
		if t.plan.steps[i].undone == 0 {
			last = t.plan.steps[i].seq
			break
		}
	}
	seq, rej := target(in, last)
	if rej != nil {
		return 0, rej, nil
	}
	if seq == 0 {
		return 0, refuse("nothing_to_undo", "nie ma akcji do cofnięcia", "there is no action to take back"), nil
	}
	i, rej := t.actionStep(ctx, seq)
	if rej != nil {
		return 0, rej, nil
	}
	switch s := t.plan.steps[i]; {
	case i == 0:
		return 0, refuse("opening_action", "wpis %d otwiera grę: nie można go cofnąć (popraw go albo zacznij nowy dziennik)", "entry %d opens the game: it cannot be taken back (correct it, or start a new journal)", seq), nil
	case s.undone != 0:
		return 0, refuse("already_undone", "wpis %d cofnięto już wpisem %d", "entry %d was already taken back by entry %d", seq, s.undone), nil
	}
	steps := t.plan.cloneSteps()
	steps[i].undone = -1
	old, _ := t.game.DecodeAction(steps[i].body)
	g, rolls, rej := t.rebuild(steps, seq, "undo")
	if rej != nil {
		return 0, rej, nil
	}
	told, ok := t.told(steps[i].body)
	ub := UndoBody{Target: seq, Action: typeOf(old), By: senderName(in), Reason: in.Text}
	var what any = typeOf(old)
	if ok {
		ub.ActionText, what = &told, told
	} else if b := actionBrief(t.publicBody(steps[i].body)); b != "" {
		what = typeOf(old) + ": " + b
	}
	body, _ := json.Marshal(ub)
	text := rules.Textf("sędzia cofa wpis %d (%s): %s", "the referee takes back entry %d (%s): %s", seq, what, in.Text)
	return t.commitRuling(ctx, KindUndo, body, Notice{Type: wire.NoticeUndo, Code: strconv.FormatInt(seq, 10), Text: text, Action: typeOf(old)}, g, rolls)
}

// correct replaces an accepted action by another, in its place in the
// game: every action after it must still apply.
func (t *table) correct(ctx context.Context, in Input) (int64, *rules.Rejection, error) {
	if rej := needReason(in); rej != nil {
		return 0, rej, nil
	}
	if len(in.Args) == 0 {
		return 0, refuse("bad_target", "podaj numer poprawianego wpisu", "give the number of the entry to correct"), nil
	}
	seq, rej := target(in, 0)
	if rej != nil {
		return 0, rej, nil
	}
	i, rej := t.actionStep(ctx, seq)
	if rej != nil {
		return 0, rej, nil
	}
	if s := t.plan.steps[i]; s.undone != 0 {
		return 0, refuse("already_undone", "wpis %d cofnięto wpisem %d: nie ma czego poprawiać", "entry %d was taken back by entry %d: there is nothing to correct", seq, s.undone), nil
	}
	if len(in.Action) == 0 {
		return 0, refuse("bad_action", "poprawka bez nowej akcji (pole action)", "a correction without its new action (the action field)"), nil
	}
	a, err := t.game.DecodeAction(in.Action)
	if err != nil {
		return 0, refuse("bad_action", "nowa akcja jest nieczytelna: %v", "the new action cannot be read: %v", err), nil
	}
	body, err := t.game.EncodeAction(a)
	if err != nil {
		return 0, refuse("bad_action", "nowej akcji nie da się zapisać: %v", "the new action cannot be written: %v", err), nil
	}
	steps := t.plan.cloneSteps()
	old, _ := t.game.DecodeAction(steps[i].body)
	steps[i].body, steps[i].allow, steps[i].fixed = body, nil, -1
	g, rolls, rej := t.rebuild(steps, seq, "correction")
	if rej != nil {
		return 0, rej, nil
	}
	cb := CorrectionBody{Target: seq, Old: typeOf(old), New: a.Type(), Action: body, By: senderName(in), Reason: in.Text}
	var what any = typeOf(old) + " → " + a.Type()
	was, okWas := t.told(t.plan.steps[i].body)
	now, okNow := t.told(body)
	if okWas && okNow && was != now {
		cb.OldText, cb.NewText = &was, &now
		what = rules.Textf("%s → %s", "%s → %s", was, now)
	} else if ch := actionChange(t.publicBody(t.plan.steps[i].body), t.publicBody(body)); ch != "" {
		what = typeOf(old) + " → " + a.Type() + " (" + ch + ")"
	}
	rb, _ := json.Marshal(cb)
	text := rules.Textf("sędzia poprawia wpis %d: %s: %s", "the referee corrects entry %d: %s: %s", seq, what, in.Text)
	return t.commitRuling(ctx, KindCorrection, rb, Notice{Type: wire.NoticeCorrection, Code: strconv.FormatInt(seq, 10), Text: text, Action: a.Type()}, g, rolls)
}

// allow lets the last refused action stand, flagged: the state goes on
// from it.
func (t *table) allow(ctx context.Context, in Input) (int64, *rules.Rejection, error) {
	if rej := needReason(in); rej != nil {
		return 0, rej, nil
	}
	p := t.plan.pending
	if p == nil {
		return 0, refuse("nothing_pending", "żadna odrzucona akcja nie czeka na decyzję sędziego", "no refused action waits for the referee's ruling"), nil
	}
	seq, rej := target(in, p.seq)
	if rej != nil {
		return 0, rej, nil
	}
	if seq != p.seq {
		return 0, refuse("nothing_pending", "wpis %d nie czeka na decyzję; czeka odmowa z wpisu %d", "entry %d waits for no ruling; the refusal of entry %d does", seq, p.seq), nil
	}
	al, ok := t.game.(Allower)
	if !ok {
		return 0, refuse("cannot_allow", "silnik tej gry nie dopuszcza akcji wbrew przepisom", "this game's engine cannot let a refused action stand"), nil
	}
	a, err := t.game.DecodeAction(p.body)
	if err != nil {
		return 0, refuse("bad_action", "odrzuconej akcji nie da się odczytać: %v", "the refused action cannot be read: %v", err), nil
	}
	codes := appendCode(p.codes, p.code)
	events, waived, commit, err := al.ApplyAllowing(a, codes)
	if err != nil {
		r, ok := rules.AsRejection(err)
		switch {
		case errors.Is(err, ErrCannotAllow):
			return 0, refuse("cannot_allow", "silnik tej gry nie dopuszcza akcji wbrew przepisom", "this game's engine cannot let a refused action stand"), nil
		case !ok:
			return 0, nil, err
		case slices.Contains(codes, r.Code):
			return 0, refuse("not_allowable", "%[1]s (%[2]s) to nie przepis, który stół może uchylić (np. błędne dane): odmowa zostaje",
				"%[1]s (%[3]s) is no rule a table may waive (malformed input, say): the refusal stands", r.Code, r.Reason.PL, r.Reason.EN), nil
		}
		// It breaks another rule as well: that refusal waits for the
		// referee now, with the breaches allowed so far.
		t.notice(ctx, Notice{Type: wire.NoticeRejected, Code: r.Code, Text: r.Reason, Action: a.Type()}, p.body)
		t.plan.pending.codes = codes
		return 0, refuse("also_breaks", "akcja łamie też %[1]s: %[2]s; dopuść ponownie, by i to uszło",
			"the action also breaks %[1]s: %[3]s; allow again to let that stand too", r.Code, r.Reason.PL, r.Reason.EN), nil
	}
	body, _ := json.Marshal(AllowedBody{Action: p.body, Type: a.Type(), Refused: p.seq, Breach: rules.Rejection{Code: p.code, Reason: p.reason},
		Codes: codes, Waived: waived, By: senderName(in), Reason: in.Text})
	flag := Notice{Type: wire.NoticeAllowed, Code: p.code, Action: a.Type(),
		Text: rules.Textf("⚑ sędzia dopuszcza %s mimo przepisów (%s: %s): %s", "⚑ the referee lets %s stand despite the rules (%s: %s): %s", a.Type(), p.code, p.reason.PL, in.Text)}
	flag.Text.EN = fmt.Sprintf("⚑ the referee lets %s stand despite the rules (%s: %s): %s", a.Type(), p.code, p.reason.EN, in.Text)
	evs := append([]any{flag}, events...)
	journaled := evs // the journal's events end with the evidence, never published
	if ev := t.entryEvidence(body, t.rollsIn(a)); ev != nil {
		journaled = append(slices.Clip(evs), ev)
	}
	evJSON, err := json.Marshal(journaled)
	if err != nil {
		return 0, nil, fmt.Errorf("companion: events of %s: %w", a.Type(), err)
	}
	at := t.clock()
	seq, err = t.journal.AppendFor(ctx, t.cmd, KindAllowed, t.game.Name(), at, body, evJSON)
	if err != nil {
		return 0, nil, err
	}
	t.pinRuledOn(ctx, strconv.FormatInt(p.seq, 10))
	commit()
	t.seq.Store(seq)
	t.plan.add(Entry{Seq: seq, At: at, Kind: KindAllowed, Game: t.game.Name(), Body: body})
	t.observeDice(a, true)
	t.publishAll(seq, at, evs)
	return seq, nil, nil
}

// call opens a referee call for a seat: that seat's input waits until the
// referee answers.
func (t *table) call(ctx context.Context, in Input) (int64, *rules.Rejection, error) {
	seat := seatOf(in)
	if in.From.Kind == wire.Keys && seat == 0 {
		n, rej := target(in, 0)
		if rej != nil {
			return 0, refuse("which_seat", "%q nie jest miejscem", "%q is not a seat", in.Args[0]), nil
		}
		seat = int(n)
		if seat == 0 {
			if tt, ok := t.game.(TurnTeller); ok {
				seat = tt.ActiveSeat()
			}
		}
	}
	if seat == 0 {
		return 0, refuse("which_seat", "dla którego miejsca wezwanie? podaj miejsce", "a call for which seat? give the seat"), nil
	}
	if seats := t.seats(); len(seats) > 0 && !slices.Contains(seats, seat) {
		return 0, refuse("which_seat", "miejsca %d nie ma przy tym stole", "there is no seat %d at this table", seat), nil
	}
	if c, ok := t.plan.calls[seat]; ok {
		return 0, refuse("call_open", "wezwanie dla miejsca %d już czeka (wpis %d)", "a call for seat %d already waits (entry %d)", seat, c.Seq), nil
	}
	body, _ := json.Marshal(CallBody{Seat: seat, By: senderName(in), Text: in.Text})
	text := rules.Textf("miejsce %d wzywa sędziego: %s (jego polecenia czekają)", "seat %d calls the referee: %s (its input waits)", seat, orNone(in.Text))
	return t.commitRuling(ctx, KindCall, body, Notice{Type: wire.NoticeCall, Code: strconv.Itoa(seat), Text: text}, nil, nil)
}

// answerCall closes a seat's call with the referee's answer.
func (t *table) answerCall(ctx context.Context, in Input) (int64, *rules.Rejection, error) {
	if rej := needReason(in); rej != nil {
		return 0, rej, nil
	}
	if len(t.plan.calls) == 0 {
		return 0, refuse("nothing_pending", "żadne wezwanie nie czeka na odpowiedź", "no call waits for an answer"), nil
	}
	n, rej := target(in, 0)
	if rej != nil {
		return 0, rej, nil
	}
	seat := int(n)
	if seat == 0 {
		if len(t.plan.calls) > 1 {
			return 0, refuse("which_seat", "czeka kilka wezwań: podaj miejsce", "several calls wait: give the seat"), nil
		}
		for s := range t.plan.calls {
			seat = s
		}
	}
	c, ok := t.plan.calls[seat]
	if !ok {
		return 0, refuse("nothing_pending", "miejsce %d nie wzywało sędziego", "seat %d has no call open", seat), nil
	}
	body, _ := json.Marshal(AnswerBody{Call: c.Seq, Seat: seat, By: senderName(in), Text: in.Text})
	text := rules.Textf("sędzia odpowiada miejscu %d: %s", "the referee answers seat %d: %s", seat, in.Text)
	return t.commitRuling(ctx, KindAnswer, body, Notice{Type: wire.NoticeAnswer, Code: strconv.Itoa(seat), Text: text}, nil, nil)
}

// rebuild builds the game again from its spec and replays steps on it,
// for an undo or correction of entry target; a step that no longer
// applies refuses the ruling, naming it.
func (t *table) rebuild(steps []step, target int64, what string) (Game, []keyedRoll, *rules.Rejection) {
	cfg := *t.cfg
	// A rebuilt game's virtual dice go on from a new seed (recorded in
	// meta like a start's): a referee's undo must not replay the dice
	// that came after the start.
	cfg.Dice.Seed = splitmix(t.cfg.Dice.Seed + uint64(t.seq.Load()))
	g, err := t.spec.New(&cfg)
	if err != nil {
		return nil, nil, refuse("not_rebuilt", "gry nie da się odbudować: %v", "the game cannot be built again: %v", err)
	}
	var rolls []keyedRoll
	err = build(g, steps, func(a Action) { rolls = physicalRolls(g, t.cfg.Table, a, rolls) })
	var se *stepError
	if errors.As(err, &se) {
		reason := rules.Text{PL: err.Error(), EN: err.Error()}
		if r, ok := rules.AsRejection(se.Err); ok {
			reason = r.Reason
		}
		if se.Seq == target {
			return nil, nil, refuse("refused", "zmiana wpisu %[2]d odrzucona (%[1]s): %[3]s", "the %[1]s of entry %[2]d is refused: %[4]s", what, target, reason.PL, reason.EN)
		}
		return nil, nil, &rules.Rejection{Code: "no_longer_applies", Reason: rules.Text{
			PL: fmt.Sprintf("po tej zmianie wpisu %d wpis %d (%s) już nie pasuje: %s", target, se.Seq, se.Type, reason.PL),
			EN: fmt.Sprintf("after this %s of entry %d, entry %d (%s) no longer applies: %s", what, target, se.Seq, se.Type, reason.EN)}}
	}
	if err != nil {
		return nil, nil, refuse("not_rebuilt", "gry nie da się odbudować: %v", "the game cannot be built again: %v", err)
	}
	if t.journal != nil {
		t.journal.RecordSeed(context.Background(), t.clock(), cfg.Dice.Seed)
	}
	return g, rolls, nil
}

// commitRuling journals a ruling, then makes the rebuilt game (if any)
// current and publishes every view.
func (t *table) commitRuling(ctx context.Context, kind string, body []byte, n Notice, g Game, rolls []keyedRoll) (int64, *rules.Rejection, error) {
	evs := []any{n}
	journaled := evs                                 // the journal's events end with the evidence, never published
	if ev := t.entryEvidence(body, nil); ev != nil { // the referee's command itself
		journaled = append(slices.Clip(evs), ev)
	}
	evJSON, _ := json.Marshal(journaled)
	at := t.clock()
	seq, err := t.journal.AppendFor(ctx, t.cmd, kind, t.game.Name(), at, body, evJSON)
	if err != nil {
		return 0, nil, err
	}
	t.seq.Store(seq)
	if kind == KindUndo || kind == KindCorrection {
		t.pinRuledOn(ctx, n.Code)
	}
	if g != nil {
		t.game = g
		// The fairness watch as the replay saw the dice (the same watch:
		// the metrics read it from their own goroutine).
		for _, r := range t.watch.Reports() {
			t.watch.Reset(r.Key)
		}
		for _, r := range rolls {
			t.watch.Observe(r.key, r.roll)
		}
	}
	if err := t.plan.add(Entry{Seq: seq, At: at, Kind: kind, Game: t.game.Name(), Body: body}); err != nil {
		t.log.Error("ruling not read back", "seq", seq, "err", err)
	}
	t.log.Info("referee's record", "kind", kind, "seq", seq, "text", n.Text.EN)
	pub := t.publication(seq, at, evs)
	if g != nil {
		pub.Catalogue = t.catalogueChanged() // the game was opened anew
	}
	t.out.Send(pub)
	return seq, nil, nil
}

// publishAll publishes every view and an entry's events.
func (t *table) publishAll(seq int64, at time.Time, evs []any) {
	t.out.Send(t.publication(seq, at, evs))
}

// publication is every view and an entry's events.
func (t *table) publication(seq int64, at time.Time, evs []any) Publication {
	p := Publication{Seq: seq, Views: t.views(), Events: t.eventMessages(seq, at, evs), Committed: time.Now(), Fairness: t.fairness()}
	t.addOutputs(&p)
	return p
}

// catalogueChanged is the game's catalogue (wire.CatalogueMessage) when it
// is not the one published last, else nil.
func (t *table) catalogueChanged() []byte {
	c, ok := t.game.(Cataloguer)
	if !ok {
		return nil
	}
	b, err := json.Marshal(wire.CatalogueMessage{Game: t.game.Name(), Catalogue: c.Catalogue()})
	if err != nil {
		t.log.Error("catalogue not encoded", "err", err)
		return nil
	}
	if bytes.Equal(b, t.catalogue) {
		return nil
	}
	t.catalogue = b
	return b
}

// keyedRoll is a physical die's reading and its source.
type keyedRoll struct {
	key  string
	roll dice.Roll
}

// physicalRolls appends an action's physical dice to rolls.
func physicalRolls(g Game, table string, a Action, rolls []keyedRoll) []keyedRoll {
	dc, ok := g.(DiceCarrier)
	if !ok {
		return rolls
	}
	for _, r := range dc.RollsIn(a) {
		if r.Origin == dice.Keypad || r.Origin == dice.Camera || r.Origin == dice.NFC {
			rolls = append(rolls, keyedRoll{dice.SourceKey(table, r), r})
		}
	}
	return rolls
}

// actionChange says what a correction changed, for the people at the
// table: each value of the action's JSON that differs, by its path, old →
// new ("dice[0]: 6 → 5, rolls[0].value: 6 → 5"); objects, and arrays of
// the same length, are compared inside, and the action's type is left
// out (the text names it). Values longer than maxChangeValue are cut.
func actionChange(old, new []byte) string {
	a, errA := decodeNumbers(old)
	b, errB := decodeNumbers(new)
	if errA != nil || errB != nil {
		return ""
	}
	if oa, ok := a.(map[string]any); ok {
		delete(oa, "type")
	}
	if ob, ok := b.(map[string]any); ok {
		delete(ob, "type")
	}
	var out []string
	diffValues("", a, b, &out)
	return strings.Join(out, ", ")
}

func decodeNumbers(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// diffValues appends "path: old → new" for each value that differs
// between a and b (nil: absent).
func diffValues(path string, a, b any, out *[]string) {
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			keys := slices.Collect(maps.Keys(x))
			for k := range y {
				if _, ok := x[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				diffValues(p, x[k], y[k], out)
			}
			return
		}
	case []any:
		if y, ok := b.([]any); ok && len(x) == len(y) {
			for i := range x {
				diffValues(fmt.Sprintf("%s[%d]", path, i), x[i], y[i], out)
			}
			return
		}
	}
	if ja, jb := shortJSON(a), shortJSON(b); ja != jb {
		*out = append(*out, path+": "+ja+" → "+jb)
	}
}

// publicBody is an action's body as the public may know it: the game's
// Concealer leaves hidden fields out; other games' bodies are public.
func (t *table) publicBody(body []byte) []byte {
	c, ok := t.game.(Concealer)
	if !ok {
		return body
	}
	a, err := t.game.DecodeAction(body)
	if err != nil {
		return nil
	}
	out, err := t.game.EncodeAction(c.Conceal(a))
	if err != nil {
		return nil
	}
	return out
}

// told is the action of body in the game's words, as the public may know
// it (publicBody); ok is false when the game does not tell actions
// (ActionTeller) or the body cannot be read.
func (t *table) told(body []byte) (text rules.Text, ok bool) {
	teller, ok := t.game.(ActionTeller)
	if !ok {
		return rules.Text{}, false
	}
	a, err := t.game.DecodeAction(t.publicBody(body))
	if err != nil {
		return rules.Text{}, false
	}
	return teller.TellAction(a), true
}

// actionBrief is an action's fields but its type, for the people at the
// table: "add: ["C","N"], seat: 1" (values cut as in actionChange).
func actionBrief(body []byte) string {
	v, err := decodeNumbers(body)
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		return ""
	}
	delete(m, "type")
	keys := slices.Sorted(maps.Keys(m))
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+": "+shortJSON(m[k]))
	}
	return strings.Join(out, ", ")
}

const maxChangeValue = 60

// shortJSON is v on one line, "–" when absent, cut to maxChangeValue.
func shortJSON(v any) string {
	if v == nil {
		return "–"
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	s := string(data)
	if r := []rune(s); len(r) > maxChangeValue {
		s = string(r[:maxChangeValue-1]) + "…"
	}
	return s
}

func typeOf(a Action) string {
	if a == nil {
		return "?"
	}
	return a.Type()
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// pinRuledOn keeps the picture of the entry a ruling answers (seq in
// decimal) out of the pruning policy: it is the evidence of a ruling now.
func (t *table) pinRuledOn(ctx context.Context, seq string) {
	n, err := strconv.ParseInt(seq, 10, 64)
	if err == nil {
		err = t.keepEvidence(ctx, n)
	}
	if err != nil {
		t.log.Warn("evidence: the picture of a ruled entry could not be pinned", "entry", seq, "err", err)
	}
}
