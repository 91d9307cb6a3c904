// Package rules holds what every game engine shares: player-facing text in
// two languages and the typed error an engine returns when the rules refuse
// an action. Engines live in sub-packages and do no I/O.
package rules

import (
	"errors"
	"fmt"
)

// Text is player-facing text. Card, unit and place names stay as printed.
type Text struct {
	PL string `json:"pl"`
	EN string `json:"en"`
}

// Textf builds a Text from two format strings sharing the same arguments;
// an argument that is a Text gives each language its own words.
func Textf(pl, en string, args ...any) Text {
	return Text{PL: fmt.Sprintf(pl, in(args, "pl")...), EN: fmt.Sprintf(en, in(args, "en")...)}
}

// in is args with each Text argument in lang.
func in(args []any, lang string) []any {
	out := args
	for i, a := range args {
		t, ok := a.(Text)
		if !ok {
			continue
		}
		if &out[0] == &args[0] {
			out = append([]any(nil), args...)
		}
		out[i] = t.EN
		if lang == "pl" {
			out[i] = t.PL
		}
	}
	return out
}

// Rejection is returned by an engine for an action the rules refuse. The
// state the action was applied to is unchanged.
type Rejection struct {
	// Code is a stable machine-readable reason, e.g. "out_of_range".
	Code   string `json:"code"`
	Reason Text   `json:"reason"`
}

func (r *Rejection) Error() string { return "rules: " + r.Code + ": " + r.Reason.EN }

// Reject builds a Rejection; pl and en are format strings sharing args.
func Reject(code, pl, en string, args ...any) *Rejection {
	return &Rejection{Code: code, Reason: Textf(pl, en, args...)}
}

// AsRejection reports whether err is (or wraps) a Rejection.
func AsRejection(err error) (*Rejection, bool) {
	var r *Rejection
	ok := errors.As(err, &r)
	return r, ok
}

// Waiver is the referee's leave to let one action stand although it breaks
// the rules named by their rejection codes ("flag but allow": the table
// agrees to let it stand, and the record keeps the breach). An engine takes
// it with the action (ApplyAllowing) and honours it only at the check sites
// of rule breaches — distances, ranges, turn and timing, costs, limits —
// which call Breach instead of Reject. Malformed input (an unknown unit, a
// die showing 7, a card that does not exist) is refused with Reject, which
// no waiver passes. A nil *Waiver allows nothing.
type Waiver struct {
	codes  []string
	waived []string
}

// Allow is a waiver of the breaches with these codes, for one action.
func Allow(codes ...string) *Waiver { return &Waiver{codes: codes} }

// Breach is Reject at a rule-breach check site: nil when w lets the code
// stand (the breach is noted in Waived and the engine goes on as if the
// check had passed), else the *Rejection. It returns error, not
// *Rejection, so that a let-through breach is a true nil.
func (w *Waiver) Breach(code, pl, en string, args ...any) error {
	if w.Lets(code) {
		return nil
	}
	return Reject(code, pl, en, args...)
}

// Lets says whether w lets a breach of code stand, and notes it in Waived
// when it does: for engines that build their rejections themselves.
func (w *Waiver) Lets(code string) bool {
	if w == nil {
		return false
	}
	for _, c := range w.codes {
		if c == code {
			for _, d := range w.waived {
				if d == code {
					return true
				}
			}
			w.waived = append(w.waived, code)
			return true
		}
	}
	return false
}

// Waived are the codes an action actually broke and the waiver let stand,
// in the order they were met.
func (w *Waiver) Waived() []string {
	if w == nil {
		return nil
	}
	return w.waived
}

// Codes are the codes the waiver lets stand.
func (w *Waiver) Codes() []string {
	if w == nil {
		return nil
	}
	return w.codes
}
