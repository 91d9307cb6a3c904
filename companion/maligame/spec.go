// Package maligame binds the table to the Mali Powstańcy engine
// (rules/mali): order cards scanned onto the track, movement cards scanned
// for a seat, the die's face entered on the keypad, couriers moved from
// the players' pages (or node buttons), the soldier's path and the odds of
// an arrest shown on every screen.
package maligame

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"

	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/mali"
)

//go:embed panel.js
var panel []byte

// ID is the game's config id.
const ID = "mali-powstancy"

// Spec registers Mali Powstańcy with the daemon.
var Spec = gamespec.GameSpec{
	ID:       ID,
	Title:    rules.Text{PL: "Mali Powstańcy. Warszawa 1944", EN: "Mali Powstańcy (Little Insurgents), Warsaw 1944"},
	New:      New,
	Commands: commands,
	Play:     play,
	Panel:    panel,
	Cards:    cards,
	Demo:     "mali-powstancy.yaml",
	Endings:  endings,
	Rulings:  rulings,
	Board:    printedBoard,
	// Mali Powstańcy's rules are written for four ("W instrukcji opisane
	// są zasady gry dla czterech osób") and "Ten, kto zdobył najwięcej
	// punktów, wygrywa": one winner of four says little about the other
	// three, so the standings sum the game's points (vp), then wins, then
	// Buchholz.
	Tournament: gamespec.Tournament{Seats: 4, RoundMinutes: 75, Points: gamespec.Points{Mode: gamespec.ModeVP},
		TieBreaks: []string{gamespec.TieWins, gamespec.TieSOS},
		Why:       "four players, one winner: the game's points count, then wins, then Buchholz"},
	Box: box.Page,
}

// commands: what the keypad, the pages, the watch and MQTT may send. A
// player sends them for their own seat and couriers (Bind checks); the
// referee and the table's keys act for whoever the game waits for.
var commands = append(wire.Vocabulary{
	{Name: "next", Label: rules.Text{PL: "Koniec ruchu", EN: "End the move"}, From: wire.Anyone, Watch: "n"},
	{Name: "draw", Label: rules.Text{PL: "Dobierz rozkazy (wirtualnie)", EN: "Draw orders (virtual)"}, From: wire.Keys | wire.Ref, Watch: "d"},
	{Name: "roll", Label: rules.Text{PL: "Rzuć kostką (wirtualnie)", EN: "Roll the die (virtual)"}, From: wire.Keys | wire.Ref, Watch: "r"},
	{Name: "deal", Label: rules.Text{PL: "Rozdaj sekretne cele", EN: "Deal the secret goals"}, From: wire.Keys | wire.Ref},
	{Name: "rumours", Label: rules.Text{PL: "Plotki z ulicy (podejrzyj talię)", EN: "Street rumours (peek at the deck)"}, From: wire.Anyone},
	{Name: "card", Label: rules.Text{PL: "Zagraj kartę ruchu", EN: "Play a movement card"}, From: wire.Anyone, Args: []string{"card", "seat"}},
	{Name: "step", Label: rules.Text{PL: "Krok harcerza", EN: "Move a courier one field"}, From: wire.Anyone, Args: []string{"courier", "field"}},
	{Name: "jump", Label: rules.Text{PL: "Skok do sąsiedniego obiektu", EN: "Jump to a neighbouring object"}, From: wire.Anyone, Args: []string{"courier", "object"}},
	{Name: "pick", Label: rules.Text{PL: "Odbierz rozkaz", EN: "Pick up an order"}, From: wire.Anyone, Args: []string{"courier", "order"}},
	{Name: "drop", Label: rules.Text{PL: "Porzuć rozkaz", EN: "Drop the order"}, From: wire.Anyone, Args: []string{"courier"}},
	{Name: "place", Label: rules.Text{PL: "Wprowadź zbiegłego harcerza", EN: "Place an escaped courier"}, From: wire.Anyone, Args: []string{"courier", "field"}},
	{Name: "choose", Label: rules.Text{PL: "Wybierz (harcerza, drogę, pole)", EN: "Choose (courier, road, field)"}, From: wire.Anyone, Args: []string{"choice"}},
	{Name: "keep", Label: rules.Text{PL: "Zatrzymaj trzy cele", EN: "Keep three goals"}, From: wire.Seat | wire.Ref, Args: []string{"goal", "goal", "goal", "seat"}},
	{Name: "swap", Label: rules.Text{PL: "Kumple z podwórka", EN: "Yard mates (swap two couriers)"}, From: wire.Anyone, Args: []string{"courier", "courier"}},
	{Name: "unit", Label: rules.Text{PL: "Oddział powstańczy", EN: "Insurgent unit (object to object)"}, From: wire.Anyone, Args: []string{"courier", "object"}},
	{Name: "swap_orders", Label: rules.Text{PL: "Zamiana rozkazów", EN: "Swap two orders"}, From: wire.Anyone, Args: []string{"order", "order"}},
}, wire.DiceKeys(wire.Keys|wire.Ref)...)

