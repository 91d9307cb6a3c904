package companion

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
)

// The bodies of the referee's entries, as the journal keeps them (JSON;
// docs/record.md "Corrections and rulings" lists their fields for reviewers).

// UndoBody is a KindUndo entry: the referee takes back the action of entry
// Target.
type UndoBody struct {
	Target int64 `json:"target"`
	// Action is the type of the action taken back; ActionText the action
	// in the game's words, when the game tells actions (ActionTeller).
	Action     string      `json:"action"`
	ActionText *rules.Text `json:"action_text,omitempty"`
	By         string      `json:"by"`
	Reason     string      `json:"reason"`
}

// CorrectionBody is a KindCorrection entry: the action of entry Target is
// replaced by Action (the game's action JSON) from its place in the game
// on; Old and New are the two actions' types, OldText and NewText the two
// actions in the game's words, when the game tells actions (ActionTeller).
type CorrectionBody struct {
	Target  int64           `json:"target"`
	Old     string          `json:"old"`
	New     string          `json:"new"`
	OldText *rules.Text     `json:"old_text,omitempty"`
	NewText *rules.Text     `json:"new_text,omitempty"`
	Action  json.RawMessage `json:"action"`
	By      string          `json:"by"`
	Reason  string          `json:"reason"`
}

// AllowedBody is a KindAllowed entry: an action the rules refused (the
// notice of entry Refused) that the referee let stand. Codes are the
// rejection codes the referee allowed, Waived those the action broke,
// Breach the refusedAction as the engine gave it.
type AllowedBody struct {
	Action  json.RawMessage `json:"action"`
	Type    string          `json:"type"`
	Refused int64           `json:"refused"`
	Breach  rules.Rejection `json:"breach"`
	Codes   []string        `json:"codes"`
	Waived  []string        `json:"waived"`
	By      string          `json:"by"`
	Reason  string          `json:"reason"`
}

// CallBody is a KindCall entry: a referee call opened for Seat; AnswerBody
// a KindAnswer entry closing the call of entry Call.
type CallBody struct {
	Seat int    `json:"seat"`
	By   string `json:"by"`
	Text string `json:"text,omitempty"`
}

type AnswerBody struct {
	Call int64  `json:"call"`
	Seat int    `json:"seat"`
	By   string `json:"by"`
	Text string `json:"text"`
}

// step is one action of the game as a replay applies it: an accepted
// action, or an action the referee allowed.
type step struct {
	seq  int64
	body json.RawMessage
	// allow are the codes the referee let stand (an allowed entry).
	allow []string
	// undone is the undo entry that took it back; fixed the last
	// correction of it (0: none).
	undone, fixed int64
}

// refusedAction is the last refused action, which the referee may let stand.
type refusedAction struct {
	seq    int64
	body   json.RawMessage
	code   string
	reason rules.Text
	// codes are the breaches already allowed on the way to this one.
	codes []string
}

// plan is what a journal says the game is: the actions to replay (with
// the referee's undos and corrections applied), the open calls, the
// refusedAction waiting for a ruling and the record of rulings.
type plan struct {
	steps   []step
	bySeq   map[int64]int
	calls   map[int]wire.OpenCall
	pending *refusedAction
	record  wire.RecordStatus
	// lines are the record's rulings, corrections and breaches, for the
	// export's summary.
	rulings, corrections, breaches []string
}

func newPlan() *plan {
	return &plan{bySeq: map[int64]int{}, calls: map[int]wire.OpenCall{}}
}

// clone copies the steps (the only part a tentative undo or correction
// changes).
func (p *plan) cloneSteps() []step { return append([]step(nil), p.steps...) }

// lastChange is the last entry that changed the game: an action, an
// allowed breach, an undo or a correction (calls, answers and notices
// change nothing); 0 when there is none.
func (p *plan) lastChange() int64 {
	var last int64
	for _, st := range p.steps {
		last = max(last, st.seq, st.undone, st.fixed)
	}
	return last
}

