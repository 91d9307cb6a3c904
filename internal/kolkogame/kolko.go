// Package kolkogame is a sixth game for the tests only: noughts and
// crosses (kółko i krzyżyk), a pure engine and its binding over the game
// contract (package gamespec) alone. It proves that a game is added by its
// own package and one registry line (internal/gamestest), and nothing
// else: the all-games tests play it beside the five real games.
package kolkogame

import (
	"fmt"
	"slices"
	"strconv"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
)

// ID is the game's config id.
const ID = "kolko-krzyzyk"

// Spec registers the game (in the test registry only).
var Spec = gamespec.GameSpec{
	ID:       ID,
	Title:    rules.Text{PL: "Kółko i krzyżyk", EN: "Noughts and crosses"},
	New:      New,
	Commands: wire.Vocabulary{{Name: "mark", Label: rules.Text{PL: "Postaw znak", EN: "Place a mark"}, From: wire.Anyone, Args: []string{"cell"}}},
	Endings: []gamespec.Ending{
		{Name: "won", Finish: play(1, 4, 2, 5, 3), Want: []rec.Seat{{Seat: 1, Name: "Ola", Side: "x", Outcome: rec.Win, Score: 1}, {Seat: 2, Name: "Piotr", Side: "o", Outcome: rec.Loss}}},
		{Name: "drawn", Finish: play(1, 2, 3, 5, 4, 6, 8, 7, 9), Want: []rec.Seat{{Seat: 1, Name: "Ola", Side: "x", Outcome: rec.Draw}, {Seat: 2, Name: "Piotr", Side: "o", Outcome: rec.Draw}}},
	},
	TestSection: "kolko-krzyzyk:\n  players: [Ola, Piotr]\n",
	// Two players, a short game, draws the rule between players who know
	// it: 3/1/0, Buchholz, then wins.
	Tournament: gamespec.Tournament{Seats: 2, RoundMinutes: 15, Points: gamespec.Points{Mode: gamespec.ModeWDL, Win: 3, Draw: 1},
		TieBreaks: []string{gamespec.TieSOS, gamespec.TieWins},
		Why:       "two players, draws common: Buchholz, then wins"},
}

// Config is the config file's section: the two players' names, the first
// plays crosses.
type Config struct {
	Players [2]string `yaml:"players"`
}

// State is the board (cells 1–9, row by row: 0 empty, else the seat that
// marked it), whose turn it is, and the result once the game is over.
type State struct {
	Players [2]string `json:"players"`
	Board   [9]int    `json:"board"`
	Turn    int       `json:"turn"`
	// Winner is the winning seat; Over with no Winner is a draw.
	Winner int  `json:"winner,omitempty"`
	Over   bool `json:"over,omitempty"`
}

// Start opens the game.
type Start struct {
	Players [2]string `json:"players"`
}

// Mark is a seat's mark in a cell (1–9).
type Mark struct {
	Seat int `json:"seat"`
	Cell int `json:"cell"`
}

func (Start) Type() string { return "start" }
func (Mark) Type() string  { return "mark" }

// Actions are the game's actions.
var Actions = rules.NewCodec(ID, Start{}, Mark{})

// Event is what an action did, in both languages.
type Event struct {
	Type string     `json:"type"`
	Text rules.Text `json:"text"`
}

var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

