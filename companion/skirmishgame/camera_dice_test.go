package skirmishgame_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
	"github.com/sztab/sztab/vision/dicetray"
	"github.com/sztab/sztab/vision/geom"
)

// tray is a settled tray reading of dice at 60 px apart: value 0 is an
// unreadable die (cocked).
func tray(values ...int) *vision.Tray {
	t := &vision.Tray{Device: "tray", SidePx: 40, Dice: []dicetray.Die{}}
	for i, v := range values {
		d := dicetray.Die{Value: v, Centre: geom.Vec2{X: 100 + 60*float64(i), Y: 200}, Confidence: 0.97, Colour: "white"}
		if v == 0 {
			d.Unreadable, d.Confidence = "cocked or stacked", 0.9
		}
		t.Dice = append(t.Dice, d)
	}
	return t
}

// TestCameraDiceThroughDaemon: a shot waits for its hit dice; the camera's
// snapshot carries a settled tray of five dice: they land as the hit roll
// with origin camera and the tray as device, and the fairness watch
// counts them under the tray; the same tray in the next snapshot rolls
// nothing; a throw with a cocked die gives a notice and no roll; the
// re-roll is taken.
func TestCameraDiceThroughDaemon(t *testing.T) {
	cfg := tabletest.DemoConfig(t, t.TempDir(), "skirmish.yaml", false)
	r, w := tabletest.StartWatched(t, cfg, skirmishgame.Spec)
	defer r.Stop(t)
	var models []vision.ModelPosition
	for i, id := range []string{"ak-1", "ak-2", "ak-3", "ak-4", "ak-5"} {
		models = append(models, vision.ModelPosition{ID: id, Unit: "ak", X: 300 + 60*float64(i), Y: 100, BaseMM: 25, SigmaMM: 0.5})
	}
	for i, id := range []string{"gren-1", "gren-2", "gren-3", "gren-4", "gren-5"} {
		models = append(models, vision.ModelPosition{ID: id, Unit: "gren", X: 300 + 60*float64(i), Y: 633, BaseMM: 25, SigmaMM: 0.5})
	}
	seq := 0
	snap := func(tr *vision.Tray) companion.Input {
		seq++
		return companion.Input{Snapshot: &vision.Snapshot{Seq: seq, Models: models, KrokMM: 25.4, Tray: tr}}
	}
	ctx := context.Background()
	submit := func(in companion.Input) {
		t.Helper()
		if err := r.D.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	card := func(uid string) companion.Input {
		return companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: uid, Present: true}}
	}
	trayRolls := func() int {
		for _, f := range r.D.Fairness() {
			if f.Key == cfg.Table+"/tray" {
				return f.Rolls
			}
		}
		return 0
	}
	until := func(what string, cond func() bool) {
		t.Helper()
		for end := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				w.Mu.Lock()
				t.Fatalf("timed out waiting for %s; events:\n%s", what, strings.Join(w.Events, "\n"))
			}
		}
	}
	events := func(substr string) int {
		w.Mu.Lock()
		defer w.Mu.Unlock()
		return w.Count(substr)
	}

	// the dice lying in the tray when the camera starts are no throw
	submit(snap(tray(6, 6)))
	submit(card("04A1B2C3")) // ak deploys
	submit(card("04D4E5F6")) // gren deploys
	submit(tabletest.Press("keypad", "next"))
	submit(card("04A1B2C3")) // the shooter
	submit(card("04D4E5F6")) // the target
	until("the shot declared", func() bool { return events(`"shot_declared"`) > 0 })
	if n := trayRolls(); n != 0 {
		t.Fatalf("the dice in the tray at the start were rolled: %d", n)
	}

	hit := tray(6, 6, 5, 5, 4) // five hits: the wounds take five dice too
	submit(snap(hit))
	until("the hit roll from the camera", func() bool { return trayRolls() == 5 })
	// The watcher hears the entry's events a moment after the table
	// counted the dice.
	until("an event carrying the camera's roll from the tray", func() bool { return events(`"origin":"camera","device":"tray"`) > 0 })

	// the same settled tray again (the next snapshot: five dice, as the
	// wounds need), then a throw with a cocked die: a notice, no roll
	submit(snap(hit))
	submit(snap(tray(3, 0, 5)))
	until("the unreadable notice", func() bool { return events(`"dice_unreadable"`) > 0 })
	if n := trayRolls(); n != 5 {
		t.Errorf("after the same tray and an unreadable throw: %d camera rolls, want 5", n)
	}
	if n := events(`"dice_unreadable"`); n != 1 {
		t.Errorf("%d unreadable notices, want 1", n)
	}
	w.Mu.Lock()
	for _, e := range w.Events {
		if strings.Contains(e, `"dice_unreadable"`) && !strings.Contains(e, "cocked") {
			t.Errorf("the notice does not say why: %s", e)
		}
	}
	w.Mu.Unlock()

	// the players pick the dice up and roll the wounds again: taken
	submit(snap(tray()))
	submit(snap(tray(3, 4, 5, 6, 1)))
	until("the wound roll from the camera", func() bool { return trayRolls() == 10 })
	if n := events(`"rejected"`); n != 0 {
		t.Errorf("%d refusals", n)
	}
	var faces [6]int
	for _, f := range r.D.Fairness() {
		if f.Key == cfg.Table+"/tray" {
			faces = f.Faces
		}
	}
	if want := [6]int{1, 0, 1, 2, 3, 3}; faces != want {
		t.Errorf("the tray's faces %v, want %v", faces, want)
	}
	for _, f := range r.D.Fairness() {
		if strings.HasSuffix(f.Key, "/"+string(dice.Keypad)) || f.Key == cfg.Table+"/keypad" {
			t.Errorf("camera rolls counted as keypad: %+v", f)
		}
	}
}