// add reads one journal entry into the plan.
func (p *plan) add(e Entry) error {
	bad := func(err error) error { return fmt.Errorf("entry %d (%s): %w", e.Seq, e.Kind, err) }
	switch e.Kind {
	case KindAction:
		p.push(step{seq: e.Seq, body: e.Body})
	case KindNotice:
		var n struct {
			Type    wire.NoticeType `json:"type"`
			Code    string          `json:"code"`
			Text    rules.Text      `json:"text"`
			Refused json.RawMessage `json:"refused"`
		}
		if json.Unmarshal(e.Body, &n) == nil && n.Type == wire.NoticeRejected && len(n.Refused) > 0 {
			var codes []string
			if p.pending != nil && string(p.pending.body) == string(n.Refused) {
				// The same action, refused again at its next breach after
				// the referee allowed the one before.
				codes = appendCode(p.pending.codes, p.pending.code)
			}
			p.pending = &refusedAction{seq: e.Seq, body: n.Refused, code: n.Code, reason: n.Text, codes: codes}
		}
	case KindAllowed:
		var b AllowedBody
		if err := json.Unmarshal(e.Body, &b); err != nil {
			return bad(err)
		}
		p.push(step{seq: e.Seq, body: b.Action, allow: b.Codes})
		p.record.Flags++
		text := rules.Textf("dopuszczono mimo naruszenia %s (%s): %s — %s", "allowed despite breaking %s (%s): %s — %s",
			b.Breach.Code, b.Type, b.By, b.Reason)
		p.note(e, b.Refused, text)
		p.breaches = append(p.breaches, fmt.Sprintf("entry %d (%s): %s allowed by %s despite %s (%s): %s; reason: %s",
			e.Seq, at(e), b.Type, b.By, b.Breach.Code, b.Breach.Reason.EN, joinCodes(b.Waived), b.Reason))
	case KindUndo:
		var b UndoBody
		if err := json.Unmarshal(e.Body, &b); err != nil {
			return bad(err)
		}
		i, ok := p.bySeq[b.Target]
		if !ok {
			return bad(fmt.Errorf("takes back entry %d, which is no action", b.Target))
		}
		p.steps[i].undone = e.Seq
		p.pending = nil
		p.record.Corrections++
		var what any = b.Action
		if b.ActionText != nil {
			what = *b.ActionText
		}
		p.note(e, b.Target, rules.Textf("cofnięto wpis %d (%s): %s — %s", "took back entry %d (%s): %s — %s", b.Target, what, byWords(b.By), b.Reason))
		p.corrections = append(p.corrections, fmt.Sprintf("entry %d (%s): %s took back entry %d (%s); reason: %s", e.Seq, at(e), b.By, b.Target, b.Action, b.Reason))
	case KindCorrection:
		var b CorrectionBody
		if err := json.Unmarshal(e.Body, &b); err != nil {
			return bad(err)
		}
		i, ok := p.bySeq[b.Target]
		if !ok {
			return bad(fmt.Errorf("corrects entry %d, which is no action", b.Target))
		}
		p.steps[i].body, p.steps[i].allow, p.steps[i].fixed = b.Action, nil, e.Seq
		p.pending = nil
		p.record.Corrections++
		var was, now any = b.Old, b.New
		if b.OldText != nil && b.NewText != nil {
			was, now = *b.OldText, *b.NewText
		}
		p.note(e, b.Target, rules.Textf("poprawiono wpis %d: %s → %s: %s — %s", "corrected entry %d: %s → %s: %s — %s", b.Target, was, now, byWords(b.By), b.Reason))
		p.corrections = append(p.corrections, fmt.Sprintf("entry %d (%s): %s corrected entry %d: %s replaced by %s %s; reason: %s",
			e.Seq, at(e), b.By, b.Target, b.Old, b.New, compactJSON(b.Action), b.Reason))
	case KindCall:
		var b CallBody
		if err := json.Unmarshal(e.Body, &b); err != nil {
			return bad(err)
		}
		p.calls[b.Seat] = wire.OpenCall{Seq: e.Seq, Seat: b.Seat, By: b.By, Text: b.Text}
		p.note(e, 0, rules.Textf("wezwanie sędziego (miejsce %d): %s", "referee call (seat %d): %s", b.Seat, b.Text))
		p.rulings = append(p.rulings, fmt.Sprintf("entry %d (%s): call for seat %d by %s: %s", e.Seq, at(e), b.Seat, b.By, orNone(b.Text)))
	case KindAnswer:
		var b AnswerBody
		if err := json.Unmarshal(e.Body, &b); err != nil {
			return bad(err)
		}
		delete(p.calls, b.Seat)
		p.note(e, b.Call, rules.Textf("sędzia (miejsce %d): %s", "referee (seat %d): %s", b.Seat, b.Text))
		p.rulings = append(p.rulings, fmt.Sprintf("entry %d (%s): %s answered the call of entry %d (seat %d): %s", e.Seq, at(e), b.By, b.Call, b.Seat, b.Text))
	}
	return nil
}

