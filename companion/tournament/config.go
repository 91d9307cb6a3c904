// Package tournament is the pure core of a venue's tournament: the
// organiser's file (Config), rounds and their pairings (Swiss, or imported
// from the organiser's pairing software), the tables' signed results, the
// organiser's corrections, standings with each game's tie-breaks, the
// round clock, an audit trail and CSV exports. It keeps everything in one
// SQLite file, written before memory changes, so a reopened tournament is
// the same one. It knows no MQTT and no HTTP: the venue process feeds it
// (SubmitResult) and shows it (View).
package tournament

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/internal/yamlsafe"
)

// Config is the organiser's tournament file (YAML), see
// firmware-config/venue/tournament.example.yaml.
type Config struct {
	Name  string `yaml:"name" json:"name"`
	Venue string `yaml:"venue" json:"venue"`
	// Game is the id of the game played, one of the registry's (package
	// games), whose spec gives the defaults (gamespec.Tournament).
	Game string `yaml:"game" json:"game"`
	// Seats is the players per table; 0 is the game's default.
	Seats int `yaml:"seats" json:"seats"`
	// Rounds is how many rounds are played; 0 is no limit.
	Rounds int `yaml:"rounds" json:"rounds"`
	// RoundMinutes is the round clock; 0 is the game's default.
	RoundMinutes int    `yaml:"round_minutes" json:"round_minutes"`
	Points       Points `yaml:"points" json:"points"`
	// TieBreaks are applied in order after the points (TieBreakNames).
	TieBreaks []string `yaml:"tie_breaks" json:"tie_breaks"`
	Bye       Bye      `yaml:"bye" json:"bye"`
	// Seed orders players the standings cannot tell apart when pairing
	// (and so draws round 1); empty is Name.
	Seed    string   `yaml:"seed" json:"seed,omitempty"`
	Players []Player `yaml:"players" json:"players"`
	// PlayersCSV is a file of more players (columns id,name,club, with that
	// header), relative to the config file.
	PlayersCSV string  `yaml:"players_csv" json:"-"`
	Tables     []Table `yaml:"tables" json:"tables"`

	path string
	// games are the games the config was checked against (Check), for
	// Open's check.
	games gamespec.Games
}

// Points is what a game is worth in the standings (gamespec.Points: the
// games' specs write their defaults in it).
type Points = gamespec.Points

// Bye is how a round without a table counts: as the Outcome ("win" by
// default, "draw" or "loss") with Score game points (0 by default; in
// "vp" mode the bye's points are its Score).
type Bye struct {
	Outcome string `yaml:"outcome" json:"outcome"`
	Score   int    `yaml:"score" json:"score"`
}

// Player is one entrant; ID is what pairings and CSV files name.
type Player struct {
	ID   string `yaml:"id" json:"id"`
	Name string `yaml:"name" json:"name"`
	Club string `yaml:"club" json:"club,omitempty"`
}

// Table is one table of the hall: its id (the table's config "table") and
// the path of its public key PEM (sztab keygen), relative to the config.
//
// Game is the game the table plays when it is not the tournament's game:
// a night of several games pairs everyone into one Swiss, each table
// keeping its game (and the players meet the game of the table they are
// paired at). Tables of different games count win/draw/loss points only.
type Table struct {
	ID   string `yaml:"id" json:"id"`
	Key  string `yaml:"key" json:"-"`
	Game string `yaml:"game" json:"game,omitempty"`
}

// TableGame is the game table id plays: its own, or the tournament's.
func (c *Config) TableGame(id string) string {
	for _, tb := range c.Tables {
		if tb.ID == id && tb.Game != "" {
			return tb.Game
		}
	}
	return c.Game
}

// The points modes and the tie-breaks are the game contract's
// (gamespec), where the games' specs name their defaults.
const (
	ModeWDL       = gamespec.ModeWDL
	ModeVP        = gamespec.ModeVP
	TieScore      = gamespec.TieScore
	TieSOS        = gamespec.TieSOS
	TieWins       = gamespec.TieWins
	TieHeadToHead = gamespec.TieHeadToHead
)

// TieBreakNames are the tie-breaks a config may list.
var TieBreakNames = gamespec.TieBreakNames

// ConfigError is a bad tournament file: which file, which line, what.
type ConfigError struct {
	File string
	Line int
	Msg  string
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("tournament: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("tournament: %s: %s", e.File, e.Msg)
}

var (
	idPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
	playerID    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	yamlLineErr = regexp.MustCompile(`^line (\d+): (.*)$`)
	// unknownField is yaml.v3's message for a key Config does not have.
	unknownField = regexp.MustCompile(`^field (\S+) not found in type`)
)

// LoadConfig reads the organiser's tournament file; games are the games
// it may name (the registry, games.All), whose specs give the defaults.
func LoadConfig(path string, games gamespec.Games) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("tournament: config: %w", err)
	}
	return ParseConfig(path, data, games)
}

