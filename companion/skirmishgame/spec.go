package skirmishgame

import (
	_ "embed"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/skirmish"
)

//go:embed panel.js
var panel []byte

// Spec registers the skirmish game (Powstanie Warszawskie) with the daemon.
var Spec = gamespec.GameSpec{
	ID:       "skirmish",
	Title:    rules.Text{PL: "Powstanie Warszawskie — więzienna gra strategiczna", EN: "Powstanie Warszawskie (Warsaw Uprising skirmish)"},
	New:      New,
	Commands: commands,
	Play:     play,
	Panel:    panel,
	Cards:    cards,
	Demo:     "skirmish.yaml",
	Endings:  endings,
	// A measurement too close to call waits for a person's ruling.
	Attention: []string{skirmish.EventTooCloseToCall},
	Rulings:   rulings,
	Tools:     tools,
	// The skirmish (powstanie-warszawskie-skirmish.txt) is two players,
	// one winner or a draw: the usual wargame 3/1/0; then Buchholz (who
	// you beat matters more than by how much), then the game score (army
	// points destroyed) that separates big wins from narrow ones.
	Tournament: gamespec.Tournament{Seats: 2, RoundMinutes: 120, Points: gamespec.Points{Mode: gamespec.ModeWDL, Win: 3, Draw: 1, Loss: 0},
		TieBreaks: []string{gamespec.TieSOS, gamespec.TieScore, gamespec.TieHeadToHead},
		Why:       "two players, win/draw/loss; Buchholz, then army points destroyed"},
}

// commands are the table's keys, the pages' buttons and the watch's keys.
// A player sends them for their own seat, and only on their turn (Bind).
var commands = append(wire.Vocabulary{
	{Name: "next", Label: rules.Text{PL: "Następna faza", EN: "Next phase"}, From: wire.Anyone, Watch: "n"},
	{Name: "confirm", Label: rules.Text{PL: "Uznaj (w zasięgu)", EN: "Accept (in range)"}, From: wire.Keys | wire.Ref, Watch: "c"},
	{Name: "cancel", Label: rules.Text{PL: "Odrzuć / odwołaj", EN: "Reject / call off"}, From: wire.Anyone, Watch: "x"},
	{Name: "undo", Label: rules.Text{PL: "Cofnij kość", EN: "Undo die"}, From: wire.Anyone, Watch: "u"},
	{Name: "roll", Label: rules.Text{PL: "Rzuć wirtualnie", EN: "Roll virtual dice"}, From: wire.Anyone, Watch: "r"},
	{Name: "draw", Label: rules.Text{PL: "Dobierz rozkazy", EN: "Draw order cards"}, From: wire.Anyone, Watch: "d"},
	{Name: "discard", Label: rules.Text{PL: "Odrzuć kartę rozkazu", EN: "Put an order card away"}, From: wire.Anyone},
	// The referee ends the game (the rulebook: "gra kończy się kiedy
	// odczuwalna jest nieprzyjemna atmosfera lub próbą oszustwa"; at a
	// tournament, the round's time): the winning faction or player, or
	// none for no winner; the reason is the command's text.
	{Name: "end_game", Label: rules.Text{PL: "Zakończ grę (sędzia): zwycięzca", EN: "End the game (referee): the winner"}, From: wire.Ref, Args: []string{"winner?"}, Text: true},
}, wire.DiceKeys(wire.Anyone)...)

// Summary is the game in a few lines: round and phase, the score, and
// what the table waits for, from the state as v sees it (before
// deployment, the models of undeployed units are v's own only).
func (g *Game) Summary(v gamespec.Viewer) []rules.Text {
	s := g.Adapter.View(v).(skirmish.State)
	if s.Result != nil {
		return []rules.Text{g.Headline()}
	}
	out := []rules.Text{headline(s)}
	for _, sd := range s.Sides {
		out = append(out, rules.Textf("%s: %d modeli, %d zabitych, %d pkt celu, %d pkt rozkazów",
			"%s: %d models, %d kills, %d objective pts, %d order pts", sd.Faction, sd.Alive, sd.Kills, sd.ObjectivePoints, sd.OrderPoints))
	}
	if s.Call != nil {
		out = append(out, rules.Text{PL: "⚠ ROZSTRZYGNIJ: " + s.Call.Question.PL, EN: "⚠ RULE: " + s.Call.Question.EN})
	}
	if sh := s.Shot; sh != nil {
		out = append(out, rules.Textf("Strzał: %s → %s · %s · %s (%d/%d)", "Shot: %s → %s · %s · %s (%d/%d)",
			sh.Shooter, sh.Target, sh.Weapon, sh.Stage, len(sh.Entered), sh.Need))
	} else if sel := s.Selection; sel != nil && sel.Shooter != "" {
		out = append(out, rules.Textf("Strzela %s (%s): zeskanuj cel", "%s shoots (%s): scan the target", sel.Shooter, sel.Weapon))
	}
	if ls := s.LastShot; ls != nil {
		out = append(out, rules.Textf("Ostatni strzał: %s → %s: %d trafień, %d ran, %d zabitych", "Last shot: %s → %s: %d hits, %d wounds, %d killed",
			ls.Shooter, ls.Target, ls.Hits, ls.Wounds, len(ls.Killed)))
	}
	return out
}

// Scoreboard: a 4-digit display shows the two sides' score in the
// scenario's own count (kills, objective points or order points), a text
// display the round and each side.
func (g *Game) Scoreboard() hardware.Scoreboard {
	s := g.State().View(skirmish.Viewer{})
	var sb hardware.Scoreboard
	score := func(sd skirmish.Side) int {
		switch {
		case s.Scenario != nil && (s.Scenario.Number == skirmish.ScenarioHold || s.Scenario.Number == skirmish.ScenarioAllOrNothing):
			return sd.ObjectivePoints
		case s.Scenario != nil && s.Scenario.Number == skirmish.ScenarioOrders:
			return sd.OrderPoints
		}
		return sd.Kills
	}
	if len(s.Sides) == 2 {
		if d := fmt.Sprintf("%d-%d", score(s.Sides[0]), score(s.Sides[1])); len(d) <= 4 {
			sb.Digits = d
		}
	}
	sb.Lines = append(sb.Lines, fmt.Sprintf("R%d %s", s.Round, s.Phase))
	for _, sd := range s.Sides {
		sb.Lines = append(sb.Lines, fmt.Sprintf("%.10s %d", sd.Faction, score(sd)))
	}
	return sb
}

// cards are the unit cards of the config's skirmish section.
func cards(section []byte) ([]gamespec.Card, error) {
	var f struct {
		Units []struct {
			ID   string `yaml:"id"`
			Name string `yaml:"name"`
		} `yaml:"units"`
	}
	if err := yaml.Unmarshal(section, &f); err != nil {
		return nil, fmt.Errorf("skirmishgame: %w", err)
	}
	var out []gamespec.Card
	for _, u := range f.Units {
		out = append(out, gamespec.Card{ID: u.ID, Kind: "unit", Label: u.Name})
	}
	return out, nil
}