// Config is the config file's mali-powstancy section.
type Config struct {
	// Variant is basic (the German soldier) or extended.
	Variant string `yaml:"variant"`
	// Starter is the seat that starts the first round: the players'
	// choice (the rulebook: whoever visited the Warsaw Rising Museum last).
	Starter int `yaml:"starter"`
	Players []struct {
		Seat   int    `yaml:"seat"`
		Name   string `yaml:"name"`
		Colour string `yaml:"colour"`
	} `yaml:"players"`
	// Deck says where the order cards come from: "tags" (the default: the
	// physical deck, each card read from its tag as it lands on the
	// track) or "virtual" (the daemon shuffles and deals, for a table
	// without tagged cards). Secret goals and the die may always be dealt
	// and rolled virtually.
	Deck string `yaml:"deck"`
	// Options are the table's answers to the rulebook's open questions
	// (rules/mali Options, in its JSON names).
	Options map[string]any `yaml:"options"`
	// Data names a club's own data files (the real board's map …),
	// relative to the config; empty: the embedded ones.
	Data DataFiles `yaml:"data"`
}

// DataFiles are the game's replaceable data files.
type DataFiles struct {
	Map    string `yaml:"map"`
	Orders string `yaml:"orders"`
	Goals  string `yaml:"goals"`
	Die    string `yaml:"die"`
}

// LoadCatalogue reads the game data: the embedded files, each replaced by
// the named file when one is given (name → path).
func LoadCatalogue(paths map[string]string) (*mali.Catalogue, error) {
	pack, err := box.Shipped(ID)
	if err != nil {
		return nil, err
	}
	cat, _, err := LoadPackCatalogue(paths, pack)
	return cat, err
}

// LoadPackCatalogue is LoadCatalogue with a box pack's files in place of
// the embedded ones; sample says the files mark something assumed.
func LoadPackCatalogue(paths map[string]string, pack *box.Pack) (cat *mali.Catalogue, sample bool, err error) {
	var files []mali.File
	for _, name := range mali.DataFiles {
		f := mali.File{Name: pack.Name(name), Data: pack.Files[name]}
		if p := paths[name]; p != "" {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, false, fmt.Errorf("maligame: %w", err)
			}
			f = mali.File{Name: name, Data: b}
		}
		files = append(files, f)
		sample = sample || box.AnyAssumed(f.Data)
	}
	cat, err = mali.Load(files...)
	return cat, sample, err
}

func (d DataFiles) paths(resolve func(string) string) map[string]string {
	out := map[string]string{}
	for name, p := range map[string]string{"map.yaml": d.Map, "orders.yaml": d.Orders, "goals.yaml": d.Goals, "die.yaml": d.Die} {
		if p != "" {
			out[name] = resolve(p)
		}
	}
	return out
}

// start is the game's opening action from the config section.
func (c Config) start(cat *mali.Catalogue) (mali.StartGame, error) {
	sg := mali.StartGame{Variant: c.Variant, Starter: c.Starter, Data: cat.Data}
	if sg.Variant == "" {
		sg.Variant = mali.Basic
	}
	for _, p := range c.Players {
		sg.Players = append(sg.Players, mali.PlayerSetup{Seat: p.Seat, Name: p.Name, Colour: p.Colour})
	}
	if len(c.Options) > 0 {
		b, err := json.Marshal(c.Options)
		if err != nil {
			return sg, fmt.Errorf("maligame: options: %w", err)
		}
		if err := strictJSON(b, &sg.Options); err != nil {
			return sg, fmt.Errorf("maligame: options: %w", err)
		}
	}
	return sg, nil
}

// cards are the cards that carry tags: the 42 order cards (and the Victory
// card) and each player's five movement cards ("red-3").
func cards(section []byte) ([]gamespec.Card, error) {
	var c Config
	if err := yamlStrict(section, &c); err != nil {
		return nil, fmt.Errorf("maligame: %w", err)
	}
	cat, err := mali.DefaultCatalogue()
	if err != nil {
		return nil, err
	}
	var out []gamespec.Card
	for _, o := range cat.Data.Orders {
		out = append(out, gamespec.Card{ID: o.ID, Kind: "card", Label: cat.Name(mali.Node(o.From)) + " → " + cat.Name(mali.Node(o.To))})
	}
	out = append(out, gamespec.Card{ID: mali.VictoryCard, Kind: "card", Label: "Zwycięstwo"})
	colours := mali.Colours
	if len(c.Players) > 0 {
		colours = nil
		for _, p := range c.Players {
			colours = append(colours, p.Colour)
		}
	}
	for _, col := range colours {
		for n := 1; n <= 5; n++ {
			out = append(out, gamespec.Card{ID: fmt.Sprintf("%s-%d", col, n), Kind: "card", Label: fmt.Sprintf("karta ruchu %d (%s)", n, col)})
		}
	}
	return out, nil
}
