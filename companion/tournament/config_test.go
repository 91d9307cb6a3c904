package tournament

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/games"
	"github.com/sztab/sztab/internal/gamestest"
)

func TestExampleConfig(t *testing.T) {
	cfg, err := LoadConfig("../../firmware-config/venue/tournament.example.yaml", games.All)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Game != "skirmish" || cfg.Seats != 2 || len(cfg.Players) != 4 || len(cfg.Tables) != 2 || cfg.Rounds != 5 {
		t.Errorf("example: %+v", cfg)
	}
	if !strings.HasSuffix(cfg.Tables[0].Key, filepath.Join("firmware-config", "venue", "keys", "t01.key.pub")) {
		t.Errorf("key path %q not relative to the file", cfg.Tables[0].Key)
	}
	if cfg.Seed != cfg.Name || cfg.Bye.Outcome != "win" {
		t.Errorf("defaults: seed %q bye %+v", cfg.Seed, cfg.Bye)
	}
}

// A file that names only the game takes the game's defaults from its
// spec: every registered game's and the test-only sixth's, which no line
// of this package names.
func TestConfigDefaults(t *testing.T) {
	for _, spec := range gamestest.All {
		def := spec.Tournament
		t.Run(spec.ID, func(t *testing.T) {
			cfg, err := ParseConfig("x.yaml", []byte("name: N\nvenue: v\ngame: "+spec.ID+"\ntables: [{id: t1, key: k.pem}]\n"), gamestest.All)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Seats != def.Seats || cfg.RoundMinutes != def.RoundMinutes || cfg.Points != def.Points || !reflect.DeepEqual(cfg.TieBreaks, def.TieBreaks) {
				t.Errorf("got %+v, want the defaults %+v", cfg, def)
			}
			if def.Why == "" {
				t.Error("a default without its reason")
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	const base = "name: N\nvenue: v\ngame: skirmish\n"
	const tables = "tables:\n  - {id: t1, key: k.pem}\n"
	cases := []struct {
		name, doc string
		line      int
		msg       string
	}{
		{"empty", "", 0, "the file is empty"},
		{"not yaml", "name: [\n", 1, ""},
		{"unknown key", base + "colour: red\n" + tables, 4, `unknown key "colour"`},
		{"no name", "venue: v\ngame: skirmish\n" + tables, 0, "name: the tournament needs a name"},
		{"bad venue", "name: N\nvenue: Hala Główna\ngame: skirmish\n" + tables, 2, "venue:"},
		{"unknown game", "name: N\nvenue: v\ngame: chess\n" + tables, 3, `"chess" is not a game`},
		{"seats", base + "seats: 9\n" + tables, 4, "seats: 9 players a table"},
		{"rounds", base + "rounds: -1\n" + tables, 4, "rounds:"},
		{"minutes", base + "round_minutes: 5000\n" + tables, 4, "round_minutes:"},
		{"points order", base + "points: {win: 1, draw: 2, loss: 0}\n" + tables, 4, "win ≥ draw ≥ loss"},
		{"points all zero", base + "points:\n  mode: wdl\n" + tables, 4, "a win worth more than a loss"},
		{"points mode", base + "points:\n  mode: elo\n" + tables, 5, `points.mode: "elo"`},
		{"vp with wdl", base + "points: {mode: vp, win: 3}\n" + tables, 4, "mode vp counts"},
		{"tie-break", base + "tie_breaks:\n  - sos\n  - elo\n" + tables, 6, `tie_breaks.1: "elo"`},
		{"tie-break twice", base + "tie_breaks: [sos, sos]\n" + tables, 4, "twice"},
		{"bye", base + "bye: {outcome: half}\n" + tables, 4, "bye.outcome"},
		{"player id", base + "players:\n  - {id: p1}\n  - {id: 'a b'}\n" + tables, 6, `players.1.id: "a b"`},
		{"player twice", base + "players:\n  - {id: p1}\n  - {id: p1}\n" + tables, 6, "twice"},
		{"table twice", base + "tables:\n  - {id: t1, key: a.pem}\n  - {id: t1, key: b.pem}\n", 6, "two tables cannot claim one id"},
		{"table bye", base + "tables:\n  - {id: bye, key: a.pem}\n", 5, "not a table id"},
		{"table without key", base + "tables:\n  - {id: t1}\n", 5, "has no key"},
		{"table's game unknown", base + "tables:\n  - {id: t1, key: a.pem, game: chess}\n", 5, `tables.0.game: "chess" is not a game`},
		{"tables of two games in vp", base + "points: {mode: vp}\ntables:\n  - {id: t1, key: a.pem}\n  - {id: t2, key: b.pem, game: " + otherGame() + "}\n", 7, "tables of different games count points mode wdl"},
		{"no tables", base, 0, "tables: no tables"},
		{"players csv missing", base + "players_csv: none.csv\n" + tables, 4, "players_csv:"},
		{"wrong type", base + "seats: many\n" + tables, 4, "cannot unmarshal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig("tour.yaml", []byte(c.doc), games.All)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a *ConfigError", err)
			}
			if ce.File != "tour.yaml" || ce.Line != c.line || !strings.Contains(ce.Msg, c.msg) {
				t.Errorf("got %v (line %d), want line %d with %q", err, ce.Line, c.line, c.msg)
			}
			if !strings.HasPrefix(err.Error(), "tournament: tour.yaml") {
				t.Errorf("error %q does not start with the package and file", err)
			}
		})
	}
}

func TestPlayersCSV(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "players.csv"), []byte("id,name,club\nq1,\"Nowak, Anna\",Kraków\nq2,Jan,\n"), 0o644)
	path := filepath.Join(dir, "t.yaml")
	cfg, err := ParseConfig(path, []byte("name: N\nvenue: v\ngame: skirmish\nplayers: [{id: p1}]\nplayers_csv: players.csv\ntables: [{id: t1, key: k.pem}]\n"), games.All)
	if err != nil {
		t.Fatal(err)
	}
	want := []Player{{ID: "p1", Name: "p1"}, {ID: "q1", Name: "Nowak, Anna", Club: "Kraków"}, {ID: "q2", Name: "Jan"}}
	if !reflect.DeepEqual(cfg.Players, want) {
		t.Errorf("players %+v, want %+v", cfg.Players, want)
	}
}

