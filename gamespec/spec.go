package gamespec

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/vision/board"
)

// GameSpec is everything the daemon and its tools know about one game. A
// game package exports one; the registry (package games) lists them once,
// and config checks, `sztab run/play/demo/tags`, the screens, the watch
// and the all-games tests read that list.
type GameSpec struct {
	// ID is the config's game id (lower-case letters, digits, - and _). It names
	// the game's config section, its layout and demo files
	// (firmware-config/layouts/<id>.yaml, firmware-config/demo/<id>.yaml)
	// and its screen panel (static/games/<id>.js).
	ID    string
	Title rules.Text
	// New builds the game at a table from the config (its own section).
	New func(TableConfig) (Game, error)
	// Commands are the game's commands: keypad keys, page buttons, watch
	// keys and MQTT commands all come from here.
	Commands wire.Vocabulary
	// Play runs a script of actions for `sztab play`; nil: the game has no
	// scripts yet.
	Play func(Script) error
	// Panel is the game's screen panel, a script served as
	// /static/games/<id>.js that registers itself under the game's id
	// (see the display package's panels.js); nil: the generic panel.
	Panel []byte
	// Cards lists the cards of a table config's game section that carry
	// tags (for `sztab tags enroll --cards table.yaml`); nil: the game's
	// cards come from a cards list only.
	Cards func(section []byte) ([]Card, error)
	// Demo is the demo table's config, firmware-config/demo/<id>.yaml
	// with the files it names; empty: no demo.
	Demo string
	// Endings are finished games for the all-games tests: each ends a game
	// just opened (its demo table's, else TestSection's) and says each
	// seat's outcome then, the result and score a venue counts.
	Endings []Ending
	// Tools are the game's own subcommands of sztab (`sztab army`,
	// `sztab odds`): the binary adds each to its commands.
	Tools []func() *cobra.Command
	// Rulings is the game's golden game of the referee's record for the
	// all-games tests (its demo table's); nil: none.
	Rulings *Rulings
	// TestSection is the game's config section for the all-games tests
	// when it has no demo table.
	TestSection string
	// Box is set for a game that reads a club's box pack (the config's
	// box: key, docs/box.md): it is the referee's enrolment page of the
	// table's pack (served at /referee/box; title is the game's). A config
	// naming a pack for a game without one is refused at its box: line.
	Box func(cfg TableConfig, title rules.Text) http.Handler
	// Attention are the game's own event types that ask for a person's
	// attention (a measurement too close to call): the watch and the
	// pages mark them with the contract's notices that do
	// (wire.Attention), knowing no game's types.
	Attention []string
	// Tournament is what a tournament of this game uses unless the
	// organiser's file says otherwise (companion/tournament); zero: the
	// game is not played at tournaments.
	Tournament Tournament
	// Board is the game's printed board as the camera counts pieces on
	// it; zero: the game has none (a club gives its own board file).
	Board Board
}

// Board is a game's printed board: its definition (vision/board's YAML,
// the file board.yaml in the game's package, embedded) and how it is
// made from the game's data. The camera gets the definitions handed in
// (vision/board.Printed); games' tests check File is what Generate makes
// (go test ./games -run Boards -update rewrites it).
type Board struct {
	File     []byte
	Generate func() ([]byte, error)
}

// Boards are the games' printed boards by game id, as the camera takes
// them.
func (g Games) Boards() board.Printed {
	out := board.Printed{}
	for _, s := range g {
		if len(s.Board.File) > 0 {
			out[s.ID] = s.Board.File
		}
	}
	return out
}

// Ending is one way a game ends: Finish brings an opened game to its end
// (through its engine, or by setting its state), Want is each seat's
// outcome then, with the players' names and sides.
type Ending struct {
	Name   string
	Finish func(Game) error
	Want   []rec.Seat
}

// Rulings is a game's golden game of the referee's record: the demo
// session's first Steps lines, then a correction (Correct changes an
// action's journal body: the last action it changes is corrected), an undo
// and a flag-but-allow (Breach are inputs the last of which the rules
// refuse with an allowable code), then a referee call from seat 1's page
// while Paused, a command that page may send, is refused.
type Rulings struct {
	Steps   int
	Correct func(body string) string
	Breach  []Input
	Paused  string
}

