package bitwagame

import (
	_ "embed"
	"fmt"
	"github.com/sztab/sztab/companion/box"
	"sort"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
)

//go:embed panel.js
var panel []byte

// ID is the game's config id.
const ID = "bitwa-warszawska"

// Spec registers Bitwa Warszawska with the daemon.
var Spec = gamespec.GameSpec{
	ID:       ID,
	Title:    rules.Text{PL: "Bitwa Warszawska 1920", EN: "Bitwa Warszawska (the Battle of Warsaw, 1920)"},
	New:      New,
	Commands: commands,
	Play:     play,
	Panel:    panel,
	Cards:    cards,
	Demo:     "bitwa-warszawska.yaml",
	Endings:  endings,
	Rulings:  rulings,
	Board:    printedBoard,
	// Bitwa Warszawska is 2–4 players, but 3 and 4 play as two armies
	// (rulebook "LICZBA GRACZY: 2–4", the 3-player hands): a table is two
	// sides. Victory points (PZ, 7 to win) decide the game and make the
	// natural second tie-break after Buchholz.
	Tournament: gamespec.Tournament{Seats: 2, RoundMinutes: 90, Points: gamespec.Points{Mode: gamespec.ModeWDL, Win: 3, Draw: 1, Loss: 0},
		TieBreaks: []string{gamespec.TieSOS, gamespec.TieScore, gamespec.TieHeadToHead},
		Why:       "two armies; Buchholz, then PZ; 45–90 min game"},
	Box: box.Page,
}

// commands: the dice keypad's digits (a die read off the table; with a
// card picked and its front known, 1 or 2 is the commander's effect),
// confirm, cancel and pass on every seat's buttons, and the rest from the
// players' pages (or the referee's). A player sends them for their own
// seat (Bind checks); the referee and the table's keys act for whoever the
// game waits for. Card arguments may be left out when a card is picked
// (scanned on the player's reader): the picked card is meant.
var commands = append(wire.Vocabulary{
	{Name: "confirm", Label: rules.Text{PL: "Potwierdź (tak, zagraj wybraną kartę, jedyna odpowiedź)", EN: "Confirm (yes, play the picked card, the only answer)"}, From: wire.Anyone, Watch: "c"},
	{Name: "cancel", Label: rules.Text{PL: "Anuluj (nie, odłóż wybraną kartę, bez ruchu)", EN: "Cancel (no, put the picked card back, no move)"}, From: wire.Anyone, Watch: "x"},
	{Name: "pass", Label: rules.Text{PL: "Pas (koniec akcji w tej rundzie)", EN: "Pass (no more actions this round)"}, From: wire.Anyone, Watch: "p"},
	{Name: "select", Label: rules.Text{PL: "Wybierz kartę z ręki", EN: "Pick a card of the hand"}, From: wire.Seat | wire.Ref, Args: []string{"card"}},
	{Name: "play", Label: rules.Text{PL: "Zagraj kartę na Front", EN: "Play a card to a front"}, From: wire.Seat | wire.Ref, Args: []string{"card?", "front", "effect?"}},
	{Name: "effect", Label: rules.Text{PL: "Efekt wybranej karty (1, 2)", EN: "The picked card's effect (1, 2)"}, From: wire.Anyone, Args: []string{"effect"}},
	{Name: "fight", Label: rules.Text{PL: "Odrzuć kartę: walka o Zasób", EN: "Discard a card: fight for a resource"}, From: wire.Seat | wire.Ref, Args: []string{"card?", "resource"}},
	{Name: "blockade", Label: rules.Text{PL: "Połóż znacznik Blokady", EN: "Lay a blockade marker"}, From: wire.Seat | wire.Ref, Args: []string{"card?", "marker?", "place", "front"}},
	{Name: "activate", Label: rules.Text{PL: "Odrzuć kartę: aktywuj Dowódcę", EN: "Discard a card: activate a commander"}, From: wire.Seat | wire.Ref, Args: []string{"card?", "front", "effect?"}},
	{Name: "move", Label: rules.Text{PL: "Porusz Oddziały (C2>C1:2)", EN: "Move units (C2>C1:2)"}, From: wire.Seat | wire.Ref, Args: []string{"move…"}},
	{Name: "supply", Label: rules.Text{PL: "Zaopatrzenie: dołóż (N, C, S) lub porusz", EN: "Supply: add (N, C, S) or move"}, From: wire.Seat | wire.Ref, Args: []string{"front or move…"}},
	{Name: "remove", Label: rules.Text{PL: "Usuń Oddział przeciwnika z linii", EN: "Remove an enemy unit from a line"}, From: wire.Seat | wire.Ref, Args: []string{"line"}},
	{Name: "turn", Label: rules.Text{PL: "Obróć kartę Zasobu stroną", EN: "Turn the resource card to face"}, From: wire.Seat | wire.Ref, Args: []string{"face"}},
	{Name: "assign", Label: rules.Text{PL: "Rozdaj znaczniki Inicjatywy", EN: "Hand out the initiative tokens"}, From: wire.Seat | wire.Ref, Args: []string{"seat…"}},
	{Name: "roll", Label: rules.Text{PL: "Wyniki kości", EN: "Dice read off the table"}, From: wire.Anyone, Args: []string{"die…"}},
}, wire.DiceKeys(wire.Anyone)...)

// cards lists every card of the configured game: both army decks (every
// card carries a tag).
func cards(sectionYAML []byte) ([]gamespec.Card, error) {
	var c Config
	if err := yaml.Unmarshal(sectionYAML, &c); err != nil {
		return nil, fmt.Errorf("bitwagame: %w", err)
	}
	cat, err := LoadCatalogue(c.Data, func(p string) string { return p })
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(cat.Cards))
	for id := range cat.Cards {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]gamespec.Card, 0, len(ids))
	for _, id := range ids {
		out = append(out, gamespec.Card{ID: id, Kind: "card", Label: cat.Cards[id].Name})
	}
	return out, nil
}
