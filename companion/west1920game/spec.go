package west1920game

import (
	_ "embed"
	"fmt"
	"github.com/sztab/sztab/companion/box"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
)

//go:embed panel.js
var panel []byte

// Spec registers How the West was Saved (1920) with the daemon.
var Spec = gamespec.GameSpec{
	ID: ID,
	// The game's name is English (Stephen Pole's); the Polish interface
	// says what it is in Polish.
	Title:    rules.Text{PL: "Jak ocalono Zachód: wojna polsko-bolszewicka 1920", EN: "How the West was Saved: the Russo-Polish War, 1920"},
	New:      New,
	Commands: commands,
	Play:     play,
	Panel:    panel,
	Cards:    cards,
	Demo:     "west-1920.yaml",
	Endings:  endings,
	Rulings:  rulings,
	// How the West was Saved is Poles against Soviets; rule 2.2 makes
	// "każdy inny wynik" a draw, so draws are common: 3/1/0, Buchholz,
	// then wins (a decisive game over a draw), then head-to-head.
	Tournament: gamespec.Tournament{Seats: 2, RoundMinutes: 180, Points: gamespec.Points{Mode: gamespec.ModeWDL, Win: 3, Draw: 1, Loss: 0},
		TieBreaks: []string{gamespec.TieSOS, gamespec.TieWins, gamespec.TieHeadToHead},
		Why:       "two sides, draws frequent (2.2): Buchholz, then wins, then head-to-head"},
	Box: box.Page,
}

// commands: the dice keys and undo/pass come from the white and red
// keypads; the rest carry arguments and come from the pages (a player for
// their own side, the referee for whoever the game waits for).
var commands = append(wire.Vocabulary{
	{Name: "pass", Label: rules.Text{PL: "Pas / koniec fazy dla siebie", EN: "Pass for the rest of the phase"}, From: wire.Anyone, Watch: "p", Args: []string{"side?"}},
	{Name: "undo", Label: rules.Text{PL: "Wyczyść wpisane kości", EN: "Clear the dice entered"}, From: wire.Anyone, Watch: "u"},
	{Name: "roll", Label: rules.Text{PL: "Rzut (kości podane albo wirtualne)", EN: "Roll (the dice given, or virtual)"}, From: wire.Anyone, Args: []string{"die?", "die?"}},
	{Name: "draw", Label: rules.Text{PL: "Dobierz kartę zdarzeń", EN: "Draw an event card"}, From: wire.Anyone, Watch: "d", Args: []string{"card?"}},
	{Name: "play", Label: rules.Text{PL: "Zagraj kartę zdarzeń", EN: "Play an event card"}, From: wire.Seat | wire.Ref, Args: []string{"card"}},
	{Name: "depot", Label: rules.Text{PL: "Załóż magazyn", EN: "Set up a depot"}, From: wire.Seat | wire.Ref, Args: []string{"hex"}},
	{Name: "remove_depot", Label: rules.Text{PL: "Usuń magazyn", EN: "Remove a depot"}, From: wire.Seat | wire.Ref, Args: []string{"hex"}},
	{Name: "chit", Label: rules.Text{PL: "Żeton aktywacji", EN: "Activation chit"}, From: wire.Seat | wire.Ref, Args: []string{"hex"}},
	{Name: "discard", Label: rules.Text{PL: "Odrzuć żeton", EN: "Discard a chit"}, From: wire.Seat | wire.Ref, Args: []string{"hex"}},
	{Name: "turn", Label: rules.Text{PL: "Rozkaz: zmiana ukierunkowania", EN: "Order: turn the stack"}, From: wire.Seat | wire.Ref, Args: []string{"hex", "facing"}},
	{Name: "move", Label: rules.Text{PL: "Ruch stosu na heks", EN: "Move a stack to a hex"}, From: wire.Seat | wire.Ref, Args: []string{"hex or unit", "hex", "facing?"}},
	{Name: "hq", Label: rules.Text{PL: "Ruch dowództwa", EN: "Move an HQ"}, From: wire.Seat | wire.Ref, Args: []string{"hq", "hex"}},
	{Name: "attack", Label: rules.Text{PL: "Atak", EN: "Attack"}, From: wire.Seat | wire.Ref, Args: []string{"from", "target", "support?", "card@hex…"}},
	{Name: "card_bonus", Label: rules.Text{PL: "Premie kart obrońcy przed rzutem", EN: "The defender's card bonuses before the roll"}, From: wire.Seat | wire.Ref, Args: []string{"card@hex…"}},
	{Name: "losses", Label: rules.Text{PL: "Straty", EN: "Losses"}, From: wire.Seat | wire.Ref, Args: []string{"unit…"}},
	{Name: "retreat", Label: rules.Text{PL: "Odwrót", EN: "Retreat"}, From: wire.Seat | wire.Ref, Args: []string{"hex", "hex", "facing?", "eliminate unit…"}},
	{Name: "pursue", Label: rules.Text{PL: "Pościg", EN: "Pursuit"}, From: wire.Seat | wire.Ref, Args: []string{"unit… or unit@hex"}},
	{Name: "replace", Label: rules.Text{PL: "Uzupełnij jednostkę", EN: "Replace a unit"}, From: wire.Seat | wire.Ref, Args: []string{"unit"}},
	{Name: "strategic", Label: rules.Text{PL: "Ruch strategiczny", EN: "Strategic move"}, From: wire.Seat | wire.Ref, Args: []string{"unit", "hex", "facing?"}},
	{Name: "place", Label: rules.Text{PL: "Postaw jednostkę", EN: "Place a unit"}, From: wire.Seat | wire.Ref, Args: []string{"unit?", "hex", "facing?"}},
	{Name: "choose", Label: rules.Text{PL: "Wybór karty", EN: "A card's choice"}, From: wire.Seat | wire.Ref, Args: []string{"target…"}},
	{Name: "adjust", Label: rules.Text{PL: "Poprawka sędziego", EN: "Referee's correction"}, From: wire.Ref, Args: []string{"unit", "key=value…"}},
}, wire.DiceKeys(wire.Anyone)...)

// cards lists the 40 event cards (tag ids event-01 … event-40) for
// `sztab tags enroll --cards`.
func cards(section []byte) ([]gamespec.Card, error) {
	var c Config
	if err := yaml.Unmarshal(section, &c); err != nil {
		return nil, fmt.Errorf("west1920game: %w", err)
	}
	cat, err := LoadCatalogue(c.Data, func(p string) string { return p })
	if err != nil {
		return nil, err
	}
	var ids []int
	for id := range cat.Cards {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]gamespec.Card, 0, len(ids))
	for _, id := range ids {
		out = append(out, gamespec.Card{ID: CardID(id), Kind: "card", Label: fmt.Sprintf("%d. %s", id, cat.Cards[id].Title)})
	}
	return out, nil
}