// ParseConfig reads a tournament file from data; path names it in errors
// and anchors the relative paths in it (players_csv, tables' keys); games
// are the games it may name (LoadConfig).
func ParseConfig(path string, data []byte, games gamespec.Games) (Config, error) {
	var cfg Config
	var doc yaml.Node
	if err := yamlsafe.Unmarshal(data, &doc); err != nil {
		return Config{}, yamlError(path, err)
	}
	if len(doc.Content) == 0 {
		return Config{}, &ConfigError{File: path, Msg: "the file is empty"}
	}
	if err := yamlsafe.Strict(data, &cfg); err != nil {
		return Config{}, yamlError(path, err)
	}
	cfg.path = path
	at := func(key string, format string, args ...any) error {
		return &ConfigError{File: path, Line: lineOf(&doc, key), Msg: key + ": " + fmt.Sprintf(format, args...)}
	}
	if cfg.PlayersCSV != "" {
		more, err := readPlayersCSV(resolve(path, cfg.PlayersCSV))
		if err != nil {
			return Config{}, at("players_csv", "%v", err)
		}
		cfg.Players = append(cfg.Players, more...)
	}
	for i := range cfg.Tables {
		if cfg.Tables[i].Key != "" {
			cfg.Tables[i].Key = resolve(path, cfg.Tables[i].Key)
		}
	}
	if err := cfg.check(games, at); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func resolve(cfgPath, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(cfgPath), p)
}

// Check fills the game's defaults from its spec in games and checks cfg as
// Open takes it (a config built in code, not read from a file).
func (c *Config) Check(games gamespec.Games) error {
	return c.check(games, func(key, format string, args ...any) error {
		return fmt.Errorf("tournament: config: %s: %s", key, fmt.Sprintf(format, args...))
	})
}

