package companion

import (
	"context"
	"fmt"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"strings"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
	"github.com/sztab/sztab/vision/dicetray"
)

// CameraRolls are the rolls of a camera throw, in the tray's order.
func CameraRolls(ds []CameraDie) []dice.Roll { return gamespec.CameraRolls(ds) }

// trayThrows turns the dice tray's settled readings, as snapshots carry
// them, into throws, each once. A snapshot repeats the tray's reading
// until the tray settles on another one, so a reading the same
// (dicetray.Same) as the last one taken is not a throw; an empty tray
// is not one either, and the next throw after it is new.
//
// The dice in the tray when the daemon starts are not a throw (the first
// tray it sees is only remembered): after a restart the dice of the throw
// the journal already holds still lie there.
type trayThrows struct {
	seen bool
	last dicetray.Reading
}

// take says what a snapshot's tray gives: the dice of a new throw, or a
// notice asking for a re-roll when a die of a new throw is unreadable;
// nothing when the tray shows no new throw.
func (tt *trayThrows) take(tray *vision.Tray) ([]CameraDie, *Notice) {
	if tray == nil {
		return nil, nil
	}
	r := tray.Reading()
	if tt.seen && dicetray.Same(tt.last, r) {
		return nil, nil
	}
	first := !tt.seen
	tt.seen, tt.last = true, r
	if first || len(r.Dice) == 0 {
		return nil, nil
	}
	var whyPL, whyEN []string
	for i, d := range r.Dice {
		if d.Value == 0 {
			whyPL = append(whyPL, fmt.Sprintf("%d. (%s: %s)", i+1, dicetray.Polish(d.Colour), dicetray.Polish(d.Unreadable)))
			whyEN = append(whyEN, fmt.Sprintf("%d (%s: %s)", i+1, d.Colour, d.Unreadable))
		}
	}
	if len(whyPL) > 0 {
		n := &Notice{Type: wire.NoticeDiceUnreadable, Device: tray.Device,
			Text: rules.Text{
				PL: fmt.Sprintf("kamera nie odczytała kości: %s; rzućcie jeszcze raz albo wpiszcie wynik na klawiaturze", strings.Join(whyPL, ", ")),
				EN: fmt.Sprintf("the camera cannot read dice: %s; roll again or key the result in", strings.Join(whyEN, ", "))}}
		return nil, n
	}
	out := make([]CameraDie, len(r.Dice))
	for i, d := range r.Dice {
		out[i] = CameraDie{Roll: dice.Roll{Value: d.Value, Origin: dice.Camera, Device: tray.Device, Confidence: d.Confidence}, Colour: d.Colour}
	}
	return out, nil
}

// cameraDice enters a snapshot's new tray throw into the game: the
// binder turns it into the game's dice action as it does keypad digits.
// It runs after the snapshot itself went through the binder, as an input
// of its own: a throw the game refuses (no roll awaited) does not refuse
// what the snapshot gave, nor the other way round.
func (t *table) cameraDice(ctx context.Context, in Input) {
	ds, n := t.tray.take(in.Snapshot.Tray)
	if n != nil {
		t.notice(ctx, *n, nil)
		return
	}
	if len(ds) == 0 {
		return
	}
	actions, notices := t.game.Bind(Input{Dice: ds, Image: in.Image, From: in.From})
	if len(actions) == 0 && len(notices) == 0 {
		t.notice(ctx, Notice{Type: wire.NoticeDiceIgnored, Device: in.Snapshot.Tray.Device,
			Text: rules.Textf("gra %s nie bierze kości z kamery; wpiszcie wynik na klawiaturze", "the game %s takes no dice from the camera; key the result in", t.game.Name())}, nil)
		return
	}
	t.run(ctx, actions, notices, nil)
}