// A night of two games: each table plays its own (or the tournament's),
// and a table's result counts only as a game of its table's game.
func TestTablesOfDifferentGames(t *testing.T) {
	f := newFixture(t, "skirmish", 4, 2)
	other := otherGame()
	f.cfg.Tables[1].Game = other
	if err := f.cfg.Check(games.All); err != nil {
		t.Fatal(err)
	}
	f.reopen()
	if g := f.cfg.TableGame("t01"); g != "skirmish" {
		t.Errorf("t01 plays %q, want the tournament's skirmish", g)
	}
	if g := f.cfg.TableGame("t02"); g != other {
		t.Errorf("t02 plays %q, want its own %s", g, other)
	}
	if _, err := f.tr.PairNext(context.Background()); err != nil {
		t.Fatal(err)
	}
	// t02's result as a game of the tournament's game: refused.
	st := f.statement("t02", seat(1, "win", 7), seat(2, "loss", 4))
	st.Game = "skirmish"
	if _, err := f.tr.SubmitResult(context.Background(), "t02", f.message(st, "t02")); err == nil || !strings.Contains(err.Error(), `table t02 plays "`+other+`"`) {
		t.Fatalf("t02's result as a skirmish: %v, want refused naming t02's game", err)
	}
	// Each table's result of its own game counts.
	for _, tb := range []string{"t01", "t02"} {
		if _, err := f.submit(tb, seat(1, "win", 7), seat(2, "loss", 4)); err != nil {
			t.Fatalf("%s's result of its game: %v", tb, err)
		}
	}
	if v := f.tr.View(); len(v.Paired[0].Missing) != 0 {
		t.Errorf("round 1 still misses %v", v.Paired[0].Missing)
	}
}

// otherGame is a game of the defaults other than skirmish (the tests'
// tournament game).
func otherGame() string {
	for _, id := range games.All.IDs() {
		if id != "skirmish" {
			return id
		}
	}
	return ""
}