// TableConfig is what a game reads of its table's config file: its own
// section and the table-wide settings a game uses. Errors about the
// section name the file and the line (ConfigError).
type TableConfig interface {
	// DecodeSection decodes the game's section (key) strictly into v.
	DecodeSection(key string, v any) error
	// Resolve makes a path from the config file relative to its directory.
	Resolve(path string) string
	// Path is the config file; Line the line of a key (the section's "<id>.data").
	Path() string
	Line(key string) int
	// DiceSeed fixes the virtual dice and shuffles (the daemon fills it
	// from a secure source when the file leaves it out).
	DiceSeed() uint64
	// KrokMM is one krok in millimetres on this table.
	KrokMM() float64
	// GameID is the game the table plays; BoxPack the club's box pack the
	// config names ("": the shipped data; docs/box.md).
	GameID() string
	BoxPack() string
}

// ConfigError is a bad config file: which file, which line, what.
type ConfigError struct {
	File string
	Line int
	Msg  string
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("companion: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("companion: %s: %s", e.File, e.Msg)
}

// Card is one card (unit, order card, die, seat, command) that carries a
// tag.
type Card struct {
	ID    string `yaml:"id"`
	Kind  string `yaml:"kind"`
	Label string `yaml:"label"`
}

// Script is a `sztab play` run: a script of actions applied through the
// game's engine, and what to print.
type Script struct {
	Name string
	Data []byte
	// View is whose view to print.
	View Viewer
	// Lang is pl or en.
	Lang string
	// JSON prints the final view as JSON; Events prints every action's
	// events; Continue reports refused actions and goes on.
	JSON, Events, Continue bool
	// Files are the game's data files to use instead of the embedded ones
	// (name → path), from --data name=path.
	Files    map[string]string
	Out, Err io.Writer
}

// Games is the list of games a binary plays.
type Games []GameSpec

// Lookup finds a game by its config id.
func (g Games) Lookup(id string) (GameSpec, bool) {
	for _, s := range g {
		if s.ID == id {
			return s, true
		}
	}
	return GameSpec{}, false
}

// IDs lists the config ids.
func (g Games) IDs() []string {
	out := make([]string, len(g))
	for i, s := range g {
		out[i] = s.ID
	}
	return out
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// Check reports a list that cannot work: an id that is not an id, twice, a
// game without a constructor or a command twice.
func (g Games) Check() error {
	seen := map[string]bool{}
	for _, s := range g {
		if !idPattern.MatchString(s.ID) || seen[s.ID] {
			return fmt.Errorf("companion: game id %q is not a unique id", s.ID)
		}
		seen[s.ID] = true
		if s.New == nil {
			return fmt.Errorf("companion: game %s has no constructor", s.ID)
		}
		names := map[string]bool{}
		for _, c := range s.Commands {
			if c.Name == "" || names[c.Name] || c.From == 0 {
				return fmt.Errorf("companion: game %s: command %q is empty, listed twice or sent by nobody", s.ID, c.Name)
			}
			if _, ok := TableCommands.Lookup(c.Name); ok {
				return fmt.Errorf("companion: game %s: command %q is one of the table's own commands (%s)", s.ID, c.Name, strings.Join(TableCommands.Names(wire.Anyone), ", "))
			}
			names[c.Name] = true
		}
	}
	return nil
}

// The table's own commands, the same in every game: the referee's undo,
// correction and flag-but-allow, the referee call a seat opens and the
// referee answers, and the referee's next game (a table with a
// journal_dir: its arguments are the players' names, seat 1 first; none:
// the venue's pairing's players, else the config's). They are added to every game's vocabulary (a game may
// not use these names).
const (
	CmdUndo    = "undo_entry"
	CmdCorrect = "correct"
	CmdAllow   = "allow"
	CmdCall    = "call"
	CmdAnswer  = "answer"
	CmdNewGame = "new_game"
)

// TableCommands are the table's own commands (see the constants).
var TableCommands = wire.Vocabulary{
	{Name: CmdUndo, Label: rules.Text{PL: "Cofnij akcję (sędzia)", EN: "Take back an action (referee)"}, From: wire.Ref, Args: []string{"seq?"}, Text: true},
	{Name: CmdCorrect, Label: rules.Text{PL: "Popraw akcję (sędzia)", EN: "Correct an action (referee)"}, From: wire.Ref, Args: []string{"seq"}, Text: true, Action: true},
	{Name: CmdAllow, Label: rules.Text{PL: "Dopuść mimo przepisów (sędzia)", EN: "Let it stand, flagged (referee)"}, From: wire.Ref, Args: []string{"seq?"}, Text: true},
	{Name: CmdCall, Label: rules.Text{PL: "Wezwij sędziego", EN: "Call the referee"}, From: wire.Seat | wire.Keys, Args: []string{"seat?"}, Text: true},
	{Name: CmdAnswer, Label: rules.Text{PL: "Odpowiedz na wezwanie (sędzia)", EN: "Answer the call (referee)"}, From: wire.Ref, Args: []string{"seat?"}, Text: true},
	{Name: CmdNewGame, Label: rules.Text{PL: "Następna gra (sędzia)", EN: "Next game (referee)"}, From: wire.Ref, Args: []string{"players?"}, Text: true},
}

// WithTableCommands is a game's vocabulary with the table's own commands.
func WithTableCommands(v wire.Vocabulary) wire.Vocabulary {
	out := slices.Clone(v)
	for _, c := range TableCommands {
		if _, ok := out.Lookup(c.Name); !ok {
			out = append(out, c)
		}
	}
	return out
}

// ScriptStopped is a `sztab play` run that stopped at a refused action;
// its exit status is 1.
type ScriptStopped struct{ Msg string }

func (e *ScriptStopped) Error() string { return e.Msg }

// ExitCode is the exit status of `sztab play`.
func (e *ScriptStopped) ExitCode() int { return 1 }

// ReportScript prints what a game's script run gives `sztab play`: each
// step's transcript (with Events), each refusal with its line, then the
// final view as JSON (with JSON) or as printText writes it. A refusal
// stops the run with *ScriptStopped unless Continue.
func ReportScript[E rules.Said](sc Script, steps []rules.Step[E], view any, printText func(io.Writer)) error {
	refused := 0
	for _, st := range steps {
		if sc.Events {
			fmt.Fprint(sc.Out, st.Transcript(sc.Lang))
		}
		if st.Err != nil {
			refused++
			fmt.Fprintf(sc.Err, "%s:%d: %s\n", sc.Name, st.Line, refusal(st.Err))
		}
	}
	if sc.JSON {
		enc := json.NewEncoder(sc.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(view); err != nil {
			return fmt.Errorf("companion: %s: %w", sc.Name, err)
		}
	} else {
		printText(sc.Out)
	}
	if refused > 0 && !sc.Continue {
		return &ScriptStopped{Msg: fmt.Sprintf("%s: play stopped at a refused action", sc.Name)}
	}
	return nil
}

func refusal(err error) string {
	if rej, ok := rules.AsRejection(err); ok {
		return fmt.Sprintf("refused %s: %s / %s", rej.Code, rej.Reason.PL, rej.Reason.EN)
	}
	return err.Error()
}

// DataFile reads one of a game's data files: the file a table's config (or
// `sztab play --data`) names, resolved by resolve, or the embedded
// default of that name when none is named. It returns the name errors
// about the data should give: the configured path, or the default's name.
func DataFile(path string, resolve func(string) string, name string, defaults map[string][]byte) (string, []byte, error) {
	if path == "" {
		return name, defaults[name], nil
	}
	b, err := os.ReadFile(resolve(path))
	if err != nil {
		return "", nil, fmt.Errorf("companion: data file %s: %w", name, err)
	}
	return path, b, nil
}
