package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
	"github.com/sztab/sztab/hardware"
)

// Every registered game brings what the README's "Adding a game" asks:
// a layout named by its id whose keys are its commands, its demo, a panel
// registered under its id, and a constructor that reads its demo config.
func TestEveryRegisteredGameIsWhole(t *testing.T) {
	if err := games.Check(); err != nil {
		t.Fatal(err)
	}
	for _, spec := range games {
		t.Run(spec.ID, func(t *testing.T) {
			if spec.Title.PL == "" || spec.Title.EN == "" {
				t.Errorf("title %+v, want Polish and English", spec.Title)
			}
			layout := filepath.Join("..", "..", "firmware-config", "layouts", spec.ID+".yaml")
			for _, board := range hardware.BoardNames() {
				hw := hardware.Config{Board: board, Layout: filepath.Base(layout), BaseDir: filepath.Dir(layout)}
				if err := hw.CheckKeys(spec.Commands.Names(wire.Keys)); err != nil {
					t.Errorf("layout %s on %s: %v", layout, board, err)
				}
			}
			if spec.Panel != nil && !strings.Contains(string(spec.Panel), `register("`+spec.ID+`"`) {
				t.Errorf("the panel does not register itself as %q", spec.ID)
			}
			if spec.Demo != "" {
				dir := t.TempDir()
				if err := writeDemo(dir); err != nil {
					t.Fatal(err)
				}
				cfg, err := companion.LoadConfig(filepath.Join(dir, spec.Demo))
				if err != nil {
					t.Fatal(err)
				}
				if cfg.Game != spec.ID {
					t.Errorf("demo %s plays %q", spec.Demo, cfg.Game)
				}
				if _, err := cfg.CheckGame(games); err != nil {
					t.Error(err)
				}
				if _, err := spec.New(cfg); err != nil {
					t.Errorf("the demo config does not make a game: %v", err)
				}
			}
		})
	}
	if _, err := firmwareconfig.Demo.ReadFile("demo/skirmish.yaml"); err != nil {
		t.Error(err)
	}
}

// A layout key the game does not know is refused at the config check, with
// the game's keys named.
func TestConfigWithAKeyTheGameDoesNotKnow(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(`venue: v
table: t
game: skirmish
tags: tags.yaml
skirmish:
  players: [{seat: 1, name: A, faction: Armia Krajowa}, {seat: 2, name: B, faction: Wehrmacht}]
hardware:
  board: rpi4
  keypads:
    - {name: dice, keys: {"1": GPIO5, shuffle: GPIO6}}
`), 0o644)
	cfg, err := companion.LoadConfig(filepath.Join(dir, "t.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cfg.CheckGame(games)
	if err == nil || !strings.Contains(err.Error(), `key "shuffle" is not a key of this game`) || !strings.Contains(err.Error(), "t.yaml:8") {
		t.Errorf("got %v, want the unknown key named at the hardware line", err)
	}
}

// A misspelled game id in a shipped demo config is said at the game line,
// as an unknown game, with every registered game's id.
func TestConfigWithAMisspelledGame(t *testing.T) {
	dir := t.TempDir()
	if err := writeDemo(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "skirmish.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), "game: skirmish", "game: skirmsh", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := companion.LoadConfig(path)
	if err == nil {
		_, err = cfg.CheckGame(games)
	}
	var ce *companion.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), `game: "skirmsh" is not a game this Sztab plays (`+strings.Join(games.IDs(), ", ")+`)`) {
		t.Fatalf("got %v, want the unknown game and the games played", err)
	}
	lines := strings.Split(string(data), "\n")
	if ce.Line < 1 || !strings.HasPrefix(lines[ce.Line-1], "game:") {
		t.Errorf("reported at line %d, want the game line", ce.Line)
	}
}

// The games' own subcommands (GameSpec.Tools) are the binary's: each is on
// the root once, and no two
// commands share a name (cobra would run the first and hide the other).
func TestGameToolsAreSubcommands(t *testing.T) {
	root := newRoot()
	seen := map[string]int{}
	for _, c := range root.Commands() {
		seen[c.Name()]++
	}
	for name, n := range seen {
		if n > 1 {
			t.Errorf("%d subcommands named %q", n, name)
		}
	}
	tools := 0
	for _, g := range games {
		for _, mk := range g.Tools {
			tools++
			name := mk().Name()
			if seen[name] != 1 {
				t.Errorf("%s's tool %q is not a subcommand of sztab", g.ID, name)
			}
		}
	}
	if tools == 0 {
		t.Error("no game brings a tool of its own")
	}
}

// A config naming a box pack for a game that reads none (the skirmish's
// data is its section's own files) is refused at the box: line with a
// reason, instead of playing on without the pack; every other registered
// game reads packs, and its demo config with box: passes the check.
func TestConfigWithABoxForAGameWithoutPacks(t *testing.T) {
	dir := t.TempDir()
	if err := writeDemo(dir); err != nil {
		t.Fatal(err)
	}
	for _, spec := range games {
		if spec.Demo == "" {
			continue
		}
		t.Run(spec.ID, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, spec.Demo))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "box-"+spec.Demo)
			text := strings.Replace(string(data), "game: "+spec.ID+"\n", "game: "+spec.ID+"\nbox: ./nasze-pudelko\n", 1)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := companion.LoadConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = cfg.CheckGame(games)
			if spec.Box != nil {
				if err != nil {
					t.Errorf("a game with packs: %v", err)
				}
				return
			}
			var ce *companion.ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), "has no box packs") || !strings.Contains(err.Error(), spec.Title.PL) {
				t.Fatalf("got %v, want the box refused with the game's name", err)
			}
			lines := strings.Split(text, "\n")
			if ce.Line < 1 || !strings.HasPrefix(lines[ce.Line-1], "box:") {
				t.Errorf("reported at line %d, want the box line", ce.Line)
			}
		})
	}
}
