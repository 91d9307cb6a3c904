package main

import (
	"bytes"
	"fmt"
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
