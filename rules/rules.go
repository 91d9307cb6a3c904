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

// Textf builds a Text from two format strings sharing the same arguments.
func Textf(pl, en string, args ...any) Text {
	return Text{PL: fmt.Sprintf(pl, args...), EN: fmt.Sprintf(en, args...)}
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
