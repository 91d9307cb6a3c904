package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
)

// The demo's help names the logins of the game's own demo config (each
// game's demo has its own players), not one game's for all.
func TestDemoAccessNamesTheGamesLogins(t *testing.T) {
	dir := t.TempDir()
	if err := writeDemo(dir); err != nil {
		t.Fatal(err)
	}
	for _, game := range demoGames() {
		spec, _ := games.Lookup(game)
		t.Run(game, func(t *testing.T) {
			path := filepath.Join(dir, spec.Demo)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := companion.ParseConfig(path, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Display.Players) == 0 || cfg.Display.Referee.User == "" {
				t.Fatalf("the demo config has no logins: %+v", cfg.Display)
			}
			var out bytes.Buffer
			printDemoAccess(&out, cfg, "127.0.0.1:1884", "127.0.0.1:8080")
			text := out.String()
			want := []string{fmt.Sprintf("/referee   (%s / %s)", cfg.Display.Referee.User, cfg.Display.Referee.Password),
				fmt.Sprintf("-u %s -P %s", cfg.Display.Referee.User, cfg.Display.Referee.Password)}
			for _, p := range cfg.Display.Players {
				want = append(want, fmt.Sprintf("/player/%d (%s / %s)", p.Seat, p.User, p.Password))
			}
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("missing %q in:\n%s", w, text)
				}
			}
		})
	}
}

// The demo never plays over an old game: a --dir whose journal is there is
// refused, naming the journal, and the journal is left as it was.
func TestDemoRefusesAUsedDirectory(t *testing.T) {
	for _, game := range []string{"skirmish", "mali-powstancy"} {
		t.Run(game, func(t *testing.T) {
			spec, _ := games.Lookup(game)
			dir := t.TempDir()
			if err := writeDemo(dir); err != nil {
				t.Fatal(err)
			}
			cfg, err := companion.LoadConfig(filepath.Join(dir, spec.Demo))
			if err != nil {
				t.Fatal(err)
			}
			journal := cfg.Resolve(cfg.Journal)
			j, err := companion.OpenJournal(journal, companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, quiet)
			if err != nil {
				t.Fatal(err)
			}
			j.Close()
			before, err := os.ReadFile(journal)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // an old demo would run and stop at once; a refusal comes first
			cmd := newDemoCmd()
			cmd.SetArgs([]string{"--dir", dir, "--game", game, "--speed", "0", "--listen", "127.0.0.1:0", "--screens", "127.0.0.1:0"})
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			err = cmd.ExecuteContext(ctx)
			if err == nil || !strings.Contains(err.Error(), "the journal "+journal+" already holds a game") || !strings.Contains(err.Error(), "give another --dir") {
				t.Errorf("got %v, want a refusal naming %s", err, journal)
			}
			if after, _ := os.ReadFile(journal); !bytes.Equal(before, after) {
				t.Error("the old journal was changed")
			}
		})
	}
}
