package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
)

func newDemoCmd() *cobra.Command {
	var listen, screens, dir, game string
	var speed float64
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run a demo table: simulated hardware, embedded broker, a scripted game",
		Long: `Runs the daemon on a simulated table with the embedded MQTT broker and plays
the game's demo script (firmware-config/demo/<game>.yaml). The skirmish demo
(the default) plays the rulebook's worked example: a unit card is scanned, a
target card is scanned, dice are entered on the keypad, the shot is resolved.
--game mali-powstancy plays the README's Mali game (cards from tags, couriers
moved as the pages send them, the soldier's die); --game bitwa-warszawska and
--game wot-rush play a few rounds of theirs. Every run starts a fresh journal in
a new directory. --dir keeps the files in DIR; a DIR whose journal holds a game
is refused (the demo's script never plays over an old game): give another
--dir or remove that journal. Ctrl-C stops it.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				d, err := os.MkdirTemp("", "sztab-demo-")
				if err != nil {
					return err
				}
				dir = d
			} else if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("demo: --dir: %w", err)
			}
			spec, ok := games.Lookup(game)
			if !ok || spec.Demo == "" {
				return fmt.Errorf("demo: no demo of game %q (games with one: %s)", game, strings.Join(demoGames(), ", "))
			}
			if err := writeDemo(dir); err != nil {
				return err
			}
			path := filepath.Join(dir, spec.Demo)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			text := string(data)
			text = strings.Replace(text, `listen: "127.0.0.1:1884"`, fmt.Sprintf("listen: %q", freeOr(listen, "broker")), 1)
			text = strings.Replace(text, `listen: "127.0.0.1:8080"`, fmt.Sprintf("listen: %q", freeOr(screens, "screens")), 1)
			cfg, err := companion.ParseConfig(path, []byte(text))
			if err != nil {
				return err
			}
			if err := freshJournal(cfg); err != nil {
				return err
			}
			fmt.Printf("Sztab demo — %s — journal in %s\n", spec.Title.EN, filepath.Join(dir, cfg.Journal))
			return companion.Run(cmd.Context(), cfg, companion.Options{
				Games:    games,
				Log:      slog.Default(),
				SimSpeed: speed,
				Narrate:  func(s string) { fmt.Println("▶ " + s) },
				OnEvent:  printEvent(os.Stdout, cfg.Language),
				Ready: func(broker, screen string) {
					printDemoAccess(os.Stdout, cfg, broker, screen)
				},
			})
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:1884", "address of the embedded MQTT broker")
	cmd.Flags().StringVar(&screens, "screens", "127.0.0.1:8080", "address of the table's screens")
	cmd.Flags().Float64Var(&speed, "speed", 1, "pace of the scripted session (0: no pauses)")
	cmd.Flags().StringVar(&dir, "dir", "", "directory for the demo's files and journal (default: a new temporary one)")
	cmd.Flags().StringVar(&game, "game", defaultGame, "game to demonstrate")
	return cmd
}

func demoGames() []string {
	var out []string
	for _, g := range games {
		if g.Demo != "" {
			out = append(out, g.ID)
		}
	}
	return out
}

// writeDemo copies the embedded demo table into dir.
func writeDemo(dir string) error {
	return fs.WalkDir(firmwareconfig.Demo, "demo", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := firmwareconfig.Demo.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644)
	})
}

// freeOr returns addr, or the same host with a free port when addr's port is
// taken, saying so.
func freeOr(addr, what string) string {
	if portFree(addr) {
		return addr
	}
	host, _, _ := net.SplitHostPort(addr)
	fmt.Printf("Port of %s is taken; the %s take a free one.\n", addr, what)
	return net.JoinHostPort(host, "0")
}

func portFree(addr string) bool {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// printDemoAccess tells how to watch the demo table, rule over MQTT and
// open its screens, with the logins of the game's own demo config.
func printDemoAccess(w io.Writer, cfg *companion.Config, broker, screen string) {
	_, port, _ := net.SplitHostPort(broker)
	ref := cfg.Display.Referee
	fmt.Fprintf(w, "\nEmbedded MQTT broker on %s. Watch the table with:\n\n", broker)
	fmt.Fprintf(w, "  mosquitto_sub -h 127.0.0.1 -p %s -t 'sztab/#' -v\n", port)
	fmt.Fprintf(w, "  sztab watch --broker tcp://%s --table %s\n\n", broker, cfg.Table)
	fmt.Fprintf(w, "Rule as the referee over MQTT (next phase):\n\n")
	fmt.Fprintf(w, "  mosquitto_pub -h 127.0.0.1 -p %s -u %s -P %s -q 1 -t %s -m '{\"name\":\"next\"}'\n\n", port, ref.User, ref.Password, wire.TopicsFor(cfg.Venue, cfg.Table).RefereeCommand)
	fmt.Fprintf(w, "Table screen:   http://%s/\n", screen)
	fmt.Fprintf(w, "Referee view:   http://%s/referee   (%s / %s)\n", screen, ref.User, ref.Password)
	var seats []string
	for _, p := range cfg.Display.Players {
		seats = append(seats, fmt.Sprintf("/player/%d (%s / %s)", p.Seat, p.User, p.Password))
	}
	if len(seats) > 0 {
		fmt.Fprintf(w, "Players' views: http://%s%s\n", screen, strings.Join(seats, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Ctrl-C stops the demo.")
}

// freshJournal refuses a demo whose journal is already there: the demo's
// script plays from the start, so over an old game it would replay its
// cards and dice on top of that game's state.
func freshJournal(cfg *companion.Config) error {
	path := cfg.Resolve(cfg.Journal)
	_, err := os.Stat(path)
	switch {
	case err == nil:
		return fmt.Errorf("demo: the journal %s already holds a game, and the demo plays only a fresh one: give another --dir, or remove %s (and its -wal and -shm files) to start over", path, path)
	case errors.Is(err, fs.ErrNotExist):
		return nil
	default:
		return fmt.Errorf("demo: checking the journal %s: %w", path, err)
	}
}