// byWords is who sent a ruling (senderName) in words, for the record's
// notes: the referee, a player's seat, the table's keys.
func byWords(by string) rules.Text {
	switch {
	case by == "referee":
		return rules.Text{PL: "sędzia", EN: "the referee"}
	case strings.HasPrefix(by, "player/"):
		return rules.Textf("gracz z miejsca %s", "the player at seat %s", strings.TrimPrefix(by, "player/"))
	case by == "keys" || strings.HasPrefix(by, "keys/"):
		return rules.Text{PL: "przyciski stołu", EN: "the table's keys"}
	}
	return rules.Text{PL: by, EN: by}
}

func (p *plan) push(s step) {
	p.bySeq[s.seq] = len(p.steps)
	p.steps = append(p.steps, s)
	p.pending = nil
}

// keptNotes is how many of the latest rulings every view carries.
const keptNotes = 5

func (p *plan) note(e Entry, target int64, text rules.Text) {
	p.record.Last = append(p.record.Last, wire.RecordNote{Seq: e.Seq, Kind: e.Kind, Target: target, Text: text})
	if len(p.record.Last) > keptNotes {
		p.record.Last = p.record.Last[len(p.record.Last)-keptNotes:]
	}
}

// status is the record as every view shows it.
func (p *plan) status() *wire.RecordStatus {
	r := p.record
	r.Calls = nil
	for _, c := range p.calls {
		r.Calls = append(r.Calls, c)
	}
	sortCalls(r.Calls)
	if r.Corrections == 0 && r.Flags == 0 && len(r.Calls) == 0 && len(r.Last) == 0 {
		return nil
	}
	r.Last = append([]wire.RecordNote(nil), r.Last...)
	return &r
}

func sortCalls(c []wire.OpenCall) {
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].Seat < c[j-1].Seat; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

// stepError is a replay that stopped at an action that no longer applies.
type stepError struct {
	Seq  int64
	Type string
	Err  error
}

func (e *stepError) Error() string {
	if e.Type == "" {
		return fmt.Sprintf("entry %d: %v", e.Seq, e.Err)
	}
	return fmt.Sprintf("entry %d (%s) no longer applies: %v", e.Seq, e.Type, e.Err)
}
func (e *stepError) Unwrap() error { return e.Err }

// build applies the steps that stand (not undone) to g, a game fresh from
// its spec, in order; observe sees each applied action. It stops at the
// first step that does not apply.
func build(g Game, steps []step, observe func(Action)) error {
	for _, s := range steps {
		if s.undone != 0 {
			continue
		}
		a, err := g.DecodeAction(s.body)
		if err != nil {
			return &stepError{Seq: s.seq, Err: err}
		}
		var commit func()
		if len(s.allow) > 0 {
			al, ok := g.(Allower)
			if !ok {
				return &stepError{Seq: s.seq, Type: a.Type(), Err: ErrCannotAllow}
			}
			_, _, commit, err = al.ApplyAllowing(a, s.allow)
		} else {
			_, commit, err = g.Apply(a)
		}
		if err != nil {
			return &stepError{Seq: s.seq, Type: a.Type(), Err: err}
		}
		commit()
		if observe != nil {
			observe(a)
		}
	}
	return nil
}

func at(e Entry) string { return e.At.UTC().Format(time.RFC3339) }

func joinCodes(c []string) string {
	if len(c) == 0 {
		return "no breach met"
	}
	b, _ := json.Marshal(c)
	return "broke " + string(b)
}

func orNone(s string) string {
	if s == "" {
		return "(no text)"
	}
	return s
}

func compactJSON(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func appendCode(codes []string, code string) []string {
	for _, c := range codes {
		if c == code {
			return codes
		}
	}
	return append(append([]string(nil), codes...), code)
}

// played says the game is under way: an action besides its opening stands
// or stood (an undone one was played too).
func (p *plan) played() bool { return len(p.steps) > 1 }