// Apply is the engine: the same state and action give the same result.
func Apply(s State, a rules.Action) (State, []Event, error) {
	switch a := a.(type) {
	case Start:
		if s.Turn != 0 {
			return s, nil, rules.Reject("started", "gra już trwa", "the game is already on")
		}
		return State{Players: a.Players, Turn: 1}, []Event{{Type: "started", Text: rules.Textf("początek gry", "the game begins")}}, nil
	case Mark:
		switch {
		case s.Turn == 0 || s.Over:
			return s, nil, rules.Reject("not_playing", "gra nie trwa", "the game is not on")
		case a.Seat != s.Turn:
			return s, nil, rules.Reject("not_your_turn", "teraz gra miejsce %d", "it is seat %d's turn", s.Turn)
		case a.Cell < 1 || a.Cell > 9 || s.Board[a.Cell-1] != 0:
			return s, nil, rules.Reject("bad_cell", "pole %d nie jest wolne", "cell %d is not free", a.Cell)
		}
		s.Board[a.Cell-1] = a.Seat
		evs := []Event{{Type: "marked", Text: rules.Textf("miejsce %d: pole %d", "seat %d: cell %d", a.Seat, a.Cell)}}
		for _, l := range lines {
			if b := s.Board; b[l[0]] == a.Seat && b[l[1]] == a.Seat && b[l[2]] == a.Seat {
				s.Winner, s.Over = a.Seat, true
			}
		}
		if !s.Over && !slices.Contains(s.Board[:], 0) {
			s.Over = true
		}
		if s.Over {
			evs = append(evs, Event{Type: "over", Text: rules.Textf("koniec gry", "game over")})
		}
		s.Turn = 3 - s.Turn
		return s, evs, nil
	}
	return s, nil, rules.Reject("unknown_action", "nieznana akcja %s", "unknown action %s", a.Type())
}

// Game binds the engine to the table.
type Game struct {
	gamespec.Adapter[State, Event]
}

// New builds the game from the table's config section.
func New(cfg gamespec.TableConfig) (gamespec.Game, error) {
	var c Config
	if err := cfg.DecodeSection(ID, &c); err != nil {
		return nil, err
	}
	if c.Players[0] == "" || c.Players[1] == "" {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID), Msg: "kolkogame: players: want two names"}
	}
	g := &Game{}
	g.Adapter = gamespec.Adapter[State, Event]{ID: ID, Codec: Actions, Opening: Start{Players: c.Players}, Step: Apply, Show: view}
	return g, nil
}

// view is the same for everyone: nothing is hidden.
func view(s State, _ gamespec.Viewer) any {
	type player struct {
		Seat int    `json:"seat"`
		Name string `json:"name"`
		Side string `json:"side"`
	}
	return struct {
		Players []player `json:"players"`
		State
	}{[]player{{1, s.Players[0], "x"}, {2, s.Players[1], "o"}}, s}
}

// Bind turns a "mark" command (its cell) into a mark for the seat whose
// turn it is, or the sender's seat.
func (g *Game) Bind(in gamespec.Input) ([]gamespec.Action, []gamespec.Notice) {
	if in.Key == nil || in.Key.Key != "mark" || len(in.Args) != 1 {
		return nil, nil
	}
	cell, err := strconv.Atoi(in.Args[0])
	if err != nil {
		return nil, []gamespec.Notice{{Type: wire.NoticeRejected, Code: "bad_cell", Text: rules.Textf("pole %q to nie liczba", "cell %q is not a number", in.Args[0])}}
	}
	seat := in.From.Seat()
	if seat == 0 {
		seat = g.State().Turn
	}
	return []gamespec.Action{Mark{Seat: seat, Cell: cell}}, nil
}

// Outcome is each seat's result once the game is over: a win scores 1.
func (g *Game) Outcome() []rec.Seat {
	s := g.State()
	if !s.Over {
		return nil
	}
	out := []rec.Seat{{Seat: 1, Outcome: rec.Draw}, {Seat: 2, Outcome: rec.Draw}}
	if s.Winner != 0 {
		out[0].Outcome, out[1].Outcome = rec.Loss, rec.Loss
		out[s.Winner-1].Outcome, out[s.Winner-1].Score = rec.Win, 1
	}
	return out
}

// Headline says how the game stands in one line.
func (g *Game) Headline() rules.Text {
	s := g.State()
	if s.Over {
		return gamespec.ResultText(g.Outcome(), rules.Text{})
	}
	return rules.Textf("ruch miejsca %d", "seat %d to move", s.Turn)
}

// play is an ending: the cells marked in turn from the opening.
func play(cells ...int) func(gamespec.Game) error {
	return func(g gamespec.Game) error {
		for i, c := range cells {
			_, commit, err := g.Apply(Mark{Seat: 1 + i%2, Cell: c})
			if err != nil {
				return fmt.Errorf("kolkogame: move %d: %w", i+1, err)
			}
			commit()
		}
		return nil
	}
}
