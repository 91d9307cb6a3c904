package gamespec

import (
	"fmt"

	"github.com/sztab/sztab/rules"
)

// Adapter is the part of a Game that every engine shares: it holds the
// engine's current state, encodes and decodes actions with the engine's
// codec, applies them through the pure engine (the new state becomes
// current only on commit, once the journal holds the action) and filters
// views. A game embeds it and adds its binder (Bind) and the optional
// capabilities.
type Adapter[S, E any] struct {
	// ID is the config's game id.
	ID string
	// Codec encodes and decodes the engine's actions.
	Codec *rules.Codec
	// Opening is the action that opens a new journal.
	Opening rules.Action
	// Step is the engine: the same state and action give the same result.
	Step func(S, rules.Action) (S, []E, error)
	// Show is the state as a viewer may see it.
	Show func(S, Viewer) any
	// Allowing is the engine with the referee's waiver (flag but allow):
	// the breaches the waiver names are let stand. Nil: the game's
	// engine lets nothing stand.
	Allowing func(S, rules.Action, *rules.Waiver) (S, []E, error)

	state S
	// version counts the states made current (by any commit or SetState):
	// what a binding computes from the state is fresh while it matches.
	version uint64
}

// Version changes whenever another state becomes current, however it came
// (Apply, ApplyAllowing, SetState): a binding keys what it derives from
// the state (overlays, odds) on it.
func (a *Adapter[S, E]) Version() uint64 { return a.version }

func (a *Adapter[S, E]) Name() string { return a.ID }

func (a *Adapter[S, E]) Start() (Action, error) {
	if a.Opening == nil {
		return nil, fmt.Errorf("game: %s: no opening action", a.ID)
	}
	return a.Opening, nil
}

func (a *Adapter[S, E]) EncodeAction(x Action) ([]byte, error) { return a.Codec.Encode(x) }

func (a *Adapter[S, E]) DecodeAction(b []byte) (Action, error) { return a.Codec.Decode(b) }

func (a *Adapter[S, E]) Apply(x Action) ([]any, func(), error) {
	next, evs, err := a.Step(a.state, x)
	if err != nil {
		return nil, nil, err
	}
	out := make([]any, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out, func() { a.state, a.version = next, a.version+1 }, nil
}

// ApplyAllowing is Apply with the referee's leave to break the rules whose
// rejection codes are listed (see Allower).
func (a *Adapter[S, E]) ApplyAllowing(x Action, codes []string) ([]any, []string, func(), error) {
	if a.Allowing == nil {
		return nil, nil, nil, fmt.Errorf("game: %s: %w", a.ID, ErrCannotAllow)
	}
	w := rules.Allow(codes...)
	next, evs, err := a.Allowing(a.state, x, w)
	if err != nil {
		return nil, nil, nil, err
	}
	out := make([]any, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out, w.Waived(), func() { a.state, a.version = next, a.version+1 }, nil
}

func (a *Adapter[S, E]) View(v Viewer) any { return a.Show(a.state, v) }

// State is the current state.
func (a *Adapter[S, E]) State() S { return a.state }

// SetState replaces the current state, for tests that set up a position
// directly; the daemon changes the state only through Apply and commit.
func (a *Adapter[S, E]) SetState(s S) { a.state, a.version = s, a.version+1 }