func (c *Config) check(games gamespec.Games, at func(key, format string, args ...any) error) error {
	if strings.TrimSpace(c.Name) == "" {
		return at("name", "the tournament needs a name")
	}
	if !idPattern.MatchString(c.Venue) {
		return at("venue", "%q is not an id (lower-case letters, digits, - and _), the tables' venue", c.Venue)
	}
	spec, ok := games.Lookup(c.Game)
	if !ok {
		return at("game", "%q is not a game (want one of %s)", c.Game, strings.Join(games.IDs(), ", "))
	}
	def := spec.Tournament
	if def.Seats == 0 {
		return at("game", "%q is not played at tournaments: its spec has no tournament defaults", c.Game)
	}
	c.games = games
	if c.Seats == 0 {
		c.Seats = def.Seats
	}
	if c.Seats < 2 || c.Seats > 5 {
		return at("seats", "%d players a table, want 2 to 5", c.Seats)
	}
	if c.Rounds < 0 || c.Rounds > 99 {
		return at("rounds", "%d, want 1 to 99 (0: no limit)", c.Rounds)
	}
	if c.RoundMinutes == 0 {
		c.RoundMinutes = def.RoundMinutes
	}
	if c.RoundMinutes < 0 || c.RoundMinutes > 24*60 {
		return at("round_minutes", "%d, want 1 to 1440 (0: the game's default)", c.RoundMinutes)
	}
	if c.Points == (Points{}) {
		c.Points = def.Points
	}
	if c.Points.Mode == "" {
		c.Points.Mode = ModeWDL
	}
	switch c.Points.Mode {
	case ModeWDL:
		for _, p := range []struct {
			k string
			v float64
		}{{"points.win", c.Points.Win}, {"points.draw", c.Points.Draw}, {"points.loss", c.Points.Loss}} {
			if !(p.v >= -100 && p.v <= 100) {
				return at(p.k, "%v, want a number of points from -100 to 100", p.v)
			}
		}
		if c.Points.Win < c.Points.Draw || c.Points.Draw < c.Points.Loss || c.Points.Win == c.Points.Loss {
			return at("points", "win %v, draw %v, loss %v: want win ≥ draw ≥ loss, and a win worth more than a loss", c.Points.Win, c.Points.Draw, c.Points.Loss)
		}
	case ModeVP:
		if c.Points.Win != 0 || c.Points.Draw != 0 || c.Points.Loss != 0 {
			return at("points", "mode vp counts the game's score: win, draw and loss are not used")
		}
	default:
		return at("points.mode", "%q, want wdl (win/draw/loss) or vp (the game's own score)", c.Points.Mode)
	}
	if c.TieBreaks == nil {
		c.TieBreaks = slices.Clone(def.TieBreaks)
	}
	seen := map[string]bool{}
	for i, tb := range c.TieBreaks {
		if !slices.Contains(TieBreakNames, tb) {
			return at(fmt.Sprintf("tie_breaks.%d", i), "%q, want one of %s", tb, strings.Join(TieBreakNames, ", "))
		}
		if seen[tb] {
			return at(fmt.Sprintf("tie_breaks.%d", i), "%q twice", tb)
		}
		seen[tb] = true
	}
	if c.Bye.Outcome == "" {
		c.Bye.Outcome = "win"
	}
	if c.Bye.Outcome != "win" && c.Bye.Outcome != "draw" && c.Bye.Outcome != "loss" {
		return at("bye.outcome", "%q, want win, draw or loss", c.Bye.Outcome)
	}
	if c.Bye.Score < 0 || c.Bye.Score > 1000000 {
		return at("bye.score", "%d, want 0 or more", c.Bye.Score)
	}
	if c.Seed == "" {
		c.Seed = c.Name
	}
	ids := map[string]int{}
	for i, p := range c.Players {
		key := fmt.Sprintf("players.%d", i)
		if !playerID.MatchString(p.ID) {
			return at(key+".id", "%q is not a player id (letters, digits, _ . -)", p.ID)
		}
		if j, ok := ids[p.ID]; ok {
			return at(key+".id", "%q twice (also players entry %d)", p.ID, j+1)
		}
		ids[p.ID] = i
		if strings.TrimSpace(p.Name) == "" {
			c.Players[i].Name = p.ID
		}
	}
	tables := map[string]int{}
	for i, tb := range c.Tables {
		key := fmt.Sprintf("tables.%d", i)
		if !idPattern.MatchString(tb.ID) || tb.ID == ByeTable {
			return at(key+".id", "%q is not a table id (lower-case letters, digits, - and _; not %q)", tb.ID, ByeTable)
		}
		if j, ok := tables[tb.ID]; ok {
			return at(key+".id", "table %q twice (also tables entry %d): two tables cannot claim one id", tb.ID, j+1)
		}
		tables[tb.ID] = i
		if tb.Key == "" {
			return at(key+".key", "table %q has no key: its results could not be checked (the path of its public key, sztab keygen)", tb.ID)
		}
		if tb.Game == "" || tb.Game == c.Game {
			continue
		}
		if s, ok := games.Lookup(tb.Game); !ok || s.Tournament.Seats == 0 {
			return at(key+".game", "%q is not a game played at tournaments (want one of %s)", tb.Game, strings.Join(games.IDs(), ", "))
		}
		if c.Points.Mode == ModeVP {
			return at(key+".game", "table %q plays %s, the tournament %s: points mode vp sums one game's own score; tables of different games count points mode wdl (win/draw/loss)", tb.ID, tb.Game, c.Game)
		}
	}
	if len(c.Tables) == 0 {
		return at("tables", "no tables")
	}
	return nil
}

// readPlayersCSV reads a players file: a header naming id, name and
// (optionally) club, one player a row.
func readPlayersCSV(path string) ([]Player, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(io.LimitReader(f, 16<<20))
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	if _, ok := col["id"]; !ok {
		return nil, fmt.Errorf("%s: line 1: no id column (want id,name,club)", path)
	}
	var out []Player
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		get := func(k string) string {
			if i, ok := col[k]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		out = append(out, Player{ID: get("id"), Name: get("name"), Club: get("club")})
	}
}

// lineOf is the line of a dotted key ("players.2.id") in doc, 0 if absent;
// a missing last part gives its parent's line.
func lineOf(doc *yaml.Node, key string) int {
	if doc == nil || len(doc.Content) == 0 {
		return 0
	}
	n := doc.Content[0]
	line := 0
	for _, part := range strings.Split(key, ".") {
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == part {
					line = n.Content[i].Line
					next = n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(part); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
				line = next.Line
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}

func yamlError(path string, err error) error {
	if errors.Is(err, yamlsafe.ErrEmpty) {
		return &ConfigError{File: path, Msg: "the file is empty"}
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		if m := yamlLineErr.FindStringSubmatch(te.Errors[0]); m != nil {
			n, _ := strconv.Atoi(m[1])
			msg := m[2]
			if f := unknownField.FindStringSubmatch(msg); f != nil {
				msg = fmt.Sprintf("unknown key %q", f[1])
			}
			return &ConfigError{File: path, Line: n, Msg: msg}
		}
		return &ConfigError{File: path, Msg: te.Errors[0]}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineErr.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &ConfigError{File: path, Line: n, Msg: m[2]}
	}
	return &ConfigError{File: path, Msg: msg}
}
