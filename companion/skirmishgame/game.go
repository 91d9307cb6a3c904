// Package skirmishgame binds the table's sensors to the skirmish engine
// (rules/skirmish): unit cards select the shooter and the target, the camera
// snapshot gives distance and cover, the keypad gives the dice.
package skirmishgame

import (
	"fmt"
	"strconv"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/vision"
)

// Game is the skirmish game at one table.
type Game struct {
	setup   skirmish.Setup
	cat     *skirmish.Catalogue
	state   skirmish.State
	krokMM  float64
	virtual dice.Source
	snap    *vision.Snapshot
	// shooter is the unit whose card was scanned first; a table-side
	// selection, not game state, so it is not journaled.
	shooter string
}

// New reads the config's skirmish section.
func New(cfg *companion.Config) (companion.Game, error) {
	var setup skirmish.Setup
	if err := cfg.DecodeSection("skirmish", &setup); err != nil {
		return nil, err
	}
	cat, err := skirmish.DefaultCatalogue()
	if err != nil {
		return nil, err
	}
	if _, err := cat.NewGame(setup); err != nil {
		return nil, &companion.ConfigError{File: cfg.Path(), Line: cfg.Line("skirmish"), Msg: err.Error()}
	}
	return &Game{setup: setup, cat: cat, krokMM: cfg.Measure.KrokMM, virtual: dice.NewSeeded(cfg.Dice.Seed)}, nil
}

func (g *Game) Name() string { return "skirmish" }

func (g *Game) Start() (companion.Action, error) { return g.cat.NewGame(g.setup) }

func (g *Game) EncodeAction(a companion.Action) ([]byte, error) {
	sa, ok := a.(skirmish.Action)
	if !ok {
		return nil, fmt.Errorf("skirmishgame: %T is not a skirmish action", a)
	}
	return skirmish.EncodeAction(sa)
}

func (g *Game) DecodeAction(b []byte) (companion.Action, error) { return skirmish.DecodeAction(b) }

func (g *Game) Apply(a companion.Action) ([]any, func(), error) {
	sa, ok := a.(skirmish.Action)
	if !ok {
		return nil, nil, fmt.Errorf("skirmishgame: %T is not a skirmish action", a)
	}
	next, evs, err := skirmish.Apply(g.state, sa)
	if err != nil {
		return nil, nil, err
	}
	out := make([]any, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out, func() { g.state = next }, nil
}

// View: everything in a skirmish is on the table for all to see so far;
// army lists before deployment are filtered once deployment is played.
func (g *Game) View(companion.Viewer) any { return g.state }

// State is the current state (for tests and displays in process).
func (g *Game) State() skirmish.State { return g.state }

func (g *Game) Bind(in companion.Input) ([]companion.Action, []companion.Notice) {
	switch {
	case in.Snapshot != nil:
		g.snap = in.Snapshot
	case in.Tag != nil && in.Tag.Present && in.TagInfo != nil:
		switch in.TagInfo.Kind {
		case "unit":
			return g.unitCard(in.TagInfo.ID)
		case "command":
			return g.command(in.TagInfo.ID, "nfc")
		}
		return nil, []companion.Notice{{Type: "tag_ignored", UID: in.Tag.UID, Reader: in.Tag.Reader,
			Text: rules.Textf("karta %s (%s) nie ma znaczenia w tej grze", "card %s (%s) means nothing in this game", in.TagInfo.ID, in.TagInfo.Kind)}}
	case in.Key != nil:
		if v, err := strconv.Atoi(in.Key.Key); err == nil {
			return []companion.Action{skirmish.Dice{Rolls: []dice.Roll{{Value: v, Origin: dice.Keypad, Device: in.Key.Keypad}}}}, nil
		}
		return g.command(in.Key.Key, in.Key.Keypad)
	}
	return nil, nil
}

// command maps a named key (or a command card) to an action.
func (g *Game) command(name, device string) ([]companion.Action, []companion.Notice) {
	shot := g.state.Shot
	switch name {
	case "next":
		return []companion.Action{skirmish.EndPhase{}}, nil
	case "undo":
		return []companion.Action{skirmish.UndoDie{}}, nil
	case "confirm":
		if shot != nil && shot.Stage == skirmish.StageRuling {
			return []companion.Action{skirmish.Ruling{InRange: true, By: device}}, nil
		}
	case "cancel":
		if shot != nil && shot.Stage == skirmish.StageRuling {
			return []companion.Action{skirmish.Ruling{InRange: false, By: device}}, nil
		}
		g.shooter = ""
		return []companion.Action{skirmish.CancelShot{}}, nil
	case "roll":
		if shot == nil || shot.Stage == skirmish.StageRuling {
			return nil, []companion.Notice{{Type: "rejected", Code: "no_roll_needed", Text: rules.Textf("nic nie czeka na rzut", "nothing is waiting for a roll")}}
		}
		rolls, err := g.virtual.Roll(shot.Need - len(shot.Entered))
		if err != nil {
			return nil, []companion.Notice{{Type: "rejected", Code: "virtual_dice", Text: rules.Textf("wirtualne kości: %v", "virtual dice: %v", err)}}
		}
		return []companion.Action{skirmish.Dice{Rolls: rolls}}, nil
	}
	return nil, []companion.Notice{{Type: "rejected", Code: "unknown_key", Text: rules.Textf("klawisz %q nic tu nie robi", "key %q does nothing here", name)}}
}

// unitCard: the first card scanned picks the shooter, the second the
// target; scanning the shooter again drops the selection.
func (g *Game) unitCard(unit string) ([]companion.Action, []companion.Notice) {
	u, ok := g.state.Unit(unit)
	if !ok {
		return nil, []companion.Notice{{Type: "rejected", Code: "unknown_unit",
			Text: rules.Textf("karta oddziału %q, którego nie ma w tej grze", "card of unit %q, which is not in this game", unit)}}
	}
	switch g.shooter {
	case "":
		g.shooter = unit
		return nil, []companion.Notice{{Type: "shooter_selected",
			Text: rules.Textf("strzela: %s (%s); zeskanuj cel", "shooting: %s (%s); scan the target", u.Name, u.Weapon.Name)}}
	case unit:
		g.shooter = ""
		return nil, []companion.Notice{{Type: "selection_cleared", Text: rules.Textf("wybór anulowany", "selection cleared")}}
	}
	shooter := g.shooter
	g.shooter = ""
	if g.snap == nil {
		return nil, []companion.Notice{{Type: "rejected", Code: "no_measurement",
			Text: rules.Textf("kamera jeszcze nie widziała stołu; nie ma pomiaru", "the camera has not seen the table yet; no measurement")}}
	}
	dist, err := g.snap.UnitDistance(shooter, unit)
	if err != nil {
		return nil, []companion.Notice{{Type: "rejected", Code: "no_measurement",
			Text: rules.Textf("brak pomiaru: %v", "no measurement: %v", err)}}
	}
	light, heavy := g.snap.CoverCount(unit)
	return []companion.Action{skirmish.DeclareShot{
		Shooter:  shooter,
		Target:   unit,
		Distance: skirmish.Measure{Kroki: round3(dist.MM / g.krokMM), Uncertainty: round3(dist.BoundMM / g.krokMM)},
		InCover:  skirmish.InCover{Light: light, Heavy: heavy},
	}}, nil
}

// round3 keeps journaled measurements short and stable across platforms.
func round3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	return v
}
